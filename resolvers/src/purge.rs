//! Deleting old rows a batch at a time. One `DELETE` of a million rows would hold SQLite's
//! single writer (or PostgreSQL's locks and WAL) for seconds and stall every request behind
//! it; batches of [`BATCH`] rows, oldest first through an index on the purge time, with a
//! pause between them, let other writes in.

use std::time::Duration;

use sea_orm::{ConnectionTrait, Value};

use crate::{Ctx, DomainError};

pub const BATCH: u64 = 5_000;
const DAY_MS: i64 = 86_400_000;

/// Deletes the rows of `table` (keyed by `id`, with a `created_at`) matching `filter`, whose
/// `$n` placeholders take `values`, a batch at a time, oldest first. Answers how many went.
pub async fn in_batches(
    ctx: &Ctx,
    table: &str,
    filter: &str,
    values: Vec<Value>,
) -> Result<u64, DomainError> {
    let sql = format!(
        "DELETE FROM {table} WHERE id IN (SELECT id FROM {table} WHERE {filter} ORDER BY created_at LIMIT {BATCH})"
    );
    let mut total = 0;
    loop {
        let gone = ctx
            .db
            .conn
            .execute_raw(ctx.db.stmt(&sql, values.clone()))
            .await?
            .rows_affected();
        total += gone;
        if gone < BATCH {
            return Ok(total);
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// The API log's lines older than `days`.
pub async fn api_log(ctx: &Ctx, days: u64) -> Result<u64, DomainError> {
    let before = signet_storage::now_ms() - days as i64 * DAY_MS;
    in_batches(ctx, "api_log", "created_at < $1", vec![Value::from(before)]).await
}

/// Jobs that finished (`done`) and were queued more than `days` ago. Failed jobs stay: they
/// are few, and an operator looks into them.
pub async fn finished_jobs(ctx: &Ctx, days: u64) -> Result<u64, DomainError> {
    let before = signet_storage::now_ms() - days as i64 * DAY_MS;
    in_batches(
        ctx,
        "outbox",
        "state = 'done' AND created_at < $1",
        vec![Value::from(before)],
    )
    .await
}
