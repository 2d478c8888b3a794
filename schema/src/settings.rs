//! Workspace settings over GraphQL, for the application's Settings screen (and a key with
//! `settings:read` / `settings:write`).

use async_graphql::{Context, ErrorExtensions, Object};
use signet_accounts::settings::{self, SettingsIn, SettingsOut};

use crate::who::who;

#[derive(Default)]
pub struct SettingsQuery;

#[Object]
impl SettingsQuery {
    /// The workspace's settings: name, time zone, language, email sender, test mode,
    /// embedding and AI drafting (settings:read: owners and admins).
    async fn workspace_settings(&self, ctx: &Context<'_>) -> async_graphql::Result<SettingsOut> {
        let (c, a) = who(ctx)?;
        settings::read(c, a).await.map_err(|e| e.extend())
    }
}

#[derive(Default)]
pub struct SettingsMutation;

#[Object]
impl SettingsMutation {
    /// Changes the workspace's settings; a field left out stays, an empty text clears it
    /// (settings:write: owners and admins). Recorded in the activity record.
    async fn update_workspace_settings(
        &self,
        ctx: &Context<'_>,
        input: SettingsIn,
    ) -> async_graphql::Result<SettingsOut> {
        let (c, a) = who(ctx)?;
        settings::change(c, a, input).await.map_err(|e| e.extend())
    }
}
