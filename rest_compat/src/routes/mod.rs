//! The `/api/v1` route table. Each row is one operation: the axum router and the OpenAPI
//! document are both generated from these rows, so a route cannot exist without its
//! description, scope and idempotency rule. The rows are written one file per resource; a
//! row's shape and what rows share are in `row.rs`.

use std::sync::LazyLock;

mod accounts;
mod ai;
mod documents;
mod email;
mod embedded;
mod plays;
pub mod row;
mod templates;
mod webhooks;

pub use row::{
    Access, CSV_FILE, DEFAULT_BODY_LIMIT, FILE_BODY_LIMIT, GRAPHQL_BODY_LIMIT, HTML_BODY_LIMIT,
    Idem, PDF_FILE, QueryParam, Route, SchemaFn, schema_of,
};

/// Every `/api/v1` route, resource by resource.
pub static ROUTES: LazyLock<Vec<Route>> = LazyLock::new(|| {
    [
        documents::ROUTES,
        templates::ROUTES,
        accounts::ROUTES,
        webhooks::ROUTES,
        email::ROUTES,
        plays::ROUTES,
        ai::ROUTES,
        embedded::ROUTES,
    ]
    .concat()
});
