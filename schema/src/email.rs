//! Email wording and the email log in GraphQL, over the same resolvers as REST.

use async_graphql::{Context, ErrorExtensions, Object};
use signet_email::log::{self, EmailFilter, EmailPageOut};
use signet_email::suppressions::{self, SuppressionPageOut};
use signet_email::templates::{
    self, EmailPreviewOut, EmailTemplateOut, EmailTemplatesOut, EmailWordingIn,
};

use crate::who::who;

#[derive(Default)]
pub struct EmailQuery;

#[Object]
impl EmailQuery {
    /// The eight kinds of email in one language (default en): the words they go out with,
    /// the standard words, what is saved, and each kind's variables (notifications:read).
    async fn email_templates(
        &self,
        ctx: &Context<'_>,
        locale: Option<String>,
    ) -> async_graphql::Result<EmailTemplatesOut> {
        let (c, a) = who(ctx)?;
        templates::list(c, a, locale.as_deref())
            .await
            .map_err(|e| e.extend())
    }

    /// The email log of the key's mode, newest first; never a body or a link
    /// (notifications:read).
    #[allow(clippy::too_many_arguments)]
    async fn emails(
        &self,
        ctx: &Context<'_>,
        document_id: Option<String>,
        to: Option<String>,
        status: Option<String>,
        kind: Option<String>,
        limit: Option<i64>,
        cursor: Option<String>,
    ) -> async_graphql::Result<EmailPageOut> {
        let (c, a) = who(ctx)?;
        let filter = EmailFilter {
            document_id,
            to,
            status,
            kind,
        };
        log::list(c, a, filter, limit, cursor)
            .await
            .map_err(|e| e.extend())
    }

    /// Addresses a hard bounce or a complaint stopped emailing in this workspace (both
    /// modes), alphabetically; `search` keeps those containing it (notifications:read).
    async fn email_suppressions(
        &self,
        ctx: &Context<'_>,
        search: Option<String>,
        limit: Option<i64>,
        cursor: Option<String>,
    ) -> async_graphql::Result<SuppressionPageOut> {
        let (c, a) = who(ctx)?;
        suppressions::list(c, a, search, limit, cursor)
            .await
            .map_err(|e| e.extend())
    }
}

#[derive(Default)]
pub struct EmailMutation;

#[Object]
impl EmailMutation {
    /// Saves the wording of one kind in one language; a blank or null field keeps the
    /// standard words (notifications:write).
    async fn save_email_template(
        &self,
        ctx: &Context<'_>,
        kind: String,
        input: EmailWordingIn,
    ) -> async_graphql::Result<EmailTemplateOut> {
        let (c, a) = who(ctx)?;
        templates::save(c, a, &kind, input)
            .await
            .map_err(|e| e.extend())
    }

    /// Forgets the saved wording of one kind in one language (notifications:write).
    async fn reset_email_template(
        &self,
        ctx: &Context<'_>,
        kind: String,
        locale: Option<String>,
    ) -> async_graphql::Result<EmailTemplateOut> {
        let (c, a) = who(ctx)?;
        templates::remove(c, a, &kind, locale.as_deref())
            .await
            .map_err(|e| e.extend())
    }

    /// Lets emails go to a suppressed address again; answers whether it was suppressed
    /// (notifications:write). Lifting is in the activity record.
    async fn lift_email_suppression(
        &self,
        ctx: &Context<'_>,
        address: String,
    ) -> async_graphql::Result<bool> {
        let (c, a) = who(ctx)?;
        suppressions::lift(c, a, &address)
            .await
            .map_err(|e| e.extend())
    }

    /// Renders wording with made-up names; nothing is saved (notifications:read).
    async fn preview_email_template(
        &self,
        ctx: &Context<'_>,
        kind: String,
        input: EmailWordingIn,
    ) -> async_graphql::Result<EmailPreviewOut> {
        let (c, a) = who(ctx)?;
        templates::preview(c, a, &kind, input)
            .await
            .map_err(|e| e.extend())
    }
}
