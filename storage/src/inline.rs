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
use sea_orm::{DbBackend, DbErr, Statement, Value};

use crate::StorageError;
use crate::sql::{Row, Sql};

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
            None => {
                match open(path, Duration::from_secs(10), ("synchronous", "NORMAL")).and_then(|c| {
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
                }) {
                    Ok(c) => {
                        checkpoints.opened(&c);
                        c
                    }
                    Err(e) => {
                        let msg = e.to_string();
                        fail_all(batch, &msg);
                        continue;
                    }
                }
            }
        };
        if let Err(e) = run(&c, "BEGIN IMMEDIATE") {
            fail_all(batch, &format!("sqlite: {e}"));
            conn = Some(c).filter(Connection::is_autocommit);
            continue;
        }
        let tx = std::sync::Arc::new(InlineTx {
            conn: Mutex::new(Some(c)),
        });
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
            let (ok, reply) =
                match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| job(&tx))) {
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

thread_local! {
    /// Frames in the write-ahead log after the writer's last commit (see `note_frames`).
    static WAL_FRAMES: std::cell::Cell<i32> = const { std::cell::Cell::new(0) };
}

/// The writer connection's WAL hook: SQLite calls it after each commit with the log's length.
fn note_frames(_: &rusqlite::hooks::Wal, frames: std::ffi::c_int) -> rusqlite::Result<()> {
    WAL_FRAMES.set(frames);
    Ok(())
}

/// A checkpoint is due once the log holds this many frames (SQLite's own default)...
const CHECKPOINT_FRAMES: i32 = 1000;
/// ...and, while bodies are waiting, no sooner than this after the last one; when nobody is
/// waiting, no sooner than `IDLE_GAP`.
const BUSY_GAP: Duration = Duration::from_millis(100);
const IDLE_GAP: Duration = Duration::from_millis(10);
/// Past this many frames (about 40 MB) a checkpoint runs after every commit, as SQLite's does.
const CHECKPOINT_HARD: i32 = 10_000;

/// When the writer copies the write-ahead log back into the database.
///
/// SQLite's own policy checkpoints inside COMMIT once the log holds 1,000 frames, so the
/// batch whose commit trips it waits for the whole checkpoint before its callers hear
/// anything: the log's new pages copied into the database and two `fsync` calls, the first
/// of 4 MB or more of log written since the last. A checkpoint that cannot copy everything
/// (a reader still needs older pages) leaves the log long, and the next commit runs another.
/// Measured at 2,000 create+send a second: 85 checkpoints a second and 30% of the writer
/// thread's time in `fsync` (bench/RESULTS.md).
///
/// Here the writer answers its callers first, then checkpoints when the log is long and the
/// last checkpoint is `IDLE_GAP` old (`BUSY_GAP` while bodies wait, so hot pages rewritten by
/// many commits are copied once). Between checkpoints a flusher thread writes the log to
/// disk, so the checkpoint's own `fsync` of the log finds little left to do.
struct Checkpoints {
    last: std::time::Instant,
    /// A checkpoint was due but put off for its gap.
    deferred: bool,
    flusher: Option<Flusher>,
}

impl Checkpoints {
    fn new() -> Checkpoints {
        Checkpoints {
            last: std::time::Instant::now(),
            deferred: false,
            flusher: None,
        }
    }

    /// The writer's connection is open: its log is the one to flush. SQLite names the log
    /// after the database's full path as it resolved it, which the connection reports.
    fn opened(&mut self, conn: &Connection) {
        if self.flusher.is_none()
            && let Some(db) = conn.path().filter(|p| !p.is_empty())
        {
            self.flusher = Some(Flusher::start(std::path::Path::new(db)));
        }
    }

    fn committed(&self) {
        if let Some(f) = &self.flusher {
            f.committed();
        }
    }

    /// How long until a put-off checkpoint is due.
    fn deferred_for(&self) -> Option<Duration> {
        self.deferred
            .then(|| IDLE_GAP.saturating_sub(self.last.elapsed()))
    }

    /// No write came while a put-off checkpoint waited out its gap: it runs now.
    fn quiet(&mut self, conn: Option<&Connection>) {
        if let Some(c) = conn {
            self.after_commit(c, true);
        }
        self.deferred = false;
    }

    fn after_commit(&mut self, conn: &Connection, idle: bool) {
        let frames = WAL_FRAMES.get();
        if frames < CHECKPOINT_FRAMES && !self.deferred {
            return;
        }
        let gap = if idle { IDLE_GAP } else { BUSY_GAP };
        if frames < CHECKPOINT_HARD && self.last.elapsed() < gap {
            self.deferred = true;
            return;
        }
        self.deferred = false;
        let started = std::time::Instant::now();
        let out = conn.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |r| {
            Ok((r.get::<_, i64>(1)?, r.get::<_, i64>(2)?))
        });
        self.last = std::time::Instant::now();
        match out {
            Ok((log, copied)) => tracing::debug!(
                frames,
                log,
                copied,
                idle,
                took_us = started.elapsed().as_micros() as u64,
                "checkpoint"
            ),
            Err(e) => tracing::warn!(error = %e, "checkpoint failed; the next commit retries"),
        }
    }
}

