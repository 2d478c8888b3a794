#![doc = include_str!("../README.md")]

mod jobs;
mod runner;
mod scheduler;

use std::time::Duration;

use signet_resolvers::Ctx;
use signet_resolvers::webhooks::deliver::WorkerConfig;
use tokio::task::JoinHandle;

pub use jobs::{Email, Render, Seal};
pub use runner::{Job, pass, run};

/// What the background work of a process is told.
#[derive(Clone)]
pub struct Settings {
    /// Run the job workers (render, seal, email, webhook delivery); the scheduler always runs.
    pub jobs: bool,
    pub delivery: WorkerConfig,
    /// How often expiry and reminders are looked at.
    pub scheduler_every: Duration,
    /// Days the API log keeps a line.
    pub api_log_days: u64,
}

/// Starts a process's background work. Dropping the handles does not stop them: abort each
/// (`src/lib.rs` does, then waits for it).
pub fn spawn(ctx: &Ctx, settings: Settings) -> Vec<JoinHandle<()>> {
    let mut tasks = scheduler::spawn(ctx, &settings);
    if settings.jobs {
        tasks.push(tokio::spawn(runner::run::<jobs::Render>(ctx.clone())));
        tasks.push(tokio::spawn(runner::run::<jobs::Seal>(ctx.clone())));
        tasks.push(tokio::spawn(runner::run::<jobs::Email>(ctx.clone())));
        tasks.push(tokio::spawn(jobs::deliver(ctx.clone(), settings.delivery)));
    }
    tasks
}

/// Runs every job that is due (renders, seals, emails, webhook deliveries) until none is, as the
/// workers would; jobs waiting for a later try stay waiting. Answers how many passes ran
/// work. For tests and tools that run without workers.
pub async fn run_pending(ctx: &Ctx) -> Result<usize, signet_resolvers::DomainError> {
    let mut worked = 0;
    for _ in 0..1000 {
        let n = pass::<Render>(ctx).await?
            + pass::<Seal>(ctx).await?
            + pass::<Email>(ctx).await?
            + signet_resolvers::webhooks::deliver::pass(ctx, WorkerConfig::default()).await?;
        if n == 0 {
            break;
        }
        worked += 1;
    }
    Ok(worked)
}
