//! What keeps the writer's log short and its commits on disk: the checkpoints it runs after
//! answering, and the flusher that syncs commits in the background.

use std::path::PathBuf;
use std::time::Duration;

use rusqlite::Connection;

thread_local! {
    /// Frames in the write-ahead log after the writer's last commit (see `note_frames`).
    pub(super) static WAL_FRAMES: std::cell::Cell<i32> = const { std::cell::Cell::new(0) };
}

/// The writer connection's WAL hook: SQLite calls it after each commit with the log's length.
pub(super) fn note_frames(
    _: &rusqlite::hooks::Wal,
    frames: std::ffi::c_int,
) -> rusqlite::Result<()> {
    WAL_FRAMES.set(frames);
    Ok(())
}

/// A checkpoint is due once the log holds this many frames (SQLite's own default)...
pub(super) const CHECKPOINT_FRAMES: i32 = 1000;
/// ...and, while bodies are waiting, no sooner than this after the last one; when nobody is
/// waiting, no sooner than `IDLE_GAP`.
pub(super) const BUSY_GAP: Duration = Duration::from_millis(100);
pub(super) const IDLE_GAP: Duration = Duration::from_millis(10);
/// Past this many frames (about 40 MB) a checkpoint runs after every commit, as SQLite's does.
pub(super) const CHECKPOINT_HARD: i32 = 10_000;

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
pub(super) struct Checkpoints {
    last: std::time::Instant,
    /// A checkpoint was due but put off for its gap.
    deferred: bool,
    flusher: Option<Flusher>,
}

impl Checkpoints {
    pub(super) fn new() -> Checkpoints {
        Checkpoints {
            last: std::time::Instant::now(),
            deferred: false,
            flusher: None,
        }
    }

    /// The writer's connection is open: its log is the one to flush. SQLite names the log
    /// after the database's full path as it resolved it, which the connection reports.
    pub(super) fn opened(&mut self, conn: &Connection) {
        if self.flusher.is_none()
            && let Some(db) = conn.path().filter(|p| !p.is_empty())
        {
            self.flusher = Some(Flusher::start(std::path::Path::new(db)));
        }
    }

    pub(super) fn committed(&self) {
        if let Some(f) = &self.flusher {
            f.committed();
        }
    }

    /// How long until a put-off checkpoint is due.
    pub(super) fn deferred_for(&self) -> Option<Duration> {
        self.deferred
            .then(|| IDLE_GAP.saturating_sub(self.last.elapsed()))
    }

    /// No write came while a put-off checkpoint waited out its gap: it runs now.
    pub(super) fn quiet(&mut self, conn: Option<&Connection>) {
        if let Some(c) = conn {
            self.after_commit(c, true);
        }
        self.deferred = false;
    }

    pub(super) fn after_commit(&mut self, conn: &Connection, idle: bool) {
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
pub(super) struct Flusher {
    shared: std::sync::Arc<FlushState>,
    thread: Option<std::thread::Thread>,
}

#[derive(Default)]
pub(super) struct FlushState {
    pending: std::sync::atomic::AtomicBool,
    stop: std::sync::atomic::AtomicBool,
}

/// How often the flusher syncs the log at most.
pub(super) const FLUSH_EVERY: Duration = Duration::from_millis(5);

impl Flusher {
    pub(super) fn start(db: &std::path::Path) -> Flusher {
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

    pub(super) fn committed(&self) {
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
