//! Times as callers see them.

/// A stored time (milliseconds since 1970) as RFC 3339 in UTC with milliseconds, the form
/// every time field of the API takes.
pub fn time(ms: i64) -> String {
    chrono::DateTime::from_timestamp_millis(ms)
        .map(|t| t.to_rfc3339_opts(chrono::SecondsFormat::Millis, true))
        .unwrap_or_default()
}
