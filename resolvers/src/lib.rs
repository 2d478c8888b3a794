#![doc = include_str!("../README.md")]

pub mod actor;
pub mod answer;
pub mod api_log;
pub mod blob_keys;
pub mod clock;
pub mod ctx;
pub mod documents;
pub mod email;
pub mod error;
pub mod fields;
pub mod health;
pub mod ids;
pub mod installation;
pub mod keys;
pub mod languages;
pub mod limits;
pub mod live;
pub mod metadata;
pub mod metrics;
pub mod outbox;
pub mod pacing;
pub mod page;
pub mod payments;
pub mod plans;
pub mod purge;
pub mod render;
pub mod reports;
pub mod secret_box;
pub mod services;
pub mod signing;
pub mod sql;
pub mod stamping;
pub mod teams;
pub mod templates;
pub mod usage;
pub mod webhooks;
pub mod workspaces;

pub use actor::{Actor, Mode, Scope};
pub use ctx::Ctx;
pub use error::DomainError;

/// The API version every response names (`Service-Version`) and the OpenAPI `info.version`.
pub const SERVICE_VERSION: &str = "2026-10-07";

/// `spawn_blocking` under the caller's span: what the work logs (a converter's warning) carries
/// the request id of the request that asked for it.
pub fn blocking<F, R>(work: F) -> tokio::task::JoinHandle<R>
where
    F: FnOnce() -> R + Send + 'static,
    R: Send + 'static,
{
    let span = tracing::Span::current();
    tokio::task::spawn_blocking(move || span.in_scope(work))
}
