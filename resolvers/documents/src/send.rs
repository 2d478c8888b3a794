//! Sending a draft: the checks that refuse it, the approval a draft-only key files instead,
//! rendering the signer's view, and the one transaction that makes it `sent`.

use crate::state::PersonStatus;
use sea_orm::{ConnectionTrait, TransactionTrait, Value};
use serde_json::json;
use signet_source::FieldType;
use signet_storage::Sql;

use super::draft::DraftRows;
use super::lifecycle::*;
use super::store::{self, DocRow, PersonDbRow};
use super::trail::Trail;
use super::types::*;
use super::{Draft, input, out_of, visible};
use crate::state::DocState;
use signet_accounts::usage;
use signet_core::answer::{self, Claim, Made};
use signet_core::metadata::Metadata;
use signet_core::{Actor, Ctx, DomainError, Mode, Scope, ids};

/// Rebuilds a stored draft's words and people as the checks see them.
pub(crate) async fn stored_draft(
    ctx: &Ctx,
    doc: &DocRow,
) -> Result<(Draft, Vec<PersonDbRow>), DomainError> {
    let people = store::people(&ctx.db.conn, &ctx.db, &[&doc.id]).await?;
    Ok((draft_from(doc, &people)?, people))
}

/// A stored document's words and people as the checks see them, from its rows: parsing
/// only, no database (the render worker runs it on a render thread).
pub(crate) fn draft_from(doc: &DocRow, people: &[PersonDbRow]) -> Result<Draft, DomainError> {
    let source: serde_json::Value = serde_json::from_str(&doc.source)
        .map_err(|e| DomainError::Internal(format!("stored source of {}: {e}", doc.id)))?;
    let parsed = signet_source::parse("source", &source).map_err(|p| {
        DomainError::Internal(format!(
            "stored source of {} no longer parses: {}",
            doc.id, p[0]
        ))
    })?;
    let rows = input::people(&people.iter().map(person_in).collect::<Vec<_>>())
        .map_err(|p| DomainError::Internal(format!("stored people of {}: {}", doc.id, p[0])))?;
    Ok(Draft {
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
        template: doc.template_id.clone().zip(doc.template_version),
    })
}

/// POST /documents/{id}/send. Given the request's idempotency `claim`, a send stores its
/// answer in its own transaction (`answer::store`).
pub async fn send(
    ctx: &Ctx,
    actor: &Actor,
    id: &str,
    claim: Option<&Claim>,
) -> Result<Made<DocumentOut>, DomainError> {
    actor.require(Scope::DocumentsWrite)?;
    let doc = visible(&ctx.db.conn, ctx, actor, id).await?;
    send_draft(ctx, actor, doc, Via::Request, claim).await
}

/// How a send came about, which decides what it is charged.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Via<'a> {
    /// POST /documents/{id}/send: spends one of the key's daily drafts and sends.
    Request,
    /// A person approved approval `id` of a draft-only key's request: not charged to that
    /// key, but to `charge`, the key the person decided through, if any.
    Approval {
        id: &'a str,
        charge: Option<&'a Actor>,
    },
}

/// An approval of a draft-only key's send, its id and time minted before the transaction
/// that files it: a `sendNow` draft's own, or `file_approval`'s.
pub(crate) struct NewApproval {
    id: String,
    key_id: String,
    at: i64,
}

impl NewApproval {
    pub(crate) fn new(actor: &Actor, now: i64) -> NewApproval {
        NewApproval {
            id: ids::new_id("apr"),
            key_id: actor.recorded().to_string(),
            at: now,
        }
    }

    /// Inserts the approval and adds its audit row to the draft's `trail`.
    pub(crate) async fn write<C: Sql>(
        self,
        txn: &C,
        ctx: &Ctx,
        doc: &DocRow,
        trail: &mut Trail,
    ) -> Result<ApprovalOut, DomainError> {
        txn.exec(ctx.db.stmt(
            "INSERT INTO approvals (id, workspace_id, document_id, key_id, test, state, created_at) VALUES ($1, $2, $3, $4, $5, 'pending', $6)",
            [
                Value::from(self.id.clone()),
                Value::from(doc.workspace_id.clone()),
                Value::from(doc.id.clone()),
                Value::from(self.key_id.clone()),
                Value::from(doc.test),
                Value::from(self.at),
            ],
        ))
        .await?;
        trail.audit(
            "approval_requested",
            &format!("A draft-only key asked to send; approval {} filed", self.id),
            None,
            &self.key_id,
            json!({"approval": self.id}),
        );
        Ok(ApprovalOut {
            id: self.id,
            document_id: Some(doc.id.to_string()),
            template_id: None,
            state: "pending".into(),
            created_at: signet_core::clock::time(self.at),
            decided_at: None,
            note: None,
        })
    }
}

