//! State shared by every server process: per-minute rate budgets, per-key daily counters and
//! idempotency records.
//!
//! With `REDIS_URL` set both live in Redis, so several `signet serve` processes share one
//! budget and one idempotency record per key. On the embedded default, budgets live in this
//! process's memory (one process serves everything) and idempotency records in SQL, so that a
//! restart does not forget a request that already ran.

mod budget;
mod daily;
mod idempotency;
mod pubsub;

pub use budget::{Budget, BudgetState};
pub use daily::Daily;
pub use idempotency::{Begin, Claim, Hold, Idempotency, Stored};
pub use pubsub::PubSub;

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
