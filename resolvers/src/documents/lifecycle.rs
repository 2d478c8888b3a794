//! Sending and what follows: send (or file an approval), remind, void, test-sign, the
//! scheduler's expiry and reminders, and deciding approvals. Each transition is one transaction
//! that changes the state, appends audit rows and queues its events and emails.

use std::collections::BTreeMap;

use sea_orm::{ConnectionTrait, DatabaseTransaction, TransactionTrait, Value};
use serde_json::json;
use signet_source::FieldType;
use signet_storage::now_ms;

use super::state::{self, OUT_FOR_SIGNATURE, UP};
use super::store::{self, DocRow, PersonDbRow};
use super::trail::{self, Trail};
use super::types::*;
use super::{Draft, input, not_found, out_of, visible};
use crate::metadata::Metadata;
use crate::render::RenderJob;
use crate::{Actor, Ctx, DomainError, Mode, Scope, ids, usage};

const DAY_MS: i64 = 86_400_000;

/// Renders at once: one per core. Rendering is pure CPU, so more only adds threads, memory and
/// context switches; a send beyond these waits its turn.
static RENDER_SLOTS: std::sync::LazyLock<tokio::sync::Semaphore> = std::sync::LazyLock::new(|| {
    tokio::sync::Semaphore::new(
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(2),
    )
});

pub(crate) fn person_in(p: &PersonDbRow) -> PersonIn {
    PersonIn {
        name: p.name.clone(),
        email: p.email.clone(),
        role: Some(p.seat.clone()),
        action: Some(p.action.clone()),
        order: Some(p.order),
        external_id: p.external_id.clone(),
        metadata: Some(serde_json::to_value(&p.metadata).unwrap_or_default()),
    }
}

fn map(s: &str) -> BTreeMap<String, String> {
    serde_json::from_str(s).unwrap_or_default()
}

/// Rebuilds a stored draft's words and people as the checks see them.
async fn stored_draft(ctx: &Ctx, doc: &DocRow) -> Result<(Draft, Vec<PersonDbRow>), DomainError> {
    let source: serde_json::Value = serde_json::from_str(&doc.source)
        .map_err(|e| DomainError::Internal(format!("stored source of {}: {e}", doc.id)))?;
    let parsed = signet_source::parse("source", &source).map_err(|p| {
        DomainError::Internal(format!(
            "stored source of {} no longer parses: {}",
            doc.id, p[0]
        ))
    })?;
    let people = store::people(&ctx.db.conn, &ctx.db, &[&doc.id]).await?;
    let rows = input::people(&people.iter().map(person_in).collect::<Vec<_>>())
        .map_err(|p| DomainError::Internal(format!("stored people of {}: {}", doc.id, p[0])))?;
    Ok((
        Draft {
            title: doc.title.clone(),
            description: doc.description.clone(),
            external_id: doc.external_id.clone(),
            metadata: Metadata(doc.metadata.clone()),
            source,
            doc: parsed,
            people: rows,
            facts: map(&doc.facts),
            variable_values: map(&doc.variable_values),
            paper: doc.paper.clone(),
            profile: doc.profile.clone(),
            send: serde_json::from_str(&doc.send_options).unwrap_or_default(),
            email: serde_json::from_str(&doc.email_options).unwrap_or_default(),
        },
        people,
    ))
}

/// POST /documents/{id}/send.
pub async fn send(ctx: &Ctx, actor: &Actor, id: &str) -> Result<(u16, DocumentOut), DomainError> {
    actor.require(Scope::DocumentsWrite)?;
    let doc = visible(&ctx.db.conn, ctx, actor, id).await?;
    send_draft(ctx, actor, doc, Via::Request).await
}

/// How a send came about, which decides what it is charged.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Via {
    /// POST /documents/{id}/send: spends one of the key's daily drafts and sends.
    Request,
    /// `sendNow` on create: the create already spent it; one request, one unit.
    SendNow,
    /// A person approved a draft-only key's request: not charged to the key.
    Approval,
}

