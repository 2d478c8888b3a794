//! The email log's rows as the worker writes them: reserved, sent, paused, failed; the audit
//! row an email leaves in its document's trail; the suppression list as the worker reads it.

use sea_orm::{ConnectionTrait, TransactionTrait, Value};
use signet_core::jobs::Claimed;
use signet_core::{Ctx, DomainError};
use signet_documents::store::DocRow;
use signet_queue as jobs;

use crate::Kind;

/// Marks emails sent and ends their jobs, in one transaction.
pub(super) async fn record_sent(ctx: &Ctx, sent: &[(&str, String)]) -> Result<(), DomainError> {
    if sent.is_empty() {
        return Ok(());
    }
    let now = ctx.now();
    let txn = ctx.db.conn.begin().await?;
    for chunk in sent.chunks(200) {
        let marks: Vec<String> = (2..=chunk.len() + 1).map(|i| format!("${i}")).collect();
        let mut values = vec![Value::from(now)];
        values.extend(chunk.iter().map(|(_, id)| Value::from(id.clone())));
        txn.execute_raw(ctx.db.stmt(
            &format!(
                "UPDATE emails SET status = 'sent', reason = NULL, sent_at = $1, updated_at = $1 \
                 WHERE status IN ('queued', 'paused') AND id IN ({})",
                marks.join(", ")
            ),
            values,
        ))
        .await?;
        let done: Vec<String> = chunk.iter().map(|(job, _)| job.to_string()).collect();
        jobs::finish_all(&ctx.db, &txn, &done).await?;
    }
    txn.commit().await?;
    signet_core::metrics::outcome(signet_core::metrics::Outcome::EmailSent, sent.len() as u64);
    Ok(())
}

/// Whether another email of `kind` about `doc` went out or is on its way.
pub(super) async fn already_sent_kind(
    ctx: &Ctx,
    doc: &DocRow,
    kind: Kind,
    id: &str,
) -> Result<bool, DomainError> {
    Ok(ctx
        .db
        .conn
        .query_one_raw(ctx.db.stmt(
            "SELECT 1 AS one FROM emails WHERE document_id = $1 AND kind = $2 AND id <> $3 \
             AND status <> 'failed' LIMIT 1",
            [
                Value::from(doc.id.clone()),
                Value::from(kind.as_str()),
                Value::from(id.to_string()),
            ],
        ))
        .await?
        .is_some())
}

pub(super) async fn status_of(ctx: &Ctx, job: &str) -> Result<Option<String>, DomainError> {
    let row = ctx
        .db
        .conn
        .query_one_raw(ctx.db.stmt(
            "SELECT status FROM emails WHERE job_id = $1",
            [Value::from(job.to_string())],
        ))
        .await?;
    Ok(row.map(|r| r.try_get("", "status")).transpose()?)
}

pub(super) async fn set_status(
    ctx: &Ctx,
    id: &str,
    status: &str,
    reason: Option<&str>,
) -> Result<(), DomainError> {
    ctx.db
        .write(ctx.db.stmt(
            // Only an email without an outcome: a bounce reported before this try was recorded,
            // or another worker's success, is not overwritten.
            "UPDATE emails SET status = $2, reason = $3, updated_at = $4 WHERE id = $1 AND status IN ('queued', 'paused')",
            [
                Value::from(id.to_string()),
                Value::from(status),
                Value::from(reason.map(str::to_string)),
                Value::from(ctx.now()),
            ],
        ))
        .await?;
    Ok(())
}

/// The values of the log row every try writes or keeps.
#[allow(clippy::too_many_arguments)]
pub(super) fn row_values(
    id: &str,
    job: &str,
    doc: &DocRow,
    kind: Kind,
    person_id: Option<&str>,
    to: &str,
    subject: &str,
    locale: &str,
    status: &str,
    reason: Option<&str>,
    now: i64,
) -> Vec<Value> {
    vec![
        Value::from(id.to_string()),
        Value::from(doc.workspace_id.clone()),
        Value::from(doc.test),
        Value::from(job.to_string()),
        Value::from(doc.id.clone()),
        Value::from(person_id.map(str::to_string)),
        Value::from(kind.as_str()),
        Value::from(to.to_lowercase()),
        Value::from(subject.to_string()),
        Value::from(locale.to_string()),
        Value::from(status),
        Value::from(reason.map(str::to_string)),
        Value::from(now),
        Value::from(now),
    ]
}

pub(super) const UPSERT: &str = "INSERT INTO emails (id, workspace_id, test, job_id, document_id, person_id, kind, to_address, subject, locale, \
     status, reason, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)";

/// A later try of a job keeps its row (and whether it was counted).
pub(super) const UPSERT_TAIL: &str = " ON CONFLICT (job_id) DO UPDATE SET to_address = excluded.to_address, subject = excluded.subject, \
     locale = excluded.locale, status = excluded.status, reason = excluded.reason, updated_at = excluded.updated_at";

/// Writes an audit row about an email into its document's trail, in the caller's transaction,
/// after taking the document's row lock as every trail write does.
pub(crate) async fn audit(
    ctx: &Ctx,
    txn: &sea_orm::DatabaseTransaction,
    doc_id: &str,
    event: &str,
    description: &str,
    detail: serde_json::Value,
) -> Result<(), DomainError> {
    signet_documents::store::lock_row(txn, &ctx.db, doc_id).await?;
    let mut trail = signet_documents::trail::Trail::new(doc_id, ctx.now());
    trail.audit(event, description, None, "signet", detail);
    // An audit row only: nothing is queued.
    trail.write(txn, &ctx.db).await.map(drop)
}

/// Logs an email that will not go, ends its job, and for a suppressed address writes the
/// document's audit row.
#[allow(clippy::too_many_arguments)]
pub(super) async fn fail(
    ctx: &Ctx,
    c: &Claimed,
    doc: &DocRow,
    id: &str,
    kind: Kind,
    person_id: Option<&str>,
    to: &str,
    locale: &str,
    subject: &str,
    reason: &str,
    suppressed: bool,
) -> Result<(), DomainError> {
    let txn = ctx.db.conn.begin().await?;
    txn.execute_raw(ctx.db.stmt(
        &format!("{UPSERT}{UPSERT_TAIL}"),
        row_values(
            id,
            &c.job,
            doc,
            kind,
            person_id,
            to,
            subject,
            locale,
            "failed",
            Some(reason),
            ctx.now(),
        ),
    ))
    .await?;
    if suppressed {
        audit(
            ctx,
            &txn,
            &doc.id,
            "email_suppressed",
            &format!("The {} email to {to} was not sent: {reason}", kind.as_str()),
            serde_json::json!({"email": id, "kind": kind.as_str()}),
        )
        .await?;
    }
    jobs::finish(&ctx.db, &txn, &c.job).await?;
    txn.commit().await?;
    Ok(())
}

/// Why an address is suppressed in a workspace, if it is.
pub async fn suppressed(
    ctx: &Ctx,
    workspace_id: &str,
    address: &str,
) -> Result<Option<String>, DomainError> {
    let row = ctx
        .db
        .conn
        .query_one_raw(ctx.db.stmt(
            "SELECT reason FROM email_suppressions WHERE workspace_id = $1 AND address = $2",
            [
                Value::from(workspace_id.to_string()),
                Value::from(address.to_lowercase()),
            ],
        ))
        .await?;
    Ok(row.map(|r| r.try_get("", "reason")).transpose()?)
}
