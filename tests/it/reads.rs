//! The first routes, their answers and the headers every response carries.

use crate::both;
use crate::harness::Answer;
use signet_resolvers::Mode;
use signet_resolvers::plans::Plan;

fn assert_common_headers(a: &Answer) {
    assert!(
        a.header("request-id").starts_with("req_"),
        "Request-Id: {:?}",
        a.headers
    );
    assert_eq!(a.header("service-version"), "2026-10-07");
    for h in ["ratelimit-limit", "ratelimit-remaining", "ratelimit-reset"] {
        assert!(
            a.header(h).parse::<u64>().is_ok(),
            "{h} missing or not a number: {:?}",
            a.headers
        );
    }
}

both!(usage_reports_plan_allowances, |app| {
    let (_, key) = app.owner().await;
    let a = app.get("/api/v1/usage", Some(&key)).await;
    assert_eq!(a.status, 200, "{}", a.body);
    assert_common_headers(&a);
    assert_eq!(a.body["plan"], "free");
    assert_eq!(a.body["documents"]["used"], 0);
    assert_eq!(a.body["documents"]["limit"], 100);
    assert_eq!(a.body["emails"]["limit"], 500);
    assert!(
        a.body["documents"]["resetsAt"]
            .as_str()
            .unwrap()
            .ends_with("-01T00:00:00Z")
    );

    let pro = app.workspace(Plan::Pro).await;
    let key = app.key(&pro, Mode::Live, &["account:read"]).await;
    let a = app.get("/api/v1/usage", Some(&key)).await;
    assert_eq!(a.body["plan"], "pro");
    assert!(
        a.body["documents"]["limit"].is_null(),
        "pro has no monthly document limit"
    );
});

both!(
    usage_counts_live_sends_and_emails_of_the_current_periods,
    |app| {
        use signet_resolvers::usage::{DOCUMENTS_SENT, EMAILS_SENT, add};
        let (ws, key) = app.owner().await;
        let (other, _) = app.owner().await;
        let db = &app.ctx().db;
        // Spread over shards of the counter, and twice into one: the sum is what is used.
        add(&db.conn, db, &ws, DOCUMENTS_SENT, 3, 0).await.unwrap();
        add(&db.conn, db, &ws, DOCUMENTS_SENT, 1, 7).await.unwrap();
        add(&db.conn, db, &ws, DOCUMENTS_SENT, 2, 7).await.unwrap();
        add(&db.conn, db, &ws, EMAILS_SENT, 7, 3).await.unwrap();
        add(&db.conn, db, &other, DOCUMENTS_SENT, 50, 0)
            .await
            .unwrap();
        let a = app.get("/api/v1/usage", Some(&key)).await;
        assert_eq!(a.body["documents"]["used"], 6, "{}", a.body);
        assert_eq!(a.body["emails"]["used"], 7);
        // The same counters through GraphQL.
        let q = serde_json::json!({"query": "{ usage { documents { used } emails { used } } }"});
        let g = app.post("/graphql", &key, &[], &q.to_string()).await;
        assert_eq!(g.body["data"]["usage"]["documents"]["used"], 6);
        assert_eq!(g.body["data"]["usage"]["emails"]["used"], 7);
    }
);

both!(teams_payments_and_topics, |app| {
    let (ws, key) = app.owner().await;
    let a = app.get("/api/v1/teams", Some(&key)).await;
    assert_eq!(a.status, 200);
    assert_eq!(a.body["teams"], serde_json::json!([]));

    let team = signet_resolvers::teams::create(app.ctx(), &ws, "Sales")
        .await
        .unwrap();
    signet_resolvers::teams::add_member(app.ctx(), &team.id, "Ann@Example.com", "Ann", "admin")
        .await
        .unwrap();
    let a = app.get("/api/v1/teams", Some(&key)).await;
    assert_eq!(a.body["teams"][0]["name"], "Sales");
    assert_eq!(a.body["teams"][0]["members"][0]["email"], "ann@example.com");

    let a = app.get("/api/v1/payments/status", Some(&key)).await;
    assert_eq!(a.status, 200);
    assert_eq!(a.body["status"], "not_connected");
    assert_eq!(a.body["feePercent"], 2);
    assert_common_headers(&a);

    let a = app.get("/api/v1/webhooks/topics", Some(&key)).await;
    let names: Vec<&str> = a.body["topics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(names.len(), 7);
    assert!(names.contains(&"documents.document.executed"));
});

both!(
    unknown_routes_and_methods_answer_in_the_error_shape,
    |app| {
        let (_, key) = app.owner().await;
        let a = app.get("/api/v1/nothing-here", Some(&key)).await;
        assert_eq!(a.status, 404);
        assert_eq!(a.body["error"]["kind"], "not_found");
        assert_eq!(a.body["error"]["requestId"], a.header("request-id"));
        assert_common_headers(&a);

        let a = app.post("/api/v1/usage", &key, &[], "{}").await;
        assert_eq!(a.status, 405);
        assert_eq!(a.body["error"]["kind"], "invalid");
        assert_common_headers(&a);
    }
);

both!(api_log_records_every_request_and_the_cli_finds_it, |app| {
    let (ws, key) = app.owner().await;
    let ok = app.get("/api/v1/usage", Some(&key)).await;
    let bad = app.get("/api/v1/usage", Some("svc_test_wrong")).await;
    let mut found = None;
    for _ in 0..50 {
        if let Ok(e) = signet_resolvers::api_log::find(app.ctx(), bad.header("request-id")).await {
            found = Some(e);
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    let bad_entry = found.expect("the failed request is in the API log");
    assert_eq!(bad_entry.status, 401);
    assert_eq!(bad_entry.error_kind.as_deref(), Some("unauthenticated"));
    assert_eq!(bad_entry.route, "v1.usage.get");

    let (code, out, err) = app.cli(&[
        "admin",
        "api-log",
        "--request-id",
        ok.header("request-id"),
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let entry: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(entry["status"], 200);
    assert_eq!(entry["method"], "GET");
    assert_eq!(entry["route"], "v1.usage.get");
    assert_eq!(entry["workspaceId"], ws.as_str());
    assert!(entry["keyId"].as_str().unwrap().starts_with("key_"));
});
