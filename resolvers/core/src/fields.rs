//! The rules every text a caller sends goes through: not empty, not too long, no control
//! characters, nothing that makes it read as something else; one line where a line break
//! could reach an email header or a PDF's certificate. Each error names the field.

use crate::DomainError;

pub fn is_email(s: &str) -> bool {
    let Some((local, domain)) = s.split_once('@') else {
        return false;
    };
    s.len() <= 254
        && !domain.contains('@')
        && !s.chars().any(|c| ",;\"()[]:\\<>".contains(c))
        && !local.is_empty()
        && local.len() <= 64
        && domain.contains('.')
        && !domain.starts_with('.')
        && !domain.ends_with('.')
        && !s
            .chars()
            .any(|c| c.is_whitespace() || c.is_control() || c == '<' || c == '>')
}

pub fn text(field: &str, v: &str, max: usize) -> Result<String, DomainError> {
    match text_problem(v, max) {
        None => Ok(v.trim().to_string()),
        Some(why) => Err(DomainError::invalid(field, why)),
    }
}

/// Why `v` is not a text of at most `max` characters (trimmed), if it is not.
pub fn text_problem(v: &str, max: usize) -> Option<String> {
    // Looked for before trimming: a separator is white space to `trim`, and one at an end
    // is refused like one inside.
    let disguised = v.chars().any(is_disguising);
    let t = v.trim();
    if t.is_empty() {
        return Some("must not be empty".into());
    }
    if t.chars().count() > max {
        return Some(format!("is longer than {max} characters"));
    }
    if t.chars().any(|c| c.is_control() && c != '\n' && c != '\t') {
        return Some("must not hold control characters".into());
    }
    if disguised {
        return Some(
            "must not hold bidirectional embedding, override or isolate characters \
             (U+202A to U+202E, U+2066 to U+2069) or line and paragraph separators (U+2028, \
             U+2029), which make text read as something else"
                .into(),
        );
    }
    None
}

/// Characters that make printed text read as something else: the explicit bidirectional
/// formatting characters (`A\u{202e}live\u{202c} B` shows as another name) and the Unicode
/// line and paragraph separators, which are not control characters but break a line in a
/// PDF or an email (`Ann Lee\u{2028}Email ceo@bank.example` prints as a second line of the
/// certificate). The marks U+200E and U+200F stay allowed.
pub fn is_disguising(c: char) -> bool {
    matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{2028}' | '\u{2029}')
}

/// A one-line value (a title, a name, an email subject): no line breaks or other control
/// characters, which could reach email headers.
pub fn line(field: &str, v: &str, max: usize) -> Result<String, DomainError> {
    match line_problem(v, max) {
        None => Ok(v.trim().to_string()),
        Some(why) => Err(DomainError::invalid(field, why)),
    }
}

/// Why `v` is not one line of at most `max` characters (trimmed), if it is not.
pub fn line_problem(v: &str, max: usize) -> Option<String> {
    text_problem(v, max).or_else(|| {
        v.trim()
            .chars()
            .any(char::is_control)
            .then(|| "must be one line, without control characters".into())
    })
}

/// A text trimmed, blank as left out: the normal form of an optional text whose rules passed.
pub fn trimmed(v: &Option<String>) -> Option<String> {
    v.as_deref()
        .map(str::trim)
        .filter(|v| !v.is_empty())
        .map(str::to_string)
}

/// An optional value: left out or blank is `None`, anything else goes through `parse`.
fn optional(
    field: &str,
    v: &Option<String>,
    max: usize,
    parse: fn(&str, &str, usize) -> Result<String, DomainError>,
) -> Result<Option<String>, DomainError> {
    match v {
        Some(s) if !s.trim().is_empty() => parse(field, s, max).map(Some),
        _ => Ok(None),
    }
}

pub fn opt_line(
    field: &str,
    v: &Option<String>,
    max: usize,
) -> Result<Option<String>, DomainError> {
    optional(field, v, max, line)
}

pub fn opt_text(
    field: &str,
    v: &Option<String>,
    max: usize,
) -> Result<Option<String>, DomainError> {
    optional(field, v, max, text)
}
