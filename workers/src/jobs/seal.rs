//! Sealing a document everyone signed (`documents::seal`).

use signet_resolvers::documents::seal;
use signet_resolvers::{Ctx, DomainError};

use crate::runner::Job;

pub struct Seal;

#[async_trait::async_trait]
impl Job for Seal {
    const NAME: &'static str = "seal";
    const FULL: usize = seal::BATCH as usize;

    async fn pass(ctx: &Ctx) -> Result<usize, DomainError> {
        seal::run_seals(ctx).await
    }

    fn wake(ctx: &Ctx) -> &tokio::sync::Notify {
        &ctx.seal_wake
    }
}
