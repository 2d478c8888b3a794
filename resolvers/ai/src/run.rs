//! Running AI jobs. A job's call to the model takes seconds to minutes, so a pass of the
//! queue does not wait for it: the pass marks each claimed job running and starts it on its
//! own task, which ends the queue's job when it finishes (the job row and the queue row in
//! one transaction). The lease covers two calls and the checks; a process that dies leaves
//! its jobs to come back when their leases run out, and they run again from the start.
//!
//! Bounds: jobs running at once per process (`running_per_process`) and per workspace across
//! processes (`running_per_workspace`; the pass puts a job back for two seconds when its
//! workspace is full), tokens a workspace spends a day (checked before every call), the
//! provider's own time-out per call, and two calls per job at most (one repair round).
//!
//! Cancelling: the running task looks at its row every second (and at once when a cancel in
//! this process wakes it); a cancelled job's call is dropped, which closes the connection
//! and stops a local server's generation, and nothing more is counted.

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use sea_orm::Value;
use signet_core::actor::{Principal, Scopes};
use signet_core::jobs::{Claimed, Handler};
use signet_core::{Actor, Ctx, DomainError, Mode};
use signet_storage::sql::Sql;
use tokio::sync::Notify;

use crate::provider::Failure;
use crate::service::{AiJob, ai};
use crate::store::{self, Input, JobRow, Output};

pub struct AiJobs;

static RUNNING: AtomicUsize = AtomicUsize::new(0);

fn wakers() -> &'static Mutex<HashMap<String, Arc<Notify>>> {
    static W: OnceLock<Mutex<HashMap<String, Arc<Notify>>>> = OnceLock::new();
    W.get_or_init(Default::default)
}

/// Wakes job `id`'s task in this process, if it runs here (a cancel).
pub fn wake(id: &str) {
    if let Some(n) = wakers().lock().unwrap_or_else(|p| p.into_inner()).get(id) {
        n.notify_one();
    }
}

#[async_trait::async_trait]
impl Handler for AiJobs {
    type Job = AiJob;
    const BATCH: i64 = 8;

    fn lease_ms(ctx: &Ctx) -> i64 {
        ai(ctx).lease_ms()
    }

    async fn run(ctx: &Ctx, claimed: Vec<Claimed>) -> Result<(), DomainError> {
        for c in claimed {
            if let Err(e) = take(ctx, &c).await {
                tracing::warn!(job = %c.job, error = %e, "starting an AI job failed");
                signet_queue::retry_later(&ctx.db, &c).await?;
            }
        }
        Ok(())
    }

    /// A job whose every try failed, or whose worker died each time, says so rather than
    /// staying queued or running for ever.
    async fn gave_up(ctx: &Ctx, jobs: &[Claimed]) -> Result<(), DomainError> {
        for c in jobs {
            let Ok(job) = c.decode::<AiJob>() else {
                continue;
            };
            let why = "every try to run the job failed or stopped its worker";
            store::end_unfinished(ctx, &job.id, "failed", why).await?;
        }
        Ok(())
    }
}

/// Starts one claimed job on its own task, or puts it back.
async fn take(ctx: &Ctx, c: &Claimed) -> Result<(), DomainError> {
    let job: AiJob = c
        .decode()
        .map_err(|e| DomainError::Internal(format!("an AI job's payload: {e}")))?;
    let Some(row) = store::load_any(ctx, &job.id).await? else {
        signet_queue::done(&ctx.db, &c.job).await?;
        return Ok(());
    };
    if !matches!(row.state.as_str(), "queued" | "running") {
        signet_queue::done(&ctx.db, &c.job).await?;
        return Ok(());
    }
    let limits = &ai(ctx).limits;
    let full = RUNNING.load(Ordering::SeqCst) >= limits.running_per_process
        || (row.state == "queued"
            && store::running(ctx, &row.workspace_id).await? >= limits.running_per_workspace);
    if full {
        signet_queue::release_until(&ctx.db, c, ctx.now() + 2_000).await?;
        return Ok(());
    }
    let Some(p) = ai(ctx).provider.clone() else {
        finish(
            ctx,
            &row,
            &c.job,
            Err((
                "AI drafting is no longer set up on this installation".into(),
                vec![],
            )),
        )
        .await?;
        return Ok(());
    };
    let n = ctx
        .db
        .write(ctx.db.stmt(
            "UPDATE ai_jobs SET state = 'running', started_at = COALESCE(started_at, $1), \
             provider = $2, model = $3 WHERE id = $4 AND state IN ('queued', 'running')",
            [
                Value::from(ctx.now()),
                Value::from(p.settings.kind.as_str()),
                Value::from(p.settings.model.clone()),
                Value::from(row.id.clone()),
            ],
        ))
        .await?;
    if n == 0 {
        signet_queue::done(&ctx.db, &c.job).await?;
        return Ok(());
    }
    RUNNING.fetch_add(1, Ordering::SeqCst);
    let notify = Arc::new(Notify::new());
    wakers()
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .insert(row.id.clone(), notify.clone());
    let (ctx, queue_job) = (ctx.clone(), c.job.clone());
    tokio::spawn(async move {
        let id = row.id.clone();
        let outcome = tokio::select! {
            o = execute(&ctx, &row) => Some(o),
            () = cancelled(&ctx, &id, &notify) => None,
        };
        let ended = match outcome {
            Some(o) => finish(&ctx, &row, &queue_job, o).await,
            None => signet_queue::done(&ctx.db, &queue_job)
                .await
                .map_err(DomainError::from),
        };
        if let Err(e) = ended {
            tracing::warn!(job = %id, error = %e, "recording an AI job's end failed");
        }
        wakers()
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .remove(&id);
        RUNNING.fetch_sub(1, Ordering::SeqCst);
    });
    Ok(())
}