async fn file_approval(
    ctx: &Ctx,
    actor: &Actor,
    doc: &DocRow,
) -> Result<(u16, DocumentOut), DomainError> {
    let txn = ctx.db.conn.begin().await?;
    let touched = txn
        .execute_raw(ctx.db.stmt(
            "UPDATE documents SET updated_at = $2 WHERE id = $1 AND state = 'draft'",
            [Value::from(doc.id.clone()), Value::from(now_ms())],
        ))
        .await?;
    if touched.rows_affected() != 1 {
        return Err(DomainError::conflict(format!(
            "document {} is no longer a draft",
            doc.id
        )));
    }
    let pending = store::pending_approvals(&txn, &ctx.db, &[&doc.id]).await?;
    if pending.is_empty() {
        let apr = ids::new_id("apr");
        txn.execute_raw(ctx.db.stmt(
            "INSERT INTO approvals (id, workspace_id, document_id, key_id, test, state, created_at) VALUES ($1, $2, $3, $4, $5, 'pending', $6)",
            [
                Value::from(apr.clone()),
                Value::from(doc.workspace_id.clone()),
                Value::from(doc.id.clone()),
                Value::from(actor.key_id.clone()),
                Value::from(doc.test),
                Value::from(now_ms()),
            ],
        ))
        .await?;
        trail::audit(
            &txn,
            &ctx.db,
            &doc.id,
            "approval_requested",
            &format!("A draft-only key asked to send; approval {apr} filed"),
            None,
            &actor.key_id,
            json!({"approval": apr}),
        )
        .await?;
    }
    txn.commit().await?;
    ctx.live.publish(&doc.id).await;
    Ok((202, out_of(ctx, &ctx.db.conn, doc).await?))
}

/// What refuses a send whatever the draft's state: a payment field while payments are not
/// connected, or a live send past the plan's monthly allowance.
pub(crate) async fn may_send(
    ctx: &Ctx,
    actor: &Actor,
    test: bool,
    report: &signet_source::Report,
) -> Result<(), DomainError> {
    if report.fields.iter().any(|f| f.ty == FieldType::Payment) {
        // No processor account can be connected yet, so readiness is never `connected`.
        return Err(DomainError::Forbidden(
            "This document collects a payment, and payments are not connected for the workspace (GET /api/v1/payments/status).".into(),
        ));
    }
    if !test && let Some(limit) = ctx.plans.limits(actor.plan).documents_per_month {
        let used = usage::get_documents_sent(ctx, &actor.workspace_id).await?;
        if used >= limit as i64 {
            return Err(DomainError::Forbidden(format!(
                "The {} plan's allowance of {limit} documents this month is used up; it renews on the 1st (UTC).",
                actor.plan.as_str()
            )));
        }
    }
    Ok(())
}

