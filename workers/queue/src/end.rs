//! How a claimed job ends, and what comes back to the queue. A job is held under a lease: its
//! `run_at` is moved to the lease's end when it is claimed, so a process that dies mid-job
//! leaves a lease that runs out and the next claim takes it again. Every end below changes
//! the row only while the lease is still the one it was claimed under (`run_at` unchanged),
//! so a job another worker took over after the lease ran out is left to that worker.
//!
//! A try that fails, or kills its process, comes back after a growing back-off; after
//! [`MAX_ATTEMPTS`] the claim marks the job `failed` and logs it loudly.

use sea_orm::Value;
use signet_storage::{Db, Sql, StorageError};

use crate::job::{Enqueued, HELD};

/// Tries before a job is marked failed: about two and a half hours of back-off between
/// them in all (8,715 s), plus each try's lease.
pub const MAX_ATTEMPTS: i32 = 12;

/// Wait after the n-th failed try: 5 s, 10 s, 20 s ... up to an hour.
pub fn backoff(attempts: i32) -> i64 {
    if attempts <= 0 {
        0
    } else {
        (5_000i64 << (attempts - 1).clamp(0, 10)).min(3_600_000)
    }
}

/// A job this worker holds until `lease`, as the runner hands it to its kind's handler.
#[derive(Clone, Debug)]
pub struct Claimed {
    pub job: String,
    pub workspace_id: String,
    pub doc_id: Option<String>,
    pub payload: String,
    /// Tries before this one.
    pub attempts: i32,
    pub lease: i64,
}

impl Claimed {
    /// The typed job this row carries.
    pub fn decode<J: crate::Job>(&self) -> Result<J, serde_json::Error> {
        crate::job::decode(&self.payload)
    }
}

/// Makes the jobs of `doc_id` held at [`HELD`] due now, in the caller's transaction. Answers
/// them, for `Queue::dispatch` after the commit.
pub async fn release_held<C: Sql>(
    db: &Db,
    conn: &C,
    doc_id: &str,
) -> Result<Enqueued, StorageError> {
    let now = db.clock.now_ms();
    let rows = conn
        .rows(db.stmt(
            "UPDATE outbox SET run_at = $2 WHERE document_id = $1 AND state = 'queued' AND run_at = $3 \
             RETURNING id, kind",
            [Value::from(doc_id.to_string()), Value::from(now), Value::from(HELD)],
        ))
        .await?;
    let mut out = Enqueued::none();
    for r in rows {
        let kind: String = r.try_get("", "kind")?;
        out.push(kind, r.try_get("", "id")?, now);
    }
    Ok(out)
}

fn finish_stmt(db: &Db, job: &str) -> sea_orm::Statement {
    db.stmt(
        "UPDATE outbox SET state = 'done' WHERE id = $1",
        [Value::from(job.to_string())],
    )
}

/// Ends a job inside the transaction of the work it did.
pub async fn finish<C: Sql>(db: &Db, conn: &C, job: &str) -> Result<(), StorageError> {
    conn.exec(finish_stmt(db, job)).await?;
    Ok(())
}

/// Ends a job on its own (not inside a transition's transaction).
pub async fn done(db: &Db, job: &str) -> Result<(), StorageError> {
    db.write(finish_stmt(db, job)).await?;
    Ok(())
}

/// Ends a job and deletes its row at once, for a job whose payload should not be kept for
/// the finished jobs' purge (a sign-in request names an address someone asked about).
pub async fn done_and_forgotten(db: &Db, job: &str) -> Result<(), StorageError> {
    db.write(db.stmt("DELETE FROM outbox WHERE id = $1", [Value::from(job)]))
        .await?;
    Ok(())
}

/// Marks jobs done by id alone, in one statement (a pass that ended many in its own
/// transaction). No `AND state = ...`: with it SQLite's planner (no statistics) takes the
/// `outbox_due` index for a list of more than a few ids and walks every queued job, 9 ms a
/// call with 40,000 jobs queued where the primary key takes 0.1 ms.
pub fn mark_done_sql(n: usize) -> String {
    format!(
        "UPDATE outbox SET state = 'done' WHERE id IN ({})",
        (1..=n)
            .map(|i| format!("${i}"))
            .collect::<Vec<_>>()
            .join(", ")
    )
}

/// Puts a failed try back in the queue after its back-off.
pub async fn retry_later(db: &Db, c: &Claimed) -> Result<(), StorageError> {
    requeue(db, c, db.clock.now_ms() + backoff(c.attempts + 1), false).await
}

/// Puts a job back for a later pass without spending a try: it was claimed but not taken up
/// (its pass was full, or its sender's turn had not come), due again at `at`.
pub async fn release_until(db: &Db, c: &Claimed, at: i64) -> Result<(), StorageError> {
    requeue(db, c, at, true).await
}

/// [`release_until`] in the caller's transaction (with the row that says why it waits).
pub async fn release_in<C: Sql>(
    db: &Db,
    conn: &C,
    c: &Claimed,
    at: i64,
) -> Result<(), StorageError> {
    conn.exec(requeue_stmt(db, c, at, true)).await?;
    Ok(())
}

