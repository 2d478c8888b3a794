//! Request and response types of the webhook routes, shared by REST and GraphQL.

use serde::{Deserialize, Serialize};
use signet_core::rules::Validate;

use super::rules;

use signet_core::page::PageInfo;

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
#[graphql(name = "WebhookCreateInput")]
pub struct WebhookCreateIn {
    /// Topics from GET /webhooks/topics; at least one.
    #[validate(custom(function = rules::event_types))]
    pub event_types: Vec<String>,
    /// A public https address. Leave out when `relay` is true.
    pub url: Option<String>,
    /// Keep signed deliveries for `signet listen` instead of posting them.
    pub relay: Option<bool>,
    /// A name to tell endpoints apart, up to 200 characters.
    #[validate(custom(function = rules::endpoint_name))]
    pub name: Option<String>,
}

#[derive(Clone, Debug, Default, Deserialize, Serialize, Validate, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct WebhookRotateIn {
    /// Hours during which the old secret still signs too: 0 to 720, default 24.
    #[validate(custom(function = rules::window_hours))]
    pub window_hours: Option<i64>,
}

#[derive(Clone, Debug, Default, Deserialize, Serialize, Validate, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct WebhookTestIn {
    /// The topic of the sample event; default the endpoint's first event type.
    #[validate(custom(function = rules::topic))]
    pub topic: Option<String>,
}

#[derive(Clone, Debug, Serialize, utoipa::ToSchema, async_graphql::SimpleObject)]
#[serde(rename_all = "camelCase")]
pub struct WebhookOut {
    pub id: String,
    /// Where deliveries are posted; null for a relay endpoint.
    pub url: Option<String>,
    pub relay: bool,
    pub name: Option<String>,
    pub event_types: Vec<String>,
    /// `enabled`, `disabled` (after a 410 or 5 days of unbroken failure) or `deleted`.
    pub state: String,
    /// Why the endpoint was disabled.
    pub disabled_reason: Option<String>,
    /// True for an endpoint of a test key: it receives events of test documents only.
    pub test: bool,
    pub created_at: String,
    /// Only in the answers of create and rotate: shown once, never again.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub secret: Option<String>,
    /// While a rotation window is open: when the previous secret stops signing.
    pub previous_secret_expires_at: Option<String>,
}

#[derive(Clone, Debug, Serialize, utoipa::ToSchema, async_graphql::SimpleObject)]
#[serde(rename_all = "camelCase")]
pub struct WebhookPageOut {
    pub data: Vec<WebhookOut>,
    pub page: PageInfo,
}

#[derive(Clone, Debug, Serialize, utoipa::ToSchema, async_graphql::SimpleObject)]
#[serde(rename_all = "camelCase")]
pub struct WebhookTestOut {
    /// True when the receiver answered 2xx within 15 seconds.
    pub delivered: bool,
    /// True for a relay endpoint: the sample was put in its relay feed instead.
    pub relayed: bool,
    /// The receiver's HTTP status, when it answered.
    pub response_status: Option<i32>,
    /// What happened, in words: `200 OK`, `timed out after 15 s`, a refused address...
    pub result: String,
    pub duration_ms: i64,
    /// The sample's `webhook-id`.
    pub webhook_id: String,
}

/// One attempt to deliver one event to one endpoint.
#[derive(Clone, Debug, Serialize, utoipa::ToSchema, async_graphql::SimpleObject)]
#[serde(rename_all = "camelCase")]
pub struct DeliveryAttemptOut {
    pub id: String,
    /// The delivery (one event to this endpoint) the attempt belongs to; replay takes it.
    pub delivery_id: String,
    /// The `webhook-id` header, the same on every try and replay of the event.
    pub webhook_id: String,
    pub event_type: String,
    /// Which try this was: 1 for the first.
    #[serde(rename = "try")]
    #[graphql(name = "try")]
    pub try_number: i32,
    pub succeeded: bool,
    pub response_status: Option<i32>,
    pub result: String,
    pub duration_ms: i64,
    pub created_at: String,
}

#[derive(Clone, Debug, Serialize, utoipa::ToSchema, async_graphql::SimpleObject)]
#[serde(rename_all = "camelCase")]
pub struct DeliveryAttemptsOut {
    /// The last 50 attempts, newest first.
    pub data: Vec<DeliveryAttemptOut>,
}

/// A delivery queued again by a replay.
#[derive(Clone, Debug, Serialize, utoipa::ToSchema, async_graphql::SimpleObject)]
#[serde(rename_all = "camelCase")]
pub struct DeliveryOut {
    pub id: String,
    pub webhook_id: String,
    pub event_type: String,
    /// `pending` (waiting for its next try), `sending`, `delivered`, `failed` (gave up),
    /// `cancelled` (the endpoint was removed or disabled), or `stored`
    /// (waiting in a relay feed).
    pub state: String,
    pub replay: bool,
    pub created_at: String,
}

/// A stored delivery of a relay endpoint, ready to forward.
#[derive(Clone, Debug, Serialize, utoipa::ToSchema, async_graphql::SimpleObject)]
#[serde(rename_all = "camelCase")]
pub struct RelayItemOut {
    /// Pass as `after` to get what came later.
    pub id: String,
    pub webhook_id: String,
    pub event_type: String,
    pub created_at: String,
    /// The exact headers to forward; signed when fetched, so the timestamp is fresh.
    pub headers: Vec<HeaderOut>,
    /// The exact body to forward.
    pub body: String,
}

#[derive(Clone, Debug, Serialize, utoipa::ToSchema, async_graphql::SimpleObject)]
pub struct HeaderOut {
    pub name: String,
    pub value: String,
}

#[derive(Clone, Debug, Serialize, utoipa::ToSchema, async_graphql::SimpleObject)]
#[serde(rename_all = "camelCase")]
pub struct RelayOut {
    /// Oldest first.
    pub data: Vec<RelayItemOut>,
    /// The id to pass as `after` next time (the last item's, or `after` again when empty).
    pub next_after: Option<String>,
}
