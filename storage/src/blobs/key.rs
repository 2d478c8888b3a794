//! What a blob key may be, for either store.

use crate::StorageError;

/// Checks a key before either store sees it: relative, no empty, `.` or `..` part.
pub(crate) fn valid(key: &str) -> Result<(), StorageError> {
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
    Ok(())
}
