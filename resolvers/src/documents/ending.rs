//! Reminding, voiding and expiring documents out for signature, and the scheduler's pass
//! that expires and reminds on its own.

use sea_orm::{ConnectionTrait, DatabaseTransaction, TransactionTrait, Value};
use serde_json::json;
use signet_storage::now_ms;

use super::lifecycle::*;
use super::state::OUT_FOR_SIGNATURE;
use super::store::{self, DocRow, PersonDbRow};
use super::trail::Trail;
use super::types::*;
use super::{input, not_found, out_of, visible};
use crate::answer::{self, Claim, Made};
use crate::{Actor, Ctx, DomainError, Scope};

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
    let made = answer::store(&txn, ctx, claim, 200, out_of(ctx, &txn, &doc).await?).await?;
    txn.commit().await?;
    ctx.committed(&doc.id).await;
    Ok(made)
}

pub(crate) async fn remind_people(
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
pub(crate) async fn end(
    ctx: &Ctx,
    doc: &DocRow,
    to: &str,
    reason: Option<&str>,
    actor: &str,
    description: &str,
) -> Result<(), DomainError> {
    let txn = ctx.db.conn.begin().await?;
    end_in(ctx, &txn, doc, to, reason, actor, description).await?;
    txn.commit().await?;
    ctx.committed(&doc.id).await;
    Ok(())
}

/// `end`'s work inside the caller's transaction, which the caller commits.
async fn end_in(
    ctx: &Ctx,
    txn: &DatabaseTransaction,
    doc: &DocRow,
    to: &str,
    reason: Option<&str>,
    actor: &str,
    description: &str,
) -> Result<(), DomainError> {
    let moved = txn
        .execute_raw(ctx.db.stmt(
            &format!("UPDATE documents SET state = $2, reason = $3, updated_at = $4, next_reminder_at = NULL WHERE id = $1 AND state IN {OUT_FOR_SIGNATURE}"),
            [Value::from(doc.id.clone()), Value::from(to), Value::from(reason.map(str::to_string)), Value::from(now_ms())],
        ))
        .await?;
    if moved.rows_affected() != 1 {
        let now = store::load(txn, &ctx.db, &doc.id)
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
    let people = store::people(txn, &ctx.db, &[&doc.id]).await?;
    let locale = locale(&doc);
    for p in people.iter().filter(|p| p.invited_at.is_some()) {
        trail.email(to, &doc, p, &locale);
    }
    trail.write(txn, &ctx.db).await?;
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
    let reason = input::opt_text("reason", &body.reason, 1000)?;
    let doc = visible(&ctx.db.conn, ctx, actor, id).await?;
    let txn = ctx.db.conn.begin().await?;
    end_in(
        ctx,
        &txn,
        &doc,
        "voided",
        reason.as_deref(),
        &actor.key_id,
        "Document voided through the API",
    )
    .await?;
    let doc = store::load(&txn, &ctx.db, id)
        .await?
        .ok_or_else(|| not_found(id))?;
    let made = answer::store(&txn, ctx, claim, 200, out_of(ctx, &txn, &doc).await?).await?;
    txn.commit().await?;
    ctx.committed(&doc.id).await;
    Ok(made)
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
