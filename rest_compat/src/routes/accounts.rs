//! The route table's rows for the account: usage, reports, teams and payments.

use super::row::*;
use crate::handlers::{accounts, payments};

pub static ROUTES: &[Route] = &[
    Route::get("/usage", "v1.usage.get", Access::Scope(Scope::AccountRead), accounts::usage)
        .summary("Documents sent this month and emails sent today, with the plan's allowances")
        .response(schema_of::<signet_accounts::usage::UsageOut>),
    Route::get("/reports", "v1.reports.get", Access::Scope(Scope::ReportsRead), accounts::reports)
        .summary("Real documents sent and completed over a window of days, in all or by team")
        .query(&[
            QueryParam {
                name: "from",
                ty: "string",
                description: "First day (YYYY-MM-DD) in the workspace's time zone; default 29 days before `to`.",
                range: None,
            },
            QueryParam {
                name: "to",
                ty: "string",
                description: "Last day, included; default today. At most 366 days in all.",
                range: None,
            },
            QueryParam {
                name: "team",
                ty: "string",
                description: "A team id: only documents whose sender (the `sender.email` fact, else `send.replyTo`) is one of its members.",
                range: None,
            },
        ])
        .response(schema_of::<signet_accounts::reports::ReportOut>)
        .statuses(&[(404, "No such team in the workspace.")]),
    Route::get("/teams", "v1.teams.list", Access::Scope(Scope::PeopleRead), accounts::teams)
        .summary("Teams of the workspace and their members")
        .response(schema_of::<signet_accounts::teams::TeamsOut>),
    Route::get("/payments/status", "v1.payments.status", Access::Scope(Scope::MoneyRead), payments::status)
        .summary("Whether the workspace can collect payments: connected, needs_attention or not_connected")
        .response(schema_of::<signet_payments::PaymentsStatusOut>),
    Route::post("/payments/connect", "v1.payments.connect", Access::Scope(Scope::MoneyWrite), payments::connect)
        .summary("A link to the processor's onboarding for the workspace's own account, made on first use (addition)")
        .idempotency(Idem::Optional)
        .optional_body()
        .response(schema_of::<signet_payments::PaymentsConnectOut>)
        .statuses(&[(409, "The installation has no processor keys for this mode, or the processor refused.")]),
    Route::delete("/payments/connect", "v1.payments.disconnect", Access::Scope(Scope::MoneyWrite), payments::disconnect)
        .summary("The workspace forgets its account of this mode; it stays the workspace's own at the processor (addition)")
        .response(schema_of::<signet_payments::PaymentsStatusOut>),
];
