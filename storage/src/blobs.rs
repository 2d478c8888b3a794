//! Blob store for rendered and sealed PDFs, template files and page pictures. The embedded
//! default keeps them in a local folder (`<data_dir>/blobs`); several machines share an
//! S3-compatible bucket instead (`blob_url = "s3://bucket/prefix"`, see [`Bucket`]).
//!
//! In the folder, each write goes to a temporary file first and is renamed into place, so a
//! reader never sees half a file and a crash leaves no torn blob. In a bucket, a PUT is whole
//! or absent by the protocol, and answered once the store has it.
//!
//! A write is on the disk before `put` returns: the file's bytes are synced before the rename,
//! then its folder and that folder's parent (and the parent of every folder the write
//! created) after it. The row that names a blob is committed after its `put`, so a power loss
//! cannot leave a committed document pointing at an empty or missing file. A sealed PDF
//! carries a timestamp and a signature that cannot be made again, and a rendered one is what
//! people signed.

use std::path::PathBuf;
use std::sync::Arc;

use crate::StorageError;

mod bucket;
mod key;

pub use bucket::BucketSettings;
use key::valid;

#[derive(Clone, Debug)]
pub struct Blobs {
    store: Store,
}

#[derive(Clone, Debug)]
enum Store {
    Local(PathBuf),
    Bucket(Arc<bucket::Bucket>),
}

/// A valid key's file in the folder `root`.
fn in_folder(root: &std::path::Path, key: &str) -> Result<PathBuf, StorageError> {
    valid(key)?;
    Ok(root.join(key))
}

impl Blobs {
    pub fn local(root: PathBuf) -> Blobs {
        Blobs {
            store: Store::Local(root),
        }
    }

    /// An S3-compatible bucket; nothing is asked of it until [`Blobs::check`] or a first use.
    pub fn bucket(settings: &BucketSettings) -> Result<Blobs, StorageError> {
        Ok(Blobs {
            store: Store::Bucket(Arc::new(bucket::Bucket::new(settings)?)),
        })
    }

    /// Where the blobs are, for messages: a folder or `s3://bucket/prefix`.
    pub fn describe(&self) -> String {
        match &self.store {
            Store::Local(root) => root.display().to_string(),
            Store::Bucket(b) => b.describe(),
        }
    }

    /// The local folder, when the blobs are in one (backups copy it).
    pub fn folder(&self) -> Option<&std::path::Path> {
        match &self.store {
            Store::Local(root) => Some(root),
            Store::Bucket(_) => None,
        }
    }

    /// Answers whether the store can be read: the folder's listing, or the bucket's (which
    /// fails when the bucket is missing or the credentials are refused).
    pub async fn check(&self) -> Result<(), StorageError> {
        match &self.store {
            Store::Local(_) => self.get("health/probe").await.map(|_| ()),
            Store::Bucket(b) => b.check().await,
        }
    }

    /// Writes a blob, durably (see the module's comment); the folder's on a blocking thread.
    pub async fn put(&self, key: &str, bytes: Vec<u8>) -> Result<(), StorageError> {
        match &self.store {
            Store::Local(_) => {
                let (blobs, key) = (self.clone(), key.to_string());
                tokio::task::spawn_blocking(move || blobs.put_sync(&key, &bytes))
                    .await
                    .map_err(|e| StorageError::Corrupt(format!("writing a blob: {e}")))?
            }
            Store::Bucket(b) => {
                valid(key)?;
                b.put(key, bytes).await
            }
        }
    }

    /// `put` on the calling thread, which it blocks until the disk has the blob. Local
    /// folders only: a bucket is written with `put`.
    pub fn put_sync(&self, key: &str, bytes: &[u8]) -> Result<(), StorageError> {
        use std::io::Write;
        let Store::Local(root) = &self.store else {
            return Err(StorageError::Bucket(
                "a bucket cannot be written from a blocking thread".into(),
            ));
        };
        let path = in_folder(root, key)?;
        let io = |e: std::io::Error| StorageError::Corrupt(format!("blob {key}: {e}"));
        let dir = path
            .parent()
            .ok_or_else(|| StorageError::Corrupt(format!("blob key '{key}' is not valid")))?;
        let created = create_dirs(dir).map_err(io)?;
        let tmp = path.with_extension(format!("tmp{}", std::process::id()));
        let written = (|| {
            let mut f = std::fs::File::create(&tmp)?;
            f.write_all(bytes)?;
            f.sync_data()
        })();
        if let Err(e) = written.and_then(|()| std::fs::rename(&tmp, &path)) {
            std::fs::remove_file(&tmp).ok();
            return Err(io(e));
        }
        // The rename is durable once its folder is synced, and the folder's own entry once its
        // parent is: always, since a folder found in place may have been made a moment ago by
        // another write that has not synced its parent yet. Folders this write made further up
        // are synced through their parents too. A blob that cannot be made durable is removed,
        // as no row will name it.
        let mut folders: Vec<&std::path::Path> = vec![dir];
        folders.extend(dir.parent());
        folders.extend(created.iter().filter_map(|made| made.parent()));
        folders.dedup();
        if let Err(e) = folders.into_iter().try_for_each(sync_dir) {
            std::fs::remove_file(&path).ok();
            return Err(io(e));
        }
        Ok(())
    }

