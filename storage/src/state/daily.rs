//! Per-key daily counters (drafts and sends a day, UTC). Check and increment are one atomic
//! step on either backend, so concurrent requests cannot overshoot the limit. The embedded
//! default keeps them in SQL, not in memory, so a restart does not hand out a fresh day.

use sea_orm::{ConnectionTrait, Value};

use super::RedisState;
use crate::{Db, StorageError};

#[derive(Clone)]
pub enum Daily {
    Sql(Db),
    Redis(RedisState),
}

impl Daily {
    /// Counts one use of `key_id` on `day` (`YYYY-MM-DD`) if fewer than `limit` were used;
    /// returns whether it was counted.
    pub async fn spend(&self, key_id: &str, day: &str, limit: u64) -> Result<bool, StorageError> {
        match self {
            Daily::Sql(db) => {
                let row = db
                    .conn
                    .query_one_raw(db.stmt(
                        "INSERT INTO key_daily_counters (key_id, day, count) VALUES ($1, $2, 1) \
                         ON CONFLICT (key_id, day) DO UPDATE SET count = key_daily_counters.count + 1 \
                         WHERE key_daily_counters.count < $3 RETURNING count",
                        [Value::from(key_id), Value::from(day), Value::from(limit as i64)],
                    ))
                    .await?;
                Ok(row.is_some() && limit > 0)
            }
            Daily::Redis(r) => {
                let script = redis::Script::new(
                    "local n = tonumber(redis.call('GET', KEYS[1]) or '0') \
                     if n >= tonumber(ARGV[1]) then return 0 end \
                     redis.call('INCR', KEYS[1]) redis.call('EXPIRE', KEYS[1], 172800) return 1",
                );
                let mut conn = r.conn.clone();
                let counted: i64 = script
                    .key(r.key(&["daily", key_id, day]))
                    .arg(limit)
                    .invoke_async(&mut conn)
                    .await?;
                Ok(counted == 1)
            }
        }
    }
}
