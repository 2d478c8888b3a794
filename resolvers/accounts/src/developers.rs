//! Developers settings for the application (docs/decisions/the-application.md): API keys made
//! with every option the service has (the secret shown once), listed without it, revoked; and
//! the API log searched by request id, key, route, status and time. Keys are made and revoked
//! only by an owner or admin signed in (a key never makes a key: a narrow key could otherwise
//! mint a wide one); the API log is read with `settings:read` (owners and admins, or a key
//! given it). Every change is in the activity record.

use std::net::IpAddr;

use ipnet::IpNet;
use signet_core::actor::{Mode, Principal, Role, Scope, Scopes};
use signet_core::api_log::{self, ApiLogEntry};
use signet_core::{Actor, Ctx, DomainError};

use sea_orm::EntityTrait;
use signet_storage::entities::api_key;

use crate::activity;
use crate::keys::{self, KeyCreateIn, KeyOut};

/// Addresses or ranges one key may be limited to.
const MAX_ALLOW: usize = 20;

fn require_admin(actor: &Actor) -> Result<(), DomainError> {
    match &actor.principal {
        Principal::Session {
            role: Role::Owner | Role::Admin,
            ..
        } => Ok(()),
        Principal::Session { role, .. } => Err(DomainError::Forbidden(format!(
            "a {} of this workspace cannot manage API keys; ask an owner or an admin",
            role.as_str()
        ))),
        _ => Err(DomainError::Forbidden(
            "API keys are made and revoked by an owner or admin signed in to the application; a key cannot".into(),
        )),
    }
}

/// A key to make, with every option the service has.
#[derive(Clone, Debug, serde::Deserialize, async_graphql::InputObject)]
#[serde(rename_all = "camelCase")]
pub struct ApiKeyIn {
    /// What it is for, 1 to 100 characters.
    pub name: String,
    /// `test` or `live`.
    pub mode: String,
    /// The scopes it holds (at least one).
    pub scopes: Vec<String>,
    /// Its sends wait for a person's approval.
    pub draft_only: Option<bool>,
    /// Drafts and sends a day (1 to 10,000,000).
    pub daily_limit: Option<i64>,
    /// Requests a minute (1 to 100,000); the plan's budget when not given.
    pub per_minute: Option<i64>,
    /// Addresses or CIDR ranges it may be used from (at most 20); anywhere when empty.
    pub allow: Option<Vec<String>>,
    /// Days until it stops working (1 to 3,650); never when not given.
    pub expires_in_days: Option<i64>,
}

/// A key just made: the only time its secret is shown.
#[derive(Clone, Debug, serde::Serialize, async_graphql::SimpleObject)]
pub struct ApiKeyMade {
    pub key: KeyOut,
    /// `svc_live_…` or `svc_test_…`: copy it now; only its keyed hash is kept.
    pub secret: String,
}

fn within(field: &str, v: Option<i64>, max: i64) -> Result<Option<u64>, DomainError> {
    match v {
        Some(n) if !(1..=max).contains(&n) => {
            Err(DomainError::invalid(field, format!("must be 1 to {max}")))
        }
        other => Ok(other.map(|n| n as u64)),
    }
}

pub async fn create_key(
    ctx: &Ctx,
    actor: &Actor,
    from: Option<IpAddr>,
    input: ApiKeyIn,
) -> Result<ApiKeyMade, DomainError> {
    require_admin(actor)?;
    let name = input.name.trim();
    if name.is_empty() || name.chars().count() > 100 {
        return Err(DomainError::invalid("name", "must be 1 to 100 characters"));
    }
    let mode = Mode::parse(&input.mode)
        .ok_or_else(|| DomainError::invalid("mode", "must be test or live"))?;
    if input.scopes.is_empty() || input.scopes.len() > Scope::ALL.len() {
        return Err(DomainError::invalid("scopes", "give at least one scope"));
    }
    let scopes = Scopes::parse(input.scopes.iter().map(String::as_str))
        .map_err(|e| DomainError::invalid("scopes", e))?;
    let allow = input.allow.unwrap_or_default();
    if allow.len() > MAX_ALLOW {
        return Err(DomainError::invalid(
            "allow",
            format!("at most {MAX_ALLOW} addresses or ranges"),
        ));
    }
    let allow = allow
        .iter()
        .map(|c| {
            let c = c.trim();
            c.parse::<IpNet>()
                .or_else(|_| c.parse::<IpAddr>().map(IpNet::from))
                .map_err(|_| {
                    DomainError::invalid("allow", format!("'{c}' is not an address or CIDR range"))
                })
        })
        .collect::<Result<Vec<_>, _>>()?;
    let expires_at = within("expiresInDays", input.expires_in_days, 3650)?
        .map(|d| ctx.now() + d as i64 * 86_400_000);
    let (key, secret) = keys::create(
        ctx,
        KeyCreateIn {
            draft_only: input.draft_only.unwrap_or(false),
            daily_limit: within("dailyLimit", input.daily_limit, 10_000_000)?,
            per_minute: within("perMinute", input.per_minute, 100_000)?,
            allow,
            expires_at,
            name: Some(name.to_string()),
            ..KeyCreateIn::new(&actor.workspace_id, mode, scopes)
        },
    )
    .await?;
    activity::record(
        &ctx.db.conn,
        ctx,
        actor,
        from,
        "key.created",
        &key.id,
        &format!("{name} ({})", mode.as_str()),
    )
    .await?;
    Ok(ApiKeyMade { key, secret })
}

/// The workspace's keys, newest first, revoked ones included (at most 1,000).
pub async fn list_keys(ctx: &Ctx, actor: &Actor) -> Result<Vec<KeyOut>, DomainError> {
    require_admin(actor)?;
    let mut all = keys::list(ctx, &actor.workspace_id).await?;
    all.truncate(1000);
    Ok(all)
}

/// Revokes one of the workspace's keys at once (another workspace's is not found).
pub async fn revoke_key(
    ctx: &Ctx,
    actor: &Actor,
    from: Option<IpAddr>,
    id: &str,
) -> Result<KeyOut, DomainError> {
    require_admin(actor)?;
    // One read of the key by its id, rather than the workspace's whole list.
    let ours = api_key::Entity::find_by_id(id)
        .one(&ctx.db.conn)
        .await?
        .is_some_and(|k| k.workspace_id == actor.workspace_id);
    if !ours {
        return Err(DomainError::NotFound(format!("no key with id {id}")));
    }
    let key = keys::revoke(ctx, id).await?;
    activity::record(
        &ctx.db.conn,
        ctx,
        actor,
        from,
        "key.revoked",
        id,
        key.name.as_deref().unwrap_or(""),
    )
    .await?;
    Ok(key)
}

/// The workspace's API log, newest first (`settings:read`).
pub async fn api_log(
    ctx: &Ctx,
    actor: &Actor,
    q: api_log::Search,
) -> Result<Vec<ApiLogEntry>, DomainError> {
    actor.require(Scope::SettingsRead)?;
    let short = |field: &str, s: Option<String>| -> Result<Option<String>, DomainError> {
        match s.map(|s| s.trim().to_string()) {
            Some(s) if s.len() > 100 => {
                Err(DomainError::invalid(field, "is at most 100 characters"))
            }
            other => Ok(other.filter(|s| !s.is_empty())),
        }
    };
    let search = api_log::Search {
        request_id: short("requestId", q.request_id)?,
        key_id: short("keyId", q.key_id)?,
        route: short("route", q.route)?,
        ..q
    };
    api_log::search(&ctx.db, &actor.workspace_id, search).await
}
