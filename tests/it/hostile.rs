//! A caller with one valid key, trying to crash, starve or fool Signet. Each test performs the
//! attack and shows it refused or harmless, and that the server keeps answering others.

use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use signet_accounts::keys::KeyCreateIn;
use signet_core::Mode;
use signet_core::actor::Scopes;
use signet_storage::sea_orm::{ConnectionTrait, Value as Sql};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio_tungstenite::tungstenite::Message;

use crate::documents;
use crate::graphql::connect;
use crate::harness::{Answer, Kind, Options, TestApp};
use crate::{both, both_quiet};

async fn gql(app: &TestApp, key: &str, query: &str) -> Answer {
    app.post("/graphql", key, &[], &json!({ "query": query }).to_string())
        .await
}

fn first_error(a: &Answer) -> (String, String) {
    let e = &a.body["errors"][0];
    (
        e["extensions"]["kind"].as_str().unwrap_or("").to_string(),
        e["message"].as_str().unwrap_or("").to_string(),
    )
}

async fn alive(app: &TestApp, key: &str) {
    let a = app.get("/api/v1/usage", Some(key)).await;
    assert_eq!(a.status, 200, "the server still answers: {}", a.body);
}

async fn remind(app: &TestApp, key: &str, id: &str, seat: Option<&str>) -> Answer {
    let body = match seat {
        Some(s) => json!({ "seat": s }),
        None => json!({}),
    };
    app.post(
        &format!("/api/v1/documents/{id}/remind"),
        key,
        &[],
        &body.to_string(),
    )
    .await
}

async fn relay_endpoint(app: &TestApp, key: &str) -> Answer {
    app.post(
        "/api/v1/webhooks",
        key,
        &[],
        &json!({"relay": true, "eventTypes": ["documents.document.sent"]}).to_string(),
    )
    .await
}

/// Sends only the headers of a POST declaring `length` bytes, and reads what comes back.
async fn declared_too_long(app: &TestApp, path: &str, key: &str, length: usize) -> String {
    let addr = app.base.trim_start_matches("http://");
    let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
    let head = format!(
        "POST {path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {key}\r\n\
         Content-Type: application/json\r\nContent-Length: {length}\r\n\r\n{{"
    );
    s.write_all(head.as_bytes()).await.unwrap();
    let mut out = Vec::new();
    let _ = tokio::time::timeout(Duration::from_secs(5), s.read_to_end(&mut out)).await;
    String::from_utf8_lossy(&out).into_owned()
}

async fn sqlite() -> TestApp {
    TestApp::start(Kind::Sqlite).await.unwrap()
}

/// The next text message of a socket within `secs`, or None when it closed or said nothing.
async fn next_text(socket: &mut crate::graphql::Socket, secs: u64) -> Option<Value> {
    loop {
        let m = tokio::time::timeout(Duration::from_secs(secs), socket.next())
            .await
            .ok()??
            .ok()?;
        match m {
            Message::Text(t) => return serde_json::from_str(&t).ok(),
            Message::Close(_) => return None,
            _ => continue,
        }
    }
}

/// Whether the server closed the socket within `secs`.
async fn closed_within(socket: &mut crate::graphql::Socket, secs: u64) -> bool {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(secs);
    loop {
        match tokio::time::timeout_at(deadline, socket.next()).await {
            Err(_) => return false,
            Ok(None) | Ok(Some(Err(_))) | Ok(Some(Ok(Message::Close(_)))) => return true,
            Ok(Some(Ok(_))) => continue,
        }
    }
}

