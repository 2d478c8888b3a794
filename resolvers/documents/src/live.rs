//! What a live status subscription reads: the subscribers of one document share one read of
//! it per change, so a thousand subscribers of one document cost one read when it changes,
//! not a thousand.

use std::sync::Arc;
use std::time::{Duration, Instant};

use futures_util::FutureExt;
use futures_util::future::BoxFuture;

use super::services::services;
use super::types::DocumentOut;
use signet_core::live::Change;
use signet_core::{Actor, Ctx, DomainError};

/// How long a shared read is kept for subscribers that come to it late.
const READ_KEPT: Duration = Duration::from_secs(5);

/// The document as it is after `change`, read once for every subscriber of the change;
/// `actor` has already been shown the document (the subscription's first read).
pub async fn read_once(
    ctx: &Ctx,
    actor: &Actor,
    id: &str,
    change: &Change,
) -> Result<DocumentOut, DomainError> {
    let read = {
        let mut reads = services(ctx)
            .reads
            .0
            .lock()
            .unwrap_or_else(|p| p.into_inner());
        if reads.len() > 1024 {
            reads.retain(|_, (at, _)| at.elapsed() < READ_KEPT);
        }
        let key: (Arc<str>, u64) = (id.into(), change.seq);
        reads
            .entry(key)
            .or_insert_with(|| {
                let (c, a, id) = (ctx.clone(), actor.clone(), id.to_string());
                let read: BoxFuture<'static, Result<DocumentOut, DomainError>> =
                    async move { crate::get(&c, &a, &id).await }.boxed();
                (Instant::now(), read.shared())
            })
            .1
            .clone()
    };
    read.await
}
