//! Live document status for `subscription documentStatus(id)`. Every committed change publishes
//! the document's id; subscribers re-read the document and push it. In one process a broadcast
//! channel carries the ids; with Redis, `signet-storage`'s pub/sub relays them between
//! processes into the same channel, so a subscriber sees changes made by any server.

use tokio::sync::broadcast;

#[derive(Clone)]
pub struct StatusBus {
    local: broadcast::Sender<String>,
    remote: Option<signet_storage::state::PubSub>,
}

impl StatusBus {
    pub fn new(remote: Option<signet_storage::state::PubSub>) -> StatusBus {
        let (local, _) = broadcast::channel(4096);
        if let Some(r) = &remote {
            r.relay_into(local.clone());
        }
        StatusBus { local, remote }
    }

    /// Announces that document `id` changed. Called after the change committed.
    pub async fn publish(&self, id: &str) {
        match &self.remote {
            Some(r) => r.publish(id).await,
            None => {
                let _ = self.local.send(id.to_string());
            }
        }
    }

    pub fn subscribe(&self) -> broadcast::Receiver<String> {
        self.local.subscribe()
    }
}
