//! What every transition writes in its own transaction: audit rows chained to the previous one
//! by hash, the events for webhooks, and the jobs (emails, sealing) it causes. All of it goes
//! through the outbox table, so a process killed after the commit loses nothing.
//!
//! A transition collects its rows in a `Trail` and writes them at once: one read of the last
//! audit hash and one INSERT each for audit rows and outbox jobs, however many people it
//! touches. Writing answers what it queued, for `Ctx::committed` after the commit.

use ring::digest;
use sea_orm::{ConnectionTrait, Value};
use serde_json::json;
use signet_storage::Db;
use signet_storage::Sql;

use super::store::{DocRow, PersonDbRow};
use signet_core::events::Event;
use signet_core::{DomainError, ids};
use signet_queue::{Batch, Enqueued, Job, Owner};

use crate::jobs::EmailJob;

pub const GENESIS: &str = "0000000000000000000000000000000000000000000000000000000000000000";

struct AuditRow {
    event: String,
    description: String,
    seat: Option<String>,
    actor: String,
    detail: String,
}

/// The audit rows and outbox jobs of one transition of one document.
pub struct Trail {
    now: i64,
    doc_id: String,
    audits: Vec<AuditRow>,
    jobs: Batch,
    /// The document is made in this trail's transaction, so its chain starts at `GENESIS`
    /// without reading it.
    fresh: bool,
}

impl Trail {
    /// A trail of `doc_id`'s changes at `now` (`Ctx::now`): its events and emails are queued
    /// for then.
    pub fn new(doc_id: &str, now: i64) -> Trail {
        Trail {
            now,
            doc_id: doc_id.to_string(),
            audits: Vec::new(),
            jobs: Batch::default(),
            fresh: false,
        }
    }

    /// The trail of a document its own transaction makes, under an id minted for it.
    pub fn first(doc_id: &str, now: i64) -> Trail {
        Trail {
            fresh: true,
            ..Trail::new(doc_id, now)
        }
    }

    pub fn audit(
        &mut self,
        event: &str,
        description: &str,
        seat: Option<&str>,
        actor: &str,
        detail: serde_json::Value,
    ) -> &mut Trail {
        self.audits.push(AuditRow {
            event: event.to_string(),
            description: description.to_string(),
            seat: seat.map(str::to_string),
            actor: actor.to_string(),
            detail: detail.to_string(),
        });
        self
    }

    /// Queues `job` about `doc`, due at `run_at` (`signet_queue::HELD`: held until released).
    pub fn job<J: Job>(&mut self, job: &J, doc: &DocRow, run_at: i64) -> &mut Trail {
        self.jobs.add(
            job,
            Owner {
                workspace_id: &doc.workspace_id,
                document_id: Some(&doc.id),
                test: doc.test,
            },
            run_at,
        );
        self
    }

    /// The event of a transition (`documents.document.sent`, ...) with the payload `docs/architecture.md`
    /// fixes. `doc` must already carry the new state. Never a link or a code.
    pub fn event(
        &mut self,
        topic: &str,
        doc: &DocRow,
        person: Option<&PersonDbRow>,
        reason: Option<&str>,
    ) -> &mut Trail {
        let event = self.event_of(topic, doc, person, reason);
        self.job(&event, doc, self.now)
    }

