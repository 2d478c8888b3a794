//! Sealing: the job queued when the last seat signs. It runs in three incremental updates over
//! the file people were sent, so each step can be cut back out and hashed:
//!
//! 1. the values layer (every field value drawn in its rectangle);
//! 2. the certificate of completion, which states the SHA-256 of the file as sent and of the
//!    file with the values, and the head of the audit chain;
//! 3. the PAdES B-LTA seal (`signet-seal`).
//!
//! Only when the sealed file is stored does the document become `executed`, in one
//! transaction with its audit row, its event and the job's end. A job is leased: a process
//! that dies mid-seal leaves a lease that runs out, and the next worker seals again. Sealing
//! twice is harmless; only one conditional UPDATE can win.

use crate::state::PersonStatus;
use sea_orm::{ConnectionTrait, TransactionTrait, Value};
use serde_json::json;

use super::store::{self, DocRow, PersonDbRow};
use super::trail::{self, AuditRecord, Trail};
use crate::jobs::SealJob;
use crate::render::{CertificateDoc, MarkKind, ValueMark};
use crate::state::DocState;
use signet_core::jobs::{Claimed, Handler};
use signet_core::{Ctx, DomainError};
use signet_queue as jobs;

/// The sealing worker's handler.
pub struct Seals;

#[async_trait::async_trait]
impl Handler for Seals {
    type Job = SealJob;
    const BATCH: i64 = BATCH;

    fn lease_ms(_ctx: &Ctx) -> i64 {
        LEASE_MS
    }

    async fn run(ctx: &Ctx, claimed: Vec<Claimed>) -> Result<(), DomainError> {
        run_seals(ctx, claimed).await.map(drop)
    }
}

/// How long a worker owns a sealing job before another may take it.
pub const LEASE_MS: i64 = 120_000;
/// Seals one pass takes.
pub const BATCH: i64 = 8;

/// Seals the claimed documents. Answers how many became executed.
pub async fn run_seals(ctx: &Ctx, claimed: Vec<Claimed>) -> Result<usize, DomainError> {
    let mut sealed = 0;
    for c in claimed {
        let Some(doc_id) = c.doc_id.clone() else {
            jobs::done(&ctx.db, &c.job).await?;
            continue;
        };
        match seal_one(ctx, &c.job, &doc_id).await {
            Ok(true) => {
                sealed += 1;
                signet_core::metrics::outcome(signet_core::metrics::Outcome::SealDone, 1);
                // An earlier try may have left its sealed file, or a render its own.
                if c.attempts > 0
                    && let Err(e) =
                        crate::leftovers::remove(ctx, &doc_id, crate::leftovers::Leftovers::All)
                            .await
                {
                    tracing::warn!(document = %doc_id, error = %e, "removing earlier tries' files failed");
                }
            }
            Ok(false) => {}
            Err(e) => {
                tracing::error!(document = %doc_id, attempts = c.attempts + 1, error = %e, "sealing failed; will retry");
                signet_core::metrics::outcome(signet_core::metrics::Outcome::SealRetried, 1);
                jobs::retry_later(&ctx.db, &c).await?;
            }
        }
    }
    Ok(sealed)
}

