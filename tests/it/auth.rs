//! Every credential failure gets the same 401 body; scopes, modes, expiry, revocation and
//! address limits are enforced; X-Forwarded-For is believed only from trusted proxies.

use crate::both;
use crate::harness::{Kind, Options, TestApp};
use signet_accounts::keys::KeyCreateIn;
use signet_core::Mode;
use signet_core::actor::Scopes;

fn key_in(ws: &str) -> KeyCreateIn {
    KeyCreateIn::new(ws, Mode::Live, Scopes::parse(["account:read"]).unwrap())
}

both!(every_credential_failure_looks_the_same, |app| {
    let (ws, good) = app.owner().await;
    let under_scoped = app.key(&ws, Mode::Test, &["documents:read"]).await;
    let revoked = app.key(&ws, Mode::Test, &["account:read"]).await;
    let revoked_id = signet_accounts::keys::list(app.ctx(), &ws).await.unwrap()[0]
        .id
        .clone();
    signet_accounts::keys::revoke(app.ctx(), &revoked_id)
        .await
        .unwrap();
    let expired = app
        .key_with(KeyCreateIn {
            expires_at: Some(signet_storage::now_ms() - 1),
            ..key_in(&ws)
        })
        .await;
    let elsewhere = app
        .key_with(KeyCreateIn {
            allow: vec!["10.20.0.0/16".parse().unwrap()],
            ..key_in(&ws)
        })
        .await;
    // The same secret under the other mode's prefix is a different, unknown key.
    let wrong_mode = good.replacen("svc_test_", "svc_live_", 1);
    let wrong_secret = format!(
        "{}{}",
        &good[..good.len() - 1],
        if good.ends_with('a') { 'b' } else { 'a' }
    );

    let reference = app.get("/api/v1/usage", None).await;
    assert_eq!(reference.status, 401);
    assert_eq!(reference.body["error"]["kind"], "unauthenticated");
    assert_eq!(reference.body["error"]["retryable"], false);
    assert_eq!(
        reference.body["error"]["requestId"],
        reference.header("request-id")
    );

    let tokens = [
        "svc_test_short".to_string(),
        "Basic abc".to_string(),
        wrong_secret,
        wrong_mode,
        under_scoped,
        revoked,
        expired,
        elsewhere,
    ];
    for token in &tokens {
        let a = app.get("/api/v1/usage", Some(token)).await;
        assert_eq!(a.status, 401, "{token}: {}", a.body);
        assert_eq!(
            a.error_without_request_id(),
            reference.error_without_request_id(),
            "{token}"
        );
        assert_ne!(
            a.body["error"]["requestId"],
            reference.body["error"]["requestId"]
        );
    }
    // A raw header that is not a bearer token at all.
    let a = app
        .send(
            app.client
                .get(format!("{}/api/v1/usage", app.base))
                .header("authorization", "Token x"),
        )
        .await;
    assert_eq!(
        a.error_without_request_id(),
        reference.error_without_request_id()
    );

    let a = app.get("/api/v1/usage", Some(&good)).await;
    assert_eq!(a.status, 200, "the good key still works: {}", a.body);
});

both!(each_route_needs_its_own_scope, |app| {
    let (ws, _) = app.owner().await;
    for (path, scope) in [
        ("/api/v1/usage", "account:read"),
        ("/api/v1/teams", "people:read"),
        ("/api/v1/payments/status", "money:read"),
        ("/api/v1/webhooks/topics", "webhooks:read"),
    ] {
        let only = app.key(&ws, Mode::Test, &[scope]).await;
        assert_eq!(
            app.get(path, Some(&only)).await.status,
            200,
            "{path} with {scope}"
        );
        let others: Vec<&str> = signet_core::Scope::ALL
            .iter()
            .map(|s| s.as_str())
            .filter(|s| *s != scope)
            .collect();
        let without = app.key(&ws, Mode::Test, &others).await;
        assert_eq!(
            app.get(path, Some(&without)).await.status,
            401,
            "{path} without {scope}"
        );
    }
});

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn forwarded_for_is_believed_only_from_trusted_proxies() {
    let app = TestApp::start(Kind::Sqlite).await.unwrap();
    let ws = app.workspace(signet_core::plans::Plan::Free).await;
    let key = app
        .key_with(KeyCreateIn {
            allow: vec!["203.0.113.0/24".parse().unwrap()],
            ..key_in(&ws)
        })
        .await;
    let call = |app: &TestApp, xff: &str| {
        app.client
            .get(format!("{}/api/v1/usage", app.base))
            .bearer_auth(&key)
            .header("x-forwarded-for", xff)
    };
    // Not a trusted proxy: the header is ignored and the socket address (127.0.0.1) is used.
    assert_eq!(app.send(call(&app, "203.0.113.7")).await.status, 401);

    let proxied = TestApp::start_with(
        Kind::Sqlite,
        Options {
            trusted_proxies: vec!["127.0.0.0/8".parse().unwrap()],
            ..Options::default()
        },
    )
    .await
    .unwrap();
    let ws = proxied.workspace(signet_core::plans::Plan::Free).await;
    let key2 = proxied
        .key_with(KeyCreateIn {
            allow: vec!["203.0.113.0/24".parse().unwrap()],
            ..key_in(&ws)
        })
        .await;
    let call2 = |xff: &str| {
        proxied
            .client
            .get(format!("{}/api/v1/usage", proxied.base))
            .bearer_auth(&key2)
            .header("x-forwarded-for", xff)
    };
    assert_eq!(proxied.send(call2("203.0.113.7")).await.status, 200);
    // The rightmost untrusted address counts: a client cannot prepend an allowed one.
    assert_eq!(
        proxied
            .send(call2("203.0.113.7, 198.51.100.1"))
            .await
            .status,
        401
    );
    assert_eq!(
        proxied
            .send(call2("198.51.100.1, 203.0.113.7, 127.0.0.1"))
            .await
            .status,
        200
    );
}
