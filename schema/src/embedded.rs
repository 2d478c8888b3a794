//! The builder and Scribe frames' sessions in GraphQL, over the same resolver as REST.

use async_graphql::{Context, ErrorExtensions, Object};
use signet_accounts::frames::{self, Frame, FrameSessionIn, FrameSessionOut};

use crate::who::who;

#[derive(Default)]
pub struct EmbeddedMutation;

#[Object]
impl EmbeddedMutation {
    /// A one-hour link to the template builder, where a person writes a template and places
    /// its fields, shown on `origin` only (embedded:write).
    async fn builder_session(
        &self,
        ctx: &Context<'_>,
        origin: String,
        name: Option<String>,
    ) -> async_graphql::Result<FrameSessionOut> {
        session(ctx, Frame::Builder, origin, name).await
    }

    /// A one-hour link to Scribe, where a person drafts from a play, shown on `origin` only
    /// (embedded:write).
    async fn scribe_session(
        &self,
        ctx: &Context<'_>,
        origin: String,
        name: Option<String>,
    ) -> async_graphql::Result<FrameSessionOut> {
        session(ctx, Frame::Scribe, origin, name).await
    }
}

/// A frame's session through the resolver REST uses (no Idempotency-Key in GraphQL).
async fn session(
    ctx: &Context<'_>,
    frame: Frame,
    origin: String,
    name: Option<String>,
) -> async_graphql::Result<FrameSessionOut> {
    let (c, a) = who(ctx)?;
    frames::session(c, a, frame, FrameSessionIn { origin, name }, None)
        .await
        .map(|m| m.out)
        .map_err(|e| e.extend())
}