/// Sends a draft. `approved` is true when a person approved a draft-only key's request.
pub(crate) async fn send_draft(
    ctx: &Ctx,
    actor: &Actor,
    doc: DocRow,
    via: Via,
) -> Result<(u16, DocumentOut), DomainError> {
    let approved = via == Via::Approval;
    if doc.state != "draft" {
        return Err(DomainError::conflict(format!(
            "document {} is {}; only a draft can be sent",
            doc.id, doc.state
        )));
    }
    if actor.draft_only && !approved {
        return file_approval(ctx, actor, &doc).await;
    }
    let (draft, people) = stored_draft(ctx, &doc).await?;
    let report = draft.checked(false)?;
    may_send(ctx, actor, doc.test, &report).await?;
    if via == Via::Request {
        crate::limits::spend_daily(ctx, actor).await?;
    }

    // Render the signer's view with every value merged, off the async runtime.
    let now = now_ms();
    let mut values: BTreeMap<String, String> = draft.facts.clone();
    for (k, v) in &draft.variable_values {
        values.insert(format!("custom.{k}"), v.clone());
    }
    values.insert("document.title".into(), draft.title.clone());
    values.insert(
        "document.date".into(),
        chrono::Utc::now().format("%Y-%m-%d").to_string(),
    );
    let mut seat_names = BTreeMap::new();
    for p in &draft.people {
        values.insert(format!("{}.name", p.seat), p.name.clone());
        values.insert(format!("{}.email", p.seat), p.email.clone());
        seat_names.insert(p.seat.clone(), p.name.clone());
    }
    let job = RenderJob {
        source: draft.doc.clone(),
        title: draft.title.clone(),
        footer: doc.id.clone(),
        paper: draft.paper.clone(),
        profile: draft.profile.clone(),
        test: doc.test,
        lang: draft.send.language.clone().unwrap_or_else(|| "en".into()),
        values,
        seat_names,
    };
    let renderer = ctx.renderer.clone();
    let slot = RENDER_SLOTS
        .acquire()
        .await
        .map_err(|e| DomainError::Internal(format!("render slots closed: {e}")))?;
    let rendered = tokio::task::spawn_blocking(move || renderer.render(&job))
        .await
        .map_err(|e| DomainError::Internal(format!("renderer panicked: {e}")))?
        .map_err(|e| DomainError::Internal(format!("rendering {}: {e}", doc.id)))?;
    drop(slot);
    // A name of its own per render: a second send racing on this draft (which will lose at
    // the conditional UPDATE) cannot overwrite the winner's file.
    let blob = format!(
        "documents/{}/{}.pdf",
        doc.id,
        ids::new_id("render").to_lowercase()
    );
    ctx.blobs.put(&blob, rendered.pdf).await?;

    let send = &draft.send;
    let expires_at = send.expiry_days.map(|d| now + d * DAY_MS);
    let next_reminder = send
        .reminder_days
        .as_ref()
        .and_then(|d| d.first())
        .map(|d| now + d * DAY_MS);
    let sizes: Vec<[f64; 2]> = rendered.pages.iter().map(|(w, h)| [*w, *h]).collect();
    let txn = ctx.db.conn.begin().await?;
    let moved = txn
        .execute_raw(ctx.db.stmt(
            "UPDATE documents SET state = 'sent', sent_at = $2, updated_at = $2, expires_at = $3, next_reminder_at = $4, \
             pdf_blob = $5, page_sizes = $6 WHERE id = $1 AND state = 'draft'",
            [
                Value::from(doc.id.clone()),
                Value::from(now),
                Value::from(expires_at),
                Value::from(next_reminder),
                Value::from(blob),
                Value::from(serde_json::to_string(&sizes).unwrap_or_default()),
            ],
        ))
        .await?;
    if moved.rows_affected() != 1 {
        return Err(DomainError::conflict(format!(
            "document {} is no longer a draft",
            doc.id
        )));
    }
    let mut rows = Vec::with_capacity(rendered.fields.len());
    for (i, p) in rendered.fields.iter().enumerate() {
        let f = &p.field;
        let spec = json!({
            "autofill": f.autofill.map(|a| a.as_str()),
            "editable": f.editable,
            "locked": f.locked,
            "placeholder": f.placeholder,
            "tooltip": f.tooltip,
            "options": f.options,
            "default": f.default,
            "payment": f.payment.as_ref().map(|p| json!({"amountMinor": p.amount_minor, "currency": p.currency, "description": p.description})),
        });
        rows.push(vec![
            Value::from(ids::new_id("fld")),
            Value::from(doc.id.clone()),
            Value::from(i as i32),
            Value::from(f.role.clone()),
            Value::from(f.name.clone()),
            Value::from(f.ty.as_str()),
            Value::from(f.required),
            Value::from(spec.to_string()),
            Value::from(p.page as i32),
            Value::from(p.x),
            Value::from(p.y),
            Value::from(p.width),
            Value::from(p.height),
        ]);
    }
    store::insert_rows(
        &txn,
        &ctx.db,
        "fields",
        &[
            "id",
            "document_id",
            "position",
            "seat",
            "name",
            "field_type",
            "required",
            "spec",
            "page",
            "x",
            "y",
            "width",
            "height",
        ],
        rows,
    )
    .await?;
    // A pending approval ends with the send: approved by the person, or withdrawn because a
    // key allowed to send sent the draft itself.
    txn.execute_raw(ctx.db.stmt(
        "UPDATE approvals SET state = $4, decided_at = $2, decided_by = $3 WHERE document_id = $1 AND state = 'pending'",
        [
            Value::from(doc.id.clone()),
            Value::from(now),
            Value::from(actor.key_id.clone()),
            Value::from(if approved { "approved" } else { "withdrawn" }),
        ],
    ))
    .await?;
    let mut doc = doc;
    doc.state = "sent".into();
    let mut trail = Trail::new(&doc.id);
    trail
        .audit(
            "sent",
            "Document sent for signature",
            None,
            &actor.key_id,
            json!({"pages": sizes.len(), "fields": rendered.fields.len(), "test": doc.test}),
        )
        .event("documents.document.sent", &doc, None, None);
    invite_next(
        ctx,
        &txn,
        &mut trail,
        &doc,
        &people,
        signing_order(&doc),
        &actor.key_id,
    )
    .await?;
    trail.write(&txn, &ctx.db).await?;
    if !doc.test {
        usage::add(&txn, &ctx.db, &doc.workspace_id, usage::DOCUMENTS_SENT, 1).await?;
        // Read back under the counter's row lock (SQLite: the write lock): of sends racing for
        // the month's last document exactly one commits; the others roll back here.
        if let Some(limit) = ctx.plans.limits(actor.plan).documents_per_month
            && usage::documents_sent_in(&txn, &ctx.db, &doc.workspace_id).await? > limit as i64
        {
            return Err(DomainError::Forbidden(format!(
                "The {} plan's allowance of {limit} documents this month is used up; it renews on the 1st (UTC).",
                actor.plan.as_str()
            )));
        }
    }
    txn.commit().await?;
    ctx.live.publish(&doc.id).await;
    let doc = store::load(&ctx.db.conn, &ctx.db, &doc.id)
        .await?
        .ok_or_else(|| not_found(&doc.id))?;
    Ok((201, out_of(ctx, &ctx.db.conn, &doc).await?))
}

