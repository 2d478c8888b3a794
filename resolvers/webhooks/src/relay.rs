//! The relay: a relay endpoint keeps its deliveries for a day, and `signet listen` long-polls
//! them here. Each item is signed when it is fetched, so a receiver's five-minute timestamp
//! tolerance holds even for a delivery stored hours ago; its `webhook-id` and body are the
//! stored ones. Items come in `seq` order, which follows commit order (see `store`).

use std::time::{Duration, Instant};

use sea_orm::{ConnectionTrait, Value};

use super::send;
use super::store::visible;
use super::types::{HeaderOut, RelayItemOut, RelayOut};
use signet_core::clock::time;
use signet_core::{Actor, Ctx, DomainError, Scope};

pub const MAX_WAIT_SECS: i64 = 25;
pub const DEFAULT_LIMIT: i64 = 20;
pub const MAX_LIMIT: i64 = 100;
const KEPT_MS: i64 = 86_400_000;
/// Another process's deliveries are noticed by looking again this often while waiting.
const POLL: Duration = Duration::from_millis(250);

/// GET /webhooks/{id}/relay.
pub async fn relay(
    ctx: &Ctx,
    actor: &Actor,
    id: &str,
    after: Option<String>,
    wait: Option<i64>,
    limit: Option<i64>,
) -> Result<RelayOut, DomainError> {
    actor.require(Scope::WebhooksRead)?;
    let wait = wait.unwrap_or(0);
    if !(0..=MAX_WAIT_SECS).contains(&wait) {
        return Err(DomainError::invalid(
            "wait",
            format!("must be between 0 and {MAX_WAIT_SECS} seconds, got {wait}"),
        ));
    }
    let limit = limit.unwrap_or(DEFAULT_LIMIT);
    if !(1..=MAX_LIMIT).contains(&limit) {
        return Err(DomainError::invalid(
            "limit",
            format!("must be between 1 and {MAX_LIMIT}, got {limit}"),
        ));
    }
    let endpoint = visible(&ctx.db.conn, ctx, actor, id, false).await?;
    if !endpoint.relay {
        return Err(DomainError::invalid(
            "id",
            format!(
                "endpoint {id} posts to its URL; only a relay endpoint (relay: true) keeps deliveries to fetch"
            ),
        ));
    }
    let after = match after.as_deref().filter(|a| !a.is_empty()) {
        None => None,
        Some(a) if a.starts_with("msg_") && a.len() <= 64 => Some(a.to_string()),
        Some(a) => {
            return Err(DomainError::invalid(
                "after",
                format!("'{a}' is not a delivery id from a previous answer"),
            ));
        }
    };
    let deadline = Instant::now() + Duration::from_secs(wait as u64);
    loop {
        // Register for the wake-up before looking, so a delivery stored in between is not missed.
        let woken = crate::send::hooks(ctx).relay_wake.notified();
        let items = fetch(ctx, id, after.as_deref(), limit).await?;
        let left = deadline.saturating_duration_since(Instant::now());
        if !items.is_empty() || left.is_zero() {
            let secrets = endpoint.signing_secrets(ctx)?;
            let ts = signet_storage::now_ms() / 1000;
            let mut data = Vec::with_capacity(items.len());
            for (msg_id, event_id, topic, payload, created) in items {
                let headers = send::signed_headers(&secrets, &event_id, ts, payload.as_bytes())?
                    .into_iter()
                    .map(|(name, value)| HeaderOut { name, value })
                    .collect();
                data.push(RelayItemOut {
                    id: msg_id,
                    webhook_id: event_id,
                    event_type: topic,
                    created_at: time(created),
                    headers,
                    body: payload,
                });
            }
            let next_after = data.last().map(|d| d.id.clone()).or(after);
            return Ok(RelayOut { data, next_after });
        }
        let _ = tokio::time::timeout(left.min(POLL), woken).await;
    }
}

type Item = (String, String, String, String, i64);

/// Without `after`: the newest `limit`, oldest first. With it: what came after, oldest first.
async fn fetch(
    ctx: &Ctx,
    endpoint: &str,
    after: Option<&str>,
    limit: i64,
) -> Result<Vec<Item>, DomainError> {
    let kept = ctx.now() - KEPT_MS;
    let cols = "id, event_id, topic, payload, created_at";
    let rows = match after {
        None => {
            let mut rows = ctx.db.conn.query_all_raw(ctx.db.stmt(
                &format!("SELECT {cols} FROM webhook_messages WHERE endpoint_id = $1 AND state = 'stored' AND created_at >= $2 ORDER BY seq DESC LIMIT $3"),
                [Value::from(endpoint), Value::from(kept), Value::from(limit)],
            )).await?;
            rows.reverse();
            rows
        }
        // A cursor whose message was purged falls back to the time inside its id.
        Some(a) => ctx.db.conn.query_all_raw(ctx.db.stmt(
            &format!("SELECT {cols} FROM webhook_messages WHERE endpoint_id = $1 AND state = 'stored' AND created_at >= $2 \
                      AND seq > COALESCE((SELECT seq FROM webhook_messages WHERE id = $3 AND endpoint_id = $1), \
                                         (SELECT COALESCE(MAX(seq), 0) FROM webhook_messages WHERE endpoint_id = $1 AND id <= $3)) \
                      ORDER BY seq LIMIT $4"),
            [Value::from(endpoint), Value::from(kept), Value::from(a), Value::from(limit)],
        )).await?,
    };
    rows.iter()
        .map(|r| {
            Ok((
                r.try_get("", "id")?,
                r.try_get("", "event_id")?,
                r.try_get("", "topic")?,
                r.try_get("", "payload")?,
                r.try_get("", "created_at")?,
            ))
        })
        .collect()
}
