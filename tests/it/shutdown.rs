//! Stopping without losing work. SIGTERM during a burst of sends: the process exits
//! successfully within `shutdown_timeout_secs`, every send it answered is committed and
//! sent, and no job is left leased. SIGTERM during webhook deliveries: those in flight end
//! and are recorded, and those cut short at the deadline are given back.

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use signet_core::Mode;
use signet_core::plans::Plan;
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
    let mut termed: Option<Instant> = None;
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
            termed = Some(Instant::now());
        }
    }
    let stopped = termed.expect("five sends were answered before the signal");
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
    // Within its 20 s to stop, and a little for the process to end.
    assert!(
        stopped.elapsed() < Duration::from_secs(22),
        "stopped {:?} after SIGTERM",
        stopped.elapsed()
    );
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

/// `signet worker` gets SIGTERM while webhook deliveries are in flight to a receiver that
/// takes `delay` seconds to answer, with `timeout` seconds to stop; six more documents are
/// sent after the signal. Answers the messages' states once it exited (successfully), what
/// the receiver answered 200, and the ids of the documents sent after the signal.
async fn stop_during_deliveries(
    delay: &str,
    timeout: &str,
) -> Option<(
    std::collections::BTreeMap<String, i64>,
    Vec<serde_json::Value>,
    Vec<String>,
)> {
    let rx = crate::webhooks::Receiver::start(&["--delay", delay])?;
    let app = TestApp::start_without_workers(Kind::PostgresRedis).await?;
    let ws = app.workspace(Plan::Pro).await;
    let key = app
        .key(
            &ws,
            Mode::Live,
            &[
                "documents:read",
                "documents:write",
                "webhooks:read",
                "webhooks:write",
            ],
        )
        .await;
    let hook = app
        .post(
            "/api/v1/webhooks",
            &key,
            &[],
            &serde_json::json!({"url": format!("{}/hooks", rx.url),
                "eventTypes": ["documents.document.sent"]})
            .to_string(),
        )
        .await;
    assert_eq!(hook.status, 201, "{}", hook.body);
    rx.knows(hook.body["secret"].as_str().unwrap());
    let send = || async {
        let d = crate::documents::create(&app, &key, serde_json::json!({"sendNow": true})).await;
        assert_eq!(d.status, 201, "{}", d.body);
        d.body["id"].as_str().unwrap().to_string()
    };
    for _ in 0..6 {
        send().await;
    }
    let mut child = Command::new(env!("CARGO_BIN_EXE_signet"))
        .arg("worker")
        .envs(app.env())
        .env("SIGNET_SHUTDOWN_TIMEOUT_SECS", timeout)
        .current_dir(app.dir.path())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("signet worker starts");
    let db = &app.ctx().db;
    let states = || async move {
        db.conn
            .query_all_raw(db.stmt(
                "SELECT state, COUNT(*) AS n FROM webhook_messages GROUP BY state",
                Vec::<signet_storage::sea_orm::Value>::new(),
            ))
            .await
            .unwrap()
            .iter()
            .map(|r| {
                (
                    r.try_get::<String>("", "state").unwrap(),
                    r.try_get::<i64>("", "n").unwrap(),
                )
            })
            .collect::<std::collections::BTreeMap<String, i64>>()
    };
    let started = Instant::now();
    while !states().await.contains_key("sending") {
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "no delivery was leased"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let term = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(term.success());
    // Sent after the signal: a stopping worker takes none of their deliveries.
    let mut later = Vec::new();
    for _ in 0..6 {
        later.push(send().await);
    }
    let stopped = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if stopped.elapsed() > Duration::from_secs(90) {
            let _ = child.kill();
            panic!("signet worker did not stop after SIGTERM");
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    assert!(status.success(), "{status:?}");
    let answered = rx
        .records()
        .into_iter()
        .filter(|r| r["answered"] == 200)
        .collect();
    Some((states().await, answered, later))
}

/// Deliveries that end within the deadline are let end and recorded: nothing is left
/// `sending`, what the receiver got is what is recorded, and nothing sent after the signal
/// was delivered.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_lets_webhook_deliveries_in_flight_end_and_records_them() {
    let Some((states, answered, later)) = stop_during_deliveries("2", "20").await else {
        return;
    };
    assert_eq!(
        states.get("sending"),
        None,
        "deliveries left leased: {states:?}"
    );
    let delivered = states.get("delivered").copied().unwrap_or(0);
    assert!(delivered >= 1, "{states:?}");
    assert_eq!(answered.len() as i64, delivered, "{answered:#?}");
    for r in &answered {
        let body = r["body"].as_str().unwrap();
        assert!(
            later.iter().all(|id| !body.contains(id.as_str())),
            "a delivery was taken after the signal: {body}"
        );
    }
}

/// Deliveries cut short by the deadline (the receiver takes 30 s, the worker has 2) are
/// given back, due again at once, rather than left leased until the lease runs out.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn deliveries_cut_short_at_the_deadline_are_given_back() {
    let Some((states, answered, _)) = stop_during_deliveries("30", "2").await else {
        return;
    };
    assert_eq!(
        states.get("sending"),
        None,
        "deliveries left leased: {states:?}"
    );
    assert_eq!(states.get("delivered"), None, "{states:?}");
    assert!(
        states.get("pending").copied().unwrap_or(0) >= 1,
        "{states:?}"
    );
    assert!(answered.is_empty());
}
