//! The events an endpoint can subscribe to.

use serde::Serialize;

use signet_core::{Actor, DomainError, Scope};

pub const TOPICS: &[(&str, &str)] = &[
    (
        "documents.document.sent",
        "A document was sent for signature.",
    ),
    ("documents.document.opened", "A person opened the document."),
    ("documents.document.signed", "One person signed."),
    (
        "documents.document.executed",
        "Everyone signed and the sealed copy exists.",
    ),
    ("documents.document.declined", "A person declined to sign."),
    (
        "documents.document.expired",
        "The document expired before everyone signed.",
    ),
    (
        "documents.document.voided",
        "The sender voided the document.",
    ),
    (
        "documents.payment.updated",
        "A payment of the document was confirmed by the processor, refunded or disputed (an addition).",
    ),
];

#[derive(Clone, Debug, Serialize, utoipa::ToSchema, async_graphql::SimpleObject)]
#[serde(rename_all = "camelCase")]
pub struct TopicOut {
    /// The value to put in a webhook endpoint's `eventTypes`.
    pub name: String,
    pub description: String,
}

#[derive(Clone, Debug, Serialize, utoipa::ToSchema, async_graphql::SimpleObject)]
#[serde(rename_all = "camelCase")]
pub struct TopicsOut {
    pub topics: Vec<TopicOut>,
}

pub fn topics(actor: &Actor) -> Result<TopicsOut, DomainError> {
    actor.require(Scope::WebhooksRead)?;
    Ok(TopicsOut {
        topics: TOPICS
            .iter()
            .map(|(name, description)| TopicOut {
                name: name.to_string(),
                description: description.to_string(),
            })
            .collect(),
    })
}

pub fn is_topic(name: &str) -> bool {
    TOPICS.iter().any(|(t, _)| *t == name)
}
