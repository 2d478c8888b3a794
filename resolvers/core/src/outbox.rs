//! Leased jobs in the outbox (`render`, `seal`, `email`): what the workers share. A job is
//! claimed by a conditional UPDATE that moves its `run_at` to the end of a lease, so a process
//! that dies mid-job leaves a lease that runs out and the next worker takes it again. A try
//! that fails, or kills its process, comes back after a growing back-off; after
//! `MAX_ATTEMPTS` the job is marked `failed` and logged loudly.

use sea_orm::{ConnectionTrait, Value};
use signet_storage::Sql;
use signet_storage::now_ms;

use crate::jobs::JobKind;
use crate::{Ctx, DomainError};

/// The `run_at` of a job held until something else happens first: a document's first
/// invitations wait for its pages to be rendered (nobody is invited to a document whose
/// pages may never exist). Never due; released by [`release_held`].
pub const HELD: i64 = i64::MAX;

/// Makes the jobs of `doc_id` held at [`HELD`] due now, in the caller's transaction.
pub async fn release_held<C: Sql>(ctx: &Ctx, conn: &C, doc_id: &str) -> Result<u64, DomainError> {
    Ok(conn
        .exec(ctx.db.stmt(
            "UPDATE outbox SET run_at = $2 WHERE document_id = $1 AND state = 'queued' AND run_at = $3",
            [Value::from(doc_id.to_string()), Value::from(now_ms()), Value::from(HELD)],
        ))
        .await?)
}

/// Tries before a job is marked failed (about 4 hours of back-off in all).
pub const MAX_ATTEMPTS: i32 = 12;

/// Wait after the n-th failed try: 5 s, 10 s, 20 s ... up to an hour.
pub fn backoff(attempts: i32) -> i64 {
    if attempts <= 0 {
        0
    } else {
        (5_000i64 << (attempts - 1).clamp(0, 10)).min(3_600_000)
    }
}

/// A job this worker holds until `lease`: the runner (`signet-workers`) claims a pass of them
/// and hands them to the kind's `run_*`, which ends each one (done, a later try, given up).
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

/// Jobs of one kind a workspace may take in one pass while others wait: a workspace that
/// queues a flood of renders holds at most half of a pass, and the others' jobs are taken
/// from behind its queue.
pub const PER_WORKSPACE: i64 = 8;
/// How many batches deep a claim looks for other workspaces' jobs.
const WINDOW: i64 = 16;

