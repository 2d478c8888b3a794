//! Making drafts: the checks a person is told about, a new draft from words, and revising a
//! draft into a new one. Every creator runs the same checks as Send.

use signet_storage::Sql;
use std::collections::BTreeMap;

use sea_orm::Value;
use signet_source::{CheckInput, Report};

use super::draft::{Draft, DraftRows};
use super::input::{self, PersonRow};
use super::new_draft::NewDraft;
use super::store::{self};
use super::types::*;
use super::{lifecycle, parse_json_map, send, visible};
use crate::state::DocState;
use signet_core::answer::{self, Claim, Made};
use signet_core::metadata::Metadata;
use signet_core::{Actor, Ctx, DomainError, Mode, Scope, ids};

pub(crate) fn problems_error(problems: &[signet_source::Problem]) -> DomainError {
    let first = &problems[0];
    let more = match problems.len() {
        1 => String::new(),
        n => format!(
            " (and {} more; POST /api/v1/documents/check lists them all)",
            n - 1
        ),
    };
    DomainError::Invalid(format!("{first}{more}"))
}

/// Facts with the workspace's defaults for what the caller left out.
pub(crate) async fn facts_with_defaults(
    _ctx: &Ctx,
    actor: &Actor,
    given: BTreeMap<String, String>,
) -> Result<BTreeMap<String, String>, DomainError> {
    let mut facts = given;
    // The workspace's name comes with the key (no read on every send).
    facts
        .entry("org.name".into())
        .or_insert_with(|| actor.workspace_name.clone());
    facts
        .entry("sender.name".into())
        .or_insert_with(|| actor.workspace_name.clone());
    Ok(facts)
}

pub(crate) fn run_check(
    doc: &signet_source::Doc,
    people: Option<&[PersonRow]>,
    facts: BTreeMap<String, String>,
    variable_values: BTreeMap<String, String>,
    require_signature: bool,
    for_template: bool,
) -> Report {
    let persons: Option<Vec<_>> = people.map(|p| {
        p.iter()
            .enumerate()
            .map(|(i, r)| r.as_source_person(i))
            .collect()
    });
    signet_source::check(
        doc,
        &CheckInput {
            people: persons.as_deref(),
            facts,
            variable_values,
            require_signature,
            for_template,
            root: "source",
        },
    )
}

pub(crate) fn item(p: &signet_source::Problem) -> CheckItemOut {
    CheckItemOut {
        path: p.path.clone(),
        message: p.message.clone(),
    }
}

/// POST /documents/check: what a person would be told.
pub async fn check(
    ctx: &Ctx,
    actor: &Actor,
    body: DocumentCheckIn,
) -> Result<CheckOut, DomainError> {
    // A template's words are checked by whoever may write templates (the builder's key has
    // no documents scope); anything else takes documents:read.
    if !(body.for_template == Some(true) && actor.scopes.contains(Scope::TemplatesWrite)) {
        actor.require(Scope::DocumentsRead)?;
    }
    if !body.source.is_object() {
        return Err(DomainError::invalid(
            "source",
            "must be an object with type \"doc\" and a content array",
        ));
    }
    let mut problems = Vec::new();
    let doc = match signet_source::parse("source", &body.source) {
        Ok(d) => Some(d),
        Err(p) => {
            problems.extend(p);
            None
        }
    };
    // Malformed people are a bad request, as on every creator; the report is about the words.
    let people = match body.people.as_deref().map(input::people) {
        None => None,
        Some(Ok(p)) => Some(p),
        Some(Err(p)) => return Err(problems_error(&p)),
    };
    let facts = facts_with_defaults(ctx, actor, input::facts(body.facts.as_ref())?).await?;
    let values = input::variable_values("variableValues", body.variable_values.as_ref())?;
    let mut report = Report::default();
    if let Some(doc) = &doc {
        report = run_check(
            doc,
            people.as_deref(),
            facts,
            values,
            body.require_signature.unwrap_or(false),
            body.for_template.unwrap_or(false),
        );
    }
    problems.extend(report.problems);
    Ok(CheckOut {
        ok: problems.is_empty(),
        problems: problems.iter().map(item).collect(),
        warnings: report.warnings.iter().map(item).collect(),
        roles: report.roles,
        fields: report
            .fields
            .iter()
            .map(|f| CheckFieldOut {
                name: f.name.clone(),
                field_type: f.ty.as_str().to_string(),
                role: f.role.clone(),
                required: f.required,
            })
            .collect(),
        questions: report.questions,
    })
}

