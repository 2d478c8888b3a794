//! Request and response types of the document routes, shared by REST and GraphQL.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;
use signet_core::rules::{self, Validate};

#[derive(
    Clone,
    Debug,
    Default,
    Deserialize,
    Serialize,
    Validate,
    utoipa::ToSchema,
    async_graphql::InputObject,
)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[graphql(name = "PersonInput")]
pub struct PersonIn {
    /// Full name, printed under the person's signature.
    #[validate(custom(function = rules::line::<200>))]
    pub name: String,
    #[validate(custom(function = rules::email))]
    pub email: String,
    /// The role word of the text this person takes (their seat); `signer_<n>` when left out,
    /// n counting from 1 in the order of `people`.
    #[serde(default)]
    #[validate(custom(function = crate::rules::role))]
    pub role: Option<String>,
    /// `sign` (default), `approve` (reads and approves, no signature needed) or `cc` (receives
    /// the finished copy).
    #[serde(default)]
    #[validate(custom(function = crate::rules::action))]
    pub action: Option<String>,
    /// Signing order when `send.signingOrder` is true: lowest first, equal orders together.
    #[serde(default)]
    #[schema(minimum = 1, maximum = 100)]
    #[validate(range(min = 1, max = 100, message = "must be from 1 to 100"))]
    pub order: Option<i64>,
    #[serde(default)]
    #[validate(custom(function = rules::blank_or_line::<200>))]
    pub external_id: Option<String>,
    #[serde(default)]
    #[schema(value_type = Option<Object>)]
    pub metadata: Option<Value>,
    /// The language of this person's emails (one of `send.language`'s codes); else the
    /// document's `email.locale`, `send.language`, the workspace's default, English.
    #[serde(default)]
    #[validate(custom(function = rules::blank_or_language))]
    pub locale: Option<String>,
    /// A code the sender gives this person outside Signet (4 to 64 characters); the signing
    /// page asks for it before it shows the document. Kept only as a salted keyed hash and
    /// never returned: a read shows `checks` instead.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[validate(custom(function = crate::rules::access_code))]
    pub access_code: Option<String>,
    /// Whether the signing page first emails this person a one-time code (6 digits, valid 10
    /// minutes) and asks for it.
    #[serde(default)]
    pub email_code: Option<bool>,
    /// The stored hash of an access code, carried when a stored person is read back (a
    /// revised draft keeps it); never part of a request or an answer.
    #[serde(skip)]
    #[schema(ignore)]
    #[graphql(skip)]
    pub kept_access_code: Option<String>,
    /// Whether a stored person was sent as embedded (see `DocumentCreateIn::embedded`).
    #[serde(skip)]
    #[schema(ignore)]
    #[graphql(skip)]
    pub kept_embedded: bool,
}

impl PersonIn {
    /// Someone in a seat for a check made before the real people are known (a play's dry
    /// run, an AI job's outcome): the seat's label as the name, an address at example.com.
    pub fn stand_in(role: &str, label: &str, order: Option<i64>) -> PersonIn {
        PersonIn {
            name: if label.is_empty() { role } else { label }.to_string(),
            email: format!("{}@example.com", role.to_lowercase()),
            role: Some(role.to_string()),
            order,
            ..Default::default()
        }
    }
}

/// Sending options.
#[derive(
    Clone,
    Debug,
    Default,
    Deserialize,
    Serialize,
    Validate,
    utoipa::ToSchema,
    async_graphql::InputObject,
)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[graphql(name = "SendOptionsInput")]
pub struct SendOptionsIn {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[validate(custom(function = rules::email))]
    pub reply_to: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[validate(custom(function = rules::blank_or_line::<200>))]
    pub sender_name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[validate(custom(function = rules::blank_or_line::<300>))]
    pub subject: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[validate(custom(function = rules::blank_or_text::<5000>))]
    pub message: Option<String>,
    /// Days after sending when the document expires (1 to 365).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(minimum = 1, maximum = 365)]
    #[validate(range(min = 1, max = 365, message = "must be from 1 to 365"))]
    pub expiry_days: Option<i64>,
    /// Days after sending on which people still up are reminded (each 1 to 365).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[validate(length(max = 10, message = "holds at most 10 days"), custom(function = rules::each_in::<1, 365>))]
    pub reminder_days: Option<Vec<i64>>,
    /// Invite people by `order`: lowest first, equal orders in parallel.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub signing_order: Option<bool>,
    /// One of en, es, fr, de, pt, it, nl, pl, tr, ru, ar, ja, zh, ko.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[validate(custom(function = rules::language))]
    pub language: Option<String>,
    /// Kept with the document, never shown to a signer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[validate(custom(function = rules::blank_or_text::<5000>))]
    pub internal_note: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub require_decline_reason: Option<bool>,
}

