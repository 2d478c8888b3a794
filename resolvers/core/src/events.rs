//! An event for webhooks, as queued: the envelope every delivery carries, exactly as sent
//! (`id`, `type`, `createdAt`, `test`, `data`). Written by the transition that causes it, in
//! its transaction; fanned out into one message per subscribed endpoint by
//! `signet_webhooks::deliver`, which posts this JSON as the body.

use serde::{Deserialize, Serialize};

/// The webhook event job. Its fields are declared in the order they are serialised, which is
/// the order deliveries have always carried (alphabetical).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Event {
    #[serde(rename = "createdAt")]
    pub created_at: String,
    pub data: serde_json::Value,
    /// `evt_…`: the `webhook-id` of every delivery of it.
    pub id: String,
    pub test: bool,
    /// `documents.document.sent`, ...
    #[serde(rename = "type")]
    pub topic: String,
}

impl signet_queue::Job for Event {
    const KIND: &'static str = "event";
}