/// Re-queues documents everyone signed that have no sealing job waiting: a job lost to an
/// operator's hand or a restore. Answers how many it queued.
pub async fn requeue_stuck(ctx: &Ctx) -> Result<usize, DomainError> {
    let rows = ctx
        .db
        .conn
        .query_all_raw(ctx.db.stmt(
            &format!(
                "SELECT {} FROM documents d WHERE d.state = 'signed' AND d.updated_at < $1 \
                 AND NOT EXISTS (SELECT 1 FROM people p WHERE p.document_id = d.id AND p.action <> 'cc' AND p.status <> 'signed') \
                 AND NOT {} LIMIT 100",
                store::DOC_COLUMNS
                    .split(", ")
                    .map(|c| format!("d.{}", c.trim()))
                    .collect::<Vec<_>>()
                    .join(", "),
                signet_queue::waiting_sql("d.id", <crate::jobs::SealJob as signet_queue::Job>::KIND)
            ),
            [Value::from(ctx.now() - LEASE_MS)],
        ))
        .await?;
    for r in &rows {
        let doc = DocRow::from_row(r)?;
        let mut t = Trail::new(&doc.id, ctx.now());
        t.job(
            &SealJob {
                document_id: doc.id.to_string(),
            },
            &doc,
            ctx.now(),
        );
        let queued = t.write(&ctx.db.conn, &ctx.db).await?;
        ctx.queued(queued).await;
        tracing::warn!(document = %doc.id, "re-queued sealing for a signed document with no job");
    }
    Ok(rows.len())
}

/// Seals one document. `Ok(false)` when there was nothing to do (already executed, voided).
async fn seal_one(ctx: &Ctx, job: &str, doc_id: &str) -> Result<bool, DomainError> {
    let Some((doc, people)) = ready_to_seal(ctx, job, doc_id).await? else {
        return Ok(false);
    };
    let conn = &ctx.db.conn;
    let blob = store::file_of(conn, &ctx.db, doc_id, store::FileColumn::Rendered).await?;
    let blob =
        blob.ok_or_else(|| DomainError::Internal(format!("{doc_id} has no rendered file")))?;
    let original = ctx.blobs.get(&blob).await?.ok_or_else(|| {
        DomainError::Internal(format!("the rendered file of {doc_id} is missing"))
    })?;
    let audit = trail::records(conn, &ctx.db, doc_id).await?;
    trail::verify_chain(&audit).map_err(|e| {
        DomainError::Internal(format!("the audit trail of {doc_id} is broken: {e}"))
    })?;
    let send: super::types::SendOptionsIn =
        serde_json::from_str(&doc.send_options).unwrap_or_default();
    let lang = send.language.unwrap_or_else(|| "en".into());
    let sealing = Sealing {
        marks: value_marks(ctx, doc_id, &people, &lang).await?,
        pages: page_sizes(&doc)?,
        doc: doc.clone(),
        people: people.clone(),
        audit,
        original,
        sealed_at: chrono::Utc::now(),
    };
    let services = crate::services(ctx);
    let (renderer, authority) = (services.renderer.clone(), services.authority.clone());
    let stamping = services.stamping.clone();
    let handle = tokio::runtime::Handle::current();
    let made = tokio::task::spawn_blocking(move || {
        let stamper = stamping.stamper(&authority, sealing.doc.test, handle);
        sealing.make(renderer.as_ref(), &authority, stamper.as_ref())
    })
    .await
    .map_err(|e| DomainError::Internal(format!("sealing panicked: {e}")))?
    .map_err(|e| DomainError::Internal(format!("sealing {doc_id}: {e}")))?;
    record_sealed(ctx, job, doc, &people, made).await
}

/// The document and its people when it is ready to seal: signed by every participant, its
/// pages rendered (rendered now when everyone signed before the render worker came to it).
/// `None` when it is not, and the job has ended.
async fn ready_to_seal(
    ctx: &Ctx,
    job: &str,
    doc_id: &str,
) -> Result<Option<(DocRow, Vec<PersonDbRow>)>, DomainError> {
    let conn = &ctx.db.conn;
    let doc = match store::load(conn, &ctx.db, doc_id).await? {
        Some(doc) if doc.state == DocState::Signed => doc,
        _ => {
            jobs::finish(&ctx.db, conn, job).await?;
            return Ok(None);
        }
    };
    let people = store::people(conn, &ctx.db, &[doc_id]).await?;
    if people
        .iter()
        .any(|p| p.participates() && p.status != PersonStatus::Signed)
    {
        jobs::finish(&ctx.db, conn, job).await?;
        return Ok(None);
    }
    if doc.page_sizes.is_some() {
        return Ok(Some((doc, people)));
    }
    super::rendering::render_document(ctx, doc_id, None).await?;
    let doc = store::load(conn, &ctx.db, doc_id)
        .await?
        .ok_or_else(|| DomainError::Internal(format!("{doc_id} vanished while rendering")))?;
    Ok(Some((doc, people)))
}

