//! Facts every process of an installation must agree on, kept in the database: the first
//! process to start writes each one, and a process that sees another value refuses to start.
//! The root certificate that seals is one: scale-out processes on several hosts must share
//! one certificate authority, or documents would be sealed under different roots.

use sea_orm::{ConnectionTrait, Value};
use signet_storage::Db;

use crate::DomainError;

/// Records `value` under `name` if nothing is recorded yet; answers the recorded value when
/// it differs from `value`.
pub async fn agree(db: &Db, name: &str, value: &str) -> Result<Option<String>, DomainError> {
    db.conn
        .execute_raw(db.stmt(
            "INSERT INTO installation (name, value, created_at) VALUES ($1, $2, $3) \
             ON CONFLICT (name) DO NOTHING",
            [
                Value::from(name.to_string()),
                Value::from(value.to_string()),
                Value::from(db.clock.now_ms()),
            ],
        ))
        .await?;
    let recorded: String = db
        .conn
        .query_one_raw(db.stmt(
            "SELECT value FROM installation WHERE name = $1",
            [Value::from(name.to_string())],
        ))
        .await?
        .ok_or_else(|| DomainError::Internal(format!("installation fact {name} vanished")))?
        .try_get("", "value")?;
    Ok((recorded != value).then_some(recorded))
}

/// The value recorded under `name`, if any.
pub async fn recorded(db: &Db, name: &str) -> Result<Option<String>, DomainError> {
    Ok(db
        .conn
        .query_one_raw(db.stmt(
            "SELECT value FROM installation WHERE name = $1",
            [Value::from(name.to_string())],
        ))
        .await?
        .map(|row| row.try_get::<String>("", "value"))
        .transpose()?)
}
