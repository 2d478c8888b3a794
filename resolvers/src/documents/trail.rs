//! What every transition writes in its own transaction: an audit row chained to the previous
//! one by hash, the event for webhooks, and the jobs (emails, sealing) it causes. All of it goes
//! through the outbox table, so a process killed after the commit loses nothing.

use ring::digest;
use sea_orm::{ConnectionTrait, Value};
use serde_json::json;
use signet_storage::{Db, now_ms};

use super::store::{DocRow, PersonDbRow};
use crate::{DomainError, ids};

pub const GENESIS: &str = "0000000000000000000000000000000000000000000000000000000000000000";

/// Appends one audit row. Call after the transaction has written the document row, which holds
/// the row lock (PostgreSQL) or the write lock (SQLite), so sequence numbers cannot race.
#[allow(clippy::too_many_arguments)]
pub async fn audit<C: ConnectionTrait>(
    conn: &C,
    db: &Db,
    doc_id: &str,
    event: &str,
    description: &str,
    seat: Option<&str>,
    actor: &str,
    detail: serde_json::Value,
) -> Result<(), DomainError> {
    let last = conn
        .query_one_raw(db.stmt(
            "SELECT seq, hash FROM audit_events WHERE document_id = $1 ORDER BY seq DESC LIMIT 1",
            [Value::from(doc_id)],
        ))
        .await?;
    let (seq, prev): (i64, String) = match last {
        Some(r) => (r.try_get::<i64>("", "seq")? + 1, r.try_get("", "hash")?),
        None => (1, GENESIS.to_string()),
    };
    let at = now_ms();
    let detail = detail.to_string();
    let hash = chain_hash(&prev, seq, at, event, description, seat, actor, &detail);
    conn.execute_raw(db.stmt(
        "INSERT INTO audit_events (document_id, seq, at, event, description, seat, actor, detail, prev_hash, hash) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
        [
            Value::from(doc_id),
            Value::from(seq),
            Value::from(at),
            Value::from(event),
            Value::from(description),
            Value::from(seat.map(str::to_string)),
            Value::from(actor),
            Value::from(detail),
            Value::from(prev),
            Value::from(hash),
        ],
    ))
    .await?;
    Ok(())
}

/// SHA-256 over the previous hash and every column, each length-prefixed so no two rows can
/// produce the same input.
#[allow(clippy::too_many_arguments)]
pub fn chain_hash(
    prev: &str,
    seq: i64,
    at: i64,
    event: &str,
    description: &str,
    seat: Option<&str>,
    actor: &str,
    detail: &str,
) -> String {
    let mut ctx = digest::Context::new(&digest::SHA256);
    for part in [
        prev,
        &seq.to_string(),
        &at.to_string(),
        event,
        description,
        seat.unwrap_or(""),
        actor,
        detail,
    ] {
        ctx.update(&(part.len() as u64).to_be_bytes());
        ctx.update(part.as_bytes());
    }
    ctx.finish()
        .as_ref()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Queues a job in the outbox.
pub async fn job<C: ConnectionTrait>(
    conn: &C,
    db: &Db,
    kind: &str,
    doc: &DocRow,
    payload: serde_json::Value,
    run_at: i64,
) -> Result<String, DomainError> {
    let id = ids::new_id("job");
    conn.execute_raw(db.stmt(
        "INSERT INTO outbox (id, kind, workspace_id, document_id, test, payload, state, attempts, run_at, created_at) \
         VALUES ($1, $2, $3, $4, $5, $6, 'queued', 0, $7, $8)",
        [
            Value::from(id.clone()),
            Value::from(kind),
            Value::from(doc.workspace_id.clone()),
            Value::from(doc.id.clone()),
            Value::from(doc.test),
            Value::from(payload.to_string()),
            Value::from(run_at),
            Value::from(now_ms()),
        ],
    ))
    .await?;
    Ok(id)
}

/// Writes the event of a transition (`documents.document.sent`, ...) with the payload DESIGN.md
/// fixes. `doc` must already carry the new state. Never a link or a code.
pub async fn event<C: ConnectionTrait>(
    conn: &C,
    db: &Db,
    topic: &str,
    doc: &DocRow,
    person: Option<&PersonDbRow>,
    reason: Option<&str>,
) -> Result<(), DomainError> {
    let id = ids::new_id("evt");
    let mut data = json!({
        "document": {
            "id": doc.id,
            "state": doc.state,
            "title": doc.title,
            "test": doc.test,
            "externalId": doc.external_id,
            "metadata": doc.metadata,
        }
    });
    if let Some(p) = person {
        data["person"] = json!({
            "seat": p.seat,
            "name": p.name,
            "externalId": p.external_id,
            "metadata": p.metadata,
            "status": p.status,
        });
    }
    if let Some(r) = reason {
        data["reason"] = json!(r);
    }
    let payload = json!({
        "id": id,
        "type": topic,
        "createdAt": super::store::time(now_ms()),
        "test": doc.test,
        "data": data,
    });
    job(conn, db, "event", doc, payload, now_ms()).await?;
    Ok(())
}

/// Queues an email about `doc` to `person` (invitation, reminder, ...). Delivery belongs to the
/// email worker; the job carries what it needs and no link (links are minted when it is sent).
pub async fn email<C: ConnectionTrait>(
    conn: &C,
    db: &Db,
    kind: &str,
    doc: &DocRow,
    person: &PersonDbRow,
    locale: &str,
) -> Result<(), DomainError> {
    job(
        conn,
        db,
        "email",
        doc,
        json!({
            "kind": kind,
            "documentId": doc.id,
            "personId": person.id,
            "seat": person.seat,
            "locale": locale,
            "test": doc.test,
        }),
        now_ms(),
    )
    .await?;
    Ok(())
}
