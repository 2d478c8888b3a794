//! AI drafting in GraphQL, over the same resolvers as REST. Bodies are given as `input`, the
//! JSON of the REST route's body.

use async_graphql::{Context, ErrorExtensions, Object};
use signet_ai::jobs;
use signet_ai::types::*;

use crate::who::who;

#[derive(Default)]
pub struct AiQuery;

#[Object]
impl AiQuery {
    /// An AI job: its state, and when done its source and patches (documents:read).
    async fn ai_job(&self, ctx: &Context<'_>, id: String) -> async_graphql::Result<AiJobOut> {
        let (c, a) = who(ctx)?;
        jobs::get(c, a, &id).await.map_err(|e| e.extend())
    }

    /// The questions whose answers make a brief (documents:read).
    async fn ai_wizard(
        &self,
        ctx: &Context<'_>,
        locale: Option<String>,
    ) -> async_graphql::Result<WizardOut> {
        let (c, a) = who(ctx)?;
        jobs::wizard(c, a, locale.as_deref())
            .await
            .map_err(|e| e.extend())
    }
}

#[derive(Default)]
pub struct AiMutation;

#[Object]
impl AiMutation {
    /// Starts a job that drafts a document or template (documents:write); `input` is the
    /// body of POST /api/v1/documents/ai/draft.
    async fn start_ai_draft(
        &self,
        ctx: &Context<'_>,
        input: AiDraftIn,
    ) -> async_graphql::Result<AiJobOut> {
        let (c, a) = who(ctx)?;
        jobs::draft(c, a, input).await.map_err(|e| e.extend())
    }

    /// Starts a job that proposes changes to words (documents:write); `input` is the body of
    /// POST /api/v1/documents/ai/edit.
    async fn start_ai_edit(
        &self,
        ctx: &Context<'_>,
        input: AiEditIn,
    ) -> async_graphql::Result<AiJobOut> {
        let (c, a) = who(ctx)?;
        jobs::edit(c, a, input).await.map_err(|e| e.extend())
    }

    /// Cancels an AI job (documents:write).
    async fn cancel_ai_job(
        &self,
        ctx: &Context<'_>,
        id: String,
    ) -> async_graphql::Result<AiJobOut> {
        let (c, a) = who(ctx)?;
        jobs::cancel(c, a, &id).await.map_err(|e| e.extend())
    }
}
