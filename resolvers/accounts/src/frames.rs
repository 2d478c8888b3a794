//! The builder and Scribe frames' sessions: `POST /embedded/builder-session` and
//! `POST /embedded/scribe-session`.
//!
//! 1. A key with `embedded:write` asks for a session for one website on the workspace's
//!    allowed list, while embedding is on (409 otherwise, as for signing sessions).
//! 2. The answer is a one-hour link (`/builder/{token}` or `/scribe/{token}`) that works once. The frame's
//!    page is served with `frame-ancestors` set to exactly that website, and exchanges the
//!    link (`start`) for a key of its own, kept in the page's memory, that ends with the link:
//!    the builder's can only read and write templates; Scribe's can read plays and make
//!    drafts (draft-only, 50 drafts a day), never send, never read other documents.
//! 3. A frame's key is not listed with the workspace's keys (`api_keys.frame`).
//!
//! Only the link's keyed hash is stored, with the website.

use sea_orm::{ConnectionTrait, TransactionTrait, Value};
use serde::{Deserialize, Serialize};
use signet_core::actor::{Actor, Scope, Scopes};
use signet_core::answer::{Claim, Made, Ready};
use signet_core::clock::time;
use signet_core::{Ctx, DomainError, Mode};

use crate::keys::{self, KeyCreateIn};

/// How long a frame's link, and the key it is exchanged for, work.
pub const SESSION_MS: i64 = 3_600_000;
/// Drafts a Scribe session's key may make a day.
pub const SCRIBE_DRAFTS_PER_DAY: u64 = 50;

/// The two frames.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Frame {
    Builder,
    Scribe,
}

impl Frame {
    pub fn as_str(self) -> &'static str {
        match self {
            Frame::Builder => "builder",
            Frame::Scribe => "scribe",
        }
    }

    pub fn parse(s: &str) -> Option<Frame> {
        match s {
            "builder" => Some(Frame::Builder),
            "scribe" => Some(Frame::Scribe),
            _ => None,
        }
    }

    /// The path a link opens: `/builder/{token}` or `/scribe/{token}` (`/s/` is the
    /// signing page's).
    pub fn path(self) -> &'static str {
        self.as_str()
    }

    /// What the frame's own key may do.
    pub fn scopes(self) -> Scopes {
        match self {
            Frame::Builder => Scopes::from_iter([Scope::TemplatesRead, Scope::TemplatesWrite]),
            Frame::Scribe => Scopes::from_iter([Scope::PlaysRead, Scope::DraftsWrite]),
        }
    }

    fn label(self) -> &'static str {
        match self {
            Frame::Builder => "builder",
            Frame::Scribe => "Scribe",
        }
    }
}

#[derive(Clone, Debug, Default, Deserialize, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct FrameSessionIn {
    /// The website the frame is shown on (`https://app.example.com`), one of the workspace's
    /// allowed websites.
    pub origin: String,
    /// The builder: the new template's starting name. Scribe: the draft's title.
    #[serde(default)]
    pub name: Option<String>,
}

#[derive(Clone, Debug, Serialize, utoipa::ToSchema, async_graphql::SimpleObject)]
#[serde(rename_all = "camelCase")]
pub struct FrameSessionOut {
    /// The frame's page, for an iframe or `<signet-builder url="...">` /
    /// `<signet-scribe url="...">`. It works once, for an hour, on `origin` only. Never log
    /// it or put it in a URL your users can share.
    pub url: String,
    pub expires_at: String,
    /// `builder` or `scribe`.
    pub frame: String,
    pub origin: String,
    pub name: Option<String>,
}

/// The keyed hash of a frame's link (apart from API keys' and signing links' by its prefix).
fn hash(ctx: &Ctx, token: &str) -> String {
    let tag = ring::hmac::sign(&ctx.key_hasher, format!("frame:{token}").as_bytes());
    signet_core::ids::hex(tag.as_ref())
}

fn mint() -> Result<String, DomainError> {
    use base64::Engine as _;
    use ring::rand::SecureRandom as _;
    let mut bytes = [0u8; 32];
    ring::rand::SystemRandom::new()
        .fill(&mut bytes)
        .map_err(|_| DomainError::Internal("the system's random source failed".into()))?;
    Ok(base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes))
}

