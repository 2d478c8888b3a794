//! Rendering a sent document: the job every send queues. The send itself commits at once
//! (state, people, fields, invitations, event, usage); the file people see is rendered after
//! it by this worker, on threads that run below the request threads' priority, so a burst of
//! sends is answered at the speed of the database and the renders follow with the CPU left.
//!
//! A render depends only on what the send stored (the words, people, facts, choices, test
//! flag and the date of sending), so it comes out the same whenever it runs. It stores the
//! file, the page sizes and every field's rectangle in one transaction with an audit row that
//! states the file's SHA-256 and queues the signing page's pictures (`pictures`), which the
//! invitations wait for; sealing renders first itself if it finds no file yet, and never waits
//! for pictures.

use std::collections::BTreeMap;
use std::sync::Arc;

use sea_orm::{ConnectionTrait, Value};
use serde_json::json;
use signet_storage::Sql;

use super::draft::{Draft, render_job};
use super::send;
use super::store::{self, DocRow};
use super::trail::Trail;
use crate::jobs::RenderJob;
use signet_core::jobs::{Claimed, Handler};
use signet_core::{Ctx, DomainError};
use signet_queue as jobs;

/// The render worker's handler.
pub struct Renders;

#[async_trait::async_trait]
impl Handler for Renders {
    type Job = RenderJob;
    const BATCH: i64 = BATCH;

    fn lease_ms(_ctx: &Ctx) -> i64 {
        LEASE_MS
    }

    async fn run(ctx: &Ctx, claimed: Vec<Claimed>) -> Result<(), DomainError> {
        run_renders(ctx, claimed).await.map(drop)
    }
}

/// How long a worker owns a render job before another may take it.
pub const LEASE_MS: i64 = 120_000;
/// Jobs claimed at once; they render side by side on the background threads.
pub const BATCH: i64 = 16;

/// Renders the claimed documents. Answers how many jobs it took.
pub async fn run_renders(ctx: &Ctx, claimed: Vec<Claimed>) -> Result<usize, DomainError> {
    use futures_util::{FutureExt, StreamExt};
    let taken = claimed.len();
    // The renders of a pass run side by side inside this task (the heavy part is on the
    // render threads), so that stopping the worker drops them all at once: none is left to
    // fail against a runtime that is shutting down. A job stopped that way keeps its lease
    // and is taken again when the lease runs out.
    let mut pass: futures_util::stream::FuturesUnordered<_> = claimed
        .iter()
        .map(|c| std::panic::AssertUnwindSafe(render_job_once(ctx, c)).catch_unwind())
        .collect();
    while let Some(done) = pass.next().await {
        match done {
            Ok(Ok(())) => {}
            Ok(Err(e)) => tracing::warn!(error = %e, "ending a render job failed"),
            // Its lease runs out and the job is tried again, up to its limit.
            Err(_) => tracing::error!("a render job panicked"),
        }
    }
    Ok(taken)
}

/// One claimed render job: rendered and ended, or put back for a later try.
async fn render_job_once(ctx: &Ctx, c: &Claimed) -> Result<(), DomainError> {
    let outcome = match &c.doc_id {
        Some(doc_id) => render_document(ctx, doc_id, Some(&c.job)).await,
        None => Ok(false),
    };
    settle(ctx, c, outcome, "rendering").await
}

