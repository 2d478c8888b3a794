//! A key's daily limit of drafts and sends, and a workspace's daily allowance of test sends.
//! Every resolver that creates a draft or sends calls `spend_daily` first, and every test
//! send `spend_test_send`; past either the answer is 429 until midnight UTC.

use chrono::{DateTime, Utc};
use signet_storage::state::BudgetState;

use crate::{Actor, Ctx, DomainError};

/// Spends `units` of the key's per-minute budget: one for a request, one for each root field
/// of a GraphQL operation, and more for large answers (`charge_size`).
pub async fn spend(ctx: &Ctx, actor: &Actor, units: u64) -> Result<BudgetState, DomainError> {
    Ok(ctx
        .budget
        .hit_n(&format!("key:{}", actor.id()), actor.per_minute, units)
        .await?)
}

/// Bytes one unit of the key's budget pays for.
pub const SIZE_UNIT: u64 = 256 * 1024;

/// Spends one unit of the key's budget for each [`SIZE_UNIT`] of `bytes` beyond the first: an
/// answer of 1.5 MB, or a GraphQL field that reads a 1.5 MB record, costs what that much work
/// is worth, not one request. Spent after the work (its size is known then), so it slows the
/// key's next requests. Answers the budget after the charge, when there was one.
pub async fn charge_size(ctx: &Ctx, actor: &Actor, bytes: u64) -> Option<BudgetState> {
    let units = bytes / SIZE_UNIT;
    if units == 0 {
        return None;
    }
    spend(ctx, actor, units).await.ok()
}

pub async fn spend_daily(ctx: &Ctx, actor: &Actor) -> Result<(), DomainError> {
    let Some(limit) = actor.daily_limit else {
        return Ok(());
    };
    let now = Utc::now();
    let day = now.format("%Y-%m-%d").to_string();
    if ctx.daily.spend(actor.id(), &day, limit).await? {
        return Ok(());
    }
    Err(DomainError::RateLimited {
        message: format!(
            "This key's daily limit of {limit} drafts and sends is used up; it resets at midnight UTC."
        ),
        retry_after_secs: until_midnight(now),
    })
}

/// One of the workspace's test sends of the day (the plan's `test_sends_per_day`).
pub async fn spend_test_send(ctx: &Ctx, actor: &Actor) -> Result<(), DomainError> {
    let limit = ctx.plans.limits(actor.plan).test_sends_per_day;
    let now = Utc::now();
    let day = now.format("%Y-%m-%d").to_string();
    if ctx
        .daily
        .spend_workspace(&actor.workspace_id, "test_sends", &day, limit)
        .await?
    {
        return Ok(());
    }
    Err(DomainError::RateLimited {
        message: format!(
            "This workspace's {limit} test sends a day are used up; they renew at midnight UTC."
        ),
        retry_after_secs: until_midnight(now),
    })
}

pub fn until_midnight(now: DateTime<Utc>) -> u64 {
    let midnight = (now.date_naive() + chrono::Days::new(1))
        .and_hms_opt(0, 0, 0)
        .map(|t| t.and_utc())
        .unwrap_or(now);
    (midnight - now).num_seconds().max(1) as u64
}
