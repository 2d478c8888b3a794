//! Per-minute budgets: per key, 429 with Retry-After when over, shared by every server
//! process through Redis.

use crate::both;
use crate::harness::{Kind, TestApp};
use signet_accounts::keys::KeyCreateIn;
use signet_core::Mode;
use signet_core::actor::Scopes;

/// Budgets are counted per UTC minute: the app's budget clock is stopped a second into the
/// current one, so a burst cannot straddle two (and nothing waits for a minute to turn).
pub(crate) fn clear_of_minute_boundary(app: &crate::harness::TestApp) {
    let now = signet_storage::now_ms();
    app.ctx().budget.clock().set_ms(now - now % 60_000 + 1_000);
}

fn limited(ws: &str, per_minute: u64) -> KeyCreateIn {
    KeyCreateIn {
        per_minute: Some(per_minute),
        ..KeyCreateIn::new(ws, Mode::Test, Scopes::parse(["account:read"]).unwrap())
    }
}

both!(over_budget_is_429_with_retry_after, |app| {
    let (ws, _) = app.owner().await;
    let key = app.key_with(limited(&ws, 5)).await;
    let other = app.key_with(limited(&ws, 5)).await;
    clear_of_minute_boundary(&app);
    for expected_remaining in (0..5).rev() {
        let a = app.get("/api/v1/usage", Some(&key)).await;
        assert_eq!(a.status, 200);
        assert_eq!(a.header("ratelimit-limit"), "5");
        assert_eq!(
            a.header("ratelimit-remaining"),
            expected_remaining.to_string()
        );
    }
    let a = app.get("/api/v1/usage", Some(&key)).await;
    assert_eq!(a.status, 429);
    assert_eq!(a.body["error"]["kind"], "rate_limited");
    assert_eq!(a.body["error"]["retryable"], true);
    let retry: u64 = a.header("retry-after").parse().unwrap();
    assert!((1..=60).contains(&retry));
    assert_eq!(a.header("ratelimit-remaining"), "0");
    // Budgets are per key.
    assert_eq!(app.get("/api/v1/usage", Some(&other)).await.status, 200);
});

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_processes_share_one_budget_through_redis() {
    let Some(app) = TestApp::start(Kind::PostgresRedis).await else {
        return;
    };
    let (ws, _) = app.owner().await;
    let key = app.key_with(limited(&ws, 6)).await;
    let (_a, base_a) = crate::harness::spawn_server(&app);
    let (_b, base_b) = crate::harness::spawn_server(&app);
    let client = reqwest::Client::new();
    clear_of_minute_boundary(&app);
    let mut statuses = vec![];
    for i in 0..8 {
        let base = if i % 2 == 0 { &base_a } else { &base_b };
        let res = client
            .get(format!("{base}/api/v1/usage"))
            .bearer_auth(&key)
            .send()
            .await
            .unwrap();
        statuses.push(res.status().as_u16());
    }
    // Six fit in the shared budget, although each process alone saw only four requests.
    assert_eq!(statuses, vec![200, 200, 200, 200, 200, 200, 429, 429]);
}