/// A thread that `fdatasync`s the write-ahead log a few milliseconds after commits, so that
/// the bytes reach the disk while the writer goes on, not inside a checkpoint. The database
/// is as durable as before (a checkpoint still syncs the log itself first); this only moves
/// the waiting off the writer thread.
struct Flusher {
    shared: std::sync::Arc<FlushState>,
    thread: Option<std::thread::Thread>,
}

#[derive(Default)]
struct FlushState {
    pending: std::sync::atomic::AtomicBool,
    stop: std::sync::atomic::AtomicBool,
}

/// How often the flusher syncs the log at most.
const FLUSH_EVERY: Duration = Duration::from_millis(5);

impl Flusher {
    fn start(db: &std::path::Path) -> Flusher {
        use std::sync::atomic::Ordering;
        let shared = std::sync::Arc::new(FlushState::default());
        let mut wal = db.as_os_str().to_owned();
        wal.push("-wal");
        let wal = PathBuf::from(wal);
        let state = shared.clone();
        let started = std::thread::Builder::new()
            .name("signet-sqlite-flush".into())
            .spawn(move || {
                let mut warned = false;
                while !state.stop.load(Ordering::Acquire) {
                    std::thread::park_timeout(Duration::from_secs(1));
                    if !state.pending.swap(false, Ordering::AcqRel) {
                        continue;
                    }
                    // Opened each time: SQLite may remove the log and make a new one, and a
                    // kept descriptor would sync the old file. A log that is not there has
                    // nothing to sync.
                    let synced = std::fs::OpenOptions::new()
                        .write(true)
                        .open(&wal)
                        .and_then(|f| f.sync_data());
                    // A log that is not there (yet, or any more) has nothing to sync.
                    if let Err(e) = synced
                        && e.kind() != std::io::ErrorKind::NotFound
                        && !std::mem::replace(&mut warned, true)
                    {
                        tracing::warn!(error = %e, log = %wal.display(), "cannot sync the write-ahead log in the background; checkpoints still sync it");
                    }
                    std::thread::sleep(FLUSH_EVERY);
                }
            });
        match started {
            Ok(handle) => Flusher {
                shared,
                thread: Some(handle.thread().clone()),
            },
            Err(e) => {
                tracing::warn!(error = %e, "cannot start the log flusher; checkpoints sync the log themselves");
                Flusher {
                    shared,
                    thread: None,
                }
            }
        }
    }

    fn committed(&self) {
        if let Some(t) = &self.thread
            && !self
                .shared
                .pending
                .swap(true, std::sync::atomic::Ordering::AcqRel)
        {
            t.unpark();
        }
    }
}

/// The writer is gone: so is its flusher.
impl Drop for Flusher {
    fn drop(&mut self) {
        self.shared
            .stop
            .store(true, std::sync::atomic::Ordering::Release);
        if let Some(t) = &self.thread {
            t.unpark();
        }
    }
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

/// One write transaction on the writer connection (see `InlineSqlite::transaction`). Its
/// statements run on the writer thread, a few microseconds each, through `Sql`. Rows come
/// back typed as PostgreSQL would type them, from each column's declared type: `INTEGER` as `i32`,
/// `BIGINT` as `i64`, `BOOLEAN` as `bool`, `DOUBLE PRECISION` as `f64`, `TEXT` as `String`,
/// so the same `try_get` calls work on both backends; expressions without a declared type
/// come back by their storage class (integers as `i64`).
pub struct InlineTx {
    conn: Mutex<Option<Connection>>,
}

impl std::fmt::Debug for InlineTx {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("InlineTx")
    }
}

impl InlineTx {
    fn with<T>(&self, f: impl FnOnce(&Connection) -> Result<T, DbErr>) -> Result<T, DbErr> {
        let guard = self.conn.lock().unwrap_or_else(|p| p.into_inner());
        match guard.as_ref() {
            Some(conn) => f(conn),
            None => Err(DbErr::Custom("the SQLite transaction is over".into())),
        }
    }

    fn prepared<'c>(
        conn: &'c Connection,
        stmt: &Statement,
    ) -> Result<rusqlite::CachedStatement<'c>, DbErr> {
        let mut prepared = conn.prepare_cached(&stmt.sql).map_err(db_err)?;
        let values = stmt.values.as_ref().map(|v| v.0.as_slice()).unwrap_or(&[]);
        for i in 1..=prepared.parameter_count() {
            // `$n` binds the n-th value wherever it stands; anything else binds in order.
            let n = prepared
                .parameter_name(i)
                .and_then(|name| name.strip_prefix('$').or_else(|| name.strip_prefix('?')))
                .and_then(|n| n.parse::<usize>().ok())
                .unwrap_or(i);
            let v = values.get(n - 1).ok_or_else(|| {
                DbErr::Custom(format!(
                    "statement has no value for parameter {n}: {}",
                    stmt.sql
                ))
            })?;
            prepared.raw_bind_parameter(i, to_sql(v)?).map_err(db_err)?;
        }
        Ok(prepared)
    }
}

