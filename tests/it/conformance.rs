//! The safety net: one walk of the route table (the rows that make the router and
//! `openapi.json`), so a route is held to these rules the day it is added, and a route the
//! walk cannot build a request for fails it until it is taught. For every REST route: the
//! same 401 for every credential that is not a key holding its scope; 404 for an object of
//! another workspace and, for documents, of the other mode, the object left as it was; the
//! route's declared scope is enough; and, where an Idempotency-Key is taken, the replay,
//! another body refused, and 409 while a first request under the key runs. Then the same
//! workspace and mode checks for every GraphQL field that takes an id (queries, mutations
//! and the subscription), and the one 404 of the signing page's calls for whatever is not
//! a signing link.

use std::time::Duration;

use reqwest::Method;
use serde_json::{Value, json};
use signet_accounts::keys::KeyCreateIn;
use signet_core::Mode;
use signet_rest::routes::ROUTES;
use signet_rest::routes::row::{Access, Idem, Route};
use signet_storage::state::Begin;

use crate::harness::{Answer, Kind, Options, TestApp, until};

/// One request the walk makes: a route with its path filled in and its body.
#[derive(Clone, Debug)]
struct Req {
    method: Method,
    /// Path under the server, with the query.
    path: String,
    body: Option<String>,
    /// Whether the path names a document (held to the key's mode).
    document: bool,
}

/// A workspace's keys: `all` (test mode, every scope) makes the objects.
struct World {
    ws: String,
    all: String,
}

/// A workspace that allows embedding on `SITE`, with its test key holding every scope; the
/// same workspace's live key (the other mode); another workspace's test key.
async fn world(app: &TestApp) -> (World, String, String) {
    let (ws, all) = app.owner().await;
    // Pro, so that plays, playbooks and drafts answer; the stranger's too, so that what it
    // is refused is the object, not the plan.
    signet_accounts::workspaces::update(
        app.ctx(),
        &ws,
        signet_accounts::workspaces::WorkspacePatch {
            embedding: Some(true),
            embed_origins: Some(vec![SITE.to_string()]),
            plan: Some(signet_core::plans::Plan::Pro),
            ai_drafting: Some(true),
            ai_daily_limit: Some(1_000),
            ..Default::default()
        },
    )
    .await
    .unwrap();
    let every: Vec<&str> = signet_core::Scope::ALL.iter().map(|s| s.as_str()).collect();
    let live = app.key(&ws, Mode::Live, &every).await;
    let (stranger_ws, stranger) = app.owner().await;
    signet_accounts::workspaces::update(
        app.ctx(),
        &stranger_ws,
        signet_accounts::workspaces::WorkspacePatch {
            plan: Some(signet_core::plans::Plan::Pro),
            ai_drafting: Some(true),
            ..Default::default()
        },
    )
    .await
    .unwrap();
    (World { ws, all }, live, stranger)
}

/// Each operation's scope and Idempotency-Key rule as the interface contract states them
/// (its list of routes requiring the key; the other POSTs honour it; email wording's PUT and
/// DELETE do not take it). The table must agree: a route that loses its scope or its rule,
/// or disappears, fails here, not only in its own tests.
const CONTRACT: &[(&str, &str, Idem)] = &[
    ("v1.documents.check", "documents:read", Idem::None),
    ("v1.documents.create", "documents:write", Idem::Required),
    (
        "v1.documents.sendTemplate",
        "documents:write",
        Idem::Required,
    ),
    ("v1.documents.templates", "templates:read", Idem::None),
    (
        "v1.templates.createSource",
        "templates:write",
        Idem::Required,
    ),
    ("v1.templates.createHtml", "templates:write", Idem::Required),
    ("v1.templates.createFile", "templates:write", Idem::Required),
    ("v1.templates.get", "templates:read", Idem::None),
    ("v1.templates.documents", "documents:write", Idem::Required),
    ("v1.templates.defaults", "templates:write", Idem::Optional),
    ("v1.templates.source", "templates:read", Idem::None),
    ("v1.templates.newVersion", "templates:write", Idem::Required),
    ("v1.templates.page", "templates:read", Idem::None),
    ("v1.drafts.pages", "drafts:write", Idem::None),
    ("v1.templates.preview", "templates:write", Idem::None),
    ("v1.documents.list", "documents:read", Idem::None),
    ("v1.documents.get", "documents:read", Idem::None),
    ("v1.documents.signedPdf", "documents:read", Idem::None),
    ("v1.documents.auditLog", "documents:read", Idem::None),
    ("v1.documents.source", "documents:read", Idem::None),
    ("v1.documents.revise", "documents:write", Idem::Required),
    ("v1.documents.send", "documents:write", Idem::Required),
    ("v1.documents.remind", "documents:write", Idem::Optional),
    ("v1.documents.void", "documents:write", Idem::Optional),
    ("v1.documents.testSign", "documents:write", Idem::Optional),
    (
        "v1.documents.embedSession",
        "embedded:write",
        Idem::Required,
    ),
    (
        "v1.embedded.scribeSession",
        "embedded:write",
        Idem::Required,
    ),
    (
        "v1.embedded.builderSession",
        "embedded:write",
        Idem::Required,
    ),
    ("v1.usage.get", "account:read", Idem::None),
    ("v1.reports.get", "reports:read", Idem::None),
    ("v1.teams.list", "people:read", Idem::None),
    ("v1.payments.status", "money:read", Idem::None),
    ("v1.payments.connect", "money:write", Idem::Optional),
    ("v1.payments.disconnect", "money:write", Idem::None),
    ("v1.webhooks.topics", "webhooks:read", Idem::None),
    ("v1.webhooks.list", "webhooks:read", Idem::None),
    ("v1.webhooks.create", "webhooks:write", Idem::Optional),
    ("v1.webhooks.delete", "webhooks:write", Idem::None),
    ("v1.webhooks.test", "webhooks:write", Idem::Optional),
    ("v1.webhooks.rotate", "webhooks:write", Idem::Optional),
    ("v1.webhooks.deliveries", "webhooks:read", Idem::None),
    ("v1.webhooks.replay", "webhooks:write", Idem::Optional),
    ("v1.webhooks.relay", "webhooks:read", Idem::None),
    ("v1.emailTemplates.list", "notifications:read", Idem::None),
    ("v1.emailTemplates.save", "notifications:write", Idem::None),
    ("v1.emailTemplates.reset", "notifications:write", Idem::None),
    (
        "v1.emailTemplates.preview",
        "notifications:read",
        Idem::Optional,
    ),
    ("v1.emails.list", "notifications:read", Idem::None),
    ("v1.plays.list", "plays:read", Idem::None),
    ("v1.plays.create", "plays:write", Idem::Optional),
    ("v1.plays.test", "plays:read", Idem::Optional),
    ("v1.plays.get", "plays:read", Idem::None),
    ("v1.plays.archive", "plays:write", Idem::None),
    ("v1.plays.publish", "plays:write", Idem::Optional),
    ("v1.plays.duplicate", "plays:write", Idem::Optional),
    ("v1.playbooks.list", "plays:read", Idem::None),
    ("v1.playbooks.create", "plays:write", Idem::Optional),
    ("v1.drafts.create", "drafts:write", Idem::Optional),
    ("v1.drafts.answers", "drafts:write", Idem::Optional),
    ("v1.ai.draft", "documents:write", Idem::Optional),
    ("v1.ai.edit", "documents:write", Idem::Optional),
    ("v1.ai.job", "documents:read", Idem::None),
    ("v1.ai.cancel", "documents:write", Idem::Optional),
    ("v1.ai.wizard", "documents:read", Idem::None),
];

/// Whether a route is one of plays, playbooks and drafts: a Pro feature whose key without
/// the scope is told so with a 403 (docs/decisions/plays.md).
fn is_pro(path: &str) -> bool {
    ["/plays", "/playbooks", "/drafts"]
        .iter()
        .any(|p| path == *p || path.starts_with(&format!("{p}/")))
}

#[test]
fn the_route_table_keeps_the_contract_s_scopes_and_idempotency() {
    for (op, scope, rule) in CONTRACT {
        let route = ROUTES
            .iter()
            .find(|r| r.operation_id == *op)
            .unwrap_or_else(|| panic!("{op} is gone from the route table"));
        let scope = signet_core::Scope::parse(scope).unwrap();
        let want = if *op == "v1.documents.check" {
            // A template's words are checked with templates:write too (the builder's key).
            Access::Either(scope, signet_core::Scope::TemplatesWrite)
        } else if is_pro(route.path) {
            Access::Pro(scope)
        } else {
            Access::Scope(scope)
        };
        assert_eq!(route.access, want, "{op}");
        assert_eq!(route.idempotency, *rule, "{op}");
    }
    for route in ROUTES.iter() {
        assert!(
            CONTRACT.iter().any(|(op, _, _)| *op == route.operation_id),
            "{} is new: add its scope and rule to CONTRACT",
            route.operation_id
        );
    }
}

fn idem() -> String {
    format!("idem-{}", signet_core::ids::new_id("k"))
}

const SITE: &str = "https://app.example.com";

