//! The route table's rows for the account: usage, reports, teams and payment readiness.

use super::row::*;

pub static ROUTES: &[Route] = &[
    read(
        "/usage",
        "v1.usage.get",
        "Documents sent this month and emails sent today, with the plan's allowances",
        Scope::AccountRead,
        schema_of::<signet_accounts::usage::UsageOut>,
        handlers::usage,
    ),
    Route {
        method: Method::GET,
        path: "/reports",
        operation_id: "v1.reports.get",
        summary: "Real documents sent and completed over a window of days, in all or by team",
        access: Access::Scope(Scope::ReportsRead),
        idempotency: Idem::None,
        query: &[
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
        ],
        request: None,
        response: schema_of::<signet_accounts::reports::ReportOut>,
        success: 200,
        statuses: &[(404, "No such team in the workspace.")],
        body_limit: 0,
        optional_body: false,
        handler: handlers::reports,
    },
    read(
        "/teams",
        "v1.teams.list",
        "Teams of the workspace and their members",
        Scope::PeopleRead,
        schema_of::<signet_accounts::teams::TeamsOut>,
        handlers::teams,
    ),
    read(
        "/payments/status",
        "v1.payments.status",
        "Whether the workspace can collect payments: connected, needs_attention or not_connected",
        Scope::MoneyRead,
        schema_of::<signet_accounts::payments::PaymentsStatusOut>,
        handlers::payments_status,
    ),
];
