//! The answer on its way out of a route: what the API log needs to know from inside it, and a
//! handler's pending error rendered into the spec's body while keeping the headers a layer
//! already set (rate limits, `Retry-After`).

use axum::http::header;
use axum::response::Response;

use crate::error::{PendingError, render};

/// What the API log needs to know from inside the route.
#[derive(Clone, Debug)]
pub(super) struct LogInfo {
    pub route: &'static str,
    pub key_id: Option<String>,
    pub workspace_id: Option<String>,
}

/// Keeps headers a layer already set (rate limits, Retry-After) on a re-rendered response.
pub(super) fn carry_headers(old: Response, mut new: Response) -> Response {
    for (name, value) in old.headers() {
        if name != header::CONTENT_TYPE && name != header::CONTENT_LENGTH {
            new.headers_mut().entry(name).or_insert(value.clone());
        }
    }
    if let Some(info) = old.extensions().get::<LogInfo>() {
        new.extensions_mut().insert(info.clone());
    }
    new
}

/// Renders a handler's pending error now, so that an idempotent replay carries the same body.
pub(super) fn finish(mut res: Response, request_id: &str) -> Response {
    match res.extensions_mut().remove::<PendingError>() {
        Some(PendingError(e)) => carry_headers(res, render(&e, request_id)),
        None => res,
    }
}
