//! Who works in Signet and what they may spend: API keys (made, listed, revoked, cached), the
//! people of a workspace (members, sign-in, sessions),
//! workspaces and their settings, teams, usage against the plan, reports, and the payment
//! processor's readiness.

pub mod activity;
pub mod developers;
pub mod frames;
pub mod keys;
pub mod people;
pub mod reports;
pub mod settings;
pub mod teams;
pub mod usage;
pub mod workspaces;