    pub async fn get(&self, key: &str) -> Result<Option<Vec<u8>>, StorageError> {
        let root = match &self.store {
            Store::Local(root) => root,
            Store::Bucket(b) => {
                valid(key)?;
                return b.get(key).await;
            }
        };
        match tokio::fs::read(in_folder(root, key)?).await {
            Ok(b) => Ok(Some(b)),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(StorageError::Corrupt(format!("blob {key}: {e}"))),
        }
    }

    /// The keys of the blobs directly in `folder` (a key prefix without its trailing `/`),
    /// sorted; none when the folder does not exist.
    pub async fn list(&self, folder: &str) -> Result<Vec<String>, StorageError> {
        let root = match &self.store {
            Store::Local(root) => root,
            Store::Bucket(b) => {
                valid(folder)?;
                return b.list(folder).await;
            }
        };
        let dir = in_folder(root, folder)?;
        let folder = folder.to_string();
        tokio::task::spawn_blocking(move || {
            let io =
                |e: std::io::Error| StorageError::Corrupt(format!("blob folder {folder}: {e}"));
            let entries = match std::fs::read_dir(&dir) {
                Ok(entries) => entries,
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
                Err(e) => return Err(io(e)),
            };
            let mut keys = Vec::new();
            for entry in entries {
                let entry = entry.map_err(io)?;
                // Removed since the folder was read (a losing try cleaning up): not there.
                let kind = match entry.file_type() {
                    Ok(kind) => kind,
                    Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
                    Err(e) => return Err(io(e)),
                };
                if kind.is_file()
                    && let Some(name) = entry.file_name().to_str()
                {
                    keys.push(format!("{folder}/{name}"));
                }
            }
            keys.sort();
            Ok(keys)
        })
        .await
        .map_err(|e| StorageError::Corrupt(format!("listing blobs: {e}")))?
    }

    /// Removes a blob; a missing one is not an error.
    pub async fn delete(&self, key: &str) -> Result<(), StorageError> {
        let root = match &self.store {
            Store::Local(root) => root,
            Store::Bucket(b) => {
                valid(key)?;
                return b.delete(key).await;
            }
        };
        match tokio::fs::remove_file(in_folder(root, key)?).await {
            Ok(()) => Ok(()),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
            Err(e) => Err(StorageError::Corrupt(format!("blob {key}: {e}"))),
        }
    }
}

/// Creates `dir` and its missing parents; answers the folders it made (or found made by
/// another writer meanwhile), outermost first.
fn create_dirs(dir: &std::path::Path) -> std::io::Result<Vec<PathBuf>> {
    let mut missing = Vec::new();
    let mut at = Some(dir);
    while let Some(d) = at {
        if d.as_os_str().is_empty() || d.is_dir() {
            break;
        }
        missing.push(d.to_path_buf());
        at = d.parent();
    }
    missing.reverse();
    let mut made = Vec::with_capacity(missing.len());
    for d in missing {
        match std::fs::create_dir(&d) {
            Ok(()) => made.push(d),
            // Made by another writer meanwhile, which may not have synced its parent yet.
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => made.push(d),
            Err(e) => return Err(e),
        }
    }
    Ok(made)
}

/// Syncs a folder's entries to the disk.
#[cfg(unix)]
fn sync_dir(dir: &std::path::Path) -> std::io::Result<()> {
    std::fs::File::open(dir)?.sync_all()
}

/// Elsewhere a folder cannot be opened to sync; the rename is as durable as the platform's.
#[cfg(not(unix))]
fn sync_dir(_: &std::path::Path) -> std::io::Result<()> {
    Ok(())
}
