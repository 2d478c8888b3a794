//! The activity record: every change a person or a key makes to keys, webhook endpoints,
//! members, settings and approvals, with who, when and from where, written in the
//! transaction of the change; owners and admins read it (`activity:` GraphQL).

use sea_orm::{ConnectionTrait, Value};
use signet_core::actor::{Principal, Scope};
use signet_core::{Actor, Ctx, DomainError, ids};
use signet_storage::Sql;

/// The most lines one read answers.
pub const MAX_LISTED: u64 = 200;
/// The longest detail kept.
const MAX_DETAIL: usize = 500;

/// Who did it, as the record names them: a person's id with their session, a key's id, or
/// the name an operator gave.
fn who(actor: &Actor) -> String {
    match &actor.principal {
        Principal::Session { user_id, .. } => user_id.clone(),
        other => other.recorded().to_string(),
    }
}

/// Writes one line in the caller's transaction (or on its own).
pub async fn record<C: Sql + ?Sized>(
    conn: &C,
    ctx: &Ctx,
    actor: &Actor,
    from: Option<std::net::IpAddr>,
    action: &str,
    subject: &str,
    detail: &str,
) -> Result<(), DomainError> {
    let detail: String = detail.chars().take(MAX_DETAIL).collect();
    conn.exec(ctx.db.stmt(
        "INSERT INTO activity (id, workspace_id, actor, action, subject, detail, client_ip, created_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
        [
            Value::from(ids::new_id("act")),
            Value::from(actor.workspace_id.to_string()),
            Value::from(who(actor)),
            Value::from(action),
            Value::from(subject),
            Value::from(detail),
            Value::from(
                from.or(actor.client)
                    .map(|ip| ip.to_string())
                    .unwrap_or_default(),
            ),
            Value::from(ctx.now()),
        ],
    ))
    .await?;
    Ok(())
}

/// A line of the record.
#[derive(Clone, Debug, serde::Serialize, async_graphql::SimpleObject)]
#[serde(rename_all = "camelCase")]
pub struct ActivityOut {
    pub id: String,
    /// `usr_…` for a person, `key_…` for an API key, or the name an operator gave.
    pub actor: String,
    /// The person's name, when the actor is a person of the installation.
    pub actor_name: Option<String>,
    /// What was done, such as `member.invited` or `key.revoked`.
    pub action: String,
    /// What it was done to (an id or an address).
    pub subject: String,
    /// Data, not a sentence: a role (`member`), or a change (`admin→owner`).
    pub detail: String,
    pub client_ip: String,
    /// Milliseconds since the epoch.
    pub created_at: i64,
}

/// The workspace's record, newest first, older than `before` (ms) when given (at most
/// [`MAX_LISTED`]). Owners and admins only: it takes `settings:read`.
pub async fn list(
    ctx: &Ctx,
    actor: &Actor,
    before: Option<i64>,
    limit: Option<u64>,
) -> Result<Vec<ActivityOut>, DomainError> {
    actor.require(Scope::SettingsRead)?;
    let limit = limit.unwrap_or(50).clamp(1, MAX_LISTED);
    let rows = ctx
        .db
        .conn
        .query_all_raw(ctx.db.stmt(
            &format!(
                "SELECT a.id, a.actor, u.name AS actor_name, a.action, a.subject, a.detail, a.client_ip, a.created_at \
                 FROM activity a LEFT JOIN users u ON u.id = a.actor \
                 WHERE a.workspace_id = $1 AND a.created_at < $2 ORDER BY a.created_at DESC, a.id DESC LIMIT {limit}"
            ),
            [
                Value::from(actor.workspace_id.to_string()),
                Value::from(before.unwrap_or(i64::MAX)),
            ],
        ))
        .await?;
    rows.into_iter()
        .map(|r| {
            Ok(ActivityOut {
                id: r.try_get("", "id")?,
                actor: r.try_get("", "actor")?,
                actor_name: r.try_get("", "actor_name")?,
                action: r.try_get("", "action")?,
                subject: r.try_get("", "subject")?,
                detail: r.try_get("", "detail")?,
                client_ip: r.try_get("", "client_ip")?,
                created_at: r.try_get("", "created_at")?,
            })
        })
        .collect()
}
