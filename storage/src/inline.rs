//! Inline reads for the embedded default. sqlx runs every SQLite query on a per-connection
//! worker thread, and on a 2-core machine the hand-off costs about 80 µs of CPU per query
//! (bench/RESULTS.md). Point reads on the hot path instead run here, on the calling thread,
//! through a small pool of plain SQLite connections: a few microseconds each. The connections
//! are `query_only`, so nothing can write through them, and WAL mode means a reader never
//! waits for the writer; the short busy timeout only covers WAL recovery.
//!
//! Appending the API log goes through one dedicated connection here too, with a prepared
//! statement per row inside one transaction, on a blocking thread: building a multi-row
//! statement through the query builder cost more CPU than the rows themselves.

use std::path::PathBuf;
use std::sync::Mutex;
use std::time::Duration;

use rusqlite::{Connection, OpenFlags};

use crate::StorageError;

pub struct InlineSqlite {
    path: PathBuf,
    idle: Mutex<Vec<Connection>>,
    writer: Mutex<Option<Connection>>,
}

impl std::fmt::Debug for InlineSqlite {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "InlineSqlite({})", self.path.display())
    }
}

/// Connections kept idle; more may exist briefly under contention.
const KEEP: usize = 8;

impl InlineSqlite {
    pub fn new(path: PathBuf) -> InlineSqlite {
        InlineSqlite {
            path,
            idle: Mutex::new(Vec::new()),
            writer: Mutex::new(None),
        }
    }

    /// Runs `f` on a pooled connection on this thread. `f` must only read and must not block.
    pub fn read<T>(
        &self,
        f: impl FnOnce(&Connection) -> rusqlite::Result<T>,
    ) -> Result<T, StorageError> {
        let pooled = self.idle.lock().unwrap_or_else(|p| p.into_inner()).pop();
        let conn = match pooled {
            Some(c) => c,
            None => open(&self.path, Duration::from_millis(250), ("query_only", "ON"))?,
        };
        let out = f(&conn).map_err(inline_err);
        let mut idle = self.idle.lock().unwrap_or_else(|p| p.into_inner());
        if idle.len() < KEEP {
            idle.push(conn);
        }
        out
    }
}

impl InlineSqlite {
    /// Appends API log rows in one transaction. Blocking: call from a blocking thread.
    pub fn append_api_log(
        &self,
        rows: &[crate::entities::api_log::Model],
    ) -> Result<(), StorageError> {
        let mut guard = self.writer.lock().unwrap_or_else(|p| p.into_inner());
        if guard.is_none() {
            let conn = open(
                &self.path,
                Duration::from_secs(10),
                ("synchronous", "NORMAL"),
            )?;
            *guard = Some(conn);
        }
        let Some(conn) = guard.as_mut() else {
            return Ok(());
        };
        let tx = conn.transaction().map_err(inline_err)?;
        {
            let mut stmt = tx
                .prepare_cached(
                    "INSERT INTO api_log (id, key_id, workspace_id, method, route, status, error_kind, \
                     duration_us, client_ip, created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10) \
                     ON CONFLICT (id) DO NOTHING",
                )
                .map_err(inline_err)?;
            for r in rows {
                stmt.execute(rusqlite::params![
                    r.id,
                    r.key_id,
                    r.workspace_id,
                    r.method,
                    r.route,
                    r.status,
                    r.error_kind,
                    r.duration_us,
                    r.client_ip,
                    r.created_at
                ])
                .map_err(inline_err)?;
            }
        }
        tx.commit().map_err(inline_err)
    }
}

/// A plain connection with a busy timeout and one per-connection setting.
fn open(
    path: &std::path::Path,
    busy: Duration,
    (pragma, value): (&str, &str),
) -> Result<Connection, StorageError> {
    let conn = Connection::open_with_flags(
        path,
        OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )
    .map_err(inline_err)?;
    conn.busy_timeout(busy).map_err(inline_err)?;
    conn.pragma_update(None, pragma, value)
        .map_err(inline_err)?;
    Ok(conn)
}

fn inline_err(e: rusqlite::Error) -> StorageError {
    StorageError::Corrupt(format!("sqlite inline read: {e}"))
}
