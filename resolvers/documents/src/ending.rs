//! Reminding, voiding and expiring documents out for signature, and the scheduler's pass
//! that expires and reminds on its own.

use sea_orm::{ConnectionTrait, DatabaseTransaction, TransactionTrait, Value};
use serde_json::json;

use super::lifecycle::*;
use super::state::{DocState, OUT_FOR_SIGNATURE, PersonStatus};
use super::store::{self, DocRow, PersonDbRow};
use super::trail::Trail;
use super::types::*;
use super::{not_found, out_of, visible};
use signet_core::answer::{self, Claim, Made};
use signet_core::{Actor, Ctx, DomainError, Scope};
use signet_queue::Enqueued;

/// POST /documents/{id}/remind. Given the request's idempotency `claim`, the answer is
/// stored in the transaction of the reminder, so a retry after a stop between the two
/// replays it and nobody is reminded twice.
pub async fn remind(
    ctx: &Ctx,
    actor: &Actor,
    id: &str,
    body: RemindIn,
    claim: Option<&Claim>,
) -> Result<Made<DocumentOut>, DomainError> {
    actor.require(Scope::DocumentsWrite)?;
    refuse_draft_only(actor, "remind")?;
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
        .filter(|p| p.participates() && p.status.is_up())
        .filter(|p| !p.embedded)
        .filter(|p| body.seat.as_ref().is_none_or(|s| &p.seat == s))
        .collect();
    if up.is_empty() {
        return Err(DomainError::conflict(match &body.seat {
            Some(s) => format!(
                "seat '{s}' is not waiting to be reminded (it is not their turn, they are done, \
                 or they sign inside your app)"
            ),
            None => "nobody is waiting to be reminded".into(),
        }));
    }
    let up = reminder_allowance(&people, up, ctx.now())?;
    let queued = remind_people(ctx, &txn, &doc, &up, actor.recorded()).await?;
    let made = answer::store(&txn, ctx, claim, 200, out_of(ctx, &txn, &doc).await?).await?;
    txn.commit().await?;
    ctx.committed(&doc.id, queued).await;
    Ok(made)
}

/// A person is reminded at most once an hour and [`MAX_REMINDERS_PER_PERSON`] times in all,
/// and a document [`MAX_REMINDERS_PER_DOCUMENT`] times, counting the scheduled reminders: an
/// inbox is not a place to shout into, and each reminder is an audit row the certificate of
/// completion carries.
pub const REMINDER_INTERVAL_MS: i64 = 3_600_000;
pub const MAX_REMINDERS_PER_PERSON: i64 = 10;
pub const MAX_REMINDERS_PER_DOCUMENT: i64 = 100;

/// Those of `up` who may be reminded now; when none may, why not and when the next may.
pub(crate) fn reminder_allowance<'a>(
    people: &[PersonDbRow],
    up: Vec<&'a PersonDbRow>,
    now: i64,
) -> Result<Vec<&'a PersonDbRow>, DomainError> {
    let spent: i64 = people.iter().map(|p| p.reminders).sum();
    if spent >= MAX_REMINDERS_PER_DOCUMENT {
        return Err(DomainError::conflict(format!(
            "this document's people have been reminded {spent} times, the most a document allows \
             ({MAX_REMINDERS_PER_DOCUMENT})"
        )));
    }
    let room = (MAX_REMINDERS_PER_DOCUMENT - spent) as usize;
    let (fresh, spent_out): (Vec<_>, Vec<_>) = up
        .into_iter()
        .partition(|p| p.reminders < MAX_REMINDERS_PER_PERSON);
    if fresh.is_empty() {
        let p = spent_out[0];
        return Err(DomainError::conflict(format!(
            "seat '{}' has been reminded {} times, the most one person is reminded \
             ({MAX_REMINDERS_PER_PERSON})",
            p.seat, p.reminders
        )));
    }
    let next = |p: &PersonDbRow| p.last_reminded_at.map_or(now, |t| t + REMINDER_INTERVAL_MS);
    let (due, early): (Vec<_>, Vec<_>) = fresh.into_iter().partition(|p| next(p) <= now);
    if due.is_empty() {
        let soonest = early.iter().map(|p| next(p)).min().unwrap_or(now);
        let wait = ((soonest - now + 999) / 1000).max(1) as u64;
        let at = chrono::DateTime::from_timestamp_millis(soonest)
            .map(|t| t.to_rfc3339_opts(chrono::SecondsFormat::Secs, true))
            .unwrap_or_default();
        return Err(DomainError::RateLimited {
            message: format!(
                "{} reminded within the last hour; a person is reminded at most once an hour, \
                 next at {at} (in {wait} seconds)",
                if early.len() == 1 {
                    format!("seat '{}' was", early[0].seat)
                } else {
                    "everyone waiting was".to_string()
                }
            ),
            retry_after_secs: wait,
        });
    }
    Ok(due.into_iter().take(room).collect())
}