fn people() -> Value {
    json!([
        {"name": "Ada Client", "email": "ada@example.com", "role": "client", "order": 1},
        {"name": "Bob Provider", "email": "bob@example.com", "role": "provider", "order": 2}
    ])
}

async fn ok(app: &TestApp, method: Method, path: &str, key: &str, body: Value) -> Value {
    let mut req = app
        .client
        .request(method.clone(), format!("{}{path}", app.base))
        .bearer_auth(key)
        .header("idempotency-key", idem());
    if !body.is_null() {
        req = req
            .header("content-type", "application/json")
            .body(body.to_string());
    }
    let a = app.send(req).await;
    assert!(
        a.status.is_success(),
        "{method} {path}: {} {}",
        a.status,
        a.body
    );
    a.body
}

/// A document of `key`'s: a draft, or sent; with `embedded`, its client signs in a frame.
async fn document(app: &TestApp, key: &str, send: bool, embedded: bool) -> String {
    let mut body = json!({
        "title": "Services agreement",
        "source": crate::documents::source(),
        "people": people(),
        "variableValues": {"fee": "1,000 EUR"},
        "sendNow": send,
    });
    if embedded {
        body["embedded"] = json!(["client"]);
    }
    let d = ok(app, Method::POST, "/api/v1/documents", key, body).await;
    d["id"].as_str().unwrap().to_string()
}

/// A test document of `key`'s signed by every seat and sealed.
async fn executed(app: &TestApp, key: &str) -> String {
    let id = document(app, key, true, false).await;
    crate::harness::test_sign(app, key, &id, &["client", "provider"]).await;
    crate::harness::signed_pdf(app, key, &id).await;
    id
}

/// Words with two seats and no questions.
fn plain_source() -> Value {
    json!({"type": "doc", "content": [
        {"type": "paragraph", "content": [{"type": "text", "text": "The work is paid on delivery."}]},
        {"type": "signatureBlock", "attrs": {"role": "client"}},
        {"type": "signatureBlock", "attrs": {"role": "provider"}}
    ]})
}

async fn template(app: &TestApp, key: &str) -> String {
    made(
        app,
        key,
        "/api/v1/templates/source",
        json!({"name": "Services", "source": plain_source()}),
    )
    .await
}

/// A template made from a PDF with text tags: it has pages of its own.
async fn file_template(app: &TestApp, key: &str) -> String {
    use base64::Engine;
    let file = base64::engine::general_purpose::STANDARD.encode(crate::templates::tagged_pdf());
    made(
        app,
        key,
        "/api/v1/templates/file",
        json!({"name": "File", "fileName": "tagged.pdf", "file": file}),
    )
    .await
}

/// The id of what a POST to `path` made.
async fn made(app: &TestApp, key: &str, path: &str, body: Value) -> String {
    let t = ok(app, Method::POST, path, key, body).await;
    t["id"].as_str().unwrap().to_string()
}

/// A webhook endpoint of `key`'s and one delivery to it that has been tried.
async fn hook_with_delivery(app: &TestApp, key: &str) -> (String, String) {
    let h = ok(
        app,
        Method::POST,
        "/api/v1/webhooks",
        key,
        json!({"eventTypes": ["documents.document.sent"], "url": "https://127.0.0.1:9/h"}),
    )
    .await;
    let id = h["id"].as_str().unwrap().to_string();
    // Samples are not kept: a real event is.
    document(app, key, true, false).await;
    let path = format!("/api/v1/webhooks/{id}/deliveries");
    let delivery = until("a tried delivery", || async {
        app.make_deliveries_due().await;
        let a = app.get(&path, Some(key)).await;
        a.body["data"][0]["deliveryId"].as_str().map(str::to_string)
    })
    .await;
    (id, delivery)
}

async fn relay_hook(app: &TestApp, key: &str) -> String {
    let h = ok(
        app,
        Method::POST,
        "/api/v1/webhooks",
        key,
        json!({"eventTypes": ["documents.document.sent"], "relay": true}),
    )
    .await;
    h["id"].as_str().unwrap().to_string()
}

fn post(path: String, body: Value) -> Req {
    Req {
        method: Method::POST,
        document: path.starts_with("/api/v1/documents/"),
        path,
        body: Some(body.to_string()),
    }
}

fn get(path: String) -> Req {
    Req {
        method: Method::GET,
        document: path.starts_with("/api/v1/documents/"),
        path,
        body: None,
    }
}