impl Draft {
    /// Runs the same checks as Send; the first problem refuses the request.
    pub(crate) fn checked(&self, require_signature: bool) -> Result<Report, DomainError> {
        let report = run_check(
            &self.doc,
            Some(&self.people),
            self.facts.clone(),
            self.variable_values.clone(),
            require_signature,
            false,
        );
        if !report.ok() {
            return Err(problems_error(&report.problems));
        }
        Ok(report)
    }
}

/// Refuses words that could not fit in `max_pages` whatever the layout, before any layout.
pub(crate) fn fits(doc: &signet_source::Doc, max_pages: usize) -> Result<(), DomainError> {
    let pages = doc.min_pages();
    if pages > max_pages {
        return Err(DomainError::invalid(
            "source",
            format!(
                "would take at least {pages} pages; a document has at most {max_pages} (max_pages)"
            ),
        ));
    }
    Ok(())
}

/// Parses and checks a draft as a send would, and refuses words that could not fit in
/// `max_pages` whatever the layout. A large source (parsing and checking 2 MB takes 70 to
/// 300 ms) is handled on the blocking pool, off the threads that answer requests.
pub(crate) async fn prepare(
    ctx: &Ctx,
    body: DocumentCreateIn,
    facts: BTreeMap<String, String>,
) -> Result<(Draft, Report), DomainError> {
    let max_pages = crate::services(ctx).max_pages;
    let large = is_large(&body.source);
    let work = move || -> Result<(Draft, Report), DomainError> {
        let draft = parse_draft(body, facts)?;
        let report = draft.checked(false)?;
        fits(&draft.doc, max_pages)?;
        Ok((draft, report))
    };
    let (mut draft, report) = if large {
        signet_core::blocking(work)
            .await
            .map_err(|e| DomainError::Internal(format!("checking the source: {e}")))??
    } else {
        work()?
    };
    // Access codes are kept only hashed, from here on.
    for p in &mut draft.people {
        if let Some(input::AccessCode::Given(code)) = &p.access_code {
            p.access_code = Some(input::AccessCode::Hashed(
                crate::signing::identity::hash_access_code(ctx, code)?,
            ));
        }
    }
    Ok((draft, report))
}

/// Whether a JSON value holds more than 64 KiB of text, found without walking all of it.
fn is_large(v: &serde_json::Value) -> bool {
    fn size(v: &serde_json::Value, budget: &mut isize) {
        if *budget < 0 {
            return;
        }
        match v {
            serde_json::Value::String(s) => *budget -= s.len() as isize + 2,
            serde_json::Value::Array(a) => {
                for x in a {
                    size(x, budget);
                }
            }
            serde_json::Value::Object(o) => {
                for (k, x) in o {
                    *budget -= k.len() as isize + 4;
                    size(x, budget);
                }
            }
            _ => *budget -= 8,
        }
    }
    let mut budget = 64 * 1024;
    size(v, &mut budget);
    budget < 0
}

pub(crate) fn parse_draft(
    body: DocumentCreateIn,
    facts: BTreeMap<String, String>,
) -> Result<Draft, DomainError> {
    signet_core::rules::check(&body)?;
    let title = body.title.trim().to_string();
    let doc = signet_source::parse("source", &body.source).map_err(|p| problems_error(&p))?;
    // A document of a file's pages comes only from that file's template: its file is named
    // by the template and version the document remembers, never by the caller.
    if let Some(f) = &doc.file
        && body
            .from_template
            .as_ref()
            .is_none_or(|(t, v)| !crate::blob_keys::is_template_file(&f.blob, t, *v))
    {
        return Err(DomainError::invalid(
            "source.file",
            "a document's pages come from a file only through its template",
        ));
    }
    let mut people = input::people(&body.people).map_err(|p| problems_error(&p))?;
    input::embedded(&mut people, body.embedded.as_ref())?;
    let (paper, profile) =
        input::paper_and_profile_of(body.paper, body.profile, body.from_template.is_some())?;
    Ok(Draft {
        title,
        description: input::trimmed(&body.description),
        external_id: input::trimmed(&body.external_id),
        metadata: Metadata::parse(
            "metadata",
            body.metadata.as_ref().unwrap_or(&serde_json::Value::Null),
        )?,
        source: body.source,
        doc,
        people,
        facts,
        variable_values: input::variable_values("variableValues", body.variable_values.as_ref())?,
        paper,
        profile,
        send: input::send_options(body.send.as_ref()),
        email: input::email_options(body.email.as_ref()),
        template: body.from_template,
    })
}

