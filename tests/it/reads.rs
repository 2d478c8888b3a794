//! The first routes, their answers and the headers every response carries.

use crate::both;
use crate::harness::Answer;
use signet_core::Mode;
use signet_core::plans::Plan;

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
        use signet_accounts::usage::{DOCUMENTS_SENT, EMAILS_SENT, add};
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

    let team = signet_accounts::teams::create(app.ctx(), &ws, "Sales")
        .await
        .unwrap();
    signet_accounts::teams::add_member(app.ctx(), &team.id, "Ann@Example.com", "Ann", "admin")
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
    assert_eq!(names.len(), 8);
    assert!(names.contains(&"documents.document.executed"));
    assert!(names.contains(&"documents.payment.updated"));
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
    app.ctx().api_log.flush().await;
    let bad_entry = signet_core::api_log::find(&app.ctx().db, bad.header("request-id"))
        .await
        .expect("the failed request is in the API log");
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

both!(
    reports_count_real_documents_by_day_in_the_workspace_time_zone,
    |app| {
        use chrono::Utc;
        use signet_storage::sea_orm::{ConnectionTrait, Value as Sql};

        use crate::documents::create;
        // UTC+14: the workspace's today is often not UTC's.
        let tz = "Pacific/Kiritimati";
        let ws = signet_accounts::workspaces::create(
            app.ctx(),
            signet_accounts::workspaces::WorkspaceIn {
                name: "Reports".into(),
                plan: Plan::Pro,
                time_zone: tz.into(),
            },
        )
        .await
        .unwrap()
        .id;
        let live = app
            .key(
                &ws,
                Mode::Live,
                &["documents:read", "documents:write", "reports:read"],
            )
            .await;
        let test = app
            .key(&ws, Mode::Test, &["documents:write", "reports:read"])
            .await;
        let (code, out, err) = app.cli(&[
            "admin",
            "team",
            "create",
            "--workspace",
            &ws,
            "--name",
            "Sales",
            "--json",
        ]);
        assert_eq!(code, 0, "{err}");
        let team = serde_json::from_str::<serde_json::Value>(&out).unwrap()["id"]
            .as_str()
            .unwrap()
            .to_string();
        let (code, _, err) = app.cli(&[
            "admin",
            "team",
            "add-member",
            "--team",
            &team,
            "--email",
            "ann@example.com",
            "--name",
            "Ann",
        ]);
        assert_eq!(code, 0, "{err}");

        // Two real sends (one by Ann), one real draft, one test send.
        let by_ann = create(
            &app,
            &live,
            serde_json::json!({"sendNow": true, "facts": {"sender.email": "Ann@Example.com"}}),
        )
        .await;
        assert_eq!(by_ann.status, 201, "{}", by_ann.body);
        let other = create(&app, &live, serde_json::json!({"sendNow": true})).await;
        assert_eq!(other.status, 201, "{}", other.body);
        assert_eq!(create(&app, &live, serde_json::json!({})).await.status, 201);
        assert_eq!(
            create(&app, &test, serde_json::json!({"sendNow": true}))
                .await
                .status,
            201
        );
        // Ann's document is sealed now (no signing page exists yet to sign a real one).
        let db = &app.ctx().db;
        db.conn
            .execute_raw(db.stmt(
                "UPDATE documents SET state = 'executed', completed_at = $2 WHERE id = $1",
                [
                    Sql::from(by_ann.body["id"].as_str().unwrap()),
                    Sql::from(Utc::now().timestamp_millis()),
                ],
            ))
            .await
            .unwrap();

        // The server's today in the zone: the day before the request or after it (they
        // differ only when midnight passes between).
        let day = || {
            Utc::now()
                .with_timezone(&tz.parse::<chrono_tz::Tz>().unwrap())
                .date_naive()
        };
        let before = day();
        let r = app.get("/api/v1/reports", Some(&live)).await;
        let after = day();
        assert_eq!(r.status, 200, "{}", r.body);
        assert_eq!(r.body["timeZone"], tz);
        let to = r.body["to"].as_str().unwrap();
        assert!(
            to == before.format("%Y-%m-%d").to_string()
                || to == after.format("%Y-%m-%d").to_string(),
            "{to}"
        );
        let days = r.body["days"].as_array().unwrap();
        assert_eq!(days.len(), 30);
        assert_eq!(r.body["from"], days[0]["date"]);
        assert_eq!(
            (&r.body["sent"], &r.body["completed"]),
            (&serde_json::json!(2), &serde_json::json!(1)),
            "{}",
            r.body
        );
        assert_eq!(
            days[29],
            serde_json::json!({"date": r.body["to"], "sent": 2, "completed": 1})
        );
        // A test key is told the same: test documents are never counted.
        let t = app.get("/api/v1/reports", Some(&test)).await;
        assert_eq!(t.body["sent"], 2, "{}", t.body);
        // By team: only documents Ann sent.
        let by_team = app
            .get(&format!("/api/v1/reports?team={team}"), Some(&live))
            .await;
        assert_eq!(
            (&by_team.body["sent"], &by_team.body["completed"]),
            (&serde_json::json!(1), &serde_json::json!(1)),
            "{}",
            by_team.body
        );
        assert_eq!(by_team.body["team"], team.as_str());
        // GraphQL answers from the same resolver.
        let q = serde_json::json!({"query": format!("{{ report(team: \"{team}\") {{ sent completed to }} }}")});
        let g = app.post("/graphql", &live, &[], &q.to_string()).await;
        assert_eq!(
            g.body["data"]["report"],
            serde_json::json!({"sent": 1, "completed": 1, "to": r.body["to"]}),
            "{}",
            g.body
        );

        // A window in the past has nothing; a day's window is one day.
        let past = app
            .get("/api/v1/reports?from=2020-01-01&to=2020-01-31", Some(&live))
            .await;
        assert_eq!(past.body["sent"], 0);
        assert_eq!(past.body["days"].as_array().unwrap().len(), 31);
        // Refusals, in the error shape.
        for (q, status, kind) in [
            ("from=2026-02-01&to=2026-01-01", 400, "invalid"),
            ("from=2020-01-01&to=2026-01-01", 400, "invalid"),
            ("from=yesterday", 400, "invalid"),
            ("colour=red", 400, "invalid"),
            ("team=team_nope", 404, "not_found"),
        ] {
            let a = app.get(&format!("/api/v1/reports?{q}"), Some(&live)).await;
            assert_eq!(a.status, status, "{q}: {}", a.body);
            assert_eq!(a.body["error"]["kind"], kind, "{q}");
        }
        let (other_ws, _) = app.owner().await;
        let (code, out, _) = app.cli(&[
            "admin",
            "team",
            "create",
            "--workspace",
            &other_ws,
            "--name",
            "Theirs",
            "--json",
        ]);
        assert_eq!(code, 0);
        let theirs = serde_json::from_str::<serde_json::Value>(&out).unwrap()["id"]
            .as_str()
            .unwrap()
            .to_string();
        let a = app
            .get(&format!("/api/v1/reports?team={theirs}"), Some(&live))
            .await;
        assert_eq!(a.status, 404, "another workspace's team is not found");
        // The window's edges, in the workspace's day (UTC+14, no clock changes): a document
        // sent at the first instant of `from`, and one sent before the window and completed
        // in the last millisecond of `to`.
        let local = |y, m, d| {
            use chrono::TimeZone;
            tz.parse::<chrono_tz::Tz>()
                .unwrap()
                .with_ymd_and_hms(y, m, d, 0, 0, 0)
                .unwrap()
                .timestamp_millis()
        };
        let set = async |id: &serde_json::Value, sql: &str, values: Vec<Sql>| {
            let mut v = vec![Sql::from(id.as_str().unwrap())];
            v.extend(values);
            db.conn.execute_raw(db.stmt(sql, v)).await.unwrap();
        };
        set(
            &other.body["id"],
            "UPDATE documents SET sent_at = $2 WHERE id = $1",
            vec![Sql::from(local(2025, 3, 10))],
        )
        .await;
        set(
            &by_ann.body["id"],
            "UPDATE documents SET sent_at = $2, completed_at = $3 WHERE id = $1",
            vec![
                Sql::from(local(2025, 3, 1)),
                Sql::from(local(2025, 3, 21) - 1),
            ],
        )
        .await;
        for (q, sent, completed) in [
            ("from=2025-03-10&to=2025-03-20", 1, 1),
            ("from=2025-03-11&to=2025-03-20", 0, 1),
            ("from=2025-03-10&to=2025-03-19", 1, 0),
            ("from=2025-03-01&to=2025-03-01", 1, 0),
        ] {
            let a = app.get(&format!("/api/v1/reports?{q}"), Some(&live)).await;
            assert_eq!(
                (a.body["sent"].as_i64(), a.body["completed"].as_i64()),
                (Some(sent), Some(completed)),
                "{q}: {}",
                a.body
            );
        }
        let edges = app
            .get("/api/v1/reports?from=2025-03-10&to=2025-03-20", Some(&live))
            .await;
        let days = edges.body["days"].as_array().unwrap();
        assert_eq!(
            days[0],
            serde_json::json!({"date": "2025-03-10", "sent": 1, "completed": 0})
        );
        assert_eq!(
            days[10],
            serde_json::json!({"date": "2025-03-20", "sent": 0, "completed": 1})
        );

        let narrow = app.key(&ws, Mode::Live, &["documents:read"]).await;
        assert_eq!(app.get("/api/v1/reports", Some(&narrow)).await.status, 401);
    }
);
