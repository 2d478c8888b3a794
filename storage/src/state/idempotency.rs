//! Idempotency records, keyed by (scope, Idempotency-Key) where the scope is the API key's id.
//!
//! A record starts as a lock (no status yet) that expires after `lock_ms`, so a process that
//! dies mid-request does not block the key for a day; once the first answer is known it is
//! stored for 24 hours and replayed. The fingerprint (method, path and a hash of the body)
//! tells a true retry from a different request reusing the key.

use sea_orm::{ConnectionTrait, Value};
use serde::{Deserialize, Serialize};

use super::RedisState;
use crate::{Db, Sql, StorageError, now_ms};

pub const KEEP_MS: i64 = 24 * 60 * 60 * 1000;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stored {
    pub status: u16,
    pub body: String,
}

#[derive(Debug, PartialEq, Eq)]
pub enum Begin {
    /// The caller holds the lock: run the request, then `finish` or `release`.
    Proceed,
    /// The same request already ran: answer this again.
    Replay(Stored),
    /// The same key is running right now.
    InProgress,
    /// The key was used for a different request.
    Mismatch,
}

#[derive(Clone)]
pub enum Idempotency {
    Sql(Db),
    Redis(RedisState),
}

#[derive(Serialize, Deserialize)]
struct RedisRecord {
    fp: String,
    #[serde(default)]
    done: Option<Stored>,
}

impl Idempotency {
    pub async fn begin(
        &self,
        scope: &str,
        key: &str,
        fingerprint: &str,
        lock_ms: i64,
    ) -> Result<Begin, StorageError> {
        match self {
            Idempotency::Sql(db) => sql_begin(db, scope, key, fingerprint, lock_ms).await,
            Idempotency::Redis(r) => redis_begin(r, scope, key, fingerprint, lock_ms).await,
        }
    }

    pub async fn finish(
        &self,
        scope: &str,
        key: &str,
        fingerprint: &str,
        stored: &Stored,
    ) -> Result<(), StorageError> {
        match self {
            Idempotency::Sql(db) => {
                let now = now_ms();
                let stmt = db.stmt(
                    "UPDATE idempotency SET status = $1, body = $2, expires_at = $3, locked_until = $4 \
                     WHERE scope = $5 AND idem_key = $6 AND fingerprint = $7",
                    [
                        Value::from(stored.status as i32),
                        Value::from(stored.body.clone()),
                        Value::from(now + KEEP_MS),
                        Value::from(now),
                        Value::from(scope),
                        Value::from(key),
                        Value::from(fingerprint),
                    ],
                );
                db.write(stmt).await?;
            }
            Idempotency::Redis(r) => {
                let rec = RedisRecord {
                    fp: fingerprint.to_string(),
                    done: Some(stored.clone()),
                };
                let value = serde_json::to_string(&rec)
                    .map_err(|e| StorageError::Corrupt(e.to_string()))?;
                let mut conn = r.conn.clone();
                let _: () = redis::cmd("SET")
                    .arg(r.key(&["idem", scope, key]))
                    .arg(value)
                    .arg("PX")
                    .arg(KEEP_MS)
                    .query_async(&mut conn)
                    .await?;
            }
        }
        Ok(())
    }

    /// Gives the key back without an answer (the request failed in a way worth retrying).
    pub async fn release(
        &self,
        scope: &str,
        key: &str,
        fingerprint: &str,
    ) -> Result<(), StorageError> {
        match self {
            Idempotency::Sql(db) => {
                db.conn
                    .execute_raw(db.stmt(
                        "DELETE FROM idempotency WHERE scope = $1 AND idem_key = $2 \
                         AND fingerprint = $3 AND status IS NULL",
                        [
                            Value::from(scope),
                            Value::from(key),
                            Value::from(fingerprint),
                        ],
                    ))
                    .await?;
            }
            Idempotency::Redis(r) => {
                let lock = serde_json::to_string(&RedisRecord {
                    fp: fingerprint.to_string(),
                    done: None,
                })
                .map_err(|e| StorageError::Corrupt(e.to_string()))?;
                let script = redis::Script::new(
                    "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0",
                );
                let mut conn = r.conn.clone();
                let _: i64 = script
                    .key(r.key(&["idem", scope, key]))
                    .arg(lock)
                    .invoke_async(&mut conn)
                    .await?;
            }
        }
        Ok(())
    }

    /// Deletes records past their 24 hours (SQL only; Redis expires them itself).
    pub async fn purge_expired(&self) -> Result<u64, StorageError> {
        match self {
            Idempotency::Sql(db) => Ok(db
                .conn
                .execute_raw(db.stmt(
                    "DELETE FROM idempotency WHERE expires_at < $1",
                    [Value::from(now_ms())],
                ))
                .await?
                .rows_affected()),
            Idempotency::Redis(_) => Ok(0),
        }
    }
}

