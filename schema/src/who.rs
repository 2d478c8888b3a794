//! Who asks a GraphQL field: the key the door authenticated, and the services.

use async_graphql::{Context, ErrorExtensions};
use signet_core::{Actor, Ctx, DomainError};

/// The calling key and the services, or the same credential error REST gives.
pub(crate) fn who<'a>(ctx: &'a Context<'_>) -> async_graphql::Result<(&'a Ctx, &'a Actor)> {
    let services = ctx
        .data::<Ctx>()
        .map_err(|_| DomainError::Internal("no services".into()).extend())?;
    let actor = ctx
        .data::<Actor>()
        .map_err(|_| DomainError::Unauthenticated.extend())?;
    Ok((services, actor))
}
