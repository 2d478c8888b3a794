//! The queue as a process holds it: the database the jobs live in, one wake-up per kind for
//! this process's workers, and in the scale-out set the Redis side that carries dispatch.
//!
//! **Embedded default (SQL alone).** A commit that queued jobs wakes this process's workers of
//! those kinds; otherwise each worker looks at the outbox at its kind's poll interval (retries
//! coming due, leases running out).
//!
//! **Scale-out set (Redis).** The rows stay the truth: every job is still written in the
//! state change's own transaction. Redis holds, per kind, a sorted set of job ids scored by
//! when each is due (`{prefix}queue:{kind}`), and a channel (`{prefix}queue:wake`) on which a
//! commit names the kinds it queued, so the worker that takes them wakes in whichever process
//! it runs. A worker asks Redis what is due and reads only those rows, so idle workers send
//! PostgreSQL nothing. Redis is told after the commit ([`Queue::dispatch`]), when a claim
//! takes a job (due again at its lease's end, in case its worker dies) and when a pass ends
//! (each job filed again at its row's `run_at`, or removed once it ended). An entry that was
//! lost (Redis restarted, a process died between its commit and telling Redis) is found again
//! from its row by the sweep each worker runs every [`SWEEP`].

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use redis::aio::ConnectionManager;
use sea_orm::Value;
use signet_storage::state::PubSub;
use signet_storage::{Db, StorageError};
use tokio::sync::Notify;

use crate::job::{Enqueued, HELD};

/// The channel on which a commit names the kinds it queued.
const WAKE_CHANNEL: &str = "queue:wake";

/// How often a worker, with Redis, files its kind's due rows in Redis again (lost entries).
pub const SWEEP: Duration = Duration::from_secs(30);
/// Rows one sweep files at most, oldest first.
const SWEEP_ROWS: i64 = 2_000;

/// This process's handle on the queue.
#[derive(Clone)]
pub struct Queue {
    pub db: Db,
    wakes: Arc<Wakes>,
    redis: Option<Arc<Dispatch>>,
}