/// A request for `route` on fresh objects of `w`'s that a key holding the route's scope
/// gets its success for. Every operation of the table must be here.
async fn request(app: &TestApp, w: &World, route: &Route) -> Req {
    let key = &w.all;
    let doc_path = |id: &str, rest: &str| format!("/api/v1/documents/{id}{rest}");
    let req = match route.operation_id {
        "v1.documents.check" => post(
            "/api/v1/documents/check".into(),
            json!({"source": crate::documents::source(), "people": people()}),
        ),
        "v1.documents.create" => post(
            "/api/v1/documents".into(),
            json!({"title": "Made", "source": crate::documents::source(), "people": people(),
                   "variableValues": {"fee": "10 EUR"}}),
        ),
        "v1.documents.sendTemplate" => {
            let t = template(app, key).await;
            post(
                "/api/v1/documents/send".into(),
                json!({"templateId": t, "parties": [
                    {"seat": "client", "name": "Ada Client", "email": "ada@example.com"},
                    {"seat": "provider", "name": "Bob Provider", "email": "bob@example.com"}]}),
            )
        }
        "v1.documents.templates" => get("/api/v1/documents/templates".into()),
        "v1.templates.createSource" => post(
            "/api/v1/templates/source".into(),
            json!({"name": "Words", "source": crate::documents::source()}),
        ),
        "v1.templates.createHtml" => post(
            "/api/v1/templates/html".into(),
            json!({"name": "Page", "html": "<p>Fee agreed. {{Sign;type=signature;role=client}}</p>"}),
        ),
        "v1.templates.createFile" => {
            use base64::Engine;
            let file =
                base64::engine::general_purpose::STANDARD.encode(crate::templates::tagged_pdf());
            post(
                "/api/v1/templates/file".into(),
                json!({"name": "File", "fileName": "tagged.pdf", "file": file}),
            )
        }
        "v1.templates.get" => get(format!("/api/v1/templates/{}", template(app, key).await)),
        "v1.templates.documents" => post(
            format!("/api/v1/templates/{}/documents", template(app, key).await),
            json!({"people": people()}),
        ),
        "v1.templates.defaults" => post(
            format!("/api/v1/templates/{}/defaults", template(app, key).await),
            json!({"message": "Please sign"}),
        ),
        "v1.documents.list" => get("/api/v1/documents".into()),
        "v1.documents.get" => get(doc_path(&document(app, key, true, false).await, "")),
        "v1.documents.signedPdf" => get(doc_path(&executed(app, key).await, "/signed.pdf")),
        "v1.documents.auditLog" => get(doc_path(
            &document(app, key, true, false).await,
            "/audit-log.csv",
        )),
        "v1.documents.source" => get(doc_path(&document(app, key, false, false).await, "/source")),
        "v1.documents.revise" => post(
            doc_path(&document(app, key, false, false).await, "/revise"),
            json!({"source": crate::documents::source(), "variableValues": {"fee": "20 EUR"}}),
        ),
        "v1.documents.send" => Req {
            body: None,
            ..post(
                doc_path(&document(app, key, false, false).await, "/send"),
                Value::Null,
            )
        },
        "v1.documents.remind" => post(
            doc_path(&document(app, key, true, false).await, "/remind"),
            json!({}),
        ),
        "v1.documents.void" => post(
            doc_path(&document(app, key, true, false).await, "/void"),
            json!({"reason": "sent to the wrong person"}),
        ),
        "v1.documents.testSign" => post(
            doc_path(&document(app, key, true, false).await, "/test-sign"),
            json!({"seat": "client"}),
        ),
        "v1.documents.embedSession" => post(
            doc_path(&document(app, key, true, true).await, "/embed-session"),
            json!({"seat": "client", "origin": SITE}),
        ),
        "v1.embedded.builderSession" => post(
            "/api/v1/embedded/builder-session".into(),
            json!({"origin": SITE, "name": "Walked"}),
        ),
        "v1.templates.source" => get(format!(
            "/api/v1/templates/{}/source",
            template(app, key).await
        )),
        "v1.templates.page" => get(format!(
            "/api/v1/templates/{}/pages/1",
            file_template(app, key).await
        )),
        "v1.templates.newVersion" => post(
            format!("/api/v1/templates/{}/versions", template(app, key).await),
            json!({"version": 1, "source": crate::documents::source()}),
        ),
        "v1.templates.preview" => post(
            "/api/v1/templates/preview".into(),
            json!({"source": crate::documents::source()}),
        ),
        "v1.embedded.scribeSession" => post(
            "/api/v1/embedded/scribe-session".into(),
            json!({"origin": SITE, "name": "Walked"}),
        ),
        "v1.usage.get" => get("/api/v1/usage".into()),
        "v1.reports.get" => get("/api/v1/reports".into()),
        "v1.teams.list" => get("/api/v1/teams".into()),
        "v1.payments.status" => get("/api/v1/payments/status".into()),
        "v1.payments.connect" => Req {
            body: None,
            ..post("/api/v1/payments/connect".into(), Value::Null)
        },
        "v1.payments.disconnect" => Req {
            method: Method::DELETE,
            ..get("/api/v1/payments/connect".into())
        },
        "v1.webhooks.topics" => get("/api/v1/webhooks/topics".into()),
        "v1.webhooks.list" => get("/api/v1/webhooks".into()),
        "v1.webhooks.create" => post(
            "/api/v1/webhooks".into(),
            json!({"eventTypes": ["documents.document.sent"], "relay": true}),
        ),
        "v1.webhooks.delete" => Req {
            method: Method::DELETE,
            ..get(format!("/api/v1/webhooks/{}", relay_hook(app, key).await))
        },
        "v1.webhooks.test" => post(
            format!("/api/v1/webhooks/{}/test", relay_hook(app, key).await),
            json!({}),
        ),
        "v1.webhooks.rotate" => post(
            format!("/api/v1/webhooks/{}/rotate", relay_hook(app, key).await),
            json!({}),
        ),
        "v1.webhooks.deliveries" => get(format!(
            "/api/v1/webhooks/{}/deliveries",
            relay_hook(app, key).await
        )),
        "v1.webhooks.replay" => {
            let (hook, delivery) = hook_with_delivery(app, key).await;
            Req {
                body: None,
                ..post(
                    format!("/api/v1/webhooks/{hook}/deliveries/{delivery}/replay"),
                    Value::Null,
                )
            }
        }
        "v1.webhooks.relay" => get(format!(
            "/api/v1/webhooks/{}/relay?wait=0",
            relay_hook(app, key).await
        )),
        "v1.emailTemplates.list" => get("/api/v1/email-templates".into()),
        "v1.emailTemplates.save" => Req {
            method: Method::PUT,
            ..post(
                "/api/v1/email-templates/reminder".into(),
                json!({"subject": "A reminder: {{document.title}}"}),
            )
        },
        "v1.emailTemplates.reset" => Req {
            method: Method::DELETE,
            ..get("/api/v1/email-templates/reminder".into())
        },
        "v1.emailTemplates.preview" => post(
            "/api/v1/email-templates/reminder/preview".into(),
            json!({"subject": "Soon: {{document.title}}"}),
        ),
        "v1.emails.list" => get("/api/v1/emails".into()),
        "v1.plays.list" => get("/api/v1/plays".into()),
        "v1.plays.create" => post(
            "/api/v1/plays".into(),
            json!({"source": crate::plays::small_play(&play_name(), "Walked.")}),
        ),
        "v1.plays.test" => post(
            "/api/v1/plays/test".into(),
            json!({"source": crate::plays::small_play("walk-test", "Walked.")}),
        ),
        "v1.plays.get" => get(format!("/api/v1/plays/{}", play(app, key).await)),
        "v1.plays.archive" => Req {
            method: Method::DELETE,
            ..get(format!("/api/v1/plays/{}", play(app, key).await))
        },
        "v1.plays.publish" => post(
            format!("/api/v1/plays/{}/publish", play(app, key).await),
            json!({"version": 1}),
        ),
        "v1.plays.duplicate" => post(
            format!("/api/v1/plays/{}/duplicate", play(app, key).await),
            json!({"as": play_name()}),
        ),
        "v1.playbooks.list" => get("/api/v1/playbooks".into()),
        "v1.playbooks.create" => post(
            "/api/v1/playbooks".into(),
            json!({"name": play_name(), "title": "Walked", "plays": [play(app, key).await]}),
        ),
        "v1.drafts.create" => post(
            "/api/v1/drafts".into(),
            json!({"play": play(app, key).await, "people": crate::plays::people(), "answers": {"pet": "cat"}}),
        ),
        "v1.drafts.answers" => {
            let started = ok(
                app,
                Method::POST,
                "/api/v1/drafts",
                key,
                json!({"play": play(app, key).await, "people": crate::plays::people()}),
            )
            .await;
            post(
                format!(
                    "/api/v1/drafts/{}/answers",
                    started["draftRef"].as_str().unwrap()
                ),
                json!({"answers": {"pet": "cat"}}),
            )
        }
        "v1.drafts.pages" => {
            let made = ok(
                app,
                Method::POST,
                "/api/v1/drafts",
                key,
                json!({"play": play(app, key).await, "people": crate::plays::people(), "answers": {"pet": "cat"}}),
            )
            .await;
            get(format!(
                "/api/v1/drafts/{}/pages",
                made["draftRef"].as_str().unwrap()
            ))
        }
        "v1.ai.draft" => post(
            "/api/v1/documents/ai/draft".into(),
            json!({"prompt": "A short NDA", "brief": {"type": "nda"}}),
        ),
        "v1.ai.edit" => post(
            "/api/v1/documents/ai/edit".into(),
            json!({"request": "Shorter", "source": plain_source()}),
        ),
        "v1.ai.job" => get(format!(
            "/api/v1/documents/ai/jobs/{}",
            ai_job(app, key).await
        )),
        "v1.ai.cancel" => post(
            format!(
                "/api/v1/documents/ai/jobs/{}/cancel",
                ai_job(app, key).await
            ),
            json!({}),
        ),
        "v1.ai.wizard" => get("/api/v1/ai/wizard".into()),
        other => panic!(
            "the conformance walk cannot build a request for {other} ({} {}): teach it in \
             tests/it/conformance.rs",
            route.method, route.path
        ),
    };
    if matches!(
        route.operation_id,
        "v1.documents.testSign" | "v1.documents.embedSession"
    ) {
        // Signing waits for the pages.
        let id = req.path.split('/').nth(4).unwrap().to_string();
        rendered(app, key, &id).await;
    }
    req
}

/// An AI drafting job of `key`'s workspace: its id.
async fn ai_job(app: &TestApp, key: &str) -> String {
    made(
        app,
        key,
        "/api/v1/documents/ai/draft",
        json!({"prompt": "A short NDA"}),
    )
    .await
}

/// A new play's name that reads as an id (`walk_` and 26 characters), so that the walk's
/// made-up names and its error messages treat it as one.
fn play_name() -> String {
    signet_core::ids::new_id("walk").to_lowercase()
}

/// A play of `key`'s workspace, saved and published: its name.
async fn play(app: &TestApp, key: &str) -> String {
    let name = play_name();
    let source = crate::plays::small_play(&name, "Walked.");
    ok(
        app,
        Method::POST,
        "/api/v1/plays",
        key,
        json!({"source": source}),
    )
    .await;
    let path = format!("/api/v1/plays/{name}/publish");
    ok(app, Method::POST, &path, key, json!({"version": 1})).await;
    name
}

/// Waits until document `id` of `key`'s has its pages.
async fn rendered(app: &TestApp, key: &str, id: &str) {
    let path = format!("/api/v1/documents/{id}");
    until("the pages", || async {
        let a = app.get(&path, Some(key)).await;
        a.body["pageCount"].as_u64().map(|_| ())
    })
    .await;
}

/// Sends `req` with `token` as a bearer credential (none when `None`) and `idem` as its
/// Idempotency-Key; `body` replaces the request's body when given.
async fn send(
    app: &TestApp,
    req: &Req,
    token: Option<&str>,
    idem: Option<&str>,
    body: Option<&str>,
) -> Answer {
    let mut r = app
        .client
        .request(req.method.clone(), format!("{}{}", app.base, req.path));
    if let Some(t) = token {
        r = r.bearer_auth(t);
    }
    if let Some(k) = idem {
        r = r.header("idempotency-key", k);
    }
    if let Some(b) = body.or(req.body.as_deref()) {
        r = r
            .header("content-type", "application/json")
            .body(b.to_string());
    }
    app.send(r).await
}

/// Keys that must all be refused with the one 401, for a route needing `scope`.
async fn refused_credentials(app: &TestApp, ws: &str, good: &str, scope: &str) -> Vec<String> {
    let all_but: Vec<&str> = signet_core::Scope::ALL
        .iter()
        .map(|s| s.as_str())
        .filter(|s| *s != scope)
        .collect();
    let with = |f: fn(&mut KeyCreateIn)| {
        let mut input = KeyCreateIn::new(
            ws,
            Mode::Test,
            signet_core::actor::Scopes::parse([scope]).unwrap(),
        );
        f(&mut input);
        input
    };
    let revoked = app.key(ws, Mode::Test, &[scope]).await;
    let revoked_id = app.actor(&revoked).await.id().to_string();
    signet_accounts::keys::revoke(app.ctx(), &revoked_id)
        .await
        .unwrap();
    let wrong_secret = format!(
        "{}{}",
        &good[..good.len() - 1],
        if good.ends_with('a') { 'b' } else { 'a' }
    );
    vec![
        "svc_test_short".to_string(),
        wrong_secret,
        good.replacen("svc_test_", "svc_live_", 1),
        revoked,
        app.key_with(with(|k| k.expires_at = Some(signet_storage::now_ms() - 1)))
            .await,
        app.key_with(with(|k| k.allow = vec!["10.20.0.0/16".parse().unwrap()]))
            .await,
        app.key(ws, Mode::Test, &all_but).await,
    ]
}

