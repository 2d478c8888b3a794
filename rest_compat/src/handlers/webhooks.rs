//! The webhook routes' handlers.

use axum::extract::{Path, RawQuery, State};
use axum::http::StatusCode;
use axum::routing::{MethodRouter, delete, get, post};
use axum::{Extension, Json};
use signet_core::Actor;
use signet_core::answer::Claim;
use signet_webhooks::{self as webhooks, types::*};

use crate::door::idempotency::answered;
use crate::extract::{JsonIn, JsonOrEmpty, int, query, text};
use crate::{ApiError, AppState};

type Answer<T> = Result<Json<T>, ApiError>;

pub fn list() -> MethodRouter<AppState> {
    get(
        |State(s): State<AppState>, Extension(a): Extension<Actor>, RawQuery(q): RawQuery| async move {
            let p = query(q.as_deref(), &["limit", "cursor"])?;
            Answer::Ok(Json(
                webhooks::list(&s.ctx, &a, int(&p, "limit")?, text(&p, "cursor")).await?,
            ))
        },
    )
}

pub fn create() -> MethodRouter<AppState> {
    post(
        |State(s): State<AppState>,
         Extension(a): Extension<Actor>,
         claim: Option<Extension<Claim>>,
         JsonIn(body): JsonIn<WebhookCreateIn>| async move {
            let claim = claim.as_ref().map(|c| &c.0);
            Ok::<_, ApiError>(answered(webhooks::create(&s.ctx, &a, body, claim).await?))
        },
    )
}

pub fn remove() -> MethodRouter<AppState> {
    delete(
        |State(s): State<AppState>, Extension(a): Extension<Actor>, Path(id): Path<String>| async move {
            Answer::Ok(Json(webhooks::delete(&s.ctx, &a, &id).await?))
        },
    )
}

pub fn test() -> MethodRouter<AppState> {
    post(
        |State(s): State<AppState>,
         Extension(a): Extension<Actor>,
         Path(id): Path<String>,
         JsonOrEmpty(body): JsonOrEmpty<WebhookTestIn>| async move {
            Answer::Ok(Json(webhooks::test_send(&s.ctx, &a, &id, body).await?))
        },
    )
}

pub fn rotate() -> MethodRouter<AppState> {
    post(
        |State(s): State<AppState>,
         Extension(a): Extension<Actor>,
         claim: Option<Extension<Claim>>,
         Path(id): Path<String>,
         JsonOrEmpty(body): JsonOrEmpty<WebhookRotateIn>| async move {
            let claim = claim.as_ref().map(|c| &c.0);
            Ok::<_, ApiError>(answered(
                webhooks::rotate(&s.ctx, &a, &id, body, claim).await?,
            ))
        },
    )
}

pub fn deliveries() -> MethodRouter<AppState> {
    get(
        |State(s): State<AppState>, Extension(a): Extension<Actor>, Path(id): Path<String>| async move {
            Answer::Ok(Json(webhooks::deliveries(&s.ctx, &a, &id).await?))
        },
    )
}

pub fn relay() -> MethodRouter<AppState> {
    get(
        |State(s): State<AppState>,
         Extension(a): Extension<Actor>,
         Path(id): Path<String>,
         RawQuery(q): RawQuery| async move {
            let p = query(q.as_deref(), &["after", "wait", "limit"])?;
            let out = webhooks::relay(
                &s.ctx,
                &a,
                &id,
                text(&p, "after"),
                int(&p, "wait")?,
                int(&p, "limit")?,
            )
            .await?;
            Answer::Ok(Json(out))
        },
    )
}

pub fn replay() -> MethodRouter<AppState> {
    post(
        |State(s): State<AppState>,
         Extension(a): Extension<Actor>,
         Path((id, delivery)): Path<(String, String)>| async move {
            let out = webhooks::replay(&s.ctx, &a, &id, &delivery).await?;
            Result::<_, ApiError>::Ok((StatusCode::CREATED, Json(out)))
        },
    )
}

pub fn webhook_topics() -> MethodRouter<AppState> {
    get(|Extension(a): Extension<Actor>| async move { Answer::Ok(Json(webhooks::topics(&a)?)) })
}
