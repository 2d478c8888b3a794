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
use std::sync::Arc;
use std::time::Duration;

use ring::rand::{SecureRandom, SystemRandom};
use sea_orm::{ConnectionTrait, TransactionTrait, Value};
use signet_storage::{Backend, now_ms};

use super::send::{self, Outcome};
use super::store::{self, ENDPOINT_COLUMNS, EndpointRow, NewMessage};
use signet_core::{Ctx, DomainError, ids};

/// Seconds to wait after each failed try; a message gets `RETRIES.len() + 1` tries in all.
pub const RETRIES: [i64; 7] = [5, 300, 1_800, 7_200, 18_000, 36_000, 36_000];
const MAX_RETRY_AFTER_MS: i64 = 86_400_000;
const FAILING_LIMIT_MS: i64 = 5 * 86_400_000;
/// Events fanned out, and messages leased, per statement.
const BATCH: usize = 500;
/// Messages one fan-out transaction writes at most (an event's whole fan-out is never split:
/// at most `endpoints::MAX_ENDPOINTS` messages).
pub const MAX_FANOUT_MESSAGES: usize = 2_000;

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

/// Whether any event waits for fan-out. `ORDER BY run_at` keeps PostgreSQL on the
/// `outbox_due` index: without it, once an autoanalyze sampled a moment with events queued,
/// the planner expected one soon and took a sequential scan of the whole outbox, finished
/// jobs and all, twenty times a second (30 ms a probe after 5 minutes of the mixed
/// benchmark, bench/RESULTS.md, session 22).
pub const EVENT_PROBE: &str =
    "SELECT id FROM outbox WHERE state = 'queued' AND kind = 'event' ORDER BY run_at LIMIT 1";

/// Whether any delivery is due (`$1`: now): through the index of live deliveries (m0015) in
/// its order, which stays the cheap plan whatever an analyze sampled (the unordered question
/// became a sequential scan of 30 days of delivered messages after an analyze of a backlog).
pub const DUE_PROBE: &str = "SELECT id FROM webhook_messages WHERE state IN ('pending', 'sending') AND next_attempt_at <= $1 ORDER BY next_attempt_at LIMIT 1";

