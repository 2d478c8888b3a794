//! Taking a pass of due jobs under a lease, with a fair share per workspace.
//!
//! The candidates are the oldest due jobs of a window larger than the pass: from the outbox's
//! `outbox_due` index on the embedded default, or from Redis's set of the kind (then only
//! those rows are read, by id). From them a pass takes the oldest, at most [`PER_WORKSPACE`]
//! of one workspace when others have jobs due, so a workspace that queues a flood holds at
//! most a share of each pass and the others' jobs are taken from behind it. Each lease is
//! taken by a conditional UPDATE (only if nobody took the job since the read), all of a pass
//! in one transaction; a job that has failed every try is marked `failed` instead.

use std::collections::{HashMap, HashSet};

use redis::AsyncCommands;
use sea_orm::{ConnectionTrait, Value};
use signet_storage::{Sql, StorageError};

use crate::end::{Claimed, MAX_ATTEMPTS, backoff};
use crate::job::HELD;
use crate::queue::Queue;

/// Jobs of one kind a workspace may take in one pass while others wait.
pub const PER_WORKSPACE: i64 = 8;
/// How many passes deep a claim looks for other workspaces' jobs.
const WINDOW: i64 = 16;

/// What a claim took, and the jobs it gave up on (every try failed), for the kind's handler
/// to record (an email's log row says so).
#[derive(Debug, Default)]
pub struct Claim {
    pub taken: Vec<Claimed>,
    pub gave_up: Vec<Claimed>,
}

/// A due row, as read for a claim.
struct Due {
    id: String,
    workspace_id: String,
    doc_id: Option<String>,
    payload: String,
    state: String,
    attempts: i32,
    run_at: i64,
}

const COLUMNS: &str = "id, workspace_id, document_id, payload, state, attempts, run_at";

fn due_of(r: &sea_orm::QueryResult) -> Result<Due, sea_orm::DbErr> {
    Ok(Due {
        id: r.try_get("", "id")?,
        workspace_id: r.try_get("", "workspace_id")?,
        doc_id: r.try_get("", "document_id")?,
        payload: r.try_get("", "payload")?,
        state: r.try_get("", "state")?,
        attempts: r.try_get("", "attempts")?,
        run_at: r.try_get("", "run_at")?,
    })
}

/// Claims up to `batch` due jobs of `kind` for `lease_ms`, oldest first, with the fair share.
pub async fn claim(
    q: &Queue,
    kind: &str,
    batch: i64,
    lease_ms: i64,
) -> Result<Claim, StorageError> {
    let now = q.db.clock.now_ms();
    let window = batch * WINDOW;
    let due = match q.dispatch_side() {
        None => {
            q.db.conn
                .query_all_raw(q.db.stmt(
                    &format!(
                        "SELECT {COLUMNS} FROM outbox \
                         WHERE kind = $3 AND state IN ('queued', 'running') AND run_at <= $1 \
                         ORDER BY run_at, id LIMIT $2"
                    ),
                    [
                        Value::from(now),
                        Value::from(window),
                        Value::from(kind.to_string()),
                    ],
                ))
                .await?
                .iter()
                .map(due_of)
                .collect::<Result<Vec<_>, _>>()?
        }
        Some(_) => due_from_redis(q, kind, now, window).await?,
    };
    if due.is_empty() {
        return Ok(Claim::default());
    }
    let chosen = fair_share(due, batch);
    let claim = lease(q, kind, chosen, lease_ms).await?;
    if let Some(d) = q.dispatch_side() {
        // A job taken is due again when its lease runs out (its worker may die); one given
        // up is gone.
        let mut pipe = redis::pipe();
        for c in &claim.taken {
            pipe.zadd(d.key(kind), &c.job, c.lease).ignore();
        }
        for c in &claim.gave_up {
            pipe.zrem(d.key(kind), &c.job).ignore();
        }
        crate::queue::send(pipe, d).await?;
    }
    Ok(claim)
}