/// Custom wording for the emails about this document.
#[derive(
    Clone,
    Debug,
    Default,
    Deserialize,
    Serialize,
    Validate,
    utoipa::ToSchema,
    async_graphql::InputObject,
)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[graphql(name = "EmailOptionsInput")]
pub struct EmailOptionsIn {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[validate(custom(function = rules::blank_or_line::<300>))]
    pub subject: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[validate(custom(function = rules::blank_or_text::<5000>))]
    pub message: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[validate(custom(function = rules::email))]
    pub reply_to: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[validate(custom(function = rules::blank_or_line::<200>))]
    pub sender_name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[validate(custom(function = rules::language))]
    pub locale: Option<String>,
}

#[derive(
    Clone,
    Debug,
    Default,
    Deserialize,
    Serialize,
    Validate,
    utoipa::ToSchema,
    async_graphql::InputObject,
)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[graphql(name = "DocumentCreateInput")]
pub struct DocumentCreateIn {
    #[schema(min_length = 1, max_length = 300)]
    #[validate(custom(function = rules::line::<300>))]
    pub title: String,
    /// The rich-text source: `{"type": "doc", "content": [...]}`.
    #[schema(value_type = Object)]
    pub source: Value,
    // Each person's rules are checked on their own (`input::people`), so a check lists one
    // problem per person.
    pub people: Vec<PersonIn>,
    #[serde(default)]
    #[validate(nested)]
    pub email: Option<EmailOptionsIn>,
    #[serde(default)]
    #[schema(value_type = Option<Object>)]
    pub metadata: Option<Value>,
    #[serde(default)]
    #[validate(custom(function = rules::blank_or_line::<200>))]
    pub external_id: Option<String>,
    /// Merge facts: `{"org": {"name": "..."}}` or `{"org.name": "..."}`.
    #[serde(default)]
    #[schema(value_type = Option<Object>)]
    pub facts: Option<Value>,
    /// Answers to `custom.<key>` chips, by key.
    #[serde(default)]
    #[schema(value_type = Option<Object>)]
    pub variable_values: Option<Value>,
    /// `letter` (default) or `a4`.
    #[serde(default)]
    pub paper: Option<String>,
    /// `typeset` (default) or `contract`.
    #[serde(default)]
    pub profile: Option<String>,
    #[serde(default)]
    #[validate(nested)]
    pub send: Option<SendOptionsIn>,
    #[serde(default)]
    #[validate(custom(function = rules::blank_or_text::<2000>))]
    pub description: Option<String>,
    #[serde(default)]
    pub send_now: Option<bool>,
    /// Seats signed inside the caller's own app (`POST /documents/{id}/embed-session`):
    /// nobody emails them.
    #[serde(default)]
    pub embedded: Option<Vec<String>>,
    /// The template and version a document is made from (set by the template routes, never
    /// by a request).
    #[serde(skip)]
    #[schema(ignore)]
    #[graphql(skip)]
    pub from_template: Option<(String, i64)>,
}

