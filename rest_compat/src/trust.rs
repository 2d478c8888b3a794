//! What verifiers reach without a key: the built-in RFC 3161 time-stamp authority
//! (`POST /tsa`, `application/timestamp-query` in, `application/timestamp-reply` out), the
//! root certificate (`GET /ca/root.pem`) and a fresh CRL of the root (`GET /ca/root.crl`),
//! which the certificates name when `public_url` is set, and the same for the root of test
//! seals (`/ca/test-root.pem`, `/ca/test-root.crl`). They pass through the door like
//! every route: budgeted per client address and logged.

use axum::body::Bytes;
use axum::extract::State;
use axum::http::header;
use axum::response::IntoResponse;
use axum::routing::{MethodRouter, get, post};

use crate::routes::row::{Access, Route};
use crate::{ApiError, AppState};

/// A time-stamp request is a few hundred bytes.
const TSA_BODY_LIMIT: usize = 64 * 1024;

/// The rows of what verifiers reach.
pub static ROUTES: &[Route] = &[
    Route::post("/tsa", "trust.tsa", Access::Public, tsa).body_limit(TSA_BODY_LIMIT),
    Route::get("/ca/root.pem", "trust.root", Access::Public, root),
    Route::get("/ca/root.crl", "trust.crl", Access::Public, crl),
    Route::get(
        "/ca/test-root.pem",
        "trust.test_root",
        Access::Public,
        test_root,
    ),
    Route::get(
        "/ca/test-root.crl",
        "trust.test_crl",
        Access::Public,
        test_crl,
    ),
];

fn tsa() -> MethodRouter<AppState> {
    post(|State(s): State<AppState>, body: Bytes| async move {
        // Signing is CPU work: off the async workers.
        let authority = signet_documents::services(&s.ctx).authority.clone();
        let answer =
            signet_core::blocking(move || authority.tsa().respond(&body, chrono::Utc::now())).await;
        match answer {
            Ok(der) => {
                ([(header::CONTENT_TYPE, "application/timestamp-reply")], der).into_response()
            }
            Err(e) => ApiError::from(signet_core::DomainError::Internal(format!(
                "the time-stamp authority failed: {e}"
            )))
            .into_response(),
        }
    })
}

fn root() -> MethodRouter<AppState> {
    get(|State(s): State<AppState>| async move {
        (
            [(header::CONTENT_TYPE, "application/x-pem-file")],
            signet_documents::services(&s.ctx).authority.root_pem(),
        )
            .into_response()
    })
}

fn crl() -> MethodRouter<AppState> {
    get(|State(s): State<AppState>| async move { published_crl(&s, false) })
}

fn test_root() -> MethodRouter<AppState> {
    get(|State(s): State<AppState>| async move {
        (
            [(header::CONTENT_TYPE, "application/x-pem-file")],
            signet_documents::services(&s.ctx).authority.test_root_pem(),
        )
            .into_response()
    })
}

fn test_crl() -> MethodRouter<AppState> {
    get(|State(s): State<AppState>| async move { published_crl(&s, true) })
}

fn published_crl(s: &AppState, test: bool) -> axum::response::Response {
    match signet_documents::services(&s.ctx)
        .authority
        .published_crl(test, chrono::Utc::now())
    {
        Ok(der) => ([(header::CONTENT_TYPE, "application/pkix-crl")], der).into_response(),
        Err(e) => ApiError::from(signet_core::DomainError::Internal(e.to_string())).into_response(),
    }
}
