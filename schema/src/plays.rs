//! Plays, playbooks and drafts in GraphQL, over the same resolvers as REST. Bodies are given
//! as `input`, the JSON of the REST route's body.

use async_graphql::{Context, ErrorExtensions, Object};
use signet_plays::types::*;
use signet_plays::{drafting, library, playbooks};

use crate::who::who;

#[derive(Default)]
pub struct PlaysQuery;

#[Object]
impl PlaysQuery {
    /// Built-in plays and the workspace's published ones (plays:read; Pro).
    async fn plays(
        &self,
        ctx: &Context<'_>,
        kind: Option<String>,
        category: Option<String>,
    ) -> async_graphql::Result<PlayListOut> {
        let (c, a) = who(ctx)?;
        library::list(c, a, kind.as_deref(), category.as_deref())
            .await
            .map_err(|e| e.extend())
    }

    /// One play with its versions (plays:read; Pro).
    async fn play(&self, ctx: &Context<'_>, name: String) -> async_graphql::Result<PlayOut> {
        let (c, a) = who(ctx)?;
        library::get(c, a, &name).await.map_err(|e| e.extend())
    }

    /// The workspace's playbooks (plays:read; Pro).
    async fn playbooks(&self, ctx: &Context<'_>) -> async_graphql::Result<PlaybookListOut> {
        let (c, a) = who(ctx)?;
        playbooks::list(c, a).await.map_err(|e| e.extend())
    }
}

#[derive(Default)]
pub struct PlaysMutation;

#[Object]
impl PlaysMutation {
    /// Saves a play file as a new immutable version (plays:write; Pro); `input` is the body
    /// of POST /api/v1/plays.
    async fn save_play(
        &self,
        ctx: &Context<'_>,
        input: PlaySourceIn,
    ) -> async_graphql::Result<PlayOut> {
        let (c, a) = who(ctx)?;
        library::save(c, a, input).await.map_err(|e| e.extend())
    }

    /// The dry run of a play file (plays:read; Pro): every problem, nothing saved; `input` is
    /// the body of POST /api/v1/plays/test.
    async fn test_play(
        &self,
        ctx: &Context<'_>,
        input: PlaySourceIn,
    ) -> async_graphql::Result<PlayTestOut> {
        let (c, a) = who(ctx)?;
        library::test(c, a, input).await.map_err(|e| e.extend())
    }

    /// Makes one version the one drafts use (plays:write; Pro).
    async fn publish_play(
        &self,
        ctx: &Context<'_>,
        name: String,
        input: PlayPublishIn,
    ) -> async_graphql::Result<PlayOut> {
        let (c, a) = who(ctx)?;
        library::publish(c, a, &name, input)
            .await
            .map_err(|e| e.extend())
    }

    /// Archives a play (plays:write; Pro).
    async fn archive_play(
        &self,
        ctx: &Context<'_>,
        name: String,
    ) -> async_graphql::Result<PlayOut> {
        let (c, a) = who(ctx)?;
        library::archive(c, a, &name).await.map_err(|e| e.extend())
    }

    /// Copies a play as a new one (plays:write; Pro).
    async fn duplicate_play(
        &self,
        ctx: &Context<'_>,
        name: String,
        input: PlayDuplicateIn,
    ) -> async_graphql::Result<PlayOut> {
        let (c, a) = who(ctx)?;
        library::duplicate(c, a, &name, input)
            .await
            .map_err(|e| e.extend())
    }

    /// Saves a playbook under its name (plays:write; Pro).
    async fn save_playbook(
        &self,
        ctx: &Context<'_>,
        input: PlaybookIn,
    ) -> async_graphql::Result<PlaybookOut> {
        let (c, a) = who(ctx)?;
        playbooks::save(c, a, input).await.map_err(|e| e.extend())
    }

    /// Starts a draft from a play (drafts:write; Pro); `input` is the body of POST
    /// /api/v1/drafts.
    async fn start_draft(
        &self,
        ctx: &Context<'_>,
        input: DraftIn,
    ) -> async_graphql::Result<DraftOut> {
        let (c, a) = who(ctx)?;
        drafting::start(c, a, input).await.map_err(|e| e.extend())
    }

    /// Answers a draft's questions (drafts:write; Pro).
    async fn answer_draft(
        &self,
        ctx: &Context<'_>,
        draft_ref: String,
        input: DraftAnswersIn,
    ) -> async_graphql::Result<DraftOut> {
        let (c, a) = who(ctx)?;
        drafting::answer(c, a, &draft_ref, input)
            .await
            .map_err(|e| e.extend())
    }
}
