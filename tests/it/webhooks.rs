//! Webhooks end to end: endpoints over REST, deliveries verified by the `standardwebhooks`
//! Python library in a real receiver, retries, 410, replay, rotation, the relay with
//! `signet listen`, and no event lost when the delivering process is killed.

use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use signet_core::Mode;
use signet_core::plans::Plan;
use signet_storage::sea_orm::ConnectionTrait;

use crate::harness::{Kind, Options, TestApp, busy, claim_on, replayed, stored, stored_raw};
use crate::{both, both_quiet};

const ALL: &[&str] = &[
    "webhooks:read",
    "webhooks:write",
    "documents:read",
    "documents:write",
];

/// The Python receiver; killed when dropped.
pub struct Receiver {
    _child: crate::harness::Process,
    pub url: String,
    log: PathBuf,
    _dir: tempfile::TempDir,
}

fn python_with_standardwebhooks() -> bool {
    let ok = Command::new("python3")
        .args(["-c", "import standardwebhooks"])
        .status()
        .map(|s| s.success())
        .unwrap_or(false);
    signet_testkit::part(
        "verifiers",
        (!ok).then(|| {
            "python3 with standardwebhooks is required (pip install standardwebhooks)".to_string()
        }),
    )
}

impl Receiver {
    pub fn start(args: &[&str]) -> Option<Receiver> {
        if !python_with_standardwebhooks() {
            eprintln!("skipped: python3 standardwebhooks is not installed");
            return None;
        }
        let dir = tempfile::tempdir().unwrap();
        let port_file = dir.path().join("port");
        let log = dir.path().join("log.jsonl");
        let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/webhooks/receiver.py");
        let secrets = dir.path().join("secrets");
        std::fs::write(&secrets, "").unwrap();
        let child = Command::new("python3")
            .arg(script)
            .arg("--secrets-file")
            .arg(&secrets)
            .arg("--port-file")
            .arg(&port_file)
            .arg("--log")
            .arg(&log)
            .args(args)
            .stdout(Stdio::null())
            .spawn()
            .expect("python3 runs");
        let deadline = Instant::now() + Duration::from_secs(20);
        let port = loop {
            if let Ok(p) = std::fs::read_to_string(&port_file) {
                break p;
            }
            assert!(Instant::now() < deadline, "the receiver did not start");
            std::thread::sleep(Duration::from_millis(50));
        };
        Some(Receiver {
            _child: crate::harness::Process(child),
            url: format!("http://127.0.0.1:{port}"),
            log,
            _dir: dir,
        })
    }

    /// Adds a secret the receiver verifies with (each secret is tried separately).
    pub fn knows(&self, secret: &str) {
        use std::io::Write;
        let mut f = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(self.secrets())
            .unwrap();
        writeln!(f, "{secret}").unwrap();
    }

    fn secrets(&self) -> PathBuf {
        self.log.with_file_name("secrets")
    }

    /// The records written so far. A record still being written (the receiver's write of a
    /// large body can reach the file in pieces) is left for the next read: only lines that end
    /// in a newline count.
    pub fn records(&self) -> Vec<Value> {
        let text = std::fs::read_to_string(&self.log).unwrap_or_default();
        let complete = &text[..text.rfind('\n').map_or(0, |i| i + 1)];
        complete
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    }