/// Answers when the job's row says cancelled.
async fn cancelled(ctx: &Ctx, id: &str, notify: &Notify) {
    loop {
        let _ = tokio::time::timeout(Duration::from_secs(1), notify.notified()).await;
        if let Ok(Some(s)) = store::state(ctx, id).await
            && s == "cancelled"
        {
            return;
        }
    }
}

type Outcome = Result<Output, (String, Vec<String>)>;

/// Records how the job ended and ends the queue's job, in one transaction. A job cancelled
/// meanwhile stays cancelled.
async fn finish(
    ctx: &Ctx,
    row: &JobRow,
    queue_job: &str,
    outcome: Outcome,
) -> Result<(), DomainError> {
    let (state, output, reason, problems) = match outcome {
        Ok(o) => (
            "done",
            Some(serde_json::to_string(&o).unwrap_or_default()),
            None,
            None,
        ),
        Err((reason, problems)) => (
            "failed",
            None,
            Some(reason),
            Some(serde_json::to_string(&problems).unwrap_or_default()),
        ),
    };
    let (db, id, qj, now) = (
        ctx.db.clone(),
        row.id.clone(),
        queue_job.to_string(),
        ctx.now(),
    );
    ctx.db
        .transaction(move |t| async move {
            t.exec(db.stmt(
                "UPDATE ai_jobs SET state = $1, output = $2, reason = $3, problems = $4, \
                 finished_at = $5 WHERE id = $6 AND state = 'running'",
                [
                    Value::from(state),
                    Value::from(output),
                    Value::from(reason),
                    Value::from(problems),
                    Value::from(now),
                    Value::from(id),
                ],
            ))
            .await?;
            signet_queue::finish(&db, &*t, &qj).await?;
            Ok::<_, DomainError>(())
        })
        .await
}

/// The actor the job's checks run as: its workspace, reading only.
fn reader(row: &JobRow) -> Actor {
    let mode = Mode::parse(&row.mode).unwrap_or(Mode::Test);
    Actor {
        workspace_id: row.workspace_id.clone().into(),
        workspace_name: String::new(),
        principal: Principal::Named {
            recorded: format!("ai:{}", row.id),
        },
        mode,
        scopes: Scopes::from_iter([signet_core::Scope::DocumentsRead]),
        plan: signet_core::plans::Plan::Free,
        draft_only: true,
        daily_limit: None,
        per_minute: 60,
        client: None,
        workspace_test: false,
        own_mode: mode,
    }
}

/// Asks the model, checks the answer, and asks once more with the exact problems when it
/// does not pass.
async fn execute(ctx: &Ctx, row: &JobRow) -> Outcome {
    let Some(input) = &row.input else {
        return Err(("the job's request was purged before it ran".into(), vec![]));
    };
    let Some(provider) = ai(ctx).provider.clone() else {
        return Err((
            "AI drafting is no longer set up on this installation".into(),
            vec![],
        ));
    };
    let mut ask = match input {
        Input::Draft {
            prompt,
            brief,
            template,
        } => crate::prompt::draft(prompt.as_deref(), brief, *template),
        Input::Edit {
            request,
            source,
            template,
            variables,
            roles,
        } => crate::prompt::edit(request, source, *template, roles, variables),
    };
    let reader = reader(row);
    let mut last: (String, Vec<String>) = (String::new(), vec![]);
    for round in 0..2 {
        let day = chrono::Utc::now().format("%Y-%m-%d").to_string();
        let spent = store::usage(ctx, &row.workspace_id, &day)
            .await
            .map_err(|e| (e.to_string(), vec![]))?
            .1;
        if spent as u64 >= ai(ctx).limits.tokens_per_day {
            return Err((
                "this workspace's AI drafting used its tokens for today (UTC)".into(),
                vec![],
            ));
        }
        let t0 = Instant::now();
        let res = provider.ask(&ask).await;
        let usage = match &res {
            Ok(a) => a.usage,
            Err(f) => f.usage,
        };
        let ms = t0.elapsed().as_millis() as i64;
        if let Err(e) = store::spend(ctx, row, &day, usage.input, usage.output, ms).await {
            tracing::warn!(job = %row.id, error = %e, "counting an AI job's tokens failed");
        }
        let answer = match res {
            Ok(a) => a,
            Err(Failure {
                reason, repairable, ..
            }) => {
                if repairable && round == 0 {
                    crate::prompt::repair(&mut ask, None, std::slice::from_ref(&reason));
                    last = (reason, vec![]);
                    continue;
                }
                return Err((reason, vec![]));
            }
        };
        let checked = match input {
            Input::Draft {
                brief, template, ..
            } => crate::outcome::draft(ctx, &reader, brief, *template, &answer.value).await,
            Input::Edit {
                source,
                template,
                variables,
                roles,
                ..
            } => {
                crate::outcome::edit(
                    ctx,
                    &reader,
                    source,
                    *template,
                    roles,
                    variables,
                    &answer.value,
                )
                .await
            }
        };
        match checked {
            Ok(o) => return Ok(o),
            Err(problems) => {
                crate::prompt::repair(&mut ask, Some(&answer.text), &problems);
                last = (
                    "the model's answer did not pass the check, after one repair round".into(),
                    problems,
                );
            }
        }
    }
    Err(last)
}
