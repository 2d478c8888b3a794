//! Text tags, written inside HTML and files: `{{Label;type=signature;role=client}}`, DocuSeal's
//! grammar. A tag becomes a field where it is written. This module finds tags in a text and
//! reads each one; placing them on a page is the template's work.
//!
//! Forgiving where writers slip: spaces around names, values and separators; curly quotes
//! (“ ” ‘ ’) as straight ones; attribute names in any case; `true`/`false`, `yes`/`no`,
//! `1`/`0`. Strict where a mistake would make a wrong field: an unknown type or attribute, a
//! bad number, a payment without its one amount, options on a field that takes none, each is
//! an error that quotes the tag.

use serde_json::{Map, Value, json};

use crate::model::FieldType;

/// The longest tag read: a longer `{{…}}` is text, not a tag.
pub const MAX_TAG: usize = 2_000;

/// A payment tag's amount: exactly one of these.
#[derive(Clone, Debug, PartialEq)]
pub enum PaymentAmount {
    /// A fixed amount, in the currency's smallest unit written as a decimal (`12.50`).
    Amount(String),
    /// An expression over other fields, checked when payments evaluate it.
    Formula(String),
    /// A price id of the payment processor.
    Price(String),
    /// A payment link of the processor.
    Link(String),
}

/// One tag, read.
#[derive(Clone, Debug, PartialEq)]
pub struct Tag {
    /// The field's name; `Field N` when the tag has none.
    pub label: String,
    pub ty: FieldType,
    /// The role word of the seat that fills it in; `None` means the first seat.
    pub role: Option<String>,
    pub required: bool,
    /// Shown but not changeable: a locked field with its default.
    pub readonly: bool,
    pub default: Option<String>,
    pub options: Vec<String>,
    /// In points, when the tag asks for a size other than its own text's.
    pub width: Option<f64>,
    pub height: Option<f64>,
    /// Dates (`DD/MM/YYYY`) and numbers (`0.00`): how the value is shown.
    pub format: Option<String>,
    pub placeholder: Option<String>,
    pub tooltip: Option<String>,
    /// `date` with `datenow`: the date signed, filled in by the service.
    pub date_signed: bool,
    pub payment: Option<PaymentAmount>,
    pub currency: Option<String>,
}

impl Tag {
    /// The tag as a `fieldTag` node's attributes of the source model.
    pub fn attrs(&self, default_role: &str) -> Value {
        let mut a = Map::new();
        a.insert("name".into(), json!(self.label));
        a.insert("type".into(), json!(self.ty.as_str()));
        a.insert(
            "role".into(),
            json!(
                self.role
                    .clone()
                    .unwrap_or_else(|| default_role.to_string())
            ),
        );
        a.insert("required".into(), json!(self.required));
        if let Some(d) = &self.default {
            a.insert("default".into(), json!(d));
        }
        if self.readonly {
            a.insert("locked".into(), json!(true));
        }
        if self.date_signed {
            a.insert("autofill".into(), json!("date_signed"));
            a.insert("editable".into(), json!(false));
        }
        if !self.options.is_empty() {
            a.insert("options".into(), json!(self.options));
        }
        // The amount as the tag gives it; payments evaluate a formula.
        match &self.payment {
            Some(PaymentAmount::Amount(v)) => a.insert("amount".into(), json!(v)),
            Some(PaymentAmount::Formula(v)) => a.insert("formula".into(), json!(v)),
            Some(PaymentAmount::Price(v)) => a.insert("price".into(), json!(v)),
            Some(PaymentAmount::Link(v)) => a.insert("link".into(), json!(v)),
            None => None,
        };
        if let Some(c) = &self.currency {
            a.insert("currency".into(), json!(c));
        }
        if let Some(w) = self.width {
            a.insert("width".into(), json!(w));
        }
        if let Some(h) = self.height {
            a.insert("height".into(), json!(h));
        }
        if let Some(p) = &self.placeholder {
            a.insert("placeholder".into(), json!(p));
        }
        if let Some(t) = &self.tooltip {
            a.insert("tooltip".into(), json!(t));
        }
        Value::Object(a)
    }
}

/// Whether two tags are one field shown in several places: the same label and seat. Then
/// every other attribute must agree (the size may differ: each place has its own); a
/// conflict is an error naming the field. Tags without a label are always separate fields.
pub fn same_field(a: &Tag, b: &Tag) -> Result<bool, String> {
    if a.label.is_empty() || a.label != b.label || a.role != b.role {
        return Ok(false);
    }
    let strip = |t: &Tag| Tag {
        width: None,
        height: None,
        ..t.clone()
    };
    if strip(a) != strip(b) {
        return Err(format!(
            "'{}' is written twice for the same seat with different attributes",
            a.label
        ));
    }
    Ok(true)
}

