//! Request and response types of the plays, playbooks and drafts routes, shared by REST and
//! GraphQL.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;
use signet_documents::types::{DocumentOut, PersonIn};

#[derive(Clone, Debug, Deserialize, Serialize, utoipa::ToSchema, async_graphql::InputObject)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[graphql(name = "PlaySourceInput")]
pub struct PlaySourceIn {
    /// The play file: a YAML header between two `---` lines, then the words in Markdown
    /// (docs/plays.md). At most 256 KB.
    pub source: String,
}

#[derive(Clone, Debug, Deserialize, Serialize, utoipa::ToSchema, async_graphql::InputObject)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[graphql(name = "PlayPublishInput")]
pub struct PlayPublishIn {
    /// The version drafts will use from now on.
    pub version: i64,
}

#[derive(Clone, Debug, Deserialize, Serialize, utoipa::ToSchema, async_graphql::InputObject)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[graphql(name = "PlayDuplicateInput")]
pub struct PlayDuplicateIn {
    /// The new play's name: 2 to 64 lower-case letters, digits, `-` and `_`, starting with a
    /// letter.
    #[serde(rename = "as")]
    #[graphql(name = "as")]
    pub as_name: String,
}

#[derive(Clone, Debug, Serialize, utoipa::ToSchema, async_graphql::SimpleObject)]
#[serde(rename_all = "camelCase")]
pub struct PlaySeatOut {
    /// The role word people of this seat are given.
    pub role: String,
    pub label: String,
    pub order: Option<i64>,
}

#[derive(Clone, Debug, Serialize, utoipa::ToSchema, async_graphql::SimpleObject)]
#[serde(rename_all = "camelCase")]
pub struct PlayOptionOut {
    pub value: String,
    pub label: String,
}

#[derive(Clone, Debug, Serialize, utoipa::ToSchema, async_graphql::SimpleObject)]
#[serde(rename_all = "camelCase")]
pub struct PlayConditionOut {
    /// An earlier question's id.
    pub question: String,
    /// The values, any of which it must hold.
    pub values: Vec<String>,
}

#[derive(Clone, Debug, Serialize, utoipa::ToSchema, async_graphql::SimpleObject)]
#[serde(rename_all = "camelCase")]
pub struct PlayQuestionOut {
    pub id: String,
    /// The question as a person reads it.
    pub ask: String,
    /// 2 to 4.
    pub options: Vec<PlayOptionOut>,
    pub default: Option<String>,
    /// Asked only when all of these hold.
    pub when: Vec<PlayConditionOut>,
}

#[derive(Clone, Debug, Serialize, utoipa::ToSchema, async_graphql::SimpleObject)]
#[serde(rename_all = "camelCase")]
pub struct PlaySummaryOut {
    pub name: String,
    pub title: String,
    /// One line.
    pub description: String,
    /// `document` or `template`.
    pub kind: String,
    pub category: String,
    pub language: String,
    /// Shipped with Signet, the same for every workspace; duplicate it to change it.
    pub built_in: bool,
    /// The version drafts use.
    pub version: i64,
}

#[derive(Clone, Debug, Serialize, utoipa::ToSchema, async_graphql::SimpleObject)]
#[serde(rename_all = "camelCase")]
pub struct PlayListOut {
    /// Built-in plays first, then the workspace's published ones, each by name.
    pub data: Vec<PlaySummaryOut>,
}

#[derive(Clone, Debug, Serialize, utoipa::ToSchema, async_graphql::SimpleObject)]
#[serde(rename_all = "camelCase")]
pub struct PlayVersionOut {
    pub version: i64,
    pub title: String,
    pub created_at: String,
    /// Who saved it: a key's id or a person's; `signet` for a built-in play.
    pub created_by: String,
}

#[derive(Clone, Debug, Serialize, utoipa::ToSchema, async_graphql::SimpleObject)]
#[serde(rename_all = "camelCase")]
pub struct PlayOut {
    pub name: String,
    pub built_in: bool,
    /// Archived plays are not listed and cannot be drafted from.
    pub archived: bool,
    /// The version drafts use; null until one is published.
    pub published: Option<i64>,
    /// The newest version.
    pub latest: i64,
    /// Every version kept, newest first.
    pub versions: Vec<PlayVersionOut>,
    /// The version shown below: the one just saved, else the published one, else the newest.
    pub version: i64,
    pub title: String,
    pub description: String,
    pub kind: String,
    pub category: String,
    pub language: String,
    pub seats: Vec<PlaySeatOut>,
    pub questions: Vec<PlayQuestionOut>,
    /// That version's file, as written.
    pub source: String,
}

#[derive(Clone, Debug, Serialize, utoipa::ToSchema, async_graphql::SimpleObject)]
#[serde(rename_all = "camelCase")]
pub struct PlayProblemOut {
    /// The header's key (`questions[2].options`), `body` for the words, `file` for the file
    /// as a whole, `words` for what the document check found in the words drafted with every
    /// default.
    pub key: String,
    /// 1-based.
    pub line: i64,
    /// 1-based.
    pub column: i64,
    /// What is wrong.
    pub message: String,
    /// How to mend it.
    pub hint: String,
}

