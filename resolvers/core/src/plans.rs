//! Plans and their allowances. The numbers are operator settings (`[plans.free]` and
//! `[plans.pro]` in signet.toml); these are the defaults written down in
//! `docs/decisions/foundation.md`.

use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Plan {
    Free,
    Pro,
}

impl Plan {
    pub fn as_str(self) -> &'static str {
        match self {
            Plan::Free => "free",
            Plan::Pro => "pro",
        }
    }

    pub fn parse(s: &str) -> Option<Plan> {
        match s {
            "free" => Some(Plan::Free),
            "pro" => Some(Plan::Pro),
            _ => None,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "snake_case")]
pub struct PlanLimits {
    /// Live documents sent per calendar month (UTC); `None` means no limit.
    pub documents_per_month: Option<u64>,
    /// Live emails sent per day (UTC); `None` means no limit.
    pub emails_per_day: Option<u64>,
    /// Default per-minute request budget of a key on this plan.
    pub requests_per_minute: u64,
    /// Service fee on payments, in percent.
    pub payment_fee_percent: u32,
    /// Test documents a workspace may send per day (UTC). They are free and never counted in
    /// usage, but each one writes rows, webhook deliveries and emails like a real one.
    pub test_sends_per_day: u64,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Plans {
    pub free: PlanLimits,
    pub pro: PlanLimits,
}

impl Default for Plans {
    fn default() -> Self {
        Plans {
            free: PlanLimits {
                documents_per_month: Some(100),
                emails_per_day: Some(500),
                requests_per_minute: 300,
                payment_fee_percent: 2,
                test_sends_per_day: 500,
            },
            pro: PlanLimits {
                documents_per_month: None,
                emails_per_day: Some(10_000),
                requests_per_minute: 1_200,
                payment_fee_percent: 0,
                test_sends_per_day: 5_000,
            },
        }
    }
}

impl Plans {
    pub fn limits(&self, plan: Plan) -> &PlanLimits {
        match plan {
            Plan::Free => &self.free,
            Plan::Pro => &self.pro,
        }
    }
}
