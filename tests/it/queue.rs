//! The one queue's dispatch through Redis (the scale-out set): jobs are rows written in the
//! change's transaction, and Redis says which are due. What Redis loses is found again from
//! the rows; what it holds wrongly is put right by the claim; an ended pass leaves nothing in
//! Redis. On the embedded default the same passes run on SQL alone.

use redis::AsyncCommands;
use serde_json::json;
use signet_documents::rendering::Renders;
use signet_storage::sea_orm::ConnectionTrait;
use signet_storage::sea_orm::Value as Sql;

use crate::documents::create;
use crate::harness::{Kind, TestApp};

/// The Redis set of `kind`'s due jobs, as its ids with their times.
async fn filed(app: &TestApp, kind: &str) -> Vec<(String, f64)> {
    let client = redis::Client::open(app.redis_url.clone().unwrap()).unwrap();
    let mut conn = client.get_multiplexed_async_connection().await.unwrap();
    conn.zrange_withscores(format!("{}queue:{kind}", app.redis_prefix), 0, -1)
        .await
        .unwrap()
}

async fn forget_all(app: &TestApp, kind: &str) {
    let client = redis::Client::open(app.redis_url.clone().unwrap()).unwrap();
    let mut conn = client.get_multiplexed_async_connection().await.unwrap();
    let _: () = conn
        .del(format!("{}queue:{kind}", app.redis_prefix))
        .await
        .unwrap();
}

async fn render_state(app: &TestApp, id: &str) -> String {
    let db = &app.ctx().db;
    let row = db
        .conn
        .query_one_raw(db.stmt(
            "SELECT state FROM outbox WHERE document_id = $1 AND kind = 'render'",
            [Sql::from(id.to_string())],
        ))
        .await
        .unwrap()
        .unwrap();
    row.try_get("", "state").unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_job_redis_lost_is_found_again_from_its_row() {
    let Some(app) = TestApp::start_without_workers(Kind::PostgresRedis).await else {
        return;
    };
    let (_, key) = app.owner().await;
    let ctx = app.ctx();
    let made = create(&app, &key, json!({"sendNow": true})).await;
    assert_eq!(made.status, 201, "{:?}", made.body);
    let id = made.body["id"].as_str().unwrap().to_string();
    // The send's commit filed its render job in Redis.
    let render = filed(&app, "render").await;
    assert_eq!(render.len(), 1, "{render:?}");

    // Redis loses it (a restart, a process that died before telling it): no pass finds it.
    forget_all(&app, "render").await;
    assert_eq!(signet_workers::pass::<Renders>(ctx).await.unwrap(), 0);
    assert_eq!(render_state(&app, &id).await, "queued");

    // The runner's sweep files the row again, and the next pass takes it.
    assert_eq!(ctx.queue.sweep("render").await.unwrap(), 1);
    assert_eq!(signet_workers::pass::<Renders>(ctx).await.unwrap(), 1);
    assert_eq!(render_state(&app, &id).await, "done");
    // An ended job leaves nothing in Redis.
    assert_eq!(filed(&app, "render").await, vec![]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn what_redis_holds_wrongly_is_put_right_by_the_claim() {
    let Some(app) = TestApp::start_without_workers(Kind::PostgresRedis).await else {
        return;
    };
    let (_, key) = app.owner().await;
    let ctx = app.ctx();
    let made = create(&app, &key, json!({"sendNow": true})).await;
    let id = made.body["id"].as_str().unwrap().to_string();
    let client = redis::Client::open(app.redis_url.clone().unwrap()).unwrap();
    let mut conn = client.get_multiplexed_async_connection().await.unwrap();
    let set = format!("{}queue:render", app.redis_prefix);
    // A stray id with no row, and the real job filed as due while its row waits an hour (a
    // retry whose new time Redis never heard of).
    let _: () = conn.zadd(&set, "job_stray", 0).await.unwrap();
    let later = signet_storage::now_ms() + 3_600_000;
    let db = &ctx.db;
    db.write(db.stmt(
        "UPDATE outbox SET run_at = $2 WHERE document_id = $1 AND kind = 'render'",
        [Sql::from(id.clone()), Sql::from(later)],
    ))
    .await
    .unwrap();
    // Nothing is due: the pass takes nothing, drops the stray and files the job at its time.
    assert_eq!(signet_workers::pass::<Renders>(ctx).await.unwrap(), 0);
    let now = filed(&app, "render").await;
    assert_eq!(now.len(), 1, "{now:?}");
    assert_eq!(now[0].1 as i64, later);
    assert_eq!(render_state(&app, &id).await, "queued");
}
