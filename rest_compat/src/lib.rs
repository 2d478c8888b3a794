#![doc = include_str!("../README.md")]

pub mod door;
pub mod error;
pub mod extract;
pub mod graphql;
mod handlers;
mod health;
mod hooks;
mod mail;
pub mod openapi;
mod page;
mod personal;
pub mod routes;
mod templates;
mod trust;

use std::sync::Arc;

use axum::Router;
use ipnet::IpNet;
use signet_core::Ctx;

pub use error::ApiError;
pub use routes::{Idem, Route};

/// Everything a request handler may reach. Cloned several times per request, so it is one
/// `Arc` (one reference count) rather than a struct of many.
#[derive(Clone)]
pub struct AppState(Arc<AppStateInner>);

pub struct AppStateInner {
    pub ctx: Ctx,
    pub config: HttpConfig,
    pub schema: signet_schema::SignetSchema,
    /// The last readiness answer and when it was worked out (`/readyz`).
    pub readiness: health::Cache,
}

impl std::ops::Deref for AppState {
    type Target = AppStateInner;

    fn deref(&self) -> &AppStateInner {
        &self.0
    }
}

#[derive(Clone, Debug)]
pub struct HttpConfig {
    /// Peers whose `X-Forwarded-For` is believed.
    pub trusted_proxies: Vec<IpNet>,
    /// Per-minute budget of requests without a valid key, per client address.
    pub anonymous_per_minute: u64,
    /// How long a client may take to send a request's body.
    pub body_timeout: std::time::Duration,
    pub sockets: graphql::SocketLimits,
    /// The bearer secret of `POST /hooks/email`; `None` turns the route off.
    pub email_feedback_secret: Option<secrecy::SecretString>,
    /// The bearer token of `GET /metrics`; `None` turns the route off.
    pub metrics_token: Option<secrecy::SecretString>,
}

impl AppState {
    pub fn new(ctx: Ctx, config: HttpConfig) -> AppState {
        AppState(Arc::new(AppStateInner {
            schema: signet_schema::build(ctx.clone()),
            ctx,
            config,
            readiness: health::Cache::default(),
        }))
    }
}

/// The rows of the signing page's routes (outside `/api/v1`, checked by link, not key).
pub fn page_routes() -> Vec<&'static Route> {
    page::rows()
}

/// The whole HTTP application: `/api/v1` from the route table, `/api/openapi.json`, and
/// GraphQL. `extra` adds rows that pass through the same door (the test suite uses it).
pub fn router(state: AppState, extra: &'static [Route]) -> Router {
    door::wrap(
        routes::ROUTES
            .iter()
            .chain(extra)
            .fold(Router::new(), |r, route| route.mount(r, &state))
            .merge(graphql::router(&state))
            .merge(openapi::router())
            .merge(trust::router(&state))
            .merge(personal::router(&state))
            .merge(page::router(&state))
            .merge(mail::router(&state))
            .merge(health::router())
            .fallback(door::not_found),
        state,
    )
}
