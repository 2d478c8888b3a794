//! The frames' pages: `GET /builder/{token}` and `GET /scribe/{token}` (framed only by the
//! website its link was made for), the exchange of the link for the frame's own key
//! (`POST /page/v1/frame/start`, the link as `Authorization: Link <token>`), and the
//! `<signet-builder>` and `<signet-scribe>` loaders. The page then calls `/api/v1` with that
//! key like any client. Not in the OpenAPI document.

use axum::Json;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::routing::{MethodRouter, get, post};
use signet_accounts::frames::{self, Frame};
use signet_core::DomainError;

use crate::door::auth::link_of;
use crate::routes::row::{Access, Route};
use crate::signing_page::{PAGE_BODY_LIMIT, framed, loader_of, personal, shell_of};
use crate::{ApiError, AppState};

pub static ROUTES: &[Route] = &[
    Route::get(
        "/builder/{token}",
        "page.builder",
        Access::Public,
        builder_page,
    )
    .body_limit(PAGE_BODY_LIMIT),
    Route::get(
        "/scribe/{token}",
        "page.scribe",
        Access::Public,
        scribe_page,
    )
    .body_limit(PAGE_BODY_LIMIT),
    Route::post(
        "/page/v1/frame/start",
        "page.frame_start",
        Access::Link,
        start,
    )
    .body_limit(PAGE_BODY_LIMIT),
    Route::get(
        "/embed/builder.js",
        "page.builder_loader",
        Access::Public,
        builder_loader,
    )
    .body_limit(PAGE_BODY_LIMIT),
    Route::get(
        "/embed/scribe.js",
        "page.scribe_loader",
        Access::Public,
        scribe_loader,
    )
    .body_limit(PAGE_BODY_LIMIT),
];

const NOSCRIPT: &str = "This page needs JavaScript. Turn it on to write here.";

/// A frame's page: framed by its link's website only; a link unknown or run out is a 404 page
/// framed by nobody.
fn page(frame: Frame) -> MethodRouter<AppState> {
    get(
        move |State(s): State<AppState>, Path(token): Path<String>| async move {
            let entry = frame.as_str();
            let html = |origin: Option<&str>| {
                (
                    [(header::CONTENT_TYPE, "text/html; charset=utf-8")],
                    shell_of(entry, origin, NOSCRIPT),
                )
            };
            Ok::<_, ApiError>(match frames::origin_of(&s.ctx, frame, &token).await? {
                Some(origin) => framed(html(Some(&origin)), &origin),
                None => personal((StatusCode::NOT_FOUND, html(None))),
            })
        },
    )
}

fn builder_page() -> MethodRouter<AppState> {
    page(Frame::Builder)
}

fn scribe_page() -> MethodRouter<AppState> {
    page(Frame::Scribe)
}

/// Exchanges the link, once, for the frame's key. The body names the frame
/// (`{"frame": "scribe"}`); anything that is not a live link of that frame is the signing
/// page's one 404, whatever the body.
fn start() -> MethodRouter<AppState> {
    post(
        |State(s): State<AppState>, headers: HeaderMap, body: axum::body::Bytes| async move {
            let gone = || {
                ApiError(DomainError::NotFound(
                    "this link does not open a document".into(),
                ))
            };
            let token = link_of(&headers).ok_or_else(gone)?.to_string();
            let frame = serde_json::from_slice::<serde_json::Value>(&body)
                .ok()
                .and_then(|b| b.get("frame")?.as_str().and_then(Frame::parse))
                .ok_or_else(gone)?;
            let out = match frames::start(&s.ctx, frame, &token).await {
                Err(DomainError::NotFound(_)) => return Err(gone()),
                other => other?,
            };
            Ok::<_, ApiError>(personal(Json(out)))
        },
    )
}

fn builder_loader() -> MethodRouter<AppState> {
    loader_of("builder_embed.js")
}

fn scribe_loader() -> MethodRouter<AppState> {
    loader_of("scribe_embed.js")
}
