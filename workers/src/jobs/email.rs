//! Sending queued emails (`email::send`).

use signet_resolvers::email::send;
use signet_resolvers::outbox::{Claimed, JobKind};
use signet_resolvers::{Ctx, DomainError};

use crate::runner::Job;

pub struct Email;

#[async_trait::async_trait]
impl Job for Email {
    const KIND: JobKind = JobKind::Email;
    const BATCH: i64 = send::BATCH;

    /// `mail_lease_secs`: long enough for a slow server to answer every email of a pass.
    fn lease_ms(ctx: &Ctx) -> i64 {
        signet_resolvers::email::send::mail(ctx).lease_ms
    }

    async fn run(ctx: &Ctx, claimed: Vec<Claimed>) -> Result<(), DomainError> {
        send::run_emails(ctx, claimed).await.map(drop)
    }

    fn wake(ctx: &Ctx) -> &tokio::sync::Notify {
        ctx.wakes.of(signet_resolvers::outbox::JobKind::Email)
    }

    /// Each pass waits for a lull in the requests this process serves (at most
    /// `send::PACE_CAP`): under a flood of sends the invitations go out a little later rather
    /// than slowing the sends that queue them. `signet worker` serves none and never waits.
    async fn before(_ctx: &Ctx) {
        signet_resolvers::pacing::lull(send::PACE_CAP).await;
    }
}
