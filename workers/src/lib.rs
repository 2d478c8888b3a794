#![doc = include_str!("../README.md")]

mod jobs;
mod runner;
mod scheduler;
mod settings;

use signet_webhooks::deliver::WorkerConfig;

use signet_core::Ctx;
use tokio::sync::watch;
use tokio::task::JoinHandle;

pub use jobs::{Email, Render, Seal};
pub use runner::{Held, Job, pass, run};
pub use settings::Settings;

/// A process's background work, running.
pub struct Workers {
    /// The job runners: told to stop, they finish the pass under way.
    runners: Vec<(JoinHandle<()>, runner::Held)>,
    /// The webhook deliverer: told to stop, it lets the deliveries in flight end.
    deliverer: Option<(JoinHandle<()>, signet_webhooks::deliver::Leased)>,
    /// The scheduler and the like: stopped at once.
    others: Vec<JoinHandle<()>>,
    stop: watch::Sender<bool>,
}

/// Starts a process's background work.
pub fn spawn(ctx: &Ctx, settings: Settings) -> Workers {
    let (stop, watching) = watch::channel(false);
    let others = scheduler::spawn(ctx, &settings);
    let mut runners = Vec::new();
    let mut deliverer = None;
    if settings.jobs {
        runners.push(start::<jobs::Render>(ctx, &watching));
        runners.push(start::<jobs::Seal>(ctx, &watching));
        runners.push(start::<jobs::Email>(ctx, &watching));
        let leased = signet_webhooks::deliver::Leased::default();
        deliverer = Some((
            tokio::spawn(jobs::deliver(
                ctx.clone(),
                settings.delivery,
                watching.clone(),
                leased.clone(),
            )),
            leased,
        ));
    }
    Workers {
        runners,
        deliverer,
        others,
        stop,
    }
}

/// One job runner, with what it holds while a pass runs.
fn start<J: runner::Job>(
    ctx: &Ctx,
    stop: &watch::Receiver<bool>,
) -> (JoinHandle<()>, runner::Held) {
    let held = runner::Held::default();
    let task = tokio::spawn(runner::run::<J>(ctx.clone(), stop.clone(), held.clone()));
    (task, held)
}

impl Workers {
    /// Says stop: no runner claims another pass. Returns at once.
    pub fn stopping(&self) {
        let _ = self.stop.send(true);
    }

    /// Stops the background work: the scheduler at once, the job runners once the pass under
    /// way ends and the webhook deliverer once its deliveries in flight end, or at `deadline`,
    /// when what they still hold is given back to the queue (so another worker takes it at
    /// once, not when the lease runs out).
    pub async fn stop(self, ctx: &Ctx, deadline: tokio::time::Instant) {
        let _ = self.stop.send(true);
        for t in self.others {
            t.abort();
            let _ = t.await;
        }
        if let Some((mut task, leased)) = self.deliverer {
            if tokio::time::timeout_at(deadline, &mut task).await.is_err() {
                task.abort();
                let _ = task.await;
            }
            match signet_webhooks::deliver::give_back(ctx, &leased).await {
                Ok(0) => {}
                Ok(n) => tracing::info!(
                    given_back = n,
                    "stopping: leases of webhook deliveries not finished given back"
                ),
                Err(e) => {
                    tracing::warn!(error = %e, "stopping: giving back webhook leases failed; they run out instead")
                }
            }
        }
        for (mut task, held) in self.runners {
            if tokio::time::timeout_at(deadline, &mut task).await.is_err() {
                task.abort();
                let _ = task.await;
            }
            let left: Vec<_> = std::mem::take(&mut *held.lock().unwrap_or_else(|p| p.into_inner()));
            if !left.is_empty() {
                match signet_core::outbox::give_back(ctx, &left).await {
                    Ok(n) => tracing::info!(
                        given_back = n,
                        "stopping: leases of jobs not finished given back"
                    ),
                    Err(e) => {
                        tracing::warn!(error = %e, "stopping: giving back leases failed; they run out instead")
                    }
                }
            }
        }
    }
}

/// Runs every job that is due (renders, seals, emails, webhook deliveries) until none is, as the
/// workers would; jobs waiting for a later try stay waiting. Answers how many passes ran
/// work. For tests and tools that run without workers.
pub async fn run_pending(ctx: &Ctx) -> Result<usize, signet_core::DomainError> {
    let mut worked = 0;
    for _ in 0..1000 {
        let n = pass::<Render>(ctx).await?
            + pass::<Seal>(ctx).await?
            + pass::<Email>(ctx).await?
            + signet_webhooks::deliver::pass(ctx, WorkerConfig::default()).await?;
        if n == 0 {
            break;
        }
        worked += 1;
    }
    Ok(worked)
}
