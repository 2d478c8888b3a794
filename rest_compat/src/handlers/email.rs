//! The email routes' handlers: saved wording and the email log.

use axum::extract::{Path, RawQuery, State};
use axum::routing::{MethodRouter, delete, get, post, put};
use axum::{Extension, Json};
use signet_core::Actor;
use signet_email::log::{self, EmailFilter};
use signet_email::templates::{self, EmailWordingIn};

use crate::door::auth::same_secret;
use crate::extract::{JsonIn, int, query, text};
use crate::routes::row::{Access, Route};
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

/// `POST /hooks/email`: a mail server posts one delivery status notification or abuse report
/// (`message/rfc822`) with the bearer secret `email_feedback_secret`. Not in the OpenAPI
/// document: it is the mail server's door, not the API's.
pub static FEEDBACK: &[Route] =
    &[
        Route::post("/hooks/email", "hooks.email", Access::Public, feedback)
            .body_limit(signet_email::feedback::MAX_REPORT_BYTES),
    ];

fn feedback() -> MethodRouter<AppState> {
    use secrecy::ExposeSecret as _;
    use signet_core::DomainError;
    post(
        |State(s): State<AppState>, headers: axum::http::HeaderMap, body: axum::body::Bytes| async move {
            let Some(secret) = &s.config.email_feedback_secret else {
                return Err(ApiError::from(DomainError::NotFound(
                    "email feedback is off: set email_feedback_secret (SIGNET_EMAIL_FEEDBACK_SECRET)"
                        .into(),
                )));
            };
            let given = headers
                .get(axum::http::header::AUTHORIZATION)
                .and_then(|v| v.to_str().ok())
                .and_then(|v| v.strip_prefix("Bearer "))
                .unwrap_or_default();
            if !same_secret(given, secret.expose_secret()) {
                return Err(DomainError::Unauthenticated.into());
            }
            let media = headers
                .get(axum::http::header::CONTENT_TYPE)
                .and_then(|v| v.to_str().ok())
                .unwrap_or_default()
                .split(';')
                .next()
                .unwrap_or_default()
                .trim()
                .to_ascii_lowercase();
            if media != "message/rfc822" {
                return Err(DomainError::invalid(
                    "content-type",
                    "a report is posted whole as message/rfc822",
                )
                .into());
            }
            let out = signet_email::feedback::apply(&s.ctx, &body).await?;
            Ok(Json(out))
        },
    )
}