async fn subscribe(socket: &mut crate::graphql::Socket, id: &str, query: &str) {
    socket
        .send(Message::Text(
            json!({"id": id, "type": "subscribe", "payload": {"query": query}})
                .to_string()
                .into(),
        ))
        .await
        .unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_graphql_nesting_bomb_is_refused_over_http_and_the_socket() {
    let app = sqlite().await;
    let (_, key) = app.owner().await;
    // 2,000 nested brackets in an argument used to overflow the parser's stack and abort.
    let bomb = format!(
        "{{ documents(metadata: {}) {{ page {{ nextCursor }} }} }}",
        "[".repeat(2_000)
    );
    let a = gql(&app, &key, &bomb).await;
    let (kind, message) = first_error(&a);
    assert_eq!(kind, "invalid", "{}", a.body);
    assert!(message.contains("nested more than 32"), "{message}");
    // Fragments multiply without nesting: 3^30 selections from a few hundred bytes.
    let mut fan = String::from("{ ...F1 ...F1 ...F1 }");
    for i in 1..30 {
        fan.push_str(&format!(
            " fragment F{i} on Query {{ ...F{0} ...F{0} ...F{0} }}",
            i + 1
        ));
    }
    fan.push_str(" fragment F30 on Query { usage { plan } }");
    // Refused by counting, not by expanding them (which would never end).
    let answer = tokio::time::timeout(Duration::from_secs(60), gql(&app, &key, &fan))
        .await
        .expect("refused without expanding the fragments");
    let (kind, message) = first_error(&answer);
    assert_eq!(kind, "invalid");
    assert!(message.contains("more than 5000 fields"), "{message}");
    // Long texts are refused as well, naming the limit.
    let long = format!("{{ usage {{ plan }} }} #{}", "x".repeat(70 * 1024));
    assert!(
        first_error(&gql(&app, &key, &long).await)
            .1
            .contains("65536")
    );

    let mut socket = connect(&app.base, json!({"Authorization": format!("Bearer {key}")})).await;
    assert_eq!(
        next_text(&mut socket, 5).await.unwrap()["type"],
        "connection_ack"
    );
    subscribe(&mut socket, "1", &bomb).await;
    let m = next_text(&mut socket, 5).await.unwrap();
    assert_eq!(m["type"], "next", "{m}");
    assert!(
        m["payload"]["errors"][0]["message"]
            .as_str()
            .unwrap()
            .contains("nested more than 32"),
        "{m}"
    );
    alive(&app, &key).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn graphql_bodies_have_a_limit_and_only_json_is_taken() {
    let app = sqlite().await;
    let (_, key) = app.owner().await;
    // A body over the limit is refused from its declared length, before it is read: the
    // answer comes back while the client has sent only the headers.
    // GraphQL's limit is the largest legal body of its mutations: a template's 10 MB file.
    let a = declared_too_long(&app, "/graphql", &key, 14 << 20).await;
    assert!(a.starts_with("HTTP/1.1 400"), "{a}");
    assert!(a.contains("larger than the limit of 14046552 bytes"), "{a}");
    let multipart = app
        .client
        .post(format!("{}/graphql", app.base))
        .bearer_auth(&key)
        .header("content-type", "multipart/form-data; boundary=x")
        .body("--x\r\nContent-Disposition: form-data; name=\"operations\"\r\n\r\n{}\r\n--x--\r\n");
    let a = app.send(multipart).await;
    assert_eq!(a.status, 400, "{}", a.body);
    assert!(
        a.body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("Content-Type")
    );
    // The time-stamp authority takes 64 KiB, not the 2 MiB of other routes.
    let a = declared_too_long(&app, "/tsa", &key, 100 * 1024).await;
    assert!(a.starts_with("HTTP/1.1 400"), "{a}");
    assert!(a.contains("larger than the limit of 65536 bytes"), "{a}");
    // And a chunked body with no declared length is cut off at the limit.
    let addr = app.base.trim_start_matches("http://");
    let mut c = tokio::net::TcpStream::connect(addr).await.unwrap();
    c.write_all(b"POST /tsa HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n")
        .await
        .unwrap();
    let chunk = format!("2000\r\n{}\r\n", "x".repeat(0x2000));
    for _ in 0..13 {
        if c.write_all(chunk.as_bytes()).await.is_err() {
            break;
        }
    }
    let mut out = Vec::new();
    let _ = tokio::time::timeout(Duration::from_secs(5), c.read_to_end(&mut out)).await;
    let out = String::from_utf8_lossy(&out);
    assert!(out.starts_with("HTTP/1.1 400"), "{out}");
    assert!(out.contains("65536"), "{out}");
    alive(&app, &key).await;
}

both!(graphql_aliases_spend_the_key_budget_and_are_capped, |app| {
    let (ws, _) = app.owner().await;
    crate::limits::clear_of_minute_boundary(&app);
    let key = app
        .key_with(KeyCreateIn {
            per_minute: Some(30),
            ..KeyCreateIn::new(&ws, Mode::Test, Scopes::parse(["account:read"]).unwrap())
        })
        .await;
    let aliases = |n: usize| {
        let fields: Vec<String> = (0..n).map(|i| format!("a{i}: usage {{ plan }}")).collect();
        format!("{{ {} }}", fields.join(" "))
    };
    let typenames: Vec<String> = (0..3_000).map(|i| format!("a{i}: __typename")).collect();
    let a = gql(&app, &key, &format!("{{ {} }}", typenames.join(" "))).await;
    let (kind, message) = first_error(&a);
    assert_eq!(kind, "invalid", "{}", a.body);
    assert!(
        message.contains("3000 root fields") && message.contains("at most 20"),
        "{message}"
    );
    // Twenty root fields cost twenty requests of the budget of thirty.
    let a = gql(&app, &key, &aliases(20)).await;
    assert!(a.body["errors"].is_null(), "{}", a.body);
    assert_eq!(a.body["data"]["a19"]["plan"], "free");
    let a = gql(&app, &key, &aliases(20)).await;
    let (kind, message) = first_error(&a);
    assert_eq!(kind, "rate_limited", "{}", a.body);
    assert!(
        message.contains("20 root fields count as 20 requests"),
        "{message}"
    );
    assert_eq!(app.get("/api/v1/usage", Some(&key)).await.status, 429);
});

both!(reminders_are_limited_per_person_and_per_document, |app| {
    let (_, key) = app.owner().await;
    let doc = documents::create(&app, &key, json!({"sendNow": true})).await;
    assert_eq!(doc.status, 201, "{}", doc.body);
    let id = doc.body["id"].as_str().unwrap().to_string();
    let remind = |seat: Option<&'static str>| remind(&app, &key, &id, seat);
    assert_eq!(remind(None).await.status, 200);
    // Two thousand reminders used to write two thousand audit rows each; now the second
    // within the hour is refused, saying when the next is allowed.
    for _ in 0..20 {
        let a = remind(None).await;
        assert_eq!(a.status, 429, "{}", a.body);
        let retry: u64 = a.header("retry-after").parse().unwrap();
        assert!((3_500..=3_600).contains(&retry), "{retry}");
        assert!(
            a.body["error"]["message"]
                .as_str()
                .unwrap()
                .contains("once an hour"),
            "{}",
            a.body
        );
    }
    let db = &app.ctx().db;
    let trail = db
        .conn
        .query_one_raw(db.stmt(
            "SELECT COUNT(*) AS n FROM audit_events WHERE document_id = $1 AND event = 'reminded'",
            [Sql::from(id.clone())],
        ))
        .await
        .unwrap()
        .unwrap();
    // One row for each of the two people waiting, from the first reminder only.
    assert_eq!(trail.try_get::<i64>("", "n").unwrap(), 2);
    // An hour later a person may be reminded again, until ten reminders in all.
    let hour = Duration::from_secs(3_601);
    for n in 2..=10 {
        app.advance(hour);
        let a = remind(Some("client")).await;
        assert_eq!(a.status, 200, "reminder {n}: {}", a.body);
    }
    app.advance(hour);
    let a = remind(Some("client")).await;
    assert_eq!(a.status, 409, "{}", a.body);
    assert!(
        a.body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("10 times"),
        "{}",
        a.body
    );

    // The trail is read a page at a time.
    let page = |limit: i64, after: i64| {
        format!(
            "{{ documentAuditLog(id: \"{id}\", limit: {limit}, after: {after}) {{ seq event }} }}"
        )
    };
    let all = gql(&app, &key, &page(1000, 0)).await.body["data"]["documentAuditLog"].clone();
    let all = all.as_array().unwrap();
    assert!(all.len() >= 5, "{all:?}");
    let first = gql(&app, &key, &page(2, 0)).await.body["data"]["documentAuditLog"].clone();
    assert_eq!(first.as_array().unwrap().len(), 2);
    let rest = gql(&app, &key, &page(1000, first[1]["seq"].as_i64().unwrap())).await;
    let rest = rest.body["data"]["documentAuditLog"]
        .as_array()
        .unwrap()
        .clone();
    // The workers may add a line (an email sent) between the two reads: the second page holds
    // what the first read had after its two lines, in order, and perhaps more.
    assert!(rest.len() >= all.len() - 2, "{rest:?}");
    assert_eq!(rest[..all.len() - 2], all[2..]);
    let (kind, message) = first_error(&gql(&app, &key, &page(1001, 0)).await);
    assert_eq!(kind, "invalid");
    assert!(message.contains("limit"), "{message}");
});

both!(
    a_draft_only_key_cannot_remind_void_or_test_sign_what_another_key_sent,
    |app| {
        let (ws, sender) = app.owner().await;
        let doc = documents::create(&app, &sender, json!({"sendNow": true})).await;
        let id = doc.body["id"].as_str().unwrap().to_string();
        let drafter = app
            .key_with(KeyCreateIn {
                draft_only: true,
                ..KeyCreateIn::new(
                    &ws,
                    Mode::Test,
                    Scopes::parse(["documents:write", "documents:read"]).unwrap(),
                )
            })
            .await;
        for (action, body) in [
            ("remind", "{}"),
            ("void", "{}"),
            ("test-sign", r#"{"seat":"client"}"#),
        ] {
            let a = app
                .post(
                    &format!("/api/v1/documents/{id}/{action}"),
                    &drafter,
                    &[],
                    body,
                )
                .await;
            assert_eq!(a.status, 403, "{action}: {}", a.body);
            assert!(
                a.body["error"]["message"]
                    .as_str()
                    .unwrap()
                    .contains("draft-only")
            );
        }
        let now = app
            .get(&format!("/api/v1/documents/{id}"), Some(&sender))
            .await;
        assert_eq!(now.body["state"], "sent");
    }
);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_document_everyone_signed_cannot_be_voided_before_it_is_sealed() {
    for kind in [Kind::Sqlite, Kind::PostgresRedis] {
        let Some(app) = TestApp::start_without_workers(kind).await else {
            continue;
        };
        let (_, key) = app.owner().await;
        let doc = documents::create(&app, &key, json!({"sendNow": true})).await;
        let id = doc.body["id"].as_str().unwrap().to_string();
        crate::harness::test_sign(&app, &key, &id, &["client", "provider"]).await;
        let a = app
            .post(&format!("/api/v1/documents/{id}/void"), &key, &[], "{}")
            .await;
        assert_eq!(a.status, 409, "{}", a.body);
        assert!(
            a.body["error"]["message"]
                .as_str()
                .unwrap()
                .contains("everyone has signed")
        );
        let now = app
            .get(&format!("/api/v1/documents/{id}"), Some(&key))
            .await;
        assert_eq!(now.body["state"], "signed");
    }
}

both!(names_with_bidirectional_overrides_are_refused, |app| {
    let (_, key) = app.owner().await;
    let people = json!([
        {"name": "A\u{202e}live\u{202c} B", "email": "ada@example.com", "role": "client"},
        {"name": "Bob Provider", "email": "bob@example.com", "role": "provider"}
    ]);
    let a = documents::create(&app, &key, json!({ "people": people })).await;
    assert_eq!(a.status, 400, "{}", a.body);
    let m = a.body["error"]["message"].as_str().unwrap();
    assert!(
        m.contains("people[0].name") && m.contains("bidirectional"),
        "{m}"
    );
    let a = documents::create(&app, &key, json!({ "title": "Deal \u{2067}x\u{2069}" })).await;
    assert_eq!(a.status, 400, "{}", a.body);
    assert!(
        a.body["error"]["message"]
            .as_str()
            .unwrap()
            .starts_with("title:")
    );
});

both!(webhook_endpoints_are_capped_and_fan_out_is_bounded, |app| {
    let (_, key) = app.owner().await;
    let make = || relay_endpoint(&app, &key);
    for _ in 0..signet_webhooks::endpoints::MAX_ENDPOINTS {
        assert_eq!(make().await.status, 201);
    }
    let a = make().await;
    assert_eq!(a.status, 403, "{}", a.body);
    assert!(
        a.body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("at most 20")
    );
});

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_fan_out_writes_a_bounded_number_of_rows() {
    for kind in [Kind::Sqlite, Kind::PostgresRedis] {
        let Some(app) = TestApp::start_without_workers(kind).await else {
            continue;
        };
        let (_, key) = app.owner().await;
        for _ in 0..20 {
            let a = app
                .post(
                    "/api/v1/webhooks",
                    &key,
                    &[],
                    &json!({"relay": true, "eventTypes": ["documents.document.sent"]}).to_string(),
                )
                .await;
            assert_eq!(a.status, 201);
        }
        // 110 sends at 20 endpoints each would be 2,200 messages in one transaction.
        for _ in 0..110 {
            assert_eq!(
                documents::create(&app, &key, json!({"sendNow": true}))
                    .await
                    .status,
                201
            );
        }
        let taken = signet_webhooks::deliver::fan_out(app.ctx()).await.unwrap();
        assert_eq!(taken, 100, "2,000 messages is the most one fan-out writes");
        let taken = signet_webhooks::deliver::fan_out(app.ctx()).await.unwrap();
        assert_eq!(taken, 10);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn test_sends_have_a_daily_allowance() {
    for kind in [Kind::Sqlite, Kind::PostgresRedis] {
        let mut plans = signet_core::plans::Plans::default();
        plans.free.test_sends_per_day = 2;
        let opts = Options {
            plans: Some(plans),
            ..Options::default()
        };
        let Some(app) = TestApp::start_with(kind, opts).await else {
            continue;
        };
        let (_, key) = app.owner().await;
        for _ in 0..2 {
            assert_eq!(
                documents::create(&app, &key, json!({"sendNow": true}))
                    .await
                    .status,
                201
            );
        }
        let a = documents::create(&app, &key, json!({"sendNow": true})).await;
        assert_eq!(a.status, 429, "{}", a.body);
        assert!(
            a.body["error"]["message"]
                .as_str()
                .unwrap()
                .contains("2 test sends a day")
        );
        assert!(a.header("retry-after").parse::<u64>().unwrap() <= 86_400);
        // Drafts are still made.
        assert_eq!(documents::create(&app, &key, json!({})).await.status, 201);
    }
}

both!(
    a_socket_rechecks_its_key_spends_its_budget_and_is_logged,
    |app| {
        let (ws, _) = app.owner().await;
        crate::limits::clear_of_minute_boundary(&app);
        let key = app
            .key_with(KeyCreateIn {
                per_minute: Some(5),
                ..KeyCreateIn::new(
                    &ws,
                    Mode::Test,
                    Scopes::parse(["account:read", "documents:write"]).unwrap(),
                )
            })
            .await;
        let mut socket =
            connect(&app.base, json!({"Authorization": format!("Bearer {key}")})).await;
        assert_eq!(
            next_text(&mut socket, 5).await.unwrap()["type"],
            "connection_ack"
        );
        let mut kinds = vec![];
        for i in 0..6 {
            subscribe(&mut socket, &i.to_string(), "{ usage { plan } }").await;
            let m = next_text(&mut socket, 5).await.unwrap();
            assert_eq!(m["type"], "next", "{m}");
            kinds.push(
                m["payload"]["errors"][0]["extensions"]["kind"]
                    .as_str()
                    .unwrap_or("ok")
                    .to_string(),
            );
            assert_eq!(next_text(&mut socket, 5).await.unwrap()["type"], "complete");
        }
        // connection_init spent the first of the five.
        assert_eq!(
            kinds,
            ["ok", "ok", "ok", "ok", "rate_limited", "rate_limited"],
            "five a minute"
        );
        // Each operation reached the API log (written in batches: flushed first).
        app.ctx().api_log.flush().await;
        let db = &app.ctx().db;
        let logged = db
            .conn
            .query_one_raw(db.stmt(
                "SELECT COUNT(*) AS n FROM api_log WHERE route = 'graphql.ws.operation' AND key_id IS NOT NULL",
                [],
            ))
            .await
            .unwrap()
            .unwrap()
            .try_get::<i64>("", "n")
            .unwrap();
        assert_eq!(logged, 6);

        // Revoked: the next operation is refused at once and the socket is closed soon after.
        let other = app.key(&ws, Mode::Test, &["account:read"]).await;
        let mut socket = connect(
            &app.base,
            json!({"Authorization": format!("Bearer {other}")}),
        )
        .await;
        assert_eq!(
            next_text(&mut socket, 5).await.unwrap()["type"],
            "connection_ack"
        );
        let key_id = app.actor(&other).await.id().to_string();
        signet_accounts::keys::revoke(app.ctx(), &key_id)
            .await
            .unwrap();
        subscribe(&mut socket, "x", "{ usage { plan } }").await;
        let m = next_text(&mut socket, 5).await;
        assert!(
            m.as_ref().is_none_or(
                |m| m["payload"]["errors"][0]["extensions"]["kind"] == "unauthenticated"
            ),
            "{m:?}"
        );
        assert!(
            closed_within(&mut socket, 5).await,
            "the revoked key's socket is closed"
        );
    }
);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sockets_must_authenticate_soon_and_hold_bounded_subscriptions() {
    let opts = Options {
        socket_init_timeout_secs: Some(2),
        ..Options::default()
    };
    let app = TestApp::start_with(Kind::Sqlite, opts).await.unwrap();
    let (_, key) = app.owner().await;
    // A socket that never sends connection_init is closed.
    let url = format!("{}/graphql/ws", app.base.replacen("http", "ws", 1));
    let mut req = tokio_tungstenite::tungstenite::client::IntoClientRequest::into_client_request(
        url.as_str(),
    )
    .unwrap();
    req.headers_mut().insert(
        "sec-websocket-protocol",
        "graphql-transport-ws".parse().unwrap(),
    );
    let (mut silent, _) = tokio_tungstenite::connect_async(req.clone()).await.unwrap();
    assert!(
        closed_within(&mut silent, 5).await,
        "closed without connection_init"
    );
    // A 15 MB ping before authenticating ends the socket rather than being answered.
    let (mut pinger, _) = tokio_tungstenite::connect_async(req).await.unwrap();
    let _ = pinger.send(Message::Ping(vec![0u8; 15 << 20].into())).await;
    assert!(closed_within(&mut pinger, 5).await);

    // At most 100 operations on one socket.
    let doc = documents::create(&app, &key, json!({})).await;
    let id = doc.body["id"].as_str().unwrap().to_string();
    let mut socket = connect(&app.base, json!({"Authorization": format!("Bearer {key}")})).await;
    assert_eq!(
        next_text(&mut socket, 5).await.unwrap()["type"],
        "connection_ack"
    );
    let q = format!("subscription {{ documentStatus(id: \"{id}\") {{ state }} }}");
    for i in 0..100 {
        subscribe(&mut socket, &format!("s{i}"), &q).await;
        let m = next_text(&mut socket, 5).await.unwrap();
        assert_eq!(m["type"], "next", "{m}");
    }
    subscribe(&mut socket, "s100", &q).await;
    let m = next_text(&mut socket, 5).await.unwrap();
    assert_eq!(m["id"], "s100", "{m}");
    assert!(
        m["payload"]["errors"][0]["message"]
            .as_str()
            .unwrap()
            .contains("100 operations"),
        "{m}"
    );
    // A key holds at most 100 sockets: 99 more are taken, the next is refused.
    let mut open = Vec::new();
    for _ in 0..99 {
        let mut s = connect(&app.base, json!({"Authorization": format!("Bearer {key}")})).await;
        assert_eq!(
            next_text(&mut s, 5).await.unwrap()["type"],
            "connection_ack"
        );
        open.push(s);
    }
    let mut refused = connect(&app.base, json!({"Authorization": format!("Bearer {key}")})).await;
    assert!(
        next_text(&mut refused, 5)
            .await
            .is_none_or(|m| m["type"] != "connection_ack"),
        "the 101st socket of a key is not acknowledged"
    );
    // Closing one gives its place back (as soon as the server has seen it close).
    drop(open.pop());
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    loop {
        let mut again = connect(&app.base, json!({"Authorization": format!("Bearer {key}")})).await;
        if next_text(&mut again, 5)
            .await
            .is_some_and(|m| m["type"] == "connection_ack")
        {
            break;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "the closed socket's place was never given back"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    alive(&app, &key).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn half_sent_headers_are_dropped_and_others_are_still_served() {
    let opts = Options {
        header_timeout_secs: Some(2),
        ..Options::default()
    };
    let app = TestApp::start_with(Kind::Sqlite, opts).await.unwrap();
    let (_, key) = app.owner().await;
    let addr = app.base.trim_start_matches("http://").to_string();
    let mut slow = Vec::new();
    for _ in 0..500 {
        let mut s = tokio::net::TcpStream::connect(&addr).await.unwrap();
        s.write_all(b"GET /api/v1/usage HTTP/1.1\r\nHost: x\r\nX-Slow: ")
            .await
            .unwrap();
        slow.push(s);
    }
    for _ in 0..20 {
        alive(&app, &key).await;
    }
    tokio::time::sleep(Duration::from_secs(3)).await;
    let mut dropped = 0;
    for s in &mut slow {
        let mut buf = [0u8; 512];
        match tokio::time::timeout(Duration::from_secs(2), s.read(&mut buf)).await {
            Ok(Ok(0)) | Ok(Err(_)) => dropped += 1,
            // hyper may answer 408 before closing.
            Ok(Ok(_)) => dropped += 1,
            Err(_) => {}
        }
    }
    assert_eq!(dropped, 500, "every half-sent request was dropped");
    alive(&app, &key).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn forwarded_addresses_are_walked_from_the_right_without_skipping() {
    let opts = Options {
        trusted_proxies: vec!["127.0.0.1/32".parse().unwrap()],
        ..Options::default()
    };
    let app = TestApp::start_with(Kind::Sqlite, opts).await.unwrap();
    let (ws, _) = app.owner().await;
    let key = app
        .key_with(KeyCreateIn {
            allow: vec!["10.9.9.9/32".parse().unwrap()],
            ..KeyCreateIn::new(&ws, Mode::Test, Scopes::parse(["account:read"]).unwrap())
        })
        .await;
    let ask = |xff: &'static str| {
        app.send(
            app.client
                .get(format!("{}/api/v1/usage", app.base))
                .bearer_auth(&key)
                .header("x-forwarded-for", xff),
        )
    };
    assert_eq!(ask("10.9.9.9").await.status, 200);
    assert_eq!(ask("203.0.113.5, 10.9.9.9:41234").await.status, 200);
    for spoofed in [
        "10.9.9.9, 203.0.113.5:41234",
        "10.9.9.9, [2001:db8::7]:41234",
        "10.9.9.9, unknown",
        "10.9.9.9, ",
        "10.9.9.9, 203.0.113.5",
    ] {
        assert_eq!(ask(spoofed).await.status, 401, "{spoofed}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_public_answer_spends_the_anonymous_budget() {
    let opts = Options {
        anonymous_per_minute: Some(5),
        ..Options::default()
    };
    let app = TestApp::start_with(Kind::Sqlite, opts).await.unwrap();
    crate::limits::clear_of_minute_boundary(&app);
    for path in [
        "/api/openapi.json",
        "/nothing/here",
        "/api/openapi.json",
        "/x",
        "/y",
    ] {
        let a = app.get(path, None).await;
        assert_ne!(a.status, 429, "{path}");
        assert!(!a.header("ratelimit-remaining").is_empty());
    }
    for path in ["/api/openapi.json", "/nothing/here"] {
        let a = app.get(path, None).await;
        assert_eq!(a.status, 429, "{path}: {}", a.body);
        assert_eq!(a.body["error"]["kind"], "rate_limited");
    }
}

both!(old_api_log_lines_are_purged_in_batches, |app| {
    let (_, key) = app.owner().await;
    alive(&app, &key).await;
    let db = &app.ctx().db;
    let old = signet_storage::now_ms() - 31 * 86_400_000;
    for i in 0..12_000 {
        if i % 2_000 == 0 {
            let values: Vec<String> = (i..i + 2_000)
                .map(|j| format!("('req_old{j}', 'GET', 'x', 200, 1, '127.0.0.1', {old})"))
                .collect();
            db.conn
                .execute_raw(db.stmt(
                    &format!(
                        "INSERT INTO api_log (id, method, route, status, duration_us, client_ip, created_at) VALUES {}",
                        values.join(", ")
                    ),
                    [],
                ))
                .await
                .unwrap();
        }
    }
    let gone = signet_core::purge::api_log(app.ctx(), 30).await.unwrap();
    assert_eq!(gone, 12_000);
    let left = db
        .conn
        .query_one_raw(db.stmt("SELECT COUNT(*) AS n FROM api_log", []))
        .await
        .unwrap()
        .unwrap();
    let _ = left.try_get::<i64>("", "n").unwrap();
    let old_left = db
        .conn
        .query_one_raw(db.stmt(
            "SELECT COUNT(*) AS n FROM api_log WHERE created_at < $1",
            [Sql::from(old + 1)],
        ))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(old_left.try_get::<i64>("", "n").unwrap(), 0);
});

both_quiet!(finished_jobs_are_purged_after_30_days_and_no_other, |app| {
    let db = &app.ctx().db;
    let now = signet_storage::now_ms();
    // Twenty days old, purged here after ten: the app's own scheduler purges after thirty,
    // at start and then every ten minutes, so it cannot take these rows first (on a loaded
    // machine its first pass can come after they are written).
    let old = now - 20 * 86_400_000;
    // More old finished jobs than one batch, and one job of each kind that must stay: an old
    // one that failed, an old one still waiting (a reminder due later), and a recent one done.
    for i in (0..6_000).step_by(2_000) {
        let values: Vec<String> = (i..i + 2_000)
            .map(|j| {
                format!(
                    "('job_old{j}', 'event', 'wsp_x', NULL, true, '{{}}', 'done', 1, {old}, {old})"
                )
            })
            .collect();
        db.conn
            .execute_raw(db.stmt(
                &format!(
                    "INSERT INTO outbox (id, kind, workspace_id, document_id, test, payload, state, attempts, run_at, created_at) VALUES {}",
                    values.join(", ")
                ),
                [],
            ))
            .await
            .unwrap();
    }
    db.conn
        .execute_raw(db.stmt(
            &format!(
                "INSERT INTO outbox (id, kind, workspace_id, document_id, test, payload, state, attempts, run_at, created_at) VALUES \
                 ('job_keep_failed', 'seal', 'wsp_x', NULL, true, '{{}}', 'failed', 8, {old}, {old}), \
                 ('job_keep_waiting', 'email', 'wsp_x', NULL, true, '{{}}', 'queued', 0, {later}, {old}), \
                 ('job_keep_recent', 'render', 'wsp_x', NULL, true, '{{}}', 'done', 1, {now}, {now}), \
                 ('job_old_withdrawn', 'email', 'wsp_x', NULL, true, '{{}}', 'cancelled', 0, {old}, {old})",
                later = now + 86_400_000
            ),
            [],
        ))
        .await
        .unwrap();
    // SQLite keeps no statistics: each batch must still go through its state's own index, in
    // order, not walk every job of the state through the queue's index and sort them while it
    // holds the one writer.
    if db.backend != signet_storage::db::Backend::Postgres {
        for state in signet_core::purge::FINISHED {
            let sql = format!(
                "EXPLAIN QUERY PLAN SELECT id FROM outbox WHERE {} ORDER BY created_at LIMIT 5000",
                signet_core::purge::finished_filter(state)
            );
            let plan: Vec<String> = db
                .conn
                .query_all_raw(db.stmt(&sql, [Sql::from(old)]))
                .await
                .unwrap()
                .iter()
                .map(|r| r.try_get::<String>("", "detail").unwrap())
                .collect();
            assert!(
                plan.iter()
                    .any(|d| d.contains(&format!("outbox_{state}_created")))
                    && !plan.iter().any(|d| d.contains("TEMP B-TREE")),
                "{state}: {plan:?}"
            );
        }
    }
    let gone = signet_core::purge::finished_jobs(app.ctx(), 10)
        .await
        .unwrap();
    assert_eq!(gone, 6_001);
    let left = db
        .conn
        .query_all_raw(db.stmt(
            "SELECT id FROM outbox WHERE workspace_id = 'wsp_x' ORDER BY id",
            [],
        ))
        .await
        .unwrap()
        .iter()
        .map(|r| r.try_get::<String>("", "id").unwrap())
        .collect::<Vec<_>>();
    assert_eq!(
        left,
        ["job_keep_failed", "job_keep_recent", "job_keep_waiting"]
    );
});

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_data_folder_is_private_and_made_so_when_it_was_not() {
    use std::os::unix::fs::PermissionsExt;
    let app = sqlite().await;
    let (_, key) = app.owner().await;
    documents::create(&app, &key, json!({"sendNow": true})).await;
    let mut seen = 0;
    let mut stack = vec![app.dir.path().to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let e = e.unwrap();
            let mode = e.metadata().unwrap().permissions().mode() & 0o777;
            if e.file_type().unwrap().is_dir() {
                assert_eq!(mode & 0o077, 0, "{} is {mode:o}", e.path().display());
                stack.push(e.path());
            } else {
                assert_eq!(mode & 0o077, 0, "{} is {mode:o}", e.path().display());
            }
            seen += 1;
        }
    }
    assert!(
        seen >= 5,
        "the database, the authority and the blobs were looked at"
    );
    let open = tempfile::tempdir().unwrap();
    std::fs::set_permissions(open.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    let config = signet::Config {
        data_dir: open.path().to_path_buf(),
        ..signet::Config::default()
    };
    config.ensure_data_dir().unwrap();
    let mode = std::fs::metadata(open.path()).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o700);
}

fn paragraphs(n: usize, words: usize) -> Value {
    let text = "lorem ipsum dolor sit amet ".repeat(words / 5 + 1);
    let content: Vec<Value> = (0..n)
        .map(|_| json!({"type": "paragraph", "content": [{"type": "text", "text": text}]}))
        .chain(std::iter::once(
            json!({"type": "signatureBlock", "attrs": {"role": "client"}}),
        ))
        .collect();
    json!({"type": "doc", "content": content})
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn documents_longer_than_max_pages_are_refused_or_fail_once() {
    for kind in [Kind::Sqlite, Kind::PostgresRedis] {
        let opts = Options {
            max_pages: Some(2),
            no_worker: true,
            ..Options::default()
        };
        let Some(app) = TestApp::start_with(kind, opts).await else {
            continue;
        };
        let (_, key) = app.owner().await;
        let people = json!([{"name": "Ada Client", "email": "ada@example.com", "role": "client"}]);
        // Words that cannot fit in two pages however they are set: refused before any work.
        let a = documents::create(
            &app,
            &key,
            json!({"source": paragraphs(400, 40), "people": people, "variableValues": {}}),
        )
        .await;
        assert_eq!(a.status, 400, "{}", a.body);
        let m = a.body["error"]["message"].as_str().unwrap();
        assert!(m.starts_with("source:") && m.contains("max_pages"), "{m}");
        // Words that might fit but lay out longer: laid out before the answer, and refused
        // with the count.
        let a = documents::create(
            &app,
            &key,
            json!({"source": paragraphs(120, 5), "people": people, "variableValues": {}, "sendNow": true}),
        )
        .await;
        assert_eq!(a.status, 400, "{}", a.body);
        let m = a.body["error"]["message"].as_str().unwrap();
        assert!(m.starts_with("source:") && m.contains("pages long"), "{m}");
        // A render that fails for good all the same (the stored words changed under it) is
        // tried once, and the document ends with the reason.
        let a = documents::create(
            &app,
            &key,
            json!({"source": paragraphs(1, 5), "people": people, "variableValues": {}, "sendNow": true}),
        )
        .await;
        assert_eq!(a.status, 201, "{}", a.body);
        let id = a.body["id"].as_str().unwrap().to_string();
        let db = &app.ctx().db;
        db.write(db.stmt(
            "UPDATE documents SET source = $2 WHERE id = $1",
            [
                Sql::from(id.clone()),
                Sql::from(paragraphs(120, 5).to_string()),
            ],
        ))
        .await
        .unwrap();
        signet_workers::pass::<signet_documents::rendering::Renders>(app.ctx())
            .await
            .unwrap();
        let job = db
            .conn
            .query_one_raw(db.stmt(
                "SELECT state, attempts FROM outbox WHERE document_id = $1 AND kind = 'render'",
                [Sql::from(id.clone())],
            ))
            .await
            .unwrap()
            .unwrap();
        assert_eq!(job.try_get::<String>("", "state").unwrap(), "done");
        assert_eq!(job.try_get::<i32>("", "attempts").unwrap(), 1);
        let doc = app
            .get(&format!("/api/v1/documents/{id}"), Some(&key))
            .await;
        assert!(doc.body["pageCount"].is_null(), "{}", doc.body);
        assert_eq!(doc.body["state"], "voided", "{}", doc.body);
        assert!(
            doc.body["reason"].as_str().unwrap().contains("max_pages"),
            "{}",
            doc.body
        );
    }
}

/// A receiver that takes connections and never answers.
async fn silent_receiver() -> (u16, tokio::task::JoinHandle<()>) {
    let l = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = l.local_addr().unwrap().port();
    let task = tokio::spawn(async move {
        let mut held = Vec::new();
        while let Ok((s, _)) = l.accept().await {
            held.push(s);
        }
    });
    (port, task)
}

/// A receiver that answers 204 at once and counts what it took.
async fn quick_receiver(
    count: std::sync::Arc<std::sync::atomic::AtomicUsize>,
) -> (u16, tokio::task::JoinHandle<()>) {
    let l = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = l.local_addr().unwrap().port();
    let task = tokio::spawn(async move {
        while let Ok((mut s, _)) = l.accept().await {
            let count = count.clone();
            tokio::spawn(async move {
                let mut buf = vec![0u8; 65536];
                let mut seen = Vec::new();
                loop {
                    let Ok(n) = s.read(&mut buf).await else {
                        return;
                    };
                    if n == 0 {
                        return;
                    }
                    seen.extend_from_slice(&buf[..n]);
                    let text = String::from_utf8_lossy(&seen).to_string();
                    if let Some(end) = text.find("\r\n\r\n") {
                        let length: usize = text[..end]
                            .lines()
                            .find_map(|l| {
                                l.to_ascii_lowercase()
                                    .strip_prefix("content-length:")
                                    .map(|v| v.trim().parse().unwrap_or(0))
                            })
                            .unwrap_or(0);
                        if seen.len() >= end + 4 + length {
                            count.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                            seen.drain(..end + 4 + length);
                            let _ = s
                                .write_all(b"HTTP/1.1 204 No Content\r\nContent-Length: 0\r\n\r\n")
                                .await;
                        }
                    }
                }
            });
        }
    });
    (port, task)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_workspace_with_silent_receivers_cannot_hold_everyone_s_delivery_slots() {
    for kind in [Kind::Sqlite, Kind::PostgresRedis] {
        let Some(app) = TestApp::start(kind).await else {
            continue;
        };
        let (silent, _s) = silent_receiver().await;
        let count = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let (quick, _q) = quick_receiver(count.clone()).await;
        let (_, hog) = app.owner().await;
        for i in 0..20 {
            let a = app
                .post(
                    "/api/v1/webhooks",
                    &hog,
                    &[],
                    &json!({"url": format!("http://127.0.0.1:{silent}/h{i}"), "eventTypes": ["documents.document.sent"]}).to_string(),
                )
                .await;
            assert_eq!(a.status, 201, "{}", a.body);
        }
        // 30 sends to 20 endpoints: 600 deliveries that each hold a slot for 15 s, more than
        // the worker's 512 slots.
        for _ in 0..30 {
            assert_eq!(
                documents::create(&app, &hog, json!({"sendNow": true}))
                    .await
                    .status,
                201
            );
        }
        // The hog's deliveries take their whole share of the slots (a quarter of 512) first.
        let started = std::time::Instant::now();
        loop {
            let db = &app.ctx().db;
            let sending: i64 = db
                .conn
                .query_one_raw(db.stmt(
                    "SELECT COUNT(*) AS n FROM webhook_messages WHERE state = 'sending'",
                    [],
                ))
                .await
                .unwrap()
                .unwrap()
                .try_get("", "n")
                .unwrap();
            if sending >= 128 {
                break;
            }
            assert!(
                started.elapsed() < Duration::from_secs(30),
                "the silent receivers' deliveries never went out: {sending} in flight"
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        let (_, other) = app.owner().await;
        let a = app
            .post(
                "/api/v1/webhooks",
                &other,
                &[],
                &json!({"url": format!("http://127.0.0.1:{quick}/ok"), "eventTypes": ["documents.document.sent"]}).to_string(),
            )
            .await;
        assert_eq!(a.status, 201, "{}", a.body);
        assert_eq!(
            documents::create(&app, &other, json!({"sendNow": true}))
                .await
                .status,
            201
        );
        // Delivered before any try of the silent receivers has ended (each waits out its 15
        // s): it did not wait for one of their slots to be given back.
        let started = std::time::Instant::now();
        while count.load(std::sync::atomic::Ordering::SeqCst) == 0 {
            let db = &app.ctx().db;
            let ended: i64 = db
                .conn
                .query_one_raw(db.stmt(
                    "SELECT COUNT(*) AS n FROM webhook_attempts WHERE endpoint_id NOT IN \
                     (SELECT id FROM webhook_endpoints WHERE url LIKE '%/ok')",
                    [],
                ))
                .await
                .unwrap()
                .unwrap()
                .try_get("", "n")
                .unwrap();
            assert_eq!(
                ended, 0,
                "the other workspace's delivery waited behind the silent receivers"
            );
            assert!(
                started.elapsed() < Duration::from_secs(60),
                "never delivered"
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
}

/// A one-page PDF with a text tag for `client` and a picture of `side` × `side` pixels of
/// noise (no deflate can shrink it), written out by hand.
fn heavy_pdf(side: usize) -> Vec<u8> {
    let mut noise = Vec::with_capacity(side * side * 3);
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
    while noise.len() < side * side * 3 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        noise.extend_from_slice(&x.to_le_bytes());
    }
    noise.truncate(side * side * 3);
    let content = "q 400 0 0 400 100 300 cm /Im1 Do Q BT /F1 12 Tf 72 120 Td \
                   (Client: {{Sign;type=signature;role=client;height=30}}) Tj ET";
    let objects: Vec<Vec<u8>> = vec![
        b"<< /Type /Catalog /Pages 2 0 R >>".to_vec(),
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_vec(),
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R \
           /Resources << /XObject << /Im1 5 0 R >> /Font << /F1 6 0 R >> >> >>"
            .to_vec(),
        [
            format!("<< /Length {} >>\nstream\n", content.len()).into_bytes(),
            content.as_bytes().to_vec(),
            b"\nendstream".to_vec(),
        ]
        .concat(),
        [
            format!(
                "<< /Type /XObject /Subtype /Image /Width {side} /Height {side} \
                 /ColorSpace /DeviceRGB /BitsPerComponent 8 /Length {} >>\nstream\n",
                noise.len()
            )
            .into_bytes(),
            noise,
            b"\nendstream".to_vec(),
        ]
        .concat(),
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>"
            .to_vec(),
    ];
    crate::forged::file_of(&objects)
}

/// Asks for `path` with `key` on a socket whose receive buffer is 4 KB (so the answer waits
/// in the server's send buffer, at most 4 MB, and no more), and answers the socket.
async fn asked_with_a_small_window(app: &TestApp, path: &str, key: &str) -> tokio::net::TcpStream {
    let addr: std::net::SocketAddr = app.base.trim_start_matches("http://").parse().unwrap();
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket.set_recv_buffer_size(4096).unwrap();
    let mut s = socket.connect(addr).await.unwrap();
    let head = format!("GET {path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {key}\r\n\r\n");
    s.write_all(head.as_bytes()).await.unwrap();
    s
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_reads_nothing_of_a_large_answer_is_dropped() {
    let opts = Options {
        body_timeout_secs: Some(2),
        ..Options::default()
    };
    let app = TestApp::start_with(Kind::Sqlite, opts).await.unwrap();
    let (_, key) = app.owner().await;
    // A sealed PDF of some 9 MB: more than twice what the server's send buffer may hold.
    let (status, t) =
        crate::templates::post_file(&app, &key, "Heavy", "heavy.pdf", &heavy_pdf(1_700)).await;
    assert_eq!(status, 201, "{t}");
    let d = app
        .post(
            "/api/v1/documents/send",
            &key,
            &[("Idempotency-Key", &signet_core::ids::new_id("idem"))],
            &json!({"templateId": t["id"], "parties": [
                {"seat": "client", "name": "Ada Client", "email": "ada@example.com"}]})
            .to_string(),
        )
        .await;
    assert_eq!(d.status, 201, "{}", d.body);
    let id = d.body["id"].as_str().unwrap();
    let path = format!("/api/v1/documents/{id}/signed.pdf");
    let deadline = std::time::Instant::now() + Duration::from_secs(120);
    let whole = loop {
        let _ = app
            .post(
                &format!("/api/v1/documents/{id}/test-sign"),
                &key,
                &[],
                r#"{"seat":"client"}"#,
            )
            .await;
        let r = app
            .client
            .get(format!("{}{path}", app.base))
            .bearer_auth(&key)
            .send()
            .await
            .unwrap();
        if r.status() == 200 {
            break r.bytes().await.unwrap().len();
        }
        assert!(std::time::Instant::now() < deadline, "never sealed");
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    assert!(whole > 8 << 20, "the sealed PDF is {whole} bytes");

    // Read nothing while the server writes, then see how much it had sent before it gave up.
    let mut s = asked_with_a_small_window(&app, &path, &key).await;
    tokio::time::sleep(Duration::from_secs(6)).await;
    let mut got = Vec::new();
    let read = tokio::time::timeout(Duration::from_secs(10), s.read_to_end(&mut got)).await;
    assert!(
        read.is_ok(),
        "the connection was closed rather than left waiting"
    );
    assert!(
        got.len() < whole,
        "the answer was cut off: {} bytes of {whole}",
        got.len()
    );

    // Reading a trickle (a few hundred bytes a second) is no better than reading nothing.
    let mut s = asked_with_a_small_window(&app, &path, &key).await;
    tokio::time::sleep(Duration::from_secs(1)).await;
    let mut buf = [0u8; 256];
    let mut trickled = 0;
    for _ in 0..16 {
        if let Ok(Ok(n)) = tokio::time::timeout(Duration::from_secs(1), s.read(&mut buf)).await {
            trickled += n;
        }
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
    // What the sockets still hold is read at once, then the end: the server gave up.
    let mut rest = Vec::new();
    let read = tokio::time::timeout(Duration::from_secs(10), s.read_to_end(&mut rest)).await;
    assert!(read.is_ok(), "a client reading a trickle was dropped");
    assert!(
        trickled + rest.len() < whole,
        "{} bytes of {whole}",
        trickled + rest.len()
    );
    alive(&app, &key).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_workspace_s_renders_do_not_hold_the_render_threads_for_others() {
    for kind in [Kind::Sqlite, Kind::PostgresRedis] {
        let Some(app) = TestApp::start_without_workers(kind).await else {
            continue;
        };
        let (_, hog) = app.owner().await;
        for _ in 0..20 {
            assert_eq!(
                documents::create(&app, &hog, json!({"sendNow": true}))
                    .await
                    .status,
                201
            );
        }
        let (_, other) = app.owner().await;
        let a = documents::create(&app, &other, json!({"sendNow": true})).await;
        let id = a.body["id"].as_str().unwrap().to_string();
        // One pass takes 16 jobs, oldest first, but at most 8 of one workspace: the other
        // workspace's render, queued last, is among them.
        let taken = signet_workers::pass::<signet_documents::rendering::Renders>(app.ctx())
            .await
            .unwrap();
        assert_eq!(taken, 9);
        let doc = app
            .get(&format!("/api/v1/documents/{id}"), Some(&other))
            .await;
        assert!(doc.body["pageCount"].as_i64().is_some(), "{}", doc.body);
    }
}

both!(large_answers_cost_more_of_the_budget, |app| {
    let (ws, owner) = app.owner().await;
    crate::limits::clear_of_minute_boundary(&app);
    let key = app
        .key_with(KeyCreateIn {
            per_minute: Some(30),
            ..KeyCreateIn::new(&ws, Mode::Test, Scopes::parse(["documents:read"]).unwrap())
        })
        .await;
    let people = json!([{"name": "Ada Client", "email": "ada@example.com", "role": "client"}]);
    let a = documents::create(
        &app,
        &owner,
        json!({"source": paragraphs(1_500, 80), "people": people, "variableValues": {}}),
    )
    .await;
    let id = a.body["id"].as_str().unwrap();
    // About 700 KB of words: the request and two units of 256 KiB beyond the first.
    let a = app
        .get(&format!("/api/v1/documents/{id}/source"), Some(&key))
        .await;
    assert_eq!(a.status, 200);
    let size = a.body.to_string().len() as u64;
    assert!(size > 2 * 256 * 1024, "{size}");
    let extra = size / (256 * 1024);
    assert_eq!(a.header("ratelimit-remaining"), (29 - extra).to_string());
    // A small answer costs one.
    let a = app
        .get(&format!("/api/v1/documents/{id}"), Some(&key))
        .await;
    assert_eq!(a.header("ratelimit-remaining"), (28 - extra).to_string());
});

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_operation_reads_a_bounded_amount_of_words() {
    let app = sqlite().await;
    let (_, key) = app.owner().await;
    let people = json!([{"name": "Ada Client", "email": "ada@example.com", "role": "client"}]);
    let a = documents::create(
        &app,
        &key,
        json!({"source": paragraphs(1_500, 80), "people": people, "variableValues": {}}),
    )
    .await;
    let id = a.body["id"].as_str().unwrap();
    let fields: Vec<String> = (0..20)
        .map(|i| format!("a{i}: documentSource(id: \"{id}\") {{ title source }}"))
        .collect();
    let a = gql(&app, &key, &format!("{{ {} }}", fields.join(" "))).await;
    let errors = a.body["errors"].as_array().cloned().unwrap_or_default();
    let read = (0..20)
        .filter(|i| a.body["data"][format!("a{i}")]["source"].is_object())
        .count();
    // About 690 KB each: six fit in 4 MiB, the other fourteen are refused unparsed.
    assert!((5..=6).contains(&read), "{read} read");
    assert_eq!(errors.len(), 20 - read);
    assert!(
        errors[0]["message"]
            .as_str()
            .unwrap()
            .contains("more than 4 MiB of documents' words"),
        "{}",
        errors[0]
    );
}