async fn sql_begin(
    db: &Db,
    scope: &str,
    key: &str,
    fp: &str,
    lock_ms: i64,
) -> Result<Begin, StorageError> {
    if db.inline.is_some() {
        // One write transaction on the inline writer instead of up to three statements
        // through the pool.
        let (d, scope, key, fp) = (
            db.clone(),
            scope.to_string(),
            key.to_string(),
            fp.to_string(),
        );
        return db
            .transaction(
                move |t| async move { begin_in(&*t, &d, &scope, &key, &fp, lock_ms).await },
            )
            .await;
    }
    begin_in(&db.conn, db, scope, key, fp, lock_ms).await
}

async fn begin_in<C: Sql>(
    conn: &C,
    db: &Db,
    scope: &str,
    key: &str,
    fp: &str,
    lock_ms: i64,
) -> Result<Begin, StorageError> {
    let now = now_ms();
    let inserted = conn
        .exec(db.stmt(
            "INSERT INTO idempotency (scope, idem_key, fingerprint, status, body, locked_until, expires_at) \
             VALUES ($1, $2, $3, NULL, NULL, $4, $5) ON CONFLICT (scope, idem_key) DO NOTHING",
            [
                Value::from(scope),
                Value::from(key),
                Value::from(fp),
                Value::from(now + lock_ms),
                Value::from(now + KEEP_MS),
            ],
        ))
        .await?;
    if inserted == 1 {
        return Ok(Begin::Proceed);
    }
    // Someone holds the key: a finished answer, a live lock, a dead lock or an expired record.
    let taken = conn
        .exec(db.stmt(
            "UPDATE idempotency SET fingerprint = $1, status = NULL, body = NULL, locked_until = $2, expires_at = $3 \
             WHERE scope = $4 AND idem_key = $5 AND (expires_at < $6 OR (status IS NULL AND locked_until < $6 AND fingerprint = $1))",
            [
                Value::from(fp),
                Value::from(now + lock_ms),
                Value::from(now + KEEP_MS),
                Value::from(scope),
                Value::from(key),
                Value::from(now),
            ],
        ))
        .await?;
    if taken == 1 {
        return Ok(Begin::Proceed);
    }
    let row = conn
        .row(db.stmt(
            "SELECT fingerprint, status, body FROM idempotency WHERE scope = $1 AND idem_key = $2",
            [Value::from(scope), Value::from(key)],
        ))
        .await?;
    let Some(row) = row else {
        // Deleted between our statements (released); the caller may simply retry.
        return Ok(Begin::InProgress);
    };
    let stored_fp: String = row.try_get("", "fingerprint")?;
    if stored_fp != fp {
        return Ok(Begin::Mismatch);
    }
    let status: Option<i32> = row.try_get("", "status")?;
    let body: Option<String> = row.try_get("", "body")?;
    Ok(match (status, body) {
        (Some(status), Some(body)) => Begin::Replay(Stored {
            status: status as u16,
            body,
        }),
        _ => Begin::InProgress,
    })
}

async fn redis_begin(
    r: &RedisState,
    scope: &str,
    key: &str,
    fp: &str,
    lock_ms: i64,
) -> Result<Begin, StorageError> {
    let rkey = r.key(&["idem", scope, key]);
    let lock = serde_json::to_string(&RedisRecord {
        fp: fp.to_string(),
        done: None,
    })
    .map_err(|e| StorageError::Corrupt(e.to_string()))?;
    let mut conn = r.conn.clone();
    for _ in 0..3 {
        let set: Option<String> = redis::cmd("SET")
            .arg(&rkey)
            .arg(&lock)
            .arg("NX")
            .arg("PX")
            .arg(lock_ms)
            .query_async(&mut conn)
            .await?;
        if set.is_some() {
            return Ok(Begin::Proceed);
        }
        let current: Option<String> = redis::cmd("GET").arg(&rkey).query_async(&mut conn).await?;
        let Some(current) = current else {
            continue; // expired between SET and GET: try to take it again
        };
        let rec: RedisRecord =
            serde_json::from_str(&current).map_err(|e| StorageError::Corrupt(e.to_string()))?;
        if rec.fp != fp {
            return Ok(Begin::Mismatch);
        }
        return Ok(match rec.done {
            Some(stored) => Begin::Replay(stored),
            None => Begin::InProgress,
        });
    }
    Ok(Begin::InProgress)
}
