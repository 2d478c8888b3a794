//! GraphQL over the document routes' resolvers, and `subscription documentStatus` pushing each
//! change: in one process, and from one `signet serve` process to a subscriber on another
//! through Redis.

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;

use crate::both;
use crate::documents::{body, create};
use crate::graphql::{Socket, connect};
use crate::harness::{Kind, TestApp};

/// A socket on `base`, acknowledged, subscribed to document `id`.
async fn subscribe(base: &str, key: &str, id: &str) -> Socket {
    let mut socket = connect(base, json!({"Authorization": format!("Bearer {key}")})).await;
    assert_eq!(next(&mut socket).await["type"], "connection_ack");
    let subscribe = json!({"id": "1", "type": "subscribe", "payload": {
        "query": "subscription($id: String!) { documentStatus(id: $id) { id state people { seat status } } }",
        "variables": {"id": id}
    }});
    socket
        .send(Message::Text(subscribe.to_string().into()))
        .await
        .unwrap();
    socket
}

async fn next(socket: &mut Socket) -> Value {
    loop {
        let msg = tokio::time::timeout(std::time::Duration::from_secs(10), socket.next())
            .await
            .expect("a message within 10 s")
            .expect("socket open")
            .expect("frame");
        if let Message::Text(t) = msg {
            return serde_json::from_str(&t).unwrap();
        }
    }
}

/// The next document the subscription pushes.
async fn pushed(socket: &mut Socket) -> Value {
    let m = next(socket).await;
    assert_eq!(m["type"], "next", "{m}");
    m["payload"]["data"]["documentStatus"].clone()
}

fn seat<'a>(doc: &'a Value, seat: &str) -> &'a str {
    doc["people"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["seat"] == seat)
        .unwrap()["status"]
        .as_str()
        .unwrap()
}

both!(
    graphql_drives_the_lifecycle_and_the_subscription_sees_each_change,
    |app| {
        let (_, key) = app.owner().await;
        let input: Value =
            serde_json::from_str(&body(json!({"send": {"signingOrder": true}}))).unwrap();
        let q = json!({
            "query": "mutation($input: DocumentCreateInput!) { createDocument(input: $input) { id state test people { seat status } } }",
            "variables": {"input": input}
        });
        let made = app.post("/graphql", &key, &[], &q.to_string()).await;
        let doc = &made.body["data"]["createDocument"];
        assert_eq!(doc["state"], "draft", "{}", made.body);
        let id = doc["id"].as_str().unwrap().to_string();

        let mut socket = subscribe(&app.base, &key, &id).await;
        assert_eq!(
            pushed(&mut socket).await["state"],
            "draft",
            "the document as it is now comes first"
        );

        let sent = app
            .post(
                "/graphql",
                &key,
                &[],
                &json!({"query": format!("mutation {{ sendDocument(id: \"{id}\") {{ state }} }}")})
                    .to_string(),
            )
            .await;
        assert_eq!(
            sent.body["data"]["sendDocument"]["state"], "sent",
            "{}",
            sent.body
        );
        let now = pushed(&mut socket).await;
        assert_eq!(now["state"], "sent");
        assert_eq!(seat(&now, "client"), "invited");

        let signed = app.post("/graphql", &key, &[], &json!({"query": format!("mutation {{ testSignDocument(id: \"{id}\", seat: \"client\") {{ state }} }}")}).to_string()).await;
        assert_eq!(
            signed.body["data"]["testSignDocument"]["state"], "signed",
            "{}",
            signed.body
        );
        let now = pushed(&mut socket).await;
        assert_eq!(seat(&now, "client"), "signed");
        assert_eq!(seat(&now, "provider"), "invited");

        // Errors carry the REST kinds; bad input names the field under `input`.
        let bad = app.post("/graphql", &key, &[], &json!({
        "query": "mutation($input: DocumentCreateInput!) { createDocument(input: $input) { id } }",
        "variables": {"input": {"title": "x", "source": {}, "people": [], "paper": "legal"}}
    }).to_string()).await;
        assert_eq!(
            bad.body["errors"][0]["extensions"]["kind"], "invalid",
            "{}",
            bad.body
        );
        // A field the input object does not have, or a value of the wrong type, is refused by
        // GraphQL itself before the resolver runs: still `invalid`, naming the field.
        for input in [
            json!({"title": "x", "source": {}, "people": [], "colour": "red"}),
            json!({"title": 7, "source": {}, "people": []}),
        ] {
            let odd = app.post("/graphql", &key, &[], &json!({
                "query": "mutation($input: DocumentCreateInput!) { createDocument(input: $input) { id } }",
                "variables": {"input": input}
            }).to_string()).await;
            let e = &odd.body["errors"][0];
            assert_eq!(e["extensions"]["kind"], "invalid", "{}", odd.body);
            let message = e["message"].as_str().unwrap();
            assert!(
                message.contains("colour") || message.contains("title"),
                "{message}"
            );
        }
        let again = app.post("/graphql", &key, &[], &json!({"query": format!("mutation {{ voidDocument(id: \"{id}\") {{ state }} }} ")}).to_string()).await;
        assert_eq!(
            again.body["data"]["voidDocument"]["state"], "voided",
            "{}",
            again.body
        );
        assert_eq!(pushed(&mut socket).await["state"], "voided");
        let twice = app.post("/graphql", &key, &[], &json!({"query": format!("mutation {{ voidDocument(id: \"{id}\") {{ state }} }} ")}).to_string()).await;
        assert_eq!(twice.body["errors"][0]["extensions"]["kind"], "conflict");
        let list = app.post("/graphql", &key, &[], &json!({"query": "{ documents(state: \"voided\") { data { id } page { nextCursor } } }"}).to_string()).await;
        assert_eq!(
            list.body["data"]["documents"]["data"][0]["id"],
            id.as_str(),
            "{}",
            list.body
        );
    }
);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_change_in_one_process_reaches_a_subscriber_on_another() {
    let Some(app) = TestApp::start(Kind::PostgresRedis).await else {
        return;
    };
    let (_, key) = app.owner().await;
    let id = create(&app, &key, json!({})).await.body["id"]
        .as_str()
        .unwrap()
        .to_string();
    let (_other, other_base) = crate::harness::spawn_server(&app);
    let mut socket = subscribe(&other_base, &key, &id).await;
    assert_eq!(pushed(&mut socket).await["state"], "draft");
    // The change is made through this process; the subscriber sits on the other one.
    let sent = app
        .post(
            &format!("/api/v1/documents/{id}/send"),
            &key,
            &[("idempotency-key", "live-test-send-1")],
            "",
        )
        .await;
    assert_eq!(sent.status, 201, "{}", sent.body);
    assert_eq!(pushed(&mut socket).await["state"], "sent");
}
