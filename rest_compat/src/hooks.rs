//! The webhook routes' handlers.

use axum::extract::{Path, RawQuery, State};
use axum::http::StatusCode;
use axum::routing::{MethodRouter, delete, get, post};
use axum::{Extension, Json};
use signet_core::answer::Claim;
use signet_core::{Actor, DomainError};
use signet_webhooks::{self as webhooks, types::*};

use crate::door::answered;
use crate::extract::{JsonIn, JsonOrEmpty};
use crate::{ApiError, AppState};

type Answer<T> = Result<Json<T>, ApiError>;

/// Query pairs, each name at most once and from `allowed`.
pub(crate) fn query(
    raw: Option<&str>,
    allowed: &[&str],
) -> Result<Vec<(String, String)>, DomainError> {
    let pairs: Vec<(String, String)> = serde_urlencoded::from_str(raw.unwrap_or(""))
        .map_err(|e| DomainError::invalid("query", e))?;
    for (i, (k, _)) in pairs.iter().enumerate() {
        if !allowed.contains(&k.as_str()) {
            return Err(DomainError::invalid(
                k,
                format!("unknown query parameter; use {}", allowed.join(", ")),
            ));
        }
        if pairs[..i].iter().any(|(p, _)| p == k) {
            return Err(DomainError::invalid(k, "is given more than once"));
        }
    }
    Ok(pairs)
}

/// An integer parameter; the spec lets only `wait` be given as `null`.
pub(crate) fn int(pairs: &[(String, String)], name: &str) -> Result<Option<i64>, DomainError> {
    match pairs
        .iter()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.as_str())
    {
        None => Ok(None),
        // `wait` is "integer or null"; an empty value is neither, as for documents' `limit`.
        Some("null") if name == "wait" => Ok(None),
        Some(v) => v
            .parse()
            .map(Some)
            .map_err(|_| DomainError::invalid(name, format!("must be a whole number, got '{v}'"))),
    }
}

pub(crate) fn text(pairs: &[(String, String)], name: &str) -> Option<String> {
    pairs
        .iter()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.clone())
}

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
