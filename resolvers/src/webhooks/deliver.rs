//! Durable delivery. Two steps, both safe to run in several processes at once:
//!
//! - **Fan-out** claims queued `event` rows of the outbox and, in the same transaction, stores
//!   one message per subscribed endpoint of the event's workspace and mode. An event is either
//!   still queued or fully fanned out; never half.
//! - **Delivery** leases due messages (state `sending`, with `next_attempt_at` moved to the end
//!   of the lease, so one index finds both due and abandoned ones), posts them concurrently, and records
//!   every outcome in batches: the attempt row, the message's next try or its end, and the
//!   endpoint's health. A worker killed mid-flight leaves leases that run out, and the messages
//!   are delivered again with the same `webhook-id`: at least once, never lost.
//!
//! Retries follow DESIGN.md (5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, each ±10 %), later when
//! the receiver's Retry-After asks for more (up to a day). A 410, or five days of failure with
//! no success in between, disables the endpoint and cancels what it still had queued.

use signet_storage::Sql;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;
use std::time::Duration;

use ring::rand::{SecureRandom, SystemRandom};
use sea_orm::{ConnectionTrait, TransactionTrait, Value};
use signet_storage::{Backend, now_ms};

use super::send::{self, Outcome};
use super::store::{self, ENDPOINT_COLUMNS, EndpointRow, NewMessage};
use crate::{Ctx, DomainError, ids};

/// Seconds to wait after each failed try; a message gets `RETRIES.len() + 1` tries in all.
pub const RETRIES: [i64; 7] = [5, 300, 1_800, 7_200, 18_000, 36_000, 36_000];
const MAX_RETRY_AFTER_MS: i64 = 86_400_000;
const FAILING_LIMIT_MS: i64 = 5 * 86_400_000;
/// Events fanned out, and messages leased, per statement.
const BATCH: usize = 500;