    fn event_of(
        &self,
        topic: &str,
        doc: &DocRow,
        person: Option<&PersonDbRow>,
        reason: Option<&str>,
    ) -> Event {
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
                "status": p.status.as_str(),
            });
        }
        if let Some(r) = reason {
            data["reason"] = json!(r);
        }
        Event {
            created_at: signet_core::clock::time(self.now),
            data,
            id,
            test: doc.test,
            topic: topic.to_string(),
        }
    }

    /// `documents.payment.updated`: one of `doc`'s payments changed (paid, refunded,
    /// disputed), with the payment as the document's `payments` lists it.
    pub fn payment_event(
        &mut self,
        doc: &DocRow,
        person: Option<&PersonDbRow>,
        payment: serde_json::Value,
    ) -> &mut Trail {
        let mut event = self.event_of("documents.payment.updated", doc, person, None);
        event.data["payment"] = payment;
        self.job(&event, doc, self.now)
    }

    /// A receipt of `payment_id` to `person`, who paid it.
    pub fn receipt(
        &mut self,
        doc: &DocRow,
        person: &PersonDbRow,
        locale: &str,
        payment_id: &str,
    ) -> &mut Trail {
        let job = EmailJob {
            payment_id: Some(payment_id.to_string()),
            ..person_email("receipt", doc, person, locale)
        };
        if !person.embedded {
            self.job(&job, doc, self.now);
        }
        self
    }

    /// An email about `doc` to `person` (invitation, reminder, ...). Delivery belongs to the
    /// email worker; the job carries what it needs and no link (links are minted when it is
    /// sent).
    pub fn email(
        &mut self,
        kind: &str,
        doc: &DocRow,
        person: &PersonDbRow,
        locale: &str,
    ) -> &mut Trail {
        self.email_at(kind, doc, person, locale, self.now)
    }

    /// `email`, due at `run_at` (`signet_queue::HELD`: held until released).
    pub fn email_at(
        &mut self,
        kind: &str,
        doc: &DocRow,
        person: &PersonDbRow,
        locale: &str,
        run_at: i64,
    ) -> &mut Trail {
        if person.embedded {
            // Signed inside the caller's own app: Signet emails them nothing.
            return self;
        }
        let job = person_email(kind, doc, person, locale);
        self.job(&job, doc, run_at)
    }

    /// An email about `doc` to its sender (the `sender.email` fact, the reply-to address, or
    /// the workspace's sender address; none, and it is not sent).
    pub fn email_to_sender(&mut self, kind: &str, doc: &DocRow, locale: &str) -> &mut Trail {
        let job = EmailJob {
            kind: kind.to_string(),
            document_id: doc.id.to_string(),
            person_id: None,
            seat: None,
            locale: locale.to_string(),
            test: doc.test,
            nonce: None,
            payment_id: None,
        };
        self.job(&job, doc, self.now)
    }

    /// Writes everything collected. Call after the transaction has written the document row,
    /// which holds the row lock (PostgreSQL) or the write lock (SQLite), so audit sequence
    /// numbers cannot race. Answers the jobs it queued, to dispatch after the commit.
    pub async fn write<C: Sql>(self, conn: &C, db: &Db) -> Result<Enqueued, DomainError> {
        if !self.audits.is_empty() {
            let last = if self.fresh {
                None
            } else {
                conn.row(db.stmt(
                    "SELECT seq, hash FROM audit_events WHERE document_id = $1 ORDER BY seq DESC LIMIT 1",
                    [Value::from(self.doc_id.clone())],
                ))
                .await?
            };
            let (mut seq, mut prev): (i64, String) = match last {
                Some(r) => (r.try_get::<i64>("", "seq")?, r.try_get("", "hash")?),
                None => (0, GENESIS.to_string()),
            };
            let at = db.clock.now_ms();
            let mut rows = Vec::with_capacity(self.audits.len());
            for a in self.audits {
                seq += 1;
                let hash = chain_hash(
                    &prev,
                    seq,
                    at,
                    &a.event,
                    &a.description,
                    a.seat.as_deref(),
                    &a.actor,
                    &a.detail,
                );
                rows.push(vec![
                    Value::from(self.doc_id.clone()),
                    Value::from(seq),
                    Value::from(at),
                    Value::from(a.event),
                    Value::from(a.description),
                    Value::from(a.seat),
                    Value::from(a.actor),
                    Value::from(a.detail),
                    Value::from(std::mem::replace(&mut prev, hash.clone())),
                    Value::from(hash),
                ]);
            }
            signet_storage::insert_rows(
                conn,
                db,
                "audit_events",
                &[
                    "document_id",
                    "seq",
                    "at",
                    "event",
                    "description",
                    "seat",
                    "actor",
                    "detail",
                    "prev_hash",
                    "hash",
                ],
                rows,
            )
            .await?;
        }
        Ok(self.jobs.write(conn, db).await?)
    }
}

