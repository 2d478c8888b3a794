//! What the template routes take and answer.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// The largest HTML page taken, in bytes.
pub use signet_convert::html::MAX_HTML;

use crate::types::{EmailOptionsIn, PersonIn, SendOptionsIn};
use signet_core::page::PageInfo;
use signet_core::rules::{self, Validate};

#[derive(
    Clone, Debug, Deserialize, Serialize, Validate, utoipa::ToSchema, async_graphql::InputObject,
)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[graphql(name = "TemplateSourceInput")]
pub struct TemplateSourceIn {
    #[schema(min_length = 1, max_length = 200)]
    #[validate(custom(function = rules::line::<200>))]
    pub name: String,
    /// The rich-text source, as for documents: `{"type": "doc", "content": [...]}`. Its roles
    /// are the template's seats; its unanswered `custom.<key>` chips are its questions.
    #[schema(value_type = Object)]
    pub source: serde_json::Value,
    /// `typeset` (default) or `contract`.
    #[serde(default)]
    pub profile: Option<String>,
    /// `letter` (default) or `a4`.
    #[serde(default)]
    pub paper: Option<String>,
    #[serde(default)]
    #[schema(value_type = Option<Object>)]
    pub metadata: Option<serde_json::Value>,
    #[serde(default)]
    #[validate(custom(function = rules::blank_or_line::<200>))]
    pub external_id: Option<String>,
}

#[derive(
    Clone, Debug, Deserialize, Serialize, Validate, utoipa::ToSchema, async_graphql::InputObject,
)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[graphql(name = "TemplateHtmlInput")]
pub struct TemplateHtmlIn {
    #[schema(min_length = 1, max_length = 200)]
    #[validate(custom(function = rules::line::<200>))]
    pub name: String,
    /// The page, up to 2 MB. Scripts, styles, frames, forms and remote addresses are removed
    /// (the answer's `warnings` say what); pictures must be `data:` addresses. A field is
    /// placed at each text tag: `{{Label;type=signature;role=client}}`.
    #[schema(max_length = 2097152)]
    pub html: String,
    /// `letter` (default) or `a4`.
    #[serde(default)]
    pub paper: Option<String>,
    #[serde(default)]
    #[schema(value_type = Option<Object>)]
    pub metadata: Option<serde_json::Value>,
    #[serde(default)]
    #[validate(custom(function = rules::blank_or_line::<200>))]
    pub external_id: Option<String>,
}

#[derive(
    Clone, Debug, Deserialize, Serialize, Validate, utoipa::ToSchema, async_graphql::InputObject,
)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[graphql(name = "TemplateFileInput")]
pub struct TemplateFileIn {
    #[schema(min_length = 1, max_length = 200)]
    #[validate(custom(function = rules::line::<200>))]
    pub name: String,
    /// The file's name, kept for people; its kind is read from its bytes.
    #[schema(min_length = 1, max_length = 255)]
    #[validate(custom(function = rules::line::<255>))]
    pub file_name: String,
    /// The file, base64: a PDF with text tags, up to 10 MB.
    pub file: String,
    /// An addition: take a file without text tags, whose fields are placed afterwards (the
    /// builder's drag and drop, saved with `POST /templates/{id}/versions`). Until a version
    /// names a seat the template has none and is not listed for sending.
    #[serde(default)]
    pub place_fields: Option<bool>,
    #[serde(default)]
    #[schema(value_type = Option<Object>)]
    pub metadata: Option<serde_json::Value>,
    #[serde(default)]
    #[validate(custom(function = rules::blank_or_line::<200>))]
    pub external_id: Option<String>,
}

/// The largest file taken by `POST /templates/file`, in bytes.
pub const MAX_FILE: usize = 10 * 1024 * 1024;

