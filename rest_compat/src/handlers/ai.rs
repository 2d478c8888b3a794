//! The AI drafting routes' handlers.

use axum::extract::{Path, RawQuery, State};
use axum::http::StatusCode;
use axum::routing::{MethodRouter, post};
use axum::{Extension, Json};
use signet_ai::jobs;
use signet_ai::types::*;
use signet_core::Actor;

use crate::extract::{JsonIn, query, text};
use crate::{ApiError, AppState};

type Answer<T> = Result<Json<T>, ApiError>;
type Accepted<T> = Result<(StatusCode, Json<T>), ApiError>;

pub fn draft() -> MethodRouter<AppState> {
    post(
        |State(s): State<AppState>,
         Extension(a): Extension<Actor>,
         JsonIn(body): JsonIn<AiDraftIn>| async move {
            Accepted::Ok((
                StatusCode::ACCEPTED,
                Json(jobs::draft(&s.ctx, &a, body).await?),
            ))
        },
    )
}

pub fn edit() -> MethodRouter<AppState> {
    post(
        |State(s): State<AppState>,
         Extension(a): Extension<Actor>,
         JsonIn(body): JsonIn<AiEditIn>| async move {
            Accepted::Ok((
                StatusCode::ACCEPTED,
                Json(jobs::edit(&s.ctx, &a, body).await?),
            ))
        },
    )
}

pub fn job() -> MethodRouter<AppState> {
    axum::routing::get(
        |State(s): State<AppState>, Extension(a): Extension<Actor>, Path(id): Path<String>| async move {
            Answer::Ok(Json(jobs::get(&s.ctx, &a, &id).await?))
        },
    )
}

pub fn cancel() -> MethodRouter<AppState> {
    post(
        |State(s): State<AppState>, Extension(a): Extension<Actor>, Path(id): Path<String>| async move {
            Answer::Ok(Json(jobs::cancel(&s.ctx, &a, &id).await?))
        },
    )
}

pub fn wizard() -> MethodRouter<AppState> {
    axum::routing::get(
        |State(s): State<AppState>, Extension(a): Extension<Actor>, RawQuery(q): RawQuery| async move {
            let p = query(q.as_deref(), &["locale"])?;
            Answer::Ok(Json(
                jobs::wizard(&s.ctx, &a, text(&p, "locale").as_deref()).await?,
            ))
        },
    )
}
