#![doc = include_str!("../README.md")]

pub mod pool;
mod runner;
mod scheduler;
mod settings;

use std::sync::Arc;

use futures_util::future::BoxFuture;
use signet_core::jobs::{Handler, Job, Pool};
use signet_core::{Ctx, DomainError};
use tokio::sync::watch;
use tokio::task::JoinHandle;

pub use pool::{Leases, PoolConfig, drain};
pub use runner::{Held, pass, run};
pub use settings::Settings;

/// The kinds of background work a process runs, in the order they are listed: built once by
/// the binary's registration list (`signet::jobs`), whose one line per kind is all a new
/// kind adds there.
#[derive(Clone, Default)]
pub struct Jobs {
    kinds: Vec<Arc<dyn Kind>>,
}

impl Jobs {
    pub fn new() -> Jobs {
        Jobs::default()
    }

    /// A kind taken in passes.
    pub fn each<H: Handler>(mut self) -> Jobs {
        self.kinds
            .push(Arc::new(PassKind::<H>(std::marker::PhantomData)));
        self
    }

    /// A kind run as a pool.
    pub fn pool<P: Pool>(mut self) -> Jobs {
        self.kinds
            .push(Arc::new(PoolKind::<P>(std::marker::PhantomData)));
        self
    }

    /// The kinds' names, in order.
    pub fn names(&self) -> Vec<&'static str> {
        self.kinds.iter().map(|k| k.name()).collect()
    }
}

/// A registered kind, whatever its shape.
trait Kind: Send + Sync {
    fn name(&self) -> &'static str;
    fn start(&self, ctx: &Ctx, settings: &Settings, stop: &watch::Receiver<bool>) -> Running;
    /// Everything of the kind that is due, once over (`run_pending`).
    fn drain<'a>(&'a self, ctx: &'a Ctx) -> BoxFuture<'a, Result<usize, DomainError>>;
}

struct PassKind<H>(std::marker::PhantomData<fn() -> H>);
struct PoolKind<P>(std::marker::PhantomData<fn() -> P>);

impl<H: Handler> Kind for PassKind<H> {
    fn name(&self) -> &'static str {
        <H::Job as Job>::KIND
    }

    fn start(&self, ctx: &Ctx, _: &Settings, stop: &watch::Receiver<bool>) -> Running {
        let held = Held::default();
        let task = tokio::spawn(runner::run::<H>(ctx.clone(), stop.clone(), held.clone()));
        Running {
            name: self.name(),
            task,
            give_back: Box::new(move |ctx| {
                Box::pin(async move {
                    let left: Vec<_> =
                        std::mem::take(&mut *held.lock().unwrap_or_else(|p| p.into_inner()));
                    if left.is_empty() {
                        return Ok(0);
                    }
                    Ok(signet_queue::give_back(&ctx.db, &left).await? as u64)
                })
            }),
        }
    }

    fn drain<'a>(&'a self, ctx: &'a Ctx) -> BoxFuture<'a, Result<usize, DomainError>> {
        Box::pin(pass::<H>(ctx))
    }
}

impl<P: Pool> Kind for PoolKind<P> {
    fn name(&self) -> &'static str {
        P::NAME
    }

    fn start(&self, ctx: &Ctx, settings: &Settings, stop: &watch::Receiver<bool>) -> Running {
        let leases = Leases::default();
        let task = tokio::spawn(pool::run::<P>(
            ctx.clone(),
            settings.delivery,
            stop.clone(),
            leases.clone(),
        ));
        Running {
            name: self.name(),
            task,
            give_back: Box::new(move |ctx| {
                Box::pin(async move {
                    let held =
                        std::mem::take(&mut *leases.lock().unwrap_or_else(|p| p.into_inner()));
                    if held.is_empty() {
                        return Ok(0);
                    }
                    P::give_back(&ctx, held).await
                })
            }),
        }
    }

    fn drain<'a>(&'a self, ctx: &'a Ctx) -> BoxFuture<'a, Result<usize, DomainError>> {
        Box::pin(pool::drain::<P>(ctx, PoolConfig::default()))
    }
}

type GiveBack = Box<dyn FnOnce(Ctx) -> BoxFuture<'static, Result<u64, DomainError>> + Send + Sync>;

/// A kind's runner, with how to give back what it holds if it is cut short.
struct Running {
    name: &'static str,
    task: JoinHandle<()>,
    give_back: GiveBack,
}

/// A process's background work, running.
pub struct Workers {
    /// The kinds' runners: told to stop, each finishes what it has under way.
    runners: Vec<Running>,
    /// The scheduler: stopped at once.
    others: Vec<JoinHandle<()>>,
    stop: watch::Sender<bool>,
}

/// Starts a process's background work: the scheduler, and with `settings.jobs` a runner for
/// each kind of `jobs`.
pub fn spawn(ctx: &Ctx, settings: Settings, jobs: &Jobs) -> Workers {
    let (stop, watching) = watch::channel(false);
    let others = scheduler::spawn(ctx, &settings);
    let runners = if settings.jobs {
        jobs.kinds
            .iter()
            .map(|k| k.start(ctx, &settings, &watching))
            .collect()
    } else {
        Vec::new()
    };
    Workers {
        runners,
        others,
        stop,
    }
}

impl Workers {
    /// Says stop: no runner takes more work. Returns at once.
    pub fn stopping(&self) {
        let _ = self.stop.send(true);
    }

    /// Stops the background work: the scheduler at once, each runner once what it has under
    /// way ends, or at `deadline`, when what it still holds is given back to the queue (so
    /// another worker takes it at once, not when the lease runs out).
    pub async fn stop(self, ctx: &Ctx, deadline: tokio::time::Instant) {
        let _ = self.stop.send(true);
        for t in self.others {
            t.abort();
            let _ = t.await;
        }
        for Running {
            name,
            mut task,
            give_back,
        } in self.runners
        {
            if tokio::time::timeout_at(deadline, &mut task).await.is_err() {
                task.abort();
                let _ = task.await;
            }
            match give_back(ctx.clone()).await {
                Ok(0) => {}
                Ok(n) => tracing::info!(
                    kind = name,
                    given_back = n,
                    "stopping: leases of work not finished given back"
                ),
                Err(e) => {
                    tracing::warn!(kind = name, error = %e, "stopping: giving back leases failed; they run out instead")
                }
            }
        }
    }
}

/// Runs every job of `jobs` that is due until none is, as the workers would; jobs waiting for
/// a later try stay waiting. Answers how many rounds ran work. For tests and tools that run
/// without workers.
pub async fn run_pending(ctx: &Ctx, jobs: &Jobs) -> Result<usize, DomainError> {
    let mut worked = 0;
    for _ in 0..1000 {
        let mut n = 0;
        for k in &jobs.kinds {
            n += k.drain(ctx).await?;
        }
        if n == 0 {
            break;
        }
        worked += 1;
    }
    Ok(worked)
}
