//! Stopping without losing work: SIGTERM during a burst of sends. The process stops taking
//! connections, finishes the requests in flight and the job pass under way, gives back what
//! it still holds, and exits within `shutdown_timeout_secs`. Every send it answered is
//! committed, and no job is left leased.

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use signet_resolvers::Mode;
use signet_resolvers::plans::Plan;
use signet_storage::sea_orm::ConnectionTrait;

use crate::harness::{Kind, TestApp};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_during_a_burst_keeps_every_answered_send_and_leaves_no_job_leased() {
    // Two processes on one database: PostgreSQL (the embedded default serves one).
    let Some(app) = TestApp::start_without_workers(Kind::PostgresRedis).await else {
        return;
    };
    let ws = app.workspace(Plan::Pro).await;
    let key = app
        .key(&ws, Mode::Test, &["documents:read", "documents:write"])
        .await;
    let port = crate::servers::free_port();
    let mut child = Command::new(env!("CARGO_BIN_EXE_signet"))
        .arg("serve")
        .envs(app.env())
        .env("SIGNET_LISTEN", format!("127.0.0.1:{port}"))
        .env("SIGNET_SHUTDOWN_TIMEOUT_SECS", "20")
        .current_dir(app.dir.path())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("signet serve starts");
    let started = Instant::now();
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "signet serve did not listen"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    let base = format!("http://127.0.0.1:{port}");
    let client = reqwest::Client::new();
    let mut sends = tokio::task::JoinSet::new();
    for i in 0..60 {
        let (client, base, key) = (client.clone(), base.clone(), key.clone());
        sends.spawn(async move {
            let res = client
                .post(format!("{base}/api/v1/documents"))
                .bearer_auth(&key)
                .header("idempotency-key", format!("burst-send-{i}"))
                .header("content-type", "application/json")
                .body(crate::documents::body(serde_json::json!({"sendNow": true})))
                .send()
                .await;
            match res {
                Ok(r) if r.status() == 201 => {
                    let v: serde_json::Value = r.json().await.unwrap();
                    Some(v["id"].as_str().unwrap().to_string())
                }
                Ok(r) => panic!(
                    "a send answered {}: {}",
                    r.status(),
                    r.text().await.unwrap()
                ),
                // Refused once the process stops listening: the caller was told nothing was
                // done, and retries with the same key.
                Err(_) => None,
            }
        });
    }
    // Stop in the middle of the burst, once some sends are answered.
    let mut answered = Vec::new();
    while let Some(r) = sends.join_next().await {
        if let Some(id) = r.unwrap() {
            answered.push(id);
        }
        if answered.len() == 5 {
            let term = Command::new("kill")
                .args(["-TERM", &child.id().to_string()])
                .status()
                .unwrap();
            assert!(term.success());
        }
    }
    let stopped = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if stopped.elapsed() > Duration::from_secs(60) {
            let _ = child.kill();
            panic!("signet serve did not stop after SIGTERM");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(status.success(), "{status:?}");
    assert!(answered.len() >= 5, "{}", answered.len());
    // Every answered send is there, sent.
    for id in &answered {
        let d = app
            .get(&format!("/api/v1/documents/{id}"), Some(&key))
            .await;
        assert_eq!(d.status, 200, "{id}: {}", d.body);
        assert_eq!(d.body["state"], "sent", "{}", d.body);
    }
    // No job is left leased to the stopped process.
    let leased = app
        .ctx()
        .db
        .conn
        .query_one_raw(app.ctx().db.stmt(
            "SELECT COUNT(*) AS n FROM outbox WHERE state = 'running'",
            [],
        ))
        .await
        .unwrap()
        .unwrap()
        .try_get::<i64>("", "n")
        .unwrap();
    assert_eq!(leased, 0, "jobs left leased");
}