/// Draft-only keys prepare drafts; they never act on a document out for signature, whoever
/// sent it.
pub(crate) fn refuse_draft_only(actor: &Actor, verb: &str) -> Result<(), DomainError> {
    if actor.draft_only {
        return Err(DomainError::Forbidden(format!(
            "this key is draft-only: it cannot {verb} a document out for signature"
        )));
    }
    Ok(())
}

pub(crate) async fn remind_people(
    ctx: &Ctx,
    txn: &DatabaseTransaction,
    doc: &DocRow,
    up: &[&PersonDbRow],
    actor: &str,
) -> Result<Enqueued, DomainError> {
    let marks: Vec<String> = (0..up.len()).map(|i| format!("${}", i + 2)).collect();
    let mut values = vec![Value::from(ctx.now())];
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
    let mut trail = Trail::new(&doc.id, ctx.now());
    for p in up {
        trail.email("reminder", doc, p, &locale).audit(
            "reminded",
            &format!("{} ({}) reminded", p.name, p.email),
            Some(&p.seat),
            actor,
            json!({}),
        );
    }
    trail.write(txn, &ctx.db).await
}

/// Ends a document out for signature (`voided`, `expired`): state, audit, event, emails to
/// everyone who had been invited, and queued invitations and reminders withdrawn.
pub(crate) async fn end(
    ctx: &Ctx,
    doc: &DocRow,
    to: DocState,
    reason: Option<&str>,
    actor: &str,
    description: &str,
) -> Result<(), DomainError> {
    let txn = ctx.db.conn.begin().await?;
    let queued = end_in(ctx, &txn, doc, to, reason, actor, description, None).await?;
    txn.commit().await?;
    ctx.committed(&doc.id, queued).await;
    Ok(())
}

/// `end`'s work inside the caller's transaction, which the caller commits. `by` names the
/// seat whose person ended it (a decline) and what the audit row adds about them.
#[allow(clippy::too_many_arguments)]
pub(crate) async fn end_in(
    ctx: &Ctx,
    txn: &DatabaseTransaction,
    doc: &DocRow,
    to: DocState,
    reason: Option<&str>,
    actor: &str,
    description: &str,
    by: Option<(&str, serde_json::Value)>,
) -> Result<Enqueued, DomainError> {
    lock_out_for_signature(ctx, txn, doc, to.as_str()).await?;
    let people = store::people(txn, &ctx.db, &[&doc.id]).await?;
    if people
        .iter()
        .filter(|p| p.participates())
        .all(|p| p.status == PersonStatus::Signed)
    {
        return Err(DomainError::conflict(format!(
            "everyone has signed document {}; it is being sealed and can no longer be {to}",
            doc.id
        )));
    }
    let moved = txn
        .execute_raw(ctx.db.stmt(
            &format!("UPDATE documents SET state = $2, reason = $3, updated_at = $4, next_reminder_at = NULL WHERE id = $1 AND state IN {OUT_FOR_SIGNATURE}"),
            [Value::from(doc.id.clone()), Value::from(to.as_str()), Value::from(reason.map(str::to_string)), Value::from(ctx.now())],
        ))
        .await?;
    if moved.rows_affected() != 1 {
        let now = store::load(txn, &ctx.db, &doc.id)
            .await?
            .map(|d| d.state.to_string())
            .unwrap_or_default();
        return Err(DomainError::conflict(format!(
            "document {} is {now}; only a document out for signature can be {to}",
            doc.id
        )));
    }
    // People whose invitation is still held for the render were never asked to sign: they
    // hear nothing of its end either.
    let held: Vec<String> = signet_queue::held::<crate::jobs::EmailJob, _>(&ctx.db, txn, &doc.id)
        .await?
        .into_iter()
        .filter_map(|j| j.person_id)
        .collect();
    // Emails not yet sent are withdrawn; one an earlier try left waiting says so in the log.
    let withdrawn = signet_queue::cancel(&ctx.db, txn, &doc.id, "email").await?;
    if !withdrawn.is_empty() {
        let marks = (2..withdrawn.len() + 2)
            .map(|i| format!("${i}"))
            .collect::<Vec<_>>()
            .join(", ");
        let mut values = vec![Value::from(ctx.now())];
        values.extend(withdrawn.into_iter().map(Value::from));
        txn.execute_raw(ctx.db.stmt(
            &format!(
                "UPDATE emails SET status = 'failed', reason = 'withdrawn: the document was {to}', updated_at = $1 \
                 WHERE status IN ('queued', 'paused') AND job_id IN ({marks})"
            ),
            values,
        ))
        .await?;
    }
    let mut doc = doc.clone();
    doc.state = to;
    doc.reason = reason.map(str::to_string);
    let mut trail = Trail::new(&doc.id, ctx.now());
    let mut detail = json!({"reason": reason});
    let seat = by.as_ref().map(|(seat, _)| *seat);
    if let Some((_, serde_json::Value::Object(extra))) = &by
        && let Some(d) = detail.as_object_mut()
    {
        d.extend(extra.clone());
    }
    let person = seat.and_then(|s| people.iter().find(|p| p.seat == s));
    trail
        .audit(to.as_str(), description, seat, actor, detail)
        .event(&format!("documents.document.{to}"), &doc, person, reason);

    let locale = locale(&doc);
    for p in people
        .iter()
        .filter(|p| p.invited_at.is_some() && !held.iter().any(|h| *h == p.id))
    {
        trail.email(to.as_str(), &doc, p, &locale);
    }
    trail.write(txn, &ctx.db).await
}

