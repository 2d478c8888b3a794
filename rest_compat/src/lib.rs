#![doc = include_str!("../README.md")]

mod app;
pub mod door;
pub mod error;
pub mod extract;
mod frames_page;
pub mod graphql;
mod handlers;
mod health;
pub mod mcp;
pub mod openapi;
mod personal;
pub mod routes;
mod signing_page;
mod state;
mod trust;

use axum::Router;

pub use error::ApiError;
pub use routes::row::{Idem, Route};
pub use state::{AppState, AppStateInner, HttpConfig, SocketLimits};

/// The rows of the signing page's routes (outside `/api/v1`, checked by link, not key).
pub fn page_routes() -> Vec<&'static Route> {
    signing_page::ROUTES
        .iter()
        .chain(frames_page::ROUTES)
        .collect()
}

/// The whole HTTP application: `/api/v1` from the route table, `/api/openapi.json`, GraphQL,
/// the signing page, and what verifiers, mail servers and probes reach. Every table's rows
/// pass through the same door; `extra` adds rows under `/api/v1` (the test suite uses it).
pub fn router(state: AppState, extra: &'static [Route]) -> Router {
    let api = door::mount(Router::new(), "/api/v1", &routes::ROUTES, &state);
    let outside = [
        graphql::ROUTES,
        mcp::ROUTES,
        app::ROUTES,
        trust::ROUTES,
        personal::ROUTES,
        signing_page::ROUTES,
        frames_page::ROUTES,
        handlers::email::FEEDBACK,
        handlers::payments::STRIPE,
    ];
    let router = outside
        .into_iter()
        .fold(door::mount(api, "/api/v1", extra, &state), |r, rows| {
            door::mount(r, "", rows, &state)
        })
        .merge(openapi::router())
        .merge(health::router())
        .fallback(door::not_found);
    door::wrap(router, state)
}
