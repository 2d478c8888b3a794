//! The languages Signet speaks: its emails, signing page and certificate come in each.

use crate::DomainError;

/// Language codes, English first: the one used when none is asked for.
pub const LANGUAGES: &[&str] = &[
    "en", "es", "fr", "de", "pt", "it", "nl", "pl", "tr", "ru", "ar", "ja", "zh", "ko",
];

/// A language code of a query or body, English when left out.
pub fn locale(field: &str, v: Option<&str>) -> Result<String, DomainError> {
    match v.map(str::trim) {
        None | Some("") => Ok("en".into()),
        Some(l) if LANGUAGES.contains(&l) => Ok(l.to_string()),
        Some(l) => Err(DomainError::invalid(
            field,
            format!("'{l}' is not one of {}", LANGUAGES.join(", ")),
        )),
    }
}
