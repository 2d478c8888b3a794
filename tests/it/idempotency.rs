//! Idempotency-Key: required where the spec says, replayed for the same body, refused for
//! another body, 409 while running, and an action fired many times at once runs once. Bad
//! bodies get a 400 naming the field; a panic becomes an error body.

use crate::both;
use crate::probe;

fn tag() -> String {
    signet_core::ids::new_id("tag")
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
        .key(&ws, signet_core::Mode::Test, &["documents:write"])
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

both!(a_documents_answer_is_stored_with_the_document, |app| {
    let (_, key) = app.owner().await;
    let idem = format!("made-{}", tag());
    let headers = [("Idempotency-Key", idem.as_str())];
    let body = crate::documents::body(serde_json::json!({"sendNow": true}));
    let first = app.post("/api/v1/documents", &key, &headers, &body).await;
    assert_eq!(first.status, 201, "{}", first.body);
    assert_eq!(first.header("content-type"), "application/json");
    let again = app.post("/api/v1/documents", &key, &headers, &body).await;
    assert_eq!(again.status, 201);
    assert_eq!(again.header("idempotent-replayed"), "true");
    assert_eq!(again.body, first.body);

    // A draft, then its send under a key of its own: the send's answer is replayed too.
    let draft = app
        .post(
            "/api/v1/documents",
            &key,
            &[("Idempotency-Key", &format!("draft-{}", tag()))],
            &crate::documents::body(serde_json::json!({})),
        )
        .await;
    let id = draft.body["id"].as_str().unwrap();
    let send_key = format!("send-{}", tag());
    let path = format!("/api/v1/documents/{id}/send");
    let sent = app
        .post(&path, &key, &[("Idempotency-Key", &send_key)], "")
        .await;
    assert_eq!(sent.status, 201, "{}", sent.body);
    assert_eq!(sent.body["state"], "sent");
    let resent = app
        .post(&path, &key, &[("Idempotency-Key", &send_key)], "")
        .await;
    assert_eq!(
        resent.status, 201,
        "a replay, not 'only a draft can be sent'"
    );
    assert_eq!(resent.header("idempotent-replayed"), "true");
    assert_eq!(resent.body, sent.body);

    let list = app.get("/api/v1/documents", Some(&key)).await;
    assert_eq!(
        list.body["data"].as_array().unwrap().len(),
        2,
        "{}",
        list.body
    );
});

both!(
    a_claim_stores_only_with_its_transaction_and_never_over_another_answer,
    |app| {
        use signet_storage::StorageError;
        use signet_storage::state::{Begin, Idempotency, Stored};
        // The SQL store on either database: in-memory claims on SQLite, lock rows on PostgreSQL.
        let db = app.ctx().db.clone();
        let store = Idempotency::sql(db.clone());
        let (scope, key) = (format!("key_{}", tag()), format!("k-{}", tag()));
        let begin = |fp: &'static str| {
            let (store, scope, key) = (store.clone(), scope.clone(), key.clone());
            async move { store.begin(&scope, &key, fp, 60_000).await.unwrap() }
        };
        let answer = |body: &str| Stored {
            status: 201,
            body: body.to_string(),
        };
        let Begin::Proceed(hold) = begin("fp-1").await else {
            panic!("a new key proceeds")
        };
        assert!(matches!(begin("fp-1").await, Begin::InProgress));
        assert!(matches!(begin("fp-2").await, Begin::Mismatch));

        // An answer written in a transaction that rolls back is not kept.
        let claim = hold
            .claim()
            .expect("SQL answers can be stored in a transaction");
        let (c, d, a) = (claim.clone(), db.clone(), answer("rolled back"));
        let rolled: Result<(), StorageError> = db
            .transaction(move |t| async move {
                let stored = c.store_in(&*t, &d, &a).await?;
                Err(StorageError::Corrupt(format!(
                    "the action failed; stored={stored}"
                )))
            })
            .await;
        assert!(
            rolled.unwrap_err().to_string().contains("stored=true"),
            "the answer was written, then rolled back with its transaction"
        );
        hold.release().await.unwrap();
        let Begin::Proceed(hold) = begin("fp-1").await else {
            panic!("nothing was kept, so the key proceeds again")
        };

        // Another request's answer got in first (a claim that outlived its lock): the second
        // claim does not overwrite it, and its transaction can roll back.
        let other = hold.claim().unwrap();
        let (d, a) = (db.clone(), answer("first"));
        db.transaction(move |t| async move { other.store_in(&*t, &d, &a).await })
            .await
            .unwrap();
        let (c, d, a) = (hold.claim().unwrap(), db.clone(), answer("second"));
        let d2 = d.clone();
        let stored = db
            .transaction(move |t| async move { c.store_in(&*t, &d, &a).await })
            .await
            .unwrap();
        assert!(!stored, "a stored answer is never overwritten");
        drop(hold);
        match begin("fp-1").await {
            Begin::Replay(s) => assert_eq!(s, answer("first")),
            other => panic!("expected the first answer, got {other:?}"),
        }
        assert!(matches!(begin("fp-2").await, Begin::Mismatch));
        // Past its 24 hours a record no longer holds the key.
        d2.clock
            .advance(std::time::Duration::from_secs(24 * 3_600 + 60));
        assert!(matches!(begin("fp-2").await, Begin::Proceed(_)));
    }
);

both!(
    a_request_whose_client_went_away_still_finishes_and_is_replayed,
    |app| {
        let (_, key) = app.owner().await;
        let tag = tag();
        let idem = format!("gone-{tag}");
        let body = format!(r#"{{"tag":"{tag}","sleep_ms":600}}"#);
        // The client gives up long before the action ends.
        let impatient = reqwest::Client::builder()
            .timeout(std::time::Duration::from_millis(150))
            .build()
            .unwrap();
        let gone = impatient
            .post(format!("{}/api/v1/probe", app.base))
            .bearer_auth(&key)
            .header("content-type", "application/json")
            .header("idempotency-key", &idem)
            .body(body.clone())
            .send()
            .await;
        assert!(gone.is_err(), "the client timed out");
        // Its key is still held: a retry at once does not run the action a second time.
        let headers = [("Idempotency-Key", idem.as_str())];
        let at_once = app.post("/api/v1/probe", &key, &headers, &body).await;
        assert_eq!(at_once.status, 409, "{}", at_once.body);
        assert_eq!(at_once.body["error"]["retryable"], true);
        // The first request runs to its end; a retry once it has gets its answer.
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
        let later = loop {
            let a = app.post("/api/v1/probe", &key, &headers, &body).await;
            if a.status != 409 {
                break a;
            }
            assert!(
                std::time::Instant::now() < deadline,
                "still running after 30 s"
            );
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        };
        assert_eq!(later.status, 201, "{}", later.body);
        assert_eq!(later.header("idempotent-replayed"), "true");
        assert_eq!(later.body["run"], 1);
        assert_eq!(probe::runs(&tag), 1);
    }
);
