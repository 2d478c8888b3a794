//! Reading the queue without taking from it: its counts for the metrics, and the SQL of the
//! few questions a domain crate asks of it inside one of its own statements (whether a
//! document has a job of a kind waiting; the queued jobs of a kind taken as one batch). The
//! outbox table is named only in this crate.

use sea_orm::Value;
use signet_storage::{Db, StorageError};

/// The jobs of one kind in one state.
#[derive(Clone, Debug)]
pub struct KindCount {
    pub kind: String,
    pub state: String,
    pub jobs: i64,
    /// When the oldest due job of the kind and state was due (ms).
    pub oldest_due: Option<i64>,
}

/// Jobs waiting (due or not), running and failed, per kind and state, with the oldest due.
pub async fn counts(db: &Db, now: i64) -> Result<Vec<KindCount>, StorageError> {
    use sea_orm::ConnectionTrait;
    let rows = db
        .conn
        .query_all_raw(db.stmt(
            "SELECT kind, state, COUNT(*) AS n, MIN(CASE WHEN run_at <= $1 THEN run_at END) AS oldest \
             FROM outbox WHERE state IN ('queued', 'running', 'failed') GROUP BY kind, state",
            [Value::from(now)],
        ))
        .await?;
    rows.iter()
        .map(|r| {
            Ok(KindCount {
                kind: r.try_get("", "kind")?,
                state: r.try_get("", "state")?,
                jobs: r.try_get("", "n")?,
                oldest_due: r.try_get("", "oldest")?,
            })
        })
        .collect()
}

/// An SQL condition: the document whose id is the expression `document_id` has a job of
/// `kind` queued, running, or given up (which an operator must look at before it runs again).
/// `kind` is a job's `KIND`, never a caller's text.
pub fn waiting_sql(document_id: &str, kind: &'static str) -> String {
    format!(
        "EXISTS (SELECT 1 FROM outbox o WHERE o.document_id = {document_id} AND o.kind = '{kind}' \
         AND o.state IN ('queued', 'running', 'failed'))"
    )
}

/// Whether any job of `kind` is queued, due or not. `ORDER BY run_at` keeps PostgreSQL on the
/// `outbox_due` index: without it, once an autoanalyze sampled a moment with jobs queued, the
/// planner expected one soon and took a sequential scan of the whole outbox, finished jobs
/// and all (30 ms a probe after 5 minutes of the mixed benchmark, bench/RESULTS.md).
pub fn queued_probe(kind: &'static str) -> String {
    format!(
        "SELECT id FROM outbox WHERE state = 'queued' AND kind = '{kind}' ORDER BY run_at LIMIT 1"
    )
}

/// The oldest queued jobs of `kind`, at most `$1` of them: `id`, `workspace_id`, `test` and
/// `payload`, for a pool that takes them as one batch under its own lock and ends them with
/// [`crate::mark_done_sql`] in the same transaction.
pub fn queued_sql(kind: &'static str) -> String {
    format!(
        "SELECT id, workspace_id, test, payload FROM outbox WHERE state = 'queued' AND kind = '{kind}' \
         ORDER BY run_at LIMIT $1"
    )
}
