//! Idempotency-Key: required where the spec says, replayed for the same body, refused for
//! another body, 409 while running, and an action fired many times at once runs once. Bad
//! bodies get a 400 naming the field; a panic becomes an error body.

use crate::both;
use crate::probe;

fn tag() -> String {
    signet_resolvers::ids::new_id("tag")
}

both!(same_request_many_times_at_once_runs_once, |app| {
    let (_, key) = app.owner().await;
    let tag = tag();
    let body = format!(r#"{{"tag":"{tag}","sleep_ms":300}}"#);
    let idem = format!("idem-{tag}");
    let headers = [("Idempotency-Key", idem.as_str())];
    let calls = (0..16).map(|_| app.post("/api/v1/probe", &key, &headers, &body));
    let answers = futures_util::future::join_all(calls).await;
    assert_eq!(probe::runs(&tag), 1, "the action ran once");
    let created: Vec<_> = answers.iter().filter(|a| a.status == 201).collect();
    let running: Vec<_> = answers.iter().filter(|a| a.status == 409).collect();
    assert_eq!(
        created.len() + running.len(),
        16,
        "only 201 or 409: {:?}",
        answers.iter().map(|a| a.status).collect::<Vec<_>>()
    );
    assert!(!created.is_empty());
    for a in &running {
        assert_eq!(a.body["error"]["kind"], "conflict");
        assert_eq!(a.body["error"]["retryable"], true);
    }
    // Once finished, every retry replays the first answer.
    let again = app
        .post("/api/v1/probe", &key, &[("Idempotency-Key", &idem)], &body)
        .await;
    assert_eq!(again.status, 201);
    assert_eq!(again.header("idempotent-replayed"), "true");
    assert_eq!(again.body, created[0].body);
    assert_eq!(probe::runs(&tag), 1);
});

both!(key_rules, |app| {
    let (ws, key) = app.owner().await;
    let tag = tag();
    let body = format!(r#"{{"tag":"{tag}"}}"#);

    let missing = app.post("/api/v1/probe", &key, &[], &body).await;
    assert_eq!(missing.status, 400);
    assert!(
        missing.body["error"]["message"]
            .as_str()
            .unwrap()
            .starts_with("Idempotency-Key:"),
        "{}",
        missing.body
    );

    for bad in ["short", &"x".repeat(201)] {
        let a = app
            .post("/api/v1/probe", &key, &[("Idempotency-Key", bad)], &body)
            .await;
        assert_eq!(a.status, 400);
        assert!(
            a.body["error"]["message"]
                .as_str()
                .unwrap()
                .contains("8 to 200")
        );
    }
    let idem = format!("k-{tag}");
    let first = app
        .post("/api/v1/probe", &key, &[("Idempotency-Key", &idem)], &body)
        .await;
    assert_eq!(first.status, 201);
    assert!(first.headers.get("idempotent-replayed").is_none());

    let other = app
        .post(
            "/api/v1/probe",
            &key,
            &[("Idempotency-Key", &idem)],
            &format!(r#"{{"tag":"{tag}-2"}}"#),
        )
        .await;
    assert_eq!(other.status, 400);
    assert!(
        other.body["error"]["message"]
            .as_str()
            .unwrap()
            .starts_with("Idempotency-Key:")
    );

    // Keys are per API key: another key may use the same value for its own request.
    let second_key = app
        .key(&ws, signet_resolvers::Mode::Test, &["documents:write"])
        .await;
    let theirs = app
        .post(
            "/api/v1/probe",
            &second_key,
            &[("Idempotency-Key", &idem)],
            &body,
        )
        .await;
    assert_eq!(theirs.status, 201);
    assert!(theirs.headers.get("idempotent-replayed").is_none());
    assert_eq!(probe::runs(&tag), 2);
});

both!(bad_bodies_name_the_field, |app| {
    let (_, key) = app.owner().await;
    let idem = |n: u32| format!("body-rule-{n}-{}", tag());
    let cases: [(&str, &str, &str); 5] = [
        (r#"{"tag": 5}"#, "application/json", "tag: invalid type"),
        (
            r#"{"tag": "a", "tga": 1}"#,
            "application/json",
            "unknown field `tga`",
        ),
        (
            r#"{"tag": "a""#,
            "application/json",
            "body: is not valid JSON",
        ),
        (
            r#"{"tag": "a"}"#,
            "text/plain",
            "Content-Type: must be application/json",
        ),
        ("{}", "application/json", "missing field `tag`"),
    ];
    for (n, (body, ctype, want)) in cases.iter().enumerate() {
        let a = app
            .send(
                app.client
                    .post(format!("{}/api/v1/probe", app.base))
                    .bearer_auth(&key)
                    .header("content-type", *ctype)
                    .header("idempotency-key", idem(n as u32))
                    .body(body.to_string()),
            )
            .await;
        assert_eq!(a.status, 400, "{body}");
        assert_eq!(a.body["error"]["kind"], "invalid");
        let msg = a.body["error"]["message"].as_str().unwrap();
        assert!(msg.contains(want), "{body}: {msg}");
    }
    let big = format!(r#"{{"tag":"{}"}}"#, "x".repeat(2000));
    let a = app
        .post(
            "/api/v1/probe",
            &key,
            &[("Idempotency-Key", &idem(9))],
            &big,
        )
        .await;
    assert_eq!(a.status, 400);
    assert!(
        a.body["error"]["message"]
            .as_str()
            .unwrap()
            .starts_with("body: is larger than the limit")
    );
});

both!(a_panic_becomes_an_error_body_and_frees_the_key, |app| {
    let (_, key) = app.owner().await;
    let tag = tag();
    let idem = format!("panic-{tag}");
    let body = format!(r#"{{"tag":"{tag}","panic":true}}"#);
    let headers = [("Idempotency-Key", idem.as_str())];
    let a = app.post("/api/v1/probe", &key, &headers, &body).await;
    assert_eq!(a.status, 500);
    assert_eq!(a.body["error"]["kind"], "dependency");
    assert_eq!(a.body["error"]["retryable"], true);
    assert!(
        !a.body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("probe asked"),
        "no internal detail leaks"
    );
    assert_eq!(a.body["error"]["requestId"], a.header("request-id"));
    // A retryable failure is not stored: the same key may be used again.
    let b = app.post("/api/v1/probe", &key, &headers, &body).await;
    assert_eq!(b.status, 500);
    assert!(b.headers.get("idempotent-replayed").is_none());
    // The server is still up.
    assert_eq!(app.get("/api/v1/usage", Some(&key)).await.status, 200);
});