/// The document's page sizes as rendered.
fn page_sizes(doc: &DocRow) -> Result<Vec<(f64, f64)>, DomainError> {
    Ok(doc
        .page_sizes
        .as_deref()
        .and_then(|s| serde_json::from_str::<Vec<[f64; 2]>>(s).ok())
        .filter(|p| !p.is_empty())
        .ok_or_else(|| DomainError::Internal(format!("{} has no page sizes", doc.id)))?
        .into_iter()
        .map(|[w, h]| (w, h))
        .collect())
}

/// Everything the sealed copy is made of.
struct Sealing {
    doc: DocRow,
    people: Vec<PersonDbRow>,
    audit: Vec<AuditRecord>,
    original: Vec<u8>,
    pages: Vec<(f64, f64)>,
    marks: Vec<ValueMark>,
    sealed_at: chrono::DateTime<chrono::Utc>,
}

impl Sealing {
    /// The sealed copy: the values stamped on the rendered pages, the certificate of
    /// completion added, and the whole signed and time-stamped (CPU work, off the runtime).
    fn make(
        self,
        renderer: &dyn crate::render::DocRenderer,
        authority: &signet_seal::Authority,
        stamper: &dyn signet_seal::TimeStamper,
    ) -> Result<Made, String> {
        let layer = renderer.values_layer(&self.pages, &self.marks)?;
        let with_values = signet_seal::stamp(&self.original, &layer, self.pages.len())
            .map_err(|e| e.to_string())?;
        let original_sha256 = signet_core::ids::sha256_hex(&self.original);
        let final_sha256 = signet_core::ids::sha256_hex(&with_values);
        let cert = certificate(
            &self.doc,
            &self.people,
            &self.audit,
            &original_sha256,
            self.original.len(),
            &final_sha256,
            with_values.len(),
            self.sealed_at,
        );
        let cert_pdf = renderer.certificate(&cert)?;
        let complete = signet_seal::stamp(&with_values, &cert_pdf, 0).map_err(|e| e.to_string())?;
        let pdf = signet_seal::seal(
            &complete,
            authority,
            stamper,
            self.doc.test,
            "Signed by every party; sealed by Signet",
            self.sealed_at,
        )
        .map_err(|e| e.to_string())?;
        Ok(Made {
            pdf,
            original_sha256,
            final_sha256,
        })
    }
}

