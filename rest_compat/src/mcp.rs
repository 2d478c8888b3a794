//! `/mcp`: the tool server for AI assistants over streamable HTTP (`signet_mcp`). Its rows
//! pass through the door like every route: the bearer key is authenticated (its `Actor` goes
//! into the request's extensions, where each tool call reads its own), the key's budget is
//! spent per message, and the body is bounded. POST carries JSON-RPC messages; GET opens a
//! session's event stream and DELETE ends a session (sessions of protocols before 2026-07-28).

use axum::extract::{Request, State};
use axum::response::{IntoResponse, Response};
use axum::routing::{delete, get, post};
use tower::ServiceExt as _;

use crate::routes::row::{Access, Route};
use crate::state::AppState;

pub static ROUTES: &[Route] = &[
    Route::post("/mcp", "mcp.post", Access::AnyKey, || post(forward))
        .body_limit(signet_mcp::MAX_BODY),
    Route::get("/mcp", "mcp.stream", Access::AnyKey, || get(forward)),
    Route::delete("/mcp", "mcp.end", Access::AnyKey, || delete(forward)),
];

async fn forward(State(s): State<AppState>, req: Request) -> Response {
    match s.mcp.clone().oneshot(req).await {
        Ok(res) => res.into_response(),
        Err(never) => match never {},
    }
}