/// Claims up to `batch` due jobs of `kind`, oldest first, at most [`PER_WORKSPACE`] of one
/// workspace when others have jobs due. Others' jobs are found behind one workspace's flood as
/// far as `WINDOW` batches reach; a deeper flood is bounded by what a workspace may send (its
/// per-minute budget, its test sends a day, `max_pages`).
pub async fn claim(
    ctx: &Ctx,
    kind: JobKind,
    batch: i64,
    lease_ms: i64,
) -> Result<Vec<Claimed>, DomainError> {
    let now = now_ms();
    // The oldest due jobs of a window larger than the batch, so that others' jobs are found
    // behind one workspace's flood (as far as the window reaches).
    let window = batch * WINDOW;
    let values = vec![
        Value::from(now),
        Value::from(window),
        Value::from(kind.as_str()),
    ];
    let due = ctx
        .db
        .conn
        .query_all_raw(ctx.db.stmt(
            "SELECT id, workspace_id, document_id, payload, state, attempts, run_at FROM outbox \
             WHERE kind = $3 AND state IN ('queued', 'running') AND run_at <= $1 \
             ORDER BY run_at, id LIMIT $2",
            values,
        ))
        .await?;
    if due.is_empty() {
        return Ok(Vec::new());
    }
    let mut seen = Vec::with_capacity(due.len());
    let mut per_workspace: std::collections::HashMap<String, i64> = Default::default();
    let workspaces: std::collections::HashSet<String> = due
        .iter()
        .map(|r| r.try_get::<String>("", "workspace_id"))
        .collect::<Result<_, _>>()?;
    // A workspace alone in the queue takes whole batches.
    let cap = if workspaces.len() > 1 {
        PER_WORKSPACE
    } else {
        batch
    };
    for r in &due {
        if seen.len() as i64 >= batch {
            break;
        }
        let n = per_workspace
            .entry(r.try_get::<String>("", "workspace_id")?)
            .or_default();
        *n += 1;
        if *n > cap {
            continue;
        }
        seen.push((
            r.try_get::<String>("", "id")?,
            r.try_get::<String>("", "workspace_id")?,
            r.try_get::<Option<String>>("", "document_id")?,
            r.try_get::<String>("", "payload")?,
            r.try_get::<i32>("", "attempts")?,
            r.try_get::<i64>("", "run_at")?,
            r.try_get::<String>("", "state")?,
        ));
    }
    // Every lease of the pass in one transaction. Each is taken only if nobody took it since
    // the read.
    let (c, kind) = (ctx.clone(), kind.as_str());
    ctx.db
        .transaction(move |txn| async move {
            let mut out = Vec::with_capacity(seen.len());
            for (job, workspace_id, doc_id, payload, attempts, run_at, state) in seen {
                if attempts >= MAX_ATTEMPTS {
                    // Every try failed, or killed its process: stop, and say so loudly. An
                    // operator re-queues the job once the cause is mended.
                    txn.exec(c.db.stmt(
                        "UPDATE outbox SET state = 'failed' WHERE id = $1 AND state = $2 AND run_at = $3",
                        [Value::from(job.clone()), Value::from(state), Value::from(run_at)],
                    ))
                    .await?;
                    tracing::error!(kind, document = ?doc_id, attempts, "a document job gave up after every try failed");
                    // An email's log row says so rather than waiting for ever.
                    txn.exec(c.db.stmt(
                        "UPDATE emails SET status = 'failed', reason = 'every try failed or stopped its worker' \
                         WHERE job_id = $1 AND status IN ('queued', 'paused')",
                        [Value::from(job.clone())],
                    ))
                    .await?;
                    continue;
                }
                let lease = now_ms() + lease_ms + backoff(attempts);
                let claimed = txn
                    .exec(c.db.stmt(
                        "UPDATE outbox SET state = 'running', attempts = attempts + 1, run_at = $4 \
                         WHERE id = $1 AND state = $2 AND run_at = $3",
                        [
                            Value::from(job.clone()),
                            Value::from(state),
                            Value::from(run_at),
                            Value::from(lease),
                        ],
                    ))
                    .await?;
                if claimed == 1 {
                    out.push(Claimed {
                        job,
                        workspace_id,
                        doc_id,
                        payload,
                        attempts,
                        lease,
                    });
                }
            }
            Ok::<_, DomainError>(out)
        })
        .await
}

/// Gives back the leases of claimed jobs that never ran (a stopping worker's): each is queued
/// again at once, its try not counted, while the lease is still ours.
pub async fn give_back(ctx: &Ctx, jobs: &[Claimed]) -> Result<usize, DomainError> {
    let mut given = 0;
    for c in jobs {
        given += ctx
            .db
            .write(ctx.db.stmt(
                "UPDATE outbox SET state = 'queued', attempts = attempts - 1, run_at = $2 \
                 WHERE id = $1 AND state = 'running' AND run_at = $3",
                [
                    Value::from(c.job.clone()),
                    Value::from(now_ms()),
                    Value::from(c.lease),
                ],
            ))
            .await? as usize;
    }
    Ok(given)
}

/// Puts a failed try back in the queue after its back-off, only while the lease is still
/// ours: another worker may have taken it over.
pub async fn retry_later(ctx: &Ctx, c: &Claimed) -> Result<(), DomainError> {
    ctx.db
        .write(ctx.db.stmt(
            "UPDATE outbox SET state = 'queued', run_at = $2 \
             WHERE id = $1 AND state = 'running' AND run_at = $3",
            [
                Value::from(c.job.clone()),
                Value::from(now_ms() + backoff(c.attempts + 1)),
                Value::from(c.lease),
            ],
        ))
        .await?;
    Ok(())
}

fn finish_stmt(ctx: &Ctx, job: &str) -> sea_orm::Statement {
    ctx.db.stmt(
        "UPDATE outbox SET state = 'done' WHERE id = $1",
        [Value::from(job.to_string())],
    )
}

