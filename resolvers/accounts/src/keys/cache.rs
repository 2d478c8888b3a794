//! Authenticated keys are cached by digest so that a request costs no key lookup. Any change
//! that must reach running servers at once (a revocation, a plan change) bumps the single
//! `auth_epoch` row in the same transaction; every server polls that row once a second and
//! drops its cache when it moves. So a revocation made by `signet admin` in another process
//! takes effect everywhere within about a second. Entries also expire after a minute.

use std::collections::HashMap;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::{Arc, RwLock};
use std::time::{Duration, Instant};

use sea_orm::{ConnectionTrait, Value};

use ipnet::IpNet;
use signet_core::actor::{Mode, Scopes};
use signet_core::plans::Plan;
use signet_core::{Ctx, DomainError};

/// The key cache of `ctx` (registered at start-up with `Ctx::with`).
pub fn cache(ctx: &Ctx) -> &KeyCache {
    ctx.services.get()
}

/// What authentication needs of a stored key, as cached.
#[derive(Debug)]
pub struct KeyRow {
    pub(super) key_id: String,
    pub(super) workspace_id: signet_storage::ids::WorkspaceId,
    pub(super) mode: Option<Mode>,
    pub(super) stored_hash: Vec<u8>,
    pub(super) scopes: Scopes,
    pub(super) draft_only: bool,
    pub(super) daily_limit: Option<u64>,
    pub(super) per_minute: Option<u64>,
    pub(super) allow: Vec<IpNet>,
    pub(super) expires_at: Option<i64>,
    pub(super) revoked: bool,
    pub(super) plan: Plan,
    pub(super) workspace_name: String,
    /// The workspace's test mode is on.
    pub(super) workspace_test: bool,
}

const TTL: Duration = Duration::from_secs(60);
const MAX_ENTRIES: usize = 100_000;

#[derive(Default)]
pub struct KeyCache {
    entries: RwLock<HashMap<String, (Arc<KeyRow>, Instant)>>,
    epoch: AtomicI64,
}

impl KeyCache {
    pub(super) fn get(&self, digest: &str) -> Option<Arc<KeyRow>> {
        let map = self.entries.read().unwrap_or_else(|p| p.into_inner());
        map.get(digest)
            .filter(|(_, at)| at.elapsed() < TTL)
            .map(|(row, _)| row.clone())
    }

    pub(super) fn put(&self, digest: String, row: Arc<KeyRow>) {
        let mut map = self.entries.write().unwrap_or_else(|p| p.into_inner());
        if map.len() >= MAX_ENTRIES {
            map.retain(|_, (_, at)| at.elapsed() < TTL);
            if map.len() >= MAX_ENTRIES {
                map.clear();
            }
        }
        map.insert(digest, (row, Instant::now()));
    }

    pub fn clear(&self) {
        self.entries
            .write()
            .unwrap_or_else(|p| p.into_inner())
            .clear();
    }
}

/// Bumps the epoch; call inside the transaction of the change.
pub async fn bump<C: ConnectionTrait>(conn: &C, ctx: &Ctx) -> Result<(), DomainError> {
    conn.execute_raw(
        ctx.db
            .stmt("UPDATE auth_epoch SET value = value + 1 WHERE id = 1", []),
    )
    .await?;
    Ok(())
}

async fn read_epoch(ctx: &Ctx) -> Result<i64, DomainError> {
    let row = ctx
        .db
        .conn
        .query_one_raw(ctx.db.stmt(
            "SELECT value FROM auth_epoch WHERE id = $1",
            [Value::from(1)],
        ))
        .await?
        .ok_or_else(|| DomainError::Internal("auth_epoch row missing".into()))?;
    Ok(row.try_get("", "value")?)
}

/// Runs until the process ends: clears the cache whenever the epoch moves.
pub async fn watch(ctx: Ctx) {
    let mut tick = tokio::time::interval(Duration::from_secs(1));
    loop {
        tick.tick().await;
        match read_epoch(&ctx).await {
            Ok(now) => {
                if cache(&ctx).epoch.swap(now, Ordering::Relaxed) != now {
                    cache(&ctx).clear();
                }
            }
            Err(e) => {
                // Without the epoch we cannot know about revocations: stop trusting the cache.
                tracing::warn!(error = %e, "reading auth_epoch failed; clearing the key cache");
                cache(&ctx).clear();
            }
        }
    }
}
