//! Documents made from a template: its defaults, a document from answers, and the one-step
//! send of `POST /documents/send`.

use sea_orm::{ConnectionTrait, TransactionTrait, Value};
use serde_json::json;

use crate::input;
use crate::types::{DocumentCreateIn, DocumentOut, EmailOptionsIn, PersonIn, SendOptionsIn};
use signet_core::actor::{Actor, Scope};
use signet_core::answer::{Claim, Made};
use signet_core::{Ctx, DomainError};

use super::store::{Stored, load};
use super::types::*;

/// POST /templates/{id}/defaults.
pub async fn set_defaults(
    ctx: &Ctx,
    actor: &Actor,
    id: &str,
    body: TemplateDefaults,
) -> Result<TemplateOut, DomainError> {
    actor.require(Scope::TemplatesWrite)?;
    signet_core::rules::check(&body)?;
    load(&ctx.db.conn, ctx, actor, id).await?;
    let defaults = TemplateDefaults {
        description: input::trimmed(&body.description),
        client_description: input::trimmed(&body.client_description),
        message: input::trimmed(&body.message),
        send: body.send.as_ref().map(|s| input::send_options(Some(s))),
    };
    ctx.db
        .conn
        .execute_raw(ctx.db.stmt(
            "UPDATE templates SET defaults = $2, updated_at = $3 WHERE id = $1",
            [
                Value::from(id.to_string()),
                Value::from(serde_json::to_string(&defaults).unwrap_or_else(|_| "{}".into())),
                Value::from(ctx.now()),
            ],
        ))
        .await?;
    Ok(load(&ctx.db.conn, ctx, actor, id).await?.out)
}

/// A document's `send`: the template's defaults, then the request's own, key by key.
fn merged_send(
    defaults: &Option<SendOptionsIn>,
    own: Option<SendOptionsIn>,
) -> Option<SendOptionsIn> {
    let mut base = serde_json::to_value(defaults.clone().unwrap_or_default()).unwrap_or(json!({}));
    if let (Some(b), Some(o)) = (
        base.as_object_mut(),
        own.and_then(|o| serde_json::to_value(o).ok()),
    ) && let Some(o) = o.as_object()
    {
        for (k, v) in o {
            b.insert(k.clone(), v.clone());
        }
    }
    let merged: SendOptionsIn = serde_json::from_value(base).unwrap_or_default();
    Some(merged)
}

/// The document a template makes: its words, paper and profile, then the defaults, then the
/// request.
#[allow(clippy::too_many_arguments)]
fn document_of(
    t: &Stored,
    title: Option<String>,
    people: Vec<PersonIn>,
    email: Option<EmailOptionsIn>,
    metadata: Option<serde_json::Value>,
    external_id: Option<String>,
    variable_values: Option<serde_json::Value>,
    facts: Option<serde_json::Value>,
    send: Option<SendOptionsIn>,
    send_now: bool,
    embedded: Option<Vec<String>>,
) -> DocumentCreateIn {
    let d = &t.out.defaults;
    let mut email = email.unwrap_or_default();
    if email.message.is_none() && send.as_ref().is_none_or(|s| s.message.is_none()) {
        email.message = d.message.clone();
    }
    DocumentCreateIn {
        title: title.unwrap_or_else(|| t.out.name.clone()),
        source: t.source.clone(),
        people,
        email: Some(email),
        metadata,
        external_id,
        facts,
        variable_values,
        paper: Some(t.out.paper.clone()),
        profile: Some(t.out.profile.clone()),
        send: merged_send(&d.send, send),
        description: d.description.clone(),
        send_now: Some(send_now),
        embedded,
        from_template: Some((t.out.id.clone(), t.out.version)),
    }
}

/// POST /templates/{id}/documents: a document from a written template, with answers to its
/// questions; a draft unless `sendNow`.
pub async fn make_document(
    ctx: &Ctx,
    actor: &Actor,
    id: &str,
    body: TemplateDocumentIn,
    claim: Option<&Claim>,
) -> Result<Made<DocumentOut>, DomainError> {
    actor.require(Scope::DocumentsWrite)?;
    signet_core::rules::check(&body)?;
    let t = load(&ctx.db.conn, ctx, actor, id).await?;
    let doc = document_of(
        &t,
        body.title,
        body.people,
        body.email,
        body.metadata,
        body.external_id,
        body.variable_values,
        body.facts,
        body.send,
        body.send_now.unwrap_or(false),
        body.embedded,
    );
    crate::create(ctx, actor, doc, claim).await
}

