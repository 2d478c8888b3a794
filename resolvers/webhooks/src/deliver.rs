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
//! Retries follow `docs/architecture.md` (5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, each ±10 %), later when
//! the receiver's Retry-After asks for more (up to a day). A 410, or five days of failure with
//! no success in between, disables the endpoint and cancels what it still had queued.

use signet_storage::Sql;
use std::collections::{BTreeMap, BTreeSet};

use ring::rand::{SecureRandom, SystemRandom};
use sea_orm::{ConnectionTrait, TransactionTrait, Value};
use signet_storage::{Backend, now_ms};

use super::send::{self, Outcome};
use super::store::{self, ENDPOINT_COLUMNS, EndpointRow, NewMessage};
use signet_core::events::Event;
use signet_core::{Ctx, DomainError, ids};
use signet_queue::Job as _;

/// Seconds to wait after each failed try; a message gets `RETRIES.len() + 1` tries in all.
pub const RETRIES: [i64; 7] = [5, 300, 1_800, 7_200, 18_000, 36_000, 36_000];
const MAX_RETRY_AFTER_MS: i64 = 86_400_000;
const FAILING_LIMIT_MS: i64 = 5 * 86_400_000;
/// Events fanned out, and messages leased, per statement.
pub const BATCH: usize = 500;
/// Messages one fan-out transaction writes at most (an event's whole fan-out is never split:
/// at most `endpoints::MAX_ENDPOINTS` messages).
pub const MAX_FANOUT_MESSAGES: usize = 2_000;

