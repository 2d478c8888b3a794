//! The plays, playbooks and drafts routes' handlers.

use axum::extract::{Path, RawQuery, State};
use axum::http::StatusCode;
use axum::routing::{MethodRouter, delete, get, post};
use axum::{Extension, Json};
use signet_core::Actor;
use signet_plays::types::*;
use signet_plays::{drafting, library, playbooks as books};

use crate::extract::{JsonIn, query, text};
use crate::{ApiError, AppState};

type Answer<T> = Result<Json<T>, ApiError>;
type Made<T> = Result<(StatusCode, Json<T>), ApiError>;

pub fn list() -> MethodRouter<AppState> {
    axum::routing::get(
        |State(s): State<AppState>, Extension(a): Extension<Actor>, RawQuery(q): RawQuery| async move {
            let p = query(q.as_deref(), &["kind", "category"])?;
            let (kind, category) = (text(&p, "kind"), text(&p, "category"));
            Answer::Ok(Json(
                library::list(&s.ctx, &a, kind.as_deref(), category.as_deref()).await?,
            ))
        },
    )
}

pub fn create() -> MethodRouter<AppState> {
    post(
        |State(s): State<AppState>,
         Extension(a): Extension<Actor>,
         JsonIn(body): JsonIn<PlaySourceIn>| async move {
            Made::Ok((
                StatusCode::CREATED,
                Json(library::save(&s.ctx, &a, body).await?),
            ))
        },
    )
}

pub fn test() -> MethodRouter<AppState> {
    post(
        |State(s): State<AppState>,
         Extension(a): Extension<Actor>,
         JsonIn(body): JsonIn<PlaySourceIn>| async move {
            Answer::Ok(Json(library::test(&s.ctx, &a, body).await?))
        },
    )
}

pub fn one() -> MethodRouter<AppState> {
    axum::routing::get(
        |State(s): State<AppState>, Extension(a): Extension<Actor>, Path(name): Path<String>| async move {
            Answer::Ok(Json(library::get(&s.ctx, &a, &name).await?))
        },
    )
}

pub fn archive() -> MethodRouter<AppState> {
    delete(
        |State(s): State<AppState>, Extension(a): Extension<Actor>, Path(name): Path<String>| async move {
            Answer::Ok(Json(library::archive(&s.ctx, &a, &name).await?))
        },
    )
}

pub fn publish() -> MethodRouter<AppState> {
    post(
        |State(s): State<AppState>,
         Extension(a): Extension<Actor>,
         Path(name): Path<String>,
         JsonIn(body): JsonIn<PlayPublishIn>| async move {
            Answer::Ok(Json(library::publish(&s.ctx, &a, &name, body).await?))
        },
    )
}

pub fn duplicate() -> MethodRouter<AppState> {
    post(
        |State(s): State<AppState>,
         Extension(a): Extension<Actor>,
         Path(name): Path<String>,
         JsonIn(body): JsonIn<PlayDuplicateIn>| async move {
            Made::Ok((
                StatusCode::CREATED,
                Json(library::duplicate(&s.ctx, &a, &name, body).await?),
            ))
        },
    )
}

pub fn playbooks() -> MethodRouter<AppState> {
    axum::routing::get(
        |State(s): State<AppState>, Extension(a): Extension<Actor>| async move {
            Answer::Ok(Json(books::list(&s.ctx, &a).await?))
        },
    )
}

pub fn playbook_save() -> MethodRouter<AppState> {
    post(
        |State(s): State<AppState>,
         Extension(a): Extension<Actor>,
         JsonIn(body): JsonIn<PlaybookIn>| async move {
            Made::Ok((
                StatusCode::CREATED,
                Json(books::save(&s.ctx, &a, body).await?),
            ))
        },
    )
}

pub fn draft() -> MethodRouter<AppState> {
    post(
        |State(s): State<AppState>,
         Extension(a): Extension<Actor>,
         JsonIn(body): JsonIn<DraftIn>| async move {
            Answer::Ok(Json(drafting::start(&s.ctx, &a, body).await?))
        },
    )
}

pub fn draft_answers() -> MethodRouter<AppState> {
    post(
        |State(s): State<AppState>,
         Extension(a): Extension<Actor>,
         Path(draft_ref): Path<String>,
         JsonIn(body): JsonIn<DraftAnswersIn>| async move {
            Answer::Ok(Json(drafting::answer(&s.ctx, &a, &draft_ref, body).await?))
        },
    )
}

pub fn draft_pages() -> MethodRouter<AppState> {
    get(
        |State(s): State<AppState>,
         Extension(a): Extension<Actor>,
         Path(draft_ref): Path<String>| async move {
            Answer::Ok(Json(drafting::pages(&s.ctx, &a, &draft_ref).await?))
        },
    )
}