/// Ends a job inside the transaction of the work it did.
pub async fn finish<C: Sql>(ctx: &Ctx, conn: &C, job: &str) -> Result<(), DomainError> {
    conn.exec(finish_stmt(ctx, job)).await?;
    Ok(())
}

/// Puts a job back for the next pass without spending a try: it was claimed but not taken
/// up (its pass was full), while the lease is still ours.
pub async fn release(ctx: &Ctx, c: &Claimed) -> Result<(), DomainError> {
    ctx.db
        .write(ctx.db.stmt(
            "UPDATE outbox SET state = 'queued', attempts = attempts - 1, run_at = $2 \
             WHERE id = $1 AND state = 'running' AND run_at = $3",
            [
                Value::from(c.job.clone()),
                Value::from(now_ms() + 1_000),
                Value::from(c.lease),
            ],
        ))
        .await?;
    Ok(())
}

/// Ends a job that no later try could finish (its input decides the failure), while the
/// lease is still ours.
pub async fn give_up(ctx: &Ctx, c: &Claimed) -> Result<(), DomainError> {
    ctx.db
        .write(ctx.db.stmt(
            "UPDATE outbox SET state = 'failed' WHERE id = $1 AND state = 'running' AND run_at = $2",
            [Value::from(c.job.clone()), Value::from(c.lease)],
        ))
        .await?;
    Ok(())
}

/// Ends a job on its own (not inside a transition's transaction).
pub async fn done(ctx: &Ctx, job: &str) -> Result<(), DomainError> {
    ctx.db.write(finish_stmt(ctx, job)).await?;
    Ok(())
}

/// Which files of a document's folder a committed try may remove (see `remove_leftovers`).
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Leftovers {
    /// Renders only: a seal may be writing its file while a render commits (sealing renders
    /// a signed document the render worker has not reached), and its row commits after.
    Renders,
    /// Renders and seals the row does not name: once sealed, no try of either kind can
    /// commit. Files of other kinds are left alone.
    All,
}

/// Removes what earlier tries of a document's job left in its folder: a try writes its file
/// under a name of its own before the row that names it commits, so one that failed or died
/// in between (or lost a race) leaves a file no row names. Called when a later try of the
/// same job ends, and only when there was an earlier try (`attempts > 0`), so a document's
/// first, clean try costs nothing. A file the row names is never removed.
pub async fn remove_leftovers(
    ctx: &Ctx,
    doc_id: &str,
    which: Leftovers,
) -> Result<usize, DomainError> {
    let row = ctx
        .db
        .conn
        .query_one_raw(ctx.db.stmt(
            "SELECT pdf_blob, sealed_blob FROM documents WHERE id = $1",
            [Value::from(doc_id.to_string())],
        ))
        .await?;
    let Some(row) = row else {
        return Ok(0);
    };
    let pdf: Option<String> = row.try_get("", "pdf_blob")?;
    let sealed: Option<String> = row.try_get("", "sealed_blob")?;
    // Only once the row names the file of that kind can no other try of it commit (renders
    // and seals commit only over an empty column or an unsealed state): before that, a file
    // no row names yet may be a try still on its way.
    let settled = match which {
        Leftovers::Renders => pdf.is_some(),
        Leftovers::All => sealed.is_some(),
    };
    if !settled {
        return Ok(0);
    }
    let named: Vec<String> = [pdf, sealed].into_iter().flatten().collect();
    let mut removed = 0;
    for key in ctx.blobs.list(&format!("documents/{doc_id}")).await? {
        let name = key.rsplit('/').next().unwrap_or_default();
        let ours =
            name.starts_with("render") || (which == Leftovers::All && name.starts_with("sealed-"));
        // A named file's pictures and text share its name.
        let belongs = named
            .iter()
            .any(|n| key.starts_with(&format!("{}.", n.trim_end_matches(".pdf"))));
        if named.contains(&key) || belongs || !ours {
            continue;
        }
        ctx.blobs.delete(&key).await?;
        removed += 1;
    }
    if removed > 0 {
        tracing::info!(
            document = doc_id,
            removed,
            "removed files earlier tries left"
        );
    }
    Ok(removed)
}
