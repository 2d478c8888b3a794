//! API keys: `svc_live_` / `svc_test_` followed by 32 random base62 characters. Only a keyed
//! hash (HMAC-SHA256 with the server secret) is stored, so a copy of the database yields no
//! usable key. Every way a key can fail answers the same `Unauthenticated`.

pub(crate) mod cache;

use std::net::IpAddr;
use std::sync::Arc;

use ipnet::IpNet;
use ring::hmac;
use ring::rand::{SecureRandom, SystemRandom};
use sea_orm::{
    ActiveModelTrait, ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, QueryOrder, Set,
    TransactionTrait, Value,
};
use serde::Serialize;
use signet_storage::entities::api_key;

pub use cache::{KeyCache, KeyRow, cache, watch};

use signet_core::actor::{Actor, Mode, Scopes};
use signet_core::plans::Plan;
use signet_core::{Ctx, DomainError, ids};

const BASE62: &[u8; 62] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const SECRET_LEN: usize = 32;

#[derive(Clone, Debug)]
pub struct KeyCreateIn {
    pub workspace_id: String,
    pub mode: Mode,
    pub scopes: Scopes,
    pub draft_only: bool,
    pub daily_limit: Option<u64>,
    pub per_minute: Option<u64>,
    pub allow: Vec<IpNet>,
    pub expires_at: Option<i64>,
    pub name: Option<String>,
    /// A frame's own key (`builder`, `scribe`): not listed with the workspace's keys.
    pub frame: Option<String>,
}

impl KeyCreateIn {
    /// A key with these scopes and no other limit; set the other fields with `..`.
    pub fn new(workspace_id: &str, mode: Mode, scopes: Scopes) -> KeyCreateIn {
        KeyCreateIn {
            workspace_id: workspace_id.to_string(),
            mode,
            scopes,
            draft_only: false,
            daily_limit: None,
            per_minute: None,
            allow: vec![],
            expires_at: None,
            name: None,
            frame: None,
        }
    }
}

/// A key as listed: never its secret.
#[derive(Clone, Debug, Serialize, async_graphql::SimpleObject)]
#[serde(rename_all = "camelCase")]
#[graphql(name = "ApiKeyOut")]
pub struct KeyOut {
    pub id: String,
    pub workspace_id: String,
    pub name: Option<String>,
    pub mode: Mode,
    /// The last four characters, to tell keys apart.
    pub hint: String,
    pub scopes: Vec<String>,
    pub draft_only: bool,
    pub daily_limit: Option<i64>,
    pub per_minute: Option<i64>,
    pub allow: Vec<String>,
    pub expires_at: Option<i64>,
    pub revoked_at: Option<i64>,
    pub created_at: i64,
}

fn hash(ctx: &Ctx, token: &str) -> String {
    let tag = hmac::sign(&ctx.key_hasher, token.as_bytes());
    signet_core::ids::hex(tag.as_ref())
}

fn random_secret() -> Result<String, DomainError> {
    // Rejection sampling keeps every base62 character equally likely.
    let rng = SystemRandom::new();
    let mut out = String::with_capacity(SECRET_LEN);
    let mut buf = [0u8; 64];
    while out.len() < SECRET_LEN {
        rng.fill(&mut buf)
            .map_err(|_| DomainError::Internal("random generator failed".into()))?;
        for b in buf {
            if b < 248 && out.len() < SECRET_LEN {
                out.push(BASE62[(b % 62) as usize] as char);
            }
        }
    }
    Ok(out)
}

/// Makes a key. The returned string is the only time the key exists in the clear.
pub async fn create(ctx: &Ctx, input: KeyCreateIn) -> Result<(KeyOut, String), DomainError> {
    crate::workspaces::get(ctx, &input.workspace_id).await?;
    let token = format!("{}{}", input.mode.key_prefix(), random_secret()?);
    let allow: Vec<String> = input.allow.iter().map(|n| n.to_string()).collect();
    let model = api_key::ActiveModel {
        id: Set(ids::new_id("key")),
        workspace_id: Set(input.workspace_id),
        name: Set(input.name),
        mode: Set(input.mode.as_str().into()),
        key_hash: Set(hash(ctx, &token)),
        hint: Set(token[token.len() - 4..].to_string()),
        scopes: Set(json_list(
            input.scopes.iter().map(|s| s.as_str().to_string()),
        )),
        draft_only: Set(input.draft_only),
        daily_limit: Set(input.daily_limit.map(|v| v as i64)),
        per_minute: Set(input.per_minute.map(|v| v as i64)),
        allowed_cidrs: Set(json_list(allow)),
        expires_at: Set(input.expires_at),
        revoked_at: Set(None),
        created_at: Set(ctx.now()),
        frame: Set(input.frame),
    }
    .insert(&ctx.db.conn)
    .await?;
    Ok((to_out(model)?, token))
}

