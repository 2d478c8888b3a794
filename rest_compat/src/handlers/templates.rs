//! The template routes' handlers: made from words, read, listed, their defaults, and the
//! documents made from them. Every rule is in `signet_documents::templates`.

use axum::extract::{Path, RawQuery, State};
use axum::routing::{MethodRouter, get, post};
use axum::{Extension, Json};
use signet_core::Actor;
use signet_core::answer::Claim;
use signet_documents::templates::{
    self, TemplateDefaults, TemplateDocumentIn, TemplateFileIn, TemplateHtmlIn, TemplatePreviewIn,
    TemplateSendIn, TemplateSourceIn, TemplateVersionIn,
};

use crate::door::idempotency::answered;
use crate::extract::{JsonIn, JsonOrEmpty, int, query, text};
use crate::{ApiError, AppState};

type Answer<T> = Result<Json<T>, ApiError>;

pub fn create_source() -> MethodRouter<AppState> {
    post(
        |State(s): State<AppState>,
         Extension(a): Extension<Actor>,
         claim: Option<Extension<Claim>>,
         JsonIn(body): JsonIn<TemplateSourceIn>| async move {
            let claim = claim.as_ref().map(|c| &c.0);
            Ok::<_, ApiError>(answered(
                templates::create_source(&s.ctx, &a, body, claim).await?,
            ))
        },
    )
}

pub fn create_file() -> MethodRouter<AppState> {
    post(
        |State(s): State<AppState>,
         Extension(a): Extension<Actor>,
         claim: Option<Extension<Claim>>,
         JsonIn(body): JsonIn<TemplateFileIn>| async move {
            let claim = claim.as_ref().map(|c| &c.0);
            Ok::<_, ApiError>(answered(
                templates::create_file(&s.ctx, &a, body, claim).await?,
            ))
        },
    )
}

pub fn create_html() -> MethodRouter<AppState> {
    post(
        |State(s): State<AppState>,
         Extension(a): Extension<Actor>,
         claim: Option<Extension<Claim>>,
         JsonIn(body): JsonIn<TemplateHtmlIn>| async move {
            let claim = claim.as_ref().map(|c| &c.0);
            Ok::<_, ApiError>(answered(
                templates::create_html(&s.ctx, &a, body, claim).await?,
            ))
        },
    )
}

pub fn get_one() -> MethodRouter<AppState> {
    get(
        |State(s): State<AppState>, Extension(a): Extension<Actor>, Path(id): Path<String>| async move {
            Answer::Ok(Json(templates::get(&s.ctx, &a, &id).await?))
        },
    )
}

pub fn list() -> MethodRouter<AppState> {
    get(
        |State(s): State<AppState>, Extension(a): Extension<Actor>, RawQuery(q): RawQuery| async move {
            let p = query(q.as_deref(), &["limit", "cursor"])?;
            Answer::Ok(Json(
                templates::list(
                    &s.ctx,
                    &a,
                    int(&p, "limit")?,
                    text(&p, "cursor").as_deref(),
                    false,
                )
                .await?,
            ))
        },
    )
}

pub fn defaults() -> MethodRouter<AppState> {
    post(
        |State(s): State<AppState>,
         Extension(a): Extension<Actor>,
         Path(id): Path<String>,
         JsonOrEmpty(body): JsonOrEmpty<TemplateDefaults>| async move {
            Answer::Ok(Json(templates::set_defaults(&s.ctx, &a, &id, body).await?))
        },
    )
}

pub fn documents() -> MethodRouter<AppState> {
    post(
        |State(s): State<AppState>,
         Extension(a): Extension<Actor>,
         claim: Option<Extension<Claim>>,
         Path(id): Path<String>,
         JsonIn(body): JsonIn<TemplateDocumentIn>| async move {
            let claim = claim.as_ref().map(|c| &c.0);
            Ok::<_, ApiError>(answered(
                templates::make_document(&s.ctx, &a, &id, body, claim).await?,
            ))
        },
    )
}

pub fn send() -> MethodRouter<AppState> {
    post(
        |State(s): State<AppState>,
         Extension(a): Extension<Actor>,
         claim: Option<Extension<Claim>>,
         JsonIn(body): JsonIn<TemplateSendIn>| async move {
            let claim = claim.as_ref().map(|c| &c.0);
            Ok::<_, ApiError>(answered(templates::send(&s.ctx, &a, body, claim).await?))
        },
    )
}

pub fn source() -> MethodRouter<AppState> {
    get(
        |State(s): State<AppState>, Extension(a): Extension<Actor>, Path(id): Path<String>| async move {
            Answer::Ok(Json(templates::source(&s.ctx, &a, &id).await?))
        },
    )
}

pub fn new_version() -> MethodRouter<AppState> {
    post(
        |State(s): State<AppState>,
         Extension(a): Extension<Actor>,
         claim: Option<Extension<Claim>>,
         Path(id): Path<String>,
         JsonIn(body): JsonIn<TemplateVersionIn>| async move {
            let claim = claim.as_ref().map(|c| &c.0);
            Ok::<_, ApiError>(answered(
                templates::new_version(&s.ctx, &a, &id, body, claim).await?,
            ))
        },
    )
}

pub fn preview() -> MethodRouter<AppState> {
    post(
        |State(s): State<AppState>,
         Extension(a): Extension<Actor>,
         JsonIn(body): JsonIn<TemplatePreviewIn>| async move {
            Answer::Ok(Json(templates::preview(&s.ctx, &a, body).await?))
        },
    )
}

pub fn page() -> MethodRouter<AppState> {
    get(
        |State(s): State<AppState>,
         Extension(a): Extension<Actor>,
         Path((id, page)): Path<(String, String)>| async move {
            let page = page
                .parse::<u32>()
                .ok()
                .filter(|p| *p >= 1)
                .ok_or_else(|| {
                    ApiError(signet_core::DomainError::NotFound(format!(
                        "template {id} has no page {page}"
                    )))
                })?;
            Answer::Ok(Json(templates::page(&s.ctx, &a, &id, page).await?))
        },
    )
}