#[derive(Clone, Debug, Serialize, utoipa::ToSchema, async_graphql::SimpleObject)]
#[serde(rename_all = "camelCase")]
pub struct PlayTestOut {
    /// True when the play can be saved and drafted from as it is.
    pub ok: bool,
    /// Every problem, in the file's order.
    pub problems: Vec<PlayProblemOut>,
    /// What the document check would warn a sender about in the words drafted with every
    /// default.
    pub warnings: Vec<PlayProblemOut>,
    /// The header as far as it could be read.
    pub name: String,
    pub title: String,
    pub seats: Vec<PlaySeatOut>,
    /// The questions as a person meets them taking every default (the first option where a
    /// question has none): rounds of at most four.
    pub rounds: Vec<Vec<PlayQuestionOut>>,
    /// The answers of that walk.
    pub answers: BTreeMap<String, String>,
    /// The words drafted with those answers, in the source model (what POST /documents
    /// takes); null when the file could not be read.
    #[schema(value_type = Option<Object>)]
    pub preview: Option<async_graphql::Json<Value>>,
}

#[derive(Clone, Debug, Deserialize, Serialize, utoipa::ToSchema, async_graphql::InputObject)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[graphql(name = "PlaybookInput")]
pub struct PlaybookIn {
    /// 2 to 64 lower-case letters, digits, `-` and `_`, starting with a letter. Saving a name
    /// again replaces that playbook.
    pub name: String,
    /// Up to 120 characters.
    pub title: String,
    /// 1 to 20 play names, each built in or the workspace's (not archived), in the order
    /// Scribe offers them.
    pub plays: Vec<String>,
    /// One line, up to 200 characters.
    #[serde(default)]
    pub description: Option<String>,
}

#[derive(Clone, Debug, Serialize, utoipa::ToSchema, async_graphql::SimpleObject)]
#[serde(rename_all = "camelCase")]
pub struct PlaybookOut {
    pub name: String,
    pub title: String,
    pub description: Option<String>,
    pub plays: Vec<String>,
    pub created_at: String,
    pub updated_at: String,
}

#[derive(Clone, Debug, Serialize, utoipa::ToSchema, async_graphql::SimpleObject)]
#[serde(rename_all = "camelCase")]
pub struct PlaybookListOut {
    /// By name.
    pub data: Vec<PlaybookOut>,
}

#[derive(Clone, Debug, Deserialize, Serialize, utoipa::ToSchema, async_graphql::InputObject)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[graphql(name = "DraftInput")]
pub struct DraftIn {
    /// The play's name: built in, or the workspace's published one.
    pub play: String,
    /// One person or more for each seat of the play (`role` is the seat's role word), with the
    /// fields of POST /documents' people.
    pub people: Vec<PersonIn>,
    /// The draft's title; the play's title when left out.
    #[serde(default)]
    pub title: Option<String>,
    /// Answers given at once: question id to option value.
    #[serde(default)]
    #[schema(value_type = Option<Object>)]
    pub answers: Option<async_graphql::Json<Value>>,
    /// Answer every question that has a default with it.
    #[serde(default)]
    pub use_defaults: Option<bool>,
    /// Once the draft is made, start an AI job that proposes tailoring its words as the
    /// play's guidance says (`tailoring`). Needs AI drafting on and `documents:write`.
    #[serde(default)]
    pub tailor: Option<bool>,
}

#[derive(Clone, Debug, Deserialize, Serialize, utoipa::ToSchema, async_graphql::InputObject)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[graphql(name = "DraftAnswersInput")]
pub struct DraftAnswersIn {
    /// Question id to option value.
    #[schema(value_type = Object)]
    pub answers: async_graphql::Json<Value>,
    #[serde(default)]
    pub use_defaults: Option<bool>,
    /// As POST /drafts' `tailor`; asked once, it stays asked.
    #[serde(default)]
    pub tailor: Option<bool>,
}

#[derive(Clone, Debug, Serialize, utoipa::ToSchema, async_graphql::SimpleObject)]
#[serde(rename_all = "camelCase")]
pub struct DraftOut {
    /// `needs_input` (answer `questions` with POST /drafts/{draftRef}/answers) or `draft`
    /// (`documentId` is the new draft document: read it, revise it, send it).
    pub status: String,
    /// Kept 24 hours from the first request.
    pub draft_ref: String,
    pub play: String,
    /// The play's version the draft is made from, fixed at the first request.
    pub version: i64,
    /// The next questions: up to 4, each with 2 to 4 options. Empty once drafted.
    pub questions: Vec<PlayQuestionOut>,
    /// Every answer so far, defaults taken included.
    pub answers: BTreeMap<String, String>,
    pub expires_at: String,
    /// The draft document, once made.
    pub document_id: Option<String>,
    pub document: Option<DocumentOut>,
    /// With `tailor`, once drafted: the AI job proposing changes to the draft's words as the
    /// play's guidance says (poll GET /documents/ai/jobs/{id}). The draft itself is as the
    /// play makes it; nothing changes until the caller revises it with what it accepts.
    pub tailoring: Option<signet_ai::types::AiJobOut>,
    /// With `tailor`, when the job could not start after the draft was made (a limit reached
    /// meanwhile): why. The same request again starts it.
    pub tailoring_refused: Option<String>,
}