/// Ends a claimed job of a document's pages (its render or its pictures) by its outcome:
/// `Ok(true)` when the work's own transaction ended it, `Ok(false)` when there was nothing to
/// do; a failure the words decide voids the document, as does the last try's failure.
pub(crate) async fn settle(
    ctx: &Ctx,
    c: &Claimed,
    outcome: Result<bool, DomainError>,
    what: &str,
) -> Result<(), DomainError> {
    // An earlier try may have left a file of its own.
    if outcome.is_ok()
        && c.attempts > 0
        && let Some(doc_id) = &c.doc_id
        && let Err(e) =
            crate::leftovers::remove(ctx, doc_id, crate::leftovers::Leftovers::Renders).await
    {
        tracing::warn!(document = %doc_id, error = %e, "removing earlier tries' files failed");
    }
    match outcome {
        // The job ended with the stored file.
        Ok(true) => Ok(()),
        Ok(false) => Ok(jobs::done(&ctx.db, &c.job).await?),
        // The words decide it: the document is voided with the reason, which is where the
        // failure is kept, and the job has done what it could.
        Err(DomainError::Invalid(reason)) => {
            tracing::error!(document = ?c.doc_id, reason, what, "failed for good; the document is voided");
            match &c.doc_id {
                Some(doc_id) => {
                    super::ending::unrenderable(ctx, doc_id, &reason).await?;
                    Ok(jobs::done(&ctx.db, &c.job).await?)
                }
                None => Ok(jobs::give_up(&ctx.db, c).await?),
            }
        }
        // The last try failed too: the document ends visibly rather than waiting, unsigned
        // and with its invitations held, until it expires.
        Err(e) if c.attempts + 1 >= jobs::MAX_ATTEMPTS => {
            tracing::error!(document = ?c.doc_id, attempts = c.attempts + 1, error = %e, what, "failed on its last try; the document is voided");
            if let Some(doc_id) = &c.doc_id {
                let why = format!("{what} failed {} times", c.attempts + 1);
                super::ending::unrenderable(ctx, doc_id, &why).await?;
            }
            Ok(jobs::give_up(&ctx.db, c).await?)
        }
        Err(e) => {
            tracing::error!(document = ?c.doc_id, attempts = c.attempts + 1, error = %e, what, "failed; will retry");
            Ok(jobs::retry_later(&ctx.db, c).await?)
        }
    }
}

/// The bytes of the PDF a document's pages are (one made from a PDF template), read before
/// its render; none for a document of words.
pub(crate) async fn file_data(ctx: &Ctx, doc: &DocRow) -> Result<Option<Arc<[u8]>>, DomainError> {
    if doc.template_id.is_none() || !doc.source.contains("\"file\"") {
        return Ok(None);
    }
    // Only the file's name is read from the stored words: the rest is skipped, not built into
    // a tree (this runs on the worker's async thread; a source holds every field's place).
    #[derive(serde::Deserialize)]
    struct Source {
        file: Option<File>,
    }
    #[derive(serde::Deserialize)]
    struct File {
        blob: Option<String>,
    }
    let source: Source = serde_json::from_str(&doc.source)
        .map_err(|e| DomainError::Internal(format!("stored source of {}: {e}", doc.id)))?;
    let Some(blob) = source.file.and_then(|f| f.blob) else {
        return Ok(None);
    };
    let blob = blob.as_str();
    let bytes = ctx.blobs.get(blob).await?.ok_or_else(|| {
        DomainError::Internal(format!("the file {blob} of document {} is missing", doc.id))
    })?;
    Ok(Some(bytes.into()))
}

/// A draft with its file's bytes in place for the renderer.
pub(crate) fn with_file(mut draft: Draft, data: Option<Arc<[u8]>>) -> Draft {
    if let Some(f) = draft.doc.file.as_mut() {
        f.data = data;
    }
    draft
}

/// Renders a sent document unless it already has its file or no longer needs one (ended
/// before it was rendered). Answers whether this call stored the file; if so, `job_id` (the
/// render job, when a worker runs it) ended in the same transaction.
pub async fn render_document(
    ctx: &Ctx,
    doc_id: &str,
    job_id: Option<&str>,
) -> Result<bool, DomainError> {
    let conn = &ctx.db.conn;
    let Some(doc) = store::load(conn, &ctx.db, doc_id).await? else {
        return Ok(false);
    };
    if doc.page_sizes.is_some() || !doc.state.out_for_signature() {
        return Ok(false);
    }
    let people = store::people(conn, &ctx.db, &[&doc.id]).await?;
    // The fields were stored at send from the same words; the render places them.
    let stored = stored_fields(ctx, doc_id).await?;
    let blob = crate::blob_keys::render_file(&doc.id);
    // Everything but the reads and writes runs on a render thread, in the idle scheduling
    // class: parsing the stored words, the render itself, the check of its fields and the
    // file's digest. At normal priority the parsing alone took CPU from requests while renders
    // lagged behind a stream of sends (bench/RESULTS.md). Sealing's own render
    // (no job) runs on the blocking pool at normal priority instead, like the rest of
    // sealing: it must not queue behind the render threads' paced backlog.
    let renderer = crate::services(ctx).renderer.clone();
    let max_pages = crate::services(ctx).max_pages;
    let (row, name) = (doc.clone(), doc_id.to_string());
    let data = file_data(ctx, &doc).await?;
    let work = move || {
        let draft = with_file(send::draft_from(&row, &people)?, data);
        let rendered = renderer
            .render(&render_job(&row, &draft, max_pages))
            .map_err(|e| match e {
                // The words decide it, so no later try would differ.
                crate::render::RenderFailure::Refused(e) => DomainError::Invalid(e),
                crate::render::RenderFailure::Broken(e) => {
                    DomainError::Internal(format!("rendering {name}: {e}"))
                }
            })?;
        if !same_fields(&stored, &places_of(&rendered.fields)) {
            return Err(DomainError::Internal(format!(
                "the rendered fields of {name} differ from those stored at send"
            )));
        }
        let sha256 = signet_core::ids::sha256_hex(&rendered.pdf);
        Ok::<_, DomainError>((rendered, sha256))
    };
    let (mut rendered, sha256) = match job_id {
        Some(_) => crate::render::in_background(work)
            .await
            .map_err(DomainError::Internal)??,
        None => tokio::task::spawn_blocking(work)
            .await
            .map_err(|e| DomainError::Internal(format!("rendering {doc_id}: {e}")))??,
    };
    let bytes = rendered.pdf.len();
    // The text of the signing page's pages first, then the file: both on the disk before the
    // row that names the file commits (`Blobs::put`). They share the file's name, as the
    // pictures drawn later do.
    let text = std::mem::take(&mut rendered.text);
    ctx.blobs
        .put(
            &crate::blob_keys::text_key(&blob),
            serde_json::to_vec(&text).unwrap_or_default(),
        )
        .await?;
    ctx.blobs
        .put(&blob, std::mem::take(&mut rendered.pdf))
        .await?;
    record(ctx, &doc, &blob, rendered, &sha256, bytes, job_id).await
}