/// `req` with each object id in its path replaced by a made-up one of the same kind.
fn made_up(req: &Req) -> Req {
    let path = req
        .path
        .split('/')
        .map(|part| match part.split_once('_') {
            Some((prefix, rest)) if rest.len() == 26 && !prefix.is_empty() => {
                signet_core::ids::new_id(prefix)
            }
            _ => part.to_string(),
        })
        .collect::<Vec<_>>()
        .join("/");
    assert_ne!(path, req.path, "{} names an object", req.path);
    Req {
        path,
        ..req.clone()
    }
}

/// An error body with every object id in its message written `<id>`.
fn without_ids(mut body: Value) -> Value {
    let message = body["error"]["message"].as_str().unwrap_or("").to_string();
    let ids: Vec<String> = message
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|w| {
            w.split_once('_')
                .is_some_and(|(p, r)| !p.is_empty() && r.len() == 26)
        })
        .map(str::to_string)
        .collect();
    let mut clean = message;
    for id in ids {
        clean = clean.replace(&id, "<id>");
    }
    body["error"]["message"] = Value::String(clean);
    body
}

fn error_kind(a: &Answer) -> &str {
    a.body["error"]["kind"].as_str().unwrap_or("")
}

/// The in-flight claim a first request under `key_id` and `idem` holds for `req`: the
/// door's own store and fingerprint (method, path and body bytes, keyed).
async fn hold_as_first(
    app: &TestApp,
    key_id: &str,
    idem: &str,
    req: &Req,
) -> signet_storage::state::Hold {
    let ctx = app.ctx();
    let path = req.path.split('?').next().unwrap();
    let mut h = ring::hmac::Context::with_key(&ctx.key_hasher);
    h.update(req.method.as_str().as_bytes());
    h.update(b"\n");
    h.update(path.as_bytes());
    h.update(b"\n");
    h.update(req.body.as_deref().unwrap_or("").as_bytes());
    let fingerprint = signet_core::ids::hex(h.sign().as_ref());
    match ctx
        .idempotency
        .begin(key_id, idem, &fingerprint, 60_000)
        .await
        .unwrap()
    {
        Begin::Proceed(hold) => hold,
        _ => panic!("a fresh key proceeds"),
    }
}

