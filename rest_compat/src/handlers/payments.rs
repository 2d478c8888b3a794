//! The payment routes' handlers: readiness, connecting the workspace's Stripe account, and
//! Stripe's own events (`POST /hooks/stripe`, outside `/api/v1`, believed only with a good
//! `Stripe-Signature`).

use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::routing::{MethodRouter, delete, get, post};
use axum::{Extension, Json};
use signet_core::{Actor, DomainError};
use signet_payments::accounts;

use crate::routes::row::{Access, Route};
use crate::{ApiError, AppState};

type Answer<T> = Result<Json<T>, ApiError>;

/// Stripe's events are a few kilobytes; a checkout session with many items stays far below.
const EVENT_BODY_LIMIT: usize = 256 * 1024;

pub static STRIPE: &[Route] = &[Route::post(
    "/hooks/stripe",
    "hooks.stripe",
    Access::Public,
    stripe_event,
)
.body_limit(EVENT_BODY_LIMIT)];

pub fn status() -> MethodRouter<AppState> {
    get(
        |State(s): State<AppState>, Extension(a): Extension<Actor>| async move {
            Answer::Ok(Json(accounts::status(&s.ctx, &a).await?))
        },
    )
}

pub fn connect() -> MethodRouter<AppState> {
    post(
        |State(s): State<AppState>, Extension(a): Extension<Actor>| async move {
            Answer::Ok(Json(accounts::connect(&s.ctx, &a).await?))
        },
    )
}

pub fn disconnect() -> MethodRouter<AppState> {
    delete(
        |State(s): State<AppState>, Extension(a): Extension<Actor>| async move {
            Answer::Ok(Json(accounts::disconnect(&s.ctx, &a).await?))
        },
    )
}

fn stripe_event() -> MethodRouter<AppState> {
    post(
        |State(s): State<AppState>, headers: HeaderMap, body: axum::body::Bytes| async move {
            let signature = headers
                .get("stripe-signature")
                .and_then(|v| v.to_str().ok())
                .ok_or_else(|| DomainError::Invalid("Stripe-Signature: missing".into()))?;
            signet_documents::payments::receive(&s.ctx, signature, &body).await?;
            Ok::<_, ApiError>(StatusCode::OK)
        },
    )
}
