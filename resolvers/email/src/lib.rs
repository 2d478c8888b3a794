//! Email: every message a person receives. The eight kinds and the variables each accepts
//! (`kinds`), the standard wording in the 14 languages (`wording`, from the TOML files in
//! `wording/`), a workspace's saved wording (`templates`), composing a message from wording
//! and values (`compose`), the worker that
//! sends queued emails (`send`) over a [`Transport`], the log (`log`), delivery feedback
//! (`feedback`) and the suppression list.
//!
//! Links and codes exist only inside the composed message that goes to the transport: the
//! outbox job names who and what, the log holds the subject and the status, and a link is
//! stored only as its keyed hash.

pub mod compose;
pub mod feedback;
pub mod kinds;
pub mod log;
pub mod people;
pub mod send;
pub mod suppressions;
pub mod templates;
pub mod transport;
pub mod wording;
pub mod worker;

pub use kinds::Kind;
pub use transport::{Outgoing, SendError, Transport};

#[cfg(test)]
mod tests;
