//! Fixed one-minute windows: a bucket's count resets at the start of each UTC minute, which
//! makes `RateLimit-Reset` exact and costs one round trip (INCR + EXPIRE in one pipeline) on
//! Redis.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use super::connection::RedisState;
use crate::StorageError;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BudgetState {
    pub limit: u64,
    pub remaining: u64,
    /// Seconds until the window resets.
    pub reset_secs: u64,
    pub allowed: bool,
}

/// Per-minute budgets, kept in this process or in Redis, on a clock the tests can set.
#[derive(Clone)]
pub struct Budget {
    store: Store,
    clock: Clock,
}

#[derive(Clone)]
enum Store {
    InProcess(Arc<Mutex<Window>>),
    Redis(RedisState),
}

pub use crate::clock::Clock;

/// One minute's counts in this process. The whole table is dropped when the minute turns
/// (fixed windows need nothing older), so no insert ever scans it.
#[derive(Default)]
pub struct Window {
    window: u64,
    counts: HashMap<String, u64>,
}

const WINDOW_SECS: u64 = 60;
/// Buckets a minute may hold in this process. Past it, an address (`ip:` bucket) not yet seen
/// this minute is counted in an overflow bucket shared by its network's newcomers: a caller
/// spraying addresses then shares budgets instead of growing the table.
pub const MAX_BUCKETS: usize = 200_000;
/// Overflow buckets: newcomers share one of these by their network (an IPv4 /16, an IPv6 /48),
/// so one network spraying addresses crowds only the newcomers that hash alike.
const OVERFLOW_BUCKETS: u64 = 256;

fn overflow(bucket: &str) -> String {
    use std::hash::{Hash, Hasher};
    let addr = bucket.trim_start_matches("ip:");
    let network: Vec<&str> = if addr.contains(':') {
        addr.split(':').take(3).collect()
    } else {
        addr.split('.').take(2).collect()
    };
    let mut h = std::collections::hash_map::DefaultHasher::new();
    network.hash(&mut h);
    format!("overflow:{}", h.finish() % OVERFLOW_BUCKETS)
}

impl Budget {
    pub fn in_process() -> Budget {
        Budget {
            store: Store::InProcess(Arc::default()),
            clock: Clock::default(),
        }
    }

    pub fn redis(state: RedisState) -> Budget {
        Budget {
            store: Store::Redis(state),
            clock: Clock::default(),
        }
    }

    /// The Redis the budgets are kept in, if they are.
    pub fn redis_state(&self) -> Option<&RedisState> {
        match &self.store {
            Store::Redis(r) => Some(r),
            Store::InProcess(_) => None,
        }
    }

    /// Reads the budgets' minutes from `clock` (the app's: `Db::clock`).
    pub fn with_clock(mut self, clock: Clock) -> Budget {
        self.clock = clock;
        self
    }

    /// The clock the budgets' minutes are read from.
    pub fn clock(&self) -> &Clock {
        &self.clock
    }

    /// Counts one request against `bucket` and says whether it fits in `limit` per minute.
    pub async fn hit(&self, bucket: &str, limit: u64) -> Result<BudgetState, StorageError> {
        self.hit_n(bucket, limit, 1).await
    }

    /// Counts `n` units against `bucket` (a GraphQL request standing for several REST calls).
    pub async fn hit_n(
        &self,
        bucket: &str,
        limit: u64,
        n: u64,
    ) -> Result<BudgetState, StorageError> {
        let now = self.clock.now_ms() as u64 / 1000;
        let window = now / WINDOW_SECS;
        let reset_secs = (window + 1) * WINDOW_SECS - now;
        let count = match &self.store {
            Store::InProcess(table) => {
                let stale;
                let count = {
                    let mut t = table.lock().unwrap_or_else(|p| p.into_inner());
                    stale = if t.window != window {
                        t.window = window;
                        Some(std::mem::take(&mut t.counts))
                    } else {
                        None
                    };
                    let full = t.counts.len() >= MAX_BUCKETS;
                    let c = match t.counts.get_mut(bucket) {
                        Some(c) => c,
                        // Keys are few and made by an operator; only addresses can flood.
                        None if full && bucket.starts_with("ip:") => {
                            t.counts.entry(overflow(bucket)).or_insert(0)
                        }
                        None => t.counts.entry(bucket.to_string()).or_insert(0),
                    };
                    *c += n;
                    *c
                };
                // The last minute's table is freed outside the lock.
                drop(stale);
                count
            }
            Store::Redis(r) => {
                let key = r.key(&["rl", bucket, &window.to_string()]);
                let mut conn = r.conn.clone();
                let (count,): (u64,) = redis::pipe()
                    .atomic()
                    .incr(&key, n)
                    .expire(&key, (WINDOW_SECS * 2) as i64)
                    .ignore()
                    .query_async(&mut conn)
                    .await?;
                count
            }
        };
        Ok(BudgetState {
            limit,
            remaining: limit.saturating_sub(count),
            reset_secs,
            allowed: count <= limit,
        })
    }

    /// Buckets this process holds for the current minute (0 on Redis).
    pub fn buckets(&self) -> usize {
        match &self.store {
            Store::InProcess(t) => t.lock().map(|t| t.counts.len()).unwrap_or(0),
            Store::Redis(_) => 0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn the_table_is_bounded_and_keys_never_share_the_overflow() {
        // Not across a minute's turn, which empties the table.
        let budget = Budget::in_process();
        budget.clock().set_ms(1_800_000_000_000);
        for i in 0..MAX_BUCKETS {
            budget.hit(&format!("ip:{i}"), 5).await.unwrap();
        }
        assert_eq!(budget.buckets(), MAX_BUCKETS);
        // Newcomers past the bound share one budget; the table does not grow further.
        let mut last = None;
        for i in 0..10 {
            last = Some(budget.hit(&format!("ip:10.1.{i}.1"), 5).await.unwrap());
        }
        assert!(
            !last.unwrap().allowed,
            "ten newcomers share one budget of five"
        );
        assert_eq!(budget.buckets(), MAX_BUCKETS + 1);
        // A key still has its own budget.
        assert!(budget.hit("key:k1", 5).await.unwrap().allowed);
        assert_eq!(budget.buckets(), MAX_BUCKETS + 2);
        // Addresses already counted this minute keep their own.
        assert!(budget.hit("ip:7", 5).await.unwrap().allowed);
        // A new minute starts an empty table.
        budget.clock().set_ms(1_800_000_060_000);
        assert!(budget.hit("ip:10.1.0.1", 5).await.unwrap().allowed);
        assert_eq!(budget.buckets(), 1);
    }
}
