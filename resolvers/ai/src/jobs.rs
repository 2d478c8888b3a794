//! The AI routes' request side: start a draft or an edit (checked, gated, counted and queued
//! in one transaction), read a job, cancel it, and the wizard. The work itself is `run`.

use chrono::Utc;
use sea_orm::Value;
use signet_core::actor::Scopes;
use signet_core::{Actor, Ctx, DomainError, Scope};
use signet_queue::Owner;

use crate::brief::{self, Brief};
use crate::service::{AiJob, ai};
use crate::store::{self, Input};
use crate::types::{AiDraftIn, AiEditIn, AiJobOut, WizardOut};

pub const MAX_VARIABLES: usize = 100;

fn template_mode(field: &str, v: Option<&str>) -> Result<Option<bool>, DomainError> {
    match v.map(str::trim) {
        None | Some("") => Ok(None),
        Some("document") => Ok(Some(false)),
        Some("template") => Ok(Some(true)),
        Some(_) => Err(DomainError::invalid(field, "must be document or template")),
    }
}

/// Refuses plainly when AI drafting cannot run for this workspace: no model configured, the
/// workspace's switch off, or its day's tokens spent. Answers the day (UTC) it counts under.
async fn gate(ctx: &Ctx, actor: &Actor) -> Result<(String, i64), DomainError> {
    if ai(ctx).provider.is_none() {
        return Err(DomainError::Forbidden(
            "AI drafting is not set up on this installation: its operator configures a model \
             (ai_provider, ai_base_url, ai_model; see docs/ai.md)"
                .into(),
        ));
    }
    let settings = signet_accounts::workspaces::settings(ctx, &actor.workspace_id).await?;
    if !settings.ai_drafting {
        return Err(DomainError::Forbidden(
            "AI drafting is off for this workspace: an owner or admin turns it on in the \
             application's Settings (or the operator with `signet admin workspace update --ai on`)"
                .into(),
        ));
    }
    let now = Utc::now();
    let day = now.format("%Y-%m-%d").to_string();
    let (_, tokens) = store::usage(ctx, &actor.workspace_id, &day).await?;
    if tokens as u64 >= ai(ctx).limits.tokens_per_day {
        return Err(DomainError::RateLimited {
            message: format!(
                "this workspace's AI drafting used its {} tokens for today (UTC); more are \
                 allowed from midnight UTC",
                ai(ctx).limits.tokens_per_day
            ),
            retry_after_secs: signet_core::limits::until_midnight(now),
        });
    }
    Ok((day, settings.ai_daily_limit))
}

/// Writes the job and queues it, counting it against the workspace's jobs of the day.
async fn start(
    ctx: &Ctx,
    actor: &Actor,
    kind: &str,
    input: Input,
    document_id: Option<&str>,
) -> Result<AiJobOut, DomainError> {
    let (day, daily) = gate(ctx, actor).await?;
    let document_id = document_id.map(str::to_string);
    let id = signet_storage::ids::new_id("job");
    let now = ctx.now();
    let keep = ai(ctx).limits.keep.as_millis() as i64;
    let (ctx2, ws, mode, by) = (
        ctx.clone(),
        actor.workspace_id.to_string(),
        actor.mode.as_str().to_string(),
        actor.recorded().to_string(),
    );
    let (job_id, kind_s, input_s) = (
        id.clone(),
        kind.to_string(),
        serde_json::to_string(&input).unwrap_or_default(),
    );
    let test = actor.mode == signet_core::Mode::Test;
    let queued = ctx
        .db
        .transaction(move |t| async move {
            let c = &ctx2;
            if !store::count_job(c, &*t, &ws, &day, daily).await? {
                return Err(DomainError::RateLimited {
                    message: format!(
                        "this workspace started its {daily} AI drafting jobs for today (UTC); an \
                         owner or admin can raise the daily allowance in Settings; more are \
                         allowed from midnight UTC"
                    ),
                    retry_after_secs: signet_core::limits::until_midnight(Utc::now()),
                });
            }
            use signet_storage::sql::Sql;
            t.exec(c.db.stmt(
                "INSERT INTO ai_jobs (id, workspace_id, mode, kind, state, input, created_by, \
                 created_at, purge_after, document_id) \
                 VALUES ($1, $2, $3, $4, 'queued', $5, $6, $7, $8, $9)",
                [
                    Value::from(job_id.clone()),
                    Value::from(ws.clone()),
                    Value::from(mode),
                    Value::from(kind_s),
                    Value::from(input_s),
                    Value::from(by),
                    Value::from(now),
                    Value::from(now + keep),
                    Value::from(document_id),
                ],
            ))
            .await?;
            let owner = Owner {
                workspace_id: &ws,
                document_id: None,
                test,
            };
            Ok::<_, DomainError>(
                signet_queue::enqueue(&*t, &c.db, &AiJob { id: job_id }, owner).await?,
            )
        })
        .await?;
    ctx.queued(queued).await;
    // Answered to a key that may only start jobs (documents:write without read) too.
    let j = store::load(ctx, &actor.workspace_id, actor.mode.as_str(), &id).await?;
    Ok(store::out(&j))
}

