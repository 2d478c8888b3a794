//! Usage: live documents sent this calendar month (UTC) and live emails sent today (UTC),
//! against the plan's allowances. A counter is the sum of its rows, one per (workspace,
//! metric, period, shard) (see `shard`), and is incremented in the same transaction as the
//! send that uses it.

use chrono::{Datelike, TimeZone, Utc};
use sea_orm::Value;
use serde::Serialize;
use signet_storage::Sql;

use signet_core::{Actor, Ctx, DomainError, Scope};

pub const DOCUMENTS_SENT: &str = "documents_sent";
pub const EMAILS_SENT: &str = "emails_sent";
/// Test emails a day, to the workspace's own sender address: counted apart from live ones,
/// against an allowance of the same size.
pub const TEST_EMAILS_SENT: &str = "test_emails_sent";

#[derive(Clone, Debug, Serialize, utoipa::ToSchema, async_graphql::SimpleObject)]
#[serde(rename_all = "camelCase")]
pub struct UsageCounterOut {
    /// How many were used in this period.
    pub used: i64,
    /// The plan's allowance for the period; null when the plan has none.
    pub limit: Option<i64>,
    /// Start of the period (UTC, RFC 3339).
    pub period_start: String,
    /// When the counter starts again from zero (UTC, RFC 3339).
    pub resets_at: String,
}

#[derive(Clone, Debug, Serialize, utoipa::ToSchema, async_graphql::SimpleObject)]
#[serde(rename_all = "camelCase")]
pub struct UsageOut {
    /// The workspace's plan: `free` or `pro`.
    pub plan: String,
    /// Live documents sent this calendar month (UTC). Test documents are never counted.
    pub documents: UsageCounterOut,
    /// Live emails sent today (UTC).
    pub emails: UsageCounterOut,
    /// Test documents' emails sent today (UTC), all to the workspace's sender address:
    /// never billed, and kept to an allowance of their own.
    pub test_emails: UsageCounterOut,
}

fn rfc3339(t: chrono::DateTime<Utc>) -> String {
    t.to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
}

/// (period key, start, reset) of the month and of the day containing `now`.
fn periods(now: chrono::DateTime<Utc>) -> [(String, String, String); 2] {
    let month_start = Utc
        .with_ymd_and_hms(now.year(), now.month(), 1, 0, 0, 0)
        .single();
    let (ny, nm) = if now.month() == 12 {
        (now.year() + 1, 1)
    } else {
        (now.year(), now.month() + 1)
    };
    let next_month = Utc.with_ymd_and_hms(ny, nm, 1, 0, 0, 0).single();
    let day_start = now.date_naive().and_hms_opt(0, 0, 0).map(|d| d.and_utc());
    let next_day = day_start.map(|d| d + chrono::Duration::days(1));
    let f = |t: Option<chrono::DateTime<Utc>>| t.map(rfc3339).unwrap_or_default();
    [
        // Plain integer formatting: chrono's strftime cost a tenth of GET /usage's own work.
        (
            format!("{:04}-{:02}", now.year(), now.month()),
            f(month_start),
            f(next_month),
        ),
        (
            format!("{:04}-{:02}-{:02}", now.year(), now.month(), now.day()),
            f(day_start),
            f(next_day),
        ),
    ]
}

pub async fn get(ctx: &Ctx, actor: &Actor) -> Result<UsageOut, DomainError> {
    actor.require(Scope::AccountRead)?;
    let limits = ctx.plans.limits(actor.plan);
    let [month, day] = periods(Utc::now());
    let counts = ctx
        .db
        .usage_counts(
            &actor.workspace_id,
            &[
                (DOCUMENTS_SENT, month.0.as_str()),
                (EMAILS_SENT, day.0.as_str()),
                (TEST_EMAILS_SENT, day.0.as_str()),
            ],
        )
        .await?;
    let (documents, emails, test_emails) = (counts[0], counts[1], counts[2]);
    Ok(UsageOut {
        plan: actor.plan.as_str().to_string(),
        documents: UsageCounterOut {
            used: documents,
            limit: limits.documents_per_month.map(|v| v as i64),
            period_start: month.1,
            resets_at: month.2,
        },
        emails: UsageCounterOut {
            used: emails,
            limit: limits.emails_per_day.map(|v| v as i64),
            period_start: day.1.clone(),
            resets_at: day.2.clone(),
        },
        test_emails: UsageCounterOut {
            used: test_emails,
            limit: limits.emails_per_day.map(|v| v as i64),
            period_start: day.1,
            resets_at: day.2,
        },
    })
}

/// Shards a counter may be spread over (m0006): sends that need no read-back spread their
/// row locks over this many rows. On PostgreSQL, at 256 connections, the counter's upsert
/// waited 37 ms on average with one row, 2.2 ms with 16 and 0.3-0.5 ms with 64
/// (bench/RESULTS.md); a read sums at most this many rows.
pub const SHARDS: u32 = 64;

