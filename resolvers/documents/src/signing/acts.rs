//! What a person does on their signing page: report that they saw the document (`opened`),
//! accept the disclosure, sign, or decline. Each is recorded in the audit trail with the
//! address and browser it came from; each answers 409 when it is no longer theirs to do.

use crate::state::PersonStatus;
use std::collections::BTreeMap;

use sea_orm::{ConnectionTrait, TransactionTrait, Value};
use serde::Deserialize;
use serde_json::json;

use super::view::{ViewOut, view_of};
use super::visit::{Seen, Stage, Visit, consented, stage, visit, with};
use super::{identity, values, words};

use crate::trail::Trail;
use signet_core::{Ctx, DomainError};

fn not_now(v: &Visit, what: &str) -> DomainError {
    let why = match stage(&v.doc, &v.person) {
        Stage::Waiting => "it is not your turn yet".to_string(),
        Stage::Signed => "you have already signed".to_string(),
        Stage::Declined if v.person.status == PersonStatus::Declined => "you declined".to_string(),
        Stage::Sign => "it is your turn".to_string(),
        _ => format!("the document is {}", v.doc.state),
    };
    DomainError::conflict(format!("you cannot {what}: {why}"))
}

/// POST /page/v1/opened: the person's first act on the page showing the document (a scroll,
/// a tap, a key; accepting the disclosure counts too), reported by the page, never a GET or
/// a picture loading, which a link scanner running scripts also does. The first time, the person is `opened`, and the document too when
/// nobody had opened it, with the audit row and `documents.document.opened`. Later reports,
/// and reports once it is not their turn, change nothing.
pub async fn opened(
    ctx: &Ctx,
    token: &str,
    pass: Option<&str>,
    seen: &Seen,
) -> Result<(), DomainError> {
    let v = visit(ctx, token).await?;
    identity::require(ctx, &v, pass)?;
    let seen = &seen.of(&v);
    if stage(&v.doc, &v.person) != Stage::Sign || v.person.status != PersonStatus::Invited {
        return Ok(());
    }
    let txn = ctx.db.conn.begin().await?;
    let now = ctx.now();
    let moved = txn
        .execute_raw(ctx.db.stmt(
            "UPDATE people SET status = 'opened', opened_at = $2 WHERE id = $1 AND status = 'invited'",
            [Value::from(v.person.id.clone()), Value::from(now)],
        ))
        .await?;
    if moved.rows_affected() != 1 {
        return Ok(());
    }
    let mut doc = v.doc.clone();
    let first = txn
        .execute_raw(ctx.db.stmt(
            "UPDATE documents SET state = 'opened', updated_at = $2 WHERE id = $1 AND state = 'sent'",
            [Value::from(doc.id.clone()), Value::from(now)],
        ))
        .await?;
    if first.rows_affected() == 1 {
        doc.state = crate::state::DocState::Opened;
    }
    let mut person = v.person.clone();
    person.status = PersonStatus::Opened;
    person.opened_at = Some(now);
    let mut trail = Trail::new(&doc.id, ctx.now());
    trail
        .audit(
            "opened",
            &format!("{} ({}) opened the document", person.name, person.email),
            Some(&person.seat),
            &person.name,
            seen.detail(),
        )
        .event("documents.document.opened", &doc, Some(&person), None);
    let queued = trail.write(&txn, &ctx.db).await?;
    txn.commit().await?;
    ctx.committed(&doc.id, queued).await;
    Ok(())
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ConsentIn {
    pub version: String,
    pub sha256: String,
}

/// POST /page/v1/consent: the person accepts the disclosure they were shown, named by its
/// version and digest (a page showing an older text is refused, and reloads).
pub async fn consent(
    ctx: &Ctx,
    token: &str,
    pass: Option<&str>,
    body: ConsentIn,
    seen: &Seen,
) -> Result<ViewOut, DomainError> {
    // Accepting is the person's first act on the page: they opened the document.
    opened(ctx, token, pass, seen).await?;
    let v = visit(ctx, token).await?;
    identity::require(ctx, &v, pass)?;
    let seen = &seen.of(&v);
    if stage(&v.doc, &v.person) != Stage::Sign {
        return Err(not_now(&v, "accept the disclosure"));
    }
    let lang = super::visit::language(&v.doc, &v.person);
    let shown = words::disclosure(lang);
    if body.version != shown.version || body.sha256 != shown.sha256 {
        return Err(DomainError::invalid(
            "version",
            "the disclosure has changed since the page was loaded; reload the page and read it again",
        ));
    }
    if !consented(ctx, &v.doc, &v.person).await? {
        let mut trail = Trail::new(&v.doc.id, ctx.now());
        trail.audit(
            "consented",
            &format!(
                "{} ({}) agreed to use electronic records and signatures (disclosure {}, {lang})",
                v.person.name, v.person.email, shown.version
            ),
            Some(&v.person.seat),
            &v.person.name,
            with(
                json!({"version": shown.version, "sha256": shown.sha256, "language": lang}),
                seen,
            ),
        );
        let txn = ctx.db.conn.begin().await?;
        identity::lock_document(&txn, ctx, &v.doc.id).await?;
        let queued = trail.write(&txn, &ctx.db).await?;
        txn.commit().await?;
        ctx.queued(queued).await;
    }
    view_of(ctx, &v, pass).await
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SignIn {
    /// Values by field id.
    pub values: BTreeMap<String, serde_json::Value>,
}

/// POST /page/v1/sign: the person signs with their fields' values, checked here. As a test
/// signature: signing order, the next invitations, `documents.document.signed`, and sealing
/// once everyone has signed.
pub async fn sign(
    ctx: &Ctx,
    token: &str,
    pass: Option<&str>,
    body: SignIn,
    seen: &Seen,
) -> Result<ViewOut, DomainError> {
    let v = visit(ctx, token).await?;
    identity::require(ctx, &v, pass)?;
    let seen = &seen.of(&v);
    if stage(&v.doc, &v.person) != Stage::Sign || !v.person.participates() {
        return Err(not_now(&v, "sign"));
    }
    if !consented(ctx, &v.doc, &v.person).await? {
        return Err(DomainError::conflict(
            "accept the electronic records disclosure before signing",
        ));
    }
    let fields = values::rows(ctx, &v.doc, &v.person).await?;
    let mut checked = values::check(&fields, &body.values, &v.person, &values::today())?;
    super::pay::settle(ctx, &fields, &v.person.id, &mut checked).await?;
    let names: Vec<&str> = fields.iter().map(|f| f.name.as_str()).collect();
    let kinds: Vec<&str> = fields
        .iter()
        .zip(&checked)
        .filter(|(f, _)| f.ty == "signature" || f.ty == "initials")
        .map(|(_, (_, v))| match v.as_deref() {
            Some(s) if s.starts_with('{') => match crate::render::Drawing::parse(s) {
                Some(d) if d.filled => "uploaded",
                _ => "drawn",
            },
            Some(_) => "typed",
            None => "none",
        })
        .collect();
    let txn = ctx.db.conn.begin().await?;
    let (doc, queued) = crate::record_signature(
        ctx,
        &txn,
        Trail::new(&v.doc.id, ctx.now()),
        v.doc.clone(),
        &v.person,
        checked,
        &v.person.name,
        (
            format!("{} ({}) signed", v.person.name, v.person.email),
            with(json!({"fields": names, "signatures": kinds}), seen),
        ),
        &v.person.name,
    )
    .await?;
    txn.commit().await?;
    ctx.committed(&doc.id, queued).await;
    let again = visit(ctx, token).await?;
    view_of(ctx, &again, pass).await
}

#[derive(Debug, Deserialize, serde::Serialize, signet_core::rules::Validate)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct DeclineIn {
    #[serde(default)]
    #[validate(custom(function = signet_core::rules::blank_or_text::<1000>))]
    pub reason: Option<String>,
}

/// POST /page/v1/decline: the person declines; the document ends as `declined` for everyone,
/// who are told by email, as is the sender. A reason is required when the sender asked for
/// one (`send.requireDeclineReason`).
pub async fn decline(
    ctx: &Ctx,
    token: &str,
    pass: Option<&str>,
    body: DeclineIn,
    seen: &Seen,
) -> Result<ViewOut, DomainError> {
    let v = visit(ctx, token).await?;
    identity::require(ctx, &v, pass)?;
    let seen = &seen.of(&v);
    if stage(&v.doc, &v.person) != Stage::Sign || !v.person.participates() {
        return Err(not_now(&v, "decline"));
    }
    signet_core::rules::check(&body)?;
    let reason = crate::input::trimmed(&body.reason);
    let send: crate::types::SendOptionsIn =
        serde_json::from_str(&v.doc.send_options).unwrap_or_default();
    if send.require_decline_reason.unwrap_or(false) && reason.is_none() {
        return Err(DomainError::invalid(
            "reason",
            "is required: the sender asks for a reason when you decline",
        ));
    }
    let txn = ctx.db.conn.begin().await?;
    let moved = txn
        .execute_raw(ctx.db.stmt(
            &format!(
                "UPDATE people SET status = 'declined', declined_at = $2, decline_reason = $3 WHERE id = $1 AND status IN {}",
                crate::state::UP
            ),
            [
                Value::from(v.person.id.clone()),
                Value::from(ctx.now()),
                Value::from(reason.clone()),
            ],
        ))
        .await?;
    if moved.rows_affected() != 1 {
        return Err(not_now(&v, "decline"));
    }
    let description = match &reason {
        Some(r) => format!(
            "{} ({}) declined to sign: {r}",
            v.person.name, v.person.email
        ),
        None => format!("{} ({}) declined to sign", v.person.name, v.person.email),
    };
    let ending = crate::end_in(
        ctx,
        &txn,
        &v.doc,
        crate::state::DocState::Declined,
        reason.as_deref(),
        &v.person.name,
        &description,
        Some((&v.person.seat, seen.detail())),
    )
    .await?;
    let mut doc = v.doc.clone();
    doc.state = crate::state::DocState::Declined;
    doc.reason = reason;
    let mut trail = Trail::new(&doc.id, ctx.now());
    trail.email_to_sender("declined", &doc, &crate::locale(&doc));
    let queued = ending.and(trail.write(&txn, &ctx.db).await?);
    txn.commit().await?;
    ctx.committed(&doc.id, queued).await;
    let again = visit(ctx, token).await?;
    view_of(ctx, &again, pass).await
}