/// What a document made from a template starts with.
#[derive(
    Clone,
    Debug,
    Default,
    Deserialize,
    Serialize,
    Validate,
    utoipa::ToSchema,
    async_graphql::SimpleObject,
    async_graphql::InputObject,
)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[graphql(input_name = "TemplateDefaultsInput", complex)]
pub struct TemplateDefaults {
    /// The document's description (the sender's, never shown to a signer).
    #[serde(default)]
    #[validate(custom(function = rules::blank_or_text::<2000>))]
    pub description: Option<String>,
    /// What the people are told the document is, kept with the template for the application
    /// and the builder.
    #[serde(default)]
    #[validate(custom(function = rules::blank_or_text::<2000>))]
    pub client_description: Option<String>,
    /// The invitation's message.
    #[serde(default)]
    #[validate(custom(function = rules::blank_or_text::<5000>))]
    pub message: Option<String>,
    /// Sending options; a document's own `send` wins key by key.
    #[serde(default)]
    #[schema(value_type = Option<Object>)]
    #[graphql(skip_output)]
    #[validate(nested)]
    pub send: Option<SendOptionsIn>,
}

#[async_graphql::ComplexObject]
impl TemplateDefaults {
    /// The sending options saved with `setTemplateDefaults` (`send`), as REST shows them; null
    /// when none were saved.
    async fn send_options(&self) -> Option<serde_json::Value> {
        self.send
            .as_ref()
            .and_then(|s| serde_json::to_value(s).ok())
    }
}

#[derive(Clone, Debug, Serialize, utoipa::ToSchema, async_graphql::SimpleObject)]
#[serde(rename_all = "camelCase")]
pub struct TemplateFieldOut {
    pub name: String,
    #[serde(rename = "type")]
    #[graphql(name = "type")]
    pub ty: String,
    /// The seat that fills it in.
    pub role: String,
    pub required: bool,
    /// Where the field is, for a template laid out when it was made (from HTML): its page
    /// and rectangle. Empty for a template made from words, which is laid out per document.
    pub areas: Vec<FieldAreaOut>,
}

/// A field's place: its page (from 1) and rectangle in points from the page's top-left
/// corner.
#[derive(Clone, Debug, Deserialize, Serialize, utoipa::ToSchema, async_graphql::SimpleObject)]
#[serde(rename_all = "camelCase")]
pub struct FieldAreaOut {
    pub page: i64,
    pub x: f64,
    pub y: f64,
    pub width: f64,
    pub height: f64,
}

#[derive(Clone, Debug, Serialize, utoipa::ToSchema, async_graphql::SimpleObject)]
#[serde(rename_all = "camelCase")]
pub struct TemplateOut {
    pub id: String,
    /// `source` (made from words), `html`, `pdf`, `office` (a Word, Excel or PowerPoint file,
    /// kept as the PDF LibreOffice made of it) or `picture`.
    pub kind: String,
    pub name: String,
    pub external_id: Option<String>,
    pub metadata: BTreeMap<String, String>,
    /// The current version (the newest).
    pub version: i64,
    /// Whether it is listed for sending: a template made through a draft-only key waits for
    /// a person's approval.
    pub approved: bool,
    /// The roles that sign, in the order the text first names them.
    pub seats: Vec<String>,
    /// The `custom.<key>` chips without an answer, without the prefix: answered with
    /// `variableValues` on `POST /templates/{id}/documents`.
    pub questions: Vec<String>,
    /// The fields each seat fills in. A written template is laid out for each document, so
    /// its fields have no page until then.
    pub fields: Vec<TemplateFieldOut>,
    pub paper: String,
    /// `typeset` or `contract` for templates from words; `plain` for a page laid out by its
    /// writer (HTML).
    pub profile: String,
    /// Pages of a template laid out when it was made; null for one from words.
    pub pages: Option<i64>,
    /// What was removed from what was sent (scripts, styles, remote pictures...), each said
    /// once with how many.
    pub warnings: Vec<String>,
    pub defaults: TemplateDefaults,
    pub created_at: String,
    pub updated_at: String,
}

#[derive(Clone, Debug, Serialize, utoipa::ToSchema, async_graphql::SimpleObject)]
#[serde(rename_all = "camelCase")]
pub struct TemplatePageOut {
    pub data: Vec<TemplateOut>,
    pub page: PageInfo,
}

