//! The document routes' handlers: made from words, read, acted on, embedded.

use axum::extract::{Path, RawQuery, State};
use axum::routing::{MethodRouter, get, post};
use axum::{Extension, Json};
use signet_core::answer::Claim;
use signet_core::{Actor, DomainError};
use signet_documents::{self as documents, types::*};

use crate::door::idempotency::answered;
use crate::extract::{JsonIn, JsonOrEmpty};
use crate::{ApiError, AppState};

type Answer<T> = Result<Json<T>, ApiError>;

pub fn check() -> MethodRouter<AppState> {
    post(
        |State(s): State<AppState>,
         Extension(a): Extension<Actor>,
         JsonIn(body): JsonIn<DocumentCheckIn>| async move {
            Answer::Ok(Json(documents::check(&s.ctx, &a, body).await?))
        },
    )
}

pub fn create() -> MethodRouter<AppState> {
    post(
        |State(s): State<AppState>,
         Extension(a): Extension<Actor>,
         claim: Option<Extension<Claim>>,
         JsonIn(body): JsonIn<DocumentCreateIn>| async move {
            let claim = claim.as_ref().map(|c| &c.0);
            Ok::<_, ApiError>(answered(documents::create(&s.ctx, &a, body, claim).await?))
        },
    )
}

/// `state`, `externalId`, `limit`, `cursor` and repeatable `metadata[key]=value`.
pub fn parse_list_query(raw: Option<&str>) -> Result<ListFilter, DomainError> {
    let pairs: Vec<(String, String)> = serde_urlencoded::from_str(raw.unwrap_or(""))
        .map_err(|e| DomainError::invalid("query", e))?;
    let mut f = ListFilter::default();
    for (k, v) in pairs {
        match k.as_str() {
            "state" => f.state = Some(v),
            "externalId" => f.external_id = Some(v),
            "cursor" => f.cursor = Some(v),
            "limit" => {
                f.limit = Some(v.parse().map_err(|_| {
                    DomainError::invalid("limit", format!("must be a whole number, got '{v}'"))
                })?)
            }
            _ => match k
                .strip_prefix("metadata[")
                .and_then(|r| r.strip_suffix(']'))
            {
                Some(key) if !key.is_empty() => f.metadata.push((key.to_string(), v)),
                _ => {
                    return Err(DomainError::invalid(
                        &k,
                        "unknown query parameter; use state, externalId, metadata[key], limit, cursor",
                    ));
                }
            },
        }
    }
    Ok(f)
}

pub fn list() -> MethodRouter<AppState> {
    get(
        |State(s): State<AppState>, Extension(a): Extension<Actor>, RawQuery(q): RawQuery| async move {
            let filter = parse_list_query(q.as_deref())?;
            Answer::Ok(Json(documents::list(&s.ctx, &a, filter).await?))
        },
    )
}

pub fn get_one() -> MethodRouter<AppState> {
    get(
        |State(s): State<AppState>, Extension(a): Extension<Actor>, Path(id): Path<String>| async move {
            Answer::Ok(Json(documents::get(&s.ctx, &a, &id).await?))
        },
    )
}

/// A file answer with its type and a download name.
fn file(out: documents::FileOut, content_type: &'static str) -> axum::response::Response {
    use axum::http::header;
    use axum::response::IntoResponse;
    let disposition = format!("attachment; filename=\"{}\"", out.file_name);
    (
        [
            (header::CONTENT_TYPE, content_type.to_string()),
            (header::CONTENT_DISPOSITION, disposition),
        ],
        out.bytes,
    )
        .into_response()
}

pub fn signed_pdf() -> MethodRouter<AppState> {
    get(
        |State(s): State<AppState>, Extension(a): Extension<Actor>, Path(id): Path<String>| async move {
            Result::<_, ApiError>::Ok(file(
                documents::signed_pdf(&s.ctx, &a, &id).await?,
                "application/pdf",
            ))
        },
    )
}

pub fn audit_csv() -> MethodRouter<AppState> {
    get(
        |State(s): State<AppState>, Extension(a): Extension<Actor>, Path(id): Path<String>| async move {
            Result::<_, ApiError>::Ok(file(
                documents::audit_csv(&s.ctx, &a, &id).await?,
                "text/csv; charset=utf-8",
            ))
        },
    )
}

pub fn source() -> MethodRouter<AppState> {
    get(
        |State(s): State<AppState>, Extension(a): Extension<Actor>, Path(id): Path<String>| async move {
            Answer::Ok(Json(documents::source(&s.ctx, &a, &id).await?))
        },
    )
}

pub fn revise() -> MethodRouter<AppState> {
    post(
        |State(s): State<AppState>,
         Extension(a): Extension<Actor>,
         claim: Option<Extension<Claim>>,
         Path(id): Path<String>,
         JsonIn(body): JsonIn<DocumentReviseIn>| async move {
            let claim = claim.as_ref().map(|c| &c.0);
            Ok::<_, ApiError>(answered(
                documents::revise(&s.ctx, &a, &id, body, claim).await?,
            ))
        },
    )
}

pub fn send() -> MethodRouter<AppState> {
    post(
        |State(s): State<AppState>,
         Extension(a): Extension<Actor>,
         claim: Option<Extension<Claim>>,
         Path(id): Path<String>| async move {
            let claim = claim.as_ref().map(|c| &c.0);
            Ok::<_, ApiError>(answered(documents::send(&s.ctx, &a, &id, claim).await?))
        },
    )
}

pub fn remind() -> MethodRouter<AppState> {
    post(
        |State(s): State<AppState>,
         Extension(a): Extension<Actor>,
         claim: Option<Extension<Claim>>,
         Path(id): Path<String>,
         JsonOrEmpty(body): JsonOrEmpty<RemindIn>| async move {
            let claim = claim.as_ref().map(|c| &c.0);
            Ok::<_, ApiError>(answered(
                documents::remind(&s.ctx, &a, &id, body, claim).await?,
            ))
        },
    )
}

pub fn void() -> MethodRouter<AppState> {
    post(
        |State(s): State<AppState>,
         Extension(a): Extension<Actor>,
         claim: Option<Extension<Claim>>,
         Path(id): Path<String>,
         JsonOrEmpty(body): JsonOrEmpty<VoidIn>| async move {
            let claim = claim.as_ref().map(|c| &c.0);
            Ok::<_, ApiError>(answered(
                documents::void(&s.ctx, &a, &id, body, claim).await?,
            ))
        },
    )
}

pub fn embed_session() -> MethodRouter<AppState> {
    post(
        |State(s): State<AppState>,
         Extension(a): Extension<Actor>,
         claim: Option<Extension<Claim>>,
         Path(id): Path<String>,
         JsonIn(body): JsonIn<signet_documents::signing::embed::EmbedSessionIn>| async move {
            let claim = claim.as_ref().map(|c| &c.0);
            Ok::<_, ApiError>(answered(
                signet_documents::signing::embed::session(&s.ctx, &a, &id, body, claim).await?,
            ))
        },
    )
}

pub fn test_sign() -> MethodRouter<AppState> {
    post(
        |State(s): State<AppState>,
         Extension(a): Extension<Actor>,
         claim: Option<Extension<Claim>>,
         Path(id): Path<String>,
         JsonIn(body): JsonIn<TestSignIn>| async move {
            let claim = claim.as_ref().map(|c| &c.0);
            Ok::<_, ApiError>(answered(
                documents::test_sign(&s.ctx, &a, &id, body, claim).await?,
            ))
        },
    )
}
