//! The runner of a pool kind (webhook delivery): items leased in batches as slots free up,
//! run concurrently, and recorded as they end, in batches, by a writer task of their own.
//!
//! Deliveries in flight are counted by narrow key (an endpoint) and wide key (its workspace):
//! a workspace may hold a quarter of the slots and a narrow key `P::PER_NARROW`, so one whose
//! receivers answer slowly (or never) waits on its own items and cannot hold everyone's slots.
//! Narrow keys at their share are left out of the next lease, so others' due items are taken
//! instead; an item leased past its share is put back, due again shortly.
//!
//! Told to stop, the runner leases nothing more, lets the items in flight end and records
//! them, then returns; what it holds (leased, not yet recorded) is given back by
//! [`crate::Workers::stop`] when it is cut short.

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use signet_core::Ctx;
use signet_core::jobs::Pool;
use tokio::sync::watch;

/// With Redis, how long a runner woken from idle waits for more work before it looks: the
/// commits of every process wake it, and without the wait each event would be fanned out in
/// a transaction of its own.
const GATHER: Duration = Duration::from_millis(50);

/// A pool's settings.
#[derive(Clone, Copy, Debug)]
pub struct PoolConfig {
    /// How long a leased item is reserved; past it, another worker may run it again. Must
    /// exceed the longest an item runs (a webhook receiver's 15 seconds).
    pub lease: Duration,
    /// Items in flight at once.
    pub concurrency: usize,
}

impl Default for PoolConfig {
    fn default() -> Self {
        PoolConfig {
            lease: Duration::from_secs(60),
            concurrency: 512,
        }
    }
}

/// What a pool runner has leased and not yet recorded, with when each lease runs out: what is
/// given back if it is stopped before they end.
pub type Leases = Arc<Mutex<BTreeMap<String, i64>>>;

/// Items in flight, by narrow and wide key.
#[derive(Default)]
struct InFlight {
    narrow: HashMap<String, usize>,
    wide: HashMap<String, usize>,
    /// The wide key of each narrow key seen, to leave out all of a full wide key's.
    owner: HashMap<String, String>,
}

impl InFlight {
    fn full(&self, narrow: &str, wide: &str, per_narrow: usize, per_wide: usize) -> bool {
        self.narrow.get(narrow).copied().unwrap_or(0) >= per_narrow
            || self.wide.get(wide).copied().unwrap_or(0) >= per_wide
    }

    fn take(&mut self, narrow: &str, wide: &str) {
        *self.narrow.entry(narrow.to_string()).or_default() += 1;
        *self.wide.entry(wide.to_string()).or_default() += 1;
        if self.owner.len() > 100_000 {
            self.owner.clear();
        }
        self.owner.insert(narrow.to_string(), wide.to_string());
    }

    fn give_back(&mut self, narrow: &str, wide: &str) {
        for (map, k) in [(&mut self.narrow, narrow), (&mut self.wide, wide)] {
            if let Some(n) = map.get_mut(k) {
                *n -= 1;
                if *n == 0 {
                    map.remove(k);
                }
            }
        }
    }

