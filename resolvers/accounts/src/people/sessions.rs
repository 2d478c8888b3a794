//! Sessions: what a sign-in opens. The cookie holds 32 random bytes; only their keyed hash is
//! stored. A session acts in one workspace at a time, with the person's role there read on
//! every request, so a removed member is refused at once. It ends after 14 days unused or 30
//! days in all, when its person ends it, or everywhere at once.

use std::net::IpAddr;

use base64::Engine as _;
use ring::rand::SecureRandom as _;
use sea_orm::{ConnectionTrait, Value};
use serde::Serialize;
use signet_core::actor::{Mode, Principal};
use signet_core::{Actor, Ctx, DomainError, ids};

use super::members;

/// A session unused this long ends.
pub const IDLE_MS: i64 = 14 * 24 * 3600 * 1000;
/// A session ends this long after it began, used or not.
pub const LIFETIME_MS: i64 = 30 * 24 * 3600 * 1000;
/// Its last use is written at most this often.
const TOUCH_MS: i64 = 5 * 60 * 1000;
/// The longest browser name kept.
const MAX_AGENT: usize = 300;

/// A session as its person sees it in their list.
#[derive(Clone, Debug, Serialize, utoipa::ToSchema, async_graphql::SimpleObject)]
#[serde(rename_all = "camelCase")]
pub struct SessionOut {
    pub id: String,
    pub workspace_id: String,
    /// Milliseconds since the epoch.
    pub created_at: i64,
    pub last_seen_at: i64,
    pub client_ip: String,
    pub user_agent: String,
    /// Whether this is the session that asks.
    pub current: bool,
}

/// The keyed hash of a session's secret (apart from keys' and links' by its prefix).
pub fn hash(ctx: &Ctx, token: &str) -> String {
    let tag = ring::hmac::sign(&ctx.key_hasher, format!("session:{token}").as_bytes());
    ids::hex(tag.as_ref())
}

/// 32 random bytes, base64url: a session's or a sign-in link's secret.
pub fn secret() -> Result<String, DomainError> {
    let mut bytes = [0u8; 32];
    ring::rand::SystemRandom::new()
        .fill(&mut bytes)
        .map_err(|_| DomainError::Internal("the system's random source failed".into()))?;
    Ok(base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes))
}

/// Opens a session for a person in a workspace, inside the caller's transaction. Answers the
/// cookie's secret, which exists in the clear only here.
pub async fn open<C: ConnectionTrait>(
    conn: &C,
    ctx: &Ctx,
    user_id: &str,
    workspace_id: &str,
    client_ip: IpAddr,
    user_agent: &str,
) -> Result<(String, String), DomainError> {
    let token = secret()?;
    let id = ids::new_id("ses");
    let now = ctx.now();
    let agent: String = user_agent.chars().take(MAX_AGENT).collect();
    conn.execute_raw(ctx.db.stmt(
        "INSERT INTO sessions (id, token_hash, user_id, workspace_id, created_at, last_seen_at, acting_since, client_ip, user_agent) \
         VALUES ($1, $2, $3, $4, $5, $5, $5, $6, $7)",
        [
            Value::from(id.as_str()),
            Value::from(hash(ctx, &token)),
            Value::from(user_id),
            Value::from(workspace_id),
            Value::from(now),
            Value::from(client_ip.to_string()),
            Value::from(agent),
        ],
    ))
    .await?;
    Ok((id, token))
}

/// The actor a session cookie speaks for: its person, in the workspace it acts in, with
/// their role there. Every failure is the same `Unauthenticated`.
pub async fn authenticate(ctx: &Ctx, token: &str) -> Result<Actor, DomainError> {
    if token.len() != 43 {
        return Err(DomainError::Unauthenticated);
    }
    let now = ctx.now();
    let row = ctx
        .db
        .conn
        .query_one_raw(ctx.db.stmt(
            "SELECT s.id, s.user_id, s.workspace_id, s.created_at, s.last_seen_at, s.acting_since, s.ended_at, \
             w.name AS workspace_name, w.plan, w.test_mode FROM sessions s JOIN workspaces w ON w.id = s.workspace_id \
             WHERE s.token_hash = $1",
            [Value::from(hash(ctx, token))],
        ))
        .await?
        .ok_or(DomainError::Unauthenticated)?;
    let id: String = row.try_get("", "id")?;
    let user_id: String = row.try_get("", "user_id")?;
    let workspace_id: String = row.try_get("", "workspace_id")?;
    let created: i64 = row.try_get("", "created_at")?;
    let seen: i64 = row.try_get("", "last_seen_at")?;
    let acting_since: i64 = row.try_get("", "acting_since")?;
    let ended: Option<i64> = row.try_get("", "ended_at")?;
    if ended.is_some() || now - seen >= IDLE_MS || now - created >= LIFETIME_MS {
        return Err(DomainError::Unauthenticated);
    }
    // The membership must be older than the session's acting in the workspace: a person
    // taken out and added again does not get back the sessions they had before.
    let role = ctx
        .db
        .conn
        .query_one_raw(ctx.db.stmt(
            "SELECT role FROM members WHERE workspace_id = $1 AND user_id = $2 AND created_at <= $3",
            [
                Value::from(workspace_id.as_str()),
                Value::from(user_id.as_str()),
                Value::from(acting_since),
            ],
        ))
        .await?
        .and_then(|r| r.try_get::<String>("", "role").ok())
        .and_then(|r| members::parse_role(&r))
        .ok_or(DomainError::Unauthenticated)?;
    if now - seen >= TOUCH_MS {
        ctx.db
            .conn
            .execute_raw(ctx.db.stmt(
                "UPDATE sessions SET last_seen_at = $1 WHERE id = $2",
                [Value::from(now), Value::from(id.as_str())],
            ))
            .await?;
    }
    let plan: String = row.try_get("", "plan")?;
    let plan = signet_core::plans::Plan::parse(&plan)
        .ok_or_else(|| DomainError::Internal(format!("plan {plan}")))?;
    let workspace_test: bool = row.try_get("", "test_mode")?;
    Ok(Actor {
        workspace_id: workspace_id.into(),
        workspace_name: row.try_get("", "workspace_name")?,
        principal: Principal::Session {
            user_id,
            session_id: id,
            role,
        },
        mode: if workspace_test {
            Mode::Test
        } else {
            Mode::Live
        },
        scopes: members::scopes_of(role),
        plan,
        draft_only: false,
        daily_limit: None,
        per_minute: ctx.plans.limits(plan).requests_per_minute,
        client: None,
        workspace_test,
        own_mode: Mode::Live,
    })
}

