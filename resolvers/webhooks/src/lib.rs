//! Webhooks: endpoints and their secrets, Standard Webhooks signatures, the fan-out of outbox
//! events into one message per subscribed endpoint, durable delivery with retries, the delivery
//! log and replay, and the relay that `signet listen` long-polls.

pub mod deliver;
pub mod endpoints;
pub mod guard;
pub mod relay;
pub mod rules;
pub mod secret;
pub mod send;
pub mod store;
pub mod topics;
pub mod types;
pub mod worker;

pub use endpoints::{create, delete, deliveries, list, replay, rotate, test_send};
pub use relay::relay;
pub use send::{Hooks, hooks};
pub use topics::{TOPICS, TopicOut, TopicsOut, is_topic, topics};