/// Appends one audit row on its own (see `Trail` for several).
#[allow(clippy::too_many_arguments)]
pub async fn audit<C: Sql>(
    conn: &C,
    db: &Db,
    doc_id: &str,
    event: &str,
    description: &str,
    seat: Option<&str>,
    actor: &str,
    detail: serde_json::Value,
) -> Result<(), DomainError> {
    let mut t = Trail::new(doc_id, db.clock.now_ms());
    t.audit(event, description, seat, actor, detail);
    // An audit row queues nothing.
    t.write(conn, db).await.map(drop)
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
    signet_core::ids::hex(ctx.finish().as_ref())
}

/// One stored audit row, as the CSV, the certificate and the verifier read it.
#[derive(Clone, Debug)]
pub struct AuditRecord {
    pub seq: i64,
    pub at: i64,
    pub event: String,
    pub description: String,
    pub seat: Option<String>,
    pub actor: String,
    pub detail: String,
    pub prev_hash: String,
    pub hash: String,
}

/// The audit rows of a document, oldest first.
pub async fn records<C: ConnectionTrait>(
    conn: &C,
    db: &Db,
    doc_id: &str,
) -> Result<Vec<AuditRecord>, DomainError> {
    records_after(conn, db, doc_id, 0, i64::MAX).await
}

/// At most `limit` audit rows of a document after the row numbered `after`, oldest first.
pub async fn records_after<C: ConnectionTrait>(
    conn: &C,
    db: &Db,
    doc_id: &str,
    after: i64,
    limit: i64,
) -> Result<Vec<AuditRecord>, DomainError> {
    let rows = conn
        .query_all_raw(db.stmt(
            "SELECT seq, at, event, description, seat, actor, detail, prev_hash, hash \
             FROM audit_events WHERE document_id = $1 AND seq > $2 ORDER BY seq LIMIT $3",
            [
                Value::from(doc_id.to_string()),
                Value::from(after),
                Value::from(limit),
            ],
        ))
        .await?;
    rows.iter()
        .map(|r| {
            Ok(AuditRecord {
                seq: r.try_get("", "seq")?,
                at: r.try_get("", "at")?,
                event: r.try_get("", "event")?,
                description: r.try_get("", "description")?,
                seat: r.try_get("", "seat")?,
                actor: r.try_get("", "actor")?,
                detail: r.try_get("", "detail")?,
                prev_hash: r.try_get("", "prev_hash")?,
                hash: r.try_get("", "hash")?,
            })
        })
        .collect()
}

/// Checks the chain: numbered from 1 with no gap, each row naming the hash of the row before
/// it, each hash recomputed from the row. Names the first row that is edited, inserted or
/// out of place, or the place where one was removed. A removed last row is found by comparing
/// the head with the one the sealed certificate states.
pub fn verify_chain(rows: &[AuditRecord]) -> Result<(), String> {
    let mut prev = GENESIS.to_string();
    for (i, r) in rows.iter().enumerate() {
        let want = i as i64 + 1;
        if r.seq != want {
            return Err(format!(
                "row {want} is missing or out of place (found row {} there)",
                r.seq
            ));
        }
        if r.prev_hash != prev {
            return Err(format!(
                "row {} does not follow row {}: a row was inserted, removed or edited before it",
                r.seq,
                r.seq - 1
            ));
        }
        let hash = chain_hash(
            &r.prev_hash,
            r.seq,
            r.at,
            &r.event,
            &r.description,
            r.seat.as_deref(),
            &r.actor,
            &r.detail,
        );
        if hash != r.hash {
            return Err(format!("row {} was edited after it was written", r.seq));
        }
        prev = hash;
    }
    Ok(())
}

/// An email of `kind` about `doc` to `person`, in their language.
fn person_email(kind: &str, doc: &DocRow, person: &PersonDbRow, locale: &str) -> EmailJob {
    EmailJob {
        kind: kind.to_string(),
        document_id: doc.id.to_string(),
        person_id: Some(person.id.to_string()),
        seat: Some(person.seat.clone()),
        locale: person.locale.as_deref().unwrap_or(locale).to_string(),
        test: doc.test,
        nonce: None,
        payment_id: None,
    }
}
