//! Inline reads for the embedded default. sqlx runs every SQLite query on a per-connection
//! worker thread, and on a 2-core machine the hand-off costs about 80 µs of CPU per query
//! (bench/RESULTS.md). Point reads on the hot path instead run here, on the calling thread,
//! through a small pool of plain SQLite connections: a few microseconds each. The connections
//! are `query_only`, so nothing can write through them, and WAL mode means a reader never
//! waits for the writer; the short busy timeout only covers WAL recovery.
//!
//! Writes on the hot path go through one writer thread with its own connection: appending the
//! API log, and the bodies of `Db::transaction`, whose statements run through `InlineTx` on
//! that thread, a few microseconds each, instead of one hand-off per statement. The writer
//! group-commits: it takes every body waiting, runs each inside a savepoint of one
//! transaction (a body that fails rolls back only itself; a body alone needs none), commits
//! once, and only then answers each caller. SQLite has one writer at a time anyway; this way
//! the turn passes without a thread wake-up per transaction, and one commit serves many. The
//! writer also runs the checkpoints, after answering (see `Checkpoints`).

use std::path::PathBuf;
use std::sync::Mutex;
use std::time::Duration;

use rusqlite::{Connection, OpenFlags};

use crate::StorageError;

mod durability;
mod tx;

use durability::{Checkpoints, WAL_FRAMES, note_frames};
pub use tx::InlineTx;
use tx::db_err;

pub struct InlineSqlite {
    path: PathBuf,
    idle: Mutex<Vec<Connection>>,
    /// The writer thread's queue, started on the first write.
    writer: std::sync::OnceLock<std::sync::mpsc::Sender<Job>>,
}

/// A body run by the writer inside the batch's transaction. It answers whether it succeeded
/// (else its savepoint is rolled back, or the transaction when it is alone in its batch) and
/// what tells its caller once the commit is known.
type Job = Box<dyn FnOnce(&std::sync::Arc<InlineTx>) -> (bool, Reply) + Send>;
type Reply = Box<dyn FnOnce(Result<(), StorageError>) + Send>;

/// Bodies committed together at most.
const BATCH: usize = 128;

impl std::fmt::Debug for InlineSqlite {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "InlineSqlite({})", self.path.display())
    }
}

/// Prepared statements each connection keeps.
const STATEMENT_CACHE: usize = 256;

/// Connections kept idle; more may exist briefly under contention.
const KEEP: usize = 8;

