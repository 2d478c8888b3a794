//! Durable delivery. Two steps, both safe to run in several processes at once:
//!
//! - **Fan-out** claims queued `event` rows of the outbox and, in the same transaction, stores
//!   one message per subscribed endpoint of the event's workspace and mode. An event is either
//!   still queued or fully fanned out; never half.
//! - **Delivery** leases due messages (state `sending`, with `next_attempt_at` moved to the end
//!   of the lease, so one index finds both due and abandoned ones), posts them concurrently, and records
//!   every outcome in batches: the attempt row, the message's next try or its end, and the
//!   endpoint's health. A worker killed mid-flight leaves leases that run out, and the messages
//!   are delivered again with the same `webhook-id`: at least once, never lost.
//!
//! Retries follow `docs/architecture.md` (5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, each
//! ±10 %), later when the receiver's Retry-After asks for more (up to a day). A 410, or five
//! days of failure with no success in between, disables the endpoint and cancels what it still
//! had queued.
//!
//! Each step is a file: what is due (`due.rs`), fan-out (`fan_out.rs`), leases (`lease.rs`),
//! where a message goes (`targets.rs`), recording tries (`record.rs`), housekeeping
//! (`purge.rs`).

mod due;
mod fan_out;
mod lease;
mod purge;
mod record;
mod targets;

pub use due::{BATCH, DELIVERIES, DUE_PROBE};
pub use fan_out::{MAX_FANOUT_MESSAGES, fan_out};
pub use lease::{Claimed, claim, give_back, put_back, sweep};
pub use purge::purge;
pub use record::{Done, RETRIES, next_try, record};
pub use signet_queue::mark_done_sql;
pub use targets::{PER_ENDPOINT, Target, endpoints_of, post_one};
