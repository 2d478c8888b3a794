//! A consistent copy of the embedded default while it serves, and bringing it back.
//!
//! The database is copied with SQLite's `VACUUM INTO`, one read transaction, so the copy is
//! the database as it was at one moment, whatever writes go on. The files are copied after
//! it: a file is always written before the row that names it commits, so every file the copy
//! names was on disk before the copy began. A file removed in between (a purge) is looked for
//! and named. Then the sealing authority's folder and the key-hashing secret are copied.
//!
//! A backup holds everything the data folder does (contract text, signatures, names and
//! addresses, the sealing key), so it is as private: folders 0700 and files 0600, whatever
//! the umask, on the way out and on the way back.

use std::path::{Path, PathBuf};

/// What a backup holds.
#[derive(Debug, serde::Serialize, serde::Deserialize)]
pub struct Manifest {
    pub format: u32,
    pub created_at: i64,
    pub documents: u64,
    pub files: u64,
    /// Files the database names that are not in the copy: removed while copying (a purge, a
    /// failed try's leftovers) or already missing from the store.
    pub missing: Vec<String>,
}

/// Where the parts of an embedded installation are.
pub struct Parts<'a> {
    pub database: &'a Path,
    pub blobs: &'a Path,
    pub ca_dir: &'a Path,
    /// `data_dir/secret.key`, when the secret is kept there.
    pub secret_key: Option<&'a Path>,
}

fn empty_or_new(dir: &Path) -> Result<(), String> {
    if dir.exists() {
        let mut entries = std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        if entries.next().is_some() {
            return Err(format!(
                "{} is not empty: back up into a new folder",
                dir.display()
            ));
        }
    }
    private_dir(dir)
}

/// Makes `dir` (and any folder above it it makes) readable by its owner only; an existing
/// folder is made so too.
fn private_dir(dir: &Path) -> Result<(), String> {
    let failed = |e: std::io::Error| format!("{}: {e}", dir.display());
    #[cfg(unix)]
    {
        use std::os::unix::fs::{DirBuilderExt, PermissionsExt};
        std::fs::DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(dir)
            .map_err(failed)?;
        std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700)).map_err(failed)
    }
    #[cfg(not(unix))]
    std::fs::create_dir_all(dir).map_err(failed)
}

/// Makes a file readable and writable by its owner only.
fn private_file(path: &Path) -> Result<(), String> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600))
            .map_err(|e| format!("{}: {e}", path.display()))?;
    }
    #[cfg(not(unix))]
    let _ = path;
    Ok(())
}

/// Copies one file and makes the copy private.
fn copy_private(from: &Path, to: &Path) -> std::io::Result<()> {
    std::fs::copy(from, to)?;
    private_file(to).map_err(std::io::Error::other)
}

/// Copies a folder's files, keeping their places; answers how many.
fn copy_tree(from: &Path, to: &Path) -> Result<u64, String> {
    if !from.exists() {
        return Ok(0);
    }
    let mut n = 0;
    let mut stack = vec![PathBuf::new()];
    while let Some(rel) = stack.pop() {
        let dir = from.join(&rel);
        private_dir(&to.join(&rel))?;
        for entry in std::fs::read_dir(&dir).map_err(|e| format!("{}: {e}", dir.display()))? {
            let entry = entry.map_err(|e| format!("{}: {e}", dir.display()))?;
            let kind = entry.file_type().map_err(|e| e.to_string())?;
            let name = rel.join(entry.file_name());
            if kind.is_dir() {
                stack.push(name);
            } else if kind.is_file() {
                match copy_private(&from.join(&name), &to.join(&name)) {
                    Ok(_) => n += 1,
                    // Removed since it was listed (a purge, a failed try's file): not needed.
                    Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                    Err(e) => return Err(format!("{}: {e}", name.display())),
                }
            }
        }
    }
    Ok(n)
}

