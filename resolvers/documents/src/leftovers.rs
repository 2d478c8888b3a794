//! What earlier tries of a document's render or seal left in its folder.

use sea_orm::{ConnectionTrait, Value};
use signet_core::{Ctx, DomainError};

/// Which files of a document's folder a committed try may remove (see `remove`).
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Leftovers {
    /// Renders only: a seal may be writing its file while a render commits (sealing renders
    /// a signed document the render worker has not reached), and its row commits after.
    Renders,
    /// Renders and seals the row does not name: once sealed, no try of either kind can
    /// commit. Files of other kinds are left alone.
    All,
}

/// Removes what earlier tries of a document's job left in its folder: a try writes its file
/// under a name of its own before the row that names it commits, so one that failed or died
/// in between (or lost a race) leaves a file no row names. Called when a later try of the
/// same job ends, and only when there was an earlier try (`attempts > 0`), so a document's
/// first, clean try costs nothing. A file the row names is never removed.
pub async fn remove(ctx: &Ctx, doc_id: &str, which: Leftovers) -> Result<usize, DomainError> {
    let row = ctx
        .db
        .conn
        .query_one_raw(ctx.db.stmt(
            "SELECT pdf_blob, sealed_blob FROM documents WHERE id = $1",
            [Value::from(doc_id.to_string())],
        ))
        .await?;
    let Some(row) = row else {
        return Ok(0);
    };
    let pdf: Option<String> = row.try_get("", "pdf_blob")?;
    let sealed: Option<String> = row.try_get("", "sealed_blob")?;
    // Only once the row names the file of that kind can no other try of it commit (renders
    // and seals commit only over an empty column or an unsealed state): before that, a file
    // no row names yet may be a try still on its way.
    let settled = match which {
        Leftovers::Renders => pdf.is_some(),
        Leftovers::All => sealed.is_some(),
    };
    if !settled {
        return Ok(0);
    }
    let named: Vec<String> = [pdf, sealed].into_iter().flatten().collect();
    let mut removed = 0;
    for key in ctx
        .blobs
        .list(&crate::blob_keys::document_folder(doc_id))
        .await?
    {
        let name = key.rsplit('/').next().unwrap_or_default();
        let ours =
            name.starts_with("render") || (which == Leftovers::All && name.starts_with("sealed-"));
        // A named file's pictures and text share its name.
        let belongs = named
            .iter()
            .any(|n| key.starts_with(&format!("{}.", n.trim_end_matches(".pdf"))));
        if named.contains(&key) || belongs || !ours {
            continue;
        }
        ctx.blobs.delete(&key).await?;
        removed += 1;
    }
    if removed > 0 {
        tracing::info!(
            document = doc_id,
            removed,
            "removed files earlier tries left"
        );
    }
    Ok(removed)
}