/// One party of a template send: who takes a seat.
#[derive(
    Clone, Debug, Deserialize, Serialize, Validate, utoipa::ToSchema, async_graphql::InputObject,
)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[graphql(name = "PartyInput")]
pub struct PartyIn {
    pub seat: String,
    #[validate(custom(function = rules::line::<200>))]
    pub name: String,
    #[validate(custom(function = rules::email))]
    pub email: String,
    #[serde(default)]
    #[validate(custom(function = rules::blank_or_line::<200>))]
    pub external_id: Option<String>,
    #[serde(default)]
    #[schema(value_type = Option<Object>)]
    pub metadata: Option<serde_json::Value>,
    /// The language of this person's emails and page.
    #[serde(default)]
    #[validate(custom(function = rules::blank_or_language))]
    pub locale: Option<String>,
    /// As on a document's person.
    #[serde(default)]
    #[validate(custom(function = crate::rules::access_code))]
    pub access_code: Option<String>,
    #[serde(default)]
    pub email_code: Option<bool>,
}

#[derive(
    Clone, Debug, Deserialize, Serialize, Validate, utoipa::ToSchema, async_graphql::InputObject,
)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[graphql(name = "TemplateSendInput")]
pub struct TemplateSendIn {
    pub template_id: String,
    /// One per seat of the template.
    #[validate(nested)]
    pub parties: Vec<PartyIn>,
    #[serde(default)]
    #[validate(nested)]
    pub email: Option<EmailOptionsIn>,
    #[serde(default)]
    #[schema(value_type = Option<Object>)]
    pub metadata: Option<serde_json::Value>,
    #[serde(default)]
    #[validate(custom(function = rules::blank_or_line::<200>))]
    pub external_id: Option<String>,
    /// The document's title; the template's name when left out.
    #[serde(default)]
    #[validate(custom(function = rules::line::<300>))]
    pub title: Option<String>,
    #[serde(default)]
    #[validate(custom(function = rules::blank_or_text::<5000>))]
    pub message: Option<String>,
    #[serde(default)]
    #[validate(custom(function = rules::blank_or_line::<300>))]
    pub subject: Option<String>,
    #[serde(default)]
    #[validate(custom(function = rules::language))]
    pub language: Option<String>,
    #[serde(default)]
    #[validate(range(min = 1, max = 365, message = "must be from 1 to 365"))]
    pub expiry_days: Option<i64>,
    /// Seats signed inside your own app: nobody emails them.
    #[serde(default)]
    pub embedded: Option<Vec<String>>,
}

#[derive(
    Clone, Debug, Deserialize, Serialize, Validate, utoipa::ToSchema, async_graphql::InputObject,
)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[graphql(name = "TemplateDocumentInput")]
pub struct TemplateDocumentIn {
    // Each person's rules are checked on their own, as for a document.
    pub people: Vec<PersonIn>,
    #[serde(default)]
    #[validate(nested)]
    pub email: Option<EmailOptionsIn>,
    #[serde(default)]
    #[schema(value_type = Option<Object>)]
    pub metadata: Option<serde_json::Value>,
    #[serde(default)]
    #[validate(custom(function = rules::blank_or_line::<200>))]
    pub external_id: Option<String>,
    #[serde(default)]
    #[validate(custom(function = rules::line::<300>))]
    pub title: Option<String>,
    /// Answers to the template's questions, by key.
    #[serde(default)]
    #[schema(value_type = Option<Object>)]
    pub variable_values: Option<serde_json::Value>,
    #[serde(default)]
    #[schema(value_type = Option<Object>)]
    pub facts: Option<serde_json::Value>,
    #[serde(default)]
    #[validate(nested)]
    pub send: Option<SendOptionsIn>,
    #[serde(default)]
    pub send_now: Option<bool>,
    #[serde(default)]
    pub embedded: Option<Vec<String>>,
}
