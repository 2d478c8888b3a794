//! Rendering a sent document's PDF (`documents::rendering`).

use signet_resolvers::documents::rendering;
use signet_resolvers::{Ctx, DomainError};

use crate::runner::Job;

pub struct Render;

#[async_trait::async_trait]
impl Job for Render {
    const NAME: &'static str = "render";
    const FULL: usize = rendering::BATCH as usize;

    async fn pass(ctx: &Ctx) -> Result<usize, DomainError> {
        rendering::run_renders(ctx).await
    }

    fn wake(ctx: &Ctx) -> &tokio::sync::Notify {
        &ctx.render_wake
    }
}
