//! The email worker's handler: how the one queue's runner takes `email` jobs.

use sea_orm::{ConnectionTrait, Value};
use signet_core::jobs::{Claimed, Handler};
use signet_core::{Ctx, DomainError};
use signet_documents::jobs::EmailJob;

use crate::send;

/// Sends queued emails (`send::run_emails`).
pub struct Emails;

#[async_trait::async_trait]
impl Handler for Emails {
    type Job = EmailJob;
    const BATCH: i64 = send::BATCH;

    /// `mail_lease_secs`: long enough for a slow server to answer every email of a pass.
    fn lease_ms(ctx: &Ctx) -> i64 {
        send::mail(ctx).lease_ms
    }

    async fn run(ctx: &Ctx, claimed: Vec<Claimed>) -> Result<(), DomainError> {
        send::run_emails(ctx, claimed).await.map(drop)
    }

    /// An email whose every try failed (or stopped its worker) says so in its log row rather
    /// than waiting for ever.
    async fn gave_up(ctx: &Ctx, jobs: &[Claimed]) -> Result<(), DomainError> {
        for chunk in jobs.chunks(200) {
            let marks = (1..=chunk.len())
                .map(|i| format!("${i}"))
                .collect::<Vec<_>>()
                .join(", ");
            ctx.db
                .conn
                .execute_raw(ctx.db.stmt(
                    &format!(
                        "UPDATE emails SET status = 'failed', reason = 'every try failed or stopped its worker' \
                         WHERE job_id IN ({marks}) AND status IN ('queued', 'paused')"
                    ),
                    chunk
                        .iter()
                        .map(|c| Value::from(c.job.clone()))
                        .collect::<Vec<_>>(),
                ))
                .await?;
        }
        Ok(())
    }

    /// Each pass waits for a lull in the requests this process serves (at most
    /// `send::PACE_CAP`): under a flood of sends the invitations go out a little later rather
    /// than slowing the sends that queue them. `signet worker` serves none and never waits.
    async fn before(_ctx: &Ctx) {
        signet_queue::pacing::lull(send::PACE_CAP).await;
    }
}
