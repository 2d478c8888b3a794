//! Dates drawn into a sealed document, written the way its language writes them. Values are
//! stored as ISO dates (`2026-11-22`); only the drawing is localised, so the stored value and
//! the audit trail stay unambiguous.

const MONTHS: &[(&str, [&str; 12])] = &[
    (
        "en",
        [
            "January",
            "February",
            "March",
            "April",
            "May",
            "June",
            "July",
            "August",
            "September",
            "October",
            "November",
            "December",
        ],
    ),
    (
        "es",
        [
            "enero",
            "febrero",
            "marzo",
            "abril",
            "mayo",
            "junio",
            "julio",
            "agosto",
            "septiembre",
            "octubre",
            "noviembre",
            "diciembre",
        ],
    ),
    (
        "fr",
        [
            "janvier",
            "février",
            "mars",
            "avril",
            "mai",
            "juin",
            "juillet",
            "août",
            "septembre",
            "octobre",
            "novembre",
            "décembre",
        ],
    ),
    (
        "de",
        [
            "Januar",
            "Februar",
            "März",
            "April",
            "Mai",
            "Juni",
            "Juli",
            "August",
            "September",
            "Oktober",
            "November",
            "Dezember",
        ],
    ),
    (
        "pt",
        [
            "janeiro",
            "fevereiro",
            "março",
            "abril",
            "maio",
            "junho",
            "julho",
            "agosto",
            "setembro",
            "outubro",
            "novembro",
            "dezembro",
        ],
    ),
    (
        "it",
        [
            "gennaio",
            "febbraio",
            "marzo",
            "aprile",
            "maggio",
            "giugno",
            "luglio",
            "agosto",
            "settembre",
            "ottobre",
            "novembre",
            "dicembre",
        ],
    ),
    (
        "nl",
        [
            "januari",
            "februari",
            "maart",
            "april",
            "mei",
            "juni",
            "juli",
            "augustus",
            "september",
            "oktober",
            "november",
            "december",
        ],
    ),
    // Polish and Russian name the month in the genitive after a day.
    (
        "pl",
        [
            "stycznia",
            "lutego",
            "marca",
            "kwietnia",
            "maja",
            "czerwca",
            "lipca",
            "sierpnia",
            "września",
            "października",
            "listopada",
            "grudnia",
        ],
    ),
    (
        "tr",
        [
            "Ocak", "Şubat", "Mart", "Nisan", "Mayıs", "Haziran", "Temmuz", "Ağustos", "Eylül",
            "Ekim", "Kasım", "Aralık",
        ],
    ),
    (
        "ru",
        [
            "января",
            "февраля",
            "марта",
            "апреля",
            "мая",
            "июня",
            "июля",
            "августа",
            "сентября",
            "октября",
            "ноября",
            "декабря",
        ],
    ),
    (
        "ar",
        [
            "يناير",
            "فبراير",
            "مارس",
            "أبريل",
            "مايو",
            "يونيو",
            "يوليو",
            "أغسطس",
            "سبتمبر",
            "أكتوبر",
            "نوفمبر",
            "ديسمبر",
        ],
    ),
];

/// `iso` (`YYYY-MM-DD`) as `lang` writes a date; `None` when `iso` is not such a date, so the
/// value is drawn as it was given.
pub fn localized(iso: &str, lang: &str) -> Option<String> {
    let date = chrono::NaiveDate::parse_from_str(iso.trim(), "%Y-%m-%d").ok()?;
    use chrono::Datelike;
    let (y, m, d) = (date.year(), date.month() as usize, date.day());
    let month = |l: &str| {
        MONTHS
            .iter()
            .find(|(code, _)| *code == l)
            .map(|(_, names)| names[m - 1])
    };
    Some(match lang {
        "ja" | "zh" => format!("{y}年{m}月{d}日"),
        "ko" => format!("{y}년 {m}월 {d}일"),
        "es" | "pt" => format!("{d} de {} de {y}", month(lang)?),
        "fr" if d == 1 => format!("1er {} {y}", month(lang)?),
        "de" => format!("{d}. {} {y}", month(lang)?),
        "ru" => format!("{d} {} {y} г.", month(lang)?),
        "fr" | "it" | "nl" | "pl" | "tr" | "ar" => format!("{d} {} {y}", month(lang)?),
        _ => format!("{} {d}, {y}", month("en")?),
    })
}

#[cfg(test)]
mod tests {
    use super::localized;

    #[test]
    fn every_language_of_the_spec_writes_its_own_dates() {
        let cases = [
            ("en", "November 22, 2026"),
            ("es", "22 de noviembre de 2026"),
            ("fr", "22 novembre 2026"),
            ("de", "22. November 2026"),
            ("pt", "22 de novembro de 2026"),
            ("it", "22 novembre 2026"),
            ("nl", "22 november 2026"),
            ("pl", "22 listopada 2026"),
            ("tr", "22 Kasım 2026"),
            ("ru", "22 ноября 2026 г."),
            ("ar", "22 نوفمبر 2026"),
            ("ja", "2026年11月22日"),
            ("zh", "2026年11月22日"),
            ("ko", "2026년 11월 22일"),
        ];
        for (lang, want) in cases {
            assert_eq!(
                localized("2026-11-22", lang).as_deref(),
                Some(want),
                "{lang}"
            );
        }
        assert_eq!(
            localized("2026-03-01", "fr").as_deref(),
            Some("1er mars 2026")
        );
        // Unknown languages fall back to English; what is not an ISO date is left alone.
        assert_eq!(
            localized("2026-11-22", "xx").as_deref(),
            Some("November 22, 2026")
        );
        assert_eq!(localized("next Tuesday", "en"), None);
        assert_eq!(localized("2026-02-30", "en"), None);
    }
}
