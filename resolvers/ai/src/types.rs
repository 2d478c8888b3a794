//! Request and response types of the AI drafting routes, shared by REST and GraphQL.

use serde::{Deserialize, Serialize};
use serde_json::Value;

type Json = async_graphql::Json<Value>;

#[derive(
    Clone, Debug, Default, Deserialize, Serialize, utoipa::ToSchema, async_graphql::InputObject,
)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[graphql(name = "AiBriefPaymentInput")]
pub struct BriefPaymentIn {
    /// Whether a signer pays while signing.
    pub collect: Option<bool>,
    /// In the currency's major unit, as a string or number: `"49.99"`, `1200` (JPY).
    #[schema(value_type = Option<String>)]
    #[serde(default)]
    pub amount: Option<Json>,
    /// One of the wizard's currencies (`usd`).
    pub currency: Option<String>,
    /// The role word of the seat that pays.
    #[serde(rename = "payer_role", alias = "payerRole")]
    #[graphql(name = "payerRole")]
    pub payer_role: Option<String>,
    pub description: Option<String>,
    #[serde(rename = "schedule_note", alias = "scheduleNote")]
    #[graphql(name = "scheduleNote")]
    pub schedule_note: Option<String>,
}

#[derive(
    Clone, Debug, Default, Deserialize, Serialize, utoipa::ToSchema, async_graphql::InputObject,
)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[graphql(name = "AiBriefInput")]
pub struct BriefIn {
    /// The kind of document: one of the wizard's types (`nda`, `services`, ...) or a few
    /// words.
    #[serde(rename = "type")]
    #[graphql(name = "type")]
    pub doc_type: Option<String>,
    /// `document` or `template`; must agree with `mode` when both are given.
    pub kind: Option<String>,
    /// The wizard's other answers by question key: `parties` (role words, or objects with
    /// `role` and `label`), `terms`, `law`, ...
    #[schema(value_type = Option<Object>)]
    #[serde(default)]
    pub answers: Option<Json>,
    /// Last words from the person: what the draft must say or avoid.
    #[serde(rename = "final")]
    #[graphql(name = "final")]
    pub final_words: Option<String>,
    pub payment: Option<BriefPaymentIn>,
}

#[derive(
    Clone, Debug, Default, Deserialize, Serialize, utoipa::ToSchema, async_graphql::InputObject,
)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[graphql(name = "AiDraftInput")]
pub struct AiDraftIn {
    /// What to draft, in a person's words (up to 8,000 characters).
    pub prompt: Option<String>,
    /// The wizard's answers (GET /ai/wizard).
    pub brief: Option<BriefIn>,
    /// `document` (the default) or `template` (the words may ask questions).
    pub mode: Option<String>,
}

#[derive(
    Clone, Debug, Default, Deserialize, Serialize, utoipa::ToSchema, async_graphql::InputObject,
)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[graphql(name = "AiEditInput")]
pub struct AiEditIn {
    /// The change wanted, in a person's words (up to 8,000 characters).
    pub request: String,
    /// The words to change, in the source model (what POST /documents takes).
    #[schema(value_type = Object)]
    pub source: Json,
    /// `document` (the default) or `template`.
    pub mode: Option<String>,
    /// The template's questions to propose answers for: objects with `name` (the
    /// `custom.<key>` key), and optionally `label` and `value`.
    #[schema(value_type = Option<Vec<Object>>)]
    #[serde(default)]
    pub variables: Option<Vec<Json>>,
}

#[derive(Clone, Debug, Serialize, utoipa::ToSchema, async_graphql::SimpleObject)]
#[serde(rename_all = "camelCase")]
pub struct AiJobOut {
    /// `job_…`.
    pub id: String,
    /// `draft` or `edit`.
    pub kind: String,
    /// `queued`, `running`, `done`, `failed` or `cancelled`.
    pub state: String,
    /// `document` or `template`.
    pub mode: String,
    /// When `done` for a draft: the document's title.
    pub title: Option<String>,
    /// Why the job failed, in words a person can act on.
    pub reason: Option<String>,
    /// The problems the model's last answer still had, when it failed on them.
    pub problems: Vec<String>,
    /// When `done`: for a draft, the words in the source model, passing POST
    /// /documents/check; for an edit, the words given with every proposed change applied.
    #[schema(value_type = Option<Object>)]
    pub source: Option<Json>,
    /// When `done`: `notes` (what a person should check), and for an edit `applied` (the
    /// proposed changes) and `values` (proposed answers to the questions).
    pub patches: Option<AiPatchesOut>,
    /// The seats of a drafted source: role words and labels.
    pub seats: Vec<AiSeatOut>,
    pub usage: AiUsageOut,
    pub created_at: String,
    pub started_at: Option<String>,
    pub finished_at: Option<String>,
    /// For a play's tailoring (POST /drafts with `tailor`): the draft document the proposed
    /// changes are for; POST /documents/{id}/revise with the accepted words applies them.
    pub document_id: Option<String>,
}