/// POST /documents/ai/draft.
pub async fn draft(ctx: &Ctx, actor: &Actor, body: AiDraftIn) -> Result<AiJobOut, DomainError> {
    actor.require(Scope::DocumentsWrite)?;
    let mode = template_mode("mode", body.mode.as_deref())?;
    let prompt = brief::prompt(body.prompt.as_deref())?;
    let (brief, kind) = match &body.brief {
        Some(b) => brief::read(b)?,
        None => (Brief::default(), None),
    };
    let kind = template_mode("brief.kind", kind.as_deref())?;
    if let (Some(m), Some(k)) = (mode, kind)
        && m != k
    {
        return Err(DomainError::invalid("brief.kind", "must agree with mode"));
    }
    if prompt.is_none() && brief.is_empty() {
        return Err(DomainError::invalid(
            "prompt",
            "give a prompt, a brief, or both",
        ));
    }
    let template = mode.or(kind).unwrap_or(false);
    start(
        ctx,
        actor,
        "draft",
        Input::Draft {
            prompt,
            brief,
            template,
        },
        None,
    )
    .await
}

/// POST /documents/ai/edit.
pub async fn edit(ctx: &Ctx, actor: &Actor, body: AiEditIn) -> Result<AiJobOut, DomainError> {
    actor.require(Scope::DocumentsWrite)?;
    let template = template_mode("mode", body.mode.as_deref())?.unwrap_or(false);
    let request = brief::prompt(Some(&body.request))
        .map_err(|_| {
            DomainError::invalid(
                "request",
                format!("must be 1 to {} characters of text", brief::MAX_PROMPT),
            )
        })?
        .ok_or_else(|| DomainError::invalid("request", "is required: say what to change"))?;
    let variables = variables(body.variables.as_deref().unwrap_or(&[]))?;
    edit_job(
        ctx,
        actor,
        request,
        body.source.0,
        template,
        variables,
        None,
    )
    .await
}

/// An edit job on `source`: the words must be readable and within an edit's size.
async fn edit_job(
    ctx: &Ctx,
    actor: &Actor,
    request: String,
    source: serde_json::Value,
    template: bool,
    variables: Vec<(String, Option<String>)>,
    document_id: Option<&str>,
) -> Result<AiJobOut, DomainError> {
    // The words must be readable as a source; what the check says of them the edit may mend.
    let mut reader = actor.clone();
    reader.scopes = Scopes::from_iter([Scope::DocumentsRead]);
    let check = signet_documents::check(
        ctx,
        &reader,
        signet_documents::types::DocumentCheckIn {
            source: source.clone(),
            facts: None,
            people: None,
            variable_values: None,
            require_signature: Some(false),
            for_template: Some(template),
        },
    )
    .await?;
    if signet_source::parse("source", &source).is_err() {
        let first = check
            .problems
            .first()
            .map(|p| format!("{}: {}", p.path, p.message));
        return Err(DomainError::Invalid(
            first.unwrap_or_else(|| "source: cannot be read".into()),
        ));
    }
    let blocks = source
        .get("content")
        .and_then(serde_json::Value::as_array)
        .map_or(0, Vec::len);
    if blocks > crate::form::MAX_BLOCKS {
        return Err(DomainError::invalid(
            "source",
            format!(
                "an edit takes words of at most {} blocks",
                crate::form::MAX_BLOCKS
            ),
        ));
    }
    start(
        ctx,
        actor,
        "edit",
        Input::Edit {
            request,
            source,
            template,
            variables,
            roles: check.roles,
        },
        document_id,
    )
    .await
}

/// Whether a play's tailoring could start now for this key (POST /drafts with `tailor`,
/// checked before the draft is made): a model set up, the workspace's switch on and tokens
/// left today. Refused plainly as the AI routes are.
pub async fn can_tailor(ctx: &Ctx, actor: &Actor) -> Result<(), DomainError> {
    gate(ctx, actor).await.map(|_| ())
}

/// A play's tailoring: an edit job on a draft document made from a play, asking the model to
/// tailor its words as the play's `guidance` says (docs/ai.md, "Plays"). `words` are the
/// draft's, with the answers written in (`written_in`); `answers` are the person's choices
/// (question and the option's label), given as data beside the guidance.
pub async fn tailor(
    ctx: &Ctx,
    actor: &Actor,
    document_id: &str,
    guidance: &str,
    answers: &[(String, String)],
    words: serde_json::Value,
) -> Result<AiJobOut, DomainError> {
    let mut request = format!("Tailor these words as the play's guidance says: {guidance}");
    if !answers.is_empty() {
        let chosen: Vec<String> = answers.iter().map(|(q, a)| format!("{q}: {a}")).collect();
        request.push_str(&format!("\nThe person's answers: {}", chosen.join("; ")));
    }
    let request: String = request.chars().take(brief::MAX_PROMPT).collect();
    edit_job(ctx, actor, request, words, false, vec![], Some(document_id)).await
}

