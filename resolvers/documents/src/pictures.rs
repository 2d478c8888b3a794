//! The signing page's pictures of a rendered document: a job of its own on the one queue,
//! queued by the render in the transaction that stores the file, so that neither the render
//! nor sealing waits for them.
//!
//! The pictures are drawn from the stored file (the bytes people sign and sealing writes
//! onto), one page a task on the render threads' later lane, which a thread takes only when
//! no render waits: the widest picture drawn once and the narrower one halved from it, each
//! page's PNGs stored before the next page is drawn, so a job holds one page's pixels whatever
//! the page count, and a page drawn by an earlier try is not drawn again. When every page has
//! its pictures, the page index (sizes, widths and the text runs the render kept) is written,
//! and in one transaction the job ends and the invitations held for the pages go out: nobody
//! is invited to pages that cannot be shown. A page the rasteriser cannot draw as it prints
//! voids the document, as a render that fails for its words does.

use std::sync::Arc;

use serde_json::json;

use super::draft::render_job;
use super::send;
use super::store::{self, DocRow};
use crate::blob_keys::{image_key, index_key, text_key};
use crate::jobs::PicturesJob;
use crate::render::PAGE_WIDTHS;
use crate::rendering::{file_data, settle, with_file};
use signet_core::jobs::{Claimed, Handler};
use signet_core::{Ctx, DomainError};
use signet_queue as jobs;

/// The pictures worker's handler.
pub struct Pictures;

/// Jobs claimed at once; their pages take turns on the render threads' later lane.
pub const BATCH: i64 = 2;
/// How long a worker owns a pictures job before another may take it, as for a render: a
/// longer job taken over by another worker costs only the pages both draw (each skips the
/// pages already stored), while a worker that died holds the invitations no longer than this.
pub const LEASE_MS: i64 = 120_000;

#[async_trait::async_trait]
impl Handler for Pictures {
    type Job = PicturesJob;
    const BATCH: i64 = BATCH;

    fn lease_ms(_ctx: &Ctx) -> i64 {
        LEASE_MS
    }

    async fn run(ctx: &Ctx, claimed: Vec<Claimed>) -> Result<(), DomainError> {
        let pass = claimed.iter().map(|c| async move {
            let outcome = match &c.doc_id {
                Some(doc_id) => make_pictures(ctx, doc_id, Some(&c.job)).await,
                None => Ok(false),
            };
            if let Err(e) = settle(ctx, c, outcome, "drawing the pages").await {
                tracing::warn!(error = %e, "ending a pictures job failed");
            }
        });
        futures_util::future::join_all(pass).await;
        Ok(())
    }
}

/// Draws the pictures of a rendered document still out for signature, writes its page index
/// and releases its held invitations, ending `job_id` in that transaction. Answers whether it
/// did (false: nothing to do, as for a document that ended or was never rendered).
pub async fn make_pictures(
    ctx: &Ctx,
    doc_id: &str,
    job_id: Option<&str>,
) -> Result<bool, DomainError> {
    let Some(doc) = store::load(&ctx.db.conn, &ctx.db, doc_id).await? else {
        return Ok(false);
    };
    let Some(blob) = store::rendered_while_out(&ctx.db.conn, &ctx.db, doc_id).await? else {
        return Ok(false);
    };
    let sizes: Vec<[f64; 2]> = doc
        .page_sizes
        .as_deref()
        .and_then(|s| serde_json::from_str(s).ok())
        .ok_or_else(|| DomainError::Internal(format!("page sizes of {doc_id} unreadable")))?;
    if ctx.blobs.get(&index_key(&blob)).await?.is_none() {
        let pdf: Arc<[u8]> = ctx
            .blobs
            .get(&blob)
            .await?
            .ok_or_else(|| DomainError::Internal(format!("rendered file {blob} is missing")))?
            .into();
        for page in 1..=sizes.len() {
            draw_page(ctx, &blob, &pdf, page).await?;
        }
        let text = page_text(ctx, &doc, &blob, &pdf).await?;
        let pages: Vec<_> = sizes
            .iter()
            .enumerate()
            .map(|(i, size)| {
                let runs = text.get(i).cloned().unwrap_or_else(|| json!([]));
                json!({"size": size, "text": runs})
            })
            .collect();
        let index = json!({"widths": PAGE_WIDTHS, "pages": pages});
        ctx.blobs
            .put(
                &index_key(&blob),
                serde_json::to_vec(&index).unwrap_or_default(),
            )
            .await?;
        ctx.blobs.delete(&text_key(&blob)).await.ok();
    }
    // The pages can be shown: the invitations held for them go out.
    let (c, id, job) = (ctx.clone(), doc_id.to_string(), job_id.map(str::to_string));
    let released = ctx
        .db
        .transaction(move |txn| async move {
            let released = jobs::release_held(&c.db, &*txn, &id).await?;
            if let Some(job) = job {
                jobs::finish(&c.db, &*txn, &job).await?;
            }
            Ok::<_, DomainError>(released)
        })
        .await?;
    ctx.queued(released).await;
    Ok(true)
}

