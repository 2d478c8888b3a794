//! Leasing due messages to a worker (state `sending`, `next_attempt_at` moved to the lease's
//! end, so one index finds both due and abandoned ones), putting them back, giving back what
//! a stopped worker held, and keeping Redis's set of due deliveries right.

use std::collections::BTreeMap;

use sea_orm::{ConnectionTrait, Value};
use signet_core::events::Event;
use signet_core::{Ctx, DomainError};
use signet_queue::Job as _;
use signet_storage::Backend;

use super::due::{BATCH, DELIVERIES, DUE_PROBE, any_due, marks};

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
    let Some(due) = ctx.queue.due(DELIVERIES, ctx.now(), BATCH).await else {
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
    let now = ctx.now();
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

/// Puts leased messages back, due again shortly, for when their endpoint has a free slot.
pub async fn put_back(ctx: &Ctx, ids: &[String]) -> Result<(), DomainError> {
    if ids.is_empty() {
        return Ok(());
    }
    let at = ctx.now() + 500;
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

/// Gives back the leases of messages a stopped worker still held, due again at once. Only a
/// lease still this worker's is given back: a message recorded meanwhile, or whose lease ran
/// out and was taken by another worker, is left alone. Answers how many were given back.
pub async fn give_back(ctx: &Ctx, held: BTreeMap<String, i64>) -> Result<u64, DomainError> {
    let now = ctx.now();
    let ids: Vec<String> = held.keys().cloned().collect();
    let mut by_lease: BTreeMap<i64, Vec<String>> = BTreeMap::new();
    for (id, until) in held {
        by_lease.entry(until).or_default().push(id);
    }
    let mut given = 0;
    for (until, ids) in by_lease {
        for chunk in ids.chunks(BATCH) {
            let mut v = vec![Value::from(ctx.now()), Value::from(until)];
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
