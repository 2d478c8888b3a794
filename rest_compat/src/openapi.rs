//! The OpenAPI 3.1 document, generated from the route table and the schemas of the request
//! and response types. Served at `/api/openapi.json` and committed as `openapi.json`.

use axum::Router;
use axum::routing::get;
use serde_json::{Map, Value, json};
use signet_core::SERVICE_VERSION;

use crate::AppState;
use crate::routes::ROUTES;
use crate::routes::row::{Access, Idem, Route};

pub fn document() -> Value {
    build(&ROUTES)
}

fn error_response(description: &str) -> Value {
    json!({
        "description": description,
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
    })
}

fn rate_headers() -> Value {
    let int = |d: &str| json!({"description": d, "schema": {"type": "integer"}});
    json!({
        "Request-Id": {"description": "Id of this request; quote it to support.", "schema": {"type": "string"}},
        "Service-Version": {"description": "The API version date.", "schema": {"type": "string", "const": SERVICE_VERSION}},
        "RateLimit-Limit": int("Requests allowed per minute for this key."),
        "RateLimit-Remaining": int("Requests left in the current minute."),
        "RateLimit-Reset": int("Seconds until the budget starts again."),
    })
}

fn operation(
    route: &Route,
    schemas: &mut Vec<(String, utoipa::openapi::RefOr<utoipa::openapi::Schema>)>,
) -> Value {
    let mut params: Vec<Value> = route
        .path
        .split('/')
        .filter_map(|seg| seg.strip_prefix('{').and_then(|s| s.strip_suffix('}')))
        .map(|name| json!({"name": name, "in": "path", "required": true, "schema": {"type": "string"}}))
        .collect();
    params.extend(route.query.iter().map(|q| {
        // A map of strings in the query (`metadata[key]=value`): OpenAPI's deepObject style,
        // which every generator turns into a dictionary argument.
        if q.ty == "object" {
            return json!({
                "name": q.name, "in": "query", "required": false, "description": q.description,
                "style": "deepObject", "explode": true,
                "schema": {"type": "object", "additionalProperties": {"type": "string"}}
            });
        }
        let mut schema = json!({"type": q.ty});
        if let Some((min, max)) = q.range {
            schema["minimum"] = json!(min);
            schema["maximum"] = json!(max);
        }
        json!({"name": q.name, "in": "query", "required": false, "description": q.description, "schema": schema})
    }));
    if route.idempotency != Idem::None {
        params.push(json!({
            "name": "Idempotency-Key",
            "in": "header",
            "required": route.idempotency == Idem::Required,
            "description": "8 to 200 characters. The same key and body within 24 hours answers the first result again, with Idempotent-Replayed: true.",
            "schema": {"type": "string", "minLength": 8, "maxLength": 200}
        }));
    }
    let ok = (route.response)(schemas);
    let content = match ok.strip_prefix('@') {
        Some(media) if media == "application/pdf" => {
            json!({media: {"schema": {"type": "string", "format": "binary"}}})
        }
        Some(media) => json!({media: {"schema": {"type": "string"}}}),
        None => {
            json!({"application/json": {"schema": {"$ref": format!("#/components/schemas/{ok}")}}})
        }
    };
    let mut responses = Map::new();
    let mut success = json!({
        "description": "Success",
        "headers": rate_headers(),
        "content": content,
    });
    if ok.starts_with('@') {
        success["headers"]["Content-Disposition"] = json!({
            "description": "attachment, with a file name made of the title and the document id",
            "schema": {"type": "string"}
        });
    }
    responses.insert(route.success.to_string(), success);
    for (status, what) in [
        (400, "The request is not valid; the message names the field and the reason."),
        (401, "The key is missing, wrong, revoked, expired, used from an address it is not allowed from, or lacks the scope. The answer is the same for all."),
        (403, "The key is valid but the action is not allowed."),
        (429, "Over the key's per-minute budget or daily limit. Carries Retry-After."),
    ]
    .into_iter()
    .chain(route.statuses.iter().copied())
    {
        if status < 300 {
            responses.insert(
                status.to_string(),
                json!({
                    "description": what,
                    "headers": rate_headers(),
                    "content": {"application/json": {"schema": {"$ref": format!("#/components/schemas/{ok}")}}}
                }),
            );
        } else {
            responses.insert(status.to_string(), error_response(what));
        }
    }
    let mut op = json!({
        "operationId": operation_id(route),
        "tags": [tag(route)],
        "summary": route.summary,
        "parameters": params,
        "responses": responses,
    });
    match route.access {
        Access::Scope(s) => {
            op["security"] = json!([{"bearer": []}]);
            op["x-scope"] = json!(s.as_str());
        }
        Access::Either(s, t) => {
            op["security"] = json!([{"bearer": []}]);
            op["x-scope"] = json!(s.as_str());
            op["x-scope-or"] = json!(t.as_str());
        }
        Access::Pro(s) => {
            op["security"] = json!([{"bearer": []}]);
            op["x-scope"] = json!(s.as_str());
            op["x-plan"] = json!("pro");
        }
        Access::AnyKey => op["security"] = json!([{"bearer": []}]),
        Access::Public | Access::Link | Access::Session => op["security"] = json!([]),
    }
    if let Some(req) = route.request {
        let name = req(schemas);
        op["requestBody"] = json!({
            "required": !route.optional_body,
            "content": {"application/json": {"schema": {"$ref": format!("#/components/schemas/{name}")}}}
        });
    }
    op
}

