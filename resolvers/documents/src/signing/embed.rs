//! Embedded signing: the caller signs their own user inside their own site.
//!
//! 1. The document names the seats signed that way (`embedded`); nobody emails them.
//! 2. `POST /documents/{id}/embed-session` (`embedded:write`) gives a one-hour link for one
//!    seat, whose turn it is, and one website on the workspace's list, while embedding is on.
//!    The only way a key puts a person in front of a form: it can never sign for them.
//! 3. The link (`/e/{token}`) opens the signing page in a frame; the page is served with
//!    `frame-ancestors` set to exactly that website. The page exchanges the link once
//!    (`POST /page/v1/embed/start`) for a session that lives in its memory (frames get no
//!    third-party cookies) and posts its events to that website only.
//!
//! Only keyed hashes of the link and the session are stored, with the website.

use sea_orm::{ConnectionTrait, TransactionTrait, Value};
use serde::{Deserialize, Serialize};
use serde_json::json;

use crate::signing::links;
use crate::store;
use crate::trail::Trail;
use signet_core::actor::{Actor, Scope};
use signet_core::answer::{Claim, Made, Ready};
use signet_core::clock::time;
use signet_core::{Ctx, DomainError};

/// How long an embed link, and the session it is exchanged for, work.
pub const SESSION_MS: i64 = 3_600_000;

#[derive(Clone, Debug, Deserialize, Serialize, signet_core::rules::Validate, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct EmbedSessionIn {
    /// The seat signed in your app: one listed in the document's `embedded`.
    #[validate(custom(function = signet_core::rules::line::<100>))]
    pub seat: String,
    /// The website the frame is shown on (`https://app.example.com`), one of the workspace's
    /// allowed websites.
    pub origin: String,
}

#[derive(Clone, Debug, Serialize, utoipa::ToSchema, async_graphql::SimpleObject)]
#[serde(rename_all = "camelCase")]
pub struct EmbedSessionOut {
    /// The signing page for a frame or `<signet-signing url="...">`. It works once, for an
    /// hour, on `origin` only. Never log it or put it in a URL your users can share.
    pub url: String,
    pub expires_at: String,
    pub document_id: String,
    pub seat: String,
    pub origin: String,
}

fn refused(why: String) -> DomainError {
    DomainError::conflict(why)
}

/// POST /documents/{id}/embed-session.
pub async fn session(
    ctx: &Ctx,
    actor: &Actor,
    id: &str,
    body: EmbedSessionIn,
    claim: Option<&Claim>,
) -> Result<Made<EmbedSessionOut>, DomainError> {
    actor.require(Scope::EmbeddedWrite)?;
    signet_core::rules::check(&body)?;
    let seat = body.seat.trim().to_string();
    let origin = signet_accounts::workspaces::origin("origin", &body.origin)?;
    let doc = crate::visible(&ctx.db.conn, ctx, actor, id).await?;
    let people = store::people(&ctx.db.conn, &ctx.db, &[&doc.id]).await?;
    let Some(person) = people.iter().find(|p| p.seat == seat) else {
        return Err(DomainError::invalid(
            "seat",
            format!("document {id} has no seat '{seat}'"),
        ));
    };
    if !person.embedded {
        return Err(refused(format!(
            "seat '{seat}' was not sent as embedded: it signs from its email"
        )));
    }
    signet_accounts::workspaces::embeddable(&ctx.db.conn, ctx, &doc.workspace_id, &origin).await?;
    let out = doc.state.out_for_signature();
    if !out || !person.status.is_up() {
        return Err(refused(format!(
            "it is not seat '{seat}'s turn: the document is {} and the seat is {}",
            doc.state, person.status
        )));
    }
    let minted = links::mint(ctx)?;
    let now = ctx.now();
    let until = now + SESSION_MS;
    let ready = Ready::secret(
        200,
        EmbedSessionOut {
            url: format!(
                "{}/e/{}",
                ctx.public_url.trim_end_matches('/'),
                minted.token
            ),
            expires_at: time(until),
            document_id: doc.id.to_string(),
            seat: seat.clone(),
            origin: origin.clone(),
        },
    )?;
    let txn = ctx.db.conn.begin().await?;
    super::identity::lock_document(&txn, ctx, &doc.id).await?;
    store_link(
        &txn,
        ctx,
        &minted.hash,
        &doc.id,
        &person.id,
        "embed",
        &origin,
        until,
    )
    .await?;
    let mut trail = Trail::new(&doc.id, ctx.now());
    trail.audit(
        "embed_session",
        &format!(
            "A signing session for {} ({}) was opened for {origin}",
            person.name, person.email
        ),
        Some(&person.seat),
        actor.recorded(),
        json!({"origin": origin}),
    );
    let queued = trail.write(&txn, &ctx.db).await?;
    let made = ready.store(&txn, ctx, claim).await?;
    txn.commit().await?;
    ctx.queued(queued).await;
    Ok(made)
}