fn signing_order(doc: &DocRow) -> bool {
    serde_json::from_str::<SendOptionsIn>(&doc.send_options)
        .ok()
        .and_then(|s| s.signing_order)
        .unwrap_or(false)
}

fn locale(doc: &DocRow) -> String {
    let send: SendOptionsIn = serde_json::from_str(&doc.send_options).unwrap_or_default();
    let email: EmailOptionsIn = serde_json::from_str(&doc.email_options).unwrap_or_default();
    email
        .locale
        .or(send.language)
        .unwrap_or_else(|| "en".into())
}

/// Invites whoever is next (see `state::next_to_invite`), queueing their invitations.
async fn invite_next(
    ctx: &Ctx,
    txn: &DatabaseTransaction,
    trail: &mut Trail,
    doc: &DocRow,
    people: &[PersonDbRow],
    ordered: bool,
    actor: &str,
) -> Result<usize, DomainError> {
    let view: Vec<_> = people
        .iter()
        .map(|p| {
            (
                p.seat.as_str(),
                p.order,
                p.status.as_str(),
                p.participates(),
            )
        })
        .collect();
    let seats = state::next_to_invite(ordered, &view);
    let invited: Vec<&PersonDbRow> = seats
        .iter()
        .filter_map(|seat| people.iter().find(|p| p.seat == *seat))
        .collect();
    if invited.is_empty() {
        return Ok(0);
    }
    let marks: Vec<String> = (0..invited.len()).map(|i| format!("${}", i + 2)).collect();
    let mut values = vec![Value::from(now_ms())];
    values.extend(invited.iter().map(|p| Value::from(p.id.clone())));
    txn.execute_raw(ctx.db.stmt(
        &format!(
            "UPDATE people SET status = 'invited', invited_at = $1 WHERE status = 'waiting' AND id IN ({})",
            marks.join(", ")
        ),
        values,
    ))
    .await?;
    let locale = locale(doc);
    for p in &invited {
        let mut p = (*p).clone();
        p.status = "invited".into();
        trail.email("invitation", doc, &p, &locale).audit(
            "invited",
            &format!("{} ({}) invited to {}", p.name, p.email, p.action),
            Some(&p.seat),
            actor,
            json!({}),
        );
    }
    Ok(seats.len())
}

/// Takes the document's row lock (or SQLite's write lock) if it is still out for signature.
async fn lock_out_for_signature(
    ctx: &Ctx,
    txn: &DatabaseTransaction,
    doc: &DocRow,
    verb: &str,
) -> Result<(), DomainError> {
    let touched = txn
        .execute_raw(ctx.db.stmt(
            &format!("UPDATE documents SET updated_at = $2 WHERE id = $1 AND state IN {OUT_FOR_SIGNATURE}"),
            [Value::from(doc.id.clone()), Value::from(now_ms())],
        ))
        .await?;
    if touched.rows_affected() != 1 {
        let now = store::load(txn, &ctx.db, &doc.id)
            .await?
            .map(|d| d.state)
            .unwrap_or_default();
        return Err(DomainError::conflict(format!(
            "document {} is {now}; only a document out for signature can be {verb}",
            doc.id
        )));
    }
    Ok(())
}

