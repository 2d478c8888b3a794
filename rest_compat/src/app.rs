//! The application's own calls outside GraphQL (docs/decisions/the-application.md): asking
//! for a sign-in link, redeeming one (which sets the session cookie), and signing out. Each
//! must come from the application's own pages (`door::session::same_origin`); each answer
//! is personal (never cached). Everything else a person does goes through GraphQL with the
//! cookie. None of this is in the OpenAPI document: REST keeps exactly the spec's routes.

use axum::extract::State;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::Response;
use axum::routing::{MethodRouter, get, post};
use axum::{Extension, Json};
use serde::Deserialize;
use signet_accounts::people::mail::{INSTALLATION, PeopleEmail};
use signet_accounts::people::{links, passkeys, sessions};
use signet_core::DomainError;
use signet_core::jobs::{Batch, Owner};

use crate::door::client::ClientIp;
use crate::door::session::{cookie, cross_site, same_origin, set_cookie};
use crate::extract::JsonIn;
use crate::routes::row::{Access, Route};
use crate::signing_page::personal;
use crate::{ApiError, AppState};

/// The largest body of these calls: an address or a link.
const APP_BODY_LIMIT: usize = 4 * 1024;
/// A passkey's answer (an RSA-4096 signature is 683 characters of base64url).
const PASSKEY_BODY_LIMIT: usize = 16 * 1024;

pub static ROUTES: &[Route] = &[
    Route::get("/app", "app.page", Access::Public, page).body_limit(APP_BODY_LIMIT),
    Route::get("/app/{*rest}", "app.page", Access::Public, page).body_limit(APP_BODY_LIMIT),
    Route::post("/app/v1/sign-in", "app.sign_in", Access::Public, sign_in)
        .body_limit(APP_BODY_LIMIT),
    Route::post(
        "/app/v1/sign-in/redeem",
        "app.redeem",
        Access::Public,
        redeem,
    )
    .body_limit(APP_BODY_LIMIT),
    Route::post("/app/v1/sign-out", "app.sign_out", Access::Public, sign_out)
        .body_limit(APP_BODY_LIMIT),
    Route::post(
        "/app/v1/passkey/options",
        "app.passkey_options",
        Access::Public,
        passkey_options,
    )
    .body_limit(APP_BODY_LIMIT),
    Route::post(
        "/app/v1/passkey/sign-in",
        "app.passkey_sign_in",
        Access::Public,
        passkey_sign_in,
    )
    .body_limit(PASSKEY_BODY_LIMIT),
    // A document's files for the person's browser: the API's own answers, read with the
    // session (and its X-Signet-Mode) instead of a key, never kept by a cache.
    Route::get(
        "/app/v1/documents/{id}/signed.pdf",
        "app.signed_pdf",
        Access::Session,
        signed_pdf,
    )
    .body_limit(APP_BODY_LIMIT),
    Route::get(
        "/app/v1/documents/{id}/audit-log.csv",
        "app.audit_csv",
        Access::Session,
        audit_csv,
    )
    .body_limit(APP_BODY_LIMIT),
];

fn signed_pdf() -> MethodRouter<AppState> {
    crate::handlers::documents::signed_pdf().layer(axum::middleware::map_response(no_store))
}

fn audit_csv() -> MethodRouter<AppState> {
    crate::handlers::documents::audit_csv().layer(axum::middleware::map_response(no_store))
}

async fn no_store(res: Response) -> Response {
    personal(res)
}

/// The application's page: the same few bytes for every path under `/app` (the page reads
/// its path, and a sign-in link's token from the fragment, which never reaches a server), so
/// opening a link changes nothing.
fn page() -> MethodRouter<AppState> {
    get(|| async {
        let js = signet_frontend::built("app.js").unwrap_or("app.js");
        let css = signet_frontend::built("app.css").unwrap_or("app.css");
        personal((
            [(header::CONTENT_TYPE, "text/html; charset=utf-8")],
            format!(
                "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
                 <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
                 <meta name=\"robots\" content=\"noindex, nofollow\">\
                 <title>Signet</title><link rel=\"icon\" href=\"data:,\">\
                 <link rel=\"stylesheet\" href=\"/assets/{css}\">\
                 <script type=\"module\" src=\"/assets/{js}\"></script></head>\
                 <body><div id=\"app\"><p class=\"loading\" role=\"status\">…</p></div>\
                 <noscript><p>Signet's application needs JavaScript.</p></noscript></body></html>\n"
            ),
        ))
    })
}

