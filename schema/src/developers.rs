//! Developers settings over GraphQL: API keys (made and revoked by an owner or admin signed
//! in; the secret answered once) and the API log searched by request id, key, route, status
//! and time (`settings:read`).

use async_graphql::{Context, ErrorExtensions, Object};
use signet_accounts::developers::{self, ApiKeyIn, ApiKeyMade};
use signet_accounts::keys::KeyOut as ApiKeyOut;
use signet_core::actor::ClientAddr;
use signet_core::api_log::{ApiLogEntry as ApiLogLine, Search as ApiLogSearch};

use crate::who::who;

#[derive(Default)]
pub struct DevelopersQuery;

#[Object]
impl DevelopersQuery {
    /// The workspace's API keys, newest first, revoked ones included (owners and admins).
    async fn api_keys(&self, ctx: &Context<'_>) -> async_graphql::Result<Vec<ApiKeyOut>> {
        let (c, a) = who(ctx)?;
        developers::list_keys(c, a).await.map_err(|e| e.extend())
    }

    /// The workspace's API log, newest first, at most 100 lines a read (settings:read).
    async fn api_log(
        &self,
        ctx: &Context<'_>,
        search: Option<ApiLogSearch>,
    ) -> async_graphql::Result<Vec<ApiLogLine>> {
        let (c, a) = who(ctx)?;
        developers::api_log(c, a, search.unwrap_or_default())
            .await
            .map_err(|e| e.extend())
    }
}

#[derive(Default)]
pub struct DevelopersMutation;

#[Object]
impl DevelopersMutation {
    /// Makes an API key (an owner or admin signed in); its secret is answered this once.
    async fn create_api_key(
        &self,
        ctx: &Context<'_>,
        input: ApiKeyIn,
    ) -> async_graphql::Result<ApiKeyMade> {
        let (c, a) = who(ctx)?;
        let from = ctx.data_opt::<ClientAddr>().map(|c| c.0);
        developers::create_key(c, a, from, input)
            .await
            .map_err(|e| e.extend())
    }

    /// Revokes an API key at once (an owner or admin signed in).
    async fn revoke_api_key(
        &self,
        ctx: &Context<'_>,
        id: String,
    ) -> async_graphql::Result<ApiKeyOut> {
        let (c, a) = who(ctx)?;
        let from = ctx.data_opt::<ClientAddr>().map(|c| c.0);
        developers::revoke_key(c, a, from, &id)
            .await
            .map_err(|e| e.extend())
    }
}
