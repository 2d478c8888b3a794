//! The Redis connection the shared state and the queue's dispatch use, with the key prefix
//! every key of this installation (or test) carries.

use redis::aio::ConnectionManager;

/// A Redis connection with the key prefix every key of this installation (or test) carries.
#[derive(Clone)]
pub struct RedisState {
    pub conn: ConnectionManager,
    pub prefix: String,
}

impl RedisState {
    pub async fn connect(url: &str, prefix: &str) -> Result<RedisState, crate::StorageError> {
        let client = redis::Client::open(url)?;
        let conn = ConnectionManager::new(client).await?;
        Ok(RedisState {
            conn,
            prefix: prefix.to_string(),
        })
    }

    /// Whether Redis answers.
    pub async fn ping(&self) -> Result<(), crate::StorageError> {
        let mut conn = self.conn.clone();
        redis::cmd("PING").query_async::<String>(&mut conn).await?;
        Ok(())
    }

    pub(crate) fn key(&self, parts: &[&str]) -> String {
        let mut k = self.prefix.clone();
        for p in parts {
            k.push_str(p);
            k.push(':');
        }
        k.pop();
        k
    }
}