/// A server whose anonymous budget the walk's thousands of refused calls cannot spend (the
/// budget itself is tested in `limits`).
/// The walk's server, with a model for AI drafting (answering nothing useful: its jobs fail,
/// their routes answer).
async fn walker(kind: Kind) -> Option<TestApp> {
    let (_, base) = crate::ai_fake::Fake::start().await;
    TestApp::start_with(
        kind,
        Options {
            anonymous_per_minute: Some(1_000_000),
            ai: Some(("openai".into(), base, "walk-key".into())),
            stripe: true,
            ..Options::default()
        },
    )
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_rest_route_keeps_its_keys_workspaces_and_retries_sqlite() {
    every_rest_route(walker(Kind::Sqlite).await.unwrap()).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_rest_route_keeps_its_keys_workspaces_and_retries_postgres_redis() {
    if let Some(app) = walker(Kind::PostgresRedis).await {
        every_rest_route(app).await;
    }
}

async fn every_rest_route(app: TestApp) {
    let (w, live, stranger) = world(&app).await;
    let reference = app.get("/api/v1/usage", None).await;
    assert_eq!(reference.status, 401);
    assert_eq!(error_kind(&reference), "unauthenticated");

    for route in ROUTES.iter() {
        let what = format!("{} {}", route.method, route.path);
        let (scope, pro) = match route.access {
            Access::Scope(s) => (s, false),
            Access::Pro(s) => (s, true),
            Access::Either(s, _) => (s, false),
            _ => panic!("{what}: every /api/v1 route needs a scope"),
        };
        let scope = scope.as_str();
        let req = request(&app, &w, route).await;

        // Not a key holding the scope: one 401, whatever is wrong with it; on the Pro routes
        // a valid key without the scope (the last) is told which it lacks, with a 403.
        let refused = refused_credentials(&app, &w.ws, &w.all, scope).await;
        let under_scoped = refused.last().cloned().unwrap();
        for token in refused {
            if pro && token == under_scoped {
                let a = send(&app, &req, Some(&token), Some(&idem()), None).await;
                assert_eq!(a.status, 403, "{what} without {scope}: {}", a.body);
                let m = a.body["error"]["message"].as_str().unwrap_or("");
                assert!(m.contains(scope), "{what}: {m}");
                continue;
            }
            let a = send(&app, &req, Some(&token), Some(&idem()), None).await;
            assert_eq!(a.status, 401, "{what} with {token}: {}", a.body);
            assert_eq!(
                a.error_without_request_id(),
                reference.error_without_request_id(),
                "{what} with {token}"
            );
        }
        let a = send(&app, &req, None, Some(&idem()), None).await;
        assert_eq!(
            a.error_without_request_id(),
            reference.error_without_request_id(),
            "{what} without a key"
        );

        // Another workspace's key, and for documents the other mode's: 404 for the object.
        let names_object = route.path.contains('{') && !route.path.contains("{kind}");
        if names_object {
            let mut outsiders = vec![("another workspace", stranger.clone())];
            if req.document {
                outsiders.push(("the other mode", live.clone()));
            }
            for (who, token) in outsiders {
                let a = send(&app, &req, Some(&token), Some(&idem()), None).await;
                // A live key may not test-sign at all: refused before any document is looked
                // up. Everything else: not found.
                let live_test_sign =
                    route.operation_id == "v1.documents.testSign" && who == "the other mode";
                let (status, kind) = if live_test_sign {
                    (403, "forbidden")
                } else {
                    (404, "not_found")
                };
                assert_eq!(a.status, status, "{what} from {who}: {}", a.body);
                assert_eq!(error_kind(&a), kind, "{what} from {who}");
                // The same answer as for an id that names nothing: no way to tell the two.
                let made_up = send(&app, &made_up(&req), Some(&token), Some(&idem()), None).await;
                assert_eq!(
                    without_ids(a.error_without_request_id()),
                    without_ids(made_up.error_without_request_id()),
                    "{what} from {who}"
                );
            }
        }

        // A key holding only the route's scope gets the route's success, on the same object
        // the outsiders were refused (so they changed nothing that stops it).
        // Saved email wording is what live documents send: only a live key changes it.
        let mode = if matches!(
            route.operation_id,
            "v1.emailTemplates.save" | "v1.emailTemplates.reset"
        ) {
            Mode::Live
        } else {
            Mode::Test
        };
        let only = app.key(&w.ws, mode, &[scope]).await;
        let first_idem = idem();
        let first = send(&app, &req, Some(&only), Some(&first_idem), None).await;
        assert_eq!(
            first.status.as_u16(),
            route.success,
            "{what} with only {scope}: {}",
            first.body
        );
        if route.idempotency == Idem::None {
            continue;
        }
        assert!(first.headers.get("idempotent-replayed").is_none(), "{what}");
        // The same request again under the key: the first answer, said to be replayed.
        let again = send(&app, &req, Some(&only), Some(&first_idem), None).await;
        assert_eq!(again.status, first.status, "{what} replayed");
        assert_eq!(again.body, first.body, "{what} replayed");
        assert_eq!(
            again.header("idempotent-replayed"),
            "true",
            "{what} replayed"
        );
        // Another body under the same key: refused (a route taking no body has no other).
        if route.body_limit > 0 {
            let other = send(
                &app,
                &req,
                Some(&only),
                Some(&first_idem),
                Some(r#"{"another":"body"}"#),
            )
            .await;
            assert_eq!(other.status, 400, "{what} another body: {}", other.body);
            assert!(
                other.body["error"]["message"]
                    .as_str()
                    .unwrap_or("")
                    .starts_with("Idempotency-Key"),
                "{what}: {}",
                other.body
            );
        }
        // While a first request under a key runs, a second is told to retry: 409.
        let key_id = app.actor(&only).await.id().to_string();
        let running = idem();
        let hold = hold_as_first(&app, &key_id, &running, &req).await;
        let second = send(&app, &req, Some(&only), Some(&running), None).await;
        assert_eq!(second.status, 409, "{what} while running: {}", second.body);
        assert_eq!(second.body["error"]["retryable"], true, "{what}");
        hold.release().await.unwrap();
        if route.idempotency == Idem::Required {
            let bare = send(&app, &req, Some(&only), None, None).await;
            assert_eq!(bare.status, 400, "{what} without a key: {}", bare.body);
        }
    }
}

/// Sends one GraphQL operation.
async fn gql(app: &TestApp, key: &str, query: &str, vars: &Value) -> Answer {
    let body = json!({"query": query, "variables": vars}).to_string();
    app.post("/graphql", key, &[], &body).await
}

/// The kind and message (ids written `<id>`) of a GraphQL answer's first error.
fn gql_error(a: &Answer) -> Value {
    let e = &a.body["errors"][0];
    without_ids(json!({"error": {"kind": e["extensions"]["kind"], "message": e["message"]}}))
}

/// The fields of the schema's root types that take an object's id, by root: `query`,
/// `mutation`, `subscription`.
async fn fields_taking_ids(app: &TestApp, key: &str) -> Vec<(String, String)> {
    let q = "{ __schema { queryType { fields { name args { name } } } \
              mutationType { fields { name args { name } } } \
              subscriptionType { fields { name args { name } } } } }";
    let a = gql(app, key, q, &json!({})).await;
    assert!(a.body["errors"].is_null(), "{}", a.body);
    let mut out = Vec::new();
    for (root, name) in [
        ("query", "queryType"),
        ("mutation", "mutationType"),
        ("subscription", "subscriptionType"),
    ] {
        for f in a.body["data"]["__schema"][name]["fields"]
            .as_array()
            .unwrap()
        {
            let takes_id = f["args"].as_array().unwrap().iter().any(|arg| {
                matches!(
                    arg["name"].as_str().unwrap(),
                    "id" | "approvalId" | "deliveryId" | "documentId"
                )
            });
            if takes_id {
                out.push((root.to_string(), f["name"].as_str().unwrap().to_string()));
            }
        }
    }
    out
}

/// A document of `key`'s sent by a draft-only key of workspace `ws`: its approval's id.
/// A new member of the workspace (a person of the application, role member).
async fn member(app: &TestApp, ws: &str) -> String {
    use signet_accounts::people::members;
    let email = format!(
        "{}@example.com",
        signet_core::ids::new_id("m").to_lowercase()
    );
    let id = members::ensure_person(app.ctx(), &email, "Mo Member", "en")
        .await
        .unwrap();
    members::set_member(app.ctx(), ws, &id, signet_core::actor::Role::Member, None)
        .await
        .unwrap();
    id
}

/// A new team of the workspace.
async fn team(app: &TestApp, ws: &str) -> String {
    signet_accounts::teams::create(app.ctx(), ws, "Walkers")
        .await
        .unwrap()
        .id
}

pub(crate) async fn approval(app: &TestApp, ws: &str) -> String {
    let mut input = KeyCreateIn::new(
        ws,
        Mode::Test,
        signet_core::actor::Scopes::parse(["documents:read", "documents:write"]).unwrap(),
    );
    input.draft_only = true;
    let drafter = app.key_with(input).await;
    let id = document(app, &drafter, false, false).await;
    let a = app
        .post(
            &format!("/api/v1/documents/{id}/send"),
            &drafter,
            &[("Idempotency-Key", &idem())],
            "",
        )
        .await;
    assert_eq!(a.status, 202, "{}", a.body);
    a.body["approval"]["id"].as_str().unwrap().to_string()
}

/// An operation on `field` over objects of `w`'s, and whether it names a document. Every
/// field that takes an id must be here.
async fn operation(app: &TestApp, w: &World, field: &str) -> (String, Value, bool) {
    let key = &w.all;
    let sent = || document(app, key, true, false);
    let one =
        |arg: &str, ty: &str| format!("($x: {ty}!) {{ {field}({arg}: $x) {{ __typename }} }}");
    let (op, vars, names_document) = match field {
        "document" | "documentAuditLog" | "documentSource" => {
            (one("id", "String"), json!({"x": sent().await}), true)
        }
        "sendDocument" => (
            one("id", "String"),
            json!({"x": document(app, key, false, false).await}),
            true,
        ),
        "remindDocument" | "voidDocument" => {
            (one("id", "String"), json!({"x": sent().await}), true)
        }
        "reviseDocument" => (
            format!(
                "($x: String!, $i: {}!) {{ {field}(id: $x, input: $i) {{ __typename }} }}",
                input_type(field)
            ),
            json!({"x": document(app, key, false, false).await,
                   "i": {"source": crate::documents::source(), "variableValues": {"fee": "2 EUR"}}}),
            true,
        ),
        "embedSession" => {
            let id = document(app, key, true, true).await;
            rendered(app, key, &id).await;
            (
                format!(
                    "($x: String!) {{ {field}(id: $x, seat: \"client\", origin: \"{SITE}\") {{ __typename }} }}"
                ),
                json!({"x": id}),
                true,
            )
        }
        "testSignDocument" => {
            let id = sent().await;
            rendered(app, key, &id).await;
            (
                format!("($x: String!) {{ {field}(id: $x, seat: \"client\") {{ __typename }} }}"),
                json!({"x": id}),
                true,
            )
        }
        "approveSend" | "declineSend" => (
            format!(
                "($x: String!) {{ {field}(approvalId: $x, by: \"Olive Owner\") {{ __typename }} }}"
            ),
            json!({"x": approval(app, &w.ws).await}),
            true,
        ),
        "webhookDeliveries" | "deleteWebhook" | "testWebhook" | "rotateWebhookSecret" => (
            one("id", "String"),
            json!({"x": relay_hook(app, key).await}),
            false,
        ),
        "webhookRelay" => (
            format!("($x: String!) {{ {field}(id: $x, wait: 0) {{ __typename }} }}"),
            json!({"x": relay_hook(app, key).await}),
            false,
        ),
        "replayWebhookDelivery" => {
            let (hook, delivery) = hook_with_delivery(app, key).await;
            (
                format!(
                    "($x: String!, $d: String!) {{ {field}(id: $x, deliveryId: $d) {{ __typename }} }}"
                ),
                json!({"x": hook, "d": delivery}),
                false,
            )
        }
        "template" => (
            one("id", "String"),
            json!({"x": template(app, key).await}),
            false,
        ),
        "templateSource" => (
            one("id", "String"),
            json!({"x": template(app, key).await}),
            false,
        ),
        "templatePage" => (
            format!("($x: String!) {{ {field}(id: $x, page: 1) {{ __typename }} }}"),
            json!({"x": file_template(app, key).await}),
            false,
        ),
        "createTemplateVersion" => (
            format!(
                "($x: String!, $i: {}!) {{ {field}(id: $x, input: $i) {{ __typename }} }}",
                input_type(field)
            ),
            json!({"x": template(app, key).await, "i": {"version": 1, "source": plain_source()}}),
            false,
        ),
        "setTemplateDefaults" => (
            format!(
                "($x: String!, $i: {}!) {{ {field}(id: $x, input: $i) {{ __typename }} }}",
                input_type(field)
            ),
            json!({"x": template(app, key).await, "i": {"message": "Please sign"}}),
            false,
        ),
        "createDocumentFromTemplate" => (
            format!(
                "($x: String!, $i: {}!) {{ {field}(id: $x, input: $i) {{ __typename }} }}",
                input_type(field)
            ),
            json!({"x": template(app, key).await, "i": {"people": people()}}),
            false,
        ),
        "emails" => (
            format!("($x: String) {{ {field}(documentId: $x) {{ data {{ id }} }} }}"),
            json!({"x": sent().await}),
            true,
        ),
        "documentStatus" => (
            format!("($x: String!) {{ {field}(id: $x) {{ id }} }}"),
            json!({"x": sent().await}),
            true,
        ),
        "changeMemberRole" => (
            format!("($x: String!) {{ {field}(userId: $x, role: \"viewer\") {{ __typename }} }}"),
            json!({"x": member(app, &w.ws).await}),
            false,
        ),
        "removeMember" => (
            format!("($x: String!) {{ {field}(userId: $x) }}"),
            json!({"x": member(app, &w.ws).await}),
            false,
        ),
        "deleteTeam" => (
            format!("($x: String!) {{ {field}(id: $x) }}"),
            json!({"x": team(app, &w.ws).await}),
            false,
        ),
        "addTeamMember" => (
            format!(
                "($x: String!) {{ {field}(teamId: $x, email: \"tess@example.com\", name: \"Tess\", role: \"member\") {{ __typename }} }}"
            ),
            json!({"x": team(app, &w.ws).await}),
            false,
        ),
        "removeTeamMember" => (
            format!("($x: String!) {{ {field}(teamId: $x, email: \"tess@example.com\") }}"),
            json!({"x": team(app, &w.ws).await}),
            false,
        ),
        "aiJob" | "cancelAiJob" => (
            one("id", "String"),
            json!({"x": ai_job(app, key).await}),
            true,
        ),
        other => panic!(
            "the conformance walk cannot build a GraphQL operation on {other}: teach it in \
             tests/it/conformance.rs"
        ),
    };
    (op, vars, names_document)
}

/// Variables with every object id replaced by a made-up one of the same kind.
fn made_up_vars(vars: &Value) -> Value {
    let mut out = vars.clone();
    for v in out.as_object_mut().unwrap().values_mut() {
        if let Some(s) = v.as_str()
            && let Some((prefix, rest)) = s.split_once('_')
            && rest.len() == 26
        {
            *v = Value::String(signet_core::ids::new_id(prefix));
        }
    }
    out
}

/// The first message of a subscription over a socket authenticated with `key`.
async fn first_event(app: &TestApp, key: &str, query: &str, vars: &Value) -> Value {
    use futures_util::{SinkExt, StreamExt};
    use tokio_tungstenite::tungstenite::Message;
    let mut socket =
        crate::graphql::connect(&app.base, json!({"Authorization": format!("Bearer {key}")})).await;
    let mut next = async || loop {
        let m = tokio::time::timeout(Duration::from_secs(10), socket.next())
            .await
            .expect("an answer within 10 s")
            .expect("the socket stays open")
            .unwrap();
        if let Message::Text(t) = m {
            return serde_json::from_str::<Value>(&t).unwrap();
        }
    };
    assert_eq!(next().await["type"], "connection_ack");
    socket
        .send(Message::Text(
            json!({"id": "1", "type": "subscribe", "payload": {"query": query, "variables": vars}})
                .to_string()
                .into(),
        ))
        .await
        .unwrap();
    let mut next = async || loop {
        let m = tokio::time::timeout(Duration::from_secs(10), socket.next())
            .await
            .expect("an answer within 10 s")
            .expect("the socket stays open")
            .unwrap();
        if let Message::Text(t) = m {
            return serde_json::from_str::<Value>(&t).unwrap();
        }
    };
    next().await
}

/// The error of a subscription's first message, as `gql_error` writes it.
fn event_error(m: &Value) -> Value {
    let e = if m["type"] == "error" {
        &m["payload"][0]
    } else {
        &m["payload"]["errors"][0]
    };
    without_ids(json!({"error": {"kind": e["extensions"]["kind"], "message": e["message"]}}))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_graphql_field_taking_an_id_keeps_to_its_workspace_and_mode_sqlite() {
    every_graphql_field(walker(Kind::Sqlite).await.unwrap()).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_graphql_field_taking_an_id_keeps_to_its_workspace_and_mode_postgres_redis() {
    if let Some(app) = walker(Kind::PostgresRedis).await {
        every_graphql_field(app).await;
    }
}

/// Fields taking an id that only a person's session may use (API keys are made and revoked
/// by people only).
const PERSON_ONLY: &[&str] = &[
    "endSession",
    "switchWorkspace",
    "renamePasskey",
    "removePasskey",
    "revokeApiKey",
];

/// Fields that change what both modes share (teams): a test key is refused whatever the id,
/// so they are walked with live keys, the workspace's and another's.
const LIVE_ONLY: &[&str] = &["deleteTeam", "addTeamMember", "removeTeamMember"];

async fn every_graphql_field(app: TestApp) {
    let (w, live, stranger) = world(&app).await;
    let every: Vec<&str> = signet_core::Scope::ALL.iter().map(|s| s.as_str()).collect();
    let elsewhere = app.workspace(signet_core::plans::Plan::Free).await;
    let stranger_live = app.key(&elsewhere, Mode::Live, &every).await;
    let fields = fields_taking_ids(&app, &w.all).await;
    assert!(fields.len() >= 20, "{fields:?}");
    for root in ["query", "mutation", "subscription"] {
        assert!(fields.iter().any(|(r, _)| r == root), "{root}: {fields:?}");
    }
    for (root, field) in fields {
        // What only a person signed in does (a key is refused whatever the id): walked with
        // sessions in tests/it/application.rs.
        if PERSON_ONLY.contains(&field.as_str()) {
            continue;
        }
        let what = format!("{root} {field}");
        let (op, vars, names_document) = operation(&app, &w, &field).await;
        let query = format!("{root}{op}");
        let live_only = LIVE_ONLY.contains(&field.as_str());
        let (stranger, own) = if live_only {
            (&stranger_live, &live)
        } else {
            (&stranger, &w.all)
        };
        let mut outsiders = vec![("another workspace", stranger.clone())];
        if names_document {
            outsiders.push(("the other mode", live.clone()));
        }
        for (who, token) in outsiders {
            if root == "subscription" {
                let theirs = first_event(&app, &token, &query, &vars).await;
                let none = first_event(&app, &token, &query, &made_up_vars(&vars)).await;
                assert_eq!(
                    event_error(&theirs)["error"]["kind"],
                    "not_found",
                    "{what} from {who}: {theirs}"
                );
                assert_eq!(
                    event_error(&theirs),
                    event_error(&none),
                    "{what} from {who}"
                );
                continue;
            }
            let a = gql(&app, &token, &query, &vars).await;
            if field == "emails" {
                // A filter, not a lookup: another's document filters to nothing.
                assert!(a.body["errors"].is_null(), "{what} from {who}: {}", a.body);
                assert_eq!(
                    a.body["data"]["emails"]["data"],
                    json!([]),
                    "{what} from {who}"
                );
                continue;
            }
            let live_test_sign = field == "testSignDocument" && who == "the other mode";
            let kind = if live_test_sign {
                "forbidden"
            } else {
                "not_found"
            };
            assert_eq!(
                gql_error(&a)["error"]["kind"],
                kind,
                "{what} from {who}: {}",
                a.body
            );
            assert!(
                a.body["data"].is_null() || a.body["data"][&field].is_null(),
                "{what} from {who}: {}",
                a.body
            );
            let none = gql(&app, &token, &query, &made_up_vars(&vars)).await;
            assert_eq!(gql_error(&a), gql_error(&none), "{what} from {who}");
        }
        // The workspace's own key: the operation is well made, and the refusals above
        // changed nothing that stops it.
        if root == "subscription" {
            let m = first_event(&app, own, &query, &vars).await;
            assert_eq!(m["type"], "next", "{what}: {m}");
            assert_eq!(m["payload"]["data"][&field]["id"], vars["x"], "{what}: {m}");
        } else {
            let a = gql(&app, own, &query, &vars).await;
            assert!(a.body["errors"].is_null(), "{what}: {}", a.body);
            assert!(!a.body["data"][&field].is_null(), "{what}: {}", a.body);
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_signing_page_call_answers_one_404_to_what_is_not_a_link() {
    let app = walker(Kind::Sqlite).await.unwrap();
    let (_, key) = app.owner().await;
    let calls: Vec<&Route> = signet_rest::page_routes()
        .into_iter()
        .filter(|r| r.access == Access::Link)
        .collect();
    assert!(calls.len() >= 8, "{calls:?}");
    let mut reference: Option<Value> = None;
    for route in calls {
        let what = format!("{} {}", route.method, route.path);
        for credential in [
            None,
            Some("Link".to_string()),
            Some("Link not-a-link".to_string()),
            Some(format!("Link {}", "B".repeat(43))),
            Some(format!("Bearer {key}")),
            Some(format!("Link {key}")),
        ] {
            let mut r = app
                .client
                .request(route.method.clone(), format!("{}{}", app.base, route.path));
            if let Some(c) = &credential {
                r = r.header("authorization", c);
            }
            if route.method == Method::POST {
                r = r.header("content-type", "application/json").body("{}");
            }
            let a = app.send(r).await;
            assert_eq!(a.status, 404, "{what} with {credential:?}: {}", a.body);
            let body = a.error_without_request_id();
            match &reference {
                None => reference = Some(body),
                Some(first) => assert_eq!(&body, first, "{what} with {credential:?}"),
            }
        }
    }
    assert!(
        reference.unwrap()["error"]["message"]
            .as_str()
            .unwrap()
            .contains("this link does not open a document")
    );
}

/// Every type's fields as introspection gives them: name to (field, type's name, whether
/// the field takes arguments).
type Types = std::collections::HashMap<String, Vec<(String, String, bool)>>;

async fn types(app: &TestApp, key: &str) -> Types {
    // Deep enough for a list of lists (`[[PlayQuestionOut!]!]!` is six levels).
    let q = "{ __schema { types { name kind fields { name args { name } \
             type { kind name ofType { kind name ofType { kind name ofType { kind name \
             ofType { kind name ofType { kind name ofType { kind name } } } } } } } } } } }";
    let a = gql(app, key, q, &json!({})).await;
    assert!(a.body["errors"].is_null(), "{}", a.body);
    let mut out = Types::new();
    for t in a.body["data"]["__schema"]["types"].as_array().unwrap() {
        if t["kind"] != "OBJECT" {
            continue;
        }
        let mut fields = Vec::new();
        for f in t["fields"].as_array().unwrap() {
            let mut ty = &f["type"];
            while ty["name"].is_null() {
                assert!(
                    !ty.is_null(),
                    "{} nests deeper than the query asks",
                    f["name"]
                );
                ty = &ty["ofType"];
            }
            fields.push((
                f["name"].as_str().unwrap().to_string(),
                ty["name"].as_str().unwrap().to_string(),
                !f["args"].as_array().unwrap().is_empty(),
            ));
        }
        out.insert(t["name"].as_str().unwrap().to_string(), fields);
    }
    out
}

/// Every field of type `name` and of the objects below it, as a selection set.
fn selection(types: &Types, name: &str, depth: usize) -> String {
    let Some(fields) = types.get(name) else {
        return String::new();
    };
    assert!(depth < 8, "{name} nests too deep");
    let mut out = Vec::new();
    for (field, ty, takes_args) in fields {
        if *takes_args || field.starts_with("__") {
            continue;
        }
        if types.contains_key(ty) {
            out.push(format!("{field} {{ {} }}", selection(types, ty, depth + 1)));
        } else {
            out.push(field.clone());
        }
    }
    out.join(" ")
}

/// Ids, times, secrets and links written alike, for two answers about two objects made
/// the same way.
fn normalised(v: &Value) -> Value {
    match v {
        Value::String(s) => {
            // A link first: its token may hold a `_` that would read as an id.
            let id = !s.starts_with("http")
                && s.split_once('_').is_some_and(|(p, r)| {
                    !p.is_empty()
                        && p.chars().all(|c| c.is_ascii_lowercase())
                        && r.len() == 26
                        && r.chars().all(|c| c.is_ascii_alphanumeric())
                });
            let time = s.len() >= 20 && s.as_bytes()[4] == b'-' && s.contains('T');
            if id {
                json!("<id>")
            } else if time {
                json!("<time>")
            } else if s.starts_with("whsec_") {
                json!("<secret>")
            } else if s.starts_with("http") {
                json!("<link>")
            } else {
                v.clone()
            }
        }
        Value::Array(a) => Value::Array(a.iter().map(normalised).collect()),
        Value::Object(o) => {
            Value::Object(o.iter().map(|(k, v)| (k.clone(), normalised(v))).collect())
        }
        _ => v.clone(),
    }
}

/// Where GraphQL's answer `g` and REST's `r` differ, field by field over GraphQL's fields (a
/// field REST leaves out is null there).
fn differences(at: &str, g: &Value, r: &Value, out: &mut Vec<String>) {
    match g {
        Value::Object(o) => {
            for (k, v) in o {
                differences(
                    &format!("{at}.{k}"),
                    v,
                    r.get(k).unwrap_or(&Value::Null),
                    out,
                );
            }
        }
        Value::Array(a) => match r.as_array() {
            Some(b) if b.len() == a.len() => {
                for (i, (x, y)) in a.iter().zip(b).enumerate() {
                    differences(&format!("{at}[{i}]"), x, y, out);
                }
            }
            _ => out.push(format!("{at}: GraphQL {g}, REST {r}")),
        },
        Value::Number(n) if r.as_f64() == n.as_f64() => {}
        _ if g == r => {}
        _ => out.push(format!("{at}: GraphQL {g}, REST {r}")),
    }
}

/// How many values (not objects or lists) an answer holds.
fn leaves(v: &Value) -> usize {
    match v {
        Value::Object(o) => o.values().map(leaves).sum(),
        Value::Array(a) => a.iter().map(leaves).sum(),
        _ => 1,
    }
}

fn assert_agree(what: &str, g: &Value, r: &Value) {
    // Something is compared: GraphQL answered with fields, and not all of them empty.
    assert!(leaves(g) >= 2, "{what}: {g}");
    assert!(
        leaves(g)
            > g.as_object()
                .map_or(0, |o| o.values().filter(|v| v.is_null()).count()),
        "{what}: {g}"
    );
    let mut out = Vec::new();
    differences("", g, r, &mut out);
    assert!(
        out.is_empty(),
        "{what}: GraphQL and REST differ:\n{}",
        out.join("\n")
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn graphql_and_rest_answer_the_same_objects_alike() {
    let app = walker(Kind::Sqlite).await.unwrap();
    let (World { ws, all: key }, live, _) = world(&app).await;
    let team = signet_accounts::teams::create(app.ctx(), &ws, "Sales")
        .await
        .unwrap();
    signet_accounts::teams::add_member(
        app.ctx(),
        &team.id,
        "ada@example.com",
        "Ada Client",
        "member",
    )
    .await
    .unwrap();
    let types = types(&app, &key).await;
    let query_type = |field: &str| -> String {
        types["Query"]
            .iter()
            .chain(&types["Mutation"])
            .find(|(f, _, _)| f == field)
            .unwrap_or_else(|| panic!("no field {field}"))
            .1
            .clone()
    };
    let read = async |k: &str, field: &str, args: &str, vars: Value| -> Value {
        let sel = selection(&types, &query_type(field), 0);
        let q = format!("query{args} {{ {field}{} {{ {sel} }} }}", call_args(args));
        let a = gql(&app, k, &q, &vars).await;
        assert!(a.body["errors"].is_null(), "{field}: {}", a.body);
        a.body["data"][field].clone()
    };

    // Reads of the same objects.
    let relay = relay_hook(&app, &key).await;
    let (hook, _) = hook_with_delivery(&app, &key).await;
    let executed_id = executed(&app, &key).await;
    let sent_id = document(&app, &key, true, false).await;
    // Rendered before the two doors are read: a render finishing between them is a change,
    // not a difference.
    rendered(&app, &key, &sent_id).await;
    let tpl = template(&app, &key).await;
    let get = async |k: &str, path: &str| -> Value {
        let a = app.get(path, Some(k)).await;
        assert!(a.status.is_success(), "{path}: {}", a.body);
        a.body
    };
    for (field, args, vars, path) in [
        ("usage", "", json!({}), "/api/v1/usage".to_string()),
        ("report", "", json!({}), "/api/v1/reports".into()),
        ("teams", "", json!({}), "/api/v1/teams".into()),
        (
            "paymentsStatus",
            "",
            json!({}),
            "/api/v1/payments/status".into(),
        ),
        (
            "webhookTopics",
            "",
            json!({}),
            "/api/v1/webhooks/topics".into(),
        ),
        ("documents", "", json!({}), "/api/v1/documents".into()),
        (
            "document",
            "($id: String!)",
            json!({"id": executed_id}),
            format!("/api/v1/documents/{executed_id}"),
        ),
        (
            "document",
            "($id: String!)",
            json!({"id": sent_id}),
            format!("/api/v1/documents/{sent_id}"),
        ),
        (
            "documentSource",
            "($id: String!)",
            json!({"id": sent_id}),
            format!("/api/v1/documents/{sent_id}/source"),
        ),
        ("webhooks", "", json!({}), "/api/v1/webhooks".into()),
        (
            "webhookDeliveries",
            "($id: String!)",
            json!({"id": hook}),
            format!("/api/v1/webhooks/{hook}/deliveries"),
        ),
        (
            "webhookRelay",
            "($id: String!, $wait: Int)",
            json!({"id": relay, "wait": 0}),
            format!("/api/v1/webhooks/{relay}/relay?wait=0"),
        ),
        (
            "emailTemplates",
            "",
            json!({}),
            "/api/v1/email-templates".into(),
        ),
        ("emails", "", json!({}), "/api/v1/emails".into()),
        (
            "template",
            "($id: String!)",
            json!({"id": tpl}),
            format!("/api/v1/templates/{tpl}"),
        ),
        (
            "templates",
            "",
            json!({}),
            "/api/v1/documents/templates".into(),
        ),
    ] {
        let g = read(&key, field, args, vars).await;
        let r = get(&key, &path).await;
        assert_agree(&format!("{field} / GET {path}"), &g, &r);
    }
    // The audit trail: the CSV's rows are GraphQL's events, in order.
    let events = read(
        &key,
        "documentAuditLog",
        "($id: String!)",
        json!({"id": executed_id}),
    )
    .await;
    let csv = app
        .get(
            &format!("/api/v1/documents/{executed_id}/audit-log.csv"),
            Some(&key),
        )
        .await;
    let rows: Vec<&str> = csv.body.as_str().unwrap().lines().skip(1).collect();
    let events = events.as_array().unwrap();
    assert_eq!(rows.len(), events.len(), "{rows:?}");
    for (row, e) in rows.iter().zip(events) {
        assert!(row.contains(e["event"].as_str().unwrap()), "{row} / {e}");
    }
    // checkDocument is POST /documents/check.
    let input = json!({"source": crate::documents::source(), "people": people()});
    let sel = selection(&types, &query_type("checkDocument"), 0);
    let g = gql(
        &app,
        &key,
        &format!("query($i: DocumentCheckInput!) {{ checkDocument(input: $i) {{ {sel} }} }}"),
        &json!({"i": input}),
    )
    .await;
    let r = ok(&app, Method::POST, "/api/v1/documents/check", &key, input).await;
    assert_agree("checkDocument", &g.body["data"]["checkDocument"], &r);

    // Mutations: each made once through GraphQL and once through REST, on objects made the
    // same way; the answers agree once ids, times, secrets and links are written alike.
    let file = {
        use base64::Engine;
        base64::engine::general_purpose::STANDARD.encode(crate::templates::tagged_pdf())
    };
    let wording = json!({"subject": "A reminder: {{document.title}}"});
    let doc_input = json!({"title": "Made", "source": crate::documents::source(),
        "people": people(), "variableValues": {"fee": "10 EUR"}});
    let revised =
        json!({"source": crate::documents::source(), "variableValues": {"fee": "20 EUR"}});
    let parties = json!([
        {"seat": "client", "name": "Ada Client", "email": "ada@example.com"},
        {"seat": "provider", "name": "Bob Provider", "email": "bob@example.com"}]);
    let why = "sent to the wrong person";
    let id = "($id: String!)";
    let id_input = "($id: String!, $input: JSON!)";
    let input = "($input: JSON!)";
    let wording_args = "($kind: String!, $input: EmailWordingInput!)";
    use Fresh::*;
    // GraphQL field, its arguments and variables; the REST call; the object both act on.
    // "ID" and "DELIVERY" in variables, `{id}` and `{d}` in paths, are that object's.
    let cases: Vec<(&str, &str, Value, Method, &str, Value, Fresh)> = vec![
        (
            "createDocument",
            input,
            json!({"input": doc_input}),
            Method::POST,
            "/api/v1/documents",
            doc_input.clone(),
            Nothing,
        ),
        (
            "sendDocument",
            id,
            json!({"id": "ID"}),
            Method::POST,
            "/api/v1/documents/{id}/send",
            Value::Null,
            Draft,
        ),
        (
            "reviseDocument",
            id_input,
            json!({"id": "ID", "input": revised}),
            Method::POST,
            "/api/v1/documents/{id}/revise",
            revised.clone(),
            Draft,
        ),
        (
            "remindDocument",
            id,
            json!({"id": "ID"}),
            Method::POST,
            "/api/v1/documents/{id}/remind",
            json!({}),
            Out,
        ),
        (
            "voidDocument",
            "($id: String!, $reason: String)",
            json!({"id": "ID", "reason": why}),
            Method::POST,
            "/api/v1/documents/{id}/void",
            json!({"reason": why}),
            Out,
        ),
        (
            "embedSession",
            "($id: String!, $seat: String!, $origin: String!)",
            json!({"id": "ID", "seat": "client", "origin": SITE}),
            Method::POST,
            "/api/v1/documents/{id}/embed-session",
            json!({"seat": "client", "origin": SITE}),
            Embedded,
        ),
        (
            "testSignDocument",
            "($id: String!, $seat: String!)",
            json!({"id": "ID", "seat": "client"}),
            Method::POST,
            "/api/v1/documents/{id}/test-sign",
            json!({"seat": "client"}),
            Out,
        ),
        (
            "createWebhook",
            input,
            json!({"input": {"eventTypes": ["documents.document.sent"], "relay": true}}),
            Method::POST,
            "/api/v1/webhooks",
            json!({"eventTypes": ["documents.document.sent"], "relay": true}),
            Nothing,
        ),
        (
            "deleteWebhook",
            id,
            json!({"id": "ID"}),
            Method::DELETE,
            "/api/v1/webhooks/{id}",
            Value::Null,
            Relay,
        ),
        (
            "testWebhook",
            id,
            json!({"id": "ID"}),
            Method::POST,
            "/api/v1/webhooks/{id}/test",
            json!({}),
            Relay,
        ),
        (
            "rotateWebhookSecret",
            id,
            json!({"id": "ID"}),
            Method::POST,
            "/api/v1/webhooks/{id}/rotate",
            json!({}),
            Relay,
        ),
        (
            "replayWebhookDelivery",
            "($id: String!, $deliveryId: String!)",
            json!({"id": "ID", "deliveryId": "DELIVERY"}),
            Method::POST,
            "/api/v1/webhooks/{id}/deliveries/{d}/replay",
            Value::Null,
            Delivery,
        ),
        // Saved wording is changed by live keys.
        (
            "saveEmailTemplate",
            wording_args,
            json!({"kind": "reminder", "input": wording}),
            Method::PUT,
            "/api/v1/email-templates/reminder",
            wording.clone(),
            Live,
        ),
        (
            "previewEmailTemplate",
            wording_args,
            json!({"kind": "reminder", "input": wording}),
            Method::POST,
            "/api/v1/email-templates/reminder/preview",
            wording.clone(),
            Live,
        ),
        (
            "resetEmailTemplate",
            "($kind: String!)",
            json!({"kind": "reminder"}),
            Method::DELETE,
            "/api/v1/email-templates/reminder",
            Value::Null,
            Live,
        ),
        (
            "createTemplateFromSource",
            input,
            json!({"input": {"name": "Words", "source": plain_source()}}),
            Method::POST,
            "/api/v1/templates/source",
            json!({"name": "Words", "source": plain_source()}),
            Nothing,
        ),
        (
            "createTemplateFromHtml",
            input,
            json!({"input": {"name": "Page", "html": "<p>Agreed. {{Sign;type=signature;role=client}}</p>"}}),
            Method::POST,
            "/api/v1/templates/html",
            json!({"name": "Page", "html": "<p>Agreed. {{Sign;type=signature;role=client}}</p>"}),
            Nothing,
        ),
        (
            "createTemplateFromFile",
            input,
            json!({"input": {"name": "File", "fileName": "tagged.pdf", "file": file}}),
            Method::POST,
            "/api/v1/templates/file",
            json!({"name": "File", "fileName": "tagged.pdf", "file": file}),
            Nothing,
        ),
        (
            "setTemplateDefaults",
            id_input,
            json!({"id": "ID", "input": {"message": "Please sign"}}),
            Method::POST,
            "/api/v1/templates/{id}/defaults",
            json!({"message": "Please sign"}),
            Template,
        ),
        (
            "createDocumentFromTemplate",
            id_input,
            json!({"id": "ID", "input": {"people": people()}}),
            Method::POST,
            "/api/v1/templates/{id}/documents",
            json!({"people": people()}),
            Template,
        ),
        (
            "sendTemplate",
            input,
            json!({"input": {"templateId": "ID", "parties": parties}}),
            Method::POST,
            "/api/v1/documents/send",
            json!({"templateId": "ID", "parties": parties}),
            Template,
        ),
    ];
    for (field, args, vars, method, path, body, fresh) in cases {
        let k = if matches!(fresh, Live) { &live } else { &key };
        let (g_obj, r_obj) = (fresh.make(&app, &key).await, fresh.make(&app, &key).await);
        let sel = selection(&types, &query_type(field), 0);
        let args = match args.contains("JSON!") {
            true => args.replace("JSON!", &format!("{}!", input_type(field))),
            false => args.to_string(),
        };
        let q = format!(
            "mutation{args} {{ {field}{} {{ {sel} }} }}",
            call_args(&args)
        );
        let a = gql(&app, k, &q, &filled(&vars, &g_obj)).await;
        assert!(a.body["errors"].is_null(), "{field}: {}", a.body);
        let path = path.replace("{id}", &r_obj.0).replace("{d}", &r_obj.1);
        let r = ok(&app, method, &path, k, filled(&body, &r_obj)).await;
        assert_agree(field, &normalised(&a.body["data"][field]), &normalised(&r));
    }
}

/// The input object a mutation's `input` takes (the body of its REST route).
fn input_type(field: &str) -> &'static str {
    match field {
        "checkDocument" => "DocumentCheckInput",
        "createDocument" => "DocumentCreateInput",
        "reviseDocument" => "DocumentReviseInput",
        "createWebhook" => "WebhookCreateInput",
        "createTemplateFromSource" => "TemplateSourceInput",
        "createTemplateFromHtml" => "TemplateHtmlInput",
        "createTemplateFromFile" => "TemplateFileInput",
        "setTemplateDefaults" => "TemplateDefaultsInput",
        "createDocumentFromTemplate" => "TemplateDocumentInput",
        "sendTemplate" => "TemplateSendInput",
        "createTemplateVersion" => "TemplateVersionInput",
        other => panic!("{other} takes no input object"),
    }
}

/// What a mutation case acts on.
#[derive(Clone, Copy)]
enum Fresh {
    Nothing,
    /// Nothing, with a live key.
    Live,
    Draft,
    /// A document out for signature, its pages ready.
    Out,
    /// The same, its client signing in a frame.
    Embedded,
    Relay,
    /// A webhook endpoint and a tried delivery to it.
    Delivery,
    Template,
}

impl Fresh {
    /// The object's id and, for `Delivery`, the delivery's.
    async fn make(self, app: &TestApp, key: &str) -> (String, String) {
        let out = async |embedded: bool| {
            let id = document(app, key, true, embedded).await;
            rendered(app, key, &id).await;
            id
        };
        match self {
            Fresh::Nothing | Fresh::Live => Default::default(),
            Fresh::Draft => (document(app, key, false, false).await, String::new()),
            Fresh::Out => (out(false).await, String::new()),
            Fresh::Embedded => (out(true).await, String::new()),
            Fresh::Relay => (relay_hook(app, key).await, String::new()),
            Fresh::Delivery => hook_with_delivery(app, key).await,
            Fresh::Template => (template(app, key).await, String::new()),
        }
    }
}

/// `v` with the strings "ID" and "DELIVERY" replaced by `made`'s ids.
fn filled(v: &Value, made: &(String, String)) -> Value {
    match v {
        Value::String(s) if s == "ID" => json!(made.0),
        Value::String(s) if s == "DELIVERY" => json!(made.1),
        Value::Array(a) => Value::Array(a.iter().map(|x| filled(x, made)).collect()),
        Value::Object(o) => Value::Object(
            o.iter()
                .map(|(k, x)| (k.clone(), filled(x, made)))
                .collect(),
        ),
        _ => v.clone(),
    }
}

/// `($a: T, $b: U)` as the arguments of a call: `(a: $a, b: $b)`.
fn call_args(declared: &str) -> String {
    if declared.is_empty() {
        return String::new();
    }
    let names: Vec<String> = declared
        .trim_matches(|c| c == '(' || c == ')')
        .split(',')
        .map(|d| {
            let n = d
                .trim()
                .trim_start_matches('$')
                .split(':')
                .next()
                .unwrap()
                .trim();
            format!("{n}: ${n}")
        })
        .collect();
    format!("({})", names.join(", "))
}
