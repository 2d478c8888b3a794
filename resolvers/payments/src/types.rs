//! What payments answer: the workspace's readiness, a link to connect, and a document's
//! payments.

use serde::Serialize;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, utoipa::ToSchema, async_graphql::Enum)]
#[serde(rename_all = "snake_case")]
#[graphql(rename_items = "snake_case")]
pub enum PaymentReadiness {
    /// Details submitted, charges on, nothing due.
    Connected,
    NeedsAttention,
    NotConnected,
}

impl PaymentReadiness {
    pub fn as_str(self) -> &'static str {
        match self {
            PaymentReadiness::Connected => "connected",
            PaymentReadiness::NeedsAttention => "needs_attention",
            PaymentReadiness::NotConnected => "not_connected",
        }
    }
}

#[derive(Clone, Debug, Serialize, utoipa::ToSchema, async_graphql::SimpleObject)]
#[serde(rename_all = "camelCase")]
pub struct PaymentsStatusOut {
    pub status: PaymentReadiness,
    /// The service's fee on payments for the workspace's plan, in percent (processor fees apart).
    pub fee_percent: i32,
    /// `live` or `test`: the mode this readiness is of (a test key's, or the application's
    /// switch). Test documents are paid through the processor's test mode with its test cards.
    pub mode: String,
    /// The connected account (`acct_…`), when there is one.
    pub account_id: Option<String>,
    /// What the processor still asks of the account, in its own words
    /// (`individual.verification.document`), when `needs_attention`.
    pub due: Vec<String>,
    /// Why the processor has turned the account's charges off, when it has.
    pub disabled_reason: Option<String>,
    /// Whether the installation's operator set up the processor for this mode at all.
    pub available: bool,
}

#[derive(Clone, Debug, Serialize, utoipa::ToSchema, async_graphql::SimpleObject)]
#[serde(rename_all = "camelCase")]
pub struct PaymentsConnectOut {
    /// The processor's own onboarding page for the workspace's account: open it in the
    /// browser. It works once, for a few minutes.
    pub url: String,
    pub account_id: String,
}

#[derive(Clone, Debug, Serialize, utoipa::ToSchema, async_graphql::SimpleObject)]
#[serde(rename_all = "camelCase")]
pub struct PaymentOut {
    /// `pay_…`.
    pub id: String,
    /// In the currency's minor unit (cents; yen have none).
    pub amount: i64,
    /// Lower case, as the processor writes it (`usd`).
    pub currency: String,
    /// The service's fee in the same unit: 2% of the amount on Free, 0 on Pro.
    pub fee: i64,
    /// `open` (Checkout started, not paid), `paid`, `partially_refunded`, `refunded`,
    /// `disputed`, `expired` (the Checkout ran out unpaid) or `mismatch` (the processor
    /// charged another amount than asked: not counted as paid; look into it at Stripe).
    pub status: String,
    /// The seat whose person pays.
    pub seat: String,
    pub description: Option<String>,
    /// Refunded so far, in the minor unit.
    pub refunded: i64,
    /// The processor's receipt page and number, once paid.
    pub receipt_url: Option<String>,
    pub receipt_number: Option<String>,
    pub created_at: String,
    pub paid_at: Option<String>,
}