/// One wake-up per kind, made on first use.
#[derive(Default)]
struct Wakes(Mutex<HashMap<Cow<'static, str>, Arc<Notify>>>);

impl Wakes {
    fn of(&self, kind: &str) -> Arc<Notify> {
        let mut map = self.0.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(n) = map.get(kind) {
            return n.clone();
        }
        let n = Arc::new(Notify::new());
        map.insert(Cow::Owned(kind.to_string()), n.clone());
        n
    }
}

/// The Redis side of the queue.
pub(crate) struct Dispatch {
    conn: ConnectionManager,
    prefix: String,
}

impl Dispatch {
    pub(crate) fn key(&self, kind: &str) -> String {
        format!("{}queue:{kind}", self.prefix)
    }

    fn channel(&self) -> String {
        format!("{}{WAKE_CHANNEL}", self.prefix)
    }

    pub(crate) fn conn(&self) -> ConnectionManager {
        self.conn.clone()
    }
}

impl Queue {
    /// The embedded default's queue: SQL alone.
    pub fn new(db: Db) -> Queue {
        Queue {
            db,
            wakes: Arc::default(),
            redis: None,
        }
    }

    /// The scale-out set's queue: dispatch through Redis at `url`, its keys under `prefix`.
    /// Starts the subscriber that wakes this process's workers when another process queues.
    pub async fn with_redis(db: Db, url: &str, prefix: &str) -> Result<Queue, StorageError> {
        let client = redis::Client::open(url)?;
        let conn = ConnectionManager::new(client).await?;
        let q = Queue {
            db,
            wakes: Arc::default(),
            redis: Some(Arc::new(Dispatch {
                conn,
                prefix: prefix.to_string(),
            })),
        };
        // Whatever was published while the subscriber was down is found by the runners' next
        // look (their timer, their sweep).
        let wakes = q.wakes.clone();
        PubSub::channel(url, prefix, WAKE_CHANNEL)
            .await?
            .each(move |kind| wakes.of(&kind).notify_one());
        Ok(q)
    }

    pub(crate) fn dispatch_side(&self) -> Option<&Dispatch> {
        self.redis.as_deref()
    }

    /// Whether Redis carries dispatch.
    pub fn on_redis(&self) -> bool {
        self.redis.is_some()
    }

    /// The wake-up of `kind`'s worker in this process.
    pub fn woken(&self, kind: &str) -> Arc<Notify> {
        self.wakes.of(kind)
    }

    /// Wakes this process's worker of `kind` (only this process's).
    pub fn wake(&self, kind: &str) {
        self.wakes.of(kind).notify_one();
    }

    /// After the commit of a transaction that queued `jobs`: the workers of their kinds look
    /// at once, here and (with Redis) in every process, and Redis files each job at when it is
    /// due. A failure to reach Redis is logged: the jobs are found by the sweep.
    pub async fn dispatch(&self, jobs: Enqueued) {
        if jobs.is_empty() {
            return;
        }
        let mut kinds: Vec<&str> = jobs.jobs.iter().map(|j| j.kind.as_ref()).collect();
        kinds.sort_unstable();
        kinds.dedup();
        for k in &kinds {
            self.wake(k);
        }
        let Some(d) = self.dispatch_side() else {
            return;
        };
        let mut pipe = redis::pipe();
        for j in jobs.jobs.iter().filter(|j| j.run_at != HELD) {
            pipe.zadd(d.key(&j.kind), &j.id, j.run_at).ignore();
        }
        for k in &kinds {
            pipe.publish(d.channel(), *k).ignore();
        }
        if let Err(e) = send(pipe, d).await {
            tracing::warn!(error = %e, "telling Redis of queued jobs failed; the sweep finds them");
        }
    }

    /// With Redis, when `kind`'s next job is due (ms), if any is filed. Nothing without Redis.
    pub async fn next_due(&self, kind: &str) -> Result<Option<i64>, StorageError> {
        let Some(d) = self.dispatch_side() else {
            return Ok(None);
        };
        let first: Vec<(String, f64)> = redis::cmd("ZRANGE")
            .arg(d.key(kind))
            .arg(0)
            .arg(0)
            .arg("WITHSCORES")
            .query_async(&mut d.conn())
            .await?;
        Ok(first.first().map(|(_, at)| *at as i64))
    }

    /// With Redis, up to `n` ids of `set` due by `now` (ms), oldest first. `None` without
    /// Redis: the caller asks its table. A set is a kind's jobs, or another table's due work
    /// a resource files itself (webhook messages).
    pub async fn due(
        &self,
        set: &str,
        now: i64,
        n: usize,
    ) -> Option<Result<Vec<String>, StorageError>> {
        use redis::AsyncCommands;
        let d = self.dispatch_side()?;
        Some(
            d.conn()
                .zrangebyscore_limit(d.key(set), "-inf", now, 0, n as isize)
                .await
                .map_err(Into::into),
        )
    }

    /// With Redis, files each id of `set` at when it is due (ms). A failure is logged: the
    /// owner's sweep files it again. Nothing without Redis.
    pub async fn file(&self, set: &str, entries: impl IntoIterator<Item = (String, i64)>) {
        let Some(d) = self.dispatch_side() else {
            return;
        };
        let mut pipe = redis::pipe();
        for (id, at) in entries {
            if at != HELD {
                pipe.zadd(d.key(set), id, at).ignore();
            }
        }
        if let Err(e) = send(pipe, d).await {
            tracing::warn!(set, error = %e, "filing work in Redis failed; the sweep files it");
        }
    }

    /// With Redis, removes ids from `set` (their work ended). A failure is logged: a claim
    /// that finds the row ended removes it. Nothing without Redis.
    pub async fn forget(&self, set: &str, ids: impl IntoIterator<Item = String>) {
        let Some(d) = self.dispatch_side() else {
            return;
        };
        let ids: Vec<String> = ids.into_iter().collect();
        if ids.is_empty() {
            return;
        }
        let mut pipe = redis::pipe();
        for chunk in ids.chunks(500) {
            pipe.zrem(d.key(set), chunk).ignore();
        }
        if let Err(e) = send(pipe, d).await {
            tracing::warn!(set, error = %e, "removing ended work from Redis failed");
        }
    }

    /// Files `kind`'s due and coming rows in Redis again (at their `run_at`), so an entry Redis
    /// lost is found. Nothing without Redis. Answers how many rows it filed.
    pub async fn sweep(&self, kind: &str) -> Result<usize, StorageError> {
        let Some(d) = self.dispatch_side() else {
            return Ok(0);
        };
        use sea_orm::ConnectionTrait;
        let rows: Vec<(String, i64)> = self
            .db
            .conn
            .query_all_raw(self.db.stmt(
                "SELECT id, run_at FROM outbox WHERE state IN ('queued', 'running') AND kind = $1 AND run_at < $2 \
                 ORDER BY run_at LIMIT $3",
                [Value::from(kind.to_string()), Value::from(HELD), Value::from(SWEEP_ROWS)],
            ))
            .await?
            .iter()
            .map(|r| Ok((r.try_get("", "id")?, r.try_get("", "run_at")?)))
            .collect::<Result<_, sea_orm::DbErr>>()?;
        if rows.is_empty() {
            return Ok(0);
        }
        let mut pipe = redis::pipe();
        for (id, run_at) in &rows {
            pipe.zadd(d.key(kind), id, *run_at).ignore();
        }
        send(pipe, d).await?;
        Ok(rows.len())
    }
}

/// Sends a pipeline of commands, if it holds any (Redis refuses an empty one).
pub(crate) async fn send(pipe: redis::Pipeline, d: &Dispatch) -> Result<(), StorageError> {
    if pipe.cmd_iter().next().is_none() {
        return Ok(());
    }
    pipe.query_async::<()>(&mut d.conn()).await?;
    Ok(())
}
