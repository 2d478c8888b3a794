//! Drafts from a play: questions asked in rounds of at most four under a `drf_` reference
//! kept a day, then an ordinary draft document made through the same path as POST
//! /documents. Nothing is ever sent.

use std::collections::BTreeMap;

use chrono::Utc;
use sea_orm::{ConnectionTrait, Value};
use serde_json::json;
use signet_core::clock::time;
use signet_core::{Actor, Ctx, DomainError, Scope, ids};
use signet_documents::types::{DocumentCreateIn, PersonIn, SendOptionsIn};

use crate::access::{allow, as_drafter};
use crate::library::{self, question_out};
use crate::play::Play;
use crate::types::*;

/// How long a draft reference lives.
pub const DRAFT_TTL_MS: i64 = 24 * 3_600_000;
/// Drafts a workspace may start a day (UTC), whatever its keys' own limits.
pub const WORKSPACE_DRAFTS_PER_DAY: u64 = 1_000;
/// People one draft may name.
pub const MAX_PEOPLE: usize = 50;
/// Marks a draft whose document is being made.
const MAKING: &str = "making";

/// Answers as given: an object of question id to option value, each a string.
fn answers_of(
    field: &str,
    v: Option<&serde_json::Value>,
) -> Result<BTreeMap<String, String>, DomainError> {
    let Some(v) = v.filter(|v| !v.is_null()) else {
        return Ok(BTreeMap::new());
    };
    let Some(o) = v.as_object() else {
        return Err(DomainError::invalid(
            field,
            "must be an object of question id to option value",
        ));
    };
    if o.len() > crate::header::MAX_QUESTIONS {
        return Err(DomainError::invalid(
            field,
            format!(
                "a play asks at most {} questions",
                crate::header::MAX_QUESTIONS
            ),
        ));
    }
    o.iter()
        .map(|(k, v)| match v.as_str() {
            Some(s) => Ok((k.clone(), s.to_string())),
            None => Err(DomainError::invalid(
                &format!("{field}.{}", k.chars().take(40).collect::<String>()),
                "must be an option's value, as a string",
            )),
        })
        .collect()
}

