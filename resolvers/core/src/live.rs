//! Live document status for `subscription documentStatus(id)`. Every committed change publishes
//! the document's id; subscribers re-read the document and push it. In one process a broadcast
//! channel carries the ids; with Redis, `signet-storage`'s pub/sub relays them between
//! processes into the same channel, so a subscriber sees changes made by any server.
//!
//! Each change is numbered as it arrives in this process, so that the subscribers of one
//! document can share one read of it per change (`documents::live::read_once`).

use std::sync::Arc;

use tokio::sync::broadcast;

/// One committed change, numbered in this process.
#[derive(Clone, Debug)]
pub struct Change {
    pub id: Arc<str>,
    pub seq: u64,
}

#[derive(Clone)]
pub struct StatusBus {
    raw: broadcast::Sender<String>,
    changes: broadcast::Sender<Change>,
    remote: Option<signet_storage::state::PubSub>,
}

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
}
