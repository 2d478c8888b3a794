//! The `/api/v1` routes' handlers, one file per resource as in `routes/`: each takes what the
//! door resolved, calls one resolver of the domain crate, and answers.

pub mod accounts;
pub mod ai;
pub mod documents;
pub mod email;
pub mod embedded;
pub mod payments;
pub mod plays;
pub mod templates;
pub mod webhooks;
