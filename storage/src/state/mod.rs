//! State shared by every server process: per-minute rate budgets, per-key daily counters and
//! idempotency records.
//!
//! With `REDIS_URL` set both live in Redis, so several `signet serve` processes share one
//! budget and one idempotency record per key. On the embedded default, budgets live in this
//! process's memory (one process serves everything) and idempotency records in SQL, so that a
//! restart does not forget a request that already ran.

mod budget;
mod connection;
mod daily;
mod idempotency;
mod pubsub;

pub use budget::{Budget, BudgetState};
pub use connection::RedisState;
pub use daily::Daily;
pub use idempotency::{Begin, Claim, Hold, Idempotency, Stored};
pub use pubsub::PubSub;