pub(crate) async fn file_approval(
    ctx: &Ctx,
    actor: &Actor,
    doc: &DocRow,
) -> Result<(u16, DocumentOut), DomainError> {
    let txn = ctx.db.conn.begin().await?;
    let touched = txn
        .execute_raw(ctx.db.stmt(
            "UPDATE documents SET updated_at = $2 WHERE id = $1 AND state = 'draft'",
            [Value::from(doc.id.clone()), Value::from(ctx.now())],
        ))
        .await?;
    if touched.rows_affected() != 1 {
        return Err(DomainError::conflict(format!(
            "document {} is no longer a draft",
            doc.id
        )));
    }
    let pending = store::pending_approvals(&txn, &ctx.db, &[&doc.id]).await?;
    let queued = if pending.is_empty() {
        let mut trail = Trail::new(&doc.id, ctx.now());
        NewApproval::new(actor, ctx.now())
            .write(&txn, ctx, doc, &mut trail)
            .await?;
        trail.write(&txn, &ctx.db).await?
    } else {
        signet_queue::Enqueued::none()
    };
    txn.commit().await?;
    ctx.committed(&doc.id, queued).await;
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
        let mode = if test { Mode::Test } else { Mode::Live };
        let ready =
            signet_payments::accounts::readiness(ctx, actor.workspace_id.as_str(), mode).await?;
        if ready != signet_payments::PaymentReadiness::Connected {
            return Err(DomainError::Forbidden(format!(
                "This document collects a payment, and payments are not connected for the workspace's {} documents (GET /api/v1/payments/status says {}).",
                mode.as_str(),
                ready.as_str()
            )));
        }
    }
    if !test && let Some(limit) = ctx.plans.limits(actor.plan).documents_per_month {
        let used = usage::documents_sent(&ctx.db, &actor.workspace_id).await?;
        if used >= limit as i64 {
            return Err(DomainError::Forbidden(format!(
                "The {} plan's allowance of {limit} documents this month is used up; it renews on the 1st (UTC).",
                actor.plan.as_str()
            )));
        }
    }
    Ok(())
}

/// Sends a draft in its own transaction.
pub(crate) async fn send_draft(
    ctx: &Ctx,
    actor: &Actor,
    doc: DocRow,
    via: Via<'_>,
    claim: Option<&Claim>,
) -> Result<Made<DocumentOut>, DomainError> {
    if doc.state != DocState::Draft {
        return Err(DomainError::conflict(format!(
            "document {} is {}; only a draft can be sent",
            doc.id, doc.state
        )));
    }
    let approval = match via {
        Via::Approval { id, .. } => Some(id.to_string()),
        Via::Request => None,
    };
    if actor.draft_only && approval.is_none() {
        let (status, out) = file_approval(ctx, actor, &doc).await?;
        return Ok(Made::plain(status, out));
    }
    let (draft, people) = stored_draft(ctx, &doc).await?;
    let report = draft.checked(false)?;
    may_send(ctx, actor, doc.test, &report).await?;
    match via {
        Via::Request => signet_core::limits::spend_daily(ctx, actor).await?,
        Via::Approval {
            charge: Some(key), ..
        } => signet_core::limits::spend_daily(ctx, key).await?,
        Via::Approval { charge: None, .. } => {}
    }
    if doc.test {
        signet_core::limits::spend_test_send(ctx, actor).await?;
    }
    // After the allowances: a refused layout has cost the caller a send, as any work does.
    fits_pages(ctx, &doc.id, doc.test, &draft, &doc.source).await?;
    let (c, a, claim) = (ctx.clone(), actor.clone(), claim.cloned());
    let fields = field_rows(&doc.id, &draft);
    // Only the send options go in: the parsed words stay here, off the writer's time.
    let options = draft.send.clone();
    let (made, id, queued) = ctx
        .db
        .transaction(move |txn| async move {
            let trail = Trail::new(&doc.id, c.now());
            let rows = DraftRows { doc, people, trail };
            let approval = approval.as_deref();
            let (doc, people, queued) =
                send_in(&c, &*txn, &a, rows, &options, fields, approval).await?;
            let out = store::to_out(&doc, &people, None);
            let made = answer::store(&*txn, &c, claim.as_ref(), 201, out).await?;
            Ok::<_, DomainError>((made, doc.id, queued))
        })
        .await?;
    ctx.committed(&id, queued).await;
    Ok(made)
}

/// The least source a laid-out page takes, in bytes of its JSON: an empty paragraph is a
/// line of about 20 bytes, and a page holds dozens of lines or rows. Words smaller than
/// `max_pages` times this cannot lay out longer than `max_pages`, so only larger ones are
/// laid out before a send is answered.
const SOURCE_BYTES_A_PAGE: usize = 128;

