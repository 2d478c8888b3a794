//! Thin handlers: take what the door resolved, call one resolver, answer JSON.

use axum::extract::State;
use axum::routing::{MethodRouter, get};
use axum::{Extension, Json};
use signet_resolvers::{Actor, payments, teams, usage, webhooks};

use crate::{ApiError, AppState};

type Answer<T> = Result<Json<T>, ApiError>;

pub fn usage() -> MethodRouter<AppState> {
    get(
        |State(s): State<AppState>, Extension(a): Extension<Actor>| async move {
            Answer::Ok(Json(usage::get(&s.ctx, &a).await?))
        },
    )
}

pub fn teams() -> MethodRouter<AppState> {
    get(
        |State(s): State<AppState>, Extension(a): Extension<Actor>| async move {
            Answer::Ok(Json(teams::list(&s.ctx, &a).await?))
        },
    )
}

pub fn payments_status() -> MethodRouter<AppState> {
    get(
        |State(s): State<AppState>, Extension(a): Extension<Actor>| async move {
            Answer::Ok(Json(payments::status(&s.ctx, &a).await?))
        },
    )
}

pub fn webhook_topics() -> MethodRouter<AppState> {
    get(|Extension(a): Extension<Actor>| async move { Answer::Ok(Json(webhooks::topics(&a)?)) })
}