pub async fn list(ctx: &Ctx, workspace_id: &str) -> Result<Vec<KeyOut>, DomainError> {
    crate::workspaces::get(ctx, workspace_id).await?;
    api_key::Entity::find()
        .filter(api_key::Column::WorkspaceId.eq(workspace_id))
        // A frame's key lives an hour with its link; the workspace's keys are the others.
        .filter(api_key::Column::Frame.is_null())
        .order_by_desc(api_key::Column::Id)
        .all(&ctx.db.conn)
        .await?
        .into_iter()
        .map(to_out)
        .collect()
}

pub async fn revoke(ctx: &Ctx, id: &str) -> Result<KeyOut, DomainError> {
    let model = api_key::Entity::find_by_id(id)
        .one(&ctx.db.conn)
        .await?
        .ok_or_else(|| DomainError::NotFound(format!("no key with id {id}")))?;
    if model.revoked_at.is_some() {
        return to_out(model);
    }
    let txn = ctx.db.conn.begin().await?;
    let mut active: api_key::ActiveModel = model.into();
    active.revoked_at = Set(Some(ctx.now()));
    let updated = active.update(&txn).await?;
    cache::bump(&txn, ctx).await?;
    txn.commit().await?;
    cache(ctx).clear();
    to_out(updated)
}

/// Whether `actor` speaks with a frame's key (the builder's or Scribe's, on another website).
pub async fn is_frame(ctx: &Ctx, actor: &signet_core::Actor) -> Result<bool, DomainError> {
    let Some(key) = actor.principal.key_id() else {
        return Ok(false);
    };
    let row = ctx
        .db
        .conn
        .query_one_raw(ctx.db.stmt(
            "SELECT frame FROM api_keys WHERE id = $1",
            [Value::from(key.to_string())],
        ))
        .await?;
    Ok(match row {
        Some(r) => r.try_get::<Option<String>>("", "frame")?.is_some(),
        None => false,
    })
}

async fn load(ctx: &Ctx, digest: &str) -> Result<Option<KeyRow>, DomainError> {
    let Some(row) = ctx
        .db
        .conn
        .query_one_raw(ctx.db.stmt(
            "SELECT k.id, k.workspace_id, k.mode, k.key_hash, k.scopes, k.draft_only, k.daily_limit, \
             k.per_minute, k.allowed_cidrs, k.expires_at, k.revoked_at, w.plan, w.name AS workspace_name, \
             w.test_mode FROM api_keys k JOIN workspaces w ON w.id = k.workspace_id WHERE k.key_hash = $1",
            [Value::from(digest)],
        ))
        .await?
    else {
        return Ok(None);
    };
    let stored: String = row.try_get("", "key_hash")?;
    let plan: String = row.try_get("", "plan")?;
    let scopes: String = row.try_get("", "scopes")?;
    let cidrs: String = row.try_get("", "allowed_cidrs")?;
    let mode: String = row.try_get("", "mode")?;
    let per_minute: Option<i64> = row.try_get("", "per_minute")?;
    let daily: Option<i64> = row.try_get("", "daily_limit")?;
    let revoked: Option<i64> = row.try_get("", "revoked_at")?;
    Ok(Some(KeyRow {
        key_id: row.try_get("", "id")?,
        workspace_id: row.try_get::<String>("", "workspace_id")?.into(),
        workspace_name: row.try_get("", "workspace_name")?,
        workspace_test: row.try_get("", "test_mode")?,
        mode: Mode::parse(&mode),
        stored_hash: decode_hex(&stored).unwrap_or_default(),
        scopes: Scopes::parse(parse_list(&scopes)?.iter().map(String::as_str)).unwrap_or_default(),
        draft_only: row.try_get("", "draft_only")?,
        daily_limit: daily.map(|d| d as u64),
        per_minute: per_minute.map(|p| p as u64),
        allow: parse_list(&cidrs)?
            .iter()
            .filter_map(|c| c.parse().ok())
            .collect(),
        expires_at: row.try_get("", "expires_at")?,
        revoked: revoked.is_some(),
        plan: Plan::parse(&plan).ok_or_else(|| DomainError::Internal(format!("plan {plan}")))?,
    }))
}