/// Keeps the sealed copy and moves the document to `executed`, with its audit row, event and
/// completed emails, ending the job. A document voided while it was sealed keeps its state,
/// and the file no row names goes.
async fn record_sealed(
    ctx: &Ctx,
    job: &str,
    doc: DocRow,
    recipients: &[PersonDbRow],
    made: Made,
) -> Result<bool, DomainError> {
    let key = crate::blob_keys::sealed_file(&doc.id);
    let size = made.pdf.len();
    ctx.blobs.put(&key, made.pdf).await?;
    let txn = ctx.db.conn.begin().await?;
    let now = ctx.now();
    let done = txn
        .execute_raw(ctx.db.stmt(
            "UPDATE documents SET state = 'executed', completed_at = $2, updated_at = $2, \
             sealed_blob = $3, original_sha256 = $4, final_sha256 = $5, next_reminder_at = NULL, \
             expires_at = NULL WHERE id = $1 AND state = 'signed'",
            [
                Value::from(doc.id.clone()),
                Value::from(now),
                Value::from(key.clone()),
                Value::from(made.original_sha256.clone()),
                Value::from(made.final_sha256.clone()),
            ],
        ))
        .await?;
    if done.rows_affected() != 1 {
        // Voided while we sealed: the job ends, and the file no row names goes.
        jobs::finish(&ctx.db, &txn, job).await?;
        txn.commit().await?;
        if let Err(e) = ctx.blobs.delete(&key).await {
            tracing::warn!(document = %doc.id, error = %e, "removing the file of a voided seal failed");
        }
        return Ok(false);
    }
    let mut doc = doc;
    doc.state = DocState::Executed;
    doc.completed_at = Some(now);
    let mut t = Trail::new(&doc.id, ctx.now());
    t.audit(
        "sealed",
        "The signed copy was sealed with the certificate of completion (PAdES B-LTA)",
        None,
        "signet",
        json!({
            "originalSha256": made.original_sha256,
            "finalSha256": made.final_sha256,
            "bytes": size,
            "test": doc.test,
        }),
    )
    .event("documents.document.executed", &doc, None, None);
    // The sealed copy goes to everyone, those who only receive a copy included, and to the
    // sender. A test document's emails all go to its sender: one copy is enough.
    let locale = super::lifecycle::locale(&doc);
    if !doc.test {
        for p in recipients {
            t.email("completed", &doc, p, &locale);
        }
    }
    t.email_to_sender("completed", &doc, &locale);
    let queued = t.write(&txn, &ctx.db).await?;
    jobs::finish(&ctx.db, &txn, job).await?;
    txn.commit().await?;
    ctx.committed(&doc.id, queued).await;
    Ok(true)
}

struct Made {
    pdf: Vec<u8>,
    original_sha256: String,
    final_sha256: String,
}

/// Every field with a value, as the values layer draws it.
async fn value_marks(
    ctx: &Ctx,
    doc_id: &str,
    people: &[PersonDbRow],
    lang: &str,
) -> Result<Vec<ValueMark>, DomainError> {
    let rows = ctx
        .db
        .conn
        .query_all_raw(ctx.db.stmt(
            "SELECT seat, field_type, page, x, y, width, height, areas, value FROM fields \
             WHERE document_id = $1 AND value IS NOT NULL ORDER BY position",
            [Value::from(doc_id.to_string())],
        ))
        .await?;
    let mut out = Vec::with_capacity(rows.len());
    for r in &rows {
        let ty: String = r.try_get("", "field_type")?;
        let value: String = r.try_get("", "value")?;
        let seat: String = r.try_get("", "seat")?;
        let drawing = match ty.as_str() {
            "signature" | "initials" => crate::render::Drawing::parse(&value),
            _ => None,
        };
        let (kind, text) = match ty.as_str() {
            // Drawn on the signing page: its strokes, never the stored JSON as text.
            "signature" | "initials" if drawing.is_some() => (MarkKind::Drawn, String::new()),
            "signature" | "initials" => (MarkKind::Signature, value),
            "checkbox" if matches!(value.as_str(), "true" | "yes" | "on" | "1") => {
                (MarkKind::Check, String::new())
            }
            "checkbox" => continue,
            // Dates are written as the document's language writes them.
            "date" => (
                MarkKind::Text,
                super::dates::localized(&value, lang).unwrap_or(value),
            ),
            _ => (MarkKind::Text, value),
        };
        if text.is_empty() && kind != MarkKind::Check && kind != MarkKind::Drawn {
            continue;
        }
        // A value belongs to a seat that exists; anything else is not drawn.
        if !people.iter().any(|p| p.seat == seat) {
            continue;
        }
        let mark = ValueMark {
            page: r.try_get::<i32>("", "page")? as u32,
            x: r.try_get("", "x")?,
            y: r.try_get("", "y")?,
            width: r.try_get("", "width")?,
            height: r.try_get("", "height")?,
            kind,
            text,
            drawing,
        };
        // A field shown in several places carries its value to each.
        let more = crate::signing::values::areas_of(r.try_get::<Option<String>>("", "areas")?);
        for a in more {
            out.push(ValueMark {
                page: a.page as u32,
                x: a.x,
                y: a.y,
                width: a.width,
                height: a.height,
                ..mark.clone()
            });
        }
        out.push(mark);
    }
    Ok(out)
}

