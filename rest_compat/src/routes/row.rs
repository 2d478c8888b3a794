//! What a row of the route table is, and what rows share: access, the idempotency rule,
//! query parameters, body limits, the helpers that write the common shapes of row.

pub use axum::http::Method;
use axum::routing::MethodRouter;
pub use signet_core::Scope;
use utoipa::openapi::{RefOr, Schema};

use crate::state::AppState;

/// Who may call a route.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    /// No key needed (documents, GraphiQL); budgeted per client address.
    Public,
    /// The signing page's calls: no key, a signing link or session (`Authorization: Link
    /// …`) that must open a document before the body is read; budgeted per client address.
    Link,
    /// Any valid key, or the application's session cookie from its own pages; the operation
    /// checks scopes itself (GraphQL).
    AnyKey,
    /// The application's session cookie from its own pages, and nothing else (signing out).
    Session,
    /// A key holding this scope.
    Scope(Scope),
    /// A key holding either scope; the operation decides what each allows (the check of a
    /// template's words takes `templates:write`, any other check `documents:read`).
    Either(Scope, Scope),
    /// A key of a Pro workspace holding this scope (plays, playbooks and drafts): the
    /// resolver refuses, with a 403 naming what is missing, a Free workspace and a key
    /// without the scope (docs/decisions/plays.md); other credential failures are the one
    /// 401.
    Pro(Scope),
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

pub fn pdf_file(_: &mut Vec<(String, RefOr<Schema>)>) -> String {
    PDF_FILE.to_string()
}

pub fn csv_file(_: &mut Vec<(String, RefOr<Schema>)>) -> String {
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
    /// JSON Schema type: `string` or `integer`, or `object` for a map of strings written
    /// `name[key]=value` (OpenAPI's deepObject style).
    pub ty: &'static str,
    pub description: &'static str,
    /// Bounds of an integer parameter, as the resolver enforces them.
    pub range: Option<(i64, i64)>,
}

#[derive(Clone)]
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
    /// The JSON body may be left out (the OpenAPI document says it is not required).
    pub optional_body: bool,
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
    /// A row answering `GET path` (relative to its table's prefix), named `operation_id`, open
    /// to `access`, answered by `handler`; the builder methods below set the rest.
    pub const fn get(
        path: &'static str,
        operation_id: &'static str,
        access: Access,
        handler: fn() -> MethodRouter<AppState>,
    ) -> Route {
        Route::new(Method::GET, path, operation_id, access, handler, 0)
    }

    pub const fn post(
        path: &'static str,
        operation_id: &'static str,
        access: Access,
        handler: fn() -> MethodRouter<AppState>,
    ) -> Route {
        Route::new(
            Method::POST,
            path,
            operation_id,
            access,
            handler,
            DEFAULT_BODY_LIMIT,
        )
    }

    pub const fn put(
        path: &'static str,
        operation_id: &'static str,
        access: Access,
        handler: fn() -> MethodRouter<AppState>,
    ) -> Route {
        Route::new(
            Method::PUT,
            path,
            operation_id,
            access,
            handler,
            DEFAULT_BODY_LIMIT,
        )
    }

    pub const fn delete(
        path: &'static str,
        operation_id: &'static str,
        access: Access,
        handler: fn() -> MethodRouter<AppState>,
    ) -> Route {
        Route::new(Method::DELETE, path, operation_id, access, handler, 0)
    }

    /// A row with no summary, no idempotency rule, no query, no request body described, an
    /// answer described as nothing, 200 on success, and a body limit of
    /// [`DEFAULT_BODY_LIMIT`] for a POST or PUT and none for a GET or DELETE (the door still
    /// takes a small body such as `{}` and ignores it).
    const fn new(
        method: Method,
        path: &'static str,
        operation_id: &'static str,
        access: Access,
        handler: fn() -> MethodRouter<AppState>,
        body_limit: usize,
    ) -> Route {
        Route {
            method,
            path,
            operation_id,
            summary: "",
            access,
            idempotency: Idem::None,
            query: &[],
            request: None,
            response: no_answer,
            success: 200,
            statuses: &[],
            body_limit,
            optional_body: false,
            handler,
        }
    }

    pub const fn summary(mut self, summary: &'static str) -> Route {
        self.summary = summary;
        self
    }

    pub const fn idempotency(mut self, rule: Idem) -> Route {
        self.idempotency = rule;
        self
    }

    pub const fn query(mut self, params: &'static [QueryParam]) -> Route {
        self.query = params;
        self
    }

    /// The JSON body's schema.
    pub const fn request(mut self, schema: SchemaFn) -> Route {
        self.request = Some(schema);
        self
    }

    /// The answer's schema ([`pdf_file`] and [`csv_file`] for files).
    pub const fn response(mut self, schema: SchemaFn) -> Route {
        self.response = schema;
        self
    }

    /// The status of success, when it is not 200.
    pub const fn success(mut self, status: u16) -> Route {
        self.success = status;
        self
    }

    pub const fn statuses(mut self, statuses: &'static [(u16, &'static str)]) -> Route {
        self.statuses = statuses;
        self
    }

    pub const fn body_limit(mut self, bytes: usize) -> Route {
        self.body_limit = bytes;
        self
    }

    /// The row's JSON body may be left out.
    pub const fn optional_body(mut self) -> Route {
        self.optional_body = true;
        self
    }

    pub fn full_path(&self) -> String {
        format!("/api/v1{}", self.path)
    }
}

/// The answer of a row outside the OpenAPI document, which describes none.
fn no_answer(_: &mut Vec<(String, RefOr<Schema>)>) -> String {
    String::new()
}

pub(super) const NOT_FOUND: (u16, &str) = (
    404,
    "No such document, or one of the other mode than the key's.",
);
pub(super) const HOOK_NOT_FOUND: (u16, &str) = (
    404,
    "No such webhook endpoint, or one of the other mode than the key's.",
);
/// The page size of a list, as `PageRequest` bounds it.
pub(super) const LIMIT: QueryParam = QueryParam {
    name: "limit",
    ty: "integer",
    description: "1 to 200; default 50.",
    range: Some((1, 200)),
};
pub(super) const CURSOR: QueryParam = QueryParam {
    name: "cursor",
    ty: "string",
    description: "page.nextCursor of the previous page.",
    range: None,
};
pub(super) const LOCALE: QueryParam = QueryParam {
    name: "locale",
    ty: "string",
    description: "One of en, es, fr, de, pt, it, nl, pl, tr, ru, ar, ja, zh, ko; default en.",
    range: None,
};
pub(super) const NOT_OUT: (u16, &str) = (
    409,
    "The document is not in a state that allows this; the message says which it is in.",
);