#[async_trait::async_trait]
impl Sql for InlineTx {
    fn backend(&self) -> DbBackend {
        DbBackend::Sqlite
    }

    async fn exec(&self, stmt: Statement) -> Result<u64, DbErr> {
        self.with(|conn| {
            let mut prepared = Self::prepared(conn, &stmt)?;
            Ok(prepared.raw_execute().map_err(db_err)? as u64)
        })
    }

    async fn rows(&self, stmt: Statement) -> Result<Vec<Row>, DbErr> {
        self.with(|conn| {
            let mut prepared = Self::prepared(conn, &stmt)?;
            let columns: Vec<(String, Option<String>)> = prepared
                .columns()
                .iter()
                .map(|c| {
                    (
                        c.name().to_string(),
                        c.decl_type().map(str::to_ascii_uppercase),
                    )
                })
                .collect();
            let mut rows = prepared.raw_query();
            let mut out = Vec::new();
            while let Some(row) = rows.next().map_err(db_err)? {
                let mut values = std::collections::BTreeMap::new();
                for (i, (name, decl)) in columns.iter().enumerate() {
                    let v = row.get_ref(i).map_err(db_err)?;
                    values.insert(name.clone(), from_sql(v, decl.as_deref())?);
                }
                out.push(Row::Values(values));
            }
            Ok(out)
        })
    }
}

fn db_err(e: rusqlite::Error) -> DbErr {
    DbErr::Custom(format!("sqlite: {e}"))
}

/// A value as SQLite binds it; text and bytes are lent, not copied (a document's words run
/// to kilobytes).
fn to_sql(v: &Value) -> Result<rusqlite::types::ToSqlOutput<'_>, DbErr> {
    use rusqlite::types::{ToSqlOutput as O, Value as S, ValueRef as R};
    let int = |i: Option<i64>| O::Owned(i.map(S::Integer).unwrap_or(S::Null));
    Ok(match v {
        Value::Bool(b) => int(b.map(i64::from)),
        Value::TinyInt(i) => int(i.map(i64::from)),
        Value::SmallInt(i) => int(i.map(i64::from)),
        Value::Int(i) => int(i.map(i64::from)),
        Value::BigInt(i) => int(*i),
        Value::TinyUnsigned(i) => int(i.map(i64::from)),
        Value::SmallUnsigned(i) => int(i.map(i64::from)),
        Value::Unsigned(i) => int(i.map(i64::from)),
        Value::BigUnsigned(i) => match i {
            Some(i) => {
                O::Owned(S::Integer(i64::try_from(*i).map_err(|_| {
                    DbErr::Custom(format!("{i} does not fit SQLite's integer"))
                })?))
            }
            None => O::Owned(S::Null),
        },
        Value::Float(f) => O::Owned(f.map(|f| S::Real(f64::from(f))).unwrap_or(S::Null)),
        Value::Double(f) => O::Owned(f.map(S::Real).unwrap_or(S::Null)),
        Value::String(Some(s)) => O::Borrowed(R::Text(s.as_bytes())),
        Value::Char(c) => O::Owned(c.map(|c| S::Text(c.to_string())).unwrap_or(S::Null)),
        Value::Bytes(Some(b)) => O::Borrowed(R::Blob(b)),
        Value::String(None) | Value::Bytes(None) => O::Owned(S::Null),
        other => return Err(DbErr::Custom(format!("no SQLite binding for {other:?}"))),
    })
}

fn from_sql(v: rusqlite::types::ValueRef<'_>, decl: Option<&str>) -> Result<Value, DbErr> {
    use rusqlite::types::ValueRef as R;
    let decl = decl.unwrap_or("");
    let narrow = |i: i64| {
        i32::try_from(i).map_err(|_| DbErr::Custom(format!("{i} does not fit an INTEGER column")))
    };
    Ok(match (v, decl) {
        (R::Null, "INTEGER") => Value::Int(None),
        (R::Null, "BIGINT") => Value::BigInt(None),
        (R::Null, "BOOLEAN") => Value::Bool(None),
        (R::Null, "DOUBLE PRECISION" | "REAL") => Value::Double(None),
        (R::Null, "BLOB" | "BYTEA") => Value::Bytes(None),
        (R::Null, _) => Value::String(None),
        (R::Integer(i), "INTEGER") => Value::Int(Some(narrow(i)?)),
        (R::Integer(i), "BOOLEAN") => Value::Bool(Some(i != 0)),
        (R::Integer(i), "DOUBLE PRECISION" | "REAL") => Value::Double(Some(i as f64)),
        (R::Integer(i), _) => Value::BigInt(Some(i)),
        (R::Real(f), _) => Value::Double(Some(f)),
        (R::Text(t), _) => Value::String(Some(String::from_utf8_lossy(t).into_owned())),
        (R::Blob(b), _) => Value::Bytes(Some(b.to_vec())),
    })
}
