//! Idempotency records, keyed by (scope, Idempotency-Key) where the scope is the API key's id.
//!
//! A request first takes a claim on its key (`Idempotency::begin`). Once its first answer is
//! known the answer is stored for 24 hours and replayed; an answer worth retrying gives the
//! key back instead. The fingerprint (method, path and a hash of the body) tells a true retry
//! from a different request reusing the key.
//!
//! Where the claim is held depends on the store:
//! - SQL with the inline SQLite writer (the embedded default, one serving process): in this
//!   process's memory. Nothing is written until the answer is known, so a request costs one
//!   write (its answer), and a resolver can write that answer in its own transaction
//!   (`Claim::store_in`), so the action and its answer commit together or not at all.
//! - SQL on PostgreSQL (several processes): a lock row (no status yet) that expires after
//!   `lock_ms`, so a process that dies mid-request does not block the key for a day.
//! - Redis: the same lock, as a key with a time to live.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use sea_orm::{ConnectionTrait, Value};
use serde::{Deserialize, Serialize};

use super::connection::RedisState;
use crate::{Db, Sql, StorageError};

pub const KEEP_MS: i64 = 24 * 60 * 60 * 1000;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stored {
    pub status: u16,
    pub body: String,
}

pub enum Begin {
    /// The caller holds the key: run the request, then `Hold::finish` or `Hold::release`.
    Proceed(Hold),
    /// The same request already ran: answer this again.
    Replay(Stored),
    /// The same key is running right now.
    InProgress,
    /// The key was used for a different request.
    Mismatch,
}

impl std::fmt::Debug for Begin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Begin::Proceed(h) => write!(f, "Proceed({:?})", h.claim),
            Begin::Replay(s) => write!(f, "Replay({s:?})"),
            Begin::InProgress => f.write_str("InProgress"),
            Begin::Mismatch => f.write_str("Mismatch"),
        }
    }
}

#[derive(Clone)]
pub enum Idempotency {
    Sql(SqlStore),
    Redis(RedisState),
}

/// Records in the SQL database; claims in memory when the inline SQLite writer is in use.
#[derive(Clone)]
pub struct SqlStore {
    db: Db,
    /// Keys being answered by this process, with their fingerprints.
    running: Arc<Mutex<HashMap<(String, String), String>>>,
}

/// Which key a running request holds. A resolver that writes its answer in its own
/// transaction takes this (`Hold::claim`) and calls `store_in` there.
#[derive(Clone, Debug)]
pub struct Claim {
    pub scope: String,
    pub key: String,
    pub fingerprint: String,
}

/// A key held by a running request. Dropping it gives an in-memory claim back.
pub struct Hold {
    store: Idempotency,
    claim: Claim,
    local: Option<LocalClaim>,
}

/// An in-memory claim, given back when dropped: its request ended (the door runs a request
/// holding a key to its end, so a client going away does not drop it early).
struct LocalClaim {
    running: Arc<Mutex<HashMap<(String, String), String>>>,
    id: (String, String),
}

impl Drop for LocalClaim {
    fn drop(&mut self) {
        self.running
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .remove(&self.id);
    }
}

#[derive(Serialize, Deserialize)]
struct RedisRecord {
    fp: String,
    #[serde(default)]
    done: Option<Stored>,
}

/// Stores an answer unless a live answer of another request is there. A lock row with the
/// same fingerprint (PostgreSQL's claim) and an expired record are overwritten.
const STORE_SQL: &str = "INSERT INTO idempotency (scope, idem_key, fingerprint, status, body, locked_until, expires_at) \
     VALUES ($1, $2, $3, $4, $5, $6, $7) \
     ON CONFLICT (scope, idem_key) DO UPDATE SET fingerprint = excluded.fingerprint, status = excluded.status, \
     body = excluded.body, locked_until = excluded.locked_until, expires_at = excluded.expires_at \
     WHERE idempotency.expires_at < $6 OR (idempotency.status IS NULL AND idempotency.fingerprint = excluded.fingerprint)";

impl Claim {
    /// Writes the answer inside the caller's transaction. False when another request's answer
    /// is already stored for this key (possible only when a claim outlived its lock): the
    /// caller should then roll back and answer that the key is busy.
    pub async fn store_in<C: Sql>(
        &self,
        conn: &C,
        db: &Db,
        stored: &Stored,
    ) -> Result<bool, StorageError> {
        Ok(conn.exec(self.store_stmt(db, stored)).await? == 1)
    }