/// Fans out up to `BATCH` queued events. Returns how many events it took.
pub async fn fan_out(ctx: &Ctx) -> Result<usize, DomainError> {
    // A plain read first: an idle worker never takes the write lock.
    let any = ctx
        .db
        .conn
        .query_one_raw(ctx.db.stmt(EVENT_PROBE, []))
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
            let mut taken: Vec<Value> = Vec::with_capacity(parsed.len());
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
            let n = taken.len();
            // No `AND state = 'queued'`: the lock above already keeps fan-outs apart, and
            // with it SQLite's planner picks the `outbox_due` index for a list of more than a
            // few ids and walks every queued job (9 ms a call with 40,000 queued emails
            // and renders, where the primary key takes 0.1 ms).
            txn.exec(ctx.db.stmt(
                &format!(
                    "UPDATE outbox SET state = 'done' WHERE id IN ({})",
                    marks(1, n)
                ),
                taken,
            ))
            .await?;
            store::insert_messages(&*txn, &ctx.db, messages).await?;
            Ok((n, relayed, queued))
        })
        .await?;
    if relayed {
        crate::send::hooks(ctx).relay_wake.notify_waiters();
    }
    if queued {
        ctx.wakes.of(signet_core::jobs::JobKind::Event).notify_one();
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
/// share of the slots is taken).
pub async fn claim(
    ctx: &Ctx,
    n: usize,
    lease_ms: i64,
    full: &[String],
) -> Result<Vec<Claimed>, DomainError> {
    let now = now_ms();
    // A plain read first, as in fan-out: an idle worker never takes the write lock.
    let due = ctx
        .db
        .conn
        .query_one_raw(ctx.db.stmt(DUE_PROBE, [Value::from(now)]))
        .await?;
    if due.is_none() {
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
    signet_core::sql::insert_rows(
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

/// Deliveries in flight in this worker, by endpoint and by workspace. A workspace may hold a
/// quarter of the slots and an endpoint [`PER_ENDPOINT`]: a workspace whose receivers answer
/// slowly (or never) waits on its own deliveries and cannot hold everyone's slots. Endpoints
/// at their share are left out of the next lease, so others' due messages are taken instead.
#[derive(Default)]
struct InFlight {
    endpoints: std::collections::HashMap<String, usize>,
    workspaces: std::collections::HashMap<String, usize>,
    /// The workspace of each endpoint seen, to leave out all of a full workspace's endpoints.
    owner: std::collections::HashMap<String, String>,
}

impl InFlight {
    fn full(&self, endpoint: &str, workspace: &str, per_workspace: usize) -> bool {
        self.endpoints.get(endpoint).copied().unwrap_or(0) >= PER_ENDPOINT
            || self.workspaces.get(workspace).copied().unwrap_or(0) >= per_workspace
    }

    fn take(&mut self, endpoint: &str, workspace: &str) {
        *self.endpoints.entry(endpoint.to_string()).or_default() += 1;
        *self.workspaces.entry(workspace.to_string()).or_default() += 1;
        if self.owner.len() > 100_000 {
            self.owner.clear();
        }
        self.owner
            .insert(endpoint.to_string(), workspace.to_string());
    }

    fn give_back(&mut self, endpoint: &str, workspace: &str) {
        for (map, k) in [
            (&mut self.endpoints, endpoint),
            (&mut self.workspaces, workspace),
        ] {
            if let Some(n) = map.get_mut(k) {
                *n -= 1;
                if *n == 0 {
                    map.remove(k);
                }
            }
        }
    }

    /// Endpoints to leave out of the next lease.
    fn skip(&self, per_workspace: usize) -> Vec<String> {
        let mut out: Vec<String> = self
            .owner
            .iter()
            .filter(|(e, w)| self.full(e, w, per_workspace))
            .map(|(e, _)| e.clone())
            .collect();
        out.truncate(900);
        out
    }
}

/// Puts leased messages back, due again shortly, for when their endpoint has a free slot.
async fn put_back(ctx: &Ctx, ids: &[String]) -> Result<(), DomainError> {
    if ids.is_empty() {
        return Ok(());
    }
    let mut v = vec![Value::from(now_ms() + 500)];
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
    Ok(())
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

/// Signs and posts one leased message.
async fn post_one(hooks: &super::Hooks, url: &str, secrets: &[String], m: &Claimed) -> Outcome {
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

/// One pass of the whole delivery, for tests and tools that run without workers: fans out
/// what is queued, then leases every due message (in batches), posts them `concurrency` at a
/// time and records the outcomes, until nothing is due. A failed try waits for its retry as
/// it would under the worker. Answers how many events and messages it took.
pub async fn pass(ctx: &Ctx, cfg: WorkerConfig) -> Result<usize, DomainError> {
    use futures_util::StreamExt as _;
    let mut took = 0;
    loop {
        let fanned = fan_out(ctx).await?;
        let mut claimed = claim(ctx, BATCH, cfg.lease.as_millis() as i64, &[]).await?;
        took += fanned + claimed.len();
        if fanned == 0 && claimed.is_empty() {
            return Ok(took);
        }
        let endpoints = endpoints_of(ctx, &mut claimed).await?;
        let done: Vec<Done> = futures_util::stream::iter(claimed)
            .filter_map(|m| {
                let target = endpoints.get(&m.endpoint_id).cloned();
                async move { target.map(|t| (m, t)) }
            })
            .map(|(m, t)| async move {
                let outcome = post_one(crate::send::hooks(ctx), &t.url, &t.secrets, &m).await;
                Done {
                    message: m,
                    outcome,
                    at: now_ms(),
                }
            })
            .buffer_unordered(cfg.concurrency.max(1))
            .collect()
            .await;
        record(ctx, &done).await?;
    }
}

/// The messages a delivery worker is posting and has not yet recorded, with when each lease
/// runs out: what it gives back if it is stopped before they end.
pub type Leased = Arc<std::sync::Mutex<BTreeMap<String, i64>>>;

/// Gives back the leases of messages a stopped worker still held, due again at once. Only a
/// lease still this worker's is given back: a message recorded meanwhile, or whose lease ran
/// out and was taken by another worker, is left alone. Answers how many were given back.
pub async fn give_back(ctx: &Ctx, leased: &Leased) -> Result<u64, DomainError> {
    let held = std::mem::take(
        &mut *leased
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner),
    );
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
    Ok(given)
}

/// The delivery worker: runs until `stop` says so (or the task is dropped). Told to stop,
/// it leases nothing more, lets the deliveries in flight end (each within the receiver's 15
/// seconds) and records them, then returns. `leased` holds what it has leased and not yet
/// recorded, for [`give_back`] when it is cut short.
pub async fn run(
    ctx: Ctx,
    cfg: WorkerConfig,
    mut stop: tokio::sync::watch::Receiver<bool>,
    leased: Leased,
) {
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<Done>();
    let writer_ctx = ctx.clone();
    let recorded = leased.clone();
    let writer = tokio::spawn(async move {
        let mut buf = Vec::with_capacity(1000);
        while rx.recv_many(&mut buf, 1000).await > 0 {
            if let Err(e) = record(&writer_ctx, &buf).await {
                // The leases run out and the messages are tried again: nothing is lost.
                tracing::warn!(error = %e, n = buf.len(), "recording webhook attempts failed");
            }
            let mut held = recorded
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            for d in &buf {
                held.remove(&d.message.id);
            }
            drop(held);
            buf.clear();
        }
    });
    let mut writer = AbortOnDrop(writer);
    let slots = Arc::new(tokio::sync::Semaphore::new(cfg.concurrency));
    // Slots are refilled in batches of this many, so a busy queue is leased in few statements.
    let refill = (cfg.concurrency / 4).clamp(1, BATCH);
    let returned = Arc::new(tokio::sync::Notify::new());
    let lease_ms = cfg.lease.as_millis() as i64;
    let per_workspace = (cfg.concurrency / 4).max(PER_ENDPOINT);
    let in_flight = Arc::new(std::sync::Mutex::new(InFlight::default()));
    let lock = |f: &Arc<std::sync::Mutex<InFlight>>| {
        f.lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .skip(per_workspace)
    };
    // The deliveries in flight: dropped with this task, they end with it.
    let mut posts = tokio::task::JoinSet::new();
    // Stopped: told so, or the sender is gone.
    let stopped =
        |stop: &tokio::sync::watch::Receiver<bool>| *stop.borrow() || stop.has_changed().is_err();
    while !stopped(&stop) {
        while posts.try_join_next().is_some() {}
        let fanned = match fan_out(&ctx).await {
            Ok(n) => n,
            Err(e) => {
                tracing::warn!(error = %e, "webhook fan-out failed");
                0
            }
        };
        let free = slots.available_permits().min(BATCH);
        let skip = lock(&in_flight);
        let mut claimed = if free > 0 && !stopped(&stop) {
            match claim(&ctx, free, lease_ms, &skip).await {
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
                // Their leases run out and they are taken again: nothing is lost.
                claimed.clear();
                BTreeMap::new()
            }
        };
        let mut deferred = Vec::new();
        for m in claimed {
            let Some(Target {
                url,
                secrets,
                workspace,
            }) = endpoints.get(&m.endpoint_id).cloned()
            else {
                continue;
            };
            {
                let mut f = in_flight
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner);
                if f.full(&m.endpoint_id, &workspace, per_workspace) {
                    deferred.push(m.id.clone());
                    continue;
                }
                f.take(&m.endpoint_id, &workspace);
            }
            let Ok(permit) = slots.clone().acquire_owned().await else {
                return;
            };
            let c = ctx.clone();
            let tx = tx.clone();
            let returned = returned.clone();
            let in_flight = in_flight.clone();
            leased
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .insert(m.id.clone(), m.lease_until);
            posts.spawn(async move {
                let outcome = post_one(crate::send::hooks(&c), &url, &secrets, &m).await;
                in_flight
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner)
                    .give_back(&m.endpoint_id, &workspace);
                let _ = tx.send(Done {
                    message: m,
                    outcome,
                    at: now_ms(),
                });
                drop(permit);
                returned.notify_one();
            });
        }
        if let Err(e) = put_back(&ctx, &deferred).await {
            // Their leases run out and they are taken again: nothing is lost.
            tracing::warn!(error = %e, "putting back webhook messages failed");
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
        } else if took == 0 && !skip.is_empty() && fanned == 0 {
            // What is due belongs to endpoints at their share: look again when one of their
            // deliveries ends, when new work is queued (at most ten times a second: each look
            // reads past all of their queue), or in half a second.
            tokio::select! {
                _ = stop.changed() => {}
                _ = returned.notified() => {}
                // Another workspace's new work is looked at soon, at most ten times a second.
                _ = ctx.wakes.of(signet_core::jobs::JobKind::Event).notified() => {
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
                _ = tokio::time::sleep(Duration::from_millis(500)) => {}
            }
        } else if fanned < BATCH {
            // The queue is drained: wait for new work, or look again shortly (retries come
            // due, other processes fan out).
            tokio::select! {
                _ = stop.changed() => {}
                _ = tokio::time::timeout(
                    Duration::from_millis(100),
                    ctx.wakes.of(signet_core::jobs::JobKind::Event).notified(),
                ) => {}
            }
        }
    }
    // Stopping: the deliveries in flight end and are recorded.
    while posts.join_next().await.is_some() {}
    drop(tx);
    let _ = (&mut writer.0).await;
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