/// Backs up `parts` into `to`, a new or empty folder, while the installation serves.
pub fn backup(parts: &Parts<'_>, to: &Path) -> Result<Manifest, String> {
    empty_or_new(to)?;
    let copy = to.join("signet.db");
    {
        let conn = rusqlite::Connection::open_with_flags(
            parts.database,
            rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY | rusqlite::OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )
        .map_err(|e| format!("{}: {e}", parts.database.display()))?;
        conn.busy_timeout(std::time::Duration::from_secs(30))
            .map_err(|e| e.to_string())?;
        conn.execute("VACUUM INTO ?1", [copy.to_string_lossy().as_ref()])
            .map_err(|e| format!("copying the database: {e}"))?;
    }
    private_file(&copy)?;
    let files = copy_tree(parts.blobs, &to.join("blobs"))?;
    copy_tree(parts.ca_dir, &to.join("ca"))?;
    if let Some(secret) = parts.secret_key.filter(|p| p.exists()) {
        copy_private(secret, &to.join("secret.key")).map_err(|e| format!("secret.key: {e}"))?;
    }
    // Every file the copy names must be in it.
    let conn = rusqlite::Connection::open(&copy).map_err(|e| e.to_string())?;
    let documents: u64 = conn
        .query_row("SELECT COUNT(*) FROM documents", [], |r| r.get::<_, i64>(0))
        .map_err(|e| e.to_string())? as u64;
    let mut named = conn
        .prepare(
            "SELECT pdf_blob FROM documents WHERE pdf_blob IS NOT NULL \
             UNION SELECT sealed_blob FROM documents WHERE sealed_blob IS NOT NULL",
        )
        .map_err(|e| e.to_string())?;
    let mut keys: Vec<String> = named
        .query_map([], |r| r.get::<_, String>(0))
        .map_err(|e| e.to_string())?
        .collect::<Result<_, _>>()
        .map_err(|e| e.to_string())?;
    keys.extend(source_files(&conn)?);
    let missing: Vec<String> = keys
        .into_iter()
        .filter(|k| !to.join("blobs").join(k).is_file())
        .collect();
    let manifest = Manifest {
        format: 1,
        created_at: crate::now_ms(),
        documents,
        files,
        missing,
    };
    let text = serde_json::to_string_pretty(&manifest).map_err(|e| e.to_string())?;
    std::fs::write(to.join("backup.json"), text).map_err(|e| format!("backup.json: {e}"))?;
    private_file(&to.join("backup.json"))?;
    Ok(manifest)
}

/// The files template versions name: each version's uploaded or converted file
/// (`{"file": {"blob": ...}}`). The documents sent from a version name the same file, and
/// only through it (a document cannot name a file of its own).
fn source_files(conn: &rusqlite::Connection) -> Result<Vec<String>, String> {
    let mut sources = conn
        .prepare("SELECT source FROM template_versions WHERE source LIKE '%\"blob\"%'")
        .map_err(|e| e.to_string())?;
    let mut rows = sources.query([]).map_err(|e| e.to_string())?;
    let mut keys = std::collections::BTreeSet::new();
    while let Some(row) = rows.next().map_err(|e| e.to_string())? {
        let text: String = row.get(0).map_err(|e| e.to_string())?;
        // A source from words that merely says "blob" names no file.
        if let Ok(v) = serde_json::from_str::<serde_json::Value>(&text)
            && let Some(key) = v["file"]["blob"].as_str()
        {
            keys.insert(key.to_string());
        }
    }
    Ok(keys.into_iter().collect())
}

/// Brings a backup back into an installation that has no database yet.
pub fn restore(from: &Path, parts: &Parts<'_>) -> Result<Manifest, String> {
    let manifest: Manifest = serde_json::from_slice(
        &std::fs::read(from.join("backup.json"))
            .map_err(|e| format!("{} is not a Signet backup: {e}", from.display()))?,
    )
    .map_err(|e| format!("backup.json: {e}"))?;
    if parts.database.exists() {
        return Err(format!(
            "{} exists: restore into an installation without a database",
            parts.database.display()
        ));
    }
    if let Some(dir) = parts.database.parent().filter(|d| !d.exists()) {
        private_dir(dir)?;
    }
    copy_private(&from.join("signet.db"), parts.database)
        .map_err(|e| format!("the database: {e}"))?;
    copy_tree(&from.join("blobs"), parts.blobs)?;
    copy_tree(&from.join("ca"), parts.ca_dir)?;
    if let Some(secret) = parts.secret_key
        && from.join("secret.key").exists()
    {
        copy_private(&from.join("secret.key"), secret).map_err(|e| format!("secret.key: {e}"))?;
    }
    Ok(manifest)
}
