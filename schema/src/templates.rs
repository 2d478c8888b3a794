//! Templates in GraphQL, over the same resolvers as REST. Bodies are given as `input`, the
//! JSON of the REST route's body.

use async_graphql::{Context, ErrorExtensions, Object};
use signet_documents::templates::{self, TemplateOut, TemplatePageOut};
use signet_documents::types::DocumentOut;

use crate::who::who;

#[derive(Default)]
pub struct TemplatesQuery;

#[Object]
impl TemplatesQuery {
    /// A template with its seats, questions, fields and defaults (templates:read).
    async fn template(&self, ctx: &Context<'_>, id: String) -> async_graphql::Result<TemplateOut> {
        let (c, a) = who(ctx)?;
        templates::get(c, a, &id).await.map_err(|e| e.extend())
    }

    /// A template's words as saved and the version they are, to write the next version from
    /// (templates:read).
    async fn template_source(
        &self,
        ctx: &Context<'_>,
        id: String,
    ) -> async_graphql::Result<templates::TemplateSourceOut> {
        let (c, a) = who(ctx)?;
        templates::source(c, a, &id).await.map_err(|e| e.extend())
    }

    /// The pages a signer would see, drawn from words not saved yet, with each field's box
    /// (templates:write); `input` is the body of POST /api/v1/templates/preview.
    async fn template_preview(
        &self,
        ctx: &Context<'_>,
        input: templates::TemplatePreviewIn,
    ) -> async_graphql::Result<templates::TemplatePreviewOut> {
        let (c, a) = who(ctx)?;
        templates::preview(c, a, input)
            .await
            .map_err(|e| e.extend())
    }

    /// A page of a template made from a file, drawn 750 pixels wide, to place fields on
    /// (templates:read).
    async fn template_page(
        &self,
        ctx: &Context<'_>,
        id: String,
        page: i32,
    ) -> async_graphql::Result<templates::PreviewPageOut> {
        let (c, a) = who(ctx)?;
        let page = u32::try_from(page)
            .ok()
            .filter(|p| *p >= 1)
            .unwrap_or(u32::MAX);
        templates::page(c, a, &id, page)
            .await
            .map_err(|e| e.extend())
    }

    /// Approved, current templates with a seat, to send from, newest first; with `all`, every
    /// template (waiting for approval, or a file with no field placed yet) (templates:read).
    async fn templates(
        &self,
        ctx: &Context<'_>,
        limit: Option<i64>,
        cursor: Option<String>,
        all: Option<bool>,
    ) -> async_graphql::Result<TemplatePageOut> {
        let (c, a) = who(ctx)?;
        templates::list(c, a, limit, cursor.as_deref(), all.unwrap_or(false))
            .await
            .map_err(|e| e.extend())
    }
}

#[derive(Default)]
pub struct TemplatesMutation;

#[Object]
impl TemplatesMutation {
    /// Makes a template from words (templates:write); `input` is the body of POST
    /// /api/v1/templates/source.
    async fn create_template_from_source(
        &self,
        ctx: &Context<'_>,
        input: templates::TemplateSourceIn,
    ) -> async_graphql::Result<TemplateOut> {
        let (c, a) = who(ctx)?;
        let body = input;
        templates::create_source(c, a, body, None)
            .await
            .map(|m| m.out)
            .map_err(|e| e.extend())
    }

    /// Saves new words as a template's next version (templates:write); `input` is the body of
    /// POST /api/v1/templates/{id}/versions.
    async fn create_template_version(
        &self,
        ctx: &Context<'_>,
        id: String,
        input: templates::TemplateVersionIn,
    ) -> async_graphql::Result<TemplateOut> {
        let (c, a) = who(ctx)?;
        templates::new_version(c, a, &id, input, None)
            .await
            .map(|m| m.out)
            .map_err(|e| e.extend())
    }

    /// Makes a template from an HTML page (templates:write); `input` is the body of POST
    /// /api/v1/templates/html.
    async fn create_template_from_html(
        &self,
        ctx: &Context<'_>,
        input: templates::TemplateHtmlIn,
    ) -> async_graphql::Result<TemplateOut> {
        let (c, a) = who(ctx)?;
        let body = input;
        templates::create_html(c, a, body, None)
            .await
            .map(|m| m.out)
            .map_err(|e| e.extend())
    }

    /// Makes a template from a PDF with text tags (templates:write); `input` is the body of
    /// POST /api/v1/templates/file.
    async fn create_template_from_file(
        &self,
        ctx: &Context<'_>,
        input: templates::TemplateFileIn,
    ) -> async_graphql::Result<TemplateOut> {
        let (c, a) = who(ctx)?;
        let body = input;
        templates::create_file(c, a, body, None)
            .await
            .map(|m| m.out)
            .map_err(|e| e.extend())
    }

    /// Saves what every later document of a template starts with (templates:write); `input`
    /// is the body of POST /api/v1/templates/{id}/defaults.
    async fn set_template_defaults(
        &self,
        ctx: &Context<'_>,
        id: String,
        input: templates::TemplateDefaults,
    ) -> async_graphql::Result<TemplateOut> {
        let (c, a) = who(ctx)?;
        let body = input;
        templates::set_defaults(c, a, &id, body)
            .await
            .map_err(|e| e.extend())
    }

    /// A document from a written template (documents:write); `input` is the body of POST
    /// /api/v1/templates/{id}/documents. A draft unless `sendNow`.
    async fn create_document_from_template(
        &self,
        ctx: &Context<'_>,
        id: String,
        input: templates::TemplateDocumentIn,
    ) -> async_graphql::Result<DocumentOut> {
        let (c, a) = who(ctx)?;
        let body = input;
        templates::make_document(c, a, &id, body, None)
            .await
            .map(|m| m.out)
            .map_err(|e| e.extend())
    }

    /// Sends a template to one party per seat (documents:write); `input` is the body of
    /// POST /api/v1/documents/send.
    async fn send_template(
        &self,
        ctx: &Context<'_>,
        input: templates::TemplateSendIn,
    ) -> async_graphql::Result<DocumentOut> {
        let (c, a) = who(ctx)?;
        let body = input;
        templates::send(c, a, body, None)
            .await
            .map(|m| m.out)
            .map_err(|e| e.extend())
    }
}
