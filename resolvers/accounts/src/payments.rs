//! Payment readiness. Until a payment processor account can be connected (a later issue) every
//! workspace is `not_connected`, which is the truth: no document can collect money yet.

use serde::Serialize;

use signet_core::{Actor, Ctx, DomainError, Scope};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, utoipa::ToSchema, async_graphql::Enum)]
#[serde(rename_all = "snake_case")]
#[graphql(rename_items = "snake_case")]
pub enum PaymentReadiness {
    /// Details submitted, charges on, nothing due.
    Connected,
    NeedsAttention,
    NotConnected,
}

#[derive(Clone, Debug, Serialize, utoipa::ToSchema, async_graphql::SimpleObject)]
#[serde(rename_all = "camelCase")]
pub struct PaymentsStatusOut {
    pub status: PaymentReadiness,
    /// The service's fee on payments for the workspace's plan, in percent (processor fees apart).
    pub fee_percent: i32,
}

pub async fn status(ctx: &Ctx, actor: &Actor) -> Result<PaymentsStatusOut, DomainError> {
    actor.require(Scope::MoneyRead)?;
    Ok(PaymentsStatusOut {
        status: PaymentReadiness::NotConnected,
        fee_percent: ctx.plans.limits(actor.plan).payment_fee_percent as i32,
    })
}