/// POST /documents/{id}/remind.
pub async fn remind(
    ctx: &Ctx,
    actor: &Actor,
    id: &str,
    body: RemindIn,
) -> Result<DocumentOut, DomainError> {
    actor.require(Scope::DocumentsWrite)?;
    let doc = visible(&ctx.db.conn, ctx, actor, id).await?;
    let people = store::people(&ctx.db.conn, &ctx.db, &[&doc.id]).await?;
    if let Some(seat) = &body.seat
        && !people.iter().any(|p| &p.seat == seat)
    {
        return Err(DomainError::invalid(
            "seat",
            format!("document {id} has no seat '{seat}'"),
        ));
    }
    let txn = ctx.db.conn.begin().await?;
    lock_out_for_signature(ctx, &txn, &doc, "reminded").await?;
    let people = store::people(&txn, &ctx.db, &[&doc.id]).await?;
    let up: Vec<_> = people
        .iter()
        .filter(|p| p.participates() && matches!(p.status.as_str(), "invited" | "opened"))
        .filter(|p| body.seat.as_ref().is_none_or(|s| &p.seat == s))
        .collect();
    if up.is_empty() {
        return Err(DomainError::conflict(match &body.seat {
            Some(s) => format!(
                "seat '{s}' is not waiting to be reminded (it is not their turn, or they are done)"
            ),
            None => "nobody is waiting to be reminded".into(),
        }));
    }
    remind_people(ctx, &txn, &doc, &up, &actor.key_id).await?;
    txn.commit().await?;
    ctx.live.publish(&doc.id).await;
    out_of(ctx, &ctx.db.conn, &doc).await
}

async fn remind_people(
    ctx: &Ctx,
    txn: &DatabaseTransaction,
    doc: &DocRow,
    up: &[&PersonDbRow],
    actor: &str,
) -> Result<(), DomainError> {
    let marks: Vec<String> = (0..up.len()).map(|i| format!("${}", i + 2)).collect();
    let mut values = vec![Value::from(now_ms())];
    values.extend(up.iter().map(|p| Value::from(p.id.clone())));
    txn.execute_raw(ctx.db.stmt(
        &format!(
            "UPDATE people SET last_reminded_at = $1, reminders = reminders + 1 WHERE id IN ({})",
            marks.join(", ")
        ),
        values,
    ))
    .await?;
    let locale = locale(doc);
    let mut trail = Trail::new(&doc.id);
    for p in up {
        trail.email("reminder", doc, p, &locale).audit(
            "reminded",
            &format!("{} ({}) reminded", p.name, p.email),
            Some(&p.seat),
            actor,
            json!({}),
        );
    }
    trail.write(txn, &ctx.db).await?;
    Ok(())
}

/// Ends a document out for signature (`voided`, `expired`): state, audit, event, emails to
/// everyone who had been invited, and queued invitations and reminders withdrawn.
async fn end(
    ctx: &Ctx,
    doc: &DocRow,
    to: &str,
    reason: Option<&str>,
    actor: &str,
    description: &str,
) -> Result<(), DomainError> {
    let txn = ctx.db.conn.begin().await?;
    let moved = txn
        .execute_raw(ctx.db.stmt(
            &format!("UPDATE documents SET state = $2, reason = $3, updated_at = $4, next_reminder_at = NULL WHERE id = $1 AND state IN {OUT_FOR_SIGNATURE}"),
            [Value::from(doc.id.clone()), Value::from(to), Value::from(reason.map(str::to_string)), Value::from(now_ms())],
        ))
        .await?;
    if moved.rows_affected() != 1 {
        let now = store::load(&txn, &ctx.db, &doc.id)
            .await?
            .map(|d| d.state)
            .unwrap_or_default();
        return Err(DomainError::conflict(format!(
            "document {} is {now}; only a document out for signature can be {to}",
            doc.id
        )));
    }
    txn.execute_raw(ctx.db.stmt(
        "UPDATE outbox SET state = 'cancelled' WHERE document_id = $1 AND kind = 'email' AND state = 'queued'",
        [Value::from(doc.id.clone())],
    ))
    .await?;
    let mut doc = doc.clone();
    doc.state = to.to_string();
    doc.reason = reason.map(str::to_string);
    let mut trail = Trail::new(&doc.id);
    trail
        .audit(to, description, None, actor, json!({"reason": reason}))
        .event(&format!("documents.document.{to}"), &doc, None, reason);
    let people = store::people(&txn, &ctx.db, &[&doc.id]).await?;
    let locale = locale(&doc);
    for p in people.iter().filter(|p| p.invited_at.is_some()) {
        trail.email(to, &doc, p, &locale);
    }
    trail.write(&txn, &ctx.db).await?;
    txn.commit().await?;
    ctx.live.publish(&doc.id).await;
    Ok(())
}