/// The due rows Redis names, read by id. Entries whose row is not due are put right: filed
/// again at the row's `run_at`, or removed when the job ended, was held or is not there.
async fn due_from_redis(
    q: &Queue,
    kind: &str,
    now: i64,
    window: i64,
) -> Result<Vec<Due>, StorageError> {
    let Some(d) = q.dispatch_side() else {
        return Ok(Vec::new());
    };
    let key = d.key(kind);
    let ids: Vec<String> = d
        .conn()
        .zrangebyscore_limit(&key, "-inf", now, 0, window as isize)
        .await?;
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let marks = (1..=ids.len())
        .map(|i| format!("${i}"))
        .collect::<Vec<_>>()
        .join(", ");
    let rows =
        q.db.conn
            .query_all_raw(q.db.stmt(
                &format!("SELECT {COLUMNS} FROM outbox WHERE id IN ({marks})"),
                ids.iter().cloned().map(Value::from).collect::<Vec<_>>(),
            ))
            .await?
            .iter()
            .map(due_of)
            .collect::<Result<Vec<_>, _>>()?;
    let live = |r: &Due| r.state == "queued" || r.state == "running";
    let mut pipe = redis::pipe();
    let found: HashSet<&str> = rows.iter().map(|r| r.id.as_str()).collect();
    for id in ids.iter().filter(|id| !found.contains(id.as_str())) {
        pipe.zrem(&key, id).ignore();
    }
    for r in rows.iter().filter(|r| !live(r) || r.run_at > now) {
        if live(r) && r.run_at != HELD {
            pipe.zadd(&key, &r.id, r.run_at).ignore();
        } else {
            pipe.zrem(&key, &r.id).ignore();
        }
    }
    crate::queue::send(pipe, d).await?;
    let mut due: Vec<Due> = rows
        .into_iter()
        .filter(|r| live(r) && r.run_at <= now)
        .collect();
    due.sort_by(|a, b| (a.run_at, &a.id).cmp(&(b.run_at, &b.id)));
    Ok(due)
}

/// The oldest `batch` of `due`, at most [`PER_WORKSPACE`] of one workspace when more than one
/// has jobs due (a workspace alone in the queue takes whole passes).
fn fair_share(due: Vec<Due>, batch: i64) -> Vec<Due> {
    let workspaces: HashSet<&str> = due.iter().map(|r| r.workspace_id.as_str()).collect();
    let cap = if workspaces.len() > 1 {
        PER_WORKSPACE
    } else {
        batch
    };
    let mut per_workspace: HashMap<String, i64> = HashMap::new();
    let mut out = Vec::new();
    for r in due {
        if out.len() as i64 >= batch {
            break;
        }
        let n = per_workspace.entry(r.workspace_id.clone()).or_default();
        *n += 1;
        if *n <= cap {
            out.push(r);
        }
    }
    out
}

/// Every lease of the pass in one transaction; each only if nobody took it since the read.
async fn lease(
    q: &Queue,
    kind: &str,
    chosen: Vec<Due>,
    lease_ms: i64,
) -> Result<Claim, StorageError> {
    let (db, kind) = (q.db.clone(), kind.to_string());
    q.db.transaction(move |txn| async move {
        let mut out = Claim::default();
        for r in chosen {
            let gave_up = r.attempts >= MAX_ATTEMPTS;
            let lease = db.clock.now_ms() + lease_ms + backoff(r.attempts);
            let stmt = if gave_up {
                // Every try failed, or killed its process: stop, and say so loudly. An
                // operator re-queues the job once the cause is mended.
                db.stmt(
                    "UPDATE outbox SET state = 'failed' WHERE id = $1 AND state = $2 AND run_at = $3",
                    [Value::from(r.id.clone()), Value::from(r.state), Value::from(r.run_at)],
                )
            } else {
                db.stmt(
                    "UPDATE outbox SET state = 'running', attempts = attempts + 1, run_at = $4 \
                     WHERE id = $1 AND state = $2 AND run_at = $3",
                    [
                        Value::from(r.id.clone()),
                        Value::from(r.state),
                        Value::from(r.run_at),
                        Value::from(lease),
                    ],
                )
            };
            if txn.exec(stmt).await? != 1 {
                continue;
            }
            let c = Claimed {
                job: r.id,
                workspace_id: r.workspace_id,
                doc_id: r.doc_id,
                payload: r.payload,
                attempts: r.attempts,
                lease,
            };
            if gave_up {
                tracing::error!(kind, document = ?c.doc_id, attempts = c.attempts, "a job gave up after every try failed");
                out.gave_up.push(c);
            } else {
                out.taken.push(c);
            }
        }
        Ok::<_, StorageError>(out)
    })
    .await
}

