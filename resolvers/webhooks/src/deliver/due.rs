//! What is due, and where that is asked: Redis's sorted sets in the scale-out set, else a
//! cheap indexed read of the database, so an idle worker never takes the write lock.

use sea_orm::ConnectionTrait;
use signet_core::{Ctx, DomainError};

/// Events fanned out, and messages leased, per statement.
pub const BATCH: usize = 500;
/// Whether any delivery is due (`$1`: now): through the index of live deliveries (m0015) in
/// its order, which stays the cheap plan whatever an analyze sampled (the unordered question
/// became a sequential scan of 30 days of delivered messages after an analyze of a backlog).
pub const DUE_PROBE: &str = "SELECT id FROM webhook_messages WHERE state IN ('pending', 'sending') AND next_attempt_at <= $1 ORDER BY next_attempt_at LIMIT 1";

/// With Redis, the set in which messages waiting for delivery are filed at their
/// `next_attempt_at` (the queue's dispatch for a table of our own): the workers ask it, not
/// PostgreSQL, whether a delivery is due.
pub const DELIVERIES: &str = "webhook-deliveries";

pub(super) fn marks(from: usize, n: usize) -> String {
    (from..from + n)
        .map(|i| format!("${i}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Whether any of `set` is due: Redis's answer with Redis, else the database's `probe`.
pub(super) async fn any_due(
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
