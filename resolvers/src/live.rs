//! Live document status for `subscription documentStatus(id)`. Every committed change publishes
//! the document's id; subscribers re-read the document and push it. In one process a broadcast
//! channel carries the ids; with Redis, `signet-storage`'s pub/sub relays them between
//! processes into the same channel, so a subscriber sees changes made by any server.
//!
//! Each change is numbered as it arrives in this process, and the subscribers of one document
//! share one read of it per change (`read_once`): a thousand subscribers of one document cost
//! one read when it changes, not a thousand.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use futures_util::FutureExt;
use futures_util::future::{BoxFuture, Shared};
use tokio::sync::broadcast;

use crate::documents::types::DocumentOut;
use crate::{Actor, Ctx, DomainError};

/// One committed change, numbered in this process.
#[derive(Clone, Debug)]
pub struct Change {
    pub id: Arc<str>,
    pub seq: u64,
}

type Read = Shared<BoxFuture<'static, Result<DocumentOut, DomainError>>>;
/// Shared reads by document and change, with when each began.
type Reads = HashMap<(Arc<str>, u64), (Instant, Read)>;

#[derive(Clone)]
pub struct StatusBus {
    raw: broadcast::Sender<String>,
    changes: broadcast::Sender<Change>,
    remote: Option<signet_storage::state::PubSub>,
    reads: Arc<Mutex<Reads>>,
}

/// How long a shared read is kept for subscribers that come to it late.
const READ_KEPT: Duration = Duration::from_secs(5);

impl StatusBus {
    pub fn new(remote: Option<signet_storage::state::PubSub>) -> StatusBus {
        let (raw, _) = broadcast::channel(4096);
        let (changes, _) = broadcast::channel(4096);
        if let Some(r) = &remote {
            r.relay_into(raw.clone());
        }
        // Numbers every id that arrives, from this process or another.
        let (mut rx, tx) = (raw.subscribe(), changes.clone());
        tokio::spawn(async move {
            let mut seq = 0u64;
            loop {
                match rx.recv().await {
                    Ok(id) => {
                        seq += 1;
                        let _ = tx.send(Change { id: id.into(), seq });
                    }
                    // Missed ids: every subscriber reads again (an empty id matches all).
                    Err(broadcast::error::RecvError::Lagged(_)) => {
                        seq += 1;
                        let _ = tx.send(Change { id: "".into(), seq });
                    }
                    Err(broadcast::error::RecvError::Closed) => return,
                }
            }
        });
        StatusBus {
            raw,
            changes,
            remote,
            reads: Arc::default(),
        }
    }

    /// Announces that document `id` changed. Called after the change committed.
    pub async fn publish(&self, id: &str) {
        match &self.remote {
            Some(r) => r.publish(id).await,
            None => {
                let _ = self.raw.send(id.to_string());
            }
        }
    }

    pub fn subscribe(&self) -> broadcast::Receiver<Change> {
        self.changes.subscribe()
    }

    /// The document as it is after `change`, read once for every subscriber of the change;
    /// `actor` has already been shown the document (the subscription's first read).
    pub async fn read_once(
        &self,
        ctx: &Ctx,
        actor: &Actor,
        id: &str,
        change: &Change,
    ) -> Result<DocumentOut, DomainError> {
        let read = {
            let mut reads = self.reads.lock().unwrap_or_else(|p| p.into_inner());
            if reads.len() > 1024 {
                reads.retain(|_, (at, _)| at.elapsed() < READ_KEPT);
            }
            let key: (Arc<str>, u64) = (id.into(), change.seq);
            reads
                .entry(key)
                .or_insert_with(|| {
                    let (c, a, id) = (ctx.clone(), actor.clone(), id.to_string());
                    let read: BoxFuture<'static, Result<DocumentOut, DomainError>> =
                        async move { crate::documents::get(&c, &a, &id).await }.boxed();
                    (Instant::now(), read.shared())
                })
                .1
                .clone()
        };
        read.await
    }
}