    fn store_stmt(&self, db: &Db, stored: &Stored) -> sea_orm::Statement {
        let now = db.clock.now_ms();
        db.stmt(
            STORE_SQL,
            [
                Value::from(self.scope.as_str()),
                Value::from(self.key.as_str()),
                Value::from(self.fingerprint.as_str()),
                Value::from(stored.status as i32),
                Value::from(stored.body.as_str()),
                Value::from(now),
                Value::from(now + KEEP_MS),
            ],
        )
    }
}

impl Hold {
    /// The claim, for a resolver that stores its answer in its own transaction; `None` when
    /// answers live outside the SQL database (Redis).
    pub fn claim(&self) -> Option<Claim> {
        match self.store {
            Idempotency::Sql(_) => Some(self.claim.clone()),
            Idempotency::Redis(_) => None,
        }
    }

    /// The Redis key and record of this claim, with or without its answer.
    fn redis(
        &self,
        r: &RedisState,
        done: Option<Stored>,
    ) -> Result<(String, String), StorageError> {
        let c = &self.claim;
        let record = serde_json::to_string(&RedisRecord {
            fp: c.fingerprint.clone(),
            done,
        })
        .map_err(|e| StorageError::Corrupt(e.to_string()))?;
        Ok((r.key(&["idem", &c.scope, &c.key]), record))
    }