/// POST /documents/{id}/void.
pub async fn void(
    ctx: &Ctx,
    actor: &Actor,
    id: &str,
    body: VoidIn,
) -> Result<DocumentOut, DomainError> {
    actor.require(Scope::DocumentsWrite)?;
    let reason = input::opt_text("reason", &body.reason, 1000)?;
    let doc = visible(&ctx.db.conn, ctx, actor, id).await?;
    end(
        ctx,
        &doc,
        "voided",
        reason.as_deref(),
        &actor.key_id,
        "Document voided through the API",
    )
    .await?;
    let doc = store::load(&ctx.db.conn, &ctx.db, id)
        .await?
        .ok_or_else(|| not_found(id))?;
    out_of(ctx, &ctx.db.conn, &doc).await
}

/// A value a test signature puts in a field, so the sealed test copy shows something real.
fn test_value(ty: &str, spec: &serde_json::Value, p: &PersonDbRow, today: &str) -> Option<String> {
    if let Some(d) = spec.get("default").and_then(|d| d.as_str()) {
        return Some(d.to_string());
    }
    match spec.get("autofill").and_then(|a| a.as_str()) {
        Some("name") => return Some(p.name.clone()),
        Some("email") => return Some(p.email.clone()),
        Some("date_signed") => return Some(today.to_string()),
        _ => {}
    }
    Some(match ty {
        "signature" => p.name.clone(),
        "initials" => p
            .name
            .split_whitespace()
            .filter_map(|w| w.chars().next())
            .collect(),
        "date" => today.to_string(),
        "checkbox" => "true".into(),
        "radio" | "select" => spec.get("options")?.get(0)?.as_str()?.to_string(),
        "number" => "1".into(),
        "email" => p.email.clone(),
        "name" => p.name.clone(),
        "company" => "Test Company".into(),
        "phone" => "+1 555 0100".into(),
        _ => "test".into(),
    })
}

