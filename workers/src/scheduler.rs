//! The periodic tasks of a process, in one place: each runs on its own interval, and a failure
//! is logged and tried at the next tick.

use std::future::Future;
use std::time::Duration;

use signet_core::{Ctx, DomainError};
use tokio::task::JoinHandle;

use crate::settings::Settings;

/// Runs `task` every `every`, the first time at once.
fn every<F, Fut>(ctx: &Ctx, name: &'static str, every: Duration, task: F) -> JoinHandle<()>
where
    F: Fn(Ctx) -> Fut + Send + 'static,
    Fut: Future<Output = Result<String, DomainError>> + Send,
{
    let ctx = ctx.clone();
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(every);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tick.tick().await;
            match task(ctx.clone()).await {
                Ok(done) if done.is_empty() => {}
                Ok(done) => tracing::info!(task = name, done, "scheduled task"),
                Err(e) => tracing::warn!(task = name, error = %e, "a scheduled task failed"),
            }
        }
    })
}

pub fn spawn(ctx: &Ctx, s: &Settings) -> Vec<JoinHandle<()>> {
    let days = s.api_log_days;
    let mut tasks = vec![
        // Overdue documents expire; due reminders are queued.
        every(
            ctx,
            "expiry and reminders",
            s.scheduler_every.max(Duration::from_secs(1)),
            |ctx| async move {
                let (expired, reminded) = signet_documents::sweep(&ctx).await?;
                Ok(if expired + reminded == 0 {
                    String::new()
                } else {
                    format!("{expired} expired, {reminded} reminded")
                })
            },
        ),
        // Old idempotency records, webhook rows, API log lines, finished jobs, and what the
        // people's sign-in no longer needs.
        every(
            ctx,
            "purges",
            Duration::from_secs(600),
            move |ctx| async move {
                ctx.idempotency.purge_expired().await?;
                signet_webhooks::deliver::purge(&ctx).await?;
                signet_core::purge::api_log(&ctx, days).await?;
                signet_core::purge::finished_jobs(&ctx, 30).await?;
                signet_accounts::people::purge::purge(&ctx).await?;
                signet_accounts::frames::purge(&ctx).await?;
                signet_plays::drafting::purge(&ctx).await?;
                signet_ai::jobs::purge(&ctx).await?;
                Ok(String::new())
            },
        ),
    ];
    if s.jobs {
        // Documents everyone signed whose sealing job was lost (an operator's hand, a restore).
        tasks.push(every(
            ctx,
            "stuck seals",
            Duration::from_secs(300),
            |ctx| async move {
                let n = signet_documents::seal::requeue_stuck(&ctx).await?;
                Ok(if n == 0 {
                    String::new()
                } else {
                    format!("{n} re-queued")
                })
            },
        ));
    }
    tasks
}