/// Which of a counter's rows an action adds to: shard 0 when it reads the counter back in
/// the same transaction (an allowance to check: every such action then waits for the one
/// row's lock, so the read sees every other checked action's addition); otherwise one picked
/// by hashing `id`, the action's own id, so concurrent actions of a workspace seldom share a
/// row. Ids made in the same millisecond differ by one in their last characters, so the whole
/// id is hashed rather than a character taken. SQLite has one writer at a time anyway, and
/// one row per counter reads fastest there.
pub fn shard(db: &signet_storage::Db, checked: bool, id: &str) -> u32 {
    if checked || db.backend == signet_storage::db::Backend::Sqlite {
        return 0;
    }
    shard_of(id)
}

/// The shard an unchecked action with this id adds to.
fn shard_of(id: &str) -> u32 {
    use std::hash::{Hash, Hasher};
    let mut h = std::hash::DefaultHasher::new();
    id.hash(&mut h);
    (h.finish() % u64::from(SHARDS)) as u32
}

/// Adds `n` to a counter of the current period, in its row `shard` (see `shard`). Call
/// inside the transaction of the action being counted.
pub async fn add<C: Sql>(
    conn: &C,
    db: &signet_storage::Db,
    workspace_id: &str,
    metric: &str,
    n: i64,
    shard: u32,
) -> Result<(), DomainError> {
    let [month, day] = periods(Utc::now());
    let period = if metric == DOCUMENTS_SENT {
        month.0
    } else {
        day.0
    };
    conn.exec_deferred(db.stmt(
        "INSERT INTO usage_counters (workspace_id, metric, period, shard, count) VALUES ($1, $2, $3, $5, $4) \
         ON CONFLICT (workspace_id, metric, period, shard) DO UPDATE SET count = usage_counters.count + $4",
        [
            Value::from(workspace_id),
            Value::from(metric),
            Value::from(period),
            Value::from(n),
            Value::from(shard as i32),
        ],
    ))
    .await?;
    Ok(())
}

/// Live documents sent this calendar month (UTC), outside any transaction: an inline read on
/// SQLite, so the check before every send costs no hand-off to a pool thread.
pub async fn documents_sent(
    db: &signet_storage::Db,
    workspace_id: &str,
) -> Result<i64, DomainError> {
    let [month, _] = periods(Utc::now());
    let counts = db
        .usage_counts(workspace_id, &[(DOCUMENTS_SENT, month.0.as_str())])
        .await?;
    Ok(counts[0])
}

/// Today (UTC) as the emails counter's period.
pub fn today() -> String {
    Utc::now().format("%Y-%m-%d").to_string()
}

/// The next midnight UTC, when the daily email allowance starts again.
pub fn next_midnight_ms() -> i64 {
    let [_, day] = periods(Utc::now());
    chrono::DateTime::parse_from_rfc3339(&day.2)
        .map(|t| t.timestamp_millis())
        .unwrap_or_else(|_| signet_storage::now_ms() + 86_400_000)
}

/// A daily counter's count today (UTC), read inside a transaction.
pub async fn counted_today<C: Sql>(
    conn: &C,
    db: &signet_storage::Db,
    workspace_id: &str,
    metric: &str,
) -> Result<i64, DomainError> {
    counted_in(conn, db, workspace_id, metric, &today()).await
}

async fn counted_in<C: Sql>(
    conn: &C,
    db: &signet_storage::Db,
    workspace_id: &str,
    metric: &str,
    period: &str,
) -> Result<i64, DomainError> {
    let row = conn
        .row(db.stmt(
            "SELECT CAST(COALESCE(SUM(count), 0) AS BIGINT) AS count FROM usage_counters \
             WHERE workspace_id = $1 AND metric = $2 AND period = $3",
            [
                Value::from(workspace_id),
                Value::from(metric),
                Value::from(period),
            ],
        ))
        .await?;
    Ok(match row {
        Some(r) => r.try_get("", "count")?,
        None => 0,
    })
}

/// Live documents sent this calendar month (UTC), read inside a transaction.
pub async fn documents_sent_in<C: Sql>(
    conn: &C,
    db: &signet_storage::Db,
    workspace_id: &str,
) -> Result<i64, DomainError> {
    let [month, _] = periods(Utc::now());
    counted_in(conn, db, workspace_id, DOCUMENTS_SENT, &month.0).await
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Ids made back to back (most in one millisecond, where they differ by one) spread over
    /// every shard, none taking more than about twice its share.
    #[test]
    fn unchecked_sends_spread_over_every_shard() {
        let mut hits = vec![0u32; SHARDS as usize];
        for _ in 0..6400 {
            hits[shard_of(&signet_core::ids::new_id("doc")) as usize] += 1;
        }
        assert!(hits.iter().all(|&n| n > 0), "{hits:?}");
        assert!(hits.iter().all(|&n| n < 200), "{hits:?}");
    }

    #[test]
    fn periods_roll_over_at_month_and_year_ends() {
        let t = Utc.with_ymd_and_hms(2026, 12, 31, 23, 59, 59).unwrap();
        let [month, day] = periods(t);
        assert_eq!(
            month,
            (
                "2026-12".into(),
                "2026-12-01T00:00:00Z".into(),
                "2027-01-01T00:00:00Z".into()
            )
        );
        assert_eq!(
            day,
            (
                "2026-12-31".into(),
                "2026-12-31T00:00:00Z".into(),
                "2027-01-01T00:00:00Z".into()
            )
        );
    }
}
