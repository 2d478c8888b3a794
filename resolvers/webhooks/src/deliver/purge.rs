//! Housekeeping of delivered and relayed messages and their attempts.

use sea_orm::Value;
use signet_core::{Ctx, DomainError};

/// Housekeeping: relay messages older than a day, and attempts and finished messages older
/// than 30 days, are deleted.
pub async fn purge(ctx: &Ctx) -> Result<(), DomainError> {
    let now = ctx.now();
    let day = 86_400_000;
    // Relay messages are kept a day; others 30 days after they finished (a message still
    // being retried is never older than the retry schedule).
    signet_core::purge::in_batches(
        ctx,
        "webhook_messages",
        "created_at < $1 AND state = 'stored'",
        vec![Value::from(now - day)],
    )
    .await?;
    signet_core::purge::in_batches(
        ctx,
        "webhook_messages",
        "created_at < $1 AND state <> 'stored' AND finished_at IS NOT NULL AND finished_at < $1",
        vec![Value::from(now - 30 * day)],
    )
    .await?;
    signet_core::purge::in_batches(
        ctx,
        "webhook_attempts",
        "created_at < $1",
        vec![Value::from(now - 30 * day)],
    )
    .await?;
    Ok(())
}
