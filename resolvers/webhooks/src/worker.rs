//! Webhook delivery as the one queue's pool: events fanned out into messages, messages leased
//! and posted concurrently, each recorded as it ends (`deliver`). The runner that keeps the
//! slots, the shares and the leases is `signet-workers`'s pool.

use std::collections::BTreeMap;

use signet_core::jobs::{Leased, Pool};
use signet_core::{Ctx, DomainError};

use crate::deliver::{self, Claimed, Done, Target};

/// Delivers webhook messages.
pub struct Deliveries;

#[async_trait::async_trait]
impl Pool for Deliveries {
    const NAME: &'static str = "webhook delivery";
    const WAKE: &'static str = <signet_core::events::Event as signet_queue::Job>::KIND;
    const BATCH: usize = deliver::BATCH;
    const PER_NARROW: usize = deliver::PER_ENDPOINT;
    type Item = (Claimed, Target);
    type Done = Done;

    async fn prepare(ctx: &Ctx) -> Result<usize, DomainError> {
        deliver::fan_out(ctx).await
    }

    async fn lease(
        ctx: &Ctx,
        n: usize,
        lease_ms: i64,
        skip: &[String],
    ) -> Result<Vec<Leased<Self::Item>>, DomainError> {
        let mut claimed = deliver::claim(ctx, n, lease_ms, skip).await?;
        // On an error their leases run out and they are taken again: nothing is lost.
        let endpoints = deliver::endpoints_of(ctx, &mut claimed).await?;
        Ok(claimed
            .into_iter()
            .filter_map(|m| {
                let target = endpoints.get(&m.endpoint_id)?.clone();
                Some(Leased {
                    id: m.id.clone(),
                    until: m.lease_until,
                    narrow: m.endpoint_id.clone(),
                    wide: target.workspace.clone(),
                    item: (m, target),
                })
            })
            .collect())
    }

    async fn run_one(ctx: &Ctx, item: Self::Item) -> Self::Done {
        let (m, t) = item;
        let outcome = deliver::post_one(crate::send::hooks(ctx), &t.url, &t.secrets, &m).await;
        Done {
            message: m,
            outcome,
            at: ctx.now(),
        }
    }

    fn id_of(done: &Self::Done) -> &str {
        &done.message.id
    }

    async fn record(ctx: &Ctx, done: &[Self::Done]) -> Result<(), DomainError> {
        deliver::record(ctx, done).await
    }

    async fn put_back(ctx: &Ctx, ids: &[String]) -> Result<(), DomainError> {
        deliver::put_back(ctx, ids).await
    }

    async fn sweep(ctx: &Ctx) -> Result<(), DomainError> {
        deliver::sweep(ctx).await
    }

    async fn give_back(ctx: &Ctx, held: BTreeMap<String, i64>) -> Result<u64, DomainError> {
        deliver::give_back(ctx, held).await
    }
}