#[allow(clippy::too_many_arguments)]
async fn store_link<C: ConnectionTrait>(
    conn: &C,
    ctx: &Ctx,
    hash: &str,
    doc_id: &str,
    person_id: &str,
    purpose: &str,
    origin: &str,
    until: i64,
) -> Result<(), DomainError> {
    conn.execute_raw(ctx.db.stmt(
        "INSERT INTO signing_links (hash, document_id, person_id, purpose, expires_at, created_at, origin) \
         VALUES ($1, $2, $3, $4, $5, $6, $7)",
        [
            Value::from(hash.to_string()),
            Value::from(doc_id.to_string()),
            Value::from(person_id.to_string()),
            Value::from(purpose.to_string()),
            Value::from(until),
            Value::from(ctx.now()),
            Value::from(origin.to_string()),
        ],
    ))
    .await?;
    Ok(())
}

/// The website an embed link is for, while it has not run out (the frame's
/// `frame-ancestors`). Reading changes nothing.
pub async fn origin_of(ctx: &Ctx, token: &str) -> Result<Option<String>, DomainError> {
    if token.len() != 43 {
        return Ok(None);
    }
    let row = ctx
        .db
        .conn
        .query_one_raw(ctx.db.stmt(
            "SELECT origin FROM signing_links WHERE hash = $1 AND purpose = 'embed' AND expires_at > $2",
            [Value::from(links::hash(ctx, token)), Value::from(ctx.now())],
        ))
        .await?;
    Ok(match row {
        Some(r) => r.try_get("", "origin")?,
        None => None,
    })
}

/// What the frame's page gets for its link.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct StartOut {
    /// The session: the page's credential from now on (`Authorization: Link <session>`),
    /// kept in its memory only.
    pub session: String,
    /// The website to post events to, and only to.
    pub origin: String,
    /// Milliseconds since the epoch.
    pub expires_at: i64,
}

/// POST /page/v1/embed/start: exchanges an embed link, once, for a session with the same
/// end, while the workspace still embeds on that website. A link used or run out is the
/// same 404. The exchange is in the audit trail, with the address and browser.
pub async fn start(
    ctx: &Ctx,
    token: &str,
    seen: &super::visit::Seen,
) -> Result<StartOut, DomainError> {
    let gone = || {
        DomainError::NotFound("this signing session has ended; start it again from the app".into())
    };
    if token.len() != 43 {
        return Err(gone());
    }
    let hash = links::hash(ctx, token);
    let now = ctx.now();
    let txn = ctx.db.conn.begin().await?;
    let used = txn
        .execute_raw(ctx.db.stmt(
            "UPDATE signing_links SET used_at = $2 WHERE hash = $1 AND purpose = 'embed' AND used_at IS NULL AND expires_at > $2",
            [Value::from(hash.clone()), Value::from(now)],
        ))
        .await?;
    if used.rows_affected() != 1 {
        txn.rollback().await?;
        return Err(gone());
    }
    let row = txn
        .query_one_raw(ctx.db.stmt(
            "SELECT document_id, person_id, origin, expires_at FROM signing_links WHERE hash = $1",
            [Value::from(hash)],
        ))
        .await?
        .ok_or_else(gone)?;
    let (doc_id, person_id, origin, until): (String, String, String, i64) = (
        row.try_get("", "document_id")?,
        row.try_get("", "person_id")?,
        row.try_get("", "origin")?,
        row.try_get("", "expires_at")?,
    );
    let doc = store::load(&txn, &ctx.db, &doc_id)
        .await?
        .ok_or_else(gone)?;
    let embedding = signet_accounts::workspaces::embedding(&txn, ctx, &doc.workspace_id).await?;
    if !embedding.on || !embedding.origins.contains(&origin) {
        txn.rollback().await?;
        return Err(refused(format!(
            "{origin} may no longer show this workspace's signing page"
        )));
    }
    let people = store::people(&txn, &ctx.db, &[&doc_id]).await?;
    let person = people.iter().find(|p| p.id == person_id).ok_or_else(gone)?;
    let session = links::mint(ctx)?;
    super::identity::lock_document(&txn, ctx, &doc_id).await?;
    store_link(
        &txn,
        ctx,
        &session.hash,
        &doc_id,
        &person_id,
        "session",
        &origin,
        until,
    )
    .await?;
    let seen = super::visit::Seen {
        origin: Some(origin.clone()),
        ..seen.clone()
    };
    let mut trail = Trail::new(&doc_id, ctx.now());
    trail.audit(
        "embed_started",
        &format!(
            "The signing page of {} ({}) opened in a frame on {origin}",
            person.name, person.email
        ),
        Some(&person.seat),
        &person.name,
        seen.detail(),
    );
    let queued = trail.write(&txn, &ctx.db).await?;
    txn.commit().await?;
    ctx.queued(queued).await;
    Ok(StartOut {
        session: session.token,
        origin,
        expires_at: until,
    })
}
