//! No response, GraphQL field or log line carries a signing link or an access code. The spec
//! allows one only in an embedded signing session; `docs/architecture.md` keeps them in emails, minted when
//! an email is sent and stored hashed.

use std::process::Command;
use std::time::Duration;

use serde_json::{Value, json};

use crate::documents::{self, body};
use crate::harness::Process;
use crate::harness::{Kind, TestApp};
use crate::servers::free_port;

/// Words a name carries when it holds a link, a code or a secret.
const SUSPECT: &[&str] = &[
    "link", "url", "token", "code", "secret", "otp", "password", "passcode",
];

/// Fields that match `SUSPECT` and are no signing link or access code: a webhook endpoint's
/// own address and signing secret (the caller's, shown when made or rotated), an API key's
/// secret (answered once, to the owner or admin who made it) and a payment receipt's address. Two more are the spec's own: an embedded session's link (its one
/// exception), and a person's access code on the way in (never serialised back) with the
/// switch for an emailed code (a boolean). A builder's or Scribe's session link opens no
/// document to sign: the spec answers it for those frames.
const ALLOWED: &[&str] = &[
    "EmbedSessionOut.url",
    "FrameSessionOut.url",
    "PersonIn.accessCode",
    "PersonIn.emailCode",
    "PartyIn.accessCode",
    "PartyIn.emailCode",
    "PaymentOut.receiptUrl",
    // The processor's own onboarding page for the workspace's account (no signing link).
    "PaymentsConnectOut.url",
    "WebhookOut.url",
    "WebhookOut.secret",
    "WebhookOut.previousSecretExpiresAt",
    "WebhookCreateIn.url",
    "Mutation.rotateWebhookSecret",
    "ApiKeyMade.secret",
    // The same fields of the request bodies, as GraphQL's input objects name them.
    "PersonInput.accessCode",
    "PersonInput.emailCode",
    "PartyInput.accessCode",
    "PartyInput.emailCode",
    "WebhookCreateInput.url",
];

