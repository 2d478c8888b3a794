//! Test signatures: a test key signs a seat of its own test document, with consent, signing
//! order, audit trail and events as for a real signature.

use sea_orm::{ConnectionTrait, TransactionTrait, Value};
use serde_json::json;

use super::lifecycle::*;
use super::state::{DocState, PersonStatus, UP};
use super::store::{self, PersonDbRow};
use super::trail::Trail;
use super::types::*;
use super::{out_of, visible};
use signet_core::answer::{self, Claim, Made};
use signet_core::{Actor, Ctx, DomainError, Mode, Scope};

/// A value a test signature puts in a field, so the sealed test copy shows something real.
pub(crate) fn test_value(
    ty: &str,
    spec: &serde_json::Value,
    p: &PersonDbRow,
    today: &str,
) -> Option<String> {
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

/// POST /documents/{id}/test-sign: a test key signs a seat of its own test document. Given the
/// request's idempotency `claim`, the answer is stored in the signature's transaction.
pub async fn test_sign(
    ctx: &Ctx,
    actor: &Actor,
    id: &str,
    body: TestSignIn,
    claim: Option<&Claim>,
) -> Result<Made<DocumentOut>, DomainError> {
    actor.require(Scope::DocumentsWrite)?;
    if actor.mode != Mode::Test {
        return Err(DomainError::Forbidden(
            "test-sign needs a test key (svc_test_); a live key cannot sign for anyone".into(),
        ));
    }
    super::ending::refuse_draft_only(actor, "test-sign")?;
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
            "SELECT id, name, field_type, spec FROM fields WHERE document_id = $1 AND seat = $2 ORDER BY position",
            [Value::from(doc.id.clone()), Value::from(person.seat.clone())],
        ))
        .await?;
    let mut values = Vec::new();
    let mut completed = Vec::new();
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
        completed.push(f.try_get::<String>("", "name")?);
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
    let actor_name = format!("{} (test signature)", actor.recorded());
    let txn = ctx.db.conn.begin().await?;
    let mut trail = Trail::new(&doc.id, ctx.now());
    trail.audit(
        "consented",
        &format!("{} agreed to sign electronically (test)", person.name),
        Some(&person.seat),
        &actor_name,
        json!({"test": true}),
    );
    let (doc, queued) = record_signature(
        ctx,
        &txn,
        trail,
        doc,
        person,
        values,
        &actor_name,
        (
            format!(
                "{} ({}) signed (test signature, no legal effect)",
                person.name, person.email
            ),
            json!({"test": true, "fields": completed}),
        ),
        actor.recorded(),
    )
    .await?;
    let made = answer::store(&txn, ctx, claim, 200, out_of(ctx, &txn, &doc).await?).await?;
    txn.commit().await?;
    ctx.committed(&doc.id, queued).await;
    Ok(made)
}

/// A person's signature inside the caller's transaction: the person `signed` (409 when it is
/// not their turn, or they already acted), their fields' values, the `signed` audit row
/// (`signed` = description and detail) and event, and then either the sealing job (everyone
/// signed) or the next invitations. The trail is written; the caller commits, then calls
/// `ctx.committed` with what it queued. Answers the document as it now is and the jobs.
#[allow(clippy::too_many_arguments)]
pub(crate) async fn record_signature(
    ctx: &Ctx,
    txn: &sea_orm::DatabaseTransaction,
    mut trail: Trail,
    doc: super::store::DocRow,
    person: &PersonDbRow,
    values: Vec<(String, Option<String>)>,
    actor_name: &str,
    signed: (String, serde_json::Value),
    inviter: &str,
) -> Result<(super::store::DocRow, signet_queue::Enqueued), DomainError> {
    lock_out_for_signature(ctx, txn, &doc, "signed").await?;
    let now = ctx.now();
    let moved = txn
        .execute_raw(ctx.db.stmt(
            &format!("UPDATE people SET status = 'signed', completed_at = $2 WHERE id = $1 AND status IN {UP}"),
            [Value::from(person.id.clone()), Value::from(now)],
        ))
        .await?;
    if moved.rows_affected() != 1 {
        let status = store::people(txn, &ctx.db, &[&doc.id])
            .await?
            .into_iter()
            .find(|p| p.id == person.id)
            .map(|p| p.status);
        return Err(DomainError::conflict(match status {
            Some(PersonStatus::Waiting) => {
                format!("it is not seat '{}''s turn to sign yet", person.seat)
            }
            Some(s) => format!("seat '{}' has already {s}", person.seat),
            None => format!("seat '{}' has already ", person.seat),
        }));
    }
    for (fid, v) in values {
        txn.execute_raw(ctx.db.stmt(
            "UPDATE fields SET value = $2 WHERE id = $1",
            [Value::from(fid), Value::from(v)],
        ))
        .await?;
    }
    trail.audit(
        "signed",
        &signed.0,
        Some(&person.seat),
        actor_name,
        signed.1,
    );
    let people = store::people(txn, &ctx.db, &[&doc.id]).await?;
    let all_done = people
        .iter()
        .filter(|p| p.participates())
        .all(|p| p.status == PersonStatus::Signed);
    let mut doc = doc;
    if doc.state != DocState::Signed || all_done {
        txn.execute_raw(ctx.db.stmt(
            "UPDATE documents SET state = 'signed', next_reminder_at = CASE WHEN $2 THEN NULL ELSE next_reminder_at END, \
             expires_at = CASE WHEN $2 THEN NULL ELSE expires_at END WHERE id = $1",
            [Value::from(doc.id.clone()), Value::from(all_done)],
        ))
        .await?;
        doc.state = DocState::Signed;
    }
    let me = people
        .iter()
        .find(|p| p.id == person.id)
        .cloned()
        .unwrap_or_else(|| person.clone());
    trail.event("documents.document.signed", &doc, Some(&me), None);
    if all_done {
        trail
            .job(
                &crate::jobs::SealJob {
                    document_id: doc.id.to_string(),
                },
                &doc,
                now,
            )
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
            txn,
            &mut trail,
            &doc,
            &people,
            signing_order(&doc),
            inviter,
        )
        .await?;
    }
    let queued = trail.write(txn, &ctx.db).await?;
    Ok((doc, queued))
}
