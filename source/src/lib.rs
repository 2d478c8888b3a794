#![doc = include_str!("../README.md")]

pub mod check;
pub mod formula;
pub mod model;
pub mod parse;
pub mod tags;
pub mod walk;

pub use check::{CheckInput, Person, PersonAction, Report, check};
pub use model::*;
pub use parse::{RESERVED_ROLES, is_role_word, parse, role_problem};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Severity {
    /// Blocks making or sending the document.
    Problem,
    /// Worth a look; nothing is refused.
    Warning,
}

/// One thing a person would be told about a source: where, and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    pub severity: Severity,
    pub path: String,
    pub message: String,
}

impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.path, self.message)
    }
}

#[cfg(test)]
mod tests;
