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
    let before = ctx.now() - days as i64 * DAY_MS;
    in_batches(ctx, "api_log", "created_at < $1", vec![Value::from(before)]).await
}

/// Jobs that finished (`done`) or were withdrawn (`cancelled`, an email of a voided document)
/// and were queued more than `days` ago. Failed jobs stay: they are few, and an operator
/// looks into them.
pub async fn finished_jobs(ctx: &Ctx, days: u64) -> Result<u64, DomainError> {
    let before = ctx.now() - days as i64 * DAY_MS;
    let mut gone = 0;
    for state in FINISHED {
        gone += in_batches(
            ctx,
            "outbox",
            &finished_filter(state),
            vec![Value::from(before)],
        )
        .await?;
    }
    Ok(gone)
}

/// The states of jobs that will not run again, each with an index of its own (m0014).
pub const FINISHED: [&str; 2] = ["done", "cancelled"];

/// The purge's filter for one finished state: one state at a time, so that the state's own
/// index gives the rows in order.
pub fn finished_filter(state: &str) -> String {
    format!("state = '{state}' AND created_at < $1")
}
