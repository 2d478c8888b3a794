//! The email routes' handlers: saved wording and the email log.

use axum::extract::{Path, RawQuery, State};
use axum::routing::{MethodRouter, delete, get, post, put};
use axum::{Extension, Json};
use signet_resolvers::Actor;
use signet_resolvers::email::log::{self, EmailFilter};
use signet_resolvers::email::templates::{self, EmailWordingIn};

use crate::extract::JsonIn;
use crate::hooks::{int, query, text};
use crate::{ApiError, AppState};

type Answer<T> = Result<Json<T>, ApiError>;

pub fn templates_list() -> MethodRouter<AppState> {
    get(
        |State(s): State<AppState>, Extension(a): Extension<Actor>, RawQuery(q): RawQuery| async move {
            let p = query(q.as_deref(), &["locale"])?;
            Answer::Ok(Json(
                templates::list(&s.ctx, &a, text(&p, "locale").as_deref()).await?,
            ))
        },
    )
}

pub fn templates_save() -> MethodRouter<AppState> {
    put(
        |State(s): State<AppState>,
         Extension(a): Extension<Actor>,
         Path(kind): Path<String>,
         JsonIn(body): JsonIn<EmailWordingIn>| async move {
            Answer::Ok(Json(templates::save(&s.ctx, &a, &kind, body).await?))
        },
    )
}

pub fn templates_remove() -> MethodRouter<AppState> {
    delete(
        |State(s): State<AppState>,
         Extension(a): Extension<Actor>,
         Path(kind): Path<String>,
         RawQuery(q): RawQuery| async move {
            let p = query(q.as_deref(), &["locale"])?;
            Answer::Ok(Json(
                templates::remove(&s.ctx, &a, &kind, text(&p, "locale").as_deref()).await?,
            ))
        },
    )
}

pub fn templates_preview() -> MethodRouter<AppState> {
    post(
        |State(s): State<AppState>,
         Extension(a): Extension<Actor>,
         Path(kind): Path<String>,
         JsonIn(body): JsonIn<EmailWordingIn>| async move {
            Answer::Ok(Json(templates::preview(&s.ctx, &a, &kind, body).await?))
        },
    )
}

pub fn emails() -> MethodRouter<AppState> {
    get(
        |State(s): State<AppState>, Extension(a): Extension<Actor>, RawQuery(q): RawQuery| async move {
            let p = query(
                q.as_deref(),
                &["documentId", "to", "status", "kind", "limit", "cursor"],
            )?;
            let filter = EmailFilter {
                document_id: text(&p, "documentId"),
                to: text(&p, "to"),
                status: text(&p, "status"),
                kind: text(&p, "kind"),
            };
            Answer::Ok(Json(
                log::list(&s.ctx, &a, filter, int(&p, "limit")?, text(&p, "cursor")).await?,
            ))
        },
    )
}
