//! Workspace settings over GraphQL, for the application's Settings screen (and a key with
//! `settings:read` / `settings:write`).

use async_graphql::{Context, ErrorExtensions, Object};
use signet_accounts::settings::{self, SettingsIn, SettingsOut};
use signet_accounts::teams::{self, TeamMemberOut, TeamOut};

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

#[derive(Default)]
pub struct TeamsMutation;

#[Object]
impl TeamsMutation {
    /// Makes a team, to read the report by (people:write: owners and admins); at most 100.
    async fn create_team(&self, ctx: &Context<'_>, name: String) -> async_graphql::Result<TeamOut> {
        let (c, a) = who(ctx)?;
        teams::create_as(c, a, &name).await.map_err(|e| e.extend())
    }

    /// Removes a team and its list of people; documents and reports are untouched
    /// (people:write).
    async fn delete_team(&self, ctx: &Context<'_>, id: String) -> async_graphql::Result<bool> {
        let (c, a) = who(ctx)?;
        teams::delete_as(c, a, &id).await.map_err(|e| e.extend())
    }

    /// Adds a person to a team by their email (people:write); `role` is `admin` or
    /// `member`. At most 500 a team.
    async fn add_team_member(
        &self,
        ctx: &Context<'_>,
        team_id: String,
        email: String,
        name: String,
        role: String,
    ) -> async_graphql::Result<TeamMemberOut> {
        let (c, a) = who(ctx)?;
        teams::add_member_as(c, a, &team_id, &email, &name, &role)
            .await
            .map_err(|e| e.extend())
    }

    /// Takes a person off a team; answers whether they were on it (people:write).
    async fn remove_team_member(
        &self,
        ctx: &Context<'_>,
        team_id: String,
        email: String,
    ) -> async_graphql::Result<bool> {
        let (c, a) = who(ctx)?;
        teams::remove_member_as(c, a, &team_id, &email)
            .await
            .map_err(|e| e.extend())
    }
}
