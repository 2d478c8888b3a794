//! The per-minute budgets the door spends: the anonymous budget of a client address (public
//! routes, failed credentials, answers no route's door made), the rate headers every answer
//! carries, and the error past a budget.

use std::net::IpAddr;

use axum::http::{HeaderMap, HeaderValue};
use signet_core::DomainError;
use signet_storage::state::BudgetState;

use super::client::anonymous_bucket;
use crate::state::AppState;

pub(crate) async fn anonymous_budget(state: &AppState, ip: IpAddr) -> BudgetState {
    let limit = state.config.anonymous_per_minute;
    match state.ctx.budget.hit(&anonymous_bucket(ip), limit).await {
        Ok(b) => b,
        Err(e) => {
            tracing::warn!(error = %e, "rate budget unavailable; letting the request through");
            BudgetState {
                limit,
                remaining: limit,
                reset_secs: 60,
                allowed: true,
            }
        }
    }
}

pub(crate) fn set_rate_headers(h: &mut HeaderMap, b: &BudgetState) {
    h.insert("ratelimit-limit", HeaderValue::from(b.limit));
    h.insert("ratelimit-remaining", HeaderValue::from(b.remaining));
    h.insert("ratelimit-reset", HeaderValue::from(b.reset_secs));
}

pub(crate) fn over_budget(b: &BudgetState) -> DomainError {
    DomainError::RateLimited {
        message: format!(
            "Over the budget of {} requests a minute; retry after {} seconds.",
            b.limit, b.reset_secs
        ),
        retry_after_secs: b.reset_secs,
    }
}
