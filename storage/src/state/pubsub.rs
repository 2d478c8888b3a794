//! Redis pub/sub for live status: `publish` sends a document id to every `signet serve`
//! process; `relay_into` feeds what arrives into the process's local broadcast channel. The
//! subscriber reconnects by itself; a message published while it is down is missed, which a
//! live view tolerates (the next change carries the whole document again).

use std::time::Duration;

use futures_util::StreamExt;
use redis::AsyncCommands;
use redis::aio::ConnectionManager;
use tokio::sync::broadcast;

#[derive(Clone)]
pub struct PubSub {
    client: redis::Client,
    conn: ConnectionManager,
    channel: String,
}

impl PubSub {
    pub async fn connect(url: &str, prefix: &str) -> Result<PubSub, crate::StorageError> {
        let client = redis::Client::open(url)?;
        let conn = ConnectionManager::new(client.clone()).await?;
        Ok(PubSub {
            client,
            conn,
            channel: format!("{prefix}live:documents"),
        })
    }

    pub async fn publish(&self, message: &str) {
        let mut conn = self.conn.clone();
        if let Err(e) = conn.publish::<_, _, ()>(&self.channel, message).await {
            tracing::warn!(error = %e, "live status publish failed");
        }
    }

    pub fn relay_into(&self, tx: broadcast::Sender<String>) {
        let client = self.client.clone();
        let channel = self.channel.clone();
        tokio::spawn(async move {
            loop {
                match client.get_async_pubsub().await {
                    Ok(mut ps) => {
                        if ps.subscribe(&channel).await.is_ok() {
                            let mut messages = ps.on_message();
                            while let Some(m) = messages.next().await {
                                if let Ok(id) = m.get_payload::<String>() {
                                    let _ = tx.send(id);
                                }
                            }
                        }
                    }
                    Err(e) => tracing::warn!(error = %e, "live status subscriber cannot connect"),
                }
                tokio::time::sleep(Duration::from_secs(1)).await;
            }
        });
    }
}
