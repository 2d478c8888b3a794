//! The `/api/v1` route table. Each row is one operation: the axum router and the OpenAPI
//! document are both generated from these rows, so a route cannot exist without its
//! description, scope and idempotency rule.

use axum::Router;
use axum::http::Method;
use axum::routing::MethodRouter;
use signet_core::Scope;
use utoipa::openapi::{RefOr, Schema};

use crate::{AppState, door, handlers};

/// Who may call a route.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    /// No key needed (documents, GraphiQL); budgeted per client address.
    Public,
    /// The signing page's calls: no key, a signing link or session (`Authorization: Link
    /// …`) that must open a document before the body is read; budgeted per client address.
    Link,
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

/// The answer is a file, not JSON: `openapi` describes these names as their media types.
pub const PDF_FILE: &str = "@application/pdf";
pub const CSV_FILE: &str = "@text/csv";

fn pdf_file(_: &mut Vec<(String, RefOr<Schema>)>) -> String {
    PDF_FILE.to_string()
}

fn csv_file(_: &mut Vec<(String, RefOr<Schema>)>) -> String {
    CSV_FILE.to_string()
}

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
    /// Bounds of an integer parameter, as the resolver enforces them.
    pub range: Option<(i64, i64)>,
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
/// The largest legal body of `POST /templates/html`: 2 MB of HTML as JSON, where every byte
/// may take six (a control character escaped as `\u0001`; Python's `json.dumps` writes an
/// accented letter's two bytes as six), and room for the other fields. GraphQL takes the same
/// page in its `input`, so its limit is this one too.
/// GraphQL takes the bodies of the template mutations in its `input`: its limit is the
/// largest of them.
pub const GRAPHQL_BODY_LIMIT: usize = if FILE_BODY_LIMIT > HTML_BODY_LIMIT {
    FILE_BODY_LIMIT
} else {
    HTML_BODY_LIMIT
};
/// The largest legal body of `POST /templates/file`: a 10 MB file in base64 (four bytes for
/// every three) and room for the other fields.
pub const FILE_BODY_LIMIT: usize =
    signet_documents::templates::MAX_FILE.div_ceil(3) * 4 + 64 * 1024;
pub const HTML_BODY_LIMIT: usize = 6 * signet_documents::templates::MAX_HTML + 64 * 1024;

impl std::fmt::Debug for Route {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {}", self.method, self.path)
    }
}

impl Route {
    const fn with_statuses(mut self, statuses: &'static [(u16, &'static str)]) -> Route {
        self.statuses = statuses;
        self
    }

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

/// A row for a route outside `/api/v1` (GraphQL, the trust routes): it passes through the
/// same door but is not in the OpenAPI document.
pub(crate) fn row(
    method: Method,
    path: &'static str,
    id: &'static str,
    access: Access,
    handler: fn() -> MethodRouter<AppState>,
) -> Route {
    Route {
        method,
        path,
        operation_id: id,
        summary: "",
        access,
        idempotency: Idem::None,
        query: &[],
        request: None,
        response: schema_of::<signet_webhooks::TopicOut>,
        success: 200,
        statuses: &[],
        body_limit: GRAPHQL_BODY_LIMIT,
        handler,
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

/// Operations whose JSON body may be left out.
pub const OPTIONAL_BODY: &[&str] = &[
    "v1.documents.remind",
    "v1.documents.void",
    "v1.webhooks.test",
    "v1.webhooks.rotate",
    "v1.templates.defaults",
];

/// A POST row acting on one document.
#[allow(clippy::too_many_arguments)]
const fn act(
    path: &'static str,
    operation_id: &'static str,
    summary: &'static str,
    idempotency: Idem,
    request: Option<SchemaFn>,
    success: u16,
    statuses: &'static [(u16, &'static str)],
    handler: fn() -> MethodRouter<AppState>,
) -> Route {
    Route {
        method: Method::POST,
        path,
        operation_id,
        summary,
        access: Access::Scope(Scope::DocumentsWrite),
        idempotency,
        query: &[],
        request,
        response: schema_of::<DocumentOut>,
        success,
        statuses,
        body_limit: DEFAULT_BODY_LIMIT,
        handler,
    }
}