fn suspect(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    SUSPECT.iter().any(|w| lower.contains(w))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_graphql_field_or_rest_schema_property_could_carry_a_link_or_code() {
    let app = TestApp::start(Kind::Sqlite).await.unwrap();
    let (_, key) = app.owner().await;
    let q =
        json!({"query": "{ __schema { types { name fields { name } inputFields { name } } } }"});
    let a = app.post("/graphql", &key, &[], &q.to_string()).await;
    assert_eq!(a.status, 200, "{}", a.body);
    let mut seen = 0;
    let mut found = vec![];
    for t in a.body["data"]["__schema"]["types"].as_array().unwrap() {
        let ty = t["name"].as_str().unwrap();
        if ty.starts_with("__") {
            continue;
        }
        for f in [&t["fields"], &t["inputFields"]]
            .into_iter()
            .filter_map(Value::as_array)
            .flatten()
        {
            seen += 1;
            let name = f["name"].as_str().unwrap();
            if suspect(name) {
                found.push(format!("{ty}.{name}"));
            }
        }
    }
    assert!(
        seen > 100,
        "the introspection saw the whole schema ({seen} fields)"
    );
    found.retain(|f| !ALLOWED.contains(&f.as_str()));
    assert!(
        found.is_empty(),
        "GraphQL fields that could carry a link or code: {found:?}"
    );

    let doc = app.get("/api/openapi.json", None).await.body;
    let mut found = vec![];
    for (schema, s) in doc["components"]["schemas"].as_object().unwrap() {
        for name in s["properties"]
            .as_object()
            .into_iter()
            .flat_map(|p| p.keys())
        {
            if suspect(name) && !ALLOWED.contains(&format!("{schema}.{name}").as_str()) {
                found.push(format!("{schema}.{name}"));
            }
        }
    }
    assert!(
        found.is_empty(),
        "REST properties that could carry a link or code: {found:?}"
    );

    // An invitation or reminder job holds who and what, never a link or code: those are
    // minted when the email is sent.
    let sent = documents::create(&app, &key, json!({"sendNow": true})).await;
    assert_eq!(sent.status, 201, "{}", sent.body);
    let id = sent.body["id"].as_str().unwrap();
    let jobs = documents::outbox(&app, id).await;
    let emails: Vec<&Value> = jobs
        .iter()
        .filter(|j| j.0 == "email")
        .map(|j| &j.1)
        .collect();
    assert_eq!(emails.len(), 2, "{jobs:?}");
    for e in emails {
        let mut keys: Vec<&str> = e.as_object().unwrap().keys().map(String::as_str).collect();
        keys.sort();
        assert_eq!(
            keys,
            ["documentId", "kind", "locale", "personId", "seat", "test"],
            "{e}"
        );
    }
}

/// A real `signet serve` on a fresh embedded store, logging at debug level, taken through a
/// document's life; every answer and every log line is read afterwards.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_answer_or_log_line_of_a_documents_life_holds_a_link_or_code() {
    // Run alone, no other test has installed the process's TLS provider for reqwest.
    let _ = rustls::crypto::ring::default_provider().install_default();
    let dir = tempfile::tempdir().unwrap();
    let log_path = dir.path().join("serve.log");
    let env = [
        (
            "SIGNET_DATA_DIR",
            dir.path().join("data").display().to_string(),
        ),
        (
            "SIGNET_SECRET_KEY",
            "leak-test-secret-leak-test-secret-0000".to_string(),
        ),
    ];
    let cli = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_signet"))
            .args(args)
            .envs(env.clone())
            .current_dir(dir.path())
            .output()
            .expect("signet runs");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        serde_json::from_slice::<Value>(&out.stdout).unwrap()
    };
    let ws = cli(&["admin", "workspace", "create", "--name", "Leaks", "--json"])["id"]
        .as_str()
        .unwrap()
        .to_string();
    // Test documents email only the workspace's own sender address.
    cli(&[
        "admin",
        "workspace",
        "update",
        &ws,
        "--sender-email",
        "owner@example.net",
        "--json",
    ]);
    let key = cli(&[
        "admin",
        "key",
        "create",
        "--workspace",
        &ws,
        "--mode",
        "test",
        "--scopes",
        "documents:read,documents:write,notifications:read",
        "--json",
    ])["key"]
        .as_str()
        .unwrap()
        .to_string();
    let port = free_port();
    let log = std::fs::File::create(&log_path).unwrap();
    // Killed when dropped, so a failing assertion leaves no server behind.
    let server = Process(
        Command::new(env!("CARGO_BIN_EXE_signet"))
            .arg("serve")
            .envs(env.clone())
            .env("SIGNET_LISTEN", format!("127.0.0.1:{port}"))
            .env("SIGNET_LOG", "debug")
            .current_dir(dir.path())
            .stdout(log.try_clone().unwrap())
            .stderr(log)
            .spawn()
            .expect("signet serve starts"),
    );
    crate::harness::listening(port, "signet serve", 30);
    let base = format!("http://127.0.0.1:{port}");
    let client = reqwest::Client::new();
    let mut answers: Vec<String> = vec![];
    let mut call = async |method: &str, path: &str, body: Option<String>| -> Value {
        let mut req = client
            .request(method.parse().unwrap(), format!("{base}{path}"))
            .bearer_auth(&key)
            .header("content-type", "application/json")
            .header("idempotency-key", signet_core::ids::new_id("leak").as_str());
        if let Some(b) = body {
            req = req.body(b);
        }
        let res = req.send().await.unwrap();
        let status = res.status();
        let mut text = format!("{:?}\n", res.headers());
        text.push_str(&res.text().await.unwrap());
        assert!(status.is_success(), "{method} {path}: {status} {text}");
        answers.push(text.clone());
        serde_json::from_str(text.lines().last().unwrap()).unwrap_or(Value::Null)
    };

    let made = call(
        "POST",
        "/api/v1/documents",
        Some(body(json!({"sendNow": true}))),
    )
    .await;
    let id = made["id"].as_str().unwrap().to_string();
    let doc = format!("/api/v1/documents/{id}");
    call("GET", &doc, None).await;
    call("GET", "/api/v1/documents", None).await;
    call("GET", &format!("{doc}/source"), None).await;
    call("POST", &format!("{doc}/remind"), Some("{}".into())).await;
    // The mail worker sends an invitation and a reminder as .eml files (in test mode, one of
    // each kind, to the sender) before anyone signs: each signing link is in its email and
    // nowhere else.
    let mail_dir = dir.path().join("data").join("mail");
    let mut tokens: Vec<String> = vec![];
    for _ in 0..300 {
        tokens = links_in(&mail_dir);
        if tokens.len() >= 2 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(
        tokens.len(),
        2,
        "the invitation and the reminder carry links: {tokens:?}"
    );
    let everything = "query($id: String!) { document(id: $id) { id state title people { id seat name email \
        action order status invitedAt openedAt signedAt declinedAt externalId metadata } } \
        documentAuditLog(id: $id) { seq event description actor detail } }";
    let q = json!({"query": everything, "variables": {"id": id}}).to_string();
    call("POST", "/graphql", Some(q.clone())).await;
    for seat in ["client", "provider"] {
        let signed = call(
            "POST",
            &format!("{doc}/test-sign"),
            Some(json!({"seat": seat}).to_string()),
        )
        .await;
        assert_ne!(signed["state"], "sent", "{signed}");
    }
    let mut executed = false;
    for _ in 0..300 {
        if call("GET", &doc, None).await["state"] == "executed" {
            executed = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(executed, "the test document was sealed");
    call("GET", &format!("{doc}/audit-log.csv"), None).await;
    call("POST", "/graphql", Some(q)).await;
    // The sender's completion email (in test mode every email goes to the sender).
    let mut logged = Value::Null;
    for _ in 0..300 {
        logged = call("GET", &format!("/api/v1/emails?documentId={id}"), None).await;
        if logged["data"].as_array().map(|d| d.len()).unwrap_or(0) >= 3 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(300)).await;
    }
    // An invitation, a reminder and the completion email.
    assert_eq!(
        logged["data"].as_array().map(|d| d.len()),
        Some(3),
        "{logged}"
    );
    let emails = json!({"query": "{ emails(limit: 50) { data { id kind to subject status locale documentId personId reason } } }"});
    call("POST", "/graphql", Some(emails.to_string())).await;

    drop(server);
    let logged = std::fs::read_to_string(&log_path).unwrap();
    // Every answer's request is in the log: the lines read below are the ones these requests
    // made.
    for a in &answers {
        let rid = a
            .split("\"request-id\": \"")
            .nth(1)
            .unwrap()
            .split('"')
            .next()
            .unwrap();
        assert!(
            logged.contains(rid),
            "request {rid} is not in the debug log:\n{logged}"
        );
    }
    // What a signing link or an access code would look like, whatever its carrier.
    let shapes = [
        "/sign/",
        "/s/",
        "token=",
        "code=",
        "access code",
        "accesscode",
        "access_code",
        "signing link",
        "signinglink",
        "signing_url",
        "signingurl",
    ];
    for (what, text) in answers
        .iter()
        .map(|a| ("an answer", a.as_str()))
        .chain(logged.lines().map(|l| ("a log line", l)))
    {
        let lower = text.to_ascii_lowercase();
        for s in shapes {
            assert!(!lower.contains(s), "{what} holds {s:?}: {text}");
        }
        for t in &tokens {
            assert!(
                !text.contains(t.as_str()),
                "{what} holds a signing link's token: {text}"
            );
        }
    }
}

/// The tokens of the signing links in the `.eml` files of a mail folder.
fn links_in(dir: &std::path::Path) -> Vec<String> {
    let mut out = vec![];
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let raw = std::fs::read(entry.path()).unwrap_or_default();
        let Some(m) = mail_parser::MessageParser::default().parse(&raw) else {
            continue;
        };
        let text = m.body_text(0).map(|t| t.into_owned()).unwrap_or_default();
        for part in text.split("/s/").skip(1) {
            let t: String = part
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
                .collect();
            if t.len() == 43 {
                out.push(t);
            }
        }
    }
    out
}
