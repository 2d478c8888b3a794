//! Fixed one-minute windows: a bucket's count resets at the start of each UTC minute, which
//! makes `RateLimit-Reset` exact and costs one round trip (INCR + EXPIRE in one pipeline) on
//! Redis.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use super::RedisState;
use crate::StorageError;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BudgetState {
    pub limit: u64,
    pub remaining: u64,
    /// Seconds until the window resets.
    pub reset_secs: u64,
    pub allowed: bool,
}

#[derive(Clone)]
pub enum Budget {
    InProcess(Arc<Mutex<HashMap<String, (u64, u64)>>>),
    Redis(RedisState),
}

const WINDOW_SECS: u64 = 60;
const MAX_BUCKETS: usize = 200_000;

impl Budget {
    pub fn in_process() -> Budget {
        Budget::InProcess(Arc::default())
    }

    /// Counts one request against `bucket` and says whether it fits in `limit` per minute.
    pub async fn hit(&self, bucket: &str, limit: u64) -> Result<BudgetState, StorageError> {
        let now = crate::now_ms() as u64 / 1000;
        let window = now / WINDOW_SECS;
        let reset_secs = (window + 1) * WINDOW_SECS - now;
        let count = match self {
            Budget::InProcess(map) => {
                let mut map = map.lock().unwrap_or_else(|p| p.into_inner());
                if map.len() >= MAX_BUCKETS {
                    map.retain(|_, (w, _)| *w == window);
                }
                let entry = map.entry(bucket.to_string()).or_insert((window, 0));
                if entry.0 != window {
                    *entry = (window, 0);
                }
                entry.1 += 1;
                entry.1
            }
            Budget::Redis(r) => {
                let key = r.key(&["rl", bucket, &window.to_string()]);
                let mut conn = r.conn.clone();
                let (count,): (u64,) = redis::pipe()
                    .atomic()
                    .incr(&key, 1u64)
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
}