/// A tag found in a text: where (byte range, braces included) and what it reads as.
#[derive(Clone, Debug, PartialEq)]
pub struct Found {
    pub start: usize,
    pub end: usize,
    pub tag: Result<Tag, String>,
}

/// Every `{{…}}` of `text` that is a field tag, in order. A `{{…}}` holding only a merge
/// name (`{{org.name}}`, no `;` and no `=`) is not a tag and is left alone; so is one longer
/// than `MAX_TAG` or without its closing braces.
pub fn find(text: &str) -> Vec<Found> {
    let mut out = Vec::new();
    let mut from = 0;
    // The next `}}` at or after a place: the places only grow, so it is looked for again only
    // once passed, and a text of many `{{` is read once, not once per brace.
    let mut next_close: Option<usize> = None;
    while let Some(open) = text[from..].find("{{").map(|i| i + from) {
        if next_close.is_none_or(|c| c < open + 2) {
            next_close = text[open + 2..].find("}}").map(|i| i + open + 2);
        }
        let Some(close) = next_close else {
            break;
        };
        if close - (open + 2) > MAX_TAG {
            from = open + 2;
            continue;
        }
        let inner = &text[open + 2..close];
        if inner.len() > MAX_TAG || inner.contains("{{") {
            from = open + 2;
            continue;
        }
        let is_tag = inner.contains(';') || inner.contains('=');
        if is_tag {
            out.push(Found {
                start: open,
                end: close + 2,
                tag: read(inner).map_err(|e| format!("{e} in {{{{{}}}}}", inner.trim())),
            });
        }
        from = close + 2;
    }
    out
}

fn straight(s: &str) -> String {
    s.replace(['“', '”', '„', '«', '»'], "\"")
        .replace(['‘', '’', '‚'], "'")
        .replace('\u{a0}', " ")
}

fn unquote(v: &str) -> String {
    let v = v.trim();
    for q in ['"', '\''] {
        if v.len() >= 2 && v.starts_with(q) && v.ends_with(q) {
            return v[1..v.len() - 1].to_string();
        }
    }
    v.to_string()
}

fn boolean(name: &str, v: &str) -> Result<bool, String> {
    match v.to_ascii_lowercase().as_str() {
        "true" | "yes" | "1" | "" => Ok(true),
        "false" | "no" | "0" => Ok(false),
        _ => Err(format!("{name} must be true or false, not '{v}'")),
    }
}

fn points(name: &str, v: &str) -> Result<f64, String> {
    let n: f64 = v
        .trim_end_matches("pt")
        .trim()
        .parse()
        .map_err(|_| format!("{name} must be a number of points, not '{v}'"))?;
    if !(1.0..=2000.0).contains(&n) {
        return Err(format!("{name} must be from 1 to 2000 points, not {n}"));
    }
    Ok(n)
}