/// Names the stored file on the document, with its fields' places and its audit row, in one
/// transaction that only the first render wins; the signing page's pictures are queued (the
/// invitations held for the pages go out once they exist). False (and the file removed) when
/// another render got there first.
async fn record(
    ctx: &Ctx,
    doc: &DocRow,
    blob: &str,
    rendered: crate::render::RenderedDoc,
    sha256: &str,
    bytes: usize,
    job_id: Option<&str>,
) -> Result<bool, DomainError> {
    let sizes: Vec<[f64; 2]> = rendered.pages.iter().map(|(w, h)| [*w, *h]).collect();

    let doc_id = doc.id.as_str();
    let (workspace_id, test) = (doc.workspace_id.to_string(), doc.test);
    let (c, id, file, job_id, sha256) = (
        ctx.clone(),
        doc_id.to_string(),
        blob.to_string(),
        job_id.map(str::to_string),
        sha256.to_string(),
    );
    let won = ctx
        .db
        .transaction(move |txn| async move {
            let won = txn
                .exec(c.db.stmt(
                    "UPDATE documents SET pdf_blob = $2, page_sizes = $3 WHERE id = $1 AND page_sizes IS NULL",
                    [
                        Value::from(id.clone()),
                        Value::from(file),
                        Value::from(serde_json::to_string(&sizes).unwrap_or_default()),
                    ],
                ))
                .await?;
            if won != 1 {
                return Ok::<_, DomainError>(None);
            }
            if !rendered.fields.is_empty() {
                let (sql, values) = place_fields(&id, &places_of(&rendered.fields));
                txn.exec(c.db.stmt(&sql, values)).await?;
            }
            let t = rendered_trail(&id, sizes.len(), rendered.fields.len(), bytes, &sha256, c.now());
            let queued = t.write(&*txn, &c.db).await?;
            // The pages exist: their pictures are drawn next, below the renders' priority.
            let owner = jobs::Owner {
                workspace_id: &workspace_id,
                document_id: Some(&id),
                test,
            };
            let pictures = crate::jobs::PicturesJob {
                document_id: id.clone(),
            };
            let drawing = jobs::enqueue(&*txn, &c.db, &pictures, owner).await?;
            if let Some(job_id) = job_id {
                jobs::finish(&c.db, &*txn, &job_id).await?;
            }
            Ok(Some(queued.and(drawing)))
        })
        .await?;
    let Some(queued) = won else {
        lost(ctx, blob, doc_id).await;
        return Ok(false);
    };
    ctx.queued(queued).await;
    Ok(true)
}

/// The audit row of a render: its pages, fields, bytes and digest.
fn rendered_trail(
    id: &str,
    pages: usize,
    fields: usize,
    bytes: usize,
    sha256: &str,
    now: i64,
) -> Trail {
    let mut t = Trail::new(id, now);
    t.audit(
        "rendered",
        &format!(
            "The document people sign was rendered: {pages} {}, SHA-256 {sha256}",
            if pages == 1 { "page" } else { "pages" }
        ),
        None,
        "signet",
        json!({"pages": pages, "fields": fields, "bytes": bytes, "sha256": sha256}),
    );
    t
}