/// Refuses a send, before anything is written, whose words lay out to more pages than the
/// installation renders (`max_pages`): said now with 400, rather than by a render that
/// fails after the answer. `source` is the words' JSON. Documents of a file have the file's
/// pages, counted when the template was made.
pub(crate) async fn fits_pages(
    ctx: &Ctx,
    id: &str,
    test: bool,
    draft: &Draft,
    source: &str,
) -> Result<(), DomainError> {
    // What the words print: their JSON, and each merged value as often as a chip may print
    // it (a long value in a chip written many times is many pages from a small source).
    let chips = source.matches("variableChip").count().max(1);
    let values: usize = draft
        .facts
        .values()
        .chain(draft.variable_values.values())
        .map(String::len)
        .sum();
    let size = source.len().saturating_add(values.saturating_mul(chips));
    if draft.doc.file.is_some()
        || size
            < crate::services(ctx)
                .max_pages
                .saturating_mul(SOURCE_BYTES_A_PAGE)
    {
        return Ok(());
    }
    let job = super::draft::render_job_of(id, None, test, draft, crate::services(ctx).max_pages);
    let renderer = crate::services(ctx).renderer.clone();
    // On the render threads, at their pace: a burst of large sends waits there instead of
    // taking the cores from every other request.
    let counted = crate::render::in_background(move || renderer.page_count(&job))
        .await
        .map_err(|e| DomainError::Internal(format!("laying out a large document: {e}")))?;
    match counted {
        Ok(_) => Ok(()),
        Err(crate::render::RenderFailure::Refused(e)) => Err(DomainError::invalid("source", e)),
        Err(crate::render::RenderFailure::Broken(e)) => Err(DomainError::Internal(format!(
            "laying out a large document: {e}"
        ))),
    }
}

/// When a send happens and the times it sets on the document.
pub(crate) struct Sent {
    pub at: i64,
    pub expires_at: Option<i64>,
    pub next_reminder_at: Option<i64>,
}

impl Sent {
    /// A send at `at` with these options: when it expires and is first reminded.
    pub(crate) fn at(send: &SendOptionsIn, at: i64) -> Sent {
        Sent {
            at,
            expires_at: send.expiry_days.map(|d| at + d * DAY_MS),
            next_reminder_at: send
                .reminder_days
                .as_ref()
                .and_then(|d| d.first())
                .map(|d| at + d * DAY_MS),
        }
    }
}

/// The rows of the fields a signer sees, in the order the renderer places them; their
/// rectangles are filled in when the render job has run. Built before the send's transaction.
pub(crate) fn field_rows(doc_id: &str, draft: &Draft) -> Vec<Vec<Value>> {
    // A field written in several places is one row; the render gives it its places.
    let fields = signet_source::walk::unique_fields(&signet_source::walk::signer_view(&draft.doc));
    let mut rows = Vec::with_capacity(fields.len());
    for (i, f) in fields.iter().enumerate() {
        let spec = json!({
            "autofill": f.autofill.map(|a| a.as_str()),
            "editable": f.editable,
            "locked": f.locked,
            "placeholder": f.placeholder,
            "tooltip": f.tooltip,
            "options": f.options,
            "default": f.default,
            "payment": f.payment.as_ref().map(|p| json!({
                "amountMinor": p.amount_minor,
                "currency": p.currency,
                "description": p.description,
                "formula": p.formula,
                "price": p.price,
                "link": p.link,
            })),
        });
        rows.push(vec![
            Value::from(ids::new_id("fld")),
            Value::from(doc_id),
            Value::from(i as i32),
            Value::from(f.role.clone()),
            Value::from(f.name.clone()),
            Value::from(f.ty.as_str()),
            Value::from(f.required),
            Value::from(spec.to_string()),
            Value::from(0i32),
            Value::from(0f64),
            Value::from(0f64),
            Value::from(0f64),
            Value::from(0f64),
        ]);
    }
    rows
}