/// The people checked against the play's seats: every role is a seat, every seat is taken.
fn people_for(play: &Play, people: &[PersonIn]) -> Result<Vec<PersonIn>, DomainError> {
    if people.is_empty() || people.len() > MAX_PEOPLE {
        return Err(DomainError::invalid(
            "people",
            format!("must name 1 to {MAX_PEOPLE} people, one or more for each seat"),
        ));
    }
    let seats = &play.header.seats;
    let names = || {
        seats
            .iter()
            .map(|s| s.role.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut out = Vec::with_capacity(people.len());
    for (i, p) in people.iter().enumerate() {
        let Some(role) = p.role.as_deref().map(str::trim).filter(|r| !r.is_empty()) else {
            return Err(DomainError::invalid(
                &format!("people[{i}].role"),
                format!("is required: one of the play's seats ({})", names()),
            ));
        };
        let Some(seat) = seats.iter().find(|s| s.role == role) else {
            return Err(DomainError::invalid(
                &format!("people[{i}].role"),
                format!(
                    "'{}' is not a seat of the play; its seats are {}",
                    role.chars().take(40).collect::<String>(),
                    names()
                ),
            ));
        };
        if p.access_code.is_some() {
            // A draft keeps its people for a day as given, and an access code is never kept
            // but hashed.
            return Err(DomainError::invalid(
                &format!("people[{i}].accessCode"),
                "cannot be given to a draft from a play (its people are kept as given until \
                 the draft is made, and access codes are kept only hashed); use emailCode, or \
                 make the document with POST /api/v1/documents",
            ));
        }
        let mut p = p.clone();
        if p.order.is_none() {
            p.order = seat.order.map(i64::from);
        }
        out.push(p);
    }
    if let Some(empty) = seats.iter().find(|s| {
        !out.iter()
            .any(|p| p.role.as_deref() == Some(s.role.as_str()))
    }) {
        return Err(DomainError::invalid(
            "people",
            format!("nobody takes the seat '{}' ({})", empty.role, empty.label),
        ));
    }
    // The document's own rules, now, so a draft reference is never kept for people that
    // could not make a document.
    signet_documents::input::people(&out)
        .map_err(|p| DomainError::invalid("people", p[0].to_string()))?;
    Ok(out)
}

/// A draft in progress, as stored.
struct Stored {
    id: String,
    play: String,
    version: i64,
    built_in: bool,
    title: Option<String>,
    people: Vec<PersonIn>,
    answers: BTreeMap<String, String>,
    document_id: Option<String>,
    expires_at: i64,
    /// Tailoring by AI asked for (`tailor`).
    tailor: bool,
    /// The tailoring job, once started (`STARTING` while it is being started).
    ai_job_id: Option<String>,
}

/// Marks a tailoring job being started.
const STARTING: &str = "starting";

/// Before anything is kept or made: whether this key may have the draft tailored now.
async fn may_tailor(ctx: &Ctx, actor: &Actor, play: &Play, name: &str) -> Result<(), DomainError> {
    allow(actor, Scope::DocumentsWrite)?;
    if play
        .header
        .guidance
        .as_deref()
        .is_none_or(|g| g.trim().is_empty())
    {
        return Err(DomainError::invalid(
            "tailor",
            format!(
                "the play '{}' has no guidance to tailor its words with; draft without tailor, \
                 or add `guidance:` to the play",
                name.chars().take(64).collect::<String>()
            ),
        ));
    }
    signet_ai::jobs::can_tailor(ctx, actor).await
}

/// Drafts a key with a daily limit may start for each draft it may make.
pub const STARTS_PER_DRAFT: u64 = 4;

/// POST /drafts: checks the play, people and answers; asks the next questions, or makes the
/// draft document when nothing is left to ask.
pub async fn start(ctx: &Ctx, actor: &Actor, body: DraftIn) -> Result<DraftOut, DomainError> {
    allow(actor, Scope::DraftsWrite)?;
    let name = body.play.trim().to_string();
    let (play, version, built_in) = library::for_drafting(ctx, actor, &name).await?;
    let people = people_for(&play, &body.people)?;
    let title = match body
        .title
        .as_deref()
        .map(str::trim)
        .filter(|t| !t.is_empty())
    {
        Some(t) => Some(signet_core::fields::line("title", t, 300)?),
        None => None,
    };
    let mut answers = answers_of("answers", body.answers.as_ref().map(|j| &j.0))?;
    play.check_answers("answers", &answers)
        .map_err(|(at, why)| DomainError::invalid(&at, why))?;
    if body.use_defaults.unwrap_or(false) {
        play.fill_defaults(&mut answers);
    }
    let tailor = body.tailor.unwrap_or(false);
    if tailor {
        may_tailor(ctx, actor, &play, &name).await?;
    }
    let day = Utc::now().format("%Y-%m-%d").to_string();
    // A key with a daily limit (Scribe's: 50 drafts) may start four times as many drafts as
    // it may make, so that starts left unanswered never spend the workspace's allowance.
    if let Some(limit) = actor.daily_limit {
        let starts = limit.saturating_mul(STARTS_PER_DRAFT);
        if !ctx
            .daily
            .spend(actor.id(), &format!("{day}:starts"), starts)
            .await?
        {
            return Err(DomainError::RateLimited {
                message: format!(
                    "this key has started {starts} drafts today; more are allowed from \
                     midnight UTC"
                ),
                retry_after_secs: signet_core::limits::until_midnight(Utc::now()),
            });
        }
    }
    if !ctx
        .daily
        .spend_workspace(
            &actor.workspace_id,
            "drafts",
            &day,
            WORKSPACE_DRAFTS_PER_DAY,
        )
        .await?
    {
        return Err(DomainError::RateLimited {
            message: format!(
                "this workspace has started {WORKSPACE_DRAFTS_PER_DAY} drafts today; more are \
                 allowed from midnight UTC"
            ),
            retry_after_secs: signet_core::limits::until_midnight(Utc::now()),
        });
    }
    let now = ctx.now();
    let stored = Stored {
        id: ids::new_id("drf"),
        play: name,
        version,
        built_in,
        title,
        people,
        answers,
        document_id: None,
        expires_at: now + DRAFT_TTL_MS,
        tailor,
        ai_job_id: None,
    };
    ctx.db
        .write(ctx.db.stmt(
            "INSERT INTO play_drafts (id, workspace_id, mode, play, version, built_in, title, \
             people, answers, document_id, created_by, created_at, expires_at, tailor) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, NULL, $10, $11, $12, $13)",
            [
                Value::from(stored.id.clone()),
                Value::from(actor.workspace_id.to_string()),
                Value::from(actor.mode.as_str().to_string()),
                Value::from(stored.play.clone()),
                Value::from(version as i32),
                Value::from(built_in),
                Value::from(stored.title.clone()),
                Value::from(serde_json::to_string(&stored.people).unwrap_or_default()),
                Value::from(serde_json::to_string(&stored.answers).unwrap_or_default()),
                Value::from(actor.recorded().to_string()),
                Value::from(now),
                Value::from(stored.expires_at),
                Value::from(tailor),
            ],
        ))
        .await?;
    advance(ctx, actor, &play, stored).await
}

/// GET /drafts/{draftRef}/pages (an addition): the pages of the draft document a draft made,
/// drawn as a send would lay them out, for a key that may draft but not read documents
/// (Scribe's). A draft still asking questions has no pages yet (409).
pub async fn pages(
    ctx: &Ctx,
    actor: &Actor,
    draft_ref: &str,
) -> Result<signet_documents::templates::TemplatePreviewOut, DomainError> {
    allow(actor, Scope::DraftsWrite)?;
    let stored = load(ctx, actor, draft_ref).await?;
    let Some(doc) = stored.document_id.as_deref().filter(|d| *d != MAKING) else {
        return Err(DomainError::conflict(
            "this draft has questions to answer before it has pages".to_string(),
        ));
    };
    signet_documents::templates::draft_pages(ctx, actor, doc).await
}

/// POST /drafts/{draftRef}/answers: more answers; the next questions, or the draft.
pub async fn answer(
    ctx: &Ctx,
    actor: &Actor,
    draft_ref: &str,
    body: DraftAnswersIn,
) -> Result<DraftOut, DomainError> {
    allow(actor, Scope::DraftsWrite)?;
    let mut stored = load(ctx, actor, draft_ref).await?;
    let given = answers_of("answers", Some(&body.answers.0))?;
    let tailor = stored.tailor || body.tailor.unwrap_or(false);
    if tailor && !stored.tailor {
        let play = play_of(ctx, actor, &stored).await?;
        may_tailor(ctx, actor, &play, &stored.play).await?;
    }
    if let Some(doc) = &stored.document_id {
        // Already made: the same answers again (a retry) are told the draft; others cannot
        // change it.
        if given.iter().all(|(k, v)| stored.answers.get(k) == Some(v)) && doc != MAKING {
            return done(ctx, actor, &stored).await;
        }
        return Err(DomainError::conflict(if doc == MAKING {
            "this draft is being made by another request; retry shortly".to_string()
        } else {
            format!("this draft was already made as {doc}; start a new draft to answer otherwise")
        }));
    }
    let play = play_of(ctx, actor, &stored).await?;
    for (k, v) in &given {
        if let Some(was) = stored.answers.get(k)
            && was != v
        {
            return Err(DomainError::invalid(
                &format!("answers.{k}"),
                format!("was answered '{was}' already; start a new draft to answer otherwise"),
            ));
        }
    }
    let mut answers = stored.answers.clone();
    answers.extend(given);
    play.check_answers("answers", &answers)
        .map_err(|(at, why)| DomainError::invalid(&at, why))?;
    if body.use_defaults.unwrap_or(false) {
        play.fill_defaults(&mut answers);
    }
    ctx.db
        .write(ctx.db.stmt(
            "UPDATE play_drafts SET answers = $1, tailor = $2 WHERE id = $3 AND document_id IS NULL",
            [
                Value::from(serde_json::to_string(&answers).unwrap_or_default()),
                Value::from(tailor),
                Value::from(stored.id.clone()),
            ],
        ))
        .await?;
    stored.answers = answers;
    stored.tailor = tailor;
    advance(ctx, actor, &play, stored).await
}

async fn play_of(ctx: &Ctx, actor: &Actor, s: &Stored) -> Result<Play, DomainError> {
    if s.built_in {
        return crate::builtin::get(&s.play)
            .map(|b| b.play.clone())
            .ok_or_else(|| library::not_found(&s.play));
    }
    library::stored_play(ctx, &actor.workspace_id, &s.play, s.version).await
}

fn ref_not_found(r: &str) -> DomainError {
    DomainError::NotFound(format!(
        "no draft reference {}; references last 24 hours, then start again with POST /api/v1/drafts",
        r.chars().take(64).collect::<String>()
    ))
}

async fn load(ctx: &Ctx, actor: &Actor, draft_ref: &str) -> Result<Stored, DomainError> {
    if !draft_ref.starts_with("drf_") || draft_ref.len() > 64 {
        return Err(ref_not_found(draft_ref));
    }
    let r = ctx
        .db
        .conn
        .query_one_raw(ctx.db.stmt(
            "SELECT id, play, version, built_in, title, people, answers, document_id, expires_at, \
             tailor, ai_job_id FROM play_drafts WHERE id = $1 AND workspace_id = $2 AND mode = $3 AND expires_at > $4",
            [
                Value::from(draft_ref.to_string()),
                Value::from(actor.workspace_id.to_string()),
                Value::from(actor.mode.as_str().to_string()),
                Value::from(ctx.now()),
            ],
        ))
        .await?
        .ok_or_else(|| ref_not_found(draft_ref))?;
    let json = |c: &str| -> Result<String, DomainError> { Ok(r.try_get::<String>("", c)?) };
    Ok(Stored {
        id: r.try_get("", "id")?,
        play: r.try_get("", "play")?,
        version: r.try_get::<i32>("", "version")? as i64,
        built_in: r.try_get("", "built_in")?,
        title: r.try_get("", "title")?,
        people: serde_json::from_str(&json("people")?)
            .map_err(|e| DomainError::Internal(format!("draft people: {e}")))?,
        answers: serde_json::from_str(&json("answers")?)
            .map_err(|e| DomainError::Internal(format!("draft answers: {e}")))?,
        document_id: r.try_get("", "document_id")?,
        expires_at: r.try_get("", "expires_at")?,
        tailor: r.try_get("", "tailor")?,
        ai_job_id: r.try_get("", "ai_job_id")?,
    })
}

fn out(stored: &Stored, status: &str, questions: Vec<PlayQuestionOut>) -> DraftOut {
    DraftOut {
        status: status.into(),
        draft_ref: stored.id.clone(),
        play: stored.play.clone(),
        version: stored.version,
        questions,
        answers: stored.answers.clone(),
        expires_at: time(stored.expires_at),
        document_id: None,
        document: None,
        tailoring: None,
        tailoring_refused: None,
    }
}

/// The next round of questions, or the draft document made.
async fn advance(
    ctx: &Ctx,
    actor: &Actor,
    play: &Play,
    mut stored: Stored,
) -> Result<DraftOut, DomainError> {
    let round = play.next_round(&stored.answers);
    if !round.is_empty() {
        let questions = round.into_iter().map(question_out).collect();
        return Ok(out(&stored, "needs_input", questions));
    }
    // One request makes the document: the reference is claimed first.
    claim(
        ctx,
        &stored.id,
        "document_id",
        MAKING,
        "this draft is being made",
    )
    .await?;
    let made = make(ctx, actor, play, &stored).await;
    let doc_id = match &made {
        Ok(d) => Some(d.id.clone()),
        Err(_) => None,
    };
    ctx.db
        .write(ctx.db.stmt(
            "UPDATE play_drafts SET document_id = $1 WHERE id = $2",
            [Value::from(doc_id.clone()), Value::from(stored.id.clone())],
        ))
        .await?;
    let doc = made?;
    stored.document_id = doc_id;
    let mut o = out(&stored, "draft", vec![]);
    o.document_id = Some(doc.id.clone());
    o.document = Some(doc);
    if stored.tailor {
        (o.tailoring, o.tailoring_refused) = tailoring(ctx, actor, play, &stored).await?;
    }
    Ok(o)
}

/// The tailoring job of a draft made with `tailor`: the one started already, or one started
/// now (once: the draft's row is claimed first). A job refused by a limit reached since the
/// first check leaves the draft as made and says why; asking again starts it.
async fn tailoring(
    ctx: &Ctx,
    actor: &Actor,
    play: &Play,
    stored: &Stored,
) -> Result<(Option<signet_ai::types::AiJobOut>, Option<String>), DomainError> {
    let Some(doc) = stored.document_id.as_deref().filter(|d| *d != MAKING) else {
        return Ok((None, None));
    };
    let busy = "this draft's tailoring is being started";
    match stored.ai_job_id.as_deref() {
        Some(STARTING) => return Err(busy_error(busy)),
        Some(job) => {
            let job = signet_ai::jobs::get(ctx, &as_drafter(actor), job).await;
            return Ok((job.ok(), None));
        }
        None => {}
    }
    claim(ctx, &stored.id, "ai_job_id", STARTING, busy).await?;
    let (body, values) = assemble(play, stored);
    let words = signet_ai::jobs::written_in(&body.source, &values);
    let labels = play.labels(&stored.answers);
    let chosen: Vec<(String, String)> = labels.into_iter().collect();
    let guidance = play.header.guidance.clone().unwrap_or_default();
    let started = signet_ai::jobs::tailor(ctx, actor, doc, &guidance, &chosen, words).await;
    let job_id = started.as_ref().ok().map(|j| j.id.clone());
    ctx.db
        .write(ctx.db.stmt(
            "UPDATE play_drafts SET ai_job_id = $1 WHERE id = $2",
            [Value::from(job_id), Value::from(stored.id.clone())],
        ))
        .await?;
    Ok(match started {
        Ok(job) => (Some(job), None),
        Err(e) => (None, Some(e.to_string())),
    })
}

fn busy_error(what: &str) -> DomainError {
    DomainError::Conflict {
        message: format!("{what} by another request; retry shortly"),
        retryable: true,
    }
}

/// Claims the draft's `column` (still empty) with `marker`, so that one request does what
/// follows; another request meanwhile is told `what` is under way.
async fn claim(
    ctx: &Ctx,
    id: &str,
    column: &'static str,
    marker: &str,
    what: &str,
) -> Result<(), DomainError> {
    let claimed = ctx
        .db
        .write(ctx.db.stmt(
            &format!("UPDATE play_drafts SET {column} = $1 WHERE id = $2 AND {column} IS NULL"),
            [Value::from(marker), Value::from(id)],
        ))
        .await?;
    if claimed == 0 {
        return Err(busy_error(what));
    }
    Ok(())
}

/// A draft already made, told again.
async fn done(ctx: &Ctx, actor: &Actor, stored: &Stored) -> Result<DraftOut, DomainError> {
    let id = stored.document_id.clone().unwrap_or_default();
    let doc = signet_documents::get(ctx, &as_drafter(actor), &id)
        .await
        .ok();
    let mut o = out(stored, "draft", vec![]);
    o.document_id = Some(id);
    o.document = doc;
    if stored.tailor {
        let play = play_of(ctx, actor, stored).await?;
        (o.tailoring, o.tailoring_refused) = tailoring(ctx, actor, &play, stored).await?;
    }
    Ok(o)
}

/// The draft document, made as POST /documents makes one (a draft; never sent).
async fn make(
    ctx: &Ctx,
    actor: &Actor,
    play: &Play,
    stored: &Stored,
) -> Result<signet_documents::types::DocumentOut, DomainError> {
    let (body, _) = assemble(play, stored);
    let made = signet_documents::create(ctx, &as_drafter(actor), body, None).await?;
    Ok(made.out)
}

/// What POST /documents is given for the draft, and the answers its words ask for (question
/// to the chosen option's label).
fn assemble(
    play: &Play,
    stored: &Stored,
) -> (DocumentCreateIn, serde_json::Map<String, serde_json::Value>) {
    let (doc, used) = crate::body::assemble(&play.blocks, &play.header, &stored.answers);
    let labels = play.labels(&stored.answers);
    let values: serde_json::Map<String, serde_json::Value> = used
        .iter()
        .filter_map(|q| Some((q.clone(), json!(labels.get(q)?))))
        .collect();
    let ordered = play.header.seats.iter().any(|s| s.order.is_some());
    let mut metadata = serde_json::Map::new();
    metadata.insert("play".into(), json!(stored.play));
    metadata.insert("playVersion".into(), json!(stored.version.to_string()));
    let body = DocumentCreateIn {
        title: stored
            .title
            .clone()
            .unwrap_or_else(|| play.header.title.clone()),
        source: doc,
        people: stored.people.clone(),
        metadata: Some(serde_json::Value::Object(metadata)),
        variable_values: (!values.is_empty()).then(|| serde_json::Value::Object(values.clone())),
        description: Some(play.header.description.clone()),
        send: Some(SendOptionsIn {
            language: Some(play.header.language.clone()),
            signing_order: ordered.then_some(true),
            ..Default::default()
        }),
        send_now: Some(false),
        ..Default::default()
    };
    (body, values)
}

/// Draft references past their day, and a day more (the day's count reads them).
pub async fn purge(ctx: &Ctx) -> Result<u64, DomainError> {
    signet_core::purge::in_batches(
        ctx,
        "play_drafts",
        "expires_at < $1",
        vec![Value::from(ctx.now() - DRAFT_TTL_MS)],
    )
    .await
}
