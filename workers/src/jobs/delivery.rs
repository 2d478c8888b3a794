//! Webhook delivery keeps a loop of its own (`webhooks::deliver::run`): it is not one row per
//! job but a fan-out of events into deliveries and a pool of deliveries in flight, each
//! recorded as it ends, so it does not fit a pass. It shares the outbox, the leases and the
//! at-least-once rule with the others.

use signet_core::Ctx;
use signet_webhooks::deliver::{self, WorkerConfig};

pub async fn deliver(
    ctx: Ctx,
    config: WorkerConfig,
    stop: tokio::sync::watch::Receiver<bool>,
    leased: deliver::Leased,
) {
    deliver::run(ctx, config, stop, leased).await;
}