/// POST /documents/{id}/test-sign: a test key signs a seat of its own test document.
pub async fn test_sign(
    ctx: &Ctx,
    actor: &Actor,
    id: &str,
    body: TestSignIn,
) -> Result<DocumentOut, DomainError> {
    actor.require(Scope::DocumentsWrite)?;
    if actor.mode != Mode::Test {
        return Err(DomainError::Forbidden(
            "test-sign needs a test key (svc_test_); a live key cannot sign for anyone".into(),
        ));
    }
    let doc = visible(&ctx.db.conn, ctx, actor, id).await?;
    let people = store::people(&ctx.db.conn, &ctx.db, &[&doc.id]).await?;
    let Some(person) = people.iter().find(|p| p.seat == body.seat) else {
        return Err(DomainError::invalid(
            "seat",
            format!("document {id} has no seat '{}'", body.seat),
        ));
    };
    let fields = ctx
        .db
        .conn
        .query_all_raw(ctx.db.stmt(
            "SELECT id, field_type, spec FROM fields WHERE document_id = $1 AND seat = $2 ORDER BY position",
            [Value::from(doc.id.clone()), Value::from(person.seat.clone())],
        ))
        .await?;
    let mut values = Vec::new();
    let today = chrono::Utc::now().format("%Y-%m-%d").to_string();
    for f in &fields {
        let ty: String = f.try_get("", "field_type")?;
        if ty == "payment" {
            return Err(DomainError::Forbidden(format!(
                "seat '{}' pays through the payment processor; it cannot be test-signed (use the processor's test card)",
                person.seat
            )));
        }
        let spec: serde_json::Value =
            serde_json::from_str(&f.try_get::<String>("", "spec")?).unwrap_or_default();
        values.push((
            f.try_get::<String>("", "id")?,
            test_value(&ty, &spec, person, &today),
        ));
    }
    if !person.participates() {
        return Err(DomainError::conflict(format!(
            "seat '{}' only receives a copy; there is nothing to sign",
            person.seat
        )));
    }
    let txn = ctx.db.conn.begin().await?;
    lock_out_for_signature(ctx, &txn, &doc, "signed").await?;
    let now = now_ms();
    let signed = txn
        .execute_raw(ctx.db.stmt(
            &format!("UPDATE people SET status = 'signed', completed_at = $2 WHERE id = $1 AND status IN {UP}"),
            [Value::from(person.id.clone()), Value::from(now)],
        ))
        .await?;
    if signed.rows_affected() != 1 {
        let status = store::people(&txn, &ctx.db, &[&doc.id])
            .await?
            .into_iter()
            .find(|p| p.id == person.id)
            .map(|p| p.status)
            .unwrap_or_default();
        return Err(DomainError::conflict(match status.as_str() {
            "waiting" => format!("it is not seat '{}''s turn to sign yet", person.seat),
            s => format!("seat '{}' has already {s}", person.seat),
        }));
    }
    for (fid, v) in values {
        txn.execute_raw(ctx.db.stmt(
            "UPDATE fields SET value = $2 WHERE id = $1",
            [Value::from(fid), Value::from(v)],
        ))
        .await?;
    }
    let actor_name = format!("{} (test signature)", actor.key_id);
    let mut trail = Trail::new(&doc.id);
    trail
        .audit(
            "consented",
            &format!("{} agreed to sign electronically (test)", person.name),
            Some(&person.seat),
            &actor_name,
            json!({"test": true}),
        )
        .audit(
            "signed",
            &format!(
                "{} ({}) signed (test signature, no legal effect)",
                person.name, person.email
            ),
            Some(&person.seat),
            &actor_name,
            json!({"test": true}),
        );
    let people = store::people(&txn, &ctx.db, &[&doc.id]).await?;
    let all_done = people
        .iter()
        .filter(|p| p.participates())
        .all(|p| p.status == "signed");
    let mut doc = doc;
    if doc.state != "signed" || all_done {
        txn.execute_raw(ctx.db.stmt(
            "UPDATE documents SET state = 'signed', next_reminder_at = CASE WHEN $2 THEN NULL ELSE next_reminder_at END WHERE id = $1",
            [Value::from(doc.id.clone()), Value::from(all_done)],
        ))
        .await?;
        doc.state = "signed".into();
    }
    let me = people
        .iter()
        .find(|p| p.id == person.id)
        .cloned()
        .unwrap_or_else(|| person.clone());
    trail.event("documents.document.signed", &doc, Some(&me), None);
    if all_done {
        trail
            .job("seal", &doc, json!({"documentId": doc.id}), now)
            .audit(
                "all_signed",
                "Everyone has signed; the sealed copy is being made",
                None,
                "signet",
                json!({}),
            );
    } else {
        invite_next(
            ctx,
            &txn,
            &mut trail,
            &doc,
            &people,
            signing_order(&doc),
            &actor.key_id,
        )
        .await?;
    }
    trail.write(&txn, &ctx.db).await?;
    txn.commit().await?;
    ctx.live.publish(&doc.id).await;
    out_of(ctx, &ctx.db.conn, &doc).await
}

/// The scheduler's pass: expires overdue documents and sends due reminders. Safe to run in
/// several processes at once: each change is claimed by a conditional UPDATE.
pub async fn sweep(ctx: &Ctx) -> Result<(usize, usize), DomainError> {
    let now = now_ms();
    let due = ctx
        .db
        .conn
        .query_all_raw(ctx.db.stmt(
            &format!("SELECT {} FROM documents WHERE expires_at <= $1 AND state IN {OUT_FOR_SIGNATURE} LIMIT 200", store::DOC_COLUMNS),
            [Value::from(now)],
        ))
        .await?;
    let mut expired = 0;
    for r in &due {
        let doc = DocRow::from_row(r)?;
        match end(
            ctx,
            &doc,
            "expired",
            None,
            "signet",
            "Document expired before everyone signed",
        )
        .await
        {
            Ok(()) => expired += 1,
            Err(DomainError::Conflict { .. }) => {}
            Err(e) => return Err(e),
        }
    }
    let due = ctx
        .db
        .conn
        .query_all_raw(ctx.db.stmt(
            &format!("SELECT {}, next_reminder_at FROM documents WHERE next_reminder_at <= $1 AND state IN {OUT_FOR_SIGNATURE} LIMIT 200", store::DOC_COLUMNS),
            [Value::from(now)],
        ))
        .await?;
    let mut reminded = 0;
    for r in &due {
        let doc = DocRow::from_row(r)?;
        let was: i64 = r.try_get("", "next_reminder_at")?;
        let send: SendOptionsIn = serde_json::from_str(&doc.send_options).unwrap_or_default();
        let sent = doc.sent_at.unwrap_or(now);
        let next = send
            .reminder_days
            .unwrap_or_default()
            .into_iter()
            .map(|d| sent + d * DAY_MS)
            .find(|t| *t > now);
        let txn = ctx.db.conn.begin().await?;
        let claimed = txn
            .execute_raw(ctx.db.stmt(
                &format!("UPDATE documents SET next_reminder_at = $3 WHERE id = $1 AND next_reminder_at = $2 AND state IN {OUT_FOR_SIGNATURE}"),
                [Value::from(doc.id.clone()), Value::from(was), Value::from(next)],
            ))
            .await?;
        if claimed.rows_affected() != 1 {
            continue;
        }
        let people = store::people(&txn, &ctx.db, &[&doc.id]).await?;
        let up: Vec<_> = people
            .iter()
            .filter(|p| p.participates() && matches!(p.status.as_str(), "invited" | "opened"))
            .collect();
        remind_people(ctx, &txn, &doc, &up, "signet").await?;
        txn.commit().await?;
        reminded += up.len();
    }
    Ok((expired, reminded))
}

