//! Sending queued emails (`email::send`).

use signet_resolvers::email::send;
use signet_resolvers::{Ctx, DomainError};

use crate::runner::Job;

pub struct Email;

#[async_trait::async_trait]
impl Job for Email {
    const NAME: &'static str = "email";
    const FULL: usize = send::BATCH as usize;

    async fn pass(ctx: &Ctx) -> Result<usize, DomainError> {
        send::run_emails(ctx).await
    }

    fn wake(ctx: &Ctx) -> &tokio::sync::Notify {
        &ctx.mail.wake
    }

    /// Each pass waits for a lull in the requests this process serves (at most
    /// `send::PACE_CAP`): under a flood of sends the invitations go out a little later rather
    /// than slowing the sends that queue them. `signet worker` serves none and never waits.
    async fn before(_ctx: &Ctx) {
        signet_resolvers::pacing::lull(send::PACE_CAP).await;
    }
}