fn when(ms: Option<i64>) -> String {
    ms.and_then(chrono::DateTime::from_timestamp_millis)
        .map(|t| t.format("%Y-%m-%d %H:%M:%S UTC").to_string())
        .unwrap_or_else(|| "—".into())
}

/// The detail of a person's deciding act: their signature (or decline; for someone who only
/// receives a copy, their first look), and whether there is one. Rows written after it, say
/// a code asked for later, never change what the certificate says of the signature.
fn deciding(audit: &[AuditRecord], seat: &str) -> Option<serde_json::Value> {
    let theirs = || audit.iter().filter(|r| r.seat.as_deref() == Some(seat));
    let row = theirs()
        .find(|r| r.event == "signed")
        .or_else(|| theirs().find(|r| r.event == "declined"))
        .or_else(|| theirs().find(|r| r.event == "opened"))?;
    Some(serde_json::from_str(&row.detail).unwrap_or_default())
}

/// Where a person acted from, as their deciding act records it.
fn seen_from(audit: &[AuditRecord], seat: &str, test: bool) -> (String, String) {
    let d = deciding(audit, seat).unwrap_or_default();
    let field = |k: &str| d.get(k).and_then(|v| v.as_str()).map(str::to_string);
    let (ip, agent) = (field("ip"), field("userAgent"));
    let none = if test {
        "not recorded (signed through the API in test mode)"
    } else {
        "not recorded"
    }
    .to_string();
    (ip.unwrap_or_else(|| none.clone()), agent.unwrap_or(none))
}

/// How the person's identity was established, as the row of their deciding act and the
/// checks the sender set say: a link emailed to them (with the codes asked for), or the
/// sender's own app, which signed them in and asserted who they are on a named website.
fn identity_of(audit: &[AuditRecord], p: &PersonDbRow) -> String {
    let Some(d) = deciding(audit, &p.seat) else {
        return "none recorded: never opened the document".into();
    };
    if d.get("test").and_then(|v| v.as_bool()) == Some(true) {
        return "none: a test signature made through the API by the sender's key".into();
    }
    if d.get("via").and_then(|v| v.as_str()) == Some("embedded") {
        let site = d.get("origin").and_then(|v| v.as_str()).unwrap_or("?");
        return format!(
            "asserted by the sender's own app: signed in a frame on {site}; not checked by email"
        );
    }
    let mut how = format!("a signing link emailed to {}", p.email);
    if p.email_code {
        how.push_str(", and a one-time code emailed to that address");
    }
    if p.access_code_hash.is_some() {
        how.push_str(", and an access code the sender gave them");
    }
    how
}

/// What the person paid while signing, as the processor confirmed it (the trail's
/// `payment_paid` row): the amount, when, the receipt and the service's fee.
fn payment_of(audit: &[AuditRecord], seat: &str) -> Option<String> {
    let r = audit
        .iter()
        .find(|r| r.event == "payment_paid" && r.seat.as_deref() == Some(seat))?;
    let d: serde_json::Value = serde_json::from_str(&r.detail).ok()?;
    let currency = d["currency"].as_str().unwrap_or_default();
    let shown = |k: &str| signet_core::currencies::shown(d[k].as_i64().unwrap_or(0), currency);
    let mut s = format!(
        "{} {} paid through Stripe on {}",
        shown("amount"),
        currency.to_uppercase(),
        when(Some(r.at))
    );
    if let Some(n) = d["receiptNumber"].as_str() {
        s.push_str(&format!(", receipt {n}"));
    }
    s.push_str(&format!(
        "; service fee {} {}",
        shown("fee"),
        currency.to_uppercase()
    ));
    Some(s)
}