/// POST /documents: a draft, or sent at once with `sendNow`. Given the request's idempotency
/// `claim`, the answer is stored in the same transaction as the document (`answer::store`).
pub async fn create(
    ctx: &Ctx,
    actor: &Actor,
    body: DocumentCreateIn,
    claim: Option<&Claim>,
) -> Result<Made<DocumentOut>, DomainError> {
    actor.require(Scope::DocumentsWrite)?;
    let send_now = body.send_now.unwrap_or(false);
    let facts = facts_with_defaults(ctx, actor, input::facts(body.facts.as_ref())?).await?;
    let (draft, report) = prepare(ctx, body, facts).await?;
    if send_now && !actor.draft_only {
        // Refuse before anything is written: a refused sendNow leaves no draft behind.
        send::may_send(ctx, actor, actor.mode == Mode::Test, &report).await?;
    }
    signet_core::limits::spend_daily(ctx, actor).await?;
    if send_now && !actor.draft_only && actor.mode == Mode::Test {
        signet_core::limits::spend_test_send(ctx, actor).await?;
    }
    if send_now && !actor.draft_only {
        // After the allowances: a refused layout has cost the caller a send. The id is not
        // made yet; one of the same length lays out the same.
        let source = draft.source.to_string();
        let id = ids::new_id("doc");
        send::fits_pages(ctx, &id, actor.mode == Mode::Test, &draft, &source).await?;
    }
    // One transaction (on SQLite, one hand-off to the writer): the draft, and with `sendNow`
    // the send itself, so a send refused at the last moment (the month's allowance raced
    // away) leaves no draft behind. One request, one unit of the daily limit (spent above).
    let send_at_once = send_now && !actor.draft_only;
    // A draft-only key's sendNow: the draft stays, and its approval is filed and answered
    // (202) in the same transaction, so a retry finds the answer or nothing at all.
    let approval = (send_now && actor.draft_only).then(|| send::NewApproval::new(actor, ctx.now()));
    let claim = claim.cloned();
    // Everything but the statements is built here, off the transaction's (SQLite: the
    // writer thread's) time.
    let sent = send_at_once.then(|| send::Sent::at(&draft.send, ctx.now()));
    let mut new = NewDraft::new(
        actor,
        &draft,
        &format!("Draft created {}", actor.via()),
        sent.as_ref(),
        ctx.now(),
    );
    // With `sendNow`, the send is planned here too, and its answer serialised: the
    // transaction only runs statements.
    let sending = if send_at_once {
        let fields = send::field_rows(new.id(), &draft);
        new.plan_sent(actor, fields.len());
        let rows = new.rows();
        let answer = answer::Ready::new(201, store::to_out(&rows.doc, &rows.people, None))?;
        Some((fields, answer))
    } else {
        None
    };
    drop(draft);
    let (c, a) = (ctx.clone(), actor.clone());
    let (made, doc, queued) = ctx
        .db
        .transaction(move |txn| async move {
            let mut rows = new.write(&*txn, &c.db).await?;
            let (made, queued) = if let Some((fields, answer)) = sending {
                let queued =
                    send::write_planned(&c, &*txn, &a, &rows.doc, fields, rows.trail).await?;
                (answer.store(&*txn, &c, claim.as_ref()).await?, queued)
            } else {
                let approval = match approval {
                    Some(filed) => Some(filed.write(&*txn, &c, &rows.doc, &mut rows.trail).await?),
                    None => None,
                };
                let queued = rows.trail.write(&*txn, &c.db).await?;
                let status = if approval.is_some() { 202 } else { 201 };
                let out = store::to_out(&rows.doc, &rows.people, approval);
                let made = answer::store(&*txn, &c, claim.as_ref(), status, out).await?;
                (made, queued)
            };
            Ok::<_, DomainError>((made, rows.doc, queued))
        })
        .await?;
    ctx.committed(&doc.id, queued).await;
    Ok(made)
}

