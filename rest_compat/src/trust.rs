//! What verifiers reach without a key: the built-in RFC 3161 time-stamp authority
//! (`POST /tsa`, `application/timestamp-query` in, `application/timestamp-reply` out), the
//! root certificate (`GET /ca/root.pem`) and a fresh CRL of the root (`GET /ca/root.crl`),
//! which the certificates name when `public_url` is set, and the same for the root of test
//! seals (`/ca/test-root.pem`, `/ca/test-root.crl`). They pass through the door like
//! every route: budgeted per client address and logged.

use axum::Router;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::{Method, header};
use axum::response::IntoResponse;
use axum::routing::{MethodRouter, get, post};

use crate::routes::{Access, Route, row};
use crate::{ApiError, AppState, door};

/// A time-stamp request is a few hundred bytes.
const TSA_BODY_LIMIT: usize = 64 * 1024;

static TSA: std::sync::LazyLock<Route> = std::sync::LazyLock::new(|| {
    let mut r = row(Method::POST, "/tsa", "trust.tsa", Access::Public, tsa);
    r.body_limit = TSA_BODY_LIMIT;
    r
});
static ROOT: std::sync::LazyLock<Route> = std::sync::LazyLock::new(|| {
    row(
        Method::GET,
        "/ca/root.pem",
        "trust.root",
        Access::Public,
        root,
    )
});
static CRL: std::sync::LazyLock<Route> = std::sync::LazyLock::new(|| {
    row(
        Method::GET,
        "/ca/root.crl",
        "trust.crl",
        Access::Public,
        crl,
    )
});
static TEST_ROOT: std::sync::LazyLock<Route> = std::sync::LazyLock::new(|| {
    row(
        Method::GET,
        "/ca/test-root.pem",
        "trust.test_root",
        Access::Public,
        test_root,
    )
});
static TEST_CRL: std::sync::LazyLock<Route> = std::sync::LazyLock::new(|| {
    row(
        Method::GET,
        "/ca/test-root.crl",
        "trust.test_crl",
        Access::Public,
        test_crl,
    )
});

pub(crate) fn router(state: &AppState) -> Router<AppState> {
    let (t, r, c): (&'static Route, &'static Route, &'static Route) = (&TSA, &ROOT, &CRL);
    let (tr, tc): (&'static Route, &'static Route) = (&TEST_ROOT, &TEST_CRL);
    Router::new()
        .route("/tsa", door::layer(t, tsa(), state))
        .route("/ca/root.pem", door::layer(r, root(), state))
        .route("/ca/root.crl", door::layer(c, crl(), state))
        .route("/ca/test-root.pem", door::layer(tr, test_root(), state))
        .route("/ca/test-root.crl", door::layer(tc, test_crl(), state))
}

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
