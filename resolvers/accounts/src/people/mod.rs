//! The people of a workspace (docs/decisions/the-application.md): persons and their
//! memberships with a role (`members`), sign-in by an emailed link (`links`), and the
//! sessions a sign-in opens (`sessions`).

pub mod cbor;
pub mod links;
pub mod mail;
pub mod members;
pub mod passkeys;
pub mod purge;
pub mod sessions;
pub mod team;