/// The send itself, inside the caller's transaction: the document becomes `sent`, its fields
/// are stored (placed by the render that follows), whoever is up is invited, and the event,
/// audit rows (after any `trail` already holds), usage and the render job are written.
/// Answers the rows as they now are.
pub(crate) async fn send_in<C: Sql>(
    ctx: &Ctx,
    txn: &C,
    actor: &Actor,
    rows: DraftRows,
    options: &SendOptionsIn,
    fields: Vec<Vec<Value>>,
    approval: Option<&str>,
) -> Result<(DocRow, Vec<PersonDbRow>, signet_queue::Enqueued), DomainError> {
    let DraftRows {
        mut doc,
        mut people,
        mut trail,
    } = rows;
    let sent = Sent::at(options, ctx.now());
    let moved = txn
        .exec(ctx.db.stmt(
            "UPDATE documents SET state = 'sent', sent_at = $2, updated_at = $2, expires_at = $3, \
             next_reminder_at = $4 WHERE id = $1 AND state = 'draft'",
            [
                Value::from(doc.id.clone()),
                Value::from(sent.at),
                Value::from(sent.expires_at),
                Value::from(sent.next_reminder_at),
            ],
        ))
        .await?;
    if moved != 1 {
        return Err(DomainError::conflict(format!(
            "document {} is no longer a draft",
            doc.id
        )));
    }
    doc.state = DocState::Sent;
    doc.sent_at = Some(sent.at);
    doc.updated_at = sent.at;
    doc.expires_at = sent.expires_at;
    let now = sent.at;
    let field_count = fields.len();
    // A pending approval ends with the send: the one the person approved, or any withdrawn
    // because a key allowed to send sent the draft itself. An approval declined since the
    // person read it must not send the document after all.
    let (sql, state) = match approval {
        Some(_) => (
            "UPDATE approvals SET state = $4, decided_at = $2, decided_by = $3 WHERE document_id = $1 AND state = 'pending' AND id = $5",
            "approved",
        ),
        None => (
            "UPDATE approvals SET state = $4, decided_at = $2, decided_by = $3 WHERE document_id = $1 AND state = 'pending'",
            "withdrawn",
        ),
    };
    let mut values = vec![
        Value::from(doc.id.clone()),
        Value::from(now),
        Value::from(actor.recorded().to_string()),
        Value::from(state),
    ];
    values.extend(approval.map(Value::from));
    let ended = txn.exec(ctx.db.stmt(sql, values)).await?;
    if approval.is_some() && ended != 1 {
        return Err(DomainError::conflict(format!(
            "the approval of document {} was decided meanwhile",
            doc.id
        )));
    }
    let invited = plan_sent(
        &mut trail,
        &doc,
        &mut people,
        actor.recorded(),
        field_count,
        now,
    );
    mark_invited(ctx, txn, &people, &invited, now).await?;
    let queued = write_planned(ctx, txn, actor, &doc, fields, trail).await?;
    Ok((doc, people, queued))
}

/// What a send writes besides the document's own row, decided from the rows alone, before
/// any statement runs: the `sent` audit row, the event, the render job and the invitations
/// of whoever signs first. Those people are marked invited at `at` in `people`; their rows
/// are the caller's to write. Answers their seats.
pub(crate) fn plan_sent(
    trail: &mut Trail,
    doc: &DocRow,
    people: &mut [PersonDbRow],
    actor: &str,
    field_count: usize,
    at: i64,
) -> Vec<String> {
    trail
        .audit(
            "sent",
            "Document sent for signature",
            None,
            actor,
            json!({"fields": field_count, "test": doc.test}),
        )
        .event("documents.document.sent", doc, None, None)
        .job(
            &crate::jobs::RenderJob {
                document_id: doc.id.to_string(),
            },
            doc,
            at,
        );
    // Held until the pages are rendered: nobody is invited to pages that may never exist.
    let invited = invitations(
        trail,
        doc,
        people,
        signing_order(doc),
        actor,
        signet_queue::HELD,
    );
    for p in people.iter_mut().filter(|p| invited.contains(&p.seat)) {
        p.status = PersonStatus::Invited;
        p.invited_at = Some(at);
    }
    invited
}

/// The rest of a planned send (`plan_sent`) inside its transaction, once the document and
/// its people are written as sent: the fields, the trail, and the month's count of sends,
/// which refuses the send past the plan's allowance.
pub(crate) async fn write_planned<C: Sql>(
    ctx: &Ctx,
    txn: &C,
    actor: &Actor,
    doc: &DocRow,
    fields: Vec<Vec<Value>>,
    trail: Trail,
) -> Result<signet_queue::Enqueued, DomainError> {
    signet_storage::insert_rows(
        txn,
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
        fields,
    )
    .await?;
    let queued = trail.write(txn, &ctx.db).await?;
    if !doc.test {
        let limit = ctx.plans.limits(actor.plan).documents_per_month;
        let shard = usage::shard(&ctx.db, limit.is_some(), &doc.id);
        usage::add(
            txn,
            &ctx.db,
            &doc.workspace_id,
            usage::DOCUMENTS_SENT,
            1,
            shard,
        )
        .await?;
        // Read back under shard 0's row lock (SQLite: the write lock): of sends racing for the
        // month's last document exactly one commits; the others roll back here.
        if let Some(limit) = limit
            && usage::documents_sent_in(txn, &ctx.db, &doc.workspace_id).await? > limit as i64
        {
            return Err(DomainError::Forbidden(format!(
                "The {} plan's allowance of {limit} documents this month is used up; it renews on the 1st (UTC).",
                actor.plan.as_str()
            )));
        }
    }
    Ok(queued)
}