/// POST /documents/{id}/revise: a new draft with a new id; the old draft is deleted. Given
/// the request's idempotency `claim`, the answer is stored in the same transaction: a retry
/// after a stop between the two would otherwise find the old draft gone and never learn the
/// new one's id.
pub async fn revise(
    ctx: &Ctx,
    actor: &Actor,
    id: &str,
    body: DocumentReviseIn,
    claim: Option<&Claim>,
) -> Result<Made<DocumentOut>, DomainError> {
    actor.require(Scope::DocumentsWrite)?;
    let old = visible(&ctx.db.conn, ctx, actor, id).await?;
    if old.state != DocState::Draft {
        return Err(DomainError::conflict(format!(
            "document {id} is {}; only a draft can be revised",
            old.state
        )));
    }
    let role_map = body.role_map.unwrap_or_default();
    let people = store::people(&ctx.db.conn, &ctx.db, &[&old.id]).await?;
    check_role_map(id, &role_map, &people)?;
    let people_in: Vec<PersonIn> = people
        .iter()
        .map(|p| {
            let mut pi = lifecycle::person_in(p);
            if let Some(new) = role_map.get(&p.seat) {
                pi.role = Some(new.clone());
            }
            pi
        })
        .collect();
    let facts = match &body.facts {
        Some(f) => facts_with_defaults(ctx, actor, input::facts(Some(f))?).await?,
        None => parse_json_map(&old.facts),
    };
    let variable_values = match &body.variable_values {
        Some(v) => Some(v.clone()),
        None => {
            Some(serde_json::to_value(parse_json_map(&old.variable_values)).unwrap_or_default())
        }
    };
    let (draft, _) = prepare(
        ctx,
        DocumentCreateIn {
            title: old.title.clone(),
            source: body.source,
            people: people_in,
            email: serde_json::from_str(&old.email_options).ok(),
            metadata: Some(serde_json::to_value(&old.metadata).unwrap_or_default()),
            external_id: old.external_id.clone(),
            facts: None,
            variable_values,
            paper: Some(old.paper.clone()),
            profile: Some(old.profile.clone()),
            send: serde_json::from_str(&old.send_options).ok(),
            description: old.description.clone(),
            send_now: None,
            embedded: None,
            from_template: old.template_id.clone().zip(old.template_version),
        },
        facts,
    )
    .await?;
    signet_core::limits::spend_daily(ctx, actor).await?;
    let new = NewDraft::new(
        actor,
        &draft,
        &format!("Draft revised from {}", old.id),
        None,
        ctx.now(),
    );
    drop(draft);
    let (c, old_id, claim) = (ctx.clone(), old.id.clone(), claim.cloned());
    let (made, new_id, queued) = ctx
        .db
        .transaction(move |txn| async move {
            // Deleting first takes the write lock and proves the old draft is still a draft.
            let gone = txn
                .exec(c.db.stmt(
                    "DELETE FROM documents WHERE id = $1 AND state = 'draft'",
                    [Value::from(old_id.clone())],
                ))
                .await?;
            if gone != 1 {
                return Err(DomainError::conflict(format!(
                    "document {old_id} is no longer a draft"
                )));
            }
            txn.exec(c.db.stmt(
                "UPDATE approvals SET state = 'declined', decided_at = $2, note = 'the draft was revised' WHERE document_id = $1 AND state = 'pending'",
                [Value::from(old_id), Value::from(c.now())],
            ))
            .await?;
            let DraftRows { doc, people, trail } = new.write(&*txn, &c.db).await?;
            let queued = trail.write(&*txn, &c.db).await?;
            let out = store::to_out(&doc, &people, None);
            let made = answer::store(&*txn, &c, claim.as_ref(), 201, out).await?;
            Ok::<_, DomainError>((made, doc.id, queued))
        })
        .await?;
    ctx.committed(&old.id, signet_queue::Enqueued::none()).await;
    ctx.committed(&new_id, queued).await;
    Ok(made)
}

/// A revision's `roleMap`: each old seat renamed to a free, well-formed role, no seat twice.
fn check_role_map(
    id: &str,
    role_map: &BTreeMap<String, String>,
    people: &[store::PersonDbRow],
) -> Result<(), DomainError> {
    for (from, to) in role_map {
        if let Some(problem) = signet_source::role_problem(to) {
            return Err(DomainError::invalid(&format!("roleMap.{from}"), problem));
        }
    }
    for (from, to) in role_map {
        if !people.iter().any(|p| &p.seat == from) {
            return Err(DomainError::invalid(
                &format!("roleMap.{from}"),
                format!("document {id} has no seat '{from}'"),
            ));
        }
        let taken = people
            .iter()
            .any(|p| &p.seat == to && !role_map.contains_key(&p.seat));
        if taken || role_map.iter().any(|(f, t)| t == to && f != from) {
            return Err(DomainError::invalid(
                &format!("roleMap.{from}"),
                format!("seat '{to}' would be taken twice"),
            ));
        }
    }
    Ok(())
}

/// A template's words checked as a template: no people yet, unanswered questions allowed.
pub(crate) fn check_for_template(
    doc: &signet_source::Doc,
    facts: BTreeMap<String, String>,
) -> signet_source::Report {
    run_check(doc, None, facts, BTreeMap::new(), false, true)
}
