//! A key's daily limit of drafts and sends. Every resolver that creates a draft or sends calls
//! `spend_daily` first; past the limit the answer is 429 until midnight UTC.

use chrono::Utc;

use crate::{Actor, Ctx, DomainError};

pub async fn spend_daily(ctx: &Ctx, actor: &Actor) -> Result<(), DomainError> {
    let Some(limit) = actor.daily_limit else {
        return Ok(());
    };
    let now = Utc::now();
    let day = now.format("%Y-%m-%d").to_string();
    if ctx.daily.spend(&actor.key_id, &day, limit).await? {
        return Ok(());
    }
    let midnight = (now.date_naive() + chrono::Days::new(1))
        .and_hms_opt(0, 0, 0)
        .map(|t| t.and_utc())
        .unwrap_or(now);
    let retry_after_secs = (midnight - now).num_seconds().max(1) as u64;
    Err(DomainError::RateLimited {
        message: format!(
            "This key's daily limit of {limit} drafts and sends is used up; it resets at midnight UTC."
        ),
        retry_after_secs,
    })
}