/// POST /embedded/builder-session and /embedded/scribe-session.
pub async fn session(
    ctx: &Ctx,
    actor: &Actor,
    frame: Frame,
    body: FrameSessionIn,
    claim: Option<&Claim>,
) -> Result<Made<FrameSessionOut>, DomainError> {
    actor.require(Scope::EmbeddedWrite)?;
    if frame == Frame::Scribe && actor.plan != signet_core::plans::Plan::Pro {
        return Err(DomainError::Forbidden(
            "Scribe drafts from plays, which are part of the Pro plan, and this workspace is on \
             Free; an owner can move it to Pro"
                .into(),
        ));
    }
    let origin = crate::workspaces::origin("origin", &body.origin)?;
    let name = match body
        .name
        .as_deref()
        .map(str::trim)
        .filter(|n| !n.is_empty())
    {
        Some(n) => Some(signet_core::fields::line("name", n, 200)?),
        None => None,
    };
    crate::workspaces::embeddable(&ctx.db.conn, ctx, &actor.workspace_id, &origin).await?;
    let token = mint()?;
    let now = ctx.now();
    let until = now + SESSION_MS;
    let ready = Ready::secret(
        200,
        FrameSessionOut {
            url: format!(
                "{}/{}/{token}",
                ctx.public_url.trim_end_matches('/'),
                frame.path()
            ),
            expires_at: time(until),
            frame: frame.as_str().into(),
            origin: origin.clone(),
            name: name.clone(),
        },
    )?;
    let txn = ctx.db.conn.begin().await?;
    txn.execute_raw(ctx.db.stmt(
        "INSERT INTO frame_links (hash, workspace_id, mode, kind, origin, name, created_by, \
         created_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
        [
            Value::from(hash(ctx, &token)),
            Value::from(actor.workspace_id.to_string()),
            Value::from(actor.mode.as_str()),
            Value::from(frame.as_str()),
            Value::from(origin),
            Value::from(name),
            Value::from(actor.recorded().to_string()),
            Value::from(now),
            Value::from(until),
        ],
    ))
    .await?;
    let made = ready.store(&txn, ctx, claim).await?;
    txn.commit().await?;
    Ok(made)
}

/// The website a frame's link is for, while it has not run out (the page's
/// `frame-ancestors`). Reading changes nothing.
pub async fn origin_of(
    ctx: &Ctx,
    frame: Frame,
    token: &str,
) -> Result<Option<String>, DomainError> {
    Ok(live(ctx, token, "kind = $3", Some(frame.as_str()))
        .await?
        .map(|(origin, _)| origin))
}

/// A link not run out: its website and whether it was exchanged, when `token` is one and
/// `filter` (SQL on `frame_links`, `$3` being `arg`) holds.
async fn live(
    ctx: &Ctx,
    token: &str,
    filter: &str,
    arg: Option<&str>,
) -> Result<Option<(String, bool)>, DomainError> {
    if token.len() != 43 {
        return Ok(None);
    }
    let mut args = vec![Value::from(hash(ctx, token)), Value::from(ctx.now())];
    if let Some(a) = arg {
        args.push(Value::from(a));
    }
    let row = ctx
        .db
        .conn
        .query_one_raw(ctx.db.stmt(
            &format!(
                "SELECT origin, used_at FROM frame_links WHERE hash = $1 AND expires_at > $2 \
                 AND {filter}"
            ),
            args,
        ))
        .await?;
    Ok(match row {
        Some(r) => Some((
            r.try_get("", "origin")?,
            r.try_get::<Option<i64>>("", "used_at")?.is_some(),
        )),
        None => None,
    })
}

/// Whether `token` is a frame's link not yet exchanged and not run out (the door's check
/// before a page call's body is read).
pub async fn link_is_live(ctx: &Ctx, token: &str) -> Result<bool, DomainError> {
    Ok(live(ctx, token, "used_at IS NULL", None).await?.is_some())
}

