//! The signing page's pictures: a job of their own after the render, which the invitations
//! wait for and sealing does not.

use serde_json::{Value, json};
use signet_documents::blob_keys::{image_key, index_key, text_key};
use signet_documents::rendering;
use signet_storage::sea_orm::ConnectionTrait;
use signet_storage::sea_orm::Value as Sql;

use crate::documents::create;
use crate::harness::{Kind, TestApp};

/// Words enough for a few pages, signed by the default body's two seats.
fn pages_of_words(paragraphs: usize) -> Value {
    let p = json!({"type": "paragraph", "content": [{"type": "text", "text":
        "The provider delivers the services described here with due care and skill, and \
         the client pays each invoice within thirty days of receiving it."}]});
    let mut content = vec![p; paragraphs];
    for role in ["client", "provider"] {
        content.push(json!({"type": "signatureBlock", "attrs": {"role": role}}));
    }
    json!({"type": "doc", "content": content})
}

/// When each of the document's invitation emails is due (`i64::MAX`: held).
async fn invitations_due(app: &TestApp, id: &str) -> Vec<i64> {
    let db = &app.ctx().db;
    db.conn
        .query_all_raw(db.stmt(
            "SELECT run_at FROM outbox WHERE document_id = $1 AND kind = 'email' \
             AND payload LIKE '%invitation%' AND state = 'queued'",
            [Sql::from(id.to_string())],
        ))
        .await
        .unwrap()
        .iter()
        .map(|r| r.try_get::<i64>("", "run_at").unwrap())
        .collect()
}

async fn rendered_file(app: &TestApp, id: &str) -> String {
    let db = &app.ctx().db;
    db.conn
        .query_one_raw(db.stmt(
            "SELECT pdf_blob FROM documents WHERE id = $1",
            [Sql::from(id.to_string())],
        ))
        .await
        .unwrap()
        .unwrap()
        .try_get("", "pdf_blob")
        .unwrap()
}

async fn pictures_pass(app: &TestApp) -> usize {
    signet_workers::pass::<signet_documents::pictures::Pictures>(app.ctx())
        .await
        .unwrap()
}

/// The render stores the file and the pages' text and queues the pictures; the invitations
/// stay held until every page has its pictures. A page an earlier try drew is not drawn
/// again; the page index comes last and the kept text goes into it.
async fn invitations_wait_for_the_pictures(kind: Kind) {
    let Some(app) = TestApp::start_without_workers(kind).await else {
        return;
    };
    let (_, key) = app.owner().await;
    let ctx = app.ctx();
    let made = create(
        &app,
        &key,
        json!({"sendNow": true, "source": pages_of_words(60)}),
    )
    .await;
    assert_eq!(made.status, 201, "{}", made.body);
    let id = made.body["id"].as_str().unwrap().to_string();

    assert_eq!(
        signet_workers::pass::<rendering::Renders>(ctx)
            .await
            .unwrap(),
        1
    );
    let shown = app
        .get(&format!("/api/v1/documents/{id}"), Some(&key))
        .await;
    let pages = shown.body["pageCount"].as_i64().unwrap() as usize;
    assert!(pages >= 2, "{}", shown.body);
    let blob = rendered_file(&app, &id).await;
    assert!(ctx.blobs.get(&index_key(&blob)).await.unwrap().is_none());
    let text = ctx.blobs.get(&text_key(&blob)).await.unwrap().unwrap();
    let text: Vec<Value> = serde_json::from_slice(&text).unwrap();
    assert_eq!(text.len(), pages, "the render kept each page's text");
    let due = invitations_due(&app, &id).await;
    assert!(
        !due.is_empty() && due.iter().all(|&at| at == i64::MAX),
        "the invitations wait for the pictures: {due:?}"
    );

    // An earlier try drew the first page and died.
    let earlier = b"drawn by an earlier try".to_vec();
    for width in [750, 1500] {
        ctx.blobs
            .put(&image_key(&blob, 1, width), earlier.clone())
            .await
            .unwrap();
    }
    assert_eq!(pictures_pass(&app).await, 1);
    assert_eq!(pictures_pass(&app).await, 0, "the job ended");
    for width in [750, 1500] {
        assert_eq!(
            ctx.blobs
                .get(&image_key(&blob, 1, width))
                .await
                .unwrap()
                .unwrap(),
            earlier,
            "not drawn again"
        );
        for page in 2..=pages {
            let png = ctx
                .blobs
                .get(&image_key(&blob, page, width))
                .await
                .unwrap()
                .unwrap();
            let (w, _) = png_size(&png);
            assert_eq!(w, width, "page {page}");
        }
    }
    let index = ctx.blobs.get(&index_key(&blob)).await.unwrap().unwrap();
    let index: Value = serde_json::from_slice(&index).unwrap();
    assert_eq!(index["widths"], json!([750, 1500]));
    assert_eq!(index["pages"].as_array().unwrap().len(), pages);
    assert_eq!(index["pages"][1]["text"], text[1], "the kept text");
    assert!(
        index["pages"][0]["text"]
            .to_string()
            .contains("The provider delivers"),
        "{}",
        index["pages"][0]
    );
    assert!(
        ctx.blobs.get(&text_key(&blob)).await.unwrap().is_none(),
        "the kept text went into the index"
    );
    let due = invitations_due(&app, &id).await;
    assert!(
        !due.is_empty() && due.iter().all(|&at| at < i64::MAX),
        "the invitations go out: {due:?}"
    );
}

fn png_size(png: &[u8]) -> (u32, u32) {
    assert_eq!(&png[1..4], b"PNG");
    let be = |at: usize| u32::from_be_bytes(png[at..at + 4].try_into().unwrap());
    (be(16), be(20))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn invitations_wait_for_the_pictures_sqlite() {
    invitations_wait_for_the_pictures(Kind::Sqlite).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn invitations_wait_for_the_pictures_postgres_redis() {
    invitations_wait_for_the_pictures(Kind::PostgresRedis).await;
}

/// A rendered file whose pages cannot be drawn: the document is voided with the reason and
/// nobody is invited to pages that cannot be shown.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pages_that_cannot_be_drawn_void_the_document() {
    let app = TestApp::start_without_workers(Kind::Sqlite).await.unwrap();
    let (_, key) = app.owner().await;
    let ctx = app.ctx();
    let made = create(&app, &key, json!({"sendNow": true})).await;
    let id = made.body["id"].as_str().unwrap().to_string();
    assert_eq!(
        signet_workers::pass::<rendering::Renders>(ctx)
            .await
            .unwrap(),
        1
    );
    let blob = rendered_file(&app, &id).await;
    ctx.blobs
        .put(&blob, b"%PDF-1.7 nothing a rasteriser can read".to_vec())
        .await
        .unwrap();
    assert_eq!(pictures_pass(&app).await, 1);
    let shown = app
        .get(&format!("/api/v1/documents/{id}"), Some(&key))
        .await;
    assert_eq!(shown.body["state"], "voided", "{}", shown.body);
    let reason = shown.body["reason"].as_str().unwrap();
    assert!(
        reason.starts_with("Signet could not prepare the pages to sign: page pictures"),
        "{reason}"
    );
    assert!(
        invitations_due(&app, &id).await.is_empty(),
        "none left queued"
    );
    assert!(ctx.blobs.get(&index_key(&blob)).await.unwrap().is_none());
}