#[derive(Clone, Debug, Deserialize, utoipa::ToSchema, async_graphql::InputObject)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[graphql(name = "DocumentCheckInput")]
pub struct DocumentCheckIn {
    #[schema(value_type = Object)]
    pub source: Value,
    #[serde(default)]
    #[schema(value_type = Option<Object>)]
    pub facts: Option<Value>,
    #[serde(default)]
    pub people: Option<Vec<PersonIn>>,
    #[serde(default)]
    #[schema(value_type = Option<Object>)]
    pub variable_values: Option<Value>,
    #[serde(default)]
    pub require_signature: Option<bool>,
    #[serde(default)]
    pub for_template: Option<bool>,
}

#[derive(Clone, Debug, Deserialize, utoipa::ToSchema, async_graphql::InputObject)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[graphql(name = "DocumentReviseInput")]
pub struct DocumentReviseIn {
    #[schema(value_type = Object)]
    pub source: Value,
    #[serde(default)]
    #[schema(value_type = Option<Object>)]
    pub facts: Option<Value>,
    #[serde(default)]
    #[schema(value_type = Option<Object>)]
    pub variable_values: Option<Value>,
    /// Old role word to new role word, applied to the people's seats.
    #[serde(default)]
    pub role_map: Option<BTreeMap<String, String>>,
}

#[derive(Clone, Debug, Default, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RemindIn {
    /// Remind only this seat; omit to remind everyone who is up.
    #[serde(default)]
    pub seat: Option<String>,
}

#[derive(Clone, Debug, Default, Deserialize, Serialize, Validate, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct VoidIn {
    #[serde(default)]
    #[validate(custom(function = rules::blank_or_text::<1000>))]
    pub reason: Option<String>,
}

#[derive(Clone, Debug, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TestSignIn {
    pub seat: String,
}

#[derive(Clone, Debug, Default, Deserialize)]
pub struct ListFilter {
    pub state: Option<String>,
    pub external_id: Option<String>,
    pub metadata: Vec<(String, String)>,
    pub limit: Option<i64>,
    pub cursor: Option<String>,
}

#[derive(Clone, Debug, Serialize, utoipa::ToSchema, async_graphql::SimpleObject)]
#[serde(rename_all = "camelCase")]
pub struct PersonOut {
    pub id: String,
    pub seat: String,
    pub name: String,
    pub email: String,
    /// `sign`, `approve` or `cc`.
    pub action: String,
    pub order: i64,
    /// `waiting` (not their turn), `invited`, `opened`, `signed` or `declined`.
    pub status: String,
    pub external_id: Option<String>,
    pub metadata: BTreeMap<String, String>,
    pub invited_at: Option<String>,
    pub opened_at: Option<String>,
    pub signed_at: Option<String>,
    pub declined_at: Option<String>,
    /// The language of this person's emails, when it was given for them.
    pub locale: Option<String>,
    /// What the signing page asks of this person before it shows the document:
    /// `accessCode`, `emailCode`. The codes themselves are never returned.
    pub checks: Vec<String>,
    /// Signed inside the caller's own app: nobody emails this person.
    pub embedded: bool,
}

pub use signet_payments::PaymentOut;

#[derive(Clone, Debug, Serialize, utoipa::ToSchema, async_graphql::SimpleObject)]
#[serde(rename_all = "camelCase")]
pub struct DocumentOut {
    pub id: String,
    /// `draft`, `sent`, `opened`, `signed`, `executed`, `declined`, `expired` or `voided`.
    pub state: String,
    pub test: bool,
    pub title: String,
    pub description: Option<String>,
    pub external_id: Option<String>,
    pub metadata: BTreeMap<String, String>,
    pub payments: Vec<PaymentOut>,
    /// Where each person is.
    pub people: Vec<PersonOut>,
    pub paper: String,
    pub page_count: Option<i64>,
    pub created_at: String,
    pub updated_at: String,
    pub sent_at: Option<String>,
    pub completed_at: Option<String>,
    pub expires_at: Option<String>,
    /// Why it was voided or declined, when a reason was given.
    pub reason: Option<String>,
    /// The approval a draft-only key's send filed, while a person has not decided it.
    pub approval: Option<ApprovalOut>,
    /// The template the document was made from, and its version.
    pub template_id: Option<String>,
    pub template_version: Option<i64>,
}