/// The person's sessions still open, newest first (at most 100).
pub async fn list(ctx: &Ctx, actor: &Actor) -> Result<Vec<SessionOut>, DomainError> {
    let (user_id, session_id) = person_of(actor)?;
    let now = ctx.now();
    let rows = ctx
        .db
        .conn
        .query_all_raw(ctx.db.stmt(
            "SELECT id, workspace_id, created_at, last_seen_at, client_ip, user_agent FROM sessions \
             WHERE user_id = $1 AND ended_at IS NULL AND last_seen_at > $2 AND created_at > $3 \
             ORDER BY created_at DESC, id DESC LIMIT 100",
            [
                Value::from(user_id),
                Value::from(now - IDLE_MS),
                Value::from(now - LIFETIME_MS),
            ],
        ))
        .await?;
    rows.into_iter()
        .map(|r| {
            let id: String = r.try_get("", "id")?;
            Ok(SessionOut {
                current: id == session_id,
                id,
                workspace_id: r.try_get("", "workspace_id")?,
                created_at: r.try_get("", "created_at")?,
                last_seen_at: r.try_get("", "last_seen_at")?,
                client_ip: r.try_get("", "client_ip")?,
                user_agent: r.try_get("", "user_agent")?,
            })
        })
        .collect()
}

/// Ends one of the person's own sessions, or all of them (`id` = None: sign out everywhere).
/// Another person's session id is not found.
pub async fn end(ctx: &Ctx, actor: &Actor, id: Option<&str>) -> Result<u64, DomainError> {
    let (user_id, _) = person_of(actor)?;
    let (sql, values) = match id {
        Some(id) => (
            "UPDATE sessions SET ended_at = $1 WHERE user_id = $2 AND id = $3 AND ended_at IS NULL",
            vec![
                Value::from(ctx.now()),
                Value::from(user_id),
                Value::from(id),
            ],
        ),
        None => (
            "UPDATE sessions SET ended_at = $1 WHERE user_id = $2 AND ended_at IS NULL",
            vec![Value::from(ctx.now()), Value::from(user_id)],
        ),
    };
    let done = ctx
        .db
        .conn
        .execute_raw(ctx.db.stmt(sql, values))
        .await?
        .rows_affected();
    if id.is_some() && done == 0 {
        return Err(DomainError::NotFound("no such session of yours".into()));
    }
    Ok(done)
}

/// The person and session a principal is, or `Forbidden` for a key: what only people do.
pub fn person_of(actor: &Actor) -> Result<(&str, &str), DomainError> {
    match &actor.principal {
        Principal::Session {
            user_id,
            session_id,
            ..
        } => Ok((user_id, session_id)),
        _ => Err(DomainError::Forbidden(
            "only a person signed in to the application can do this; an API key cannot".into(),
        )),
    }
}

/// Moves the asking session into another of the person's workspaces. A workspace they are
/// not a member of is not found, whether or not it exists.
pub async fn switch(ctx: &Ctx, actor: &Actor, workspace_id: &str) -> Result<(), DomainError> {
    let (user_id, session_id) = person_of(actor)?;
    let moved = ctx
        .db
        .conn
        .execute_raw(ctx.db.stmt(
            // Acting from now, or from the membership's own moment when another machine's
            // clock wrote it a little ahead: the switch never leaves a session that cannot
            // authenticate.
            "UPDATE sessions SET workspace_id = $1, acting_since = (SELECT CASE WHEN m.created_at > $2 \
             THEN m.created_at ELSE $2 END FROM members m WHERE m.workspace_id = $1 AND m.user_id = $4) \
             WHERE id = $3 AND ended_at IS NULL \
             AND EXISTS (SELECT 1 FROM members m WHERE m.workspace_id = $1 AND m.user_id = $4)",
            [
                Value::from(workspace_id),
                Value::from(ctx.now()),
                Value::from(session_id),
                Value::from(user_id),
            ],
        ))
        .await?
        .rows_affected();
    if moved == 0 {
        return Err(DomainError::NotFound(format!(
            "no workspace {workspace_id} of yours"
        )));
    }
    Ok(())
}