/// After a pass: with Redis, each job it took is filed again at its row's `run_at` (a later
/// try, a job released for later) or removed (done, failed, cancelled), so Redis's set
/// matches the rows without waiting for the lease to run out. Nothing without Redis.
pub async fn settle(q: &Queue, kind: &str, jobs: &[Claimed]) -> Result<(), StorageError> {
    let Some(d) = q.dispatch_side() else {
        return Ok(());
    };
    if jobs.is_empty() {
        return Ok(());
    }
    let key = d.key(kind);
    let mut pipe = redis::pipe();
    for chunk in jobs.chunks(500) {
        let marks = (1..=chunk.len())
            .map(|i| format!("${i}"))
            .collect::<Vec<_>>()
            .join(", ");
        let rows =
            q.db.conn
                .query_all_raw(
                    q.db.stmt(
                        &format!("SELECT id, state, run_at FROM outbox WHERE id IN ({marks})"),
                        chunk
                            .iter()
                            .map(|c| Value::from(c.job.clone()))
                            .collect::<Vec<_>>(),
                    ),
                )
                .await?;
        let mut live: HashMap<String, i64> = HashMap::new();
        for r in &rows {
            let state: String = r.try_get("", "state")?;
            let run_at: i64 = r.try_get("", "run_at")?;
            if (state == "queued" || state == "running") && run_at != HELD {
                live.insert(r.try_get("", "id")?, run_at);
            }
        }
        for c in chunk {
            match live.get(&c.job) {
                Some(at) => pipe.zadd(&key, &c.job, *at).ignore(),
                None => pipe.zrem(&key, &c.job).ignore(),
            };
        }
    }
    crate::queue::send(pipe, d).await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn due(id: usize, workspace: &str) -> Due {
        Due {
            id: format!("job_{id:03}"),
            workspace_id: workspace.into(),
            doc_id: None,
            payload: "{}".into(),
            state: "queued".into(),
            attempts: 0,
            run_at: id as i64,
        }
    }

    #[test]
    fn a_workspace_alone_takes_whole_passes_and_shares_them_when_others_wait() {
        let alone: Vec<Due> = (0..40).map(|i| due(i, "wsp_a")).collect();
        assert_eq!(fair_share(alone, 16).len(), 16);

        // A flood of one workspace queued first, then two of another's: the pass takes
        // PER_WORKSPACE of the flood and both of the other's, oldest first.
        let mut mixed: Vec<Due> = (0..30).map(|i| due(i, "wsp_flood")).collect();
        mixed.push(due(30, "wsp_b"));
        mixed.push(due(31, "wsp_b"));
        let taken = fair_share(mixed, 16);
        let flood = taken
            .iter()
            .filter(|d| d.workspace_id == "wsp_flood")
            .count();
        assert_eq!(flood as i64, PER_WORKSPACE);
        assert_eq!(
            taken.iter().filter(|d| d.workspace_id == "wsp_b").count(),
            2
        );
        assert!(taken.windows(2).all(|w| w[0].run_at < w[1].run_at));
    }
}
