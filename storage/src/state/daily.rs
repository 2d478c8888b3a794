//! Per-key daily counters (drafts and sends a day, UTC). Check and increment are one atomic
//! step on either backend, so concurrent requests cannot overshoot the limit. The embedded
//! default keeps them in SQL, not in memory, so a restart does not hand out a fresh day.

use sea_orm::{ConnectionTrait, Value};

use super::connection::RedisState;
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
        self.spend_on(
            "INSERT INTO key_daily_counters (key_id, day, count) VALUES ($1, $2, 1) \
             ON CONFLICT (key_id, day) DO UPDATE SET count = key_daily_counters.count + 1 \
             WHERE key_daily_counters.count < $3 RETURNING count",
            key_id,
            key_id,
            day,
            limit,
        )
        .await
    }

    /// As `spend`, for a workspace's daily `metric` (kept in `usage_counters`, shard 0).
    pub async fn spend_workspace(
        &self,
        workspace_id: &str,
        metric: &str,
        day: &str,
        limit: u64,
    ) -> Result<bool, StorageError> {
        self.spend_on(
            &format!(
                "INSERT INTO usage_counters (workspace_id, metric, period, shard, count) \
                 VALUES ($1, '{metric}', $2, 0, 1) \
                 ON CONFLICT (workspace_id, metric, period, shard) DO UPDATE SET count = usage_counters.count + 1 \
                 WHERE usage_counters.count < $3 RETURNING count"
            ),
            workspace_id,
            &format!("{workspace_id}:{metric}"),
            day,
            limit,
        )
        .await
    }

    /// Counts one on `day` if fewer than `limit`: `sql` (bound to `sql_id`, the day and the
    /// limit) on SQL, the counter named `redis_id` on Redis.
    async fn spend_on(
        &self,
        sql: &str,
        sql_id: &str,
        redis_id: &str,
        day: &str,
        limit: u64,
    ) -> Result<bool, StorageError> {
        match self {
            Daily::Sql(db) => {
                let row = db
                    .conn
                    .query_one_raw(db.stmt(
                        sql,
                        [
                            Value::from(sql_id),
                            Value::from(day),
                            Value::from(limit as i64),
                        ],
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
                    .key(r.key(&["daily", redis_id, day]))
                    .arg(limit)
                    .invoke_async(&mut conn)
                    .await?;
                Ok(counted == 1)
            }
        }
    }
}