/// The resource a route belongs to: the middle of its id `v1.<resource>.<action>`. Generators
/// group operations by it (one module or class per resource).
pub fn tag(route: &Route) -> &'static str {
    route.operation_id.split('.').nth(1).unwrap_or("default")
}

/// The OpenAPI `operationId`: resource then action in camelCase (`v1.documents.signedPdf` is
/// `documentsSignedPdf`), so generated method names read `documents_signed_pdf` in Python and
/// stay unique across resources.
pub fn operation_id(route: &Route) -> String {
    let mut parts = route.operation_id.split('.').skip(1);
    let mut id = parts.next().unwrap_or_default().to_string();
    for part in parts {
        let mut chars = part.chars();
        if let Some(first) = chars.next() {
            id.extend(first.to_uppercase());
            id.push_str(chars.as_str());
        }
    }
    id
}

/// What each tag (resource) is, in the order the document lists them.
const TAGS: &[(&str, &str)] = &[
    (
        "documents",
        "Documents: make, check, send, follow, remind, void, test-sign and download.",
    ),
    (
        "templates",
        "Templates made from words, HTML, PDF, Office files and pictures, and documents from them.",
    ),
    (
        "plays",
        "Plays: reusable drafting recipes a workspace keeps and publishes.",
    ),
    (
        "playbooks",
        "Playbooks: a workspace's rules that drafting follows.",
    ),
    (
        "drafts",
        "Drafts made from a play, answered a round of questions at a time.",
    ),
    ("ai", "AI drafting and editing jobs."),
    (
        "embedded",
        "Sessions for the embeddable template builder and Scribe frames.",
    ),
    (
        "webhooks",
        "Webhook endpoints, their deliveries, replays and the relay.",
    ),
    ("emails", "The log of emails sent."),
    (
        "emailTemplates",
        "The workspace's email texts per kind and language.",
    ),
    (
        "payments",
        "Connecting the workspace's Stripe account for payment fields.",
    ),
    ("usage", "What the workspace has used this period."),
    ("reports", "Reports over documents sent and signed."),
    ("teams", "The workspace's teams."),
];

pub fn build(routes: &[Route]) -> Value {
    let mut schemas = Vec::new();
    let mut paths = Map::new();
    for route in routes {
        let op = operation(route, &mut schemas);
        let entry = paths.entry(route.full_path()).or_insert_with(|| json!({}));
        entry[route.method.as_str().to_ascii_lowercase()] = op;
    }
    let mut components = Map::new();
    for (name, schema) in schemas {
        components.insert(name, serde_json::to_value(schema).unwrap_or(Value::Null));
    }
    components.insert(
        "Error".into(),
        json!({
            "type": "object",
            "required": ["error"],
            "properties": {"error": {
                "type": "object",
                "required": ["kind", "message", "requestId", "retryable"],
                "properties": {
                    "kind": {"type": "string", "enum": ["invalid", "unauthenticated", "forbidden", "not_found", "conflict", "rate_limited", "dependency", "timeout"]},
                    "message": {"type": "string"},
                    "requestId": {"type": "string"},
                    "retryable": {"type": "boolean"}
                }
            }}
        }),
    );
    let mut sorted: Vec<_> = components.into_iter().collect();
    sorted.sort_by(|a, b| a.0.cmp(&b.0));
    json!({
        "openapi": "3.1.0",
        "info": {
            "title": "Signet API",
            "version": SERVICE_VERSION,
            "description": "Electronic signatures: send documents, follow them, receive signed webhooks. Every request carries Authorization: Bearer <API_KEY>.",
            "license": {"name": "AGPL-3.0-or-later", "identifier": "AGPL-3.0-or-later"}
        },
        "servers": [{"url": "/"}],
        "tags": TAGS.iter().filter(|(name, _)| routes.iter().any(|r| tag(r) == *name))
            .map(|(name, description)| json!({"name": name, "description": description}))
            .collect::<Vec<_>>(),
        "security": [{"bearer": []}],
        "paths": paths,
        "components": {
            "schemas": Map::from_iter(sorted),
            "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer", "description": "An API key: svc_live_... or svc_test_..."}}
        }
    })
}

/// The document is the same for the life of the process: made once, served as bytes.
static SERVED: std::sync::LazyLock<axum::body::Bytes> =
    std::sync::LazyLock::new(|| serde_json::to_vec(&document()).unwrap_or_default().into());

pub(crate) fn router() -> Router<AppState> {
    Router::new().route(
        "/api/openapi.json",
        get(|| async {
            (
                [(axum::http::header::CONTENT_TYPE, "application/json")],
                SERVED.clone(),
            )
        }),
    )
}
