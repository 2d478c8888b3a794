//! What the emails of one pass share, each read once: the workspace, a document's people, a
//! wording, and the sealed files (at most a few at once).

use std::collections::BTreeMap;
use std::sync::Arc;

use signet_core::{Ctx, DomainError};
use signet_documents::store::{self, DocRow, PersonDbRow};

use crate::{Kind, templates};

/// The workspace as an email needs it.
pub(super) type Workspace = signet_accounts::workspaces::Profile;

async fn workspace(ctx: &Ctx, id: &str) -> Result<Workspace, DomainError> {
    signet_accounts::workspaces::profile(ctx, id)
        .await?
        .ok_or_else(|| DomainError::Internal(format!("workspace {id} is gone")))
}

/// The sealed files one pass has read, shared by its emails: a document's completion emails
/// hold one copy between them, and a pass holds at most [`FILES_PER_PASS`] files (the emails
/// of other documents wait for the next pass), so a pass's memory stays bounded whatever
/// the documents weigh.
#[derive(Default)]
pub struct Pass {
    files: std::sync::Mutex<BTreeMap<String, Arc<Vec<u8>>>>,
    /// What the emails of a pass share: each read once.
    workspaces: std::sync::Mutex<BTreeMap<String, Workspace>>,
    people: std::sync::Mutex<BTreeMap<String, Arc<Vec<PersonDbRow>>>>,
    wordings: std::sync::Mutex<BTreeMap<(String, Kind, String), crate::wording::Wording>>,
    /// Test documents' kinds of email this pass sends: one of each per document.
    test_kinds: std::sync::Mutex<std::collections::BTreeSet<(String, &'static str)>>,
}

/// A value of a pass's cache, or `read` it and keep it.
async fn cached<
    K: Ord + Clone,
    V: Clone,
    F: std::future::Future<Output = Result<V, DomainError>>,
>(
    map: &std::sync::Mutex<BTreeMap<K, V>>,
    key: &K,
    read: impl FnOnce() -> F,
) -> Result<V, DomainError> {
    if let Some(v) = map.lock().ok().and_then(|m| m.get(key).cloned()) {
        return Ok(v);
    }
    let v = read().await?;
    if let Ok(mut m) = map.lock() {
        m.insert(key.clone(), v.clone());
    }
    Ok(v)
}

/// Sealed files (each at most a few tens of MB) one pass holds at once.
pub const FILES_PER_PASS: usize = 4;

pub(super) enum Loaded {
    File(Arc<Vec<u8>>),
    Missing,
    Later,
}

impl Pass {
    /// Whether this is the pass's first email of `kind` about the document (a test document
    /// sends its sender one of each).
    pub(super) fn first_of_kind(&self, doc_id: &str, kind: Kind) -> bool {
        self.test_kinds
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .insert((doc_id.to_string(), kind.as_str()))
    }

    pub(super) async fn workspace(&self, ctx: &Ctx, id: &str) -> Result<Workspace, DomainError> {
        cached(&self.workspaces, &id.to_string(), || workspace(ctx, id)).await
    }

    pub(super) async fn people(
        &self,
        ctx: &Ctx,
        doc: &DocRow,
    ) -> Result<Arc<Vec<PersonDbRow>>, DomainError> {
        cached(&self.people, &doc.id.to_string(), || async {
            Ok(Arc::new(
                store::people(&ctx.db.conn, &ctx.db, &[&doc.id]).await?,
            ))
        })
        .await
    }

    pub(super) async fn wording(
        &self,
        ctx: &Ctx,
        workspace_id: &str,
        kind: Kind,
        locale: &str,
    ) -> Result<crate::wording::Wording, DomainError> {
        let key = (workspace_id.to_string(), kind, locale.to_string());
        cached(&self.wordings, &key, || {
            templates::effective(ctx, workspace_id, kind, locale)
        })
        .await
    }

    pub(super) async fn sealed(&self, ctx: &Ctx, doc: &DocRow) -> Result<Loaded, DomainError> {
        let Some(key) = signet_documents::record::sealed_key(ctx, &doc.id).await? else {
            return Ok(Loaded::Missing);
        };
        let full = {
            let files = self
                .files
                .lock()
                .map_err(|_| DomainError::Internal("a poisoned lock".into()))?;
            if let Some(f) = files.get(&key) {
                return Ok(Loaded::File(f.clone()));
            }
            files.len() >= FILES_PER_PASS
        };
        if full {
            return Ok(Loaded::Later);
        }
        let Some(bytes) = ctx.blobs.get(&key).await? else {
            return Ok(Loaded::Missing);
        };
        let file = Arc::new(bytes);
        if let Ok(mut files) = self.files.lock() {
            files.insert(key, file.clone());
        }
        Ok(Loaded::File(file))
    }
}
