//! What the people's tables no longer need, removed by the workers' periodic purge: hourly
//! counts of sign-in requests once their hour is over, links a day after they ran out,
//! sessions 30 days after they ended (or could no longer be used), passkey challenges once
//! they ran out, and activity lines older than [`ACTIVITY_DAYS`].

use chrono::{TimeZone, Utc};
use sea_orm::{ConnectionTrait, Value};
use signet_core::{Ctx, DomainError};

use super::sessions::{IDLE_MS, LIFETIME_MS};

const DAY_MS: i64 = 86_400_000;
/// How long the activity record keeps a line.
pub const ACTIVITY_DAYS: i64 = 400;

/// Removes what ran out; answers how many rows went.
pub async fn purge(ctx: &Ctx) -> Result<u64, DomainError> {
    let now = ctx.now();
    // The hour key is `YYYY-MM-DDTHH`, ordered as text; the hour before this one may still
    // be counting on a machine whose clock is behind.
    let two_hours_ago = Utc
        .timestamp_millis_opt(now - 2 * 3_600_000)
        .single()
        .unwrap_or_else(Utc::now)
        .format("%Y-%m-%dT%H")
        .to_string();
    let kept = 30 * DAY_MS;
    let statements: [(&str, Vec<Value>); 5] = [
        (
            "DELETE FROM sign_in_counts WHERE hour < $1",
            vec![Value::from(two_hours_ago)],
        ),
        (
            "DELETE FROM sign_in_links WHERE expires_at < $1",
            vec![Value::from(now - DAY_MS)],
        ),
        (
            "DELETE FROM sessions WHERE ended_at < $1 OR last_seen_at < $2 OR created_at < $3",
            vec![
                Value::from(now - kept),
                Value::from(now - IDLE_MS - kept),
                Value::from(now - LIFETIME_MS - kept),
            ],
        ),
        (
            "DELETE FROM passkey_challenges WHERE expires_at < $1",
            vec![Value::from(now)],
        ),
        (
            "DELETE FROM activity WHERE created_at < $1",
            vec![Value::from(now - ACTIVITY_DAYS * DAY_MS)],
        ),
    ];
    let mut gone = 0;
    for (sql, values) in statements {
        gone += ctx
            .db
            .conn
            .execute_raw(ctx.db.stmt(sql, values))
            .await?
            .rows_affected();
    }
    Ok(gone)
}
