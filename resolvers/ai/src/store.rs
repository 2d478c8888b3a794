//! The `ai_jobs` and `ai_usage` tables: the one module that reads and writes them.

use sea_orm::{ConnectionTrait, Value};
use serde::{Deserialize, Serialize};
use signet_core::clock::time;
use signet_core::{Ctx, DomainError};
use signet_storage::sql::{Cells, Sql};

use crate::brief::Brief;
use crate::types::{AiJobOut, AiPatchesOut, AiSeatOut, AiUsageOut};

/// What a job was asked: kept until its purge time, then emptied.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Input {
    Draft {
        prompt: Option<String>,
        brief: Brief,
        template: bool,
    },
    Edit {
        request: String,
        source: serde_json::Value,
        template: bool,
        /// The questions to propose answers for: name and label.
        variables: Vec<(String, Option<String>)>,
        /// The seats the words' fields and blocks name.
        roles: Vec<String>,
    },
}

/// What a finished job answered.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Output {
    pub title: Option<String>,
    pub source: Option<serde_json::Value>,
    pub seats: Vec<(String, String)>,
    pub patches: AiPatchesOut,
}

#[derive(Clone, Debug)]
pub struct JobRow {
    pub id: String,
    pub workspace_id: String,
    pub mode: String,
    pub kind: String,
    pub state: String,
    pub input: Option<Input>,
    pub output: Option<Output>,
    pub reason: Option<String>,
    pub problems: Vec<String>,
    pub provider: Option<String>,
    pub model: Option<String>,
    pub tokens_in: i64,
    pub tokens_out: i64,
    pub calls: i64,
    pub model_ms: i64,
    pub created_at: i64,
    pub started_at: Option<i64>,
    pub finished_at: Option<i64>,
    /// The draft document a play's tailoring proposes changes to.
    pub document_id: Option<String>,
}

const COLUMNS: &str = "id, workspace_id, mode, kind, state, input, output, reason, problems, \
    provider, model, tokens_in, tokens_out, calls, model_ms, created_at, started_at, finished_at, \
    document_id";

fn read<R: Cells>(r: &R) -> Result<JobRow, DomainError> {
    let json =
        |c: &str| -> Result<Option<String>, DomainError> { Ok(r.cell::<Option<String>>(c)?) };
    Ok(JobRow {
        id: r.cell("id")?,
        workspace_id: r.cell("workspace_id")?,
        mode: r.cell("mode")?,
        kind: r.cell("kind")?,
        state: r.cell("state")?,
        input: json("input")?.and_then(|s| serde_json::from_str(&s).ok()),
        output: json("output")?.and_then(|s| serde_json::from_str(&s).ok()),
        reason: r.cell("reason")?,
        problems: json("problems")?
            .and_then(|s| serde_json::from_str(&s).ok())
            .unwrap_or_default(),
        provider: r.cell("provider")?,
        model: r.cell("model")?,
        tokens_in: r.cell("tokens_in")?,
        tokens_out: r.cell("tokens_out")?,
        calls: r.cell::<i32>("calls")? as i64,
        model_ms: r.cell("model_ms")?,
        created_at: r.cell("created_at")?,
        started_at: r.cell("started_at")?,
        finished_at: r.cell("finished_at")?,
        document_id: r.cell("document_id")?,
    })
}

/// A job of the workspace and mode, or 404 (another workspace's or mode's job is not there).
pub async fn load(
    ctx: &Ctx,
    workspace_id: &str,
    mode: &str,
    id: &str,
) -> Result<JobRow, DomainError> {
    let missing = || DomainError::NotFound("no such AI job".into());
    if !signet_storage::ids::has_shape(id, "job") {
        return Err(missing());
    }
    let row = ctx
        .db
        .conn
        .query_one_raw(ctx.db.stmt(
            &format!(
                "SELECT {COLUMNS} FROM ai_jobs WHERE id = $1 AND workspace_id = $2 AND mode = $3"
            ),
            [
                Value::from(id),
                Value::from(workspace_id),
                Value::from(mode),
            ],
        ))
        .await?;
    row.as_ref().map(read).transpose()?.ok_or_else(missing)
}

/// A job by id alone, for its worker.
pub async fn load_any(ctx: &Ctx, id: &str) -> Result<Option<JobRow>, DomainError> {
    let row = ctx
        .db
        .conn
        .query_one_raw(ctx.db.stmt(
            &format!("SELECT {COLUMNS} FROM ai_jobs WHERE id = $1"),
            [Value::from(id)],
        ))
        .await?;
    row.as_ref().map(read).transpose()
}

/// A job's state alone: what a running job watches for a cancel.
pub async fn state(ctx: &Ctx, id: &str) -> Result<Option<String>, DomainError> {
    let row = ctx
        .db
        .conn
        .query_one_raw(
            ctx.db
                .stmt("SELECT state FROM ai_jobs WHERE id = $1", [Value::from(id)]),
        )
        .await?;
    Ok(match row {
        Some(r) => Some(r.cell("state")?),
        None => None,
    })
}

