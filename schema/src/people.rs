//! The people of a workspace over GraphQL (docs/decisions/the-application.md): who is signed
//! in and where (`me`, `switchWorkspace`), members (`members`, `inviteMember`,
//! `changeMemberRole`, `removeMember`), a person's sessions (`mySessions`, `endSession`,
//! `signOutEverywhere`), their passkeys, and the activity record. What only people do is here, not in REST.
//! Every rule is the resolvers': a role's scopes, and an owner signed in for owners.

use async_graphql::{Context, ErrorExtensions, Object};
use signet_accounts::activity::{self, ActivityOut};
use signet_accounts::people::members::{self, MemberOut};
use signet_accounts::people::passkeys::{self, PasskeyIn, PasskeyOut};
use signet_accounts::people::sessions::{self, SessionOut};
use signet_accounts::people::team::{self, InviteIn, MeOut};
use signet_core::actor::{ClientAddr, Scope};

use crate::who::who;

fn from(ctx: &Context<'_>) -> Option<std::net::IpAddr> {
    ctx.data_opt::<ClientAddr>().map(|c| c.0)
}

#[derive(Default)]
pub struct PeopleQuery;

#[Object]
impl PeopleQuery {
    /// The person signed in: their record, their role here, and every workspace they belong
    /// to (a session only; an API key is no person).
    async fn me(&self, ctx: &Context<'_>) -> async_graphql::Result<MeOut> {
        let (c, a) = who(ctx)?;
        team::me(c, a).await.map_err(|e| e.extend())
    }

    /// The workspace's members, oldest first, at most 1,000 (people:read: owners and admins).
    async fn members(&self, ctx: &Context<'_>) -> async_graphql::Result<Vec<MemberOut>> {
        let (c, a) = who(ctx)?;
        a.require(Scope::PeopleRead).map_err(|e| e.extend())?;
        members::list(c, &a.workspace_id)
            .await
            .map_err(|e| e.extend())
    }

    /// The signed-in person's open sessions, newest first (at most 100).
    async fn my_sessions(&self, ctx: &Context<'_>) -> async_graphql::Result<Vec<SessionOut>> {
        let (c, a) = who(ctx)?;
        sessions::list(c, a).await.map_err(|e| e.extend())
    }

    /// The signed-in person's passkeys, oldest first.
    async fn passkeys(&self, ctx: &Context<'_>) -> async_graphql::Result<Vec<PasskeyOut>> {
        let (c, a) = who(ctx)?;
        passkeys::list(c, a).await.map_err(|e| e.extend())
    }

    /// The activity record, newest first: changes to keys, webhook endpoints, members,
    /// settings and approvals (owners and admins). `before` pages back (ms).
    async fn activity(
        &self,
        ctx: &Context<'_>,
        before: Option<i64>,
        limit: Option<u64>,
    ) -> async_graphql::Result<Vec<ActivityOut>> {
        let (c, a) = who(ctx)?;
        activity::list(c, a, before, limit)
            .await
            .map_err(|e| e.extend())
    }
}

#[derive(Default)]
pub struct PeopleMutation;

#[Object]
impl PeopleMutation {
    /// Invites a person with a role (people:write; an owner only by an owner signed in). They
    /// are a member at once and get an email in their language with a link that opens this
    /// workspace, good for three days.
    async fn invite_member(
        &self,
        ctx: &Context<'_>,
        input: InviteIn,
    ) -> async_graphql::Result<MemberOut> {
        let (c, a) = who(ctx)?;
        team::invite(c, a, from(ctx), input)
            .await
            .map_err(|e| e.extend())
    }

    /// Changes a member's role (people:write; to or from owner only by an owner signed in).
    /// The last owner stays an owner.
    async fn change_member_role(
        &self,
        ctx: &Context<'_>,
        user_id: String,
        role: String,
    ) -> async_graphql::Result<MemberOut> {
        let (c, a) = who(ctx)?;
        team::change_role(c, a, from(ctx), &user_id, &role)
            .await
            .map_err(|e| e.extend())
    }

    /// Takes a member out (people:write; an owner only by an owner), or the signed-in person
    /// themselves (leaving). Their sessions here end at once. The last owner stays.
    async fn remove_member(
        &self,
        ctx: &Context<'_>,
        user_id: String,
    ) -> async_graphql::Result<bool> {
        let (c, a) = who(ctx)?;
        team::remove(c, a, from(ctx), &user_id)
            .await
            .map(|_| true)
            .map_err(|e| e.extend())
    }

    /// Moves the session into another of the person's workspaces (one they are not a member
    /// of is not found); the next request acts there.
    async fn switch_workspace(
        &self,
        ctx: &Context<'_>,
        workspace_id: String,
    ) -> async_graphql::Result<bool> {
        let (c, a) = who(ctx)?;
        sessions::switch(c, a, &workspace_id)
            .await
            .map(|_| true)
            .map_err(|e| e.extend())
    }

    /// Changes the signed-in person's own name or language.
    async fn update_me(
        &self,
        ctx: &Context<'_>,
        name: Option<String>,
        language: Option<String>,
    ) -> async_graphql::Result<MeOut> {
        let (c, a) = who(ctx)?;
        team::update_me(c, a, name, language)
            .await
            .map_err(|e| e.extend())
    }

    /// What `navigator.credentials.create` needs to make a passkey for the signed-in person
    /// (a challenge good once, for five minutes).
    async fn passkey_options(
        &self,
        ctx: &Context<'_>,
    ) -> async_graphql::Result<async_graphql::Json<serde_json::Value>> {
        let (c, a) = who(ctx)?;
        passkeys::registration_options(c, a)
            .await
            .map(async_graphql::Json)
            .map_err(|e| e.extend())
    }

    /// Registers the passkey the browser made (attestation `none`; ES256, RS256 or
    /// Ed25519); at most 20 a person.
    async fn add_passkey(
        &self,
        ctx: &Context<'_>,
        input: PasskeyIn,
    ) -> async_graphql::Result<PasskeyOut> {
        let (c, a) = who(ctx)?;
        passkeys::register(c, a, from(ctx), input)
            .await
            .map_err(|e| e.extend())
    }

    /// Renames one of the signed-in person's passkeys.
    async fn rename_passkey(
        &self,
        ctx: &Context<'_>,
        id: String,
        name: String,
    ) -> async_graphql::Result<bool> {
        let (c, a) = who(ctx)?;
        passkeys::change(c, a, &id, Some(&name))
            .await
            .map(|_| true)
            .map_err(|e| e.extend())
    }

    /// Removes one of the signed-in person's passkeys.
    async fn remove_passkey(&self, ctx: &Context<'_>, id: String) -> async_graphql::Result<bool> {
        let (c, a) = who(ctx)?;
        passkeys::change(c, a, &id, None)
            .await
            .map(|_| true)
            .map_err(|e| e.extend())
    }

    /// Ends one of the signed-in person's sessions (another person's id is not found).
    async fn end_session(&self, ctx: &Context<'_>, id: String) -> async_graphql::Result<bool> {
        let (c, a) = who(ctx)?;
        sessions::end(c, a, Some(&id))
            .await
            .map(|_| true)
            .map_err(|e| e.extend())
    }

    /// Ends every session of the signed-in person, this one included; answers how many.
    async fn sign_out_everywhere(&self, ctx: &Context<'_>) -> async_graphql::Result<u64> {
        let (c, a) = who(ctx)?;
        sessions::end(c, a, None).await.map_err(|e| e.extend())
    }
}
