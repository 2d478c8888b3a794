//! Several machines: two `signet serve --role api` processes and two `signet worker`
//! processes, each with an empty data folder of its own, sharing PostgreSQL, Redis and the
//! bucket. Documents are made on one API process and read, signed and downloaded on the
//! other; one API process and one worker are killed with SIGKILL mid-run. Every document
//! still reaches `executed`, sealed under the one authority the database holds, and every
//! invitation, webhook event and seal happens at least once.

use std::collections::BTreeSet;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use signet_core::Mode;
use signet_core::plans::Plan;

use crate::harness::{Kind, TestApp};
use crate::sink::{Received, Sink, SinkOptions};
use crate::webhooks::Receiver;

/// A `signet` process of its own machine, killed with SIGKILL when dropped.
struct Node {
    _child: crate::harness::Process,
    dir: tempfile::TempDir,
    base: Option<String>,
}

impl Node {
    fn start(app: &TestApp, sink: &Sink, args: &[&str]) -> Node {
        let dir = tempfile::tempdir().unwrap();
        let port = args.contains(&"serve").then(crate::servers::free_port);
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_signet"));
        cmd.args(args)
            .envs(app.env())
            // A machine of its own: nothing on its disk but what it makes.
            .env("SIGNET_DATA_DIR", dir.path())
            .env("SIGNET_SMTP_URL", format!("smtp://127.0.0.1:{}", sink.port))
            .env("SIGNET_MAIL_FROM", "Signet <sign@example.org>")
            .env("SIGNET_SCHEDULER_INTERVAL_SECS", "1")
            .current_dir(dir.path())
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        if let Some(port) = port {
            cmd.env("SIGNET_LISTEN", format!("127.0.0.1:{port}"));
        }
        let child = crate::harness::Process(cmd.spawn().expect("signet starts"));
        let base = port.map(|port| {
            crate::harness::listening(port, &format!("signet {args:?}"), 60);
            format!("http://127.0.0.1:{port}")
        });
        Node {
            _child: child,
            dir,
            base,
        }
    }

    fn base(&self) -> &str {
        self.base.as_deref().unwrap()
    }
}

async fn post(
    base: &str,
    key: &str,
    path: &str,
    idem: &str,
    body: &str,
) -> reqwest::Result<(u16, Value)> {
    let res = reqwest::Client::new()
        .post(format!("{base}{path}"))
        .bearer_auth(key)
        .header("idempotency-key", idem)
        .header("content-type", "application/json")
        .body(body.to_string())
        .send()
        .await?;
    let status = res.status().as_u16();
    Ok((status, res.json().await.unwrap_or(Value::Null)))
}

async fn get(base: &str, key: &str, path: &str) -> (u16, Vec<u8>) {
    let res = reqwest::Client::new()
        .get(format!("{base}{path}"))
        .bearer_auth(key)
        .send()
        .await
        .unwrap();
    let status = res.status().as_u16();
    (status, res.bytes().await.unwrap().to_vec())
}

async fn state(base: &str, key: &str, id: &str) -> String {
    let (status, body) = get(base, key, &format!("/api/v1/documents/{id}")).await;
    assert_eq!(status, 200, "{}", String::from_utf8_lossy(&body));
    let doc: Value = serde_json::from_slice(&body).unwrap();
    doc["state"].as_str().unwrap().to_string()
}

/// Sends document `i` (its people numbered `i`) through `base`, with an idempotency key of
/// its own: the same `i` is the same request.
async fn send(base: &str, key: &str, i: usize) -> reqwest::Result<(u16, Value)> {
    let body = crate::documents::body(people(i));
    post(
        base,
        key,
        "/api/v1/documents",
        &format!("scale-out-{i}"),
        &body,
    )
    .await
}

fn people(i: usize) -> Value {
    json!({"sendNow": true, "people": [
        {"name": "Ada Client", "email": format!("ada{i}@example.com"), "role": "client", "order": 1},
        {"name": "Bob Provider", "email": format!("bob{i}@example.com"), "role": "provider", "order": 2}
    ]})
}

/// The signing link's token in the newest invitation to `to`.
async fn link(sink: &Sink, to: &str) -> String {
    let got = sink
        .wait_for(
            &format!("an invitation to {to}"),
            180,
            |r: &[Received]| r.iter().any(|m| m.to() == to && m.text().contains("/s/")),
        )
        .await;
    let text = got
        .iter()
        .rev()
        .find(|m| m.to() == to && m.text().contains("/s/"))
        .unwrap()
        .text();
    let at = text.find("/s/").unwrap();
    text[at + 3..]
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
        .collect()
}