/// Approvals of a workspace, newest first (`signet admin approvals list`).
pub async fn approvals_list(
    ctx: &Ctx,
    workspace_id: &str,
    state: Option<&str>,
) -> Result<Vec<ApprovalOut>, DomainError> {
    let rows = ctx
        .db
        .conn
        .query_all_raw(ctx.db.stmt(
            "SELECT id, document_id, state, created_at, decided_at, note FROM approvals WHERE workspace_id = $1 \
             AND ($2 = '' OR state = $2) ORDER BY id DESC LIMIT 500",
            [Value::from(workspace_id), Value::from(state.unwrap_or("").to_string())],
        ))
        .await?;
    rows.iter().map(store::approval_from_row).collect()
}

/// Approves (sends the document) or declines a pending approval. `by` names the person.
pub async fn approvals_decide(
    ctx: &Ctx,
    approval_id: &str,
    approve: bool,
    by: &str,
    note: Option<String>,
) -> Result<ApprovalOut, DomainError> {
    let row = ctx
        .db
        .conn
        .query_one_raw(ctx.db.stmt(
            "SELECT id, workspace_id, document_id, key_id, state FROM approvals WHERE id = $1",
            [Value::from(approval_id)],
        ))
        .await?
        .ok_or_else(|| DomainError::NotFound(format!("no approval with id {approval_id}")))?;
    let state: String = row.try_get("", "state")?;
    if state != "pending" {
        return Err(DomainError::conflict(format!(
            "approval {approval_id} is already {state}"
        )));
    }
    let doc_id: String = row.try_get("", "document_id")?;
    let ws = crate::workspaces::get(ctx, &row.try_get::<String>("", "workspace_id")?).await?;
    let doc = store::load(&ctx.db.conn, &ctx.db, &doc_id)
        .await?
        .ok_or_else(|| not_found(&doc_id))?;
    if approve {
        let actor = Actor {
            workspace_id: ws.id.clone(),
            key_id: format!("person:{by}"),
            mode: if doc.test { Mode::Test } else { Mode::Live },
            scopes: crate::actor::Scopes::all(),
            plan: ws.plan,
            draft_only: false,
            daily_limit: None,
            per_minute: u64::MAX,
        };
        send_draft(ctx, &actor, doc, Via::Approval).await?;
    } else {
        let txn = ctx.db.conn.begin().await?;
        let done = txn
            .execute_raw(ctx.db.stmt(
                "UPDATE approvals SET state = 'declined', decided_at = $2, decided_by = $3, note = $4 WHERE id = $1 AND state = 'pending'",
                [Value::from(approval_id), Value::from(now_ms()), Value::from(by), Value::from(note.clone())],
            ))
            .await?;
        if done.rows_affected() != 1 {
            return Err(DomainError::conflict(format!(
                "approval {approval_id} was decided meanwhile"
            )));
        }
        trail::audit(
            &txn,
            &ctx.db,
            &doc.id,
            "approval_declined",
            &format!("{by} declined the send"),
            None,
            &format!("person:{by}"),
            json!({"approval": approval_id, "note": note}),
        )
        .await?;
        txn.commit().await?;
        ctx.live.publish(&doc.id).await;
    }
    let row = ctx
        .db
        .conn
        .query_one_raw(ctx.db.stmt("SELECT id, document_id, state, created_at, decided_at, note FROM approvals WHERE id = $1", [Value::from(approval_id)]))
        .await?
        .ok_or_else(|| DomainError::NotFound(format!("no approval with id {approval_id}")))?;
    store::approval_from_row(&row)
}