#[derive(Clone, Debug, Serialize, utoipa::ToSchema, async_graphql::SimpleObject)]
#[serde(rename_all = "camelCase")]
pub struct DocumentPageOut {
    pub data: Vec<DocumentOut>,
    pub page: signet_core::page::PageInfo,
}

#[derive(Clone, Debug, Serialize, utoipa::ToSchema, async_graphql::SimpleObject)]
#[serde(rename_all = "camelCase")]
pub struct CheckItemOut {
    /// Where in the request: `source.content[3].attrs.role`.
    pub path: String,
    pub message: String,
}

#[derive(Clone, Debug, Serialize, utoipa::ToSchema, async_graphql::SimpleObject)]
#[serde(rename_all = "camelCase")]
pub struct CheckFieldOut {
    pub name: String,
    #[serde(rename = "type")]
    #[graphql(name = "type")]
    pub field_type: String,
    pub role: String,
    pub required: bool,
}

#[derive(Clone, Debug, Serialize, utoipa::ToSchema, async_graphql::SimpleObject)]
#[serde(rename_all = "camelCase")]
pub struct CheckOut {
    /// True when nothing blocks making and sending the document.
    pub ok: bool,
    pub problems: Vec<CheckItemOut>,
    pub warnings: Vec<CheckItemOut>,
    /// The role words of the text: the seats people take.
    pub roles: Vec<String>,
    pub fields: Vec<CheckFieldOut>,
    /// `custom.<key>` chips of the text (a template's questions), without the prefix.
    pub questions: Vec<String>,
}

#[derive(Clone, Debug, Serialize, utoipa::ToSchema, async_graphql::SimpleObject)]
#[serde(rename_all = "camelCase")]
pub struct DocumentSourceOut {
    pub id: String,
    pub title: String,
    pub description: Option<String>,
    #[schema(value_type = Object)]
    pub source: async_graphql::Json<Value>,
    #[schema(value_type = Vec<Object>)]
    pub people: async_graphql::Json<Vec<PersonIn>>,
    pub facts: BTreeMap<String, String>,
    pub variable_values: BTreeMap<String, String>,
    pub paper: String,
    pub profile: String,
    #[schema(value_type = Object)]
    pub send: async_graphql::Json<SendOptionsIn>,
    #[schema(value_type = Object)]
    pub email: async_graphql::Json<EmailOptionsIn>,
    pub external_id: Option<String>,
    pub metadata: BTreeMap<String, String>,
}

#[derive(Clone, Debug, Serialize, utoipa::ToSchema, async_graphql::SimpleObject)]
#[serde(rename_all = "camelCase")]
pub struct ApprovalOut {
    pub id: String,
    /// The draft whose send waits; `null` for a template's approval.
    pub document_id: Option<String>,
    /// The template that waits to be listed for sending, for a template's approval.
    pub template_id: Option<String>,
    /// `pending`, `approved`, `declined`, or `withdrawn` (a key allowed to send sent the draft).
    pub state: String,
    pub created_at: String,
    pub decided_at: Option<String>,
    pub note: Option<String>,
}

#[derive(Clone, Debug, Serialize, utoipa::ToSchema, async_graphql::SimpleObject)]
#[serde(rename_all = "camelCase")]
pub struct ApprovalPageOut {
    pub data: Vec<ApprovalOut>,
    pub page: signet_core::page::PageInfo,
}

/// One row of a document's audit trail, as the CSV and GraphQL show it.
#[derive(Clone, Debug, Serialize, utoipa::ToSchema, async_graphql::SimpleObject)]
#[serde(rename_all = "camelCase")]
pub struct AuditEventOut {
    /// The row's place in the trail, from 1: pass the last one seen as `after` for the next page.
    pub seq: i64,
    /// RFC 3339, UTC.
    pub time: String,
    pub event: String,
    pub description: String,
    /// `Name <email> (seat)` when the row is about a person.
    pub person: Option<String>,
    pub document: String,
    /// The row's details as JSON text.
    pub detail: String,
    /// This row's link in the hash chain.
    pub hash: String,
}