/// Resolves a bearer token used from `client_ip` into the actor it speaks for.
pub async fn authenticate(ctx: &Ctx, token: &str, client_ip: IpAddr) -> Result<Actor, DomainError> {
    let mode = if token.starts_with(Mode::Test.key_prefix()) {
        Mode::Test
    } else if token.starts_with(Mode::Live.key_prefix()) {
        Mode::Live
    } else {
        return Err(DomainError::Unauthenticated);
    };
    let secret = &token[mode.key_prefix().len()..];
    if secret.len() != SECRET_LEN || !secret.bytes().all(|b| b.is_ascii_alphanumeric()) {
        return Err(DomainError::Unauthenticated);
    }
    let digest = hash(ctx, token);
    let row = match cache(ctx).get(&digest) {
        Some(row) => row,
        None => {
            let row = Arc::new(
                load(ctx, &digest)
                    .await?
                    .ok_or(DomainError::Unauthenticated)?,
            );
            cache(ctx).put(digest, row.clone());
            row
        }
    };
    hmac::verify(&ctx.key_hasher, token.as_bytes(), &row.stored_hash)
        .map_err(|_| DomainError::Unauthenticated)?;
    let ip = canonical(client_ip);
    if row.revoked
        || row.expires_at.is_some_and(|e| e <= ctx.now())
        || row.mode != Some(mode)
        || (!row.allow.is_empty() && !row.allow.iter().any(|net| net.contains(&ip)))
    {
        return Err(DomainError::Unauthenticated);
    }
    Ok(Actor {
        workspace_id: row.workspace_id.clone(),
        workspace_name: row.workspace_name.clone(),
        principal: signet_core::Principal::Key {
            id: row.key_id.clone(),
        },
        // A workspace in test mode: every key works on test documents.
        mode: if row.workspace_test { Mode::Test } else { mode },
        scopes: row.scopes,
        plan: row.plan,
        draft_only: row.draft_only,
        daily_limit: row.daily_limit,
        per_minute: row
            .per_minute
            .unwrap_or(ctx.plans.limits(row.plan).requests_per_minute),
        client: Some(ip),
        workspace_test: row.workspace_test,
        own_mode: mode,
    })
}

/// An IPv4 address reached over an IPv6 socket (`::ffff:a.b.c.d`) is matched as IPv4.
pub fn canonical(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map(IpAddr::V4).unwrap_or(ip),
        v4 => v4,
    }
}

fn decode_hex(s: &str) -> Option<Vec<u8>> {
    (0..s.len())
        .step_by(2)
        .map(|i| s.get(i..i + 2).and_then(|h| u8::from_str_radix(h, 16).ok()))
        .collect()
}

fn json_list(items: impl IntoIterator<Item = String>) -> String {
    serde_json::to_string(&items.into_iter().collect::<Vec<_>>()).unwrap_or_else(|_| "[]".into())
}

fn parse_list(s: &str) -> Result<Vec<String>, DomainError> {
    serde_json::from_str(s).map_err(|e| DomainError::Internal(format!("stored list: {e}")))
}

fn to_out(m: api_key::Model) -> Result<KeyOut, DomainError> {
    Ok(KeyOut {
        mode: Mode::parse(&m.mode).ok_or_else(|| DomainError::Internal("key mode".into()))?,
        scopes: parse_list(&m.scopes)?,
        allow: parse_list(&m.allowed_cidrs)?,
        id: m.id,
        workspace_id: m.workspace_id,
        name: m.name,
        hint: m.hint,
        draft_only: m.draft_only,
        daily_limit: m.daily_limit,
        per_minute: m.per_minute,
        expires_at: m.expires_at,
        revoked_at: m.revoked_at,
        created_at: m.created_at,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_are_base62_of_the_right_length_and_differ() {
        let a = random_secret().unwrap();
        let b = random_secret().unwrap();
        assert_eq!(a.len(), SECRET_LEN);
        assert!(a.bytes().all(|c| c.is_ascii_alphanumeric()));
        assert_ne!(a, b);
    }

    #[test]
    fn mapped_ipv4_is_matched_as_ipv4() {
        let mapped: IpAddr = "::ffff:10.1.2.3".parse().unwrap();
        let net: IpNet = "10.1.0.0/16".parse().unwrap();
        assert!(net.contains(&canonical(mapped)));
    }
}