/// POST /documents/send: a template sent to one party per seat, at once.
pub async fn send(
    ctx: &Ctx,
    actor: &Actor,
    body: TemplateSendIn,
    claim: Option<&Claim>,
) -> Result<Made<DocumentOut>, DomainError> {
    actor.require(Scope::DocumentsWrite)?;
    signet_core::rules::check(&body)?;
    let t = load(&ctx.db.conn, ctx, actor, &body.template_id)
        .await
        .map_err(|e| match e {
            DomainError::NotFound(_) => DomainError::invalid(
                "templateId",
                format!("no template with id {}", body.template_id),
            ),
            e => e,
        })?;
    if !t.out.approved {
        return Err(DomainError::conflict(format!(
            "template {} waits for a person's approval before it can be sent",
            t.out.id
        )));
    }
    if !t.out.questions.is_empty() {
        return Err(DomainError::invalid(
            "templateId",
            format!(
                "template {} has questions ({}): make its documents with POST /templates/{}/documents and answer them in variableValues",
                t.out.id,
                t.out
                    .questions
                    .iter()
                    .map(|q| format!("custom.{q}"))
                    .collect::<Vec<_>>()
                    .join(", "),
                t.out.id
            ),
        ));
    }
    let people = parties_in_seats(&t.out, &body.parties)?;
    let own = SendOptionsIn {
        message: body.message.clone(),
        subject: body.subject.clone(),
        language: body.language.clone(),
        expiry_days: body.expiry_days,
        ..SendOptionsIn::default()
    };
    let doc = document_of(
        &t,
        body.title,
        people,
        body.email,
        body.metadata,
        body.external_id,
        None,
        None,
        Some(own),
        true,
        body.embedded,
    );
    crate::create(ctx, actor, doc, claim).await
}

/// One person per seat of the template, from the send's parties: each party names a seat of
/// the template, no seat twice, every seat taken; the seats' order is the signing order.
fn parties_in_seats(t: &TemplateOut, parties: &[PartyIn]) -> Result<Vec<PersonIn>, DomainError> {
    if parties.len() > input::MAX_PEOPLE {
        return Err(DomainError::invalid(
            "parties",
            format!("has at most {} entries", input::MAX_PEOPLE),
        ));
    }
    let mut people = Vec::with_capacity(parties.len());
    for (i, p) in parties.iter().enumerate() {
        let seat = p.seat.trim();
        let Some(at) = t.seats.iter().position(|s| s == seat) else {
            return Err(DomainError::invalid(
                &format!("parties[{i}].seat"),
                format!(
                    "template {} has no seat '{seat}'; its seats are {}",
                    t.id,
                    t.seats.join(", ")
                ),
            ));
        };
        if parties[..i].iter().any(|q| q.seat.trim() == seat) {
            return Err(DomainError::invalid(
                &format!("parties[{i}].seat"),
                format!("seat '{seat}' is given twice"),
            ));
        }
        people.push(PersonIn {
            name: p.name.clone(),
            email: p.email.clone(),
            role: Some(seat.to_string()),
            action: None,
            // Signing order, when the template's defaults ask for it, follows the seats.
            order: Some(at as i64 + 1),
            external_id: p.external_id.clone(),
            metadata: p.metadata.clone(),
            locale: p.locale.clone(),
            access_code: p.access_code.clone(),
            email_code: p.email_code,
            kept_access_code: None,
            kept_embedded: false,
        });
    }
    if let Some(missing) = t
        .seats
        .iter()
        .find(|s| !parties.iter().any(|p| p.seat.trim() == s.as_str()))
    {
        return Err(DomainError::invalid(
            "parties",
            format!("no party takes seat '{missing}'; give one per seat"),
        ));
    }
    Ok(people)
}

/// Decides a template's pending approval: approved, the template is listed for sending;
/// declined, it stays unlisted.
pub(crate) async fn decide(
    ctx: &Ctx,
    approval_id: &str,
    template_id: &str,
    approve: bool,
    who: &str,
    note: Option<String>,
) -> Result<(), DomainError> {
    let txn = ctx.db.conn.begin().await?;
    let done = txn
        .execute_raw(ctx.db.stmt(
            "UPDATE approvals SET state = $2, decided_at = $3, decided_by = $4, note = $5 WHERE id = $1 AND state = 'pending'",
            [
                Value::from(approval_id.to_string()),
                Value::from(if approve { "approved" } else { "declined" }),
                Value::from(ctx.now()),
                Value::from(who.to_string()),
                Value::from(note),
            ],
        ))
        .await?;
    if done.rows_affected() != 1 {
        return Err(DomainError::conflict(format!(
            "approval {approval_id} was decided meanwhile"
        )));
    }
    if approve {
        txn.execute_raw(ctx.db.stmt(
            "UPDATE templates SET approved = TRUE, updated_at = $2 WHERE id = $1",
            [Value::from(template_id.to_string()), Value::from(ctx.now())],
        ))
        .await?;
    }
    txn.commit().await?;
    Ok(())
}