use handlers::documents as docs;
use signet_documents::signing::embed::{EmbedSessionIn, EmbedSessionOut};
use signet_documents::templates::{
    TemplateDefaults, TemplateDocumentIn, TemplateFileIn, TemplateHtmlIn, TemplateOut,
    TemplatePageOut, TemplateSendIn, TemplateSourceIn,
};
use signet_documents::types::{
    CheckOut, DocumentCheckIn, DocumentCreateIn, DocumentOut, DocumentPageOut, DocumentReviseIn,
    DocumentSourceOut, RemindIn, TestSignIn, VoidIn,
};

const NOT_FOUND: (u16, &str) = (
    404,
    "No such document, or one of the other mode than the key's.",
);
const HOOK_NOT_FOUND: (u16, &str) = (
    404,
    "No such webhook endpoint, or one of the other mode than the key's.",
);
use crate::hooks;
use crate::mail;
use signet_email::log::EmailPageOut;
use signet_email::templates::{
    EmailPreviewOut, EmailTemplateOut, EmailTemplatesOut, EmailWordingIn,
};
use signet_webhooks::types::{
    DeliveryAttemptsOut, DeliveryOut, RelayOut, WebhookCreateIn, WebhookOut, WebhookPageOut,
    WebhookRotateIn, WebhookTestIn, WebhookTestOut,
};
/// The page size of a list, as `PageRequest` bounds it.
const LIMIT: QueryParam = QueryParam {
    name: "limit",
    ty: "integer",
    description: "1 to 200; default 50.",
    range: Some((1, 200)),
};
const CURSOR: QueryParam = QueryParam {
    name: "cursor",
    ty: "string",
    description: "page.nextCursor of the previous page.",
    range: None,
};
const LOCALE: QueryParam = QueryParam {
    name: "locale",
    ty: "string",
    description: "One of en, es, fr, de, pt, it, nl, pl, tr, ru, ar, ja, zh, ko; default en.",
    range: None,
};
const NOT_OUT: (u16, &str) = (
    409,
    "The document is not in a state that allows this; the message says which it is in.",
);