/// A source with each `custom.<key>` chip that has a value written in as text.
pub fn written_in(
    node: &serde_json::Value,
    values: &serde_json::Map<String, serde_json::Value>,
) -> serde_json::Value {
    use serde_json::{Value, json};
    if node.get("type").and_then(Value::as_str) == Some("variableChip")
        && let Some(v) = node
            .pointer("/attrs/name")
            .and_then(Value::as_str)
            .and_then(|n| n.strip_prefix("custom."))
            .and_then(|k| values.get(k))
            .and_then(Value::as_str)
    {
        return json!({"type": "text", "text": v});
    }
    match node {
        Value::Object(o) => Value::Object(
            o.iter()
                .map(|(k, v)| (k.clone(), written_in(v, values)))
                .collect(),
        ),
        Value::Array(a) => Value::Array(a.iter().map(|v| written_in(v, values)).collect()),
        other => other.clone(),
    }
}

fn variables(
    list: &[async_graphql::Json<serde_json::Value>],
) -> Result<Vec<(String, Option<String>)>, DomainError> {
    if list.len() > MAX_VARIABLES {
        return Err(DomainError::invalid(
            "variables",
            format!("at most {MAX_VARIABLES}"),
        ));
    }
    list.iter()
        .enumerate()
        .map(|(i, v)| {
            let field = format!("variables[{i}]");
            let name = v
                .get("name")
                .and_then(serde_json::Value::as_str)
                .unwrap_or("")
                .trim();
            let name = name.strip_prefix("custom.").unwrap_or(name);
            if name.is_empty()
                || name.len() > 40
                || !name
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
            {
                return Err(DomainError::invalid(
                    &format!("{field}.name"),
                    "must be a question's key of 1 to 40 letters, digits, '_' or '-'",
                ));
            }
            let label = v
                .get("label")
                .and_then(serde_json::Value::as_str)
                .map(|l| l.chars().take(200).collect());
            Ok((name.to_string(), label))
        })
        .collect()
}

/// GET /documents/ai/jobs/{id}.
pub async fn get(ctx: &Ctx, actor: &Actor, id: &str) -> Result<AiJobOut, DomainError> {
    actor.require(Scope::DocumentsRead)?;
    let j = store::load(ctx, &actor.workspace_id, actor.mode.as_str(), id).await?;
    Ok(store::out(&j))
}

/// POST /documents/ai/jobs/{id}/cancel: a queued job never runs; a running one is abandoned
/// by its worker within a second, its call to the model closed. A finished job is answered
/// as it is.
pub async fn cancel(ctx: &Ctx, actor: &Actor, id: &str) -> Result<AiJobOut, DomainError> {
    actor.require(Scope::DocumentsWrite)?;
    let j = store::load(ctx, &actor.workspace_id, actor.mode.as_str(), id).await?;
    if matches!(j.state.as_str(), "queued" | "running") {
        store::end_unfinished(ctx, &j.id, "cancelled", "cancelled by request").await?;
        crate::run::wake(&j.id);
    }
    let j = store::load(ctx, &actor.workspace_id, actor.mode.as_str(), id).await?;
    Ok(store::out(&j))
}

/// GET /ai/wizard: in `locale`, else the workspace's default language.
pub async fn wizard(
    ctx: &Ctx,
    actor: &Actor,
    locale: Option<&str>,
) -> Result<WizardOut, DomainError> {
    actor.require(Scope::DocumentsRead)?;
    let locale = match locale.map(str::trim).filter(|l| !l.is_empty()) {
        Some(l) => signet_core::languages::locale("locale", Some(l))?,
        None => signet_accounts::workspaces::settings(ctx, &actor.workspace_id)
            .await?
            .locale
            .unwrap_or_else(|| "en".into()),
    };
    Ok(crate::wizard::wizard(&locale))
}

/// Empties the prompts, briefs, words and answers of jobs past their keeping time; the job's
/// id, state, provider, model, tokens and times stay. Answers how many were emptied.
pub async fn purge(ctx: &Ctx) -> Result<u64, DomainError> {
    Ok(ctx
        .db
        .write(ctx.db.stmt(
            "UPDATE ai_jobs SET input = NULL, output = NULL, problems = NULL \
             WHERE purge_after < $1 AND input IS NOT NULL AND state NOT IN ('queued', 'running')",
            [Value::from(ctx.now())],
        ))
        .await?)
}
