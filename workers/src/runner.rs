//! One loop for every job kind: run a pass; when it was full, run the next at once; else wait
//! for the kind's wake-up (a commit in this process that queued such a job) or the poll
//! interval (jobs other processes queued, retries coming due, leases running out).

use std::time::Duration;

use signet_resolvers::{Ctx, DomainError};

/// A kind of queued job, as the runner sees it. What a pass does (claim, lease, run, retry)
/// is the resolvers'.
#[async_trait::async_trait]
pub trait Job: Send + Sync + 'static {
    /// For log lines.
    const NAME: &'static str;
    /// A pass that took this many jobs is followed by another at once.
    const FULL: usize;
    /// The longest the runner waits between passes without a wake-up.
    const POLL: Duration = Duration::from_secs(1);

    /// Claims and runs due jobs; answers how many it took.
    async fn pass(ctx: &Ctx) -> Result<usize, DomainError>;

    /// Wakes the runner when a commit of this process queued a job of this kind.
    fn wake(ctx: &Ctx) -> &tokio::sync::Notify;

    /// Waits, if the kind must, before a pass (email waits for a lull in requests).
    async fn before(_ctx: &Ctx) {}
}

/// Runs passes of `J` until the task is aborted. A pass that fails is logged; its jobs come
/// back when their leases run out.
pub async fn run<J: Job>(ctx: Ctx) {
    loop {
        J::before(&ctx).await;
        match J::pass(&ctx).await {
            Ok(n) if n >= J::FULL => continue,
            Ok(_) => {}
            Err(e) => tracing::warn!(job = J::NAME, error = %e, "a pass failed"),
        }
        tokio::select! {
            _ = J::wake(&ctx).notified() => {}
            _ = tokio::time::sleep(J::POLL) => {}
        }
    }
}