/// Page `page` (from 1) drawn at every width and stored, unless an earlier try stored it.
async fn draw_page(ctx: &Ctx, blob: &str, pdf: &Arc<[u8]>, page: usize) -> Result<(), DomainError> {
    let keys: Vec<String> = PAGE_WIDTHS
        .iter()
        .map(|&w| image_key(blob, page, w))
        .collect();
    let mut drawn = true;
    for key in &keys {
        drawn &= ctx.blobs.get(key).await?.is_some();
    }
    if drawn {
        return Ok(());
    }
    let (renderer, pdf) = (crate::services(ctx).renderer.clone(), pdf.clone());
    let picture =
        crate::render::in_background_later(move || renderer.picture(&pdf, page - 1, &PAGE_WIDTHS))
            .await
            .map_err(DomainError::Internal)?
            // The file decides it: the same page fails the same way on every try.
            .map_err(DomainError::Invalid)?;
    for (key, image) in keys.iter().zip(picture.images) {
        ctx.blobs.put(key, image).await?;
    }
    Ok(())
}

/// Each page's text runs: those the render kept, or, for a file rendered before they were
/// kept, the words laid out again, used only when the new layout is that very file (a newer
/// version of Signet may lay them out otherwise; the page then shows the pictures without a
/// text layer rather than words that are not on them).
async fn page_text(
    ctx: &Ctx,
    doc: &DocRow,
    blob: &str,
    pdf: &Arc<[u8]>,
) -> Result<Vec<serde_json::Value>, DomainError> {
    if let Some(kept) = ctx.blobs.get(&text_key(blob)).await? {
        return serde_json::from_slice(&kept)
            .map_err(|e| DomainError::Internal(format!("page text of {}: {e}", doc.id)));
    }
    let people = store::people(&ctx.db.conn, &ctx.db, &[&doc.id]).await?;
    let (renderer, max_pages, row, pdf) = (
        crate::services(ctx).renderer.clone(),
        crate::services(ctx).max_pages,
        doc.clone(),
        pdf.clone(),
    );
    let data = file_data(ctx, doc).await?;
    crate::render::in_background_later(move || {
        send::draft_from(&row, &people)
            .ok()
            .and_then(|d| {
                renderer
                    .render(&render_job(&row, &with_file(d, data), max_pages))
                    .ok()
            })
            .filter(|laid| *laid.pdf == *pdf)
            .map(|laid| laid.text)
            .unwrap_or_default()
    })
    .await
    .map_err(DomainError::Internal)
}

/// Makes the pictures of a document rendered before they were a job (an installation
/// upgraded with documents out for signature), when its signing page is first asked for:
/// at most one at a time per process per document, in the background; the page waits as for
/// a render and asks again.
pub fn make_later(ctx: &Ctx, doc: &DocRow) {
    static MAKING: std::sync::LazyLock<std::sync::Mutex<std::collections::HashSet<String>>> =
        std::sync::LazyLock::new(Default::default);
    struct Making(String);
    impl Drop for Making {
        fn drop(&mut self) {
            MAKING
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .remove(&self.0);
        }
    }
    if !MAKING
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .insert(doc.id.to_string())
    {
        return;
    }
    let making = Making(doc.id.to_string());
    let (ctx, id) = (ctx.clone(), doc.id.to_string());
    let make = async move {
        let _making = making;
        match make_pictures(&ctx, &id, None).await {
            Ok(_) => {
                tracing::info!(document = %id, "made the signing page's pictures of a document rendered without them")
            }
            Err(e) => tracing::warn!(document = %id, error = %e, "making page pictures failed"),
        }
    };
    tokio::spawn(tracing::Instrument::in_current_span(make));
}
