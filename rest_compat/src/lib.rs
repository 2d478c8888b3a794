#![doc = include_str!("../README.md")]

pub mod door;
pub mod error;
pub mod extract;
mod graphql;
mod handlers;
pub mod openapi;
pub mod routes;

use std::sync::Arc;

use axum::Router;
use ipnet::IpNet;
use signet_resolvers::Ctx;

pub use error::ApiError;
pub use routes::{Idem, Route};

/// Everything a request handler may reach.
#[derive(Clone)]
pub struct AppState {
    pub ctx: Ctx,
    pub config: Arc<HttpConfig>,
    pub schema: signet_schema::SignetSchema,
}

#[derive(Clone, Debug)]
pub struct HttpConfig {
    /// Peers whose `X-Forwarded-For` is believed.
    pub trusted_proxies: Vec<IpNet>,
    /// Per-minute budget of requests without a valid key, per client address.
    pub anonymous_per_minute: u64,
}

impl AppState {
    pub fn new(ctx: Ctx, config: HttpConfig) -> AppState {
        AppState {
            schema: signet_schema::build(ctx.clone()),
            ctx,
            config: Arc::new(config),
        }
    }
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
            .fallback(door::not_found),
        state,
    )
}
