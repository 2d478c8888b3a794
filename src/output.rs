//! How a command ends: what it prints, and its exit status.

use serde_json::Value;

pub struct Failure {
    pub message: String,
    pub json: bool,
    /// The exit status: 1, or 75 (EX_TEMPFAIL) when a mail server should try again later.
    pub code: u8,
}

/// An error after which the caller should try again later: an MTA piping a report into
/// `signet admin email feedback` defers the message instead of dropping it.
#[derive(Debug)]
pub struct TryLater(pub String);

impl std::fmt::Display for TryLater {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for TryLater {}

pub trait OrFail<T> {
    fn or_fail(self, json: bool) -> Result<T, Failure>;
}

impl<T, E: std::fmt::Display> OrFail<T> for Result<T, E> {
    fn or_fail(self, json: bool) -> Result<T, Failure> {
        self.map_err(|e| Failure {
            message: format!("{e:#}"),
            json,
            code: 1,
        })
    }
}

/// Prints `value` as JSON, or `text` for people.
pub fn out(json: bool, value: Value, text: String) {
    if json {
        println!("{value}");
    } else {
        println!("{text}");
    }
}