/// What the frame's page gets for its link.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FrameStartOut {
    /// The frame's own key (`Authorization: Bearer`), kept in the page's memory only.
    pub key: String,
    /// `builder` or `scribe`.
    pub frame: String,
    /// The website to post events to, and only to.
    pub origin: String,
    pub name: Option<String>,
    /// `test` or `live`: the mode of the key that opened the session.
    pub mode: String,
    /// The workspace's default language (the page may follow the browser's instead).
    pub language: String,
    /// Milliseconds since the epoch.
    pub expires_at: i64,
}

/// POST /page/v1/frame/start: exchanges a frame's link, once, for the frame's own key with
/// the same end, while the workspace still embeds on that website. A link used or run out
/// is the same 404.
pub async fn start(ctx: &Ctx, frame: Frame, token: &str) -> Result<FrameStartOut, DomainError> {
    let gone = || {
        DomainError::NotFound(format!(
            "this {} session has ended; open it again from the app",
            frame.label()
        ))
    };
    if token.len() != 43 {
        return Err(gone());
    }
    let hash = hash(ctx, token);
    let now = ctx.now();
    let row = ctx
        .db
        .conn
        .query_one_raw(ctx.db.stmt(
            "SELECT workspace_id, mode, origin, name, expires_at FROM frame_links \
             WHERE hash = $1 AND kind = $2 AND used_at IS NULL AND expires_at > $3",
            [
                Value::from(hash.clone()),
                Value::from(frame.as_str()),
                Value::from(now),
            ],
        ))
        .await?
        .ok_or_else(gone)?;
    let (workspace_id, mode, origin, name, until): (String, String, String, Option<String>, i64) = (
        row.try_get("", "workspace_id")?,
        row.try_get("", "mode")?,
        row.try_get("", "origin")?,
        row.try_get("", "name")?,
        row.try_get("", "expires_at")?,
    );
    crate::workspaces::embeddable(&ctx.db.conn, ctx, &workspace_id, &origin).await?;
    let language = crate::workspaces::settings(ctx, &workspace_id)
        .await?
        .locale
        .unwrap_or_else(|| "en".into());
    let mode = Mode::parse(&mode).ok_or_else(|| DomainError::Internal("frame mode".into()))?;
    let scribe = frame == Frame::Scribe;
    let (made, key) = keys::create(
        ctx,
        KeyCreateIn {
            draft_only: scribe,
            daily_limit: scribe.then_some(SCRIBE_DRAFTS_PER_DAY),
            expires_at: Some(until),
            name: Some(format!("{} session for {origin}", frame.label())),
            frame: Some(frame.as_str().into()),
            ..KeyCreateIn::new(&workspace_id, mode, frame.scopes())
        },
    )
    .await?;
    // The link is spent and names its key in one statement, once: a second exchange at the
    // same moment (or a failure here) revokes the key it made, which nobody was given.
    let claimed = ctx
        .db
        .write(ctx.db.stmt(
            "UPDATE frame_links SET used_at = $2, key_id = $3 WHERE hash = $1 \
             AND used_at IS NULL AND expires_at > $2",
            [
                Value::from(hash),
                Value::from(ctx.now()),
                Value::from(made.id.clone()),
            ],
        ))
        .await;
    if !matches!(claimed, Ok(1)) {
        let _ = keys::revoke(ctx, &made.id).await;
        claimed?;
        return Err(gone());
    }
    // Embedding may have been turned off for the website while the key was made: its
    // `end_refused` may not have seen this key yet, so the website is asked about again.
    if let Err(e) = crate::workspaces::embeddable(&ctx.db.conn, ctx, &workspace_id, &origin).await {
        let _ = keys::revoke(ctx, &made.id).await;
        return Err(e);
    }
    Ok(FrameStartOut {
        key,
        frame: frame.as_str().into(),
        origin,
        name,
        mode: mode.as_str().into(),
        language,
        expires_at: until,
    })
}

/// Links past their hour, and a day more.
pub async fn purge(ctx: &Ctx) -> Result<u64, DomainError> {
    Ok(ctx
        .db
        .write(ctx.db.stmt(
            "DELETE FROM frame_links WHERE expires_at < $1",
            [Value::from(ctx.now() - 86_400_000)],
        ))
        .await?)
}
