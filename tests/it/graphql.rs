//! GraphQL over HTTP and websockets, with the same keys, scopes and error kinds as REST.

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

use crate::both;
use signet_resolvers::Mode;

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
        7
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
