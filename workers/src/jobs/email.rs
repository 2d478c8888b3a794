//! Sending queued emails (`email::send`).

use signet_core::jobs::JobKind;
use signet_core::outbox::Claimed;
use signet_core::{Ctx, DomainError};
use signet_email::send;

use crate::runner::Job;

pub struct Email;

#[async_trait::async_trait]
impl Job for Email {
    const KIND: JobKind = JobKind::Email;
    const BATCH: i64 = send::BATCH;

    /// `mail_lease_secs`: long enough for a slow server to answer every email of a pass.
    fn lease_ms(ctx: &Ctx) -> i64 {
        signet_email::send::mail(ctx).lease_ms
    }

    async fn run(ctx: &Ctx, claimed: Vec<Claimed>) -> Result<(), DomainError> {
        send::run_emails(ctx, claimed).await.map(drop)
    }

    fn wake(ctx: &Ctx) -> &tokio::sync::Notify {
        ctx.wakes.of(signet_core::jobs::JobKind::Email)
    }

    /// Each pass waits for a lull in the requests this process serves (at most
    /// `send::PACE_CAP`): under a flood of sends the invitations go out a little later rather
    /// than slowing the sends that queue them. `signet worker` serves none and never waits.
    async fn before(_ctx: &Ctx) {
        signet_documents::pacing::lull(send::PACE_CAP).await;
    }
}