/// What every request for a link is told, whoever the address belongs to.
pub const ASKED: &str = "If this address belongs to someone here, a sign-in link is on its way. It works once, for 15 minutes.";

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SignInIn {
    email: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RedeemIn {
    token: String,
}

fn from_here(s: &AppState, headers: &HeaderMap) -> Result<(), ApiError> {
    if same_origin(&s.ctx, headers) {
        Ok(())
    } else {
        Err(ApiError(cross_site()))
    }
}

/// Counts the request against both bounds and queues the job that looks the address up:
/// the same 202 and words for every address.
fn sign_in() -> MethodRouter<AppState> {
    post(
        |State(s): State<AppState>,
         Extension(ClientIp(ip)): Extension<ClientIp>,
         headers: HeaderMap,
         JsonIn(body): JsonIn<SignInIn>| async move {
            from_here(&s, &headers)?;
            let email = links::ask(&s.ctx, &body.email, ip).await?;
            let mut batch = Batch::default();
            batch.add(
                &PeopleEmail::SignIn { email },
                Owner {
                    workspace_id: INSTALLATION,
                    document_id: None,
                    test: false,
                },
                s.ctx.now(),
            );
            let queued = batch
                .write(&s.ctx.db.conn, &s.ctx.db)
                .await
                .map_err(DomainError::from)?;
            s.ctx.queued(queued).await;
            Ok::<_, ApiError>(personal((
                StatusCode::ACCEPTED,
                Json(serde_json::json!({ "message": ASKED })),
            )))
        },
    )
}

/// Redeems a link (the button of the link's page): a session, its cookie set.
fn redeem() -> MethodRouter<AppState> {
    post(
        |State(s): State<AppState>,
         Extension(ClientIp(ip)): Extension<ClientIp>,
         headers: HeaderMap,
         JsonIn(body): JsonIn<RedeemIn>| async move {
            from_here(&s, &headers)?;
            let signed = links::redeem(&s.ctx, body.token.trim(), ip, user_agent(&headers)).await?;
            end_cookie_session(&s, &headers).await;
            Ok::<_, ApiError>(signed_in(&s, signed))
        },
    )
}

fn user_agent(headers: &HeaderMap) -> &str {
    headers
        .get(header::USER_AGENT)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
}

/// The answer of a sign-in: the session's cookie set, who and where.
fn signed_in(s: &AppState, signed: links::SignedIn) -> Response {
    let cookie = set_cookie(&s.ctx, Some((&signed.token, sessions::LIFETIME_MS / 1000)));
    personal((
        [(header::SET_COOKIE, cookie)],
        Json(serde_json::json!({
            "userId": signed.user_id,
            "workspaceId": signed.workspace_id,
        })),
    ))
}

/// A challenge for `navigator.credentials.get`, for any passkey of this site.
fn passkey_options() -> MethodRouter<AppState> {
    post(|State(s): State<AppState>, headers: HeaderMap| async move {
        from_here(&s, &headers)?;
        let options = passkeys::sign_in_options(&s.ctx).await?;
        Ok::<_, ApiError>(personal(Json(options)))
    })
}

/// Signs in with a passkey's answer: a session, its cookie set.
fn passkey_sign_in() -> MethodRouter<AppState> {
    post(
        |State(s): State<AppState>,
         Extension(ClientIp(ip)): Extension<ClientIp>,
         headers: HeaderMap,
         JsonIn(body): JsonIn<passkeys::AssertionIn>| async move {
            from_here(&s, &headers)?;
            let signed = passkeys::sign_in(&s.ctx, body, ip, user_agent(&headers)).await?;
            end_cookie_session(&s, &headers).await;
            Ok::<_, ApiError>(signed_in(&s, signed))
        },
    )
}

/// Ends the asking session, if its cookie still opens one, and clears the cookie either way.
fn sign_out() -> MethodRouter<AppState> {
    post(|State(s): State<AppState>, headers: HeaderMap| async move {
        from_here(&s, &headers)?;
        end_cookie_session(&s, &headers).await;
        Ok::<_, ApiError>(personal((
            StatusCode::NO_CONTENT,
            [(header::SET_COOKIE, set_cookie(&s.ctx, None))],
        )))
    })
}

/// Ends the session the request's cookie opens, if any: signing out, or signing in again
/// over it (the old session does not linger behind the new cookie).
async fn end_cookie_session(s: &AppState, headers: &HeaderMap) {
    let Some(secret) = cookie(&s.ctx, headers) else {
        return;
    };
    if let Ok(actor) = sessions::authenticate(&s.ctx, secret).await
        && let Ok((_, session)) = sessions::person_of(&actor)
        && let Err(e) = sessions::end(&s.ctx, &actor, Some(session)).await
    {
        tracing::warn!(error = %e, "a session could not be ended");
    }
}
