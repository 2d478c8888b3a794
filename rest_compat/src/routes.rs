//! The `/api/v1` route table. Each row is one operation: the axum router and the OpenAPI
//! document are both generated from these rows, so a route cannot exist without its
//! description, scope and idempotency rule.

use axum::Router;
use axum::http::Method;
use axum::routing::MethodRouter;
use signet_resolvers::Scope;
use utoipa::openapi::{RefOr, Schema};

use crate::{AppState, door, handlers};

/// Who may call a route.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    /// No key needed (documents, GraphiQL); budgeted per client address.
    Public,
    /// Any valid key; the operation checks scopes itself (GraphQL).
    AnyKey,
    /// A key holding this scope.
    Scope(Scope),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Idem {
    /// The header is not used.
    None,
    /// Honoured when sent.
    Optional,
    /// A request without it is refused with 400.
    Required,
}

/// Pushes a schema and everything it refers to into `out`; returns its name.
pub type SchemaFn = fn(&mut Vec<(String, RefOr<Schema>)>) -> String;

pub fn schema_of<T: utoipa::ToSchema>(out: &mut Vec<(String, RefOr<Schema>)>) -> String {
    let name = T::name().into_owned();
    out.push((name.clone(), T::schema()));
    T::schemas(out);
    name
}

#[derive(Clone, Copy, Debug)]
pub struct QueryParam {
    pub name: &'static str,
    /// JSON Schema type: `string` or `integer`.
    pub ty: &'static str,
    pub description: &'static str,
}

pub struct Route {
    pub method: Method,
    /// Relative to `/api/v1`, in the `{param}` form both axum and OpenAPI use.
    pub path: &'static str,
    pub operation_id: &'static str,
    pub summary: &'static str,
    pub access: Access,
    pub idempotency: Idem,
    pub query: &'static [QueryParam],
    pub request: Option<SchemaFn>,
    pub response: SchemaFn,
    pub success: u16,
    /// Statuses beyond 400, 401, 403 and 429, with what they mean for this route.
    pub statuses: &'static [(u16, &'static str)],
    /// Largest request body accepted, in bytes.
    pub body_limit: usize,
    pub handler: fn() -> MethodRouter<AppState>,
}

pub const DEFAULT_BODY_LIMIT: usize = 2 * 1024 * 1024;

impl std::fmt::Debug for Route {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {}", self.method, self.path)
    }
}

impl Route {
    pub fn full_path(&self) -> String {
        format!("/api/v1{}", self.path)
    }

    pub(crate) fn mount(
        &'static self,
        router: Router<AppState>,
        state: &AppState,
    ) -> Router<AppState> {
        router.route(
            &self.full_path(),
            door::layer(self, (self.handler)(), state),
        )
    }
}

/// A GET row with no body and no query: most read routes.
const fn read(
    path: &'static str,
    operation_id: &'static str,
    summary: &'static str,
    scope: Scope,
    response: SchemaFn,
    handler: fn() -> MethodRouter<AppState>,
) -> Route {
    Route {
        method: Method::GET,
        path,
        operation_id,
        summary,
        access: Access::Scope(scope),
        idempotency: Idem::None,
        query: &[],
        request: None,
        response,
        success: 200,
        statuses: &[],
        body_limit: 0,
        handler,
    }
}

pub static ROUTES: &[Route] = &[
    read(
        "/usage",
        "v1.usage.get",
        "Documents sent this month and emails sent today, with the plan's allowances",
        Scope::AccountRead,
        schema_of::<signet_resolvers::usage::UsageOut>,
        handlers::usage,
    ),
    read(
        "/teams",
        "v1.teams.list",
        "Teams of the workspace and their members",
        Scope::PeopleRead,
        schema_of::<signet_resolvers::teams::TeamsOut>,
        handlers::teams,
    ),
    read(
        "/payments/status",
        "v1.payments.status",
        "Whether the workspace can collect payments: connected, needs_attention or not_connected",
        Scope::MoneyRead,
        schema_of::<signet_resolvers::payments::PaymentsStatusOut>,
        handlers::payments_status,
    ),
    read(
        "/webhooks/topics",
        "v1.webhooks.topics",
        "The event names a webhook endpoint can subscribe to",
        Scope::WebhooksRead,
        schema_of::<signet_resolvers::webhooks::TopicsOut>,
        handlers::webhook_topics,
    ),
];
