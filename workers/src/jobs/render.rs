//! Rendering a sent document's PDF (`documents::rendering`).

use signet_core::jobs::JobKind;
use signet_core::outbox::Claimed;
use signet_core::{Ctx, DomainError};
use signet_documents::rendering;

use crate::runner::Job;

pub struct Render;

#[async_trait::async_trait]
impl Job for Render {
    const KIND: JobKind = JobKind::Render;
    const BATCH: i64 = rendering::BATCH;

    fn lease_ms(_ctx: &Ctx) -> i64 {
        rendering::LEASE_MS
    }

    async fn run(ctx: &Ctx, claimed: Vec<Claimed>) -> Result<(), DomainError> {
        rendering::run_renders(ctx, claimed).await.map(drop)
    }

    fn wake(ctx: &Ctx) -> &tokio::sync::Notify {
        ctx.wakes.of(signet_core::jobs::JobKind::Render)
    }
}