/// Another worker's render of the document won: this one's file and pictures go.
async fn lost(ctx: &Ctx, blob: &str, doc_id: &str) {
    ctx.blobs.delete(blob).await.ok();
    let stem = format!("{}.", blob.trim_end_matches(".pdf"));
    let keys = ctx
        .blobs
        .list(&crate::blob_keys::document_folder(doc_id))
        .await
        .unwrap_or_default();
    for key in keys.iter().filter(|k| k.starts_with(&stem)) {
        ctx.blobs.delete(key).await.ok();
    }
}

/// Whether the rendered fields are those stored at send, in their order, names and types.
fn same_fields(
    stored: &[(i32, String, String)],
    places: &[(&crate::render::Placement, Vec<&crate::render::Placement>)],
) -> bool {
    stored.len() == places.len()
        && stored
            .iter()
            .zip(places)
            .enumerate()
            .all(|(i, ((position, field, ty), (p, _)))| {
                *position == i as i32 && *field == p.field.name && ty == p.field.ty.as_str()
            })
}

/// The fields stored at send, by position: (position, name, type).
async fn stored_fields(ctx: &Ctx, doc_id: &str) -> Result<Vec<(i32, String, String)>, DomainError> {
    ctx.db
        .conn
        .query_all_raw(ctx.db.stmt(
            "SELECT position, name, field_type FROM fields WHERE document_id = $1 ORDER BY position",
            [Value::from(doc_id.to_string())],
        ))
        .await?
        .iter()
        .map(|r| {
            Ok((
                r.try_get("", "position")?,
                r.try_get("", "name")?,
                r.try_get("", "field_type")?,
            ))
        })
        .collect::<Result<_, sea_orm::DbErr>>()
        .map_err(Into::into)
}

/// One statement that places every field of document `id`: `VALUES` rows joined on the
/// position. A field shown in several places keeps its first in its columns and the others
/// in `areas`.
fn place_fields(
    id: &str,
    places: &[(&crate::render::Placement, Vec<&crate::render::Placement>)],
) -> (String, Vec<Value>) {
    let mut sql = String::from(
        "UPDATE fields SET page = v.column2, x = v.column3, y = v.column4, width = v.column5, \
         height = v.column6, areas = v.column7 FROM (VALUES ",
    );
    let mut values = vec![Value::from(id.to_string())];
    for (i, (p, more)) in places.iter().enumerate() {
        if i > 0 {
            sql.push_str(", ");
        }
        let n = values.len();
        let marks: Vec<String> = (n + 1..=n + 7).map(|k| format!("${k}")).collect();
        sql.push_str(&format!("({})", marks.join(", ")));
        let areas = (!more.is_empty()).then(|| {
            let areas: Vec<crate::signing::values::Area> = more
                .iter()
                .map(|a| crate::signing::values::Area {
                    page: a.page as i64,
                    x: a.x,
                    y: a.y,
                    width: a.width,
                    height: a.height,
                })
                .collect();
            serde_json::to_string(&areas).unwrap_or_default()
        });
        values.extend([
            Value::from(i as i32),
            Value::from(p.page as i32),
            Value::from(p.x),
            Value::from(p.y),
            Value::from(p.width),
            Value::from(p.height),
            Value::from(areas),
        ]);
    }
    sql.push_str(") AS v WHERE fields.document_id = $1 AND fields.position = v.column1");
    (sql, values)
}

/// The rendered boxes as fields: each field once, at its first place, with its other places
/// (a name written in several places is one field), in the order the fields were stored.
fn places_of(
    boxes: &[crate::render::Placement],
) -> Vec<(&crate::render::Placement, Vec<&crate::render::Placement>)> {
    let mut out: Vec<(&crate::render::Placement, Vec<&crate::render::Placement>)> = Vec::new();
    let mut at = BTreeMap::<String, usize>::new();
    for b in boxes {
        // The rule of `signet_source::walk::unique_fields`, which made the stored rows.
        let key = b.field.name.to_ascii_lowercase();
        match at.get(&key) {
            Some(&i) => out[i].1.push(b),
            None => {
                at.insert(key, out.len());
                out.push((b, Vec::new()));
            }
        }
    }
    out
}