    /// Stores the first answer for 24 hours.
    pub async fn finish(self, stored: &Stored) -> Result<(), StorageError> {
        match &self.store {
            Idempotency::Sql(s) => {
                if s.db.write(self.claim.store_stmt(&s.db, stored)).await? == 0 {
                    // Only when this request outlived its lock and another took the key over.
                    tracing::warn!(
                        scope = %self.claim.scope,
                        "an idempotent answer was not stored: another request's answer holds the key"
                    );
                }
            }
            Idempotency::Redis(r) => {
                let (key, value) = self.redis(r, Some(stored.clone()))?;
                let mut conn = r.conn.clone();
                let _: () = redis::cmd("SET")
                    .arg(key)
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
    pub async fn release(self) -> Result<(), StorageError> {
        match &self.store {
            // An in-memory claim is given back when the hold is dropped.
            Idempotency::Sql(_) if self.local.is_some() => {}
            Idempotency::Sql(s) => {
                let c = &self.claim;
                s.db.conn
                    .execute_raw(s.db.stmt(
                        "DELETE FROM idempotency WHERE scope = $1 AND idem_key = $2 \
                         AND fingerprint = $3 AND status IS NULL",
                        [
                            Value::from(c.scope.as_str()),
                            Value::from(c.key.as_str()),
                            Value::from(c.fingerprint.as_str()),
                        ],
                    ))
                    .await?;
            }
            Idempotency::Redis(r) => {
                let (key, lock) = self.redis(r, None)?;
                let script = redis::Script::new(
                    "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0",
                );
                let mut conn = r.conn.clone();
                let _: i64 = script.key(key).arg(lock).invoke_async(&mut conn).await?;
            }
        }
        Ok(())
    }
}

impl Idempotency {
    pub fn sql(db: Db) -> Idempotency {
        Idempotency::Sql(SqlStore {
            db,
            running: Arc::default(),
        })
    }

    pub async fn begin(
        &self,
        scope: &str,
        key: &str,
        fingerprint: &str,
        lock_ms: i64,
    ) -> Result<Begin, StorageError> {
        let claim = Claim {
            scope: scope.to_string(),
            key: key.to_string(),
            fingerprint: fingerprint.to_string(),
        };
        let (first, local) = match self {
            Idempotency::Sql(s) if s.db.inline.is_some() => match s.claim_here(&claim) {
                Ok(local) => (s.begin_here(&claim)?, Some(local)),
                Err(busy) => (busy, None),
            },
            Idempotency::Sql(s) => (sql_begin(&s.db, &claim, lock_ms).await?, None),
            Idempotency::Redis(r) => (
                redis_begin(r, scope, key, fingerprint, lock_ms).await?,
                None,
            ),
        };
        Ok(match first {
            First::Proceed => Begin::Proceed(Hold {
                store: self.clone(),
                claim,
                local,
            }),
            First::Replay(s) => Begin::Replay(s),
            First::InProgress => Begin::InProgress,
            First::Mismatch => Begin::Mismatch,
        })
    }

    /// Deletes records past their 24 hours (SQL only; Redis expires them itself).
    pub async fn purge_expired(&self) -> Result<u64, StorageError> {
        match self {
            Idempotency::Sql(s) => Ok(s
                .db
                .conn
                .execute_raw(s.db.stmt(
                    "DELETE FROM idempotency WHERE expires_at < $1",
                    [Value::from(s.db.clock.now_ms())],
                ))
                .await?
                .rows_affected()),
            Idempotency::Redis(_) => Ok(0),
        }
    }
}

/// What a store found for a key, before a hold is made of it.
enum First {
    Proceed,
    Replay(Stored),
    InProgress,
    Mismatch,
}

impl SqlStore {
    /// Takes the key in this process, or answers why not.
    fn claim_here(&self, c: &Claim) -> Result<LocalClaim, First> {
        let id = (c.scope.clone(), c.key.clone());
        let mut running = self.running.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(fp) = running.get(&id) {
            return Err(if *fp == c.fingerprint {
                First::InProgress
            } else {
                First::Mismatch
            });
        }
        running.insert(id.clone(), c.fingerprint.clone());
        Ok(LocalClaim {
            running: self.running.clone(),
            id,
        })
    }

    /// With the key held in memory, reads what the database holds for it. A claim is given
    /// back only after its answer committed, so a finished request's answer is seen here.
    fn begin_here(&self, c: &Claim) -> Result<First, StorageError> {
        let Some(reader) = &self.db.inline else {
            return Err(StorageError::Corrupt("no inline reader".into()));
        };
        type Found = (String, Option<i64>, Option<String>, i64, i64);
        let found: Option<Found> = reader.read(|conn| {
            let mut stmt = conn.prepare_cached(
                "SELECT fingerprint, status, body, locked_until, expires_at FROM idempotency \
                 WHERE scope = ?1 AND idem_key = ?2",
            )?;
            let mut rows = stmt.query((&c.scope, &c.key))?;
            match rows.next()? {
                Some(r) => Ok(Some((
                    r.get(0)?,
                    r.get(1)?,
                    r.get(2)?,
                    r.get(3)?,
                    r.get(4)?,
                ))),
                None => Ok(None),
            }
        })?;
        let now = self.db.clock.now_ms();
        Ok(match found {
            None => First::Proceed,
            Some((.., expires_at)) if expires_at < now => First::Proceed,
            Some((fp, ..)) if fp != c.fingerprint => First::Mismatch,
            Some((_, Some(status), Some(body), ..)) => First::Replay(Stored {
                status: status as u16,
                body,
            }),
            // A lock row: written by a process sharing the file, or before an upgrade.
            Some((_, _, _, locked_until, _)) if locked_until >= now => First::InProgress,
            Some(_) => First::Proceed,
        })
    }
}

async fn sql_begin(db: &Db, c: &Claim, lock_ms: i64) -> Result<First, StorageError> {
    let (scope, key, fp) = (c.scope.as_str(), c.key.as_str(), c.fingerprint.as_str());
    let conn = &db.conn;
    let now = db.clock.now_ms();
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
        return Ok(First::Proceed);
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
        return Ok(First::Proceed);
    }
    let row = conn
        .row(db.stmt(
            "SELECT fingerprint, status, body FROM idempotency WHERE scope = $1 AND idem_key = $2",
            [Value::from(scope), Value::from(key)],
        ))
        .await?;
    let Some(row) = row else {
        // Deleted between our statements (released); the caller may simply retry.
        return Ok(First::InProgress);
    };
    let stored_fp: String = row.try_get("", "fingerprint")?;
    if stored_fp != fp {
        return Ok(First::Mismatch);
    }
    let status: Option<i32> = row.try_get("", "status")?;
    let body: Option<String> = row.try_get("", "body")?;
    Ok(match (status, body) {
        (Some(status), Some(body)) => First::Replay(Stored {
            status: status as u16,
            body,
        }),
        _ => First::InProgress,
    })
}

async fn redis_begin(
    r: &RedisState,
    scope: &str,
    key: &str,
    fp: &str,
    lock_ms: i64,
) -> Result<First, StorageError> {
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
            return Ok(First::Proceed);
        }
        let current: Option<String> = redis::cmd("GET").arg(&rkey).query_async(&mut conn).await?;
        let Some(current) = current else {
            continue; // expired between SET and GET: try to take it again
        };
        let rec: RedisRecord =
            serde_json::from_str(&current).map_err(|e| StorageError::Corrupt(e.to_string()))?;
        if rec.fp != fp {
            return Ok(First::Mismatch);
        }
        return Ok(match rec.done {
            Some(stored) => First::Replay(stored),
            None => First::InProgress,
        });
    }
    Ok(First::InProgress)
}
