//! Blob store for rendered and sealed PDFs. The embedded default keeps them in a local folder
//! (`<data_dir>/blobs`); each write goes to a temporary file first and is renamed into place,
//! so a reader never sees half a file and a crash leaves no torn blob.

use std::path::PathBuf;

use crate::StorageError;

#[derive(Clone, Debug)]
pub struct Blobs {
    root: PathBuf,
}

impl Blobs {
    pub fn local(root: PathBuf) -> Blobs {
        Blobs { root }
    }

    fn path(&self, key: &str) -> Result<PathBuf, StorageError> {
        if key.is_empty()
            || key.starts_with('/')
            || key
                .split('/')
                .any(|p| p.is_empty() || p == "." || p == "..")
        {
            return Err(StorageError::Corrupt(format!(
                "blob key '{key}' is not valid"
            )));
        }
        Ok(self.root.join(key))
    }

    pub async fn put(&self, key: &str, bytes: Vec<u8>) -> Result<(), StorageError> {
        let path = self.path(key)?;
        let io = |e: std::io::Error| StorageError::Corrupt(format!("blob {key}: {e}"));
        if let Some(dir) = path.parent() {
            tokio::fs::create_dir_all(dir).await.map_err(io)?;
        }
        let tmp = path.with_extension(format!("tmp{}", std::process::id()));
        tokio::fs::write(&tmp, bytes).await.map_err(io)?;
        tokio::fs::rename(&tmp, &path).await.map_err(io)?;
        Ok(())
    }

    pub async fn get(&self, key: &str) -> Result<Option<Vec<u8>>, StorageError> {
        match tokio::fs::read(self.path(key)?).await {
            Ok(b) => Ok(Some(b)),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(StorageError::Corrupt(format!("blob {key}: {e}"))),
        }
    }

    /// Removes a blob; a missing one is not an error.
    pub async fn delete(&self, key: &str) -> Result<(), StorageError> {
        match tokio::fs::remove_file(self.path(key)?).await {
            Ok(()) => Ok(()),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
            Err(e) => Err(StorageError::Corrupt(format!("blob {key}: {e}"))),
        }
    }
}
