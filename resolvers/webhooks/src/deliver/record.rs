//! Recording finished tries, in batches: the attempt row, the message's next try or its end,
//! and the endpoint's health. Retries follow the schedule in `RETRIES` (each ±10 %), later
//! when the receiver's Retry-After asks for more (up to a day). A 410, or five days of failure
//! with no success in between, disables the endpoint and cancels what it still had queued.

use std::collections::{BTreeMap, BTreeSet};

use ring::rand::{SecureRandom, SystemRandom};
use sea_orm::{ConnectionTrait, TransactionTrait, Value};
use signet_core::{Ctx, DomainError, ids};

use super::due::{DELIVERIES, marks};
use super::lease::Claimed;
use crate::send::Outcome;

/// Seconds to wait after each failed try; a message gets `RETRIES.len() + 1` tries in all.
pub const RETRIES: [i64; 7] = [5, 300, 1_800, 7_200, 18_000, 36_000, 36_000];
const MAX_RETRY_AFTER_MS: i64 = 86_400_000;
const FAILING_LIMIT_MS: i64 = 5 * 86_400_000;
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

/// The attempts' columns, in the order of [`attempt_row`].
const ATTEMPT_COLUMNS: &[&str] = &[
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
];

/// What a batch of tries changes, gathered before it is written.
#[derive(Default)]
struct Outcomes {
    attempts: Vec<Vec<Value>>,
    delivered: Vec<Value>,
    healthy: BTreeSet<String>,
    failing: BTreeSet<String>,
    gone: BTreeSet<String>,
    /// For Redis, after the commit: messages due again, and those that ended.
    again: Vec<(String, i64)>,
    ended: Vec<String>,
}

impl Outcomes {
    /// Notes one try; for a failed one, answers when it is tried again (`None`: never).
    fn note(&mut self, d: &Done) -> Option<Option<i64>> {
        let m = &d.message;
        self.attempts.push(attempt_row(d));
        if d.outcome.succeeded {
            signet_core::metrics::outcome(signet_core::metrics::Outcome::WebhookDelivered, 1);
            self.delivered.push(Value::from(m.id.clone()));
            self.ended.push(m.id.clone());
            self.healthy.insert(m.endpoint_id.clone());
            return None;
        }
        if d.outcome.gone() {
            self.gone.insert(m.endpoint_id.clone());
        } else {
            self.failing.insert(m.endpoint_id.clone());
        }
        // Counted from the end of this try, not of the batch it was recorded with (a slow
        // receiver in the same batch must not push everyone's retries later).
        let next = next_try(m.attempts + 1, &d.outcome, d.at);
        let counted = match next {
            Some(at) => {
                self.again.push((m.id.clone(), at));
                signet_core::metrics::Outcome::WebhookRetried
            }
            None => {
                self.ended.push(m.id.clone());
                signet_core::metrics::Outcome::WebhookFailed
            }
        };
        signet_core::metrics::outcome(counted, 1);
        Some(next)
    }
}

fn attempt_row(d: &Done) -> Vec<Value> {
    let m = &d.message;
    vec![
        Value::from(ids::new_id("att")),
        Value::from(m.endpoint_id.clone()),
        Value::from(m.id.clone()),
        Value::from(m.event_id.clone()),
        Value::from(m.topic.clone()),
        Value::from(m.attempts + 1),
        Value::from(d.outcome.succeeded),
        Value::from(d.outcome.status.map(i32::from)),
        Value::from(d.outcome.result.clone()),
        Value::from(d.outcome.duration_ms),
        Value::from(d.at),
    ]
}

/// Records a batch of finished tries in one transaction.
pub async fn record(ctx: &Ctx, done: &[Done]) -> Result<(), DomainError> {
    if done.is_empty() {
        return Ok(());
    }
    let now = ctx.now();
    let txn = ctx.db.conn.begin().await?;
    let mut o = Outcomes::default();
    for d in done {
        let Some(next) = o.note(d) else { continue };
        let (id, tries) = (
            Value::from(d.message.id.clone()),
            Value::from(d.message.attempts + 1),
        );
        let statement = match next {
            Some(at) => ctx.db.stmt(
                "UPDATE webhook_messages SET attempts = $2, state = 'pending', next_attempt_at = $3 WHERE id = $1 AND state = 'sending'",
                [id, tries, Value::from(at)],
            ),
            None => ctx.db.stmt(
                "UPDATE webhook_messages SET attempts = $2, state = 'failed', finished_at = $3 WHERE id = $1 AND state = 'sending'",
                [id, tries, Value::from(now)],
            ),
        };
        txn.execute_raw(statement).await?;
    }
    let attempts = std::mem::take(&mut o.attempts);
    signet_storage::insert_rows(&txn, &ctx.db, "webhook_attempts", ATTEMPT_COLUMNS, attempts)
        .await?;
    if !o.delivered.is_empty() {
        let n = o.delivered.len();
        let mut v = vec![Value::from(now)];
        v.extend(std::mem::take(&mut o.delivered));
        txn.execute_raw(ctx.db.stmt(
            &format!("UPDATE webhook_messages SET state = 'delivered', attempts = attempts + 1, finished_at = $1 WHERE id IN ({}) AND state = 'sending'", marks(2, n)),
            v,
        ))
        .await?;
    }
    endpoint_health(&txn, ctx, &o, now).await?;
    txn.commit().await?;
    ctx.queue.forget(DELIVERIES, o.ended).await;
    ctx.queue.file(DELIVERIES, o.again).await;
    Ok(())
}

/// The endpoints' health after a batch: failing since the first failure, healthy again after
/// a success, disabled after a 410 or five days of failure.
async fn endpoint_health<C: ConnectionTrait>(
    txn: &C,
    ctx: &Ctx,
    o: &Outcomes,
    now: i64,
) -> Result<(), DomainError> {
    let list = |set: &BTreeSet<String>| set.iter().cloned().map(Value::from).collect::<Vec<_>>();
    // Failures first: an endpoint that also succeeded in this batch ends the batch healthy.
    if !o.failing.is_empty() {
        let mut v = vec![Value::from(now)];
        v.extend(list(&o.failing));
        txn.execute_raw(ctx.db.stmt(
            &format!("UPDATE webhook_endpoints SET failing_since = COALESCE(failing_since, $1) WHERE id IN ({})", marks(2, o.failing.len())),
            v,
        ))
        .await?;
    }
    if !o.healthy.is_empty() {
        txn.execute_raw(ctx.db.stmt(
            &format!("UPDATE webhook_endpoints SET failing_since = NULL WHERE failing_since IS NOT NULL AND id IN ({})", marks(1, o.healthy.len())),
            list(&o.healthy),
        ))
        .await?;
    }
    let mut disable: BTreeMap<String, String> = BTreeMap::new();
    for id in &o.gone {
        disable.insert(id.clone(), "the receiver answered 410 Gone".into());
    }
    if !o.failing.is_empty() {
        let mut v = vec![Value::from(now - FAILING_LIMIT_MS)];
        v.extend(list(&o.failing));
        let stale = txn
            .query_all_raw(ctx.db.stmt(
                &format!("SELECT id FROM webhook_endpoints WHERE state = 'enabled' AND failing_since <= $1 AND id IN ({})", marks(2, o.failing.len())),
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
        disable_endpoint(txn, ctx, &id, &reason, now).await?;
    }
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