fn marks(from: usize, n: usize) -> String {
    (from..from + n)
        .map(|i| format!("${i}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Marks `n` fanned-out events done, by id alone. No `AND state = 'queued'`: the lock fan-out
/// holds already keeps fan-outs apart, and with it SQLite's planner (no statistics) takes the
/// `outbox_due` index for a list of more than a few ids and walks every queued job: 9 ms a
/// call with 40,000 emails and renders queued, where the primary key takes 0.1 ms.
pub fn mark_done_sql(n: usize) -> String {
    format!(
        "UPDATE outbox SET state = 'done' WHERE id IN ({})",
        marks(1, n)
    )
}

/// Fans out up to `BATCH` queued events. Returns how many events it took.
pub async fn fan_out(ctx: &Ctx) -> Result<usize, DomainError> {
    // A plain read first: an idle worker never takes the write lock.
    let any = ctx
        .db
        .conn
        .query_one_raw(ctx.db.stmt(
            "SELECT id FROM outbox WHERE state = 'queued' AND kind = 'event' LIMIT 1",
            [],
        ))
        .await?;
    if any.is_none() {
        return Ok(0);
    }
    let c = ctx.clone();
    let (n, relayed, queued) = ctx
        .db
        .transaction(move |txn| async move {
            let ctx = &c;
            store::lock_messages(&*txn, &ctx.db).await?;
            let events = txn
                .rows(ctx.db.stmt(
                    "SELECT id, workspace_id, test, payload FROM outbox WHERE state = 'queued' AND kind = 'event' ORDER BY run_at LIMIT $1",
                    [Value::from(BATCH as i64)],
                ))
                .await?;
            if events.is_empty() {
                return Ok::<_, DomainError>((0, false, false));
            }
            let mut ids_: Vec<Value> = Vec::with_capacity(events.len());
            let mut workspaces = BTreeSet::new();
            let mut parsed = Vec::with_capacity(events.len());
            for r in &events {
                let id: String = r.try_get("", "id")?;
                let ws: String = r.try_get("", "workspace_id")?;
                let test: bool = r.try_get("", "test")?;
                let payload: String = r.try_get("", "payload")?;
                #[derive(serde::Deserialize)]
                struct Head {
                    id: String,
                    #[serde(rename = "type")]
                    topic: String,
                }
                let head: Head = serde_json::from_str(&payload)
                    .map_err(|e| DomainError::Internal(format!("outbox event {id}: {e}")))?;
                ids_.push(Value::from(id));
                workspaces.insert(ws.clone());
                parsed.push((ws, test, head.id, head.topic, payload));
            }
            let n = ids_.len();
            // No `AND state = 'queued'`: the lock above already keeps fan-outs apart, and
            // with it SQLite's planner picks the `outbox_due` index for a list of more than a
            // few ids and walks every queued job (9 ms a call with 40,000 queued emails
            // and renders, where the primary key takes 0.1 ms).
            txn.exec(ctx.db.stmt(
                &format!(
                    "UPDATE outbox SET state = 'done' WHERE id IN ({})",
                    marks(1, n)
                ),
                ids_,
            ))
            .await?;
            let ws: Vec<Value> = workspaces.iter().cloned().map(Value::from).collect();
            let endpoints = txn
                .rows(ctx.db.stmt(
                    &format!("SELECT {ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE state = 'enabled' AND workspace_id IN ({})", marks(1, ws.len())),
                    ws,
                ))
                .await?
                .iter()
                .map(EndpointRow::from_row)
                .collect::<Result<Vec<_>, _>>()?;
            let mut messages = Vec::new();
            let (mut relayed, mut queued) = (false, false);
            for (ws, test, event_id, topic, payload) in parsed {
                for e in endpoints
                    .iter()
                    .filter(|e| e.workspace_id == ws && e.test == test && e.event_types.contains(&topic))
                {
                    relayed |= e.relay;
                    queued |= !e.relay;
                    messages.push(NewMessage {
                        endpoint_id: e.id.clone(),
                        relay: e.relay,
                        event_id: event_id.clone(),
                        topic: topic.clone(),
                        payload: payload.clone(),
                        replay: false,
                    });
                }
            }
            store::insert_messages(&*txn, &ctx.db, messages).await?;
            Ok((n, relayed, queued))
        })
        .await?;
    if relayed {
        ctx.hooks.relay_wake.notify_waiters();
    }
    if queued {
        ctx.hooks.deliver_wake.notify_one();
    }
    Ok(n)
}

/// A leased message.
#[derive(Debug)]
pub struct Claimed {
    pub id: String,
    pub endpoint_id: String,
    pub event_id: String,
    pub topic: String,
    pub payload: String,
    pub attempts: i32,
}

/// Leases up to `n` due messages for `lease_ms`.
pub async fn claim(ctx: &Ctx, n: usize, lease_ms: i64) -> Result<Vec<Claimed>, DomainError> {
    let now = now_ms();
    // A plain read first, as in fan-out: an idle worker never takes the write lock.
    let due = ctx
        .db
        .conn
        .query_one_raw(ctx.db.stmt(
            "SELECT id FROM webhook_messages WHERE state IN ('pending', 'sending') AND next_attempt_at <= $1 LIMIT 1",
            [Value::from(now)],
        ))
        .await?;
    if due.is_none() {
        return Ok(Vec::new());
    }
    let skip = if ctx.db.backend == Backend::Postgres {
        " FOR UPDATE SKIP LOCKED"
    } else {
        ""
    };
    let rows = ctx
        .db
        .conn
        .query_all_raw(ctx.db.stmt(
            &format!(
                "UPDATE webhook_messages SET state = 'sending', next_attempt_at = $1 WHERE id IN (SELECT id FROM webhook_messages \
                 WHERE state IN ('pending', 'sending') AND next_attempt_at <= $2 \
                 ORDER BY next_attempt_at LIMIT $3{skip}) \
                 RETURNING id, endpoint_id, event_id, topic, payload, attempts"
            ),
            [Value::from(now + lease_ms), Value::from(now), Value::from(n as i64)],
        ))
        .await?;
    rows.iter()
        .map(|r| {
            Ok(Claimed {
                id: r.try_get("", "id")?,
                endpoint_id: r.try_get("", "endpoint_id")?,
                event_id: r.try_get("", "event_id")?,
                topic: r.try_get("", "topic")?,
                payload: r.try_get("", "payload")?,
                attempts: r.try_get("", "attempts")?,
            })
        })
        .collect()
}

/// One finished try.
#[derive(Debug)]
pub struct Done {
    pub message: Claimed,
    pub outcome: Outcome,
    pub at: i64,
}

fn jittered(secs: i64) -> i64 {
    let mut b = [0u8; 2];
    let _ = SystemRandom::new().fill(&mut b);
    let unit = u16::from_be_bytes(b) as f64 / u16::MAX as f64; // 0..=1
    ((secs * 1000) as f64 * (0.9 + 0.2 * unit)) as i64
}

/// When a message that failed its `tries`-th try is tried again, or None to give up.
pub fn next_try(tries: i32, o: &Outcome, now: i64) -> Option<i64> {
    if o.gone() {
        return None;
    }
    let wait = *RETRIES.get(tries as usize - 1)?;
    let mut delay = jittered(wait);
    if let Some(ra) = o.retry_after {
        delay = delay.max((ra.as_millis() as i64).min(MAX_RETRY_AFTER_MS));
    }
    Some(now + delay)
}

/// Records a batch of finished tries in one transaction.
pub async fn record(ctx: &Ctx, done: &[Done]) -> Result<(), DomainError> {
    if done.is_empty() {
        return Ok(());
    }
    let now = now_ms();
    let txn = ctx.db.conn.begin().await?;
    let mut attempts = Vec::with_capacity(done.len());
    let mut delivered: Vec<Value> = Vec::new();
    let mut healthy = BTreeSet::new();
    let mut failing = BTreeSet::new();
    let mut gone = BTreeSet::new();
    for d in done {
        let m = &d.message;
        let tries = m.attempts + 1;
        attempts.push(vec![
            Value::from(ids::new_id("att")),
            Value::from(m.endpoint_id.clone()),
            Value::from(m.id.clone()),
            Value::from(m.event_id.clone()),
            Value::from(m.topic.clone()),
            Value::from(tries),
            Value::from(d.outcome.succeeded),
            Value::from(d.outcome.status.map(i32::from)),
            Value::from(d.outcome.result.clone()),
            Value::from(d.outcome.duration_ms),
            Value::from(d.at),
        ]);
        if d.outcome.succeeded {
            delivered.push(Value::from(m.id.clone()));
            healthy.insert(m.endpoint_id.clone());
            continue;
        }
        if d.outcome.gone() {
            gone.insert(m.endpoint_id.clone());
        } else {
            failing.insert(m.endpoint_id.clone());
        }
        match next_try(tries, &d.outcome, now) {
            Some(at) => txn.execute_raw(ctx.db.stmt(
                "UPDATE webhook_messages SET attempts = $2, state = 'pending', next_attempt_at = $3 WHERE id = $1 AND state = 'sending'",
                [Value::from(m.id.clone()), Value::from(tries), Value::from(at)],
            )),
            None => txn.execute_raw(ctx.db.stmt(
                "UPDATE webhook_messages SET attempts = $2, state = 'failed', finished_at = $3 WHERE id = $1 AND state = 'sending'",
                [Value::from(m.id.clone()), Value::from(tries), Value::from(now)],
            )),
        }
        .await?;
    }
    crate::documents::store::insert_rows(
        &txn,
        &ctx.db,
        "webhook_attempts",
        &[
            "id",
            "endpoint_id",
            "message_id",
            "event_id",
            "topic",
            "try_number",
            "succeeded",
            "response_status",
            "result",
            "duration_ms",
            "created_at",
        ],
        attempts,
    )
    .await?;
    if !delivered.is_empty() {
        let n = delivered.len();
        let mut v = vec![Value::from(now)];
        v.extend(delivered);
        txn.execute_raw(ctx.db.stmt(
            &format!("UPDATE webhook_messages SET state = 'delivered', attempts = attempts + 1, finished_at = $1 WHERE id IN ({}) AND state = 'sending'", marks(2, n)),
            v,
        ))
        .await?;
    }
    let list = |set: &BTreeSet<String>| set.iter().cloned().map(Value::from).collect::<Vec<_>>();
    // Failures first: an endpoint that also succeeded in this batch ends the batch healthy.
    if !failing.is_empty() {
        let mut v = vec![Value::from(now)];
        v.extend(list(&failing));
        txn.execute_raw(ctx.db.stmt(
            &format!("UPDATE webhook_endpoints SET failing_since = COALESCE(failing_since, $1) WHERE id IN ({})", marks(2, failing.len())),
            v,
        ))
        .await?;
    }
    if !healthy.is_empty() {
        txn.execute_raw(ctx.db.stmt(
            &format!("UPDATE webhook_endpoints SET failing_since = NULL WHERE failing_since IS NOT NULL AND id IN ({})", marks(1, healthy.len())),
            list(&healthy),
        ))
        .await?;
    }
    let mut disable: BTreeMap<String, String> = BTreeMap::new();
    for id in &gone {
        disable.insert(id.clone(), "the receiver answered 410 Gone".into());
    }
    if !failing.is_empty() {
        let mut v = vec![Value::from(now - FAILING_LIMIT_MS)];
        v.extend(list(&failing));
        let stale = txn
            .query_all_raw(ctx.db.stmt(
                &format!("SELECT id FROM webhook_endpoints WHERE state = 'enabled' AND failing_since <= $1 AND id IN ({})", marks(2, failing.len())),
                v,
            ))
            .await?;
        for r in stale {
            disable
                .entry(r.try_get("", "id")?)
                .or_insert_with(|| "every delivery failed for 5 days".into());
        }
    }
    for (id, reason) in disable {
        disable_endpoint(&txn, ctx, &id, &reason, now).await?;
    }
    txn.commit().await?;
    Ok(())
}

async fn disable_endpoint<C: ConnectionTrait>(
    conn: &C,
    ctx: &Ctx,
    id: &str,
    reason: &str,
    now: i64,
) -> Result<(), DomainError> {
    conn.execute_raw(ctx.db.stmt(
        "UPDATE webhook_endpoints SET state = 'disabled', disabled_reason = $2, updated_at = $3 WHERE id = $1 AND state = 'enabled'",
        [Value::from(id), Value::from(reason), Value::from(now)],
    ))
    .await?;
    conn.execute_raw(ctx.db.stmt(
        "UPDATE webhook_messages SET state = 'cancelled', finished_at = $2 WHERE endpoint_id = $1 AND state IN ('pending', 'sending')",
        [Value::from(id), Value::from(now)],
    ))
    .await?;
    Ok(())
}

/// Loads the endpoints of claimed messages; messages whose endpoint no longer takes deliveries
/// are cancelled and left out.
pub async fn endpoints_of(
    ctx: &Ctx,
    claimed: &mut Vec<Claimed>,
) -> Result<BTreeMap<String, (String, Vec<String>)>, DomainError> {
    let ids: BTreeSet<String> = claimed.iter().map(|c| c.endpoint_id.clone()).collect();
    if ids.is_empty() {
        return Ok(BTreeMap::new());
    }
    let rows = ctx
        .db
        .conn
        .query_all_raw(ctx.db.stmt(
            &format!(
                "SELECT {ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE id IN ({})",
                marks(1, ids.len())
            ),
            ids.iter().cloned().map(Value::from),
        ))
        .await?;
    let mut out = BTreeMap::new();
    for r in &rows {
        let e = EndpointRow::from_row(r)?;
        if e.state == "enabled" && !e.relay {
            out.insert(
                e.id.clone(),
                (e.url.clone().unwrap_or_default(), e.signing_secrets(ctx)?),
            );
        }
    }
    let (keep, drop): (Vec<_>, Vec<_>) = std::mem::take(claimed)
        .into_iter()
        .partition(|c| out.contains_key(&c.endpoint_id));
    *claimed = keep;
    if !drop.is_empty() {
        let now = now_ms();
        let mut v = vec![Value::from(now)];
        v.extend(drop.iter().map(|c| Value::from(c.id.clone())));
        ctx.db
            .conn
            .execute_raw(ctx.db.stmt(
                &format!("UPDATE webhook_messages SET state = 'cancelled', finished_at = $1 WHERE id IN ({})", marks(2, drop.len())),
                v,
            ))
            .await?;
    }
    Ok(out)
}

/// Worker settings.
#[derive(Clone, Copy, Debug)]
pub struct WorkerConfig {
    /// How long a leased message is reserved; past it, another worker may deliver it again.
    /// Must exceed the 15-second receiver timeout.
    pub lease: Duration,
    /// Deliveries in flight at once.
    pub concurrency: usize,
}

impl Default for WorkerConfig {
    fn default() -> Self {
        WorkerConfig {
            lease: Duration::from_secs(60),
            concurrency: 512,
        }
    }
}

/// The delivery worker: runs until the task is dropped.
pub async fn run(ctx: Ctx, cfg: WorkerConfig) {
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<Done>();
    let writer_ctx = ctx.clone();
    let writer = tokio::spawn(async move {
        let mut buf = Vec::with_capacity(1000);
        while rx.recv_many(&mut buf, 1000).await > 0 {
            if let Err(e) = record(&writer_ctx, &buf).await {
                // The leases run out and the messages are tried again: nothing is lost.
                tracing::warn!(error = %e, n = buf.len(), "recording webhook attempts failed");
            }
            buf.clear();
        }
    });
    let _writer = AbortOnDrop(writer);
    let slots = Arc::new(tokio::sync::Semaphore::new(cfg.concurrency));
    // Slots are refilled in batches of this many, so a busy queue is leased in few statements.
    let refill = (cfg.concurrency / 4).clamp(1, BATCH);
    let returned = Arc::new(tokio::sync::Notify::new());
    let lease_ms = cfg.lease.as_millis() as i64;
    loop {
        let fanned = match fan_out(&ctx).await {
            Ok(n) => n,
            Err(e) => {
                tracing::warn!(error = %e, "webhook fan-out failed");
                0
            }
        };
        let free = slots.available_permits().min(BATCH);
        let mut claimed = if free > 0 {
            match claim(&ctx, free, lease_ms).await {
                Ok(c) => c,
                Err(e) => {
                    tracing::warn!(error = %e, "leasing webhook messages failed");
                    Vec::new()
                }
            }
        } else {
            Vec::new()
        };
        let took = claimed.len();
        let endpoints = match endpoints_of(&ctx, &mut claimed).await {
            Ok(e) => e,
            Err(e) => {
                tracing::warn!(error = %e, "reading webhook endpoints failed");
                claimed.clear();
                BTreeMap::new()
            }
        };
        for m in claimed {
            let Ok(permit) = slots.clone().acquire_owned().await else {
                return;
            };
            let Some((url, secrets)) = endpoints.get(&m.endpoint_id).cloned() else {
                continue;
            };
            let hooks = ctx.hooks.clone();
            let tx = tx.clone();
            let returned = returned.clone();
            tokio::spawn(async move {
                let outcome = match send::signed_headers(
                    &secrets,
                    &m.event_id,
                    now_ms() / 1000,
                    m.payload.as_bytes(),
                ) {
                    Ok(h) => send::post(&hooks, &url, &h, m.payload.clone()).await,
                    Err(e) => Outcome {
                        succeeded: false,
                        status: None,
                        result: format!("not sent: {e}"),
                        duration_ms: 0,
                        retry_after: None,
                    },
                };
                let _ = tx.send(Done {
                    message: m,
                    outcome,
                    at: now_ms(),
                });
                drop(permit);
                returned.notify_one();
            });
        }
        if took == free {
            // Busy: wait (briefly) for a batch of slots to come back, then lease again.
            let until = tokio::time::Instant::now() + Duration::from_millis(20);
            while slots.available_permits() < refill {
                if tokio::time::timeout_at(until, returned.notified())
                    .await
                    .is_err()
                {
                    break;
                }
            }
        } else if fanned < BATCH {
            // The queue is drained: wait for new work, or look again shortly (retries come
            // due, other processes fan out).
            let _ = tokio::time::timeout(
                Duration::from_millis(100),
                ctx.hooks.deliver_wake.notified(),
            )
            .await;
        }
    }
}

struct AbortOnDrop(tokio::task::JoinHandle<()>);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// Housekeeping: relay messages older than a day, and attempts and finished messages older
/// than 30 days, are deleted.
pub async fn purge(ctx: &Ctx) -> Result<(), DomainError> {
    let now = now_ms();
    let day = 86_400_000;
    ctx.db.conn.execute_raw(ctx.db.stmt(
        "DELETE FROM webhook_messages WHERE (state = 'stored' AND created_at < $1) OR (finished_at IS NOT NULL AND finished_at < $2 AND state <> 'stored')",
        [Value::from(now - day), Value::from(now - 30 * day)],
    ))
    .await?;
    ctx.db
        .conn
        .execute_raw(ctx.db.stmt(
            "DELETE FROM webhook_attempts WHERE created_at < $1",
            [Value::from(now - 30 * day)],
        ))
        .await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn failed(status: Option<u16>, retry_after: Option<u64>) -> Outcome {
        Outcome {
            succeeded: false,
            status,
            result: String::new(),
            duration_ms: 1,
            retry_after: retry_after.map(Duration::from_secs),
        }
    }

    #[test]
    fn retries_follow_the_schedule_with_jitter_and_retry_after() {
        let now = 1_000_000;
        for (tries, secs) in [(1, 5), (2, 300), (3, 1_800), (7, 36_000)] {
            let at = next_try(tries, &failed(Some(503), None), now).unwrap();
            let delay = at - now;
            assert!(
                delay >= secs * 900 && delay <= secs * 1100,
                "try {tries}: {delay} ms"
            );
        }
        assert_eq!(
            next_try(8, &failed(Some(503), None), now),
            None,
            "8 tries in all"
        );
        assert_eq!(
            next_try(1, &failed(Some(410), None), now),
            None,
            "410 ends it"
        );
        let later = next_try(1, &failed(Some(429), Some(120)), now).unwrap();
        assert_eq!(later - now, 120_000, "Retry-After asks for more than 5 s");
        let capped = next_try(1, &failed(Some(429), Some(10 * 86_400)), now).unwrap();
        assert_eq!(capped - now, MAX_RETRY_AFTER_MS);
    }
}
