//! The currencies a payment may be asked in: those the payment processor (Stripe) charges in
//! most countries, each with the digits of its minor unit. Amounts are kept in minor units;
//! a zero-decimal currency (JPY) has none and a three-decimal one (KWD) has three.

/// Code (lower case, as the processor writes it), the digits after the point, English name.
pub const CURRENCIES: &[(&str, u8, &str)] = &[
    ("usd", 2, "US dollar"),
    ("eur", 2, "Euro"),
    ("gbp", 2, "Pound sterling"),
    ("cad", 2, "Canadian dollar"),
    ("aud", 2, "Australian dollar"),
    ("nzd", 2, "New Zealand dollar"),
    ("chf", 2, "Swiss franc"),
    ("sek", 2, "Swedish krona"),
    ("nok", 2, "Norwegian krone"),
    ("dkk", 2, "Danish krone"),
    ("pln", 2, "Polish złoty"),
    ("czk", 2, "Czech koruna"),
    ("huf", 2, "Hungarian forint"),
    ("ron", 2, "Romanian leu"),
    ("try", 2, "Turkish lira"),
    ("brl", 2, "Brazilian real"),
    ("mxn", 2, "Mexican peso"),
    ("inr", 2, "Indian rupee"),
    ("sgd", 2, "Singapore dollar"),
    ("hkd", 2, "Hong Kong dollar"),
    ("cny", 2, "Chinese yuan"),
    ("aed", 2, "UAE dirham"),
    ("sar", 2, "Saudi riyal"),
    ("zar", 2, "South African rand"),
    ("ils", 2, "Israeli new shekel"),
    ("thb", 2, "Thai baht"),
    ("myr", 2, "Malaysian ringgit"),
    ("php", 2, "Philippine peso"),
    ("idr", 2, "Indonesian rupiah"),
    ("jpy", 0, "Japanese yen"),
    ("krw", 0, "South Korean won"),
    ("vnd", 0, "Vietnamese đồng"),
    ("clp", 0, "Chilean peso"),
    ("xof", 0, "West African CFA franc"),
    ("xaf", 0, "Central African CFA franc"),
    ("bhd", 3, "Bahraini dinar"),
    ("jod", 3, "Jordanian dinar"),
    ("kwd", 3, "Kuwaiti dinar"),
    ("omr", 3, "Omani rial"),
    ("tnd", 3, "Tunisian dinar"),
];

/// The digits of `code`'s minor unit, when it is a currency payments may use.
pub fn decimals(code: &str) -> Option<u8> {
    let code = code.to_ascii_lowercase();
    CURRENCIES
        .iter()
        .find(|(c, _, _)| *c == code)
        .map(|(_, d, _)| *d)
}

/// The amount a person reads (`12.50`, `1,200`): minor units in major ones, with the
/// currency's own digits after the point.
pub fn shown(minor: i64, code: &str) -> String {
    let digits = decimals(code).unwrap_or(2) as u32;
    if digits == 0 {
        return minor.to_string();
    }
    let unit = 10_i64.pow(digits);
    format!(
        "{}.{:0width$}",
        minor / unit,
        minor % unit,
        width = digits as usize
    )
}

/// An amount written in major units (`"12.50"`) in minor units of `code`: refused when it
/// has more digits after the point than the currency has, is not positive, or is too large.
pub fn minor_units(amount: &str, code: &str) -> Option<i64> {
    let digits = decimals(code)? as usize;
    let s = amount.trim();
    let (whole, frac) = s.split_once('.').unwrap_or((s, ""));
    if whole.is_empty() || whole.len() > 10 || frac.len() > digits {
        return None;
    }
    if !whole.bytes().all(|b| b.is_ascii_digit()) || !frac.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let w: i64 = whole.parse().ok()?;
    let f: i64 = if digits == 0 {
        0
    } else {
        format!("{frac:0<digits$}").parse().ok()?
    };
    let minor = w.checked_mul(10_i64.pow(digits as u32))?.checked_add(f)?;
    (minor > 0).then_some(minor)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn minor_units_follow_each_currencys_digits() {
        assert_eq!(minor_units("12.5", "usd"), Some(1250));
        assert_eq!(minor_units("1200", "JPY"), Some(1200));
        assert_eq!(minor_units("12.5", "jpy"), None);
        assert_eq!(minor_units("1.234", "kwd"), Some(1234));
        assert_eq!(minor_units("1.234", "usd"), None);
        assert_eq!(minor_units("0", "usd"), None);
        assert_eq!(minor_units("10", "xyz"), None);
    }

    #[test]
    fn amounts_are_shown_with_the_currencys_digits() {
        assert_eq!(shown(1250, "usd"), "12.50");
        assert_eq!(shown(1200, "jpy"), "1200");
        assert_eq!(shown(1234, "kwd"), "1.234");
        assert_eq!(shown(5, "eur"), "0.05");
    }
}