#[allow(clippy::too_many_arguments)]
fn certificate(
    doc: &DocRow,
    people: &[PersonDbRow],
    audit: &[AuditRecord],
    original_sha256: &str,
    original_len: usize,
    final_sha256: &str,
    final_len: usize,
    sealed_at: chrono::DateTime<chrono::Utc>,
) -> CertificateDoc {
    let head = audit.last().map(|r| r.hash.clone()).unwrap_or_default();
    let mut facts = vec![
        ("Document".to_string(), doc.id.to_string()),
        ("Title".to_string(), doc.title.clone()),
        (
            "Original SHA-256".to_string(),
            format!(
                "{original_sha256}\n(the first {original_len} bytes of this file: the document as sent)"
            ),
        ),
        (
            "Final SHA-256".to_string(),
            format!(
                "{final_sha256}\n(the first {final_len} bytes of this file: the document with every value)"
            ),
        ),
        ("Audit chain head".to_string(), head),
        ("Sent".to_string(), when(doc.sent_at)),
        (
            "Sealed".to_string(),
            sealed_at.format("%Y-%m-%d %H:%M:%S UTC").to_string(),
        ),
    ];
    if doc.test {
        facts.push((
            "Mode".to_string(),
            "TEST: a practice run with no legal effect, sealed with the test certificate".into(),
        ));
    }
    let consented = |seat: &str| {
        audit
            .iter()
            .find(|r| r.event == "consented" && r.seat.as_deref() == Some(seat))
            .map(|r| r.at)
    };
    let people = people
        .iter()
        .map(|p| {
            let (ip, agent) = seen_from(audit, &p.seat, doc.test);
            let mut lines = vec![
                ("Email".to_string(), p.email.clone()),
                ("Action".to_string(), p.action.as_str().to_string()),
                ("Identity".to_string(), identity_of(audit, p)),
                ("IP address".to_string(), ip),
                ("User agent".to_string(), agent),
                ("Invited".to_string(), when(p.invited_at)),
                ("Opened".to_string(), when(p.opened_at)),
                ("Consented".to_string(), when(consented(&p.seat))),
                ("Signed".to_string(), when(p.completed_at)),
            ];
            if let Some(paid) = payment_of(audit, &p.seat) {
                lines.push(("Payment".to_string(), paid));
            }
            (format!("{} · {}", p.name, p.seat), lines)
        })
        .collect();
    let events = certificate_events(audit);
    CertificateDoc {
        paper: doc.paper.clone(),
        heading: if doc.test {
            "Certificate of completion (TEST)".into()
        } else {
            "Certificate of completion".into()
        },
        test: doc.test,
        facts,
        people,
        events,
        people_heading: "Signers and recipients".into(),
        events_heading: "Audit trail".into(),
    }
}

/// Audit rows the certificate lists in full; a longer trail is summarised.
pub const CERTIFICATE_EVENTS: usize = 150;
const CERTIFICATE_HEAD: usize = 100;

