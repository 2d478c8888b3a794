//! Redis pub/sub between processes: `publish` sends a message to every process listening on
//! the channel; `relay_into` feeds what arrives into the process's local broadcast channel,
//! `each` hands it to a function. Live status sends document ids on `live:documents`; the
//! queue names the kinds a commit queued on `queue:wake`. The subscriber reconnects by
//! itself; a message published while it is down is missed, which both tolerate (the next
//! change carries the whole document again; a runner's sweep and timer find the jobs).

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
    /// Live status's channel.
    pub async fn connect(url: &str, prefix: &str) -> Result<PubSub, crate::StorageError> {
        PubSub::channel(url, prefix, "live:documents").await
    }

    /// The channel `name` under `prefix`.
    pub async fn channel(
        url: &str,
        prefix: &str,
        name: &str,
    ) -> Result<PubSub, crate::StorageError> {
        let client = redis::Client::open(url)?;
        let conn = ConnectionManager::new(client.clone()).await?;
        Ok(PubSub {
            client,
            conn,
            channel: format!("{prefix}{name}"),
        })
    }

    pub async fn publish(&self, message: &str) {
        let mut conn = self.conn.clone();
        if let Err(e) = conn.publish::<_, _, ()>(&self.channel, message).await {
            tracing::warn!(error = %e, "live status publish failed");
        }
    }

    pub fn relay_into(&self, tx: broadcast::Sender<String>) {
        self.each(move |id| {
            let _ = tx.send(id);
        });
    }

    /// Hands every message that arrives to `f`, from a task of its own, for as long as the
    /// process runs.
    pub fn each(&self, f: impl Fn(String) + Send + 'static) {
        let client = self.client.clone();
        let channel = self.channel.clone();
        tokio::spawn(async move {
            loop {
                match client.get_async_pubsub().await {
                    Ok(mut ps) => {
                        if ps.subscribe(&channel).await.is_ok() {
                            let mut messages = ps.on_message();
                            while let Some(m) = messages.next().await {
                                if let Ok(text) = m.get_payload::<String>() {
                                    f(text);
                                }
                            }
                        }
                    }
                    Err(e) => tracing::warn!(channel, error = %e, "a subscriber cannot connect"),
                }
                tokio::time::sleep(Duration::from_secs(1)).await;
            }
        });
    }
}