/// A sent document whose pages cannot be rendered, for good (longer than the installation
/// allows, a page that cannot be shown to signers as it prints): Signet voids it with the
/// reason, so it ends where the caller sees it (`GET /documents/{id}`'s `reason`, the
/// `documents.document.voided` event), its held invitations are withdrawn unsent, and the
/// sender is told by email. Nothing happens to a document that already ended.
pub(crate) async fn unrenderable(ctx: &Ctx, doc_id: &str, why: &str) -> Result<(), DomainError> {
    let Some(doc) = store::load(&ctx.db.conn, &ctx.db, doc_id).await? else {
        return Ok(());
    };
    let reason = format!("Signet could not prepare the pages to sign: {why}");
    let txn = ctx.db.conn.begin().await?;
    let ending = match end_in(
        ctx,
        &txn,
        &doc,
        DocState::Voided,
        Some(&reason),
        "signet",
        "Document voided by Signet: its pages could not be rendered",
        None,
    )
    .await
    {
        Ok(q) => q,
        Err(DomainError::Conflict { .. }) => return Ok(()),
        Err(e) => return Err(e),
    };
    let mut ended = doc.clone();
    ended.state = DocState::Voided;
    ended.reason = Some(reason);
    let mut trail = Trail::new(&doc.id, ctx.now());
    trail.email_to_sender("voided", &ended, &locale(&doc));
    let queued = ending.and(trail.write(&txn, &ctx.db).await?);
    txn.commit().await?;
    ctx.committed(&doc.id, queued).await;
    Ok(())
}

/// POST /documents/{id}/void. Given the request's idempotency `claim`, the answer is stored
/// in the transaction that voids the document, so a retry after a stop between the two
/// replays it rather than hearing 409.
pub async fn void(
    ctx: &Ctx,
    actor: &Actor,
    id: &str,
    body: VoidIn,
    claim: Option<&Claim>,
) -> Result<Made<DocumentOut>, DomainError> {
    actor.require(Scope::DocumentsWrite)?;
    refuse_draft_only(actor, "void")?;
    signet_core::rules::check(&body)?;
    let reason = crate::input::trimmed(&body.reason);
    let doc = visible(&ctx.db.conn, ctx, actor, id).await?;
    let txn = ctx.db.conn.begin().await?;
    let queued = end_in(
        ctx,
        &txn,
        &doc,
        DocState::Voided,
        reason.as_deref(),
        actor.recorded(),
        &format!("Document voided {}", actor.via()),
        None,
    )
    .await?;
    let doc = store::load(&txn, &ctx.db, id)
        .await?
        .ok_or_else(|| not_found(id))?;
    let made = answer::store(&txn, ctx, claim, 200, out_of(ctx, &txn, &doc).await?).await?;
    txn.commit().await?;
    ctx.committed(&doc.id, queued).await;
    Ok(made)
}

/// The scheduler's pass: expires overdue documents and sends due reminders. Safe to run in
/// several processes at once: each change is claimed by a conditional UPDATE.
pub async fn sweep(ctx: &Ctx) -> Result<(usize, usize), DomainError> {
    let now = ctx.now();
    let due = ctx
        .db
        .conn
        .query_all_raw(ctx.db.stmt(
            // Not a document everyone has signed (it is being sealed and cannot expire), which
            // would otherwise be taken again at every pass and crowd the others out.
            &format!("SELECT {} FROM documents WHERE expires_at <= $1 AND state IN {OUT_FOR_SIGNATURE} \
                      AND EXISTS (SELECT 1 FROM people WHERE people.document_id = documents.id AND people.action <> 'cc' AND people.status <> 'signed') \
                      ORDER BY expires_at LIMIT 200", store::DOC_COLUMNS),
            [Value::from(now)],
        ))
        .await?;
    let mut expired = 0;
    for r in &due {
        let doc = DocRow::from_row(r)?;
        match end(
            ctx,
            &doc,
            DocState::Expired,
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
            .filter(|p| p.participates() && p.status.is_up())
            .filter(|p| !p.embedded)
            .collect();
        // Scheduled reminders keep to the same allowance; whoever is over it is skipped.
        let up = reminder_allowance(&people, up, now).unwrap_or_default();
        let queued = if up.is_empty() {
            Enqueued::none()
        } else {
            remind_people(ctx, &txn, &doc, &up, "signet").await?
        };
        txn.commit().await?;
        ctx.queued(queued).await;
        reminded += up.len();
    }
    Ok((expired, reminded))
}