/// DocuSeal's type names and ours.
fn field_type(v: &str) -> Result<(FieldType, bool), String> {
    let t = v.to_ascii_lowercase();
    Ok(match t.as_str() {
        "datenow" | "date_now" => (FieldType::Date, true),
        "dropdown" => (FieldType::Select, false),
        "initial" => (FieldType::Initials, false),
        "sign" => (FieldType::Signature, false),
        "textarea" => (FieldType::Text, false),
        "image" | "file" | "stamp" | "cells" | "multiple" | "verification" | "kba" => {
            return Err(format!(
                "type={t} is not a field Signet takes yet; use one of {}",
                FieldType::ALL
                    .iter()
                    .map(|f| f.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        other => match FieldType::parse(other) {
            Some(f) => (f, false),
            None => {
                return Err(format!(
                    "type '{other}' is unknown; use one of {}",
                    FieldType::ALL
                        .iter()
                        .map(|f| f.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ));
            }
        },
    })
}

/// Reads what is between the braces.
pub fn read(inner: &str) -> Result<Tag, String> {
    let inner = straight(inner);
    let (mut label, pairs) = split(&inner);
    let mut tag = Tag {
        label: String::new(),
        ty: FieldType::Text,
        role: None,
        required: true,
        readonly: false,
        default: None,
        options: Vec::new(),
        width: None,
        height: None,
        format: None,
        placeholder: None,
        tooltip: None,
        date_signed: false,
        payment: None,
        currency: None,
    };
    let mut payment = Vec::new();
    set_attributes(&mut tag, &mut label, &mut payment, pairs)?;
    tag.label = label
        .map(|l| l.trim().to_string())
        .filter(|l| !l.is_empty())
        .unwrap_or_default();
    if tag.label.chars().count() > 200 {
        return Err("the label is longer than 200 characters".into());
    }
    agree(&mut tag, payment)?;
    Ok(tag)
}

/// A tag's inside as its label (the first part, unless it is itself an attribute) and its
/// attributes as (lower-case name, value) pairs; a bare word is a switch (`required`).
fn split(inner: &str) -> (Option<String>, Vec<(String, String)>) {
    let mut parts = inner.split(';');
    let first = parts.next().unwrap_or_default().trim();
    let mut label = None;
    let mut pairs = Vec::new();
    // The first part is the label, unless it is itself an attribute.
    match first.split_once('=') {
        Some((k, v)) => pairs.push((k.trim().to_ascii_lowercase(), unquote(v))),
        None if !first.is_empty() => label = Some(unquote(first)),
        None => {}
    }
    for part in parts {
        let part = part.trim();
        if part.is_empty() {
            continue;
        }
        match part.split_once('=') {
            Some((k, v)) => pairs.push((k.trim().to_ascii_lowercase(), unquote(v))),
            // A bare word is a switch: `required`, `readonly`.
            None => pairs.push((part.to_ascii_lowercase(), String::new())),
        }
    }
    (label, pairs)
}

/// Each attribute set on the tag, once; payment amounts gathered in `payment`.
fn set_attributes(
    tag: &mut Tag,
    label: &mut Option<String>,
    payment: &mut Vec<PaymentAmount>,
    pairs: Vec<(String, String)>,
) -> Result<(), String> {
    let mut seen: Vec<String> = Vec::new();
    for (k, v) in pairs {
        if seen.contains(&k) {
            return Err(format!("{k} is given twice"));
        }
        seen.push(k.clone());
        match k.as_str() {
            "name" | "label" => *label = Some(v),
            "type" => (tag.ty, tag.date_signed) = field_type(&v)?,
            "role" => {
                let r = v.trim();
                if r.is_empty() {
                    return Err("role must not be empty".into());
                }
                tag.role = Some(r.to_string());
            }
            "required" => tag.required = boolean("required", &v)?,
            "readonly" | "read_only" | "locked" => tag.readonly = boolean(&k, &v)?,
            "default" | "value" | "default_value" => tag.default = Some(v),
            "options" => {
                // DocuSeal separates options with commas; `|` is accepted too.
                let sep = if v.contains('|') { '|' } else { ',' };
                tag.options = v
                    .split(sep)
                    .map(|o| o.trim().to_string())
                    .filter(|o| !o.is_empty())
                    .collect();
            }
            "width" => tag.width = Some(points("width", &v)?),
            "height" => tag.height = Some(points("height", &v)?),
            "format" => tag.format = Some(v),
            "placeholder" => tag.placeholder = Some(v),
            "description" | "tooltip" | "title" => tag.tooltip = Some(v),
            "currency" => tag.currency = Some(v.to_ascii_uppercase()),
            "amount" => payment.push(PaymentAmount::Amount(v)),
            "formula" => payment.push(PaymentAmount::Formula(v)),
            "price" => payment.push(PaymentAmount::Price(v)),
            "link" => payment.push(PaymentAmount::Link(v)),
            other => return Err(format!("'{other}' is not a tag attribute")),
        }
    }
    Ok(())
}

/// The rules across a tag's attributes: a payment's one amount, options where the type has
/// them, a default among them, a readonly field's default.
fn agree(tag: &mut Tag, mut payment: Vec<PaymentAmount>) -> Result<(), String> {
    if tag.ty == FieldType::Payment {
        if payment.len() != 1 {
            return Err("a payment tag takes exactly one of amount, formula, price or link".into());
        }
        if let Some(PaymentAmount::Amount(a)) = payment.first() {
            let ok = a.parse::<f64>().is_ok_and(|n| n.is_finite() && n > 0.0);
            if !ok {
                return Err(format!("amount must be a positive number, not '{a}'"));
            }
        }
        if let Some(PaymentAmount::Formula(f)) = payment.first() {
            crate::formula::parse(f).map_err(|why| format!("the formula '{f}': {why}"))?;
        }
        tag.payment = payment.pop();
    } else if !payment.is_empty() || tag.currency.is_some() {
        return Err("amount, formula, price, link and currency belong to type=payment".into());
    }
    if tag.ty.has_options() && tag.options.is_empty() {
        return Err(format!("type={} needs options=a,b,c", tag.ty.as_str()));
    }
    if !tag.ty.has_options() && !tag.options.is_empty() {
        return Err(format!("type={} takes no options", tag.ty.as_str()));
    }
    if let Some(d) = &tag.default
        && tag.ty.has_options()
        && !tag.options.contains(d)
    {
        return Err(format!("default '{d}' is not one of the options"));
    }
    if tag.readonly && tag.default.is_none() && !tag.date_signed {
        return Err("a readonly field needs its default".into());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(text: &str) -> Result<Tag, String> {
        let found = find(text);
        assert_eq!(found.len(), 1, "{found:?}");
        found.into_iter().next().unwrap().tag
    }

    #[test]
    fn a_tag_is_found_where_it_is_written_and_merge_names_are_left_alone() {
        let text = "Dear {{org.name}}, sign here: {{Signature;type=signature;role=client}} thanks";
        let found = find(text);
        assert_eq!(found.len(), 1);
        assert_eq!(
            &text[found[0].start..found[0].end],
            "{{Signature;type=signature;role=client}}"
        );
        let t = found[0].tag.clone().unwrap();
        assert_eq!(
            (t.label.as_str(), t.ty, t.role.as_deref(), t.required),
            ("Signature", FieldType::Signature, Some("client"), true)
        );
    }

    #[test]
    fn writers_slips_are_forgiven() {
        let t = one(
            "{{ Start date ; TYPE = date ; role = “tenant” ; format=DD/MM/YYYY ; required = no }}",
        )
        .unwrap();
        assert_eq!(t.label, "Start date");
        assert_eq!(t.ty, FieldType::Date);
        assert_eq!(t.role.as_deref(), Some("tenant"));
        assert_eq!(t.format.as_deref(), Some("DD/MM/YYYY"));
        assert!(!t.required);
        let t = one("{{Plan;type=select;options=Basic, Pro , Team;default=Pro}}").unwrap();
        assert_eq!(t.options, ["Basic", "Pro", "Team"]);
        let t = one("{{type=initials;role=client;width=40;height=20pt}}").unwrap();
        assert_eq!(
            (t.label.as_str(), t.width, t.height),
            ("", Some(40.0), Some(20.0))
        );
        let t = one("{{Signed on;type=datenow;role=client}}").unwrap();
        assert!(t.date_signed);
        assert_eq!(t.attrs("client")["autofill"], "date_signed");
        let t = one("{{Deposit;readonly;default=2 months}}").unwrap();
        assert!(t.readonly);
        assert_eq!(t.attrs("client")["locked"], true);
        assert_eq!(
            t.attrs("client")["role"],
            "client",
            "the first seat when none is named"
        );
    }

    #[test]
    fn a_payment_takes_exactly_one_amount() {
        let t = one("{{Deposit;type=payment;amount=250.00;currency=eur;role=client}}").unwrap();
        assert_eq!(t.payment, Some(PaymentAmount::Amount("250.00".into())));
        assert_eq!(t.currency.as_deref(), Some("EUR"));
        let t = one("{{Total;type=payment;formula=Qty * 12.5}}").unwrap();
        assert_eq!(t.payment, Some(PaymentAmount::Formula("Qty * 12.5".into())));
        for bad in [
            "{{Deposit;type=payment}}",
            "{{Deposit;type=payment;amount=5;price=price_1}}",
            "{{Deposit;type=payment;amount=-5}}",
            "{{Name;type=text;amount=5}}",
        ] {
            assert!(one(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_tag_that_cannot_be_read_says_why_and_quotes_itself() {
        for (bad, why) in [
            ("{{X;type=hologram}}", "unknown"),
            ("{{X;type=image}}", "not a field Signet takes"),
            ("{{X;colour=red}}", "not a tag attribute"),
            ("{{X;type=radio}}", "needs options"),
            ("{{X;type=text;options=a,b}}", "takes no options"),
            (
                "{{X;type=select;options=a,b;default=c}}",
                "not one of the options",
            ),
            ("{{X;width=wide}}", "number of points"),
            ("{{X;required=maybe}}", "true or false"),
            ("{{X;role=a;role=b}}", "twice"),
            ("{{X;readonly}}", "needs its default"),
        ] {
            let e = one(bad).unwrap_err();
            assert!(e.contains(why), "{bad}: {e}");
            assert!(e.contains(bad), "the error quotes the tag: {e}");
        }
    }

    #[test]
    fn the_same_label_and_seat_is_one_field_unless_they_disagree() {
        let a = one("{{Initials;type=initials;role=client}}").unwrap();
        let b = one("{{Initials;type=initials;role=client;width=30}}").unwrap();
        assert_eq!(same_field(&a, &b), Ok(true), "a size of its own");
        let other_seat = one("{{Initials;type=initials;role=landlord}}").unwrap();
        assert_eq!(same_field(&a, &other_seat), Ok(false));
        let conflict = one("{{Initials;type=text;role=client}}").unwrap();
        assert!(
            same_field(&a, &conflict)
                .unwrap_err()
                .contains("different attributes")
        );
    }

    #[test]
    fn unclosed_or_oversized_braces_are_text() {
        assert!(find("{{Signature;type=signature").is_empty());
        let long = format!("{{{{{};type=text}}}}", "x".repeat(MAX_TAG + 1));
        assert!(find(&long).is_empty());
        // Nested braces: the inner tag is read, the outer opening is text.
        let found = find("{{ {{Name;type=text}}");
        assert_eq!(found.len(), 1);
        assert!(found[0].tag.is_ok());
    }
}