fn marks(from: usize, n: usize) -> String {
    (from..from + n)
        .map(|i| format!("${i}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Marks `n` fanned-out events done, by id alone (see `signet_queue::mark_done_sql`).
pub use signet_queue::mark_done_sql;

/// Whether any delivery is due (`$1`: now): through the index of live deliveries (m0015) in
/// its order, which stays the cheap plan whatever an analyze sampled (the unordered question
/// became a sequential scan of 30 days of delivered messages after an analyze of a backlog).
pub const DUE_PROBE: &str = "SELECT id FROM webhook_messages WHERE state IN ('pending', 'sending') AND next_attempt_at <= $1 ORDER BY next_attempt_at LIMIT 1";

/// With Redis, the set in which messages waiting for delivery are filed at their
/// `next_attempt_at` (the queue's dispatch for a table of our own): the workers ask it, not
/// PostgreSQL, whether a delivery is due.
pub const DELIVERIES: &str = "webhook-deliveries";

/// Whether any of `set` is due: Redis's answer with Redis, else the database's `probe`.
async fn any_due(
    ctx: &Ctx,
    set: &str,
    now: i64,
    probe: sea_orm::Statement,
) -> Result<bool, DomainError> {
    match ctx.queue.due(set, now, 1).await {
        Some(Ok(ids)) => return Ok(!ids.is_empty()),
        Some(Err(e)) => {
            tracing::warn!(set, error = %e, "asking Redis what is due failed; asking the database")
        }
        None => {}
    }
    Ok(ctx.db.conn.query_one_raw(probe).await?.is_some())
}

/// Fans out up to `BATCH` queued events. Returns how many events it took.
pub async fn fan_out(ctx: &Ctx) -> Result<usize, DomainError> {
    // A plain read first: an idle worker never takes the write lock.
    // Whether any event waits for fan-out (the probe keeps to the queue's index).
    let probe = ctx.db.stmt(&signet_queue::queued_probe(Event::KIND), []);
    if !any_due(ctx, Event::KIND, now_ms(), probe).await? {
        return Ok(0);
    }
    let c = ctx.clone();
    let (n, relayed, taken, queued) = ctx
        .db
        .transaction(move |txn| async move {
            let ctx = &c;
            store::lock_messages(&*txn, &ctx.db).await?;
            let events = txn
                .rows(ctx.db.stmt(
                    &signet_queue::queued_sql(Event::KIND),
                    [Value::from(BATCH as i64)],
                ))
                .await?;
            if events.is_empty() {
                return Ok::<_, DomainError>((0, false, Vec::new(), Vec::new()));
            }
            let mut ids_: Vec<String> = Vec::with_capacity(events.len());
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
                ids_.push(id);
                workspaces.insert(ws.clone());
                parsed.push((ws, test, head.id, head.topic, payload));
            }
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
            let mut relayed = false;
            let mut taken: Vec<String> = Vec::with_capacity(parsed.len());
            for ((ws, test, event_id, topic, payload), id) in parsed.into_iter().zip(ids_) {
                let mine: Vec<&EndpointRow> = endpoints
                    .iter()
                    .filter(|e| e.workspace_id == ws && e.test == test && e.event_types.contains(&topic))
                    .collect();
                // One transaction writes a bounded number of rows; the rest wait for the next.
                if !taken.is_empty() && messages.len() + mine.len() > MAX_FANOUT_MESSAGES {
                    break;
                }
                taken.push(id);
                for e in mine {
                    relayed |= e.relay;
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
            let n = taken.len();
            // By id alone: the lock above already keeps fan-outs apart.
            signet_queue::finish_all(&ctx.db, &*txn, &taken).await?;
            let queued: Vec<String> = store::insert_messages(&*txn, &ctx.db, messages)
                .await?
                .into_iter()
                .filter(|m| m.state == "pending")
                .map(|m| m.id)
                .collect();
            Ok((n, relayed, taken, queued))
        })
        .await?;
    if relayed {
        crate::send::hooks(ctx).relay_wake.notify_waiters();
    }
    ctx.queue.forget(Event::KIND, taken).await;
    if !queued.is_empty() {
        let now = now_ms();
        ctx.queue
            .file(DELIVERIES, queued.into_iter().map(|id| (id, now)))
            .await;
        ctx.queue.wake(Event::KIND);
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
    /// When this lease runs out (`next_attempt_at` as leased): while it is unchanged, the
    /// message is still this worker's.
    pub lease_until: i64,
}

/// Leases up to `n` due messages for `lease_ms`, none of the endpoints in `full` (those whose
/// share of the slots is taken). With Redis, each is filed at its lease's end (its worker may
/// die); when Redis said something was due and nothing was, Redis's due entries are put right
/// from their rows.
pub async fn claim(
    ctx: &Ctx,
    n: usize,
    lease_ms: i64,
    full: &[String],
) -> Result<Vec<Claimed>, DomainError> {
    let claimed = claim_rows(ctx, n, lease_ms, full).await?;
    if ctx.queue.on_redis() {
        if claimed.is_empty() && full.is_empty() {
            refile(ctx).await?;
        } else {
            ctx.queue
                .file(
                    DELIVERIES,
                    claimed.iter().map(|c| (c.id.clone(), c.lease_until)),
                )
                .await;
        }
    }
    Ok(claimed)
}

/// Puts Redis's due deliveries right from their rows: each live one filed at its
/// `next_attempt_at`, the others (delivered, failed, cancelled, gone) removed.
async fn refile(ctx: &Ctx) -> Result<(), DomainError> {
    let Some(due) = ctx.queue.due(DELIVERIES, now_ms(), BATCH).await else {
        return Ok(());
    };
    let due = due?;
    if due.is_empty() {
        return Ok(());
    }
    let rows = ctx
        .db
        .conn
        .query_all_raw(ctx.db.stmt(
            &format!(
                "SELECT id, state, next_attempt_at FROM webhook_messages WHERE id IN ({})",
                marks(1, due.len())
            ),
            due.iter().cloned().map(Value::from),
        ))
        .await?;
    let mut live = BTreeMap::new();
    for r in &rows {
        let state: String = r.try_get("", "state")?;
        if state == "pending" || state == "sending" {
            live.insert(
                r.try_get::<String>("", "id")?,
                r.try_get::<i64>("", "next_attempt_at")?,
            );
        }
    }
    let ended: Vec<String> = due
        .into_iter()
        .filter(|id| !live.contains_key(id))
        .collect();
    ctx.queue.forget(DELIVERIES, ended).await;
    ctx.queue.file(DELIVERIES, live).await;
    Ok(())
}

/// Files every live message in Redis again (at most 2,000, soonest first), so an entry Redis
/// lost is found; and the queued events, which are the queue's. Nothing without Redis.
pub async fn sweep(ctx: &Ctx) -> Result<(), DomainError> {
    if !ctx.queue.on_redis() {
        return Ok(());
    }
    ctx.queue.sweep(Event::KIND).await?;
    let rows = ctx
        .db
        .conn
        .query_all_raw(ctx.db.stmt(
            "SELECT id, next_attempt_at FROM webhook_messages WHERE state IN ('pending', 'sending') \
             ORDER BY next_attempt_at LIMIT 2000",
            [],
        ))
        .await?;
    let live = rows
        .iter()
        .map(|r| Ok((r.try_get("", "id")?, r.try_get("", "next_attempt_at")?)))
        .collect::<Result<Vec<(String, i64)>, sea_orm::DbErr>>()?;
    ctx.queue.file(DELIVERIES, live).await;
    Ok(())
}

async fn claim_rows(
    ctx: &Ctx,
    n: usize,
    lease_ms: i64,
    full: &[String],
) -> Result<Vec<Claimed>, DomainError> {
    let now = now_ms();
    // A plain read first, as in fan-out: an idle worker never takes the write lock.
    let probe = ctx.db.stmt(DUE_PROBE, [Value::from(now)]);
    if !any_due(ctx, DELIVERIES, now, probe).await? {
        return Ok(Vec::new());
    }
    // Endpoints at their share, as parameters numbered from `from`.
    let not_in = |from: usize| {
        if full.is_empty() {
            String::new()
        } else {
            format!(" AND endpoint_id NOT IN ({})", marks(from, full.len()))
        }
    };
    let rows = if ctx.db.backend == Backend::Postgres {
        let mut values = vec![
            Value::from(now + lease_ms),
            Value::from(now),
            Value::from(n as i64),
        ];
        values.extend(full.iter().cloned().map(Value::from));
        ctx.db
            .conn
            .query_all_raw(ctx.db.stmt(
                &format!(
                    "UPDATE webhook_messages SET state = 'sending', next_attempt_at = $1 WHERE id IN (SELECT id FROM webhook_messages \
                      WHERE state IN ('pending', 'sending') AND next_attempt_at <= $2{} \
                     ORDER BY next_attempt_at LIMIT $3 FOR UPDATE SKIP LOCKED) \
                     RETURNING id, endpoint_id, event_id, topic, payload, attempts",
                    not_in(4)
                ),
                values,
            ))
            .await?
    } else {
        // SQLite has one writer: the search (past every message of endpoints at their share)
        // is a plain read, and the write takes only the rows found, so a long queue of one
        // workspace's messages never holds the writer that others' sends wait for. One
        // delivery worker runs per SQLite database, so nothing takes the rows in between; the
        // UPDATE still checks that each is due.
        let mut values = vec![Value::from(now), Value::from(n as i64)];
        values.extend(full.iter().cloned().map(Value::from));
        let found: Vec<Value> = ctx
            .db
            .conn
            .query_all_raw(ctx.db.stmt(
                &format!(
                    "SELECT id FROM webhook_messages WHERE state IN ('pending', 'sending') AND next_attempt_at <= $1{} \
                     ORDER BY next_attempt_at LIMIT $2",
                    not_in(3)
                ),
                values,
            ))
            .await?
            .iter()
            .map(|r| r.try_get::<String>("", "id").map(Value::from))
            .collect::<Result<_, _>>()?;
        if found.is_empty() {
            return Ok(Vec::new());
        }
        let mut values = vec![Value::from(now + lease_ms), Value::from(now)];
        let count = found.len();
        values.extend(found);
        ctx.db
            .conn
            .query_all_raw(ctx.db.stmt(
                &format!(
                    "UPDATE webhook_messages SET state = 'sending', next_attempt_at = $1 \
                     WHERE id IN ({}) AND state IN ('pending', 'sending') AND next_attempt_at <= $2 \
                     RETURNING id, endpoint_id, event_id, topic, payload, attempts",
                    marks(3, count)
                ),
                values,
            ))
            .await?
    };
    rows.iter()
        .map(|r| {
            Ok(Claimed {
                id: r.try_get("", "id")?,
                endpoint_id: r.try_get("", "endpoint_id")?,
                event_id: r.try_get("", "event_id")?,
                topic: r.try_get("", "topic")?,
                payload: r.try_get("", "payload")?,
                attempts: r.try_get("", "attempts")?,
                lease_until: now + lease_ms,
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
    // For Redis, after the commit: messages due again, and those that ended.
    let (mut again, mut ended) = (Vec::new(), Vec::new());
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
            signet_core::metrics::outcome(signet_core::metrics::Outcome::WebhookDelivered, 1);
            delivered.push(Value::from(m.id.clone()));
            ended.push(m.id.clone());
            healthy.insert(m.endpoint_id.clone());
            continue;
        }
        if d.outcome.gone() {
            gone.insert(m.endpoint_id.clone());
        } else {
            failing.insert(m.endpoint_id.clone());
        }
        // Counted from the end of this try, not of the batch it was recorded with (a slow
        // receiver in the same batch must not push everyone's retries later).
        let next = next_try(tries, &d.outcome, d.at);
        signet_core::metrics::outcome(
            if next.is_some() {
                signet_core::metrics::Outcome::WebhookRetried
            } else {
                signet_core::metrics::Outcome::WebhookFailed
            },
            1,
        );
        match next {
            Some(at) => again.push((m.id.clone(), at)),
            None => ended.push(m.id.clone()),
        }
        match next {
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
    signet_storage::insert_rows(
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
    ctx.queue.forget(DELIVERIES, ended).await;
    ctx.queue.file(DELIVERIES, again).await;
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
) -> Result<BTreeMap<String, Target>, DomainError> {
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
                Target {
                    url: e.url.clone().unwrap_or_default(),
                    secrets: e.signing_secrets(ctx)?,
                    workspace: e.workspace_id.clone(),
                },
            );
        }
    }
    let (keep, drop): (Vec<_>, Vec<_>) = std::mem::take(claimed)
        .into_iter()
        .partition(|c| out.contains_key(&c.endpoint_id));
    *claimed = keep;
    ctx.queue
        .forget(DELIVERIES, drop.iter().map(|c| c.id.clone()))
        .await;
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

/// Where a claimed message goes.
#[derive(Clone, Debug)]
pub struct Target {
    pub url: String,
    pub secrets: Vec<String>,
    pub workspace: String,
}

/// Deliveries one endpoint may have in flight in a worker.
pub const PER_ENDPOINT: usize = 16;

/// Puts leased messages back, due again shortly, for when their endpoint has a free slot.
pub async fn put_back(ctx: &Ctx, ids: &[String]) -> Result<(), DomainError> {
    if ids.is_empty() {
        return Ok(());
    }
    let at = now_ms() + 500;
    let mut v = vec![Value::from(at)];
    v.extend(ids.iter().cloned().map(Value::from));
    ctx.db
        .conn
        .execute_raw(ctx.db.stmt(
            &format!(
                "UPDATE webhook_messages SET state = 'pending', next_attempt_at = $1 WHERE id IN ({}) AND state = 'sending'",
                marks(2, ids.len())
            ),
            v,
        ))
        .await?;
    ctx.queue
        .file(DELIVERIES, ids.iter().map(|id| (id.clone(), at)))
        .await;
    Ok(())
}

/// Signs and posts one leased message.
pub async fn post_one(hooks: &super::Hooks, url: &str, secrets: &[String], m: &Claimed) -> Outcome {
    match send::signed_headers(secrets, &m.event_id, now_ms() / 1000, m.payload.as_bytes()) {
        Ok(h) => send::post(hooks, url, &h, m.payload.clone()).await,
        Err(e) => Outcome {
            succeeded: false,
            status: None,
            result: format!("not sent: {e}"),
            duration_ms: 0,
            retry_after: None,
        },
    }
}

/// Gives back the leases of messages a stopped worker still held, due again at once. Only a
/// lease still this worker's is given back: a message recorded meanwhile, or whose lease ran
/// out and was taken by another worker, is left alone. Answers how many were given back.
pub async fn give_back(ctx: &Ctx, held: BTreeMap<String, i64>) -> Result<u64, DomainError> {
    let now = now_ms();
    let ids: Vec<String> = held.keys().cloned().collect();
    let mut by_lease: BTreeMap<i64, Vec<String>> = BTreeMap::new();
    for (id, until) in held {
        by_lease.entry(until).or_default().push(id);
    }
    let mut given = 0;
    for (until, ids) in by_lease {
        for chunk in ids.chunks(BATCH) {
            let mut v = vec![Value::from(now_ms()), Value::from(until)];
            v.extend(chunk.iter().cloned().map(Value::from));
            given += ctx
                .db
                .conn
                .execute_raw(ctx.db.stmt(
                    &format!(
                        "UPDATE webhook_messages SET state = 'pending', next_attempt_at = $1 \
                         WHERE state = 'sending' AND next_attempt_at = $2 AND id IN ({})",
                        marks(3, chunk.len())
                    ),
                    v,
                ))
                .await?
                .rows_affected();
        }
    }
    // A message recorded meanwhile is filed too; the next claim finds it ended.
    ctx.queue
        .file(DELIVERIES, ids.into_iter().map(|id| (id, now)))
        .await;
    Ok(given)
}

/// Housekeeping: relay messages older than a day, and attempts and finished messages older
/// than 30 days, are deleted.
pub async fn purge(ctx: &Ctx) -> Result<(), DomainError> {
    let now = now_ms();
    let day = 86_400_000;
    // Relay messages are kept a day; others 30 days after they finished (a message still
    // being retried is never older than the retry schedule).
    signet_core::purge::in_batches(
        ctx,
        "webhook_messages",
        "created_at < $1 AND state = 'stored'",
        vec![Value::from(now - day)],
    )
    .await?;
    signet_core::purge::in_batches(
        ctx,
        "webhook_messages",
        "created_at < $1 AND state <> 'stored' AND finished_at IS NOT NULL AND finished_at < $1",
        vec![Value::from(now - 30 * day)],
    )
    .await?;
    signet_core::purge::in_batches(
        ctx,
        "webhook_attempts",
        "created_at < $1",
        vec![Value::from(now - 30 * day)],
    )
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
            retry_after: retry_after.map(std::time::Duration::from_secs),
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