    /// Narrow keys to leave out of the next lease.
    fn skip(&self, per_narrow: usize, per_wide: usize) -> Vec<String> {
        let mut out: Vec<String> = self
            .owner
            .iter()
            .filter(|(n, w)| self.full(n, w, per_narrow, per_wide))
            .map(|(n, _)| n.clone())
            .collect();
        out.truncate(900);
        out
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Runs every due item of `P` until none is (a failed item waits for its later try, as under
/// the runner): for tests and tools that run without workers. Answers how many items and
/// prepared units it took.
pub async fn drain<P: Pool>(ctx: &Ctx, cfg: PoolConfig) -> Result<usize, signet_core::DomainError> {
    use futures_util::StreamExt as _;
    let mut took = 0;
    loop {
        let prepared = P::prepare(ctx).await?;
        let leased = P::lease(ctx, P::BATCH, cfg.lease.as_millis() as i64, &[]).await?;
        took += prepared + leased.len();
        if prepared == 0 && leased.is_empty() {
            return Ok(took);
        }
        let done: Vec<P::Done> = futures_util::stream::iter(leased)
            .map(|l| P::run_one(ctx, l.item))
            .buffer_unordered(cfg.concurrency.max(1))
            .collect()
            .await;
        P::record(ctx, &done).await?;
    }
}

/// The pool runner: runs until `stop` says so (or the task is dropped).
pub async fn run<P: Pool>(
    ctx: Ctx,
    cfg: PoolConfig,
    mut stop: watch::Receiver<bool>,
    leases: Leases,
) {
    let (tx, mut writer) = recorder::<P>(&ctx, &leases);
    let slots = Arc::new(tokio::sync::Semaphore::new(cfg.concurrency));
    // Slots are refilled in batches of this many, so a busy queue is leased in few statements.
    let refill = (cfg.concurrency / 4).clamp(1, P::BATCH);
    let returned = Arc::new(tokio::sync::Notify::new());
    let lease_ms = cfg.lease.as_millis() as i64;
    let per_wide = (cfg.concurrency / 4).max(P::PER_NARROW);
    let in_flight = Arc::new(Mutex::new(InFlight::default()));
    let woken = ctx.queue.woken(P::WAKE);
    // The items in flight: dropped with this task, they end with it.
    let mut running = tokio::task::JoinSet::new();
    // Stopped: told so, or the sender is gone.
    let stopped = |stop: &watch::Receiver<bool>| *stop.borrow() || stop.has_changed().is_err();
    let mut swept: Option<tokio::time::Instant> = None;
    while !stopped(&stop) {
        while running.try_join_next().is_some() {}
        if ctx.queue.on_redis() && swept.is_none_or(|at| at.elapsed() >= signet_queue::SWEEP) {
            swept = Some(tokio::time::Instant::now());
            if let Err(e) = P::sweep(&ctx).await {
                tracing::warn!(pool = P::NAME, error = %e, "filing work in Redis again failed");
            }
        }
        let prepared = match P::prepare(&ctx).await {
            Ok(n) => n,
            Err(e) => {
                tracing::warn!(pool = P::NAME, error = %e, "preparing work failed");
                0
            }
        };
        let free = slots.available_permits().min(P::BATCH);
        let skip = lock(&in_flight).skip(P::PER_NARROW, per_wide);
        let leased = if free > 0 && !stopped(&stop) {
            match P::lease(&ctx, free, lease_ms, &skip).await {
                Ok(l) => l,
                Err(e) => {
                    tracing::warn!(pool = P::NAME, error = %e, "leasing failed");
                    Vec::new()
                }
            }
        } else {
            Vec::new()
        };
        let took = leased.len();
        let mut deferred = Vec::new();
        for l in leased {
            {
                let mut f = lock(&in_flight);
                if f.full(&l.narrow, &l.wide, P::PER_NARROW, per_wide) {
                    deferred.push(l.id);
                    continue;
                }
                f.take(&l.narrow, &l.wide);
            }
            let Ok(permit) = slots.clone().acquire_owned().await else {
                return;
            };
            let (c, tx, returned, in_flight) =
                (ctx.clone(), tx.clone(), returned.clone(), in_flight.clone());
            lock(&leases).insert(l.id.clone(), l.until);
            running.spawn(async move {
                let done = P::run_one(&c, l.item).await;
                lock(&in_flight).give_back(&l.narrow, &l.wide);
                let _ = tx.send(done);
                drop(permit);
                returned.notify_one();
            });
        }
        if let Err(e) = P::put_back(&ctx, &deferred).await {
            // Their leases run out and they are taken again: nothing is lost.
            tracing::warn!(pool = P::NAME, error = %e, "putting back items failed");
        }
        let wait = if took == free {
            Wait::Busy
        } else if took == 0 && !skip.is_empty() && prepared == 0 {
            Wait::AtShare
        } else if prepared < P::BATCH {
            Wait::Drained
        } else {
            continue;
        };
        let signals = Signals {
            slots: &slots,
            refill,
            returned: &returned,
            woken: &woken,
            redis: ctx.queue.on_redis(),
        };
        wait.until_next(&signals, &mut stop).await;
    }
    // Stopping: the items in flight end and are recorded.
    while running.join_next().await.is_some() {}
    drop(tx);
    let _ = (&mut writer.0).await;
}

/// The task that records finished items in batches, and the sender that hands them to it.
fn recorder<P: Pool>(
    ctx: &Ctx,
    leases: &Leases,
) -> (tokio::sync::mpsc::UnboundedSender<P::Done>, AbortOnDrop) {
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<P::Done>();
    let (ctx, recorded) = (ctx.clone(), leases.clone());
    let writer = tokio::spawn(async move {
        let mut buf = Vec::with_capacity(1000);
        while rx.recv_many(&mut buf, 1000).await > 0 {
            if let Err(e) = P::record(&ctx, &buf).await {
                // The leases run out and the items are run again: nothing is lost.
                tracing::warn!(pool = P::NAME, error = %e, n = buf.len(), "recording finished items failed");
            }
            let mut held = lock(&recorded);
            for d in &buf {
                held.remove(P::id_of(d));
            }
            drop(held);
            buf.clear();
        }
    });
    (tx, AbortOnDrop(writer))
}

/// Why a pass of the pool's loop waits before it leases again.
enum Wait {
    /// Every free slot was filled.
    Busy,
    /// What is due belongs to keys at their share.
    AtShare,
    /// The queue is drained.
    Drained,
}

/// What a waiting pool listens to.
struct Signals<'a> {
    slots: &'a tokio::sync::Semaphore,
    refill: usize,
    returned: &'a tokio::sync::Notify,
    woken: &'a tokio::sync::Notify,
    redis: bool,
}

impl Wait {
    async fn until_next(self, s: &Signals<'_>, stop: &mut watch::Receiver<bool>) {
        match self {
            Wait::Busy => {
                // Wait (briefly) for a batch of slots to come back, then lease again.
                let until = tokio::time::Instant::now() + Duration::from_millis(20);
                while s.slots.available_permits() < s.refill {
                    if tokio::time::timeout_at(until, s.returned.notified())
                        .await
                        .is_err()
                    {
                        break;
                    }
                }
            }
            Wait::AtShare => {
                // Look again when one of their items ends, when new work is queued (at most
                // ten times a second: each look reads past all of their queue), or in half a
                // second.
                tokio::select! {
                    _ = stop.changed() => {}
                    _ = s.returned.notified() => {}
                    _ = s.woken.notified() => {
                        tokio::time::sleep(Duration::from_millis(100)).await;
                    }
                    _ = tokio::time::sleep(Duration::from_millis(500)) => {}
                }
            }
            Wait::Drained => {
                // Wait for new work, or look again shortly (retries come due, other processes
                // prepare work).
                tokio::select! {
                    _ = stop.changed() => {}
                    woke = tokio::time::timeout(Duration::from_millis(100), s.woken.notified()) => {
                        // With Redis every process's commits wake this runner: what else they
                        // queue in the next moments is taken with it, in one transaction.
                        if woke.is_ok() && s.redis {
                            tokio::time::sleep(GATHER).await;
                        }
                    }
                }
            }
        }
    }
}

struct AbortOnDrop(tokio::task::JoinHandle<()>);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        self.0.abort();
    }
}
