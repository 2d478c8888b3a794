//! One loop for every job kind taken in passes. A pass claims up to a batch of the kind's due
//! jobs under a lease (`signet_queue::claim`: oldest first, a fair share per workspace, a job
//! that failed every try marked failed and handed to the handler's `gave_up`) and hands them
//! to the handler's `run`, which ends each one: done, a later try after its back-off, or given
//! up. A job whose process dies keeps its lease until it runs out, and a later pass takes it.
//!
//! When a pass was full the next runs at once. Otherwise the loop waits for the kind's wake-up
//! (a commit that queued such a job: in this process, or with Redis in any) or, on SQL alone,
//! the poll interval (retries coming due, leases running out); with Redis, until the next job
//! Redis has filed is due, and every `signet_queue::SWEEP` it files the kind's rows in Redis
//! again so an entry Redis lost is found.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::watch;

use signet_core::jobs::{Claimed, Handler, Job};
use signet_core::{Ctx, DomainError};

/// The jobs a runner holds while a pass runs them: given back if the pass is cut short.
pub type Held = Arc<Mutex<Vec<Claimed>>>;

fn kind<H: Handler>() -> &'static str {
    <H::Job as Job>::KIND
}

/// Claims and runs one pass of `H`'s due jobs. Answers how many it took.
pub async fn pass<H: Handler>(ctx: &Ctx) -> Result<usize, DomainError> {
    held_pass::<H>(ctx, &Held::default()).await
}

async fn held_pass<H: Handler>(ctx: &Ctx, held: &Held) -> Result<usize, DomainError> {
    let claim = signet_queue::claim(&ctx.queue, kind::<H>(), H::BATCH, H::lease_ms(ctx)).await?;
    if !claim.gave_up.is_empty() {
        H::gave_up(ctx, &claim.gave_up).await?;
    }
    let taken = claim.taken.len();
    if taken > 0 {
        *held.lock().unwrap_or_else(|p| p.into_inner()) = claim.taken.clone();
        let ran = H::run(ctx, claim.taken).await;
        let ended = std::mem::take(&mut *held.lock().unwrap_or_else(|p| p.into_inner()));
        if let Err(e) = signet_queue::settle(&ctx.queue, kind::<H>(), &ended).await {
            // Redis keeps the lease's end for them; the next claim puts each right.
            tracing::warn!(job = kind::<H>(), error = %e, "telling Redis how a pass ended failed");
        }
        ran?;
    }
    Ok(taken)
}

/// How long an idle runner of `H` waits for a wake-up before it looks again.
async fn idle_wait<H: Handler>(ctx: &Ctx) -> Duration {
    if !ctx.queue.on_redis() {
        return H::POLL;
    }
    match ctx.queue.next_due(kind::<H>()).await {
        Ok(Some(at)) => {
            let ms = (at - ctx.now()).max(0) as u64;
            Duration::from_millis(ms).min(signet_queue::SWEEP)
        }
        Ok(None) => signet_queue::SWEEP,
        Err(e) => {
            tracing::warn!(job = kind::<H>(), error = %e, "asking Redis for the next job failed");
            H::POLL
        }
    }
}

/// Runs passes of `H` until `stop` turns true (then the pass under way finishes and the loop
/// ends) or the task is aborted (then what `held` still names is given back by whoever
/// aborted it). A pass that fails is logged; its jobs come back when their leases run out.
pub async fn run<H: Handler>(ctx: Ctx, mut stop: watch::Receiver<bool>, held: Held) {
    let woken = ctx.queue.woken(kind::<H>());
    let mut swept: Option<tokio::time::Instant> = None;
    loop {
        if *stop.borrow() {
            return;
        }
        if ctx.queue.on_redis() && swept.is_none_or(|at| at.elapsed() >= signet_queue::SWEEP) {
            swept = Some(tokio::time::Instant::now());
            if let Err(e) = ctx.queue.sweep(kind::<H>()).await {
                tracing::warn!(job = kind::<H>(), error = %e, "filing jobs in Redis again failed");
            }
        }
        tokio::select! {
            _ = H::before(&ctx) => {}
            _ = stop.changed() => return,
        }
        let wait = match held_pass::<H>(&ctx, &held).await {
            Ok(n) if n as i64 >= H::BATCH => continue,
            Ok(_) => idle_wait::<H>(&ctx).await,
            Err(e) => {
                tracing::warn!(job = kind::<H>(), error = %e, "a pass failed");
                H::POLL
            }
        };
        tokio::select! {
            _ = woken.notified() => {}
            _ = tokio::time::sleep(wait) => {}
            _ = stop.changed() => return,
        }
    }
}