    /// Waits until `done` holds for the records.
    pub async fn wait_for(
        &self,
        what: &str,
        secs: u64,
        done: impl Fn(&[Value]) -> bool,
    ) -> Vec<Value> {
        let deadline = Instant::now() + Duration::from_secs(secs);
        loop {
            let r = self.records();
            if done(&r) {
                return r;
            }
            assert!(
                Instant::now() < deadline,
                "timed out waiting for {what}; got {} records: {r:#?}",
                r.len()
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
}

fn idem() -> String {
    format!("idem-{}", signet_core::ids::new_id("k"))
}

async fn hook(app: &TestApp, key: &str, body: Value) -> Value {
    let a = app
        .post("/api/v1/webhooks", key, &[], &body.to_string())
        .await;
    assert_eq!(a.status, 201, "{:?}", a.body);
    a.body
}

/// Sends a document at once: one `documents.document.sent` event. Returns its id.
async fn sent_document(app: &TestApp, key: &str) -> String {
    let body = crate::documents::body(json!({"sendNow": true}));
    let a = app
        .post(
            "/api/v1/documents",
            key,
            &[("Idempotency-Key", &idem())],
            &body,
        )
        .await;
    assert_eq!(a.status, 201, "{:?}", a.body);
    a.body["id"].as_str().unwrap().to_string()
}

/// The endpoint's delivery log, which must hold `n` attempts (run after the jobs ran).
async fn attempts(app: &TestApp, key: &str, id: &str, n: usize) -> Value {
    let log = app
        .get(&format!("/api/v1/webhooks/{id}/deliveries"), Some(key))
        .await;
    let data = log.body["data"].clone();
    assert_eq!(data.as_array().map(Vec::len), Some(n), "{data:#?}");
    data
}

/// Runs every pending job (fan-out and deliveries included) and answers what the receiver
/// got, which must be `n` requests.
async fn delivered(app: &TestApp, rx: &Receiver, n: usize) -> Vec<Value> {
    app.run_pending_jobs().await;
    let got = rx.records();
    assert_eq!(got.len(), n, "{got:#?}");
    got
}

async fn setup(app: &TestApp, mode: Mode) -> String {
    let ws = app.workspace(Plan::Pro).await;
    app.key(&ws, mode, ALL).await
}

both!(endpoints_are_made_listed_and_removed, |app| {
    let key = setup(&app, Mode::Live).await;
    let topics = app.get("/api/v1/webhooks/topics", Some(&key)).await;
    assert_eq!(topics.body["topics"].as_array().unwrap().len(), 8);

    let bad = app
        .post(
            "/api/v1/webhooks",
            &key,
            &[],
            &json!({"eventTypes": ["documents.document.sent", "nope"], "relay": true}).to_string(),
        )
        .await;
    assert_eq!(bad.status, 400);
    assert!(
        bad.body["error"]["message"]
            .as_str()
            .unwrap()
            .starts_with("eventTypes[1]: unknown topic 'nope'"),
        "{:?}",
        bad.body
    );
    let neither = app
        .post(
            "/api/v1/webhooks",
            &key,
            &[],
            &json!({"eventTypes": ["documents.document.sent"]}).to_string(),
        )
        .await;
    assert_eq!(neither.status, 400);

    let a = hook(
        &app,
        &key,
        json!({"eventTypes": ["documents.document.sent"], "relay": true, "name": "laptop"}),
    )
    .await;
    let secret = a["secret"].as_str().unwrap();
    assert!(
        secret.starts_with("whsec_") && secret.len() == 38,
        "{secret}"
    );
    assert_eq!(a["relay"], true);
    assert!(a["url"].is_null());
    let b = hook(
        &app,
        &key,
        json!({"eventTypes": ["documents.document.voided"], "url": "https://127.0.0.1:9/h"}),
    )
    .await;

    let list = app.get("/api/v1/webhooks", Some(&key)).await;
    let ids: Vec<&str> = list.body["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["id"].as_str().unwrap())
        .collect();
    assert_eq!(
        ids,
        vec![b["id"].as_str().unwrap(), a["id"].as_str().unwrap()],
        "newest first"
    );
    assert!(
        !list.body.to_string().contains("whsec_"),
        "the secret is shown once"
    );

    // Another mode's key sees none of them.
    let ws_key_test = setup(&app, Mode::Test).await;
    let path = format!("/api/v1/webhooks/{}/deliveries", a["id"].as_str().unwrap());
    assert_eq!(app.get(&path, Some(&ws_key_test)).await.status, 404);

    let del = app
        .send(
            app.client
                .delete(format!(
                    "{}/api/v1/webhooks/{}",
                    app.base,
                    b["id"].as_str().unwrap()
                ))
                .bearer_auth(&key),
        )
        .await;
    assert_eq!(del.status, 200);
    assert_eq!(del.body["state"], "deleted");
    let list = app.get("/api/v1/webhooks", Some(&key)).await;
    assert_eq!(list.body["data"].as_array().unwrap().len(), 1);
    let log = app
        .get(
            &format!("/api/v1/webhooks/{}/deliveries", b["id"].as_str().unwrap()),
            Some(&key),
        )
        .await;
    assert_eq!(log.status, 200, "the record stays readable after removal");
});

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn non_public_and_plain_http_addresses_are_refused_at_creation() {
    let app = TestApp::start_with(
        Kind::Sqlite,
        Options {
            strict_webhooks: true,
            ..Options::default()
        },
    )
    .await
    .unwrap();
    let key = setup(&app, Mode::Live).await;
    for (url, words) in [
        ("https://localhost/h", "not a public"),
        ("https://127.0.0.1/h", "127.0.0.1"),
        ("https://10.1.2.3/h", "not a public"),
        ("https://169.254.169.254/latest", "not a public"),
        ("https://[::1]/h", "not a public"),
        ("https://nowhere.invalid/h", "cannot be resolved"),
        ("http://example.com/h", "https"),
    ] {
        let a = app
            .post(
                "/api/v1/webhooks",
                &key,
                &[],
                &json!({"eventTypes": ["documents.document.sent"], "url": url}).to_string(),
            )
            .await;
        assert_eq!(a.status, 400, "{url}: {:?}", a.body);
        let msg = a.body["error"]["message"].as_str().unwrap();
        assert!(
            msg.starts_with("url: ") && msg.contains(words),
            "{url}: {msg}"
        );
    }
}

both_quiet!(
    deliveries_verify_with_the_standard_library_and_carry_the_facts,
    |app| {
        let Some(rx) = Receiver::start(&[]) else {
            return;
        };
        let key = setup(&app, Mode::Live).await;
        let ep = hook(&app, &key, json!({"eventTypes": ["documents.document.sent", "documents.document.voided"], "url": format!("{}/hooks", rx.url)})).await;
        rx.knows(ep["secret"].as_str().unwrap());
        let ep_id = ep["id"].as_str().unwrap().to_string();

        let doc = sent_document(&app, &key).await;
        let void = app
            .post(
                &format!("/api/v1/documents/{doc}/void"),
                &key,
                &[],
                r#"{"reason": "wrong fee"}"#,
            )
            .await;
        assert_eq!(void.status, 200, "{:?}", void.body);
        let got = delivered(&app, &rx, 2).await;
        let mut types = vec![];
        for r in &got {
            assert_eq!(r["verified"], json!([true]), "{r:#?}");
            assert_eq!(r["answered"], 200);
            assert!(
                r["tampered"]["body"]
                    .as_str()
                    .unwrap()
                    .starts_with("rejected"),
                "{r:#?}"
            );
            assert!(
                r["tampered"]["secret"]
                    .as_str()
                    .unwrap()
                    .starts_with("rejected"),
                "{r:#?}"
            );
            assert!(
                r["tampered"]["timestamp"]
                    .as_str()
                    .unwrap()
                    .contains("too old"),
                "{r:#?}"
            );
            assert_eq!(
                r["headers"]["webhook-signature"],
                r["headers"]["service-signature"]
            );
            let body: Value = serde_json::from_str(r["body"].as_str().unwrap()).unwrap();
            assert_eq!(
                r["headers"]["webhook-id"].as_str().unwrap(),
                body["id"].as_str().unwrap()
            );
            assert_eq!(body["data"]["document"]["id"], doc.as_str());
            assert_eq!(body["data"]["document"]["externalId"], "deal-42");
            assert_eq!(body["data"]["document"]["metadata"]["crm.id"], "42");
            assert_eq!(body["test"], false);
            let text = r["body"].as_str().unwrap();
            assert!(
                !text.contains("http") && !text.to_lowercase().contains("code\""),
                "no link or code: {text}"
            );
            types.push(body["type"].as_str().unwrap().to_string());
        }
        types.sort();
        assert_eq!(
            types,
            vec!["documents.document.sent", "documents.document.voided"]
        );
        // Deliveries may arrive in any order; the voided one carries the reason.
        assert!(
            got.iter().any(|r| r["body"]
                .as_str()
                .unwrap()
                .contains(r#""reason":"wrong fee""#)),
            "{got:#?}"
        );

        let log = attempts(&app, &key, &ep_id, 2).await;
        let attempts = log.as_array().unwrap();
        assert!(
            attempts.iter().all(|a| a["succeeded"] == true
                && a["try"] == 1
                && a["responseStatus"] == 200
                && a["result"] == "200 OK"),
            "{attempts:#?}"
        );

        // A sample: signed, test: true, answered at once, and not in the record.
        let t = app
            .post(
                &format!("/api/v1/webhooks/{ep_id}/test"),
                &key,
                &[],
                r#"{"topic": "documents.document.executed"}"#,
            )
            .await;
        assert_eq!(t.status, 200, "{:?}", t.body);
        assert_eq!(t.body["delivered"], true);
        assert_eq!(t.body["responseStatus"], 200);
        let got = rx.records();
        assert_eq!(got.len(), 3, "the sample is sent at once");
        let sample: Value = serde_json::from_str(got[2]["body"].as_str().unwrap()).unwrap();
        assert_eq!(sample["test"], true);
        assert_eq!(sample["type"], "documents.document.executed");
        assert_eq!(got[2]["verified"], json!([true]));
        let log = app
            .get(&format!("/api/v1/webhooks/{ep_id}/deliveries"), Some(&key))
            .await;
        assert_eq!(
            log.body["data"].as_array().unwrap().len(),
            2,
            "samples are not stored"
        );

        // Replay: the same webhook-id and body again.
        let first = &attempts[1];
        let r = app
            .post(
                &format!(
                    "/api/v1/webhooks/{ep_id}/deliveries/{}/replay",
                    first["deliveryId"].as_str().unwrap()
                ),
                &key,
                &[],
                "",
            )
            .await;
        assert_eq!(r.status, 201, "{:?}", r.body);
        assert_eq!(r.body["webhookId"], first["webhookId"]);
        let got = delivered(&app, &rx, 4).await;
        assert_eq!(got[3]["headers"]["webhook-id"], first["webhookId"]);
        assert_eq!(got[3]["verified"], json!([true]));
    }
);

both_quiet!(a_rotation_signs_with_both_secrets_for_its_window, |app| {
    let Some(rx) = Receiver::start(&[]) else {
        return;
    };
    let key = setup(&app, Mode::Live).await;
    let ep = hook(
        &app,
        &key,
        json!({"eventTypes": ["documents.document.sent"], "url": format!("{}/h", rx.url)}),
    )
    .await;
    let old = ep["secret"].as_str().unwrap().to_string();
    let id = ep["id"].as_str().unwrap();
    let r = app
        .post(
            &format!("/api/v1/webhooks/{id}/rotate"),
            &key,
            &[],
            r#"{"windowHours": 2}"#,
        )
        .await;
    assert_eq!(r.status, 200, "{:?}", r.body);
    let new = r.body["secret"].as_str().unwrap().to_string();
    assert_ne!(new, old);
    assert!(r.body["previousSecretExpiresAt"].is_string());
    rx.knows(&old);
    rx.knows(&new);
    sent_document(&app, &key).await;
    let got = delivered(&app, &rx, 1).await;
    assert_eq!(
        got[0]["verified"],
        json!([true, true]),
        "each secret alone verifies: {:#?}",
        got[0]
    );
    assert_eq!(
        got[0]["headers"]["webhook-signature"]
            .as_str()
            .unwrap()
            .split(' ')
            .count(),
        2
    );

    // A rotation with no window: only the newest secret signs.
    let r = app
        .post(
            &format!("/api/v1/webhooks/{id}/rotate"),
            &key,
            &[],
            r#"{"windowHours": 0}"#,
        )
        .await;
    let newest = r.body["secret"].as_str().unwrap().to_string();
    rx.knows(&newest);
    sent_document(&app, &key).await;
    let got = delivered(&app, &rx, 2).await;
    assert_eq!(got[1]["verified"], json!([false, false, true]));
    let bad = app
        .post(
            &format!("/api/v1/webhooks/{id}/rotate"),
            &key,
            &[],
            r#"{"windowHours": 721}"#,
        )
        .await;
    assert_eq!(bad.status, 400);
});

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failed_delivery_is_retried_with_the_same_id_and_410_disables() {
    let app = TestApp::start_without_workers(Kind::Sqlite).await.unwrap();
    let Some(rx) = Receiver::start(&["--fail-first", "1"]) else {
        return;
    };
    let key = setup(&app, Mode::Live).await;
    let ep = hook(
        &app,
        &key,
        json!({"eventTypes": ["documents.document.sent"], "url": format!("{}/h", rx.url)}),
    )
    .await;
    rx.knows(ep["secret"].as_str().unwrap());
    sent_document(&app, &key).await;
    // The first try answers 503; the retry is due 5 s after it (±10 %), and not before. The
    // time of the try is the one its attempt row records, not the test's clock, which a busy
    // machine can put well before the worker gets to it.
    assert_eq!(delivered(&app, &rx, 1).await[0]["answered"], 503);
    let (next, tried): (i64, i64) = {
        use signet_storage::sea_orm::ConnectionTrait as _;
        let db = &app.ctx().db;
        let one = |sql: &'static str, col: &'static str| async move {
            db.conn
                .query_one_raw(db.stmt(sql, Vec::<signet_storage::sea_orm::Value>::new()))
                .await
                .unwrap()
                .expect("a row")
                .try_get::<i64>("", col)
                .unwrap()
        };
        (
            one(
                "SELECT next_attempt_at FROM webhook_messages WHERE state = 'pending'",
                "next_attempt_at",
            )
            .await,
            one(
                "SELECT created_at FROM webhook_attempts ORDER BY created_at LIMIT 1",
                "created_at",
            )
            .await,
        )
    };
    // Five seconds after the try ended, with a tenth either way of jitter.
    let wait = next - tried;
    assert!((4_500..=5_500).contains(&wait), "retry due after {wait} ms");
    app.make_deliveries_due().await;
    let got = delivered(&app, &rx, 2).await;
    assert_eq!(got[1]["answered"], 200);
    assert_eq!(
        got[0]["headers"]["webhook-id"],
        got[1]["headers"]["webhook-id"]
    );
    assert_eq!(got[0]["body"], got[1]["body"]);
    let id = ep["id"].as_str().unwrap();
    let log = attempts(&app, &key, id, 2).await;
    let a = log.as_array().unwrap();
    assert_eq!(
        (a[0]["try"].clone(), a[0]["succeeded"].clone()),
        (json!(2), json!(true)),
        "{a:#?}"
    );
    assert_eq!(
        (a[1]["try"].clone(), a[1]["result"].clone()),
        (json!(1), json!("503 Service Unavailable"))
    );

    // A receiver that answers 410 Gone is never called again.
    let gone = Receiver::start(&["--answer", "410"]).unwrap();
    let ep = hook(
        &app,
        &key,
        json!({"eventTypes": ["documents.document.sent"], "url": format!("{}/h", gone.url)}),
    )
    .await;
    let id = ep["id"].as_str().unwrap();
    sent_document(&app, &key).await;
    delivered(&app, &gone, 1).await;
    let list = app.get("/api/v1/webhooks", Some(&key)).await;
    let e = list.body["data"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["id"] == id)
        .unwrap()
        .clone();
    assert_eq!(e["state"], "disabled", "{e:#?}");
    assert_eq!(e["disabledReason"], "the receiver answered 410 Gone");
    sent_document(&app, &key).await;
    app.make_deliveries_due().await;
    delivered(&app, &gone, 1).await;
}

fn listen(
    app: &TestApp,
    key: &str,
    endpoint: &str,
    to: &str,
    state: &std::path::Path,
) -> crate::harness::Process {
    crate::harness::Process(
        Command::new(env!("CARGO_BIN_EXE_signet"))
            .args([
                "listen",
                "--endpoint",
                endpoint,
                "--forward-to",
                to,
                "--base-url",
                &app.base,
                "--state-file",
            ])
            .arg(state)
            .env("SIGNET_API_KEY", key)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("signet listen starts"),
    )
}

both!(
    the_relay_long_polls_and_signet_listen_forwards_with_exact_headers,
    |app| {
        let Some(rx) = Receiver::start(&[]) else {
            return;
        };
        let key = setup(&app, Mode::Live).await;
        let ep = hook(&app, &key, json!({"eventTypes": ["documents.document.sent", "documents.document.voided"], "relay": true})).await;
        rx.knows(ep["secret"].as_str().unwrap());
        let id = ep["id"].as_str().unwrap().to_string();

        // A long poll returns as soon as a delivery is stored.
        let empty = app
            .get(&format!("/api/v1/webhooks/{id}/relay"), Some(&key))
            .await;
        assert_eq!(empty.body["data"], json!([]));
        let poll = {
            let (client, url, key) = (
                app.client.clone(),
                format!("{}/api/v1/webhooks/{id}/relay?wait=20", app.base),
                key.clone(),
            );
            tokio::spawn(async move {
                client
                    .get(url)
                    .bearer_auth(key)
                    .send()
                    .await
                    .unwrap()
                    .json::<Value>()
                    .await
                    .unwrap()
            })
        };
        tokio::time::sleep(Duration::from_millis(300)).await;
        let started = Instant::now();
        let doc = sent_document(&app, &key).await;
        let page = poll.await.unwrap();
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "the poll waited too long"
        );
        assert_eq!(page["data"].as_array().unwrap().len(), 1, "{page:#?}");
        let item = &page["data"][0];
        assert_eq!(item["eventType"], "documents.document.sent");
        assert!(item["body"].as_str().unwrap().contains(&doc));
        let bad = app
            .get(&format!("/api/v1/webhooks/{id}/relay?wait=26"), Some(&key))
            .await;
        assert_eq!(bad.status, 400);

        // signet listen starts after the newest stored delivery and forwards what comes next.
        let state = rx.log.with_file_name("listen-state");
        let l = listen(&app, &key, &id, &format!("{}/local", rx.url), &state);
        let deadline = Instant::now() + Duration::from_secs(20);
        while !state.exists() {
            assert!(Instant::now() < deadline, "listen never started");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        let started_after = std::fs::read_to_string(&state).unwrap();
        let v = app
            .post(&format!("/api/v1/documents/{doc}/void"), &key, &[], "")
            .await;
        assert_eq!(v.status, 200);
        let got = rx
            .wait_for("the forwarded delivery", 30, |r| !r.is_empty())
            .await;
        assert_eq!(
            got.len(),
            1,
            "the delivery stored before listen started is not forwarded"
        );
        assert_eq!(got[0]["verified"], json!([true]), "{:#?}", got[0]);
        assert_eq!(got[0]["path"], "/local");
        assert!(
            got[0]["body"]
                .as_str()
                .unwrap()
                .contains("documents.document.voided")
        );

        // Stopped, a delivery comes in; restarted, listen resumes and forwards it. Listen
        // saves its place after the receiver answers: stopped in between, it would forward
        // that delivery again on restart (at least once), so it is stopped once it has saved.
        let deadline = Instant::now() + Duration::from_secs(20);
        while std::fs::read_to_string(&state).unwrap() == started_after {
            assert!(Instant::now() < deadline, "listen never saved its place");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        drop(l);
        let doc2 = sent_document(&app, &key).await;
        let _l = listen(&app, &key, &id, &format!("{}/local", rx.url), &state);
        let got = rx
            .wait_for("the delivery made while listen was down", 30, |r| {
                r.len() >= 2
            })
            .await;
        assert!(got[1]["body"].as_str().unwrap().contains(&doc2), "{got:#?}");
        assert_eq!(got[1]["verified"], json!([true]));
    }
);

/// Every (endpoint, webhook-id) pair the receiver saw.
fn pairs(records: &[Value]) -> std::collections::BTreeSet<(String, String)> {
    records
        .iter()
        .map(|r| {
            (
                r["path"].as_str().unwrap().to_string(),
                r["headers"]["webhook-id"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

fn worker(app: &TestApp) -> crate::harness::Process {
    crate::harness::Process(
        Command::new(env!("CARGO_BIN_EXE_signet"))
            .arg("worker")
            .envs(app.env())
            .current_dir(app.dir.path())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("signet worker starts"),
    )
}

/// Ten endpoints, ten events: a worker process is killed with SIGKILL while the hundred
/// deliveries are in flight; after a restart every pair arrives, repeats sharing their id.
async fn no_event_lost(kind: Kind) {
    let Some(app) = TestApp::start_without_workers(kind).await else {
        return;
    };
    let Some(rx) = Receiver::start(&["--delay", "0.3"]) else {
        return;
    };
    let key = setup(&app, Mode::Live).await;
    let mut endpoints = vec![];
    for i in 0..10 {
        let ep = hook(
            &app,
            &key,
            json!({"eventTypes": ["documents.document.sent"], "url": format!("{}/e{i}", rx.url)}),
        )
        .await;
        rx.knows(ep["secret"].as_str().unwrap());
        endpoints.push(format!("/e{i}"));
    }
    let mut events = vec![];
    for _ in 0..10 {
        let doc = sent_document(&app, &key).await;
        let rows = app
            .ctx()
            .db
            .conn
            .query_all_raw(app.ctx().db.stmt(
                "SELECT payload FROM outbox WHERE kind = 'event' AND document_id = $1",
                [signet_storage::sea_orm::Value::from(doc)],
            ))
            .await
            .unwrap();
        for r in rows {
            let p: String = r.try_get("", "payload").unwrap();
            events.push(
                serde_json::from_str::<Value>(&p).unwrap()["id"]
                    .as_str()
                    .unwrap()
                    .to_string(),
            );
        }
    }
    assert_eq!(events.len(), 10);
    let expected: std::collections::BTreeSet<(String, String)> = endpoints
        .iter()
        .flat_map(|e| events.iter().map(move |v| (e.clone(), v.clone())))
        .collect();

    let w = worker(&app);
    rx.wait_for("the first deliveries", 30, |r| !r.is_empty())
        .await;
    drop(w); // SIGKILL, with deliveries in flight and unrecorded
    let before = pairs(&rx.records());
    assert!(
        before.len() < expected.len(),
        "the kill came too late to test anything"
    );

    // Several workers share the queue after the restart.
    let _w1 = worker(&app);
    let _w2 = worker(&app);
    let got = rx
        .wait_for("every event at every endpoint", 90, |r| {
            pairs(r) == expected
        })
        .await;
    assert!(
        got.iter()
            .all(|r| r["verified"].as_array().unwrap().iter().any(|v| v == true))
    );
    assert!(got.len() >= expected.len());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_event_is_lost_when_the_worker_is_killed_sqlite() {
    no_event_lost(Kind::Sqlite).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_event_is_lost_when_the_worker_is_killed_postgres_redis() {
    no_event_lost(Kind::PostgresRedis).await;
}

/// Fan-out marks its events done in the same writer transaction as every send. Walking the
/// queued jobs instead (SQLite's planner takes a state-first index for a long id list) cost
/// 9 ms a pass with a backlog of emails and renders and stalled every write behind it; the
/// statement must go by primary key however many ids it names.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fan_out_marks_events_done_by_primary_key() {
    let app = TestApp::start(Kind::Sqlite).await.unwrap();
    let db = &app.ctx().db;
    for n in [1, 5, 40, 100] {
        let sql = signet_webhooks::deliver::mark_done_sql(n);
        let ids: Vec<signet_storage::sea_orm::Value> = (0..n)
            .map(|i| signet_storage::sea_orm::Value::from(format!("job_{i}")))
            .collect();
        let plan = db
            .conn
            .query_all_raw(db.stmt(&format!("EXPLAIN QUERY PLAN {sql}"), ids))
            .await
            .unwrap();
        let steps: Vec<String> = plan
            .iter()
            .map(|r| r.try_get::<String>("", "detail").unwrap())
            .collect();
        assert!(
            steps
                .iter()
                .any(|s| s.contains("sqlite_autoindex_outbox_1"))
                && !steps.iter().any(|s| s.contains("outbox_due")),
            "{n} ids: {steps:?}"
        );
    }
}

/// Fills `table` with 40,000 settled rows and a burst of `burst` rows (`rows(from, state)`
/// is an INSERT of 2,000 from `from`), analyzes it during the burst, then settles the burst:
/// the statistics say a burst waits when none does.
async fn analyzed_during_a_burst(
    app: &TestApp,
    table: &str,
    rows: impl Fn(i64, &str) -> String,
    settled: &str,
    burst: &str,
    burst_rows: i64,
) {
    let db = &app.ctx().db;
    let batches = (0..40_000).step_by(2_000).map(|i| (i, settled)).chain(
        (40_000..40_000 + burst_rows)
            .step_by(2_000)
            .map(|i| (i, burst)),
    );
    for (from, state) in batches {
        db.conn
            .execute_raw(db.stmt(&rows(from, state), []))
            .await
            .unwrap();
    }
    for sql in [
        format!("ANALYZE {table}"),
        format!("UPDATE {table} SET state = '{settled}' WHERE state = '{burst}'"),
    ] {
        db.conn.execute_raw(db.stmt(&sql, [])).await.unwrap();
    }
}

/// PostgreSQL's plan for `sql`, its lines joined.
async fn plan_of(app: &TestApp, sql: &str, values: Vec<signet_storage::sea_orm::Value>) -> String {
    let db = &app.ctx().db;
    db.conn
        .query_all_raw(db.stmt(&format!("EXPLAIN {sql}"), values))
        .await
        .unwrap()
        .iter()
        .map(|r| r.try_get::<String>("", "QUERY PLAN").unwrap())
        .collect::<Vec<_>>()
        .join("\n")
}

/// The worker asks twenty times a second whether an event waits. After an autoanalyze that
/// sampled a burst of queued events, PostgreSQL planned that question as a sequential scan
/// of the whole outbox (every finished job) once the burst was gone; the question must keep
/// to the queue's index whatever the statistics say.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_fan_out_probe_keeps_to_the_index_after_an_analyze_of_a_burst() {
    let Some(app) = TestApp::start_without_workers(Kind::PostgresRedis).await else {
        return;
    };
    let rows = |from: i64, state: &str| {
        let values: Vec<String> = (from..from + 2_000)
            .map(|j| {
                format!(
                    "('job_b{j}', 'event', 'wsp_x', NULL, true, '{{}}', '{state}', 1, {j}, {j})"
                )
            })
            .collect();
        format!(
            "INSERT INTO outbox (id, kind, workspace_id, document_id, test, payload, state, attempts, run_at, created_at) VALUES {}",
            values.join(", ")
        )
    };
    analyzed_during_a_burst(&app, "outbox", rows, "done", "queued", 2_000).await;
    let event_probe =
        signet_queue::queued_probe(<signet_core::events::Event as signet_queue::Job>::KIND);
    let probe = plan_of(&app, &event_probe, vec![]).await;
    assert!(
        probe.contains("Index Scan using outbox_due") && !probe.contains("Seq Scan"),
        "{probe}"
    );
    // The same question without the order is what the planner got wrong, and the setup above
    // reproduces it on PostgreSQL 15 (Debian's). Another version may plan it well too: the
    // probe's own plan above is what is held, on every version.
    let unordered = event_probe.replace(" ORDER BY run_at", "");
    let control = plan_of(&app, &unordered, vec![]).await;
    if !control.contains("Seq Scan") {
        eprintln!(
            "this PostgreSQL plans the probe without its order by an index as well; the \
             planner's mistake the probe avoids is not reproduced here: {control}"
        );
    }
}

/// The same for the deliverer's question, asked as often: "is a delivery due?". After an
/// analyze taken during a backlog (a receiver down for an hour), it must still keep to an
/// index once the backlog is delivered, whatever the delivered messages kept for 30 days.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_delivery_probe_keeps_to_an_index_after_an_analyze_of_a_backlog() {
    let Some(app) = TestApp::start_without_workers(Kind::PostgresRedis).await else {
        return;
    };
    let (_, key) = app.owner().await;
    let made = app
        .post(
            "/api/v1/webhooks",
            &key,
            &[("idempotency-key", "probe-endpoint-1")],
            &json!({"eventTypes": ["documents.document.sent"], "relay": true}).to_string(),
        )
        .await;
    assert_eq!(made.status, 201, "{}", made.body);
    let endpoint = made.body["id"].as_str().unwrap().to_string();
    let now = signet_storage::now_ms();
    let rows = |from: i64, state: &str| {
        let values: Vec<String> = (from..from + 2_000)
            .map(|j| format!("('msg_b{j}', {j}, '{endpoint}', 'evt_{j}', 'documents.document.sent', '{{}}', '{state}', 1, {at}, false, {at}, NULL)", at = now - 3_600_000 + j))
            .collect();
        format!(
            "INSERT INTO webhook_messages (id, seq, endpoint_id, event_id, topic, payload, state, attempts, next_attempt_at, replay, created_at, finished_at) VALUES {}",
            values.join(", ")
        )
    };
    analyzed_during_a_burst(
        &app,
        "webhook_messages",
        rows,
        "delivered",
        "pending",
        6_000,
    )
    .await;
    let plan = plan_of(&app, signet_webhooks::deliver::DUE_PROBE, vec![now.into()]).await;
    assert!(
        plan.contains("webhook_messages_live") && !plan.contains("Seq Scan"),
        "{plan}"
    );
}

both!(
    creating_and_rotating_an_endpoint_store_their_answer_with_the_change,
    |app| {
        use signet_webhooks::{self as webhooks, types::*};
        let (_, key) = app.owner().await;
        let ctx = app.ctx();
        let db = ctx.db.clone();
        let actor = app.actor(&key).await;
        let input = || WebhookCreateIn {
            event_types: vec!["documents.document.sent".into()],
            url: None,
            relay: Some(true),
            name: None,
        };
        let listed = || async {
            let list = app.get("/api/v1/webhooks", Some(&key)).await;
            list.body["data"].as_array().unwrap().len()
        };

        // With another answer already under the key, no endpoint is made.
        let (_h, taken) = claim_on(&db, true).await;
        busy(webhooks::create(ctx, &actor, input(), Some(&taken)).await);
        assert_eq!(listed().await, 0, "no endpoint was made");
        // With a free key the endpoint is made and the answer, secret and all, is stored.
        let (_h, free) = claim_on(&db, false).await;
        let made = webhooks::create(ctx, &actor, input(), Some(&free))
            .await
            .unwrap();
        assert_eq!(listed().await, 1);
        let answer = replayed(ctx, &free, 201).await;
        assert_eq!(stored(&made), answer, "the stored answer is the one sent");
        assert!(answer["secret"].as_str().unwrap().starts_with("whsec_"));
        let raw = stored_raw(&db, &free).await.body;
        assert!(
            !raw.contains(answer["secret"].as_str().unwrap()),
            "the secret is stored sealed: {raw}"
        );
        let id = answer["id"].as_str().unwrap().to_string();
        let first_secret = answer["secret"].clone();

        let sealed = || async {
            let row = db
                .conn
                .query_one_raw(db.stmt(
                    "SELECT secret FROM webhook_endpoints WHERE id = $1",
                    [id.as_str().into()],
                ))
                .await
                .unwrap()
                .unwrap();
            row.try_get::<String>("", "secret").unwrap()
        };
        let before = sealed().await;
        let window = || WebhookRotateIn {
            window_hours: Some(1),
        };
        let (_h, taken) = claim_on(&db, true).await;
        busy(webhooks::rotate(ctx, &actor, &id, window(), Some(&taken)).await);
        assert_eq!(sealed().await, before, "the secret was not rotated");
        let (_h, free) = claim_on(&db, false).await;
        let made = webhooks::rotate(ctx, &actor, &id, window(), Some(&free))
            .await
            .unwrap();
        assert_ne!(sealed().await, before);
        let answer = replayed(ctx, &free, 200).await;
        assert_eq!(stored(&made), answer, "the stored answer is the one sent");
        assert!(answer["secret"].as_str().unwrap().starts_with("whsec_"));
        assert_ne!(answer["secret"], first_secret, "a new secret is told");
    }
);

both!(
    webhook_secrets_are_replayed_but_never_stored_in_the_clear,
    |app| {
        let (_, key) = app.owner().await;
        let first = idem();
        let headers = [("idempotency-key", first.as_str())];
        let body = json!({"eventTypes": ["documents.document.sent"], "relay": true}).to_string();
        let made = app.post("/api/v1/webhooks", &key, &headers, &body).await;
        assert_eq!(made.status, 201, "{}", made.body);
        let secret = made.body["secret"].as_str().unwrap().to_string();
        let id = made.body["id"].as_str().unwrap().to_string();
        let rotate = format!("/api/v1/webhooks/{id}/rotate");
        let idem2 = idem();
        let headers2 = [("idempotency-key", idem2.as_str())];
        let rotated = app.post(&rotate, &key, &headers2, "{}").await;
        assert_eq!(rotated.status, 200, "{}", rotated.body);
        let second = rotated.body["secret"].as_str().unwrap().to_string();
        assert_ne!(second, secret);

        // A retry with the same key is told the same secrets.
        let again = app.post("/api/v1/webhooks", &key, &headers, &body).await;
        assert_eq!(again.status, 201, "{}", again.body);
        assert_eq!(again.header("idempotent-replayed"), "true");
        assert_eq!(again.body, made.body);
        let again = app.post(&rotate, &key, &headers2, "{}").await;
        assert_eq!(again.header("idempotent-replayed"), "true");
        assert_eq!(again.body, rotated.body);

        // Neither is kept in the clear where answers are stored: the SQL table, or Redis.
        // Everything stored is searched for the secrets; the two answers must be among it.
        let db = &app.ctx().db;
        let mut stored: Vec<String> = Vec::new();
        let mut answers = 0;
        for row in db
            .conn
            .query_all_raw(db.stmt(
                "SELECT idem_key, body FROM idempotency WHERE body IS NOT NULL",
                [],
            ))
            .await
            .unwrap()
        {
            let key: String = row.try_get("", "idem_key").unwrap();
            let body: String = row.try_get("", "body").unwrap();
            if key == first || key == idem2 {
                assert!(body.starts_with("s1:"), "stored sealed: {body}");
                answers += 1;
            }
            stored.push(body);
        }
        if let Some(url) = &app.redis_url {
            use redis::AsyncCommands;
            let client = redis::Client::open(url.as_str()).unwrap();
            let mut conn = client.get_multiplexed_async_connection().await.unwrap();
            let keys: Vec<String> = conn.keys(format!("{}*", app.redis_prefix)).await.unwrap();
            for k in keys {
                let Ok(v) = conn.get::<_, String>(&k).await else {
                    continue;
                };
                if k.ends_with(&format!(":{first}")) || k.ends_with(&format!(":{idem2}")) {
                    assert!(v.contains(r#""body":"s1:"#), "stored sealed: {v}");
                    answers += 1;
                }
                stored.push(v);
            }
        }
        assert_eq!(answers, 2, "both answers are stored: {stored:?}");
        for s in &stored {
            assert!(
                !s.contains(&secret) && !s.contains(&second),
                "a secret in the clear: {s}"
            );
        }
    }
);
