//! The core of Signet's domain: who asks ([`Actor`], with scopes and mode), the one error
//! ([`DomainError`]), ids, paging, plans and limits, the text rules every field goes through,
//! the idempotent answer, the context every resolver gets ([`Ctx`]), the webhook event, and
//! what a job kind's handler is (`jobs`; the queue itself is `signet-queue`). Every resource crate (accounts, documents, email, webhooks) stands on it; it names none of
//! them. It never sees HTTP.

pub mod actor;
pub mod answer;
pub mod api_log;
pub mod clock;
pub mod ctx;
pub mod currencies;
pub mod error;
pub mod events;
pub mod fields;
pub mod health;
pub use signet_storage::ids;
pub mod installation;
pub mod jobs;
pub mod languages;
pub mod limits;
pub mod live;
pub mod metadata;
pub mod metrics;

pub mod page;
pub mod plans;
pub mod purge;
pub mod rules;
pub mod secret_box;
pub mod services;

pub use actor::{Actor, Mode, Principal, Role, Scope};
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