pub static ROUTES: &[Route] = &[
    Route {
        method: Method::POST,
        path: "/documents/check",
        operation_id: "v1.documents.check",
        summary: "What a person would be told about a source before a document is made from it",
        access: Access::Scope(Scope::DocumentsRead),
        idempotency: Idem::None,
        query: &[],
        request: Some(schema_of::<DocumentCheckIn>),
        response: schema_of::<CheckOut>,
        success: 200,
        statuses: &[],
        body_limit: DEFAULT_BODY_LIMIT,
        handler: docs::check,
    },
    Route {
        method: Method::POST,
        path: "/documents",
        operation_id: "v1.documents.create",
        summary: "Make a document from words: a draft, or sent at once with sendNow",
        access: Access::Scope(Scope::DocumentsWrite),
        idempotency: Idem::Required,
        query: &[],
        request: Some(schema_of::<DocumentCreateIn>),
        response: schema_of::<DocumentOut>,
        success: 201,
        statuses: &[(
            202,
            "sendNow from a draft-only key: the draft is made and its send awaits approval.",
        )],
        body_limit: DEFAULT_BODY_LIMIT,
        handler: docs::create,
    },
    Route {
        method: Method::POST,
        path: "/documents/send",
        operation_id: "v1.documents.sendTemplate",
        summary: "Send a template to one party per seat",
        access: Access::Scope(Scope::DocumentsWrite),
        idempotency: Idem::Required,
        query: &[],
        request: Some(schema_of::<TemplateSendIn>),
        response: schema_of::<DocumentOut>,
        success: 201,
        statuses: &[
            (
                202,
                "A draft-only key: the document is made and its send awaits approval.",
            ),
            (409, "The template waits for a person's approval."),
        ],
        body_limit: DEFAULT_BODY_LIMIT,
        handler: crate::templates::send,
    },
    Route {
        method: Method::GET,
        path: "/documents/templates",
        operation_id: "v1.documents.templates",
        summary: "Approved, current templates to send from, with their seats, newest first",
        access: Access::Scope(Scope::TemplatesRead),
        idempotency: Idem::None,
        query: &[LIMIT, CURSOR],
        request: None,
        response: schema_of::<TemplatePageOut>,
        success: 200,
        statuses: &[],
        body_limit: 0,
        handler: crate::templates::list,
    },
    Route {
        method: Method::POST,
        path: "/templates/source",
        operation_id: "v1.templates.createSource",
        summary: "Make a template from words: its roles are its seats, its unanswered custom chips its questions",
        access: Access::Scope(Scope::TemplatesWrite),
        idempotency: Idem::Required,
        query: &[],
        request: Some(schema_of::<TemplateSourceIn>),
        response: schema_of::<TemplateOut>,
        success: 201,
        statuses: &[],
        body_limit: DEFAULT_BODY_LIMIT,
        handler: crate::templates::create_source,
    },
    Route {
        method: Method::POST,
        path: "/templates/html",
        operation_id: "v1.templates.createHtml",
        summary: "Make a template from an HTML page: cleaned with an allow-list, printed by Typst, a field at each text tag",
        access: Access::Scope(Scope::TemplatesWrite),
        idempotency: Idem::Required,
        query: &[],
        request: Some(schema_of::<TemplateHtmlIn>),
        response: schema_of::<TemplateOut>,
        success: 201,
        statuses: &[],
        body_limit: HTML_BODY_LIMIT,
        handler: crate::templates::create_html,
    },
    Route {
        method: Method::POST,
        path: "/templates/file",
        operation_id: "v1.templates.createFile",
        summary: "Make a template from a PDF with text tags: made safe, a field at each tag, the tags taken out of the page",
        access: Access::Scope(Scope::TemplatesWrite),
        idempotency: Idem::Required,
        query: &[],
        request: Some(schema_of::<TemplateFileIn>),
        response: schema_of::<TemplateOut>,
        success: 201,
        statuses: &[],
        body_limit: FILE_BODY_LIMIT,
        handler: crate::templates::create_file,
    },
    Route {
        method: Method::GET,
        path: "/templates/{id}",
        operation_id: "v1.templates.get",
        summary: "A template with its seats, questions, fields and defaults",
        access: Access::Scope(Scope::TemplatesRead),
        idempotency: Idem::None,
        query: &[],
        request: None,
        response: schema_of::<TemplateOut>,
        success: 200,
        statuses: &[(404, "No such template in this workspace.")],
        body_limit: 0,
        handler: crate::templates::get_one,
    },
    Route {
        method: Method::POST,
        path: "/templates/{id}/documents",
        operation_id: "v1.templates.documents",
        summary: "A document from a written template, with answers to its questions; a draft unless sendNow",
        access: Access::Scope(Scope::DocumentsWrite),
        idempotency: Idem::Required,
        query: &[],
        request: Some(schema_of::<TemplateDocumentIn>),
        response: schema_of::<DocumentOut>,
        success: 201,
        statuses: &[(404, "No such template in this workspace.")],
        body_limit: DEFAULT_BODY_LIMIT,
        handler: crate::templates::documents,
    },
    Route {
        method: Method::POST,
        path: "/templates/{id}/defaults",
        operation_id: "v1.templates.defaults",
        summary: "Save what every later document of the template starts with",
        access: Access::Scope(Scope::TemplatesWrite),
        idempotency: Idem::Optional,
        query: &[],
        request: Some(schema_of::<TemplateDefaults>),
        response: schema_of::<TemplateOut>,
        success: 200,
        statuses: &[(404, "No such template in this workspace.")],
        body_limit: 64 * 1024,
        handler: crate::templates::defaults,
    },
    Route {
        method: Method::GET,
        path: "/documents",
        operation_id: "v1.documents.list",
        summary: "Documents of the key's mode, newest first",
        access: Access::Scope(Scope::DocumentsRead),
        idempotency: Idem::None,
        query: &[
            QueryParam {
                name: "state",
                ty: "string",
                description: "Only documents in this state.",
                range: None,
            },
            QueryParam {
                name: "externalId",
                ty: "string",
                description: "Only documents with this externalId.",
                range: None,
            },
            QueryParam {
                name: "metadata[key]",
                ty: "string",
                description: "metadata[key]=value, repeatable; all must match.",
                range: None,
            },
            LIMIT,
            CURSOR,
        ],
        request: None,
        response: schema_of::<DocumentPageOut>,
        success: 200,
        statuses: &[],
        body_limit: 0,
        handler: docs::list,
    },
    Route {
        method: Method::GET,
        path: "/documents/{id}",
        operation_id: "v1.documents.get",
        summary: "A document with where each person is",
        access: Access::Scope(Scope::DocumentsRead),
        idempotency: Idem::None,
        query: &[],
        request: None,
        response: schema_of::<DocumentOut>,
        success: 200,
        statuses: &[NOT_FOUND],
        body_limit: 0,
        handler: docs::get_one,
    },
    read(
        "/documents/{id}/signed.pdf",
        "v1.documents.signedPdf",
        "The sealed PDF with its certificate of completion (PAdES B-LTA); 404 until the document is executed",
        Scope::DocumentsRead,
        pdf_file,
        docs::signed_pdf,
    )
    .with_statuses(&[(
        404,
        "No such document, one of the other mode than the key's, or not executed yet.",
    )]),
    read(
        "/documents/{id}/audit-log.csv",
        "v1.documents.auditLog",
        "The audit trail as RFC 4180 CSV: time (UTC), event, description, person, document, detail",
        Scope::DocumentsRead,
        csv_file,
        docs::audit_csv,
    )
    .with_statuses(&[NOT_FOUND]),
    Route {
        method: Method::GET,
        path: "/documents/{id}/source",
        operation_id: "v1.documents.source",
        summary: "The document's words, people and choices",
        access: Access::Scope(Scope::DocumentsRead),
        idempotency: Idem::None,
        query: &[],
        request: None,
        response: schema_of::<DocumentSourceOut>,
        success: 200,
        statuses: &[NOT_FOUND],
        body_limit: 0,
        handler: docs::source,
    },
    act(
        "/documents/{id}/revise",
        "v1.documents.revise",
        "Replace a draft with a revised one under a new id; the old draft is deleted",
        Idem::Required,
        Some(schema_of::<DocumentReviseIn>),
        201,
        &[NOT_FOUND, NOT_OUT],
        docs::revise,
    ),
    act(
        "/documents/{id}/send",
        "v1.documents.send",
        "Send a draft for signature",
        Idem::Required,
        None,
        201,
        &[
            (
                202,
                "Draft-only key: an approval is filed and the document stays a draft.",
            ),
            NOT_FOUND,
            NOT_OUT,
        ],
        docs::send,
    ),
    act(
        "/documents/{id}/remind",
        "v1.documents.remind",
        "Remind everyone who is up, or one seat",
        Idem::Optional,
        Some(schema_of::<RemindIn>),
        200,
        &[
            NOT_FOUND,
            (
                409,
                "Nobody is waiting to be reminded, or the document is not out for signature.",
            ),
        ],
        docs::remind,
    ),
    act(
        "/documents/{id}/void",
        "v1.documents.void",
        "Void a document still out for signature",
        Idem::Optional,
        Some(schema_of::<VoidIn>),
        200,
        &[NOT_FOUND, NOT_OUT],
        docs::void,
    ),
    act(
        "/documents/{id}/test-sign",
        "v1.documents.testSign",
        "Sign a seat of a test document with a test key",
        Idem::Optional,
        Some(schema_of::<TestSignIn>),
        200,
        &[
            NOT_FOUND,
            (
                409,
                "Not the seat's turn, already signed, or the document is not out for signature.",
            ),
        ],
        docs::test_sign,
    ),
    Route {
        method: Method::POST,
        path: "/documents/{id}/embed-session",
        operation_id: "v1.documents.embedSession",
        summary: "A one-hour link that signs an embedded seat inside your own site",
        access: Access::Scope(Scope::EmbeddedWrite),
        idempotency: Idem::Required,
        query: &[],
        request: Some(schema_of::<EmbedSessionIn>),
        response: schema_of::<EmbedSessionOut>,
        success: 200,
        statuses: &[
            NOT_FOUND,
            (
                409,
                "The seat was not sent as embedded, it is not its turn, the website is not on the \
                 workspace's list, or embedding is off.",
            ),
        ],
        body_limit: DEFAULT_BODY_LIMIT,
        handler: docs::embed_session,
    },
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
    read(
        "/webhooks/topics",
        "v1.webhooks.topics",
        "The event names a webhook endpoint can subscribe to",
        Scope::WebhooksRead,
        schema_of::<signet_webhooks::TopicsOut>,
        handlers::webhook_topics,
    ),
    Route {
        method: Method::GET,
        path: "/webhooks",
        operation_id: "v1.webhooks.list",
        summary: "Webhook endpoints of the key's mode, newest first",
        access: Access::Scope(Scope::WebhooksRead),
        idempotency: Idem::None,
        query: &[
            LIMIT,
            CURSOR,
        ],
        request: None,
        response: schema_of::<WebhookPageOut>,
        success: 200,
        statuses: &[],
        body_limit: 0,
        handler: hooks::list,
    },
    Route {
        method: Method::POST,
        path: "/webhooks",
        operation_id: "v1.webhooks.create",
        summary: "Add an endpoint: a public https URL, or a relay for signet listen; the secret is shown once",
        access: Access::Scope(Scope::WebhooksWrite),
        idempotency: Idem::Optional,
        query: &[],
        request: Some(schema_of::<WebhookCreateIn>),
        response: schema_of::<WebhookOut>,
        success: 201,
        statuses: &[],
        body_limit: 64 * 1024,
        handler: hooks::create,
    },
    Route {
        method: Method::DELETE,
        path: "/webhooks/{id}",
        operation_id: "v1.webhooks.delete",
        summary: "Remove an endpoint: nothing more is delivered; past deliveries stay in the log",
        access: Access::Scope(Scope::WebhooksWrite),
        idempotency: Idem::None,
        query: &[],
        request: None,
        response: schema_of::<WebhookOut>,
        success: 200,
        statuses: &[HOOK_NOT_FOUND],
        body_limit: 0,
        handler: hooks::remove,
    },
    Route {
        method: Method::POST,
        path: "/webhooks/{id}/test",
        operation_id: "v1.webhooks.test",
        summary: "Send a signed sample event (test: true) at once and answer what the receiver said",
        access: Access::Scope(Scope::WebhooksWrite),
        idempotency: Idem::Optional,
        query: &[],
        request: Some(schema_of::<WebhookTestIn>),
        response: schema_of::<WebhookTestOut>,
        success: 200,
        statuses: &[HOOK_NOT_FOUND],
        body_limit: 64 * 1024,
        handler: hooks::test,
    },
    Route {
        method: Method::POST,
        path: "/webhooks/{id}/rotate",
        operation_id: "v1.webhooks.rotate",
        summary: "A new secret, shown once; both secrets sign during the window",
        access: Access::Scope(Scope::WebhooksWrite),
        idempotency: Idem::Optional,
        query: &[],
        request: Some(schema_of::<WebhookRotateIn>),
        response: schema_of::<WebhookOut>,
        success: 200,
        statuses: &[
            HOOK_NOT_FOUND,
            (409, "Rotated by another request at the same moment; retry."),
        ],
        body_limit: 64 * 1024,
        handler: hooks::rotate,
    },
    Route {
        method: Method::GET,
        path: "/webhooks/{id}/deliveries",
        operation_id: "v1.webhooks.deliveries",
        summary: "The last 50 delivery attempts, newest first",
        access: Access::Scope(Scope::WebhooksRead),
        idempotency: Idem::None,
        query: &[],
        request: None,
        response: schema_of::<DeliveryAttemptsOut>,
        success: 200,
        statuses: &[HOOK_NOT_FOUND],
        body_limit: 0,
        handler: hooks::deliveries,
    },
    Route {
        method: Method::POST,
        path: "/webhooks/{id}/deliveries/{deliveryId}/replay",
        operation_id: "v1.webhooks.replay",
        summary: "Deliver one event again, with the same webhook-id and body",
        access: Access::Scope(Scope::WebhooksWrite),
        idempotency: Idem::Optional,
        query: &[],
        request: None,
        response: schema_of::<DeliveryOut>,
        success: 201,
        statuses: &[
            (
                404,
                "No such endpoint or delivery, or one of the other mode than the key's.",
            ),
            (409, "The endpoint is disabled."),
        ],
        body_limit: 0,
        handler: hooks::replay,
    },
    Route {
        method: Method::GET,
        path: "/webhooks/{id}/relay",
        operation_id: "v1.webhooks.relay",
        summary: "Stored deliveries of a relay endpoint, oldest first, each with the exact headers to forward",
        access: Access::Scope(Scope::WebhooksRead),
        idempotency: Idem::None,
        query: &[
            QueryParam {
                name: "after",
                ty: "string",
                description: "The id of the last delivery already handled; omit for the newest few.",
                range: None,
            },
            QueryParam {
                name: "wait",
                ty: "integer",
                description: "Seconds to wait when there is nothing yet: 0 to 25.",
                range: Some((0, 25)),
            },
            QueryParam {
                name: "limit",
                ty: "integer",
                description: "1 to 100; default 20.",
                range: Some((1, 100)),
            },
        ],
        request: None,
        response: schema_of::<RelayOut>,
        success: 200,
        statuses: &[HOOK_NOT_FOUND],
        body_limit: 0,
        handler: hooks::relay,
    },
    Route {
        method: Method::GET,
        path: "/email-templates",
        operation_id: "v1.emailTemplates.list",
        summary: "The eight kinds of email in one language: the words they go out with, the standard words, what is saved, and each kind's variables",
        access: Access::Scope(Scope::NotificationsRead),
        idempotency: Idem::None,
        query: &[LOCALE],
        request: None,
        response: schema_of::<EmailTemplatesOut>,
        success: 200,
        statuses: &[],
        body_limit: 0,
        handler: mail::templates_list,
    },
    Route {
        method: Method::PUT,
        path: "/email-templates/{kind}",
        operation_id: "v1.emailTemplates.save",
        summary: "Save the wording of one kind in one language; a blank or null field keeps the standard words",
        access: Access::Scope(Scope::NotificationsWrite),
        idempotency: Idem::None,
        query: &[],
        request: Some(schema_of::<EmailWordingIn>),
        response: schema_of::<EmailTemplateOut>,
        success: 200,
        statuses: &[],
        body_limit: 64 * 1024,
        handler: mail::templates_save,
    },
    Route {
        method: Method::DELETE,
        path: "/email-templates/{kind}",
        operation_id: "v1.emailTemplates.reset",
        summary: "Forget the saved wording of one kind in one language: the standard words again",
        access: Access::Scope(Scope::NotificationsWrite),
        idempotency: Idem::None,
        query: &[LOCALE],
        request: None,
        response: schema_of::<EmailTemplateOut>,
        success: 200,
        statuses: &[],
        body_limit: 0,
        handler: mail::templates_remove,
    },
    Route {
        method: Method::POST,
        path: "/email-templates/{kind}/preview",
        operation_id: "v1.emailTemplates.preview",
        summary: "Render wording with made-up names: subject, preview line, plain-text body and HTML; nothing is saved",
        access: Access::Scope(Scope::NotificationsRead),
        idempotency: Idem::Optional,
        query: &[],
        request: Some(schema_of::<EmailWordingIn>),
        response: schema_of::<EmailPreviewOut>,
        success: 200,
        statuses: &[],
        body_limit: 64 * 1024,
        handler: mail::templates_preview,
    },
    Route {
        method: Method::GET,
        path: "/emails",
        operation_id: "v1.emails.list",
        summary: "The email log of the key's mode, newest first: never a body or a link",
        access: Access::Scope(Scope::NotificationsRead),
        idempotency: Idem::None,
        query: &[
            QueryParam {
                name: "documentId",
                ty: "string",
                description: "Only emails about this document.",
                range: None,
            },
            QueryParam {
                name: "to",
                ty: "string",
                description: "Only emails to this address.",
                range: None,
            },
            QueryParam {
                name: "status",
                ty: "string",
                description: "sent, delivered, bounced, complained, failed or paused.",
                range: None,
            },
            QueryParam {
                name: "kind",
                ty: "string",
                description: "invitation, reminder, completed, declined, voided, expired, code or receipt.",
                range: None,
            },
            LIMIT,
            CURSOR,
        ],
        request: None,
        response: schema_of::<EmailPageOut>,
        success: 200,
        statuses: &[],
        body_limit: 0,
        handler: mail::emails,
    },
];
