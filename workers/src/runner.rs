//! One loop for every job kind of the outbox. A pass claims up to a batch of the kind's due
//! jobs under a lease (`outbox::claim`: oldest first, a fair share per workspace, a job that
//! failed every try marked failed) and hands them to the kind's `run`, which ends each one:
//! done, a later try after its back-off (`outbox::retry_later`), or given up. A job whose
//! process dies keeps its lease until it runs out, and the next pass takes it again.
//!
//! When a pass was full the next runs at once; else the loop waits for the kind's wake-up (a
//! commit in this process that queued such a job) or the poll interval (jobs other processes
//! queued, retries coming due, leases running out).

use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::watch;

use signet_core::jobs::JobKind;
use signet_core::outbox::{self, Claimed};
use signet_core::{Ctx, DomainError};

/// A kind of queued job, as the runner sees it. What running one means is the resolvers'.
#[async_trait::async_trait]
pub trait Job: Send + Sync + 'static {
    /// The outbox kind it takes.
    const KIND: JobKind;
    /// Jobs one pass claims; a pass that took this many is followed by another at once.
    const BATCH: i64;
    /// The longest the runner waits between passes without a wake-up.
    const POLL: Duration = Duration::from_secs(1);

    /// How long a claimed job is this worker's before another may take it.
    fn lease_ms(ctx: &Ctx) -> i64;

    /// Runs the claimed jobs and ends each one.
    async fn run(ctx: &Ctx, claimed: Vec<Claimed>) -> Result<(), DomainError>;

    /// Wakes the runner when a commit of this process queued a job of this kind.
    fn wake(ctx: &Ctx) -> &tokio::sync::Notify;

    /// Waits, if the kind must, before a pass (email waits for a lull in requests).
    async fn before(_ctx: &Ctx) {}
}

/// Claims and runs one pass of `J`'s due jobs. Answers how many it took.
pub async fn pass<J: Job>(ctx: &Ctx) -> Result<usize, DomainError> {
    held_pass::<J>(ctx, &Held::default()).await
}

/// The jobs a runner holds while a pass runs them: given back if the pass is cut short.
pub type Held = Arc<Mutex<Vec<Claimed>>>;

async fn held_pass<J: Job>(ctx: &Ctx, held: &Held) -> Result<usize, DomainError> {
    let claimed = outbox::claim(ctx, J::KIND, J::BATCH, J::lease_ms(ctx)).await?;
    let taken = claimed.len();
    if taken > 0 {
        *held.lock().unwrap_or_else(|p| p.into_inner()) = claimed.clone();
        let ran = J::run(ctx, claimed).await;
        held.lock().unwrap_or_else(|p| p.into_inner()).clear();
        ran?;
    }
    Ok(taken)
}

/// Runs passes of `J` until `stop` turns true (then the pass under way finishes and the loop
/// ends) or the task is aborted (then what `held` still names is given back by whoever
/// aborted it). A pass that fails is logged; its jobs come back when their leases run out.
pub async fn run<J: Job>(ctx: Ctx, mut stop: watch::Receiver<bool>, held: Held) {
    loop {
        if *stop.borrow() {
            return;
        }
        tokio::select! {
            _ = J::before(&ctx) => {}
            _ = stop.changed() => return,
        }
        match held_pass::<J>(&ctx, &held).await {
            Ok(n) if n as i64 >= J::BATCH => continue,
            Ok(_) => {}
            Err(e) => tracing::warn!(job = J::KIND.as_str(), error = %e, "a pass failed"),
        }
        tokio::select! {
            _ = J::wake(&ctx).notified() => {}
            _ = tokio::time::sleep(J::POLL) => {}
            _ = stop.changed() => return,
        }
    }
}
