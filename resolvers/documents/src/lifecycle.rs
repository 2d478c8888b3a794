//! What the transitions share: reading a stored draft back, who is invited next, the
//! document lock, and the locale of its emails. The transitions themselves live in `send`,
//! `signing`, `ending` and `approvals`; each is one transaction that changes the state,
//! appends audit rows and queues its events and emails.

use signet_storage::Sql;
use std::collections::BTreeMap;

use sea_orm::{ConnectionTrait, DatabaseTransaction, Value};
use serde_json::json;

use super::state::{self, OUT_FOR_SIGNATURE, PersonStatus};
use super::store::{self, DocRow, PersonDbRow};
use super::trail::Trail;
use super::types::*;
use signet_core::{Ctx, DomainError};

pub(crate) const DAY_MS: i64 = 86_400_000;

pub(crate) fn person_in(p: &PersonDbRow) -> PersonIn {
    PersonIn {
        name: p.name.clone(),
        email: p.email.clone(),
        role: Some(p.seat.clone()),
        action: Some(p.action.as_str().to_string()),
        order: Some(p.order),
        external_id: p.external_id.clone(),
        metadata: Some(serde_json::to_value(&p.metadata).unwrap_or_default()),
        locale: p.locale.clone(),
        access_code: None,
        email_code: Some(p.email_code),
        kept_access_code: p.access_code_hash.clone(),
        kept_embedded: p.embedded,
    }
}

pub(crate) fn map(s: &str) -> BTreeMap<String, String> {
    serde_json::from_str(s).unwrap_or_default()
}

pub(crate) fn signing_order(doc: &DocRow) -> bool {
    serde_json::from_str::<SendOptionsIn>(&doc.send_options)
        .ok()
        .and_then(|s| s.signing_order)
        .unwrap_or(false)
}

pub(crate) fn locale(doc: &DocRow) -> String {
    let send: SendOptionsIn = serde_json::from_str(&doc.send_options).unwrap_or_default();
    let email: EmailOptionsIn = serde_json::from_str(&doc.email_options).unwrap_or_default();
    email
        .locale
        .or(send.language)
        .unwrap_or_else(|| "en".into())
}

/// Invites whoever is next (see `state::next_to_invite`), queueing their invitations.
/// Answers the seats invited.
pub(crate) async fn invite_next<C: Sql>(
    ctx: &Ctx,
    txn: &C,
    trail: &mut Trail,
    doc: &DocRow,
    people: &[PersonDbRow],
    ordered: bool,
    actor: &str,
) -> Result<Vec<String>, DomainError> {
    let invited = invitations(trail, doc, people, ordered, actor, ctx.now());
    mark_invited(ctx, txn, people, &invited, ctx.now()).await?;
    Ok(invited)
}

/// Marks the people in `seats` invited at `at`, those still waiting.
pub(crate) async fn mark_invited<C: Sql>(
    ctx: &Ctx,
    txn: &C,
    people: &[PersonDbRow],
    seats: &[String],
    at: i64,
) -> Result<(), DomainError> {
    if seats.is_empty() {
        return Ok(());
    }
    let marks: Vec<String> = (0..seats.len()).map(|i| format!("${}", i + 2)).collect();
    let mut values = vec![Value::from(at)];
    values.extend(
        people
            .iter()
            .filter(|p| seats.contains(&p.seat))
            .map(|p| Value::from(p.id.clone())),
    );
    txn.exec(ctx.db.stmt(
        &format!(
            "UPDATE people SET status = 'invited', invited_at = $1 WHERE status = 'waiting' AND id IN ({})",
            marks.join(", ")
        ),
        values,
    ))
    .await?;
    Ok(())
}

/// Who is invited next, from the rows alone: their invitation emails and `invited` audit rows
/// go into `trail`, and their seats are answered. The caller marks them invited. The emails
/// are due at `run_at`: at a send, `signet_queue::HELD`, released once the pages are rendered.
pub(crate) fn invitations(
    trail: &mut Trail,
    doc: &DocRow,
    people: &[PersonDbRow],
    ordered: bool,
    actor: &str,
    run_at: i64,
) -> Vec<String> {
    let view: Vec<_> = people
        .iter()
        .map(|p| (p.seat.as_str(), p.order, p.status, p.participates()))
        .collect();
    let seats = state::next_to_invite(ordered, &view);
    let invited: Vec<&PersonDbRow> = seats
        .iter()
        .filter_map(|seat| people.iter().find(|p| p.seat == *seat))
        .collect();
    let locale = locale(doc);
    for p in &invited {
        let mut p = (*p).clone();
        p.status = PersonStatus::Invited;
        let how = if p.embedded {
            " in the sender's own app"
        } else {
            ""
        };
        trail
            .email_at("invitation", doc, &p, &locale, run_at)
            .audit(
                "invited",
                &format!(
                    "{} ({}) invited to {}{how}",
                    p.name,
                    p.email,
                    p.action.as_str()
                ),
                Some(&p.seat),
                actor,
                json!({}),
            );
    }
    invited.iter().map(|p| p.seat.clone()).collect()
}

/// Takes the document's row lock (or SQLite's write lock) if it is still out for signature.
pub(crate) async fn lock_out_for_signature(
    ctx: &Ctx,
    txn: &DatabaseTransaction,
    doc: &DocRow,
    verb: &str,
) -> Result<(), DomainError> {
    let touched = txn
        .execute_raw(ctx.db.stmt(
            &format!("UPDATE documents SET updated_at = $2 WHERE id = $1 AND state IN {OUT_FOR_SIGNATURE}"),
            [Value::from(doc.id.clone()), Value::from(ctx.now())],
        ))
        .await?;
    if touched.rows_affected() != 1 {
        let now = store::load(txn, &ctx.db, &doc.id)
            .await?
            .map(|d| d.state.to_string())
            .unwrap_or_default();
        return Err(DomainError::conflict(format!(
            "document {} is {now}; only a document out for signature can be {verb}",
            doc.id
        )));
    }
    Ok(())
}
