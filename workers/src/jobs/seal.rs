//! Sealing a document everyone signed (`documents::seal`).

use signet_core::jobs::JobKind;
use signet_core::outbox::Claimed;
use signet_core::{Ctx, DomainError};
use signet_documents::seal;

use crate::runner::Job;

pub struct Seal;

#[async_trait::async_trait]
impl Job for Seal {
    const KIND: JobKind = JobKind::Seal;
    const BATCH: i64 = seal::BATCH;

    fn lease_ms(_ctx: &Ctx) -> i64 {
        seal::LEASE_MS
    }

    async fn run(ctx: &Ctx, claimed: Vec<Claimed>) -> Result<(), DomainError> {
        seal::run_seals(ctx, claimed).await.map(drop)
    }

    fn wake(ctx: &Ctx) -> &tokio::sync::Notify {
        ctx.wakes.of(signet_core::jobs::JobKind::Seal)
    }
}