/// Ends jobs by id in the caller's transaction (a pass that ended many at once).
pub async fn finish_all<C: Sql>(db: &Db, conn: &C, jobs: &[String]) -> Result<(), StorageError> {
    for chunk in jobs.chunks(200) {
        conn.exec(db.stmt(
            &mark_done_sql(chunk.len()),
            chunk.iter().cloned().map(Value::from).collect::<Vec<_>>(),
        ))
        .await?;
    }
    Ok(())
}

/// [`release_until`] a second from now.
pub async fn release(db: &Db, c: &Claimed) -> Result<(), StorageError> {
    release_until(db, c, db.clock.now_ms() + 1_000).await
}

async fn requeue(db: &Db, c: &Claimed, at: i64, unspent: bool) -> Result<(), StorageError> {
    db.write(requeue_stmt(db, c, at, unspent)).await?;
    Ok(())
}

fn requeue_stmt(db: &Db, c: &Claimed, at: i64, unspent: bool) -> sea_orm::Statement {
    let spent = if unspent {
        ", attempts = attempts - 1"
    } else {
        ""
    };
    db.stmt(
        &format!(
            "UPDATE outbox SET state = 'queued'{spent}, run_at = $2 \
             WHERE id = $1 AND state = 'running' AND run_at = $3"
        ),
        [
            Value::from(c.job.clone()),
            Value::from(at),
            Value::from(c.lease),
        ],
    )
}

/// Ends a job that no later try could finish (its input decides the failure).
pub async fn give_up(db: &Db, c: &Claimed) -> Result<(), StorageError> {
    db.write(db.stmt(
        "UPDATE outbox SET state = 'failed' WHERE id = $1 AND state = 'running' AND run_at = $2",
        [Value::from(c.job.clone()), Value::from(c.lease)],
    ))
    .await?;
    Ok(())
}

/// Gives back the leases of claimed jobs that never ran (a stopping worker's): each is queued
/// again at once, its try not counted.
pub async fn give_back(db: &Db, jobs: &[Claimed]) -> Result<usize, StorageError> {
    let mut given = 0;
    let now = db.clock.now_ms();
    for c in jobs {
        given += db
            .write(db.stmt(
                "UPDATE outbox SET state = 'queued', attempts = attempts - 1, run_at = $2 \
                 WHERE id = $1 AND state = 'running' AND run_at = $3",
                [
                    Value::from(c.job.clone()),
                    Value::from(now),
                    Value::from(c.lease),
                ],
            ))
            .await? as usize;
    }
    Ok(given)
}

/// The jobs of `J`'s kind about `doc_id` held at [`HELD`] (not yet released), read in the
/// caller's transaction.
pub async fn held<J: crate::Job, C: Sql>(
    db: &Db,
    conn: &C,
    doc_id: &str,
) -> Result<Vec<J>, StorageError> {
    let rows = conn
        .rows(db.stmt(
            "SELECT payload FROM outbox WHERE document_id = $1 AND kind = $2 AND state = 'queued' AND run_at = $3",
            [
                Value::from(doc_id.to_string()),
                Value::from(J::KIND),
                Value::from(HELD),
            ],
        ))
        .await?;
    let mut out = Vec::with_capacity(rows.len());
    for r in rows {
        let payload: String = r.try_get("", "payload")?;
        match crate::job::decode::<J>(&payload) {
            Ok(j) => out.push(j),
            Err(e) => {
                tracing::warn!(kind = J::KIND, error = %e, "a held job's payload is not readable")
            }
        }
    }
    Ok(out)
}

/// Cancels the queued (not yet claimed) jobs of `kind` about `doc_id`, in the caller's
/// transaction. Answers their ids.
pub async fn cancel<C: Sql>(
    db: &Db,
    conn: &C,
    doc_id: &str,
    kind: &str,
) -> Result<Vec<String>, StorageError> {
    let rows = conn
        .rows(db.stmt(
            "UPDATE outbox SET state = 'cancelled' WHERE document_id = $1 AND kind = $2 AND state = 'queued' \
             RETURNING id",
            [Value::from(doc_id.to_string()), Value::from(kind.to_string())],
        ))
        .await?;
    Ok(rows
        .iter()
        .map(|r| r.try_get("", "id"))
        .collect::<Result<_, _>>()?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn back_off_doubles_from_five_seconds_to_an_hour() {
        assert_eq!(backoff(0), 0);
        assert_eq!(backoff(1), 5_000);
        assert_eq!(backoff(2), 10_000);
        assert_eq!(backoff(5), 80_000);
        assert_eq!(backoff(MAX_ATTEMPTS), 3_600_000);
        // The waits between the tries before a job is given up: 2 h 25 min 15 s.
        let total: i64 = (1..MAX_ATTEMPTS).map(backoff).sum();
        assert_eq!(total, 8_715_000);
    }

    #[test]
    fn done_by_id_names_every_id() {
        assert_eq!(
            mark_done_sql(3),
            "UPDATE outbox SET state = 'done' WHERE id IN ($1, $2, $3)"
        );
    }
}