/// The certificate's audit lines. A trail longer than [`CERTIFICATE_EVENTS`] is shown as its
/// first and last rows around one line that counts what is left out by kind and names the
/// chain's last hash, so however long the trail, the certificate (and the work of sealing
/// it) stays bounded; every row stays in the CSV and in GraphQL's `documentAuditLog`.
fn certificate_events(audit: &[AuditRecord]) -> Vec<[String; 3]> {
    let line = |r: &AuditRecord| [when(Some(r.at)), r.event.clone(), r.description.clone()];
    if audit.len() <= CERTIFICATE_EVENTS {
        return audit.iter().map(line).collect();
    }
    let tail = CERTIFICATE_EVENTS - CERTIFICATE_HEAD;
    let left_out = &audit[CERTIFICATE_HEAD..audit.len() - tail];
    let mut counts: std::collections::BTreeMap<&str, usize> = Default::default();
    for r in left_out {
        *counts.entry(r.event.as_str()).or_default() += 1;
    }
    let counted: Vec<String> = counts.iter().map(|(e, n)| format!("{e} ×{n}")).collect();
    let head = audit.last().map(|r| r.hash.as_str()).unwrap_or_default();
    let mut out: Vec<[String; 3]> = audit[..CERTIFICATE_HEAD].iter().map(line).collect();
    out.push([
        format!("{} events", left_out.len()),
        "summarised".into(),
        format!(
            "{} further events are summarised here: {}. The whole trail of {} events ends in \
             the chain hash {head}; the audit log lists every one.",
            left_out.len(),
            counted.join(", "),
            audit.len()
        ),
    ]);
    out.extend(audit[audit.len() - tail..].iter().map(line));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(seq: i64, event: &str) -> AuditRecord {
        AuditRecord {
            seq,
            at: 1_700_000_000_000 + seq,
            event: event.into(),
            description: format!("row {seq}"),
            seat: None,
            actor: "signet".into(),
            detail: "{}".into(),
            prev_hash: String::new(),
            hash: format!("hash{seq}"),
        }
    }

    #[test]
    fn a_long_trail_is_summarised_on_the_certificate() {
        let short: Vec<_> = (0..CERTIFICATE_EVENTS as i64)
            .map(|i| row(i, "reminded"))
            .collect();
        assert_eq!(certificate_events(&short).len(), CERTIFICATE_EVENTS);
        let mut long: Vec<_> = vec![row(0, "created"), row(1, "sent")];
        long.extend((2..100_000).map(|i| row(i, "reminded")));
        long.push(row(100_000, "signed"));
        let lines = certificate_events(&long);
        assert_eq!(lines.len(), CERTIFICATE_EVENTS + 1);
        let summary = &lines[CERTIFICATE_HEAD];
        assert_eq!(summary[1], "summarised");
        assert!(
            summary[2].contains("99851 further events"),
            "{}",
            summary[2]
        );
        assert!(summary[2].contains("reminded ×99851"), "{}", summary[2]);
        assert!(summary[2].contains("hash100000"), "{}", summary[2]);
        assert_eq!(lines.last().unwrap()[1], "signed");
        assert_eq!(lines[0][1], "created");
    }

    #[test]
    fn where_a_person_signed_from_is_their_signature_row_not_a_later_one() {
        let at = |seq: i64, event: &str, ip: &str, agent: &str| AuditRecord {
            seat: Some("client".into()),
            detail: serde_json::json!({"ip": ip, "userAgent": agent}).to_string(),
            ..row(seq, event)
        };
        let audit = vec![
            at(1, "opened", "192.0.2.1", "Opening-Browser/1"),
            at(2, "signed", "192.0.2.2", "Signing-Browser/2"),
            // Rows of the same seat after it (a code asked for, a look at the copy) change
            // nothing the certificate says of the signature.
            at(3, "code_sent", "203.0.113.9", "Attacker-Browser/6.6"),
            at(4, "opened", "203.0.113.9", "Attacker-Browser/6.6"),
        ];
        assert_eq!(
            seen_from(&audit, "client", false),
            ("192.0.2.2".to_string(), "Signing-Browser/2".to_string())
        );
        // Someone who declined: their decline; someone who only looked: their first look.
        let declined = vec![
            at(1, "opened", "192.0.2.1", "A/1"),
            at(2, "declined", "192.0.2.3", "B/2"),
            at(3, "opened", "203.0.113.9", "C/3"),
        ];
        assert_eq!(seen_from(&declined, "client", false).1, "B/2");
        let looked = vec![
            at(1, "opened", "192.0.2.1", "A/1"),
            at(2, "opened", "203.0.113.9", "C/3"),
        ];
        assert_eq!(seen_from(&looked, "client", false).1, "A/1");
        assert_eq!(
            seen_from(&looked, "other", true).0,
            "not recorded (signed through the API in test mode)"
        );
    }
}