/// `to` opens the page on `base`, consents and signs.
async fn sign(base: &str, sink: &Sink, to: &str) {
    let token = link(sink, to).await;
    crate::harness::sign_as(base, &token, "Mozilla/5.0 (scale-out test)").await;
}

/// Waits until every document in `ids` is `executed`, as `base` tells it.
async fn executed(base: &str, key: &str, ids: &[String]) {
    let deadline = Instant::now() + Duration::from_secs(240);
    for id in ids {
        loop {
            let s = state(base, key, id).await;
            if s == "executed" {
                break;
            }
            assert!(Instant::now() < deadline, "{id} stayed {s}");
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    }
}

fn nothing_local(node: &Node) {
    for part in ["blobs", "ca", "mail", "secret.key"] {
        assert!(
            !node.dir.path().join(part).exists(),
            "a node kept {part} on its own disk"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_api_processes_and_two_workers_lose_nothing_when_one_of_each_is_killed() {
    signet::crypto();
    // Each message takes a moment to be accepted, so a worker is mid-batch when it dies.
    let Some(sink) = Sink::start(SinkOptions {
        delay_ms: 200,
        ..Default::default()
    }) else {
        return;
    };
    let Some(rx) = Receiver::start(&[]) else {
        return;
    };
    let Some(app) = TestApp::start_without_workers(Kind::PostgresRedis).await else {
        return;
    };
    let ws = app.workspace(Plan::Pro).await;
    let scopes: Vec<&str> = signet_core::Scope::ALL.iter().map(|s| s.as_str()).collect();
    let key = app.key(&ws, Mode::Live, &scopes).await;

    let api1 = Node::start(&app, &sink, &["serve", "--role", "api"]);
    let api2 = Node::start(&app, &sink, &["serve", "--role", "api"]);
    let w1 = Node::start(&app, &sink, &["worker"]);
    let w2 = Node::start(&app, &sink, &["worker"]);
    let (one, two) = (api1.base().to_string(), api2.base().to_string());

    let hook = json!({"url": format!("{}/hooks", rx.url), "eventTypes":
        ["documents.document.sent", "documents.document.signed", "documents.document.executed"]});
    let (status, ep) = post(
        &one,
        &key,
        "/api/v1/webhooks",
        "scale-out-hook",
        &hook.to_string(),
    )
    .await
    .unwrap();
    assert_eq!(status, 201, "{ep}");
    rx.knows(ep["secret"].as_str().unwrap());

    // Before the kill: four documents, made on one process and read on the other; the first
    // two signed on the other and executed, their sealed copies the same from both.
    let mut ids = Vec::new();
    for i in 0..4 {
        let (made_on, other) = if i % 2 == 0 {
            (&one, &two)
        } else {
            (&two, &one)
        };
        let (status, d) = send(made_on, &key, i).await.unwrap();
        assert_eq!(status, 201, "{d}");
        let id = d["id"].as_str().unwrap().to_string();
        assert_eq!(state(other, &key, &id).await, "sent");
        ids.push(id);
    }
    for i in 0..2 {
        let other = if i % 2 == 0 { &two } else { &one };
        sign(other, &sink, &format!("ada{i}@example.com")).await;
        sign(other, &sink, &format!("bob{i}@example.com")).await;
    }
    executed(&one, &key, &ids[..2]).await;
    for id in &ids[..2] {
        let path = format!("/api/v1/documents/{id}/signed.pdf");
        let (s1, a) = get(&one, &key, &path).await;
        let (s2, b) = get(&two, &key, &path).await;
        assert_eq!((s1, s2), (200, 200));
        assert!(a.starts_with(b"%PDF") && a == b);
    }

    // The kill, while the other two documents' invitations and renders are under way and
    // more are being made: SIGKILL, no chance to give anything back.
    let more: Vec<_> = (4..8)
        .map(|i| {
            let (one, key) = (one.clone(), key.clone());
            tokio::spawn(async move { (i, send(&one, &key, i).await) })
        })
        .collect();
    drop(api1);
    drop(w1);
    // What the clients saw: an answer, or a broken connection they retry on the other
    // process with the same idempotency key. A document answered 201 is never made twice.
    for task in more {
        let (i, first) = task.await.unwrap();
        let first_id = match first {
            Ok((201, d)) => Some(d["id"].as_str().unwrap().to_string()),
            Ok((status, d)) => panic!("a send answered {status}: {d}"),
            Err(_) => None,
        };
        // The first try may hold the idempotency key still (it died mid-request): the
        // survivor answers 409 and Retry-After until the hold runs out, as the spec says.
        let deadline = Instant::now() + Duration::from_secs(120);
        let (status, d) = loop {
            let (status, d) = send(&two, &key, i).await.unwrap();
            if status != 409 || Instant::now() > deadline {
                break (status, d);
            }
            tokio::time::sleep(Duration::from_millis(500)).await;
        };
        assert_eq!(status, 201, "{d}");
        let id = d["id"].as_str().unwrap().to_string();
        if let Some(first) = first_id {
            assert_eq!(first, id, "the retry made a second document");
        }
        ids.push(id);
    }
    assert_eq!(ids.iter().collect::<BTreeSet<_>>().len(), 8);
    // And none was made twice: the workspace holds exactly these eight.
    let (status, list) = get(&two, &key, "/api/v1/documents?limit=100").await;
    assert_eq!(status, 200);
    let list: Value = serde_json::from_slice(&list).unwrap();
    assert_eq!(list["data"].as_array().unwrap().len(), 8, "{list}");

    // Everything else through the survivors.
    for i in 2..8 {
        sign(&two, &sink, &format!("ada{i}@example.com")).await;
        sign(&two, &sink, &format!("bob{i}@example.com")).await;
    }
    executed(&two, &key, &ids).await;

    // Every seal happened, under the one authority the database holds, which `signet admin
    // ca export` reads from there.
    let (code, root, err) = app.cli(&["admin", "ca", "export"]);
    assert_eq!(code, 0, "{err}");
    let files = tempfile::tempdir().unwrap();
    let root_file = files.path().join("root.pem");
    std::fs::write(&root_file, &root).unwrap();
    let pyhanko = crate::sealing::tool("pyhanko");
    for id in &ids {
        let (status, pdf) = get(&two, &key, &format!("/api/v1/documents/{id}/signed.pdf")).await;
        assert_eq!(status, 200, "{id}");
        if let Some(pyhanko) = &pyhanko {
            let file = files.path().join(format!("{id}.pdf"));
            std::fs::write(&file, &pdf).unwrap();
            let out = crate::sealing::validate(pyhanko, &root_file, &file);
            assert!(
                out.contains("The signature is judged VALID."),
                "{id}: {out}"
            );
        }
    }

    // Every invitation went out at least once.
    let mail = sink.received();
    for i in 0..8 {
        for who in ["ada", "bob"] {
            let to = format!("{who}{i}@example.com");
            assert!(
                mail.iter()
                    .any(|m| m.to() == to && m.text().contains("/s/")),
                "no invitation to {to}"
            );
        }
    }
    // Every event was delivered at least once, signed as the receiver expects.
    let wanted: BTreeSet<(String, String)> = ids
        .iter()
        .flat_map(|id| {
            [
                "documents.document.sent",
                "documents.document.signed",
                "documents.document.executed",
            ]
            .map(|t| (t.to_string(), id.clone()))
        })
        .collect();
    let seen = |records: &[Value]| -> BTreeSet<(String, String)> {
        records
            .iter()
            .filter(|r| r["answered"] == 200)
            .filter_map(|r| {
                let body: Value = serde_json::from_str(r["body"].as_str()?).ok()?;
                let kind = body["type"].as_str()?.to_string();
                let id = ids
                    .iter()
                    .find(|id| r["body"].as_str().unwrap().contains(id.as_str()))?;
                Some((kind, id.clone()))
            })
            .collect()
    };
    rx.wait_for("every event", 180, |r| wanted.is_subset(&seen(r)))
        .await;

    // No job failed or is stuck; the killed worker's leases ran out and were taken over.
    use signet_storage::sea_orm::ConnectionTrait as _;
    let db = &app.ctx().db;
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        let open = db
            .conn
            .query_all_raw(db.stmt(
                "SELECT kind, state FROM outbox WHERE state <> 'done'",
                Vec::<signet_storage::sea_orm::Value>::new(),
            ))
            .await
            .unwrap();
        let open: Vec<(String, String)> = open
            .iter()
            .map(|r| {
                (
                    r.try_get("", "kind").unwrap(),
                    r.try_get("", "state").unwrap(),
                )
            })
            .collect();
        assert!(open.iter().all(|(_, s)| s != "failed"), "{open:?}");
        if open.is_empty() {
            break;
        }
        assert!(Instant::now() < deadline, "jobs left: {open:?}");
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    for node in [&api2, &w2] {
        nothing_local(node);
    }
}

/// `signet` with `env` (and nothing of the caller's SIGNET_ settings); (exit code, stdout,
/// stderr).
fn signet(args: &[&str], env: &[(&str, String)]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_signet"))
        .args(args)
        .envs(env.iter().map(|(k, v)| (*k, v.as_str())))
        .stdin(Stdio::null())
        .output()
        .expect("signet runs");
    crate::harness::outcome(out)
}

/// With PostgreSQL the authority lives in the database, encrypted under `secret_key`: the
/// first process stores the one already in `ca_dir` (an installation from before) or a new
/// one, every later process uses it without any folder, a process with another secret is
/// refused, and a database whose documents were sealed under an authority it does not hold
/// says how to bring it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_authority_is_kept_in_the_database_for_every_process() {
    let Some(ext) = crate::servers::external() else {
        return;
    };
    let database = ext.fresh_database().await;
    let db = signet_storage::Db::connect(&database).await.unwrap();
    db.migrate().await.unwrap();
    let first = tempfile::tempdir().unwrap();
    let ca = first.path().join("old-ca");
    let old = signet_seal::Authority::load_or_create(&ca, &Default::default()).unwrap();
    let env = |dir: &Path, secret: &str| {
        vec![
            ("DATABASE_URL", database.clone()),
            ("SIGNET_DATA_DIR", dir.display().to_string()),
            ("SIGNET_SECRET_KEY", secret.to_string()),
        ]
    };
    let secret = crate::harness::SECRET;
    // The first process brings the folder it has.
    let mut with_folder = env(first.path(), secret);
    with_folder.push(("SIGNET_CA_DIR", ca.display().to_string()));
    let (code, root, err) = signet(&["admin", "ca", "export"], &with_folder);
    assert_eq!(code, 0, "{err}");
    assert_eq!(root, old.root_pem());
    // Another machine, with no folder at all, seals under the same root.
    let second = tempfile::tempdir().unwrap();
    let (code, again, err) = signet(&["admin", "ca", "export"], &env(second.path(), secret));
    assert_eq!(code, 0, "{err}");
    assert_eq!(again, old.root_pem());
    let (code, test_root, _) = signet(
        &["admin", "ca", "export", "--test"],
        &env(second.path(), secret),
    );
    assert_eq!(code, 0);
    assert_eq!(test_root, old.test_root_pem());
    assert!(
        std::fs::read_dir(second.path()).unwrap().next().is_none(),
        "nothing written locally"
    );
    // Stored encrypted: no private key in the clear.
    use signet_storage::sea_orm::ConnectionTrait as _;
    let stored: String = db
        .conn
        .query_one_raw(db.stmt(
            "SELECT value FROM installation WHERE name = 'ca_authority'",
            Vec::<signet_storage::sea_orm::Value>::new(),
        ))
        .await
        .unwrap()
        .unwrap()
        .try_get("", "value")
        .unwrap();
    assert!(stored.starts_with("v1:") && !stored.contains("PRIVATE KEY"));
    // Another secret cannot open it, and says so.
    let (code, _, err) = signet(
        &["admin", "ca", "export"],
        &env(second.path(), "another-secret-another-secret-another-0"),
    );
    assert_ne!(code, 0);
    assert!(
        err.contains("secret_key") && err.contains("cannot be opened"),
        "{err}"
    );

    // A database whose documents were sealed under a root it does not hold: the process
    // refuses, rather than sealing under a new one, and a wrong folder is not stored.
    let lost = ext.fresh_database().await;
    let lost_db = signet_storage::Db::connect(&lost).await.unwrap();
    lost_db.migrate().await.unwrap();
    signet_core::installation::agree(&lost_db, "ca_root_sha256", &"ab".repeat(32))
        .await
        .unwrap();
    let third = tempfile::tempdir().unwrap();
    let mut lost_env = env(third.path(), secret);
    lost_env[0].1 = lost.clone();
    let (code, _, err) = signet(&["admin", "ca", "export"], &lost_env);
    assert_ne!(code, 0);
    assert!(err.contains("not stored in the database yet"), "{err}");
    lost_env.push(("SIGNET_CA_DIR", ca.display().to_string()));
    let (code, _, err) = signet(&["admin", "ca", "export"], &lost_env);
    assert_ne!(code, 0);
    assert!(err.contains("is not the one"), "{err}");
    assert_eq!(
        signet_core::installation::recorded(&lost_db, "ca_authority")
            .await
            .unwrap(),
        None
    );
}