impl InlineSqlite {
    pub fn new(path: PathBuf) -> InlineSqlite {
        InlineSqlite {
            path,
            idle: Mutex::new(Vec::new()),
            writer: std::sync::OnceLock::new(),
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
    fn queue(&self) -> &std::sync::mpsc::Sender<Job> {
        self.writer.get_or_init(|| {
            let (tx, rx) = std::sync::mpsc::channel::<Job>();
            let path = self.path.clone();
            let started = std::thread::Builder::new()
                .name("signet-sqlite-writer".into())
                .spawn(move || writer_loop(&path, &rx));
            if let Err(e) = started {
                tracing::error!(error = %e, "cannot start the SQLite writer thread");
            }
            tx
        })
    }

    /// Runs `f` on the writer thread inside a transaction: its writes commit with its batch.
    pub async fn write<T: Send + 'static>(
        &self,
        f: impl FnOnce(&Connection) -> Result<T, StorageError> + Send + 'static,
    ) -> Result<T, StorageError> {
        let (tx, rx) = tokio::sync::oneshot::channel();
        let job: Job = Box::new(move |t: &std::sync::Arc<InlineTx>| {
            let out = {
                let guard = t.conn.lock().unwrap_or_else(|p| p.into_inner());
                match guard.as_ref() {
                    Some(conn) => f(conn),
                    None => Err(StorageError::Corrupt(
                        "the SQLite writer has no connection".into(),
                    )),
                }
            };
            let ok = out.is_ok();
            let reply: Reply = Box::new(move |committed| {
                let _ = tx.send(match (out, committed) {
                    (Ok(v), Ok(())) => Ok(v),
                    (Err(e), _) | (Ok(_), Err(e)) => Err(e),
                });
            });
            (ok, reply)
        });
        self.queue()
            .send(job)
            .map_err(|_| StorageError::Corrupt("the SQLite writer thread is gone".into()))?;
        rx.await.map_err(|_| {
            StorageError::Corrupt("the SQLite writer could not run this write (see the log)".into())
        })?
    }

    /// Appends API log rows in one transaction.
    pub async fn append_api_log(
        &self,
        rows: Vec<crate::entities::api_log::Model>,
    ) -> Result<(), StorageError> {
        self.write(move |conn| {
            {
                let mut stmt = conn
                    .prepare_cached(
                        "INSERT INTO api_log (id, key_id, workspace_id, method, route, status, error_kind, \
                         duration_us, client_ip, created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10) \
                         ON CONFLICT (id) DO NOTHING",
                    )
                    .map_err(inline_err)?;
                for r in &rows {
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
            Ok(())
        })
        .await
    }

    /// Runs `body` on the writer thread inside the batch's transaction: committed with its
    /// batch when it answers `Ok`, rolled back otherwise (to its savepoint, or the whole
    /// transaction when it is alone in its batch). The body must
    /// write only through the `InlineTx` it is given and must not wait for other work: the
    /// writer runs it to the end before it takes the next one.
    pub async fn transaction<T, E, Fut>(
        &self,
        body: impl FnOnce(std::sync::Arc<InlineTx>) -> Fut + Send + 'static,
    ) -> Result<T, E>
    where
        T: Send + 'static,
        E: From<StorageError> + Send + 'static,
        Fut: std::future::Future<Output = Result<T, E>> + Send + 'static,
    {
        let handle = tokio::runtime::Handle::current();
        let (tx, rx) = tokio::sync::oneshot::channel::<Result<T, E>>();
        let job: Job = Box::new(move |t: &std::sync::Arc<InlineTx>| {
            let out = handle.block_on(body(t.clone()));
            let ok = out.is_ok();
            let reply: Reply = Box::new(move |committed| {
                let _ = tx.send(match (out, committed) {
                    (Ok(v), Ok(())) => Ok(v),
                    (Ok(_), Err(e)) => Err(E::from(e)),
                    (Err(e), _) => Err(e),
                });
            });
            (ok, reply)
        });
        self.queue().send(job).map_err(|_| {
            E::from(StorageError::Corrupt(
                "the SQLite writer thread is gone".into(),
            ))
        })?;
        rx.await.map_err(|_| {
            E::from(StorageError::Corrupt(
                "the SQLite writer could not run this write (see the log)".into(),
            ))
        })?
    }
}

/// The writer thread: batches of waiting bodies, each in a savepoint of one transaction.
fn writer_loop(path: &std::path::Path, rx: &std::sync::mpsc::Receiver<Job>) {
    let mut conn: Option<Connection> = None;
    let mut checkpoints = Checkpoints::new();
    // A body taken to see whether the queue was empty; it leads the next batch.
    let mut next: Option<Job> = None;
    loop {
        let first = match next.take() {
            Some(job) => job,
            // A checkpoint put off for its gap runs when the gap is over, if no write came
            // first; a quiet spell after a burst does not leave the log long.
            None => match checkpoints.deferred_for() {
                Some(wait) => match rx.recv_timeout(wait) {
                    Ok(job) => job,
                    Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
                        checkpoints.quiet(conn.as_ref());
                        continue;
                    }
                    Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => break,
                },
                None => match rx.recv() {
                    Ok(job) => job,
                    Err(_) => break,
                },
            },
        };
        let mut batch = vec![first];
        while batch.len() < BATCH {
            match rx.try_recv() {
                Ok(job) => batch.push(job),
                Err(_) => break,
            }
        }
        let c = match conn.take() {
            Some(c) => c,
            None => match open_writer(path) {
                Ok(c) => {
                    checkpoints.opened(&c);
                    c
                }
                Err(e) => {
                    let msg = e.to_string();
                    fail_all(batch, &msg);
                    continue;
                }
            },
        };
        if let Err(e) = run(&c, "BEGIN IMMEDIATE") {
            fail_all(batch, &format!("sqlite: {e}"));
            conn = Some(c).filter(Connection::is_autocommit);
            continue;
        }
        let tx = std::sync::Arc::new(InlineTx {
            conn: Mutex::new(Some(c)),
        });
        let (replies, failed_alone) = run_bodies(&tx, batch);
        let c = tx.conn.lock().unwrap_or_else(|p| p.into_inner()).take();
        // The WAL hook runs only for a commit that writes frames.
        WAL_FRAMES.set(0);
        let committed = match &c {
            // The one body failed: nothing to keep. Its caller hears its own error.
            Some(c) if failed_alone => c
                .execute_batch("ROLLBACK")
                .map_err(|e| format!("sqlite: {e}")),
            Some(c) => run(c, "COMMIT").map_err(|e| {
                let _ = c.execute_batch("ROLLBACK");
                format!("sqlite: {e}")
            }),
            None => Err("the SQLite writer lost its connection".into()),
        };
        let wrote = committed.is_ok() && !failed_alone;
        conn = c.filter(Connection::is_autocommit);
        for reply in replies {
            reply(committed.clone().map_err(StorageError::Corrupt));
        }
        if let (true, Some(c)) = (wrote, &conn) {
            checkpoints.committed();
            let idle = match rx.try_recv() {
                Ok(job) => {
                    next = Some(job);
                    false
                }
                Err(_) => true,
            };
            checkpoints.after_commit(c, idle);
        }
    }
}

/// The writer's connection: its sub-journals in memory, foreign keys on, and the log's
/// frames counted at each commit (which leaves checkpoints to `Checkpoints`).
fn open_writer(path: &std::path::Path) -> Result<Connection, StorageError> {
    let c = open(path, Duration::from_secs(10), ("synchronous", "NORMAL"))?;
    // Each body's savepoint keeps the pages it changes in a sub-journal: in
    // memory, not a temporary file written page by page. The page cache stays
    // SQLite's 2 MB: 64 MB cost more than it saved (SQLite sweeps the cache at
    // each commit), 8 and 16 MB gained less than the runs' spread and pushed
    // the resident size past its 150 MB budget, and a memory map counted the
    // file's pages into it (345 MB).
    c.pragma_update(None, "temp_store", "MEMORY")
        .map_err(inline_err)?;
    // Foreign keys are on by default in the SQLite that libsqlite3-sys
    // builds; set here so that nothing depends on that (a revised draft's
    // people, fields and metadata go with it by their ON DELETE CASCADE).
    c.pragma_update(None, "foreign_keys", "ON")
        .map_err(inline_err)?;
    // Counts the log's frames at each commit, which also turns off SQLite's
    // own checkpoint inside COMMIT: `Checkpoints` runs them instead.
    c.wal_hook(Some(note_frames));
    Ok(c)
}

/// Runs each body of a batch in the writer's transaction, each in a savepoint of its own
/// unless it is alone; a body that fails or panics rolls back only itself. The answers to give
/// once the batch commits, and whether a body alone failed (then nothing is kept).
fn run_bodies(tx: &std::sync::Arc<InlineTx>, batch: Vec<Job>) -> (Vec<Reply>, bool) {
    let mut replies = Vec::with_capacity(batch.len());
    // A body alone in its batch needs no savepoint: if it fails, the whole transaction
    // rolls back. A savepoint copies every page a body changes before it changes it, so
    // the single body of a quiet moment skips that work.
    let alone = batch.len() == 1;
    let mut failed_alone = false;
    for job in batch {
        if !alone && let Err(e) = tx.with(|c| run(c, "SAVEPOINT body").map_err(db_err)) {
            // Dropped: its caller hears of it at once.
            tracing::error!(error = %e, "a write to SQLite could not start");
            continue;
        }
        let (ok, reply) = match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| job(tx))) {
            Ok(done) => done,
            Err(_) => {
                tracing::error!("a write to SQLite panicked; rolled back");
                let nobody: Reply = Box::new(|_| {});
                (false, nobody)
            }
        };
        if alone {
            failed_alone = !ok;
        } else {
            let end = |c: &Connection| {
                if !ok {
                    run(c, "ROLLBACK TO body")?;
                }
                run(c, "RELEASE body")
            };
            if let Err(e) = tx.with(|c| end(c).map_err(db_err)) {
                tracing::error!(error = %e, "ending a write's savepoint failed");
            }
        }
        replies.push(reply);
    }
    (replies, failed_alone)
}

/// Gives up on a batch that could not start. Each dropped body drops its answer channel, so
/// its caller gets an error at once; the reason is logged here.
fn fail_all(batch: Vec<Job>, msg: &str) {
    tracing::error!(error = %msg, writes = batch.len(), "the SQLite writer cannot start a transaction");
    drop(batch);
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
    // rusqlite keeps 16 prepared statements by default. One create+send alone runs more
    // distinct statements than that (multi-row inserts differ by their row count), so the
    // writer re-parsed statements it had just evicted.
    conn.set_prepared_statement_cache_capacity(STATEMENT_CACHE);
    Ok(conn)
}

/// Runs a statement the writer runs again and again (BEGIN, SAVEPOINT, COMMIT...) from the
/// statement cache, not parsed anew each time as `execute_batch` would.
fn run(c: &Connection, sql: &str) -> rusqlite::Result<()> {
    c.prepare_cached(sql)?.execute([]).map(drop)
}

fn inline_err(e: rusqlite::Error) -> StorageError {
    StorageError::Corrupt(format!("sqlite: {e}"))
}
