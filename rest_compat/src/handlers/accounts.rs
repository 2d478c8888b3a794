//! The account routes' handlers: usage, reports and teams.

use axum::extract::{RawQuery, State};
use axum::routing::{MethodRouter, get};
use axum::{Extension, Json};
use signet_accounts::{reports, teams, usage};
use signet_core::Actor;

use crate::{ApiError, AppState};

type Answer<T> = Result<Json<T>, ApiError>;

pub fn usage() -> MethodRouter<AppState> {
    get(
        |State(s): State<AppState>, Extension(a): Extension<Actor>| async move {
            Answer::Ok(Json(usage::get(&s.ctx, &a).await?))
        },
    )
}

pub fn reports() -> MethodRouter<AppState> {
    get(
        |State(s): State<AppState>, Extension(a): Extension<Actor>, RawQuery(q): RawQuery| async move {
            let p = crate::extract::query(q.as_deref(), &["from", "to", "team"])?;
            let input = reports::ReportIn {
                from: crate::extract::text(&p, "from"),
                to: crate::extract::text(&p, "to"),
                team: crate::extract::text(&p, "team"),
            };
            Answer::Ok(Json(reports::get(&s.ctx, &a, input).await?))
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