/// Ends a job that has not ended (`cancelled` or `failed`) with its reason.
pub async fn end_unfinished(
    ctx: &Ctx,
    id: &str,
    state: &str,
    reason: &str,
) -> Result<(), DomainError> {
    ctx.db
        .write(ctx.db.stmt(
            "UPDATE ai_jobs SET state = $1, finished_at = $2, reason = $3 \
             WHERE id = $4 AND state IN ('queued', 'running')",
            [
                Value::from(state),
                Value::from(ctx.now()),
                Value::from(reason),
                Value::from(id),
            ],
        ))
        .await?;
    Ok(())
}

/// Jobs of the workspace running now.
pub async fn running(ctx: &Ctx, workspace_id: &str) -> Result<i64, DomainError> {
    let row = ctx
        .db
        .conn
        .query_one_raw(ctx.db.stmt(
            "SELECT COUNT(*) AS n FROM ai_jobs WHERE workspace_id = $1 AND state = 'running'",
            [Value::from(workspace_id)],
        ))
        .await?;
    Ok(match row {
        Some(r) => r.cell("n")?,
        None => 0,
    })
}

/// Counts one more job of the workspace today, unless it already started `limit`: answers
/// whether it was counted. One statement, so two requests at once cannot both take the last.
pub async fn count_job<C: Sql>(
    ctx: &Ctx,
    conn: &C,
    workspace_id: &str,
    day: &str,
    limit: i64,
) -> Result<bool, DomainError> {
    let n = conn
        .exec(ctx.db.stmt(
            "INSERT INTO ai_usage (workspace_id, day, jobs, tokens) VALUES ($1, $2, 1, 0) \
             ON CONFLICT (workspace_id, day) DO UPDATE SET jobs = ai_usage.jobs + 1 \
             WHERE ai_usage.jobs < $3",
            [
                Value::from(workspace_id),
                Value::from(day),
                Value::from(limit),
            ],
        ))
        .await?;
    Ok(n > 0)
}

/// The workspace's jobs and tokens of `day`.
pub async fn usage(ctx: &Ctx, workspace_id: &str, day: &str) -> Result<(i64, i64), DomainError> {
    let row = ctx
        .db
        .conn
        .query_one_raw(ctx.db.stmt(
            "SELECT jobs, tokens FROM ai_usage WHERE workspace_id = $1 AND day = $2",
            [Value::from(workspace_id), Value::from(day)],
        ))
        .await?;
    Ok(match row {
        Some(r) => (r.cell("jobs")?, r.cell("tokens")?),
        None => (0, 0),
    })
}

/// Adds tokens a call spent to the job and to the workspace's day.
pub async fn spend(
    ctx: &Ctx,
    job: &JobRow,
    day: &str,
    input: u64,
    output: u64,
    ms: i64,
) -> Result<(), DomainError> {
    let (id, ws, day) = (job.id.clone(), job.workspace_id.clone(), day.to_string());
    let (i, o) = (input as i64, output as i64);
    let db = ctx.db.clone();
    ctx.db
        .transaction(move |t| async move {
            t.exec(db.stmt(
                "UPDATE ai_jobs SET tokens_in = tokens_in + $1, tokens_out = tokens_out + $2, \
                 calls = calls + 1, model_ms = model_ms + $3 WHERE id = $4",
                [
                    Value::from(i),
                    Value::from(o),
                    Value::from(ms),
                    Value::from(id),
                ],
            ))
            .await?;
            t.exec(db.stmt(
                "INSERT INTO ai_usage (workspace_id, day, jobs, tokens) VALUES ($1, $2, 0, $3) \
                 ON CONFLICT (workspace_id, day) DO UPDATE SET tokens = ai_usage.tokens + $3",
                [Value::from(ws), Value::from(day), Value::from(i + o)],
            ))
            .await?;
            Ok::<_, DomainError>(())
        })
        .await
}

/// The job as the routes answer it.
pub fn out(j: &JobRow) -> AiJobOut {
    let done = j.state == "done";
    let output = j.output.as_ref().filter(|_| done);
    AiJobOut {
        id: j.id.clone(),
        kind: j.kind.clone(),
        state: j.state.clone(),
        mode: match &j.input {
            Some(Input::Draft { template: true, .. } | Input::Edit { template: true, .. }) => {
                "template"
            }
            _ => "document",
        }
        .into(),
        reason: j.reason.clone(),
        title: output.and_then(|o| o.title.clone()),
        problems: j.problems.clone(),
        source: output
            .and_then(|o| o.source.clone())
            .map(async_graphql::Json),
        patches: output.map(|o| o.patches.clone()),
        seats: output
            .map(|o| {
                o.seats
                    .iter()
                    .map(|(role, label)| AiSeatOut {
                        role: role.clone(),
                        label: label.clone(),
                    })
                    .collect()
            })
            .unwrap_or_default(),
        usage: AiUsageOut {
            provider: j.provider.clone(),
            model: j.model.clone(),
            read: j.tokens_in,
            written: j.tokens_out,
            calls: j.calls,
            model_ms: j.model_ms,
        },
        created_at: time(j.created_at),
        started_at: j.started_at.map(time),
        finished_at: j.finished_at.map(time),
        document_id: j.document_id.clone(),
    }
}
