#![doc = include_str!("../README.md")]

pub mod check;
pub mod currencies;
pub mod formula;
pub mod model;
pub mod parse;
pub mod problem;
pub mod tags;
pub mod walk;

pub use check::{CheckInput, Person, PersonAction, Report, check};
pub use model::*;
pub use parse::{RESERVED_ROLES, is_role_word, parse, role_problem};
pub use problem::{Problem, Severity};

#[cfg(test)]
mod tests;