#[derive(Clone, Debug, Serialize, utoipa::ToSchema, async_graphql::SimpleObject)]
#[serde(rename_all = "camelCase")]
pub struct AiSeatOut {
    pub role: String,
    pub label: String,
}

#[derive(Clone, Debug, Default, Serialize, utoipa::ToSchema, async_graphql::SimpleObject)]
#[serde(rename_all = "camelCase")]
pub struct AiUsageOut {
    pub provider: Option<String>,
    pub model: Option<String>,
    /// Tokens the model read, over every call.
    pub read: i64,
    /// Tokens the model wrote, over every call.
    pub written: i64,
    /// Calls made to the model (a repair round is a second).
    pub calls: i64,
    /// Time spent waiting for the model, in milliseconds.
    pub model_ms: i64,
}

#[derive(
    Clone, Debug, Default, Serialize, Deserialize, utoipa::ToSchema, async_graphql::SimpleObject,
)]
#[serde(rename_all = "camelCase")]
pub struct AiPatchesOut {
    pub notes: Vec<String>,
    pub applied: Vec<AiChangeOut>,
    pub values: Vec<AiValueOut>,
}

/// One proposed change to the given source's top-level blocks, applicable on its own.
#[derive(Clone, Debug, Serialize, Deserialize, utoipa::ToSchema, async_graphql::SimpleObject)]
#[serde(rename_all = "camelCase")]
pub struct AiChangeOut {
    /// `replace`, `insert_before`, `insert_after` or `delete`.
    pub op: String,
    /// The block it is about: `content[3]` of the source given.
    pub path: String,
    /// The block there now (null only for an insert into empty words).
    #[schema(value_type = Option<Object>)]
    pub was: Option<Json>,
    /// The blocks proposed in its place or beside it (empty for a delete).
    #[schema(value_type = Vec<Object>)]
    pub proposed: Vec<Json>,
    pub why: String,
}

#[derive(Clone, Debug, Serialize, Deserialize, utoipa::ToSchema, async_graphql::SimpleObject)]
#[serde(rename_all = "camelCase")]
pub struct AiValueOut {
    /// The question's key (`custom.<key>` without `custom.`).
    pub name: String,
    pub value: String,
    pub why: String,
}

#[derive(Clone, Debug, Serialize, utoipa::ToSchema, async_graphql::SimpleObject)]
#[serde(rename_all = "camelCase")]
pub struct WizardOut {
    /// The language of the words, the workspace's default unless `locale` asks another.
    pub locale: String,
    pub questions: Vec<WizardQuestionOut>,
    /// What a payment may be asked in, with the digits of each minor unit.
    pub currencies: Vec<CurrencyOut>,
}

#[derive(Clone, Debug, Serialize, utoipa::ToSchema, async_graphql::SimpleObject)]
#[serde(rename_all = "camelCase")]
pub struct WizardQuestionOut {
    /// Where the answer goes in `brief`: `type`, `kind`, `answers.parties`,
    /// `payment.amount`, `final`, ...
    pub key: String,
    pub ask: String,
    pub help: Option<String>,
    /// `choice`, `text`, `parties`, `yes_no`, `amount`, `currency` or `role`.
    pub answer: String,
    pub required: bool,
    pub options: Vec<WizardOptionOut>,
    /// Asked only when the answer at this key is true (`payment.collect`).
    pub when: Option<String>,
}

#[derive(Clone, Debug, Serialize, utoipa::ToSchema, async_graphql::SimpleObject)]
#[serde(rename_all = "camelCase")]
pub struct WizardOptionOut {
    pub value: String,
    pub label: String,
}

#[derive(Clone, Debug, Serialize, utoipa::ToSchema, async_graphql::SimpleObject)]
#[serde(rename_all = "camelCase")]
pub struct CurrencyOut {
    /// The currency's ISO 4217 letters in lower case, as the processor writes them (`eur`).
    pub currency: String,
    /// Digits after the point: 0 for JPY, 3 for KWD.
    pub decimals: i32,
    pub name: String,
}
