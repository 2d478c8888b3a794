//! GraphQL over HTTP and websockets, with the same keys, scopes and error kinds as REST.

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

use crate::both;
use crate::documents;
use crate::harness::{Answer, TestApp};
use signet_core::Mode;
use signet_storage::sea_orm::ConnectionTrait;

both!(queries_share_resolvers_and_error_kinds_with_rest, |app| {
    let (ws, key) = app.owner().await;
    let q = json!({"query": "{ usage { plan documents { used limit } } paymentsStatus { status feePercent } webhookTopics { topics { name } } teams { teams { name } } }"});
    let a = app.post("/graphql", &key, &[], &q.to_string()).await;
    assert_eq!(a.status, 200, "{}", a.body);
    assert!(a.body["errors"].is_null(), "{}", a.body);
    let rest = app.get("/api/v1/usage", Some(&key)).await;
    assert_eq!(
        a.body["data"]["usage"]["documents"]["limit"],
        rest.body["documents"]["limit"]
    );
    assert_eq!(a.body["data"]["paymentsStatus"]["status"], "not_connected");
    assert_eq!(
        a.body["data"]["webhookTopics"]["topics"]
            .as_array()
            .unwrap()
            .len(),
        8
    );
    assert!(a.header("request-id").starts_with("req_"));
    assert_eq!(a.header("service-version"), "2026-10-07");

    let narrow = app.key(&ws, Mode::Test, &["account:read"]).await;
    let a = app.post("/graphql", &narrow, &[], &q.to_string()).await;
    assert_eq!(a.body["data"]["usage"]["plan"], "free");
    let kinds: Vec<&str> = a.body["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["extensions"]["kind"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, vec!["unauthenticated"; 3], "{}", a.body);

    let a = app
        .post("/graphql", "svc_test_nope", &[], &q.to_string())
        .await;
    assert_eq!(a.status, 401);
    assert_eq!(a.body["error"]["kind"], "unauthenticated");
});

pub type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// Opens a graphql-transport-ws socket on `base` and sends `connection_init` with `payload`.
pub async fn connect(base: &str, payload: Value) -> Socket {
    let url = format!("{}/graphql/ws", base.replacen("http", "ws", 1));
    let mut req = url.into_client_request().unwrap();
    req.headers_mut().insert(
        "sec-websocket-protocol",
        "graphql-transport-ws".parse().unwrap(),
    );
    let (mut socket, _) = tokio_tungstenite::connect_async(req).await.unwrap();
    socket
        .send(Message::Text(
            json!({"type": "connection_init", "payload": payload})
                .to_string()
                .into(),
        ))
        .await
        .unwrap();
    socket
}

async fn init(base: &str, payload: Value) -> Option<Value> {
    let mut socket = connect(base, payload).await;
    let next = tokio::time::timeout(std::time::Duration::from_secs(5), socket.next())
        .await
        .ok()??;
    match next.ok()? {
        Message::Text(t) => serde_json::from_str(&t).ok(),
        _ => None,
    }
}

both!(websocket_authenticates_in_connection_init, |app| {
    let (_, key) = app.owner().await;
    let ack = init(&app.base, json!({"Authorization": format!("Bearer {key}")})).await;
    assert_eq!(ack.unwrap()["type"], "connection_ack");
    let refused = init(&app.base, json!({"Authorization": "Bearer svc_test_wrong"})).await;
    assert!(
        refused.is_none_or(|m| m["type"] != "connection_ack"),
        "a wrong key is not acknowledged"
    );
    let refused = init(&app.base, json!({})).await;
    assert!(refused.is_none_or(|m| m["type"] != "connection_ack"));
});

/// Sends one GraphQL operation with its variables.
async fn gql(app: &TestApp, key: &str, query: &str, vars: Value) -> Answer {
    let body = json!({"query": query, "variables": vars}).to_string();
    app.post("/graphql", key, &[], &body).await
}

/// The `data` of an answer that must have no errors.
pub(crate) fn data(a: &Answer) -> &Value {
    assert_eq!(a.status, 200, "{}", a.body);
    assert!(a.body["errors"].is_null(), "{}", a.body);
    &a.body["data"]
}

/// The error kind of an answer that must have failed.
pub(crate) fn kind(a: &Answer) -> &str {
    a.body["errors"][0]["extensions"]["kind"]
        .as_str()
        .unwrap_or_else(|| panic!("no error in {}", a.body))
}

/// Asserts the answer is an `invalid` error whose message begins with the field it names.
pub(crate) fn invalid_naming(a: &Answer, field: &str, what: &dyn std::fmt::Display) {
    assert_eq!(kind(a), "invalid", "{what}: {}", a.body);
    let message = a.body["errors"][0]["message"].as_str().unwrap_or_default();
    assert!(message.starts_with(field), "{what}: {message}");
}

const DOC: &str = "id state approval { id state } people { seat status }";

/// A document as GraphQL's `document` query answers it.
async fn read(app: &TestApp, key: &str, id: &str) -> Value {
    let q = format!("query($id: String!) {{ document(id: $id) {{ {DOC} }} }}");
    let a = gql(app, key, &q, json!({"id": id})).await;
    data(&a)["document"].clone()
}

both!(
    documents_are_checked_read_revised_and_reminded_over_graphql,
    |app| {
        let (_, key) = app.owner().await;
        // checkDocument tells what POST /documents/check tells, with the same paths.
        let c = gql(
            &app,
            &key,
            "query($i: DocumentCheckInput!) { checkDocument(input: $i) { ok problems { path message } roles } }",
            json!({"i": {"source": documents::source(),
               "people": [{"name": "Ada", "email": "ada@example.com", "role": "client"}]}}),
        )
        .await;
        let c = &data(&c)["checkDocument"];
        assert_eq!(c["ok"], false);
        assert_eq!(c["roles"], json!(["client", "provider"]));
        assert!(
            c["problems"].as_array().unwrap().iter().any(|p| {
                p["path"] == "source.content[7].attrs.role"
                    && p["message"]
                        .as_str()
                        .unwrap()
                        .contains("unknown role 'provider'")
            }),
            "{c}"
        );

        let input: Value = serde_json::from_str(&documents::body(json!({}))).unwrap();
        let made = gql(
            &app,
            &key,
            &format!(
                "mutation($i: DocumentCreateInput!) {{ createDocument(input: $i) {{ {DOC} }} }}"
            ),
            json!({"i": input}),
        )
        .await;
        let id = data(&made)["createDocument"]["id"]
            .as_str()
            .unwrap()
            .to_string();
        let read = gql(
            &app,
            &key,
            "query($id: String!) { document(id: $id) { state title externalId } \
         documentSource(id: $id) { title people variableValues } }",
            json!({"id": id}),
        )
        .await;
        let read = data(&read);
        assert_eq!(read["document"]["state"], "draft");
        assert_eq!(read["document"]["externalId"], "deal-42");
        assert_eq!(read["documentSource"]["title"], "Services agreement");
        assert_eq!(
            read["documentSource"]["people"][1]["email"],
            "bob@example.com"
        );
        assert_eq!(read["documentSource"]["variableValues"]["fee"], "1,000 EUR");

        // reviseDocument: a new id, the old draft gone.
        let rev = gql(
        &app,
        &key,
        &format!("mutation($id: String!, $i: DocumentReviseInput!) {{ reviseDocument(id: $id, input: $i) {{ {DOC} }} }}"),
        json!({"id": id, "i": {"source": documents::source(), "variableValues": {"fee": "2,000 EUR"}}}),
    )
    .await;
        let new_id = data(&rev)["reviseDocument"]["id"]
            .as_str()
            .unwrap()
            .to_string();
        assert_ne!(new_id, id);
        let gone = gql(
            &app,
            &key,
            "query($id: String!) { document(id: $id) { id } }",
            json!({"id": id}),
        )
        .await;
        assert_eq!(kind(&gone), "not_found");
        let fee = gql(
            &app,
            &key,
            "query($id: String!) { documentSource(id: $id) { variableValues } }",
            json!({"id": new_id}),
        )
        .await;
        assert_eq!(
            data(&fee)["documentSource"]["variableValues"]["fee"],
            "2,000 EUR"
        );

        // remindDocument: refused while nobody waits, then queues reminders once sent.
        let remind = format!(
            "mutation($id: String!, $seat: String) {{ remindDocument(id: $id, seat: $seat) {{ {DOC} }} }}"
        );
        let early = gql(&app, &key, &remind, json!({"id": new_id})).await;
        assert_eq!(kind(&early), "conflict", "{}", early.body);
        let sent = gql(
            &app,
            &key,
            &format!("mutation($id: String!) {{ sendDocument(id: $id) {{ {DOC} }} }}"),
            json!({"id": new_id}),
        )
        .await;
        assert_eq!(data(&sent)["sendDocument"]["state"], "sent");
        let r = gql(
            &app,
            &key,
            &remind,
            json!({"id": new_id, "seat": "provider"}),
        )
        .await;
        assert_eq!(data(&r)["remindDocument"]["state"], "sent");
        let r = gql(&app, &key, &remind, json!({"id": new_id})).await;
        data(&r);
        let nobody = gql(&app, &key, &remind, json!({"id": new_id, "seat": "nobody"})).await;
        assert_eq!(kind(&nobody), "invalid");
        let mut reminded = documents::emails(&documents::outbox(&app, &new_id).await, "reminder");
        reminded.sort();
        // Everyone waiting, less the provider reminded a moment before: once an hour a person.
        assert_eq!(reminded, ["client", "provider"]);
    }
);

both!(
    a_person_decides_approvals_over_graphql_with_a_key_that_may_send,
    |app| {
        let (ws, owner) = app.owner().await;
        let mut input = signet_accounts::keys::KeyCreateIn::new(
            &ws,
            Mode::Test,
            signet_core::actor::Scopes::parse(["documents:read", "documents:write"]).unwrap(),
        );
        input.draft_only = true;
        let drafter = app.key_with(input).await;
        let body: Value = serde_json::from_str(&documents::body(json!({}))).unwrap();
        let create_and_send = async |key: &str| {
            let made = gql(
                &app,
                key,
                "mutation($i: DocumentCreateInput!) { createDocument(input: $i) { id } }",
                json!({"i": body}),
            )
            .await;
            let id = data(&made)["createDocument"]["id"]
                .as_str()
                .unwrap()
                .to_string();
            let asked = gql(
                &app,
                key,
                &format!("mutation($id: String!) {{ sendDocument(id: $id) {{ {DOC} }} }}"),
                json!({"id": id}),
            )
            .await;
            let doc = data(&asked)["sendDocument"].clone();
            assert_eq!(doc["state"], "draft");
            assert_eq!(doc["approval"]["state"], "pending");
            (id, doc["approval"]["id"].as_str().unwrap().to_string())
        };
        let (id, apr) = create_and_send(&drafter).await;
        let approve = "mutation($a: String!, $by: String!) { approveSend(approvalId: $a, by: $by) { id documentId state decidedAt } }";
        let decline = "mutation($a: String!, $by: String!, $note: String) { declineSend(approvalId: $a, by: $by, note: $note) { id state note } }";
        let list = "query($s: String, $limit: Int, $cursor: String) { approvals(state: $s, limit: $limit, cursor: $cursor) { data { id documentId state note } page { nextCursor } } }";

        // The approval is listed for keys of its workspace and mode only.
        let pending = gql(&app, &owner, list, json!({"s": "pending"})).await;
        assert_eq!(
            data(&pending)["approvals"]["data"],
            json!([{"id": apr, "documentId": id, "state": "pending", "note": null}])
        );
        let live = app
            .key(&ws, Mode::Live, &["documents:read", "documents:write"])
            .await;
        let other_mode = gql(&app, &live, list, json!({})).await;
        assert_eq!(data(&other_mode)["approvals"]["data"], json!([]));
        let (_, stranger) = app.owner().await;
        let elsewhere = gql(&app, &stranger, list, json!({})).await;
        assert_eq!(data(&elsewhere)["approvals"]["data"], json!([]));
        let bogus = gql(&app, &owner, list, json!({"s": "maybe"})).await;
        assert_eq!(kind(&bogus), "invalid");

        // The key that asked cannot approve its own send; nor can a key of another workspace or
        // mode see the approval; and the person deciding must be named.
        let own = gql(
            &app,
            &drafter,
            approve,
            json!({"a": apr, "by": "Dee Drafter"}),
        )
        .await;
        assert_eq!(kind(&own), "forbidden", "{}", own.body);
        for k in [&stranger, &live] {
            let hidden = gql(&app, k, approve, json!({"a": apr, "by": "Eve"})).await;
            assert_eq!(kind(&hidden), "not_found", "{}", hidden.body);
        }
        let nameless = gql(&app, &owner, approve, json!({"a": apr, "by": "  "})).await;
        assert_eq!(kind(&nameless), "invalid");
        let still = read(&app, &owner, &id).await;
        assert_eq!(
            still["state"], "draft",
            "nothing was sent by a refused decision"
        );

        // A person approves through a key that may send: the document is sent, and the trail
        // names the person and the key.
        let ok = gql(
            &app,
            &owner,
            approve,
            json!({"a": apr, "by": "Olive Owner"}),
        )
        .await;
        let ok = &data(&ok)["approveSend"];
        assert_eq!(ok["state"], "approved");
        assert!(ok["decidedAt"].is_string());
        let doc = read(&app, &owner, &id).await;
        assert_eq!(doc["state"], "sent");
        assert!(doc["approval"].is_null());
        let mut invited = documents::emails(&documents::outbox(&app, &id).await, "invitation");
        invited.sort();
        assert_eq!(
            invited,
            ["client", "provider"],
            "the signers are invited once approved"
        );
        let db = &app.ctx().db;
        let actors: Vec<String> = db
            .conn
            .query_all_raw(db.stmt(
                "SELECT actor FROM audit_events WHERE document_id = $1 AND event = 'sent'",
                [signet_storage::sea_orm::Value::from(id.as_str())],
            ))
            .await
            .unwrap()
            .iter()
            .map(|r| r.try_get("", "actor").unwrap())
            .collect();
        assert_eq!(actors.len(), 1);
        assert!(
            actors[0].starts_with("person:Olive Owner via key_"),
            "{actors:?}"
        );
        let twice = gql(
            &app,
            &owner,
            decline,
            json!({"a": apr, "by": "Olive Owner"}),
        )
        .await;
        assert_eq!(kind(&twice), "conflict");

        // Declining leaves the draft as it was, with the note.
        let (id2, apr2) = create_and_send(&drafter).await;
        let no = gql(
            &app,
            &owner,
            decline,
            json!({"a": apr2, "by": "Olive Owner", "note": "wrong fee"}),
        )
        .await;
        assert_eq!(
            data(&no)["declineSend"],
            json!({"id": apr2, "state": "declined", "note": "wrong fee"})
        );
        let doc = read(&app, &owner, &id2).await;
        assert_eq!(doc["state"], "draft");
        assert!(doc["approval"].is_null());
        assert!(
            documents::outbox(&app, &id2)
                .await
                .iter()
                .all(|j| j.0 != "email")
        );
        let declined = gql(&app, &owner, list, json!({"s": "declined"})).await;
        assert_eq!(data(&declined)["approvals"]["data"][0]["id"], apr2.as_str());

        // Pages, newest first.
        let first = gql(&app, &owner, list, json!({"limit": 1})).await;
        let first = &data(&first)["approvals"];
        assert_eq!(first["data"][0]["id"], apr2.as_str());
        let cursor = first["page"]["nextCursor"].as_str().unwrap();
        let second = gql(&app, &owner, list, json!({"limit": 1, "cursor": cursor})).await;
        assert_eq!(data(&second)["approvals"]["data"][0]["id"], apr.as_str());
        assert!(data(&second)["approvals"]["page"]["nextCursor"].is_null());

        // Approving sends as the deciding key: it spends that key's daily allowance.
        let mut limited = signet_accounts::keys::KeyCreateIn::new(
            &ws,
            Mode::Test,
            signet_core::actor::Scopes::parse(["documents:read", "documents:write"]).unwrap(),
        );
        limited.daily_limit = Some(1);
        let limited = app.key_with(limited).await;
        let (_, apr3) = create_and_send(&drafter).await;
        let (id4, apr4) = create_and_send(&drafter).await;
        // A refused decision spends nothing: the approval already approved is a conflict,
        // and the key's one send is still there for the next approval.
        let late = gql(&app, &limited, approve, json!({"a": apr, "by": "Lee"})).await;
        assert_eq!(kind(&late), "conflict", "{}", late.body);
        let third = gql(&app, &limited, approve, json!({"a": apr3, "by": "Lee"})).await;
        assert_eq!(data(&third)["approveSend"]["state"], "approved");
        let fourth = gql(&app, &limited, approve, json!({"a": apr4, "by": "Lee"})).await;
        assert_eq!(kind(&fourth), "rate_limited", "{}", fourth.body);
        assert_eq!(read(&app, &owner, &id4).await["state"], "draft");
        let control = gql(&app, &owner, approve, json!({"a": apr4, "by": "Lee\nDrop"})).await;
        assert_eq!(kind(&control), "invalid", "{}", control.body);
    }
);
