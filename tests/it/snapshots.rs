//! `openapi.json` and `schema.graphql` are committed; these fail when the code serves
//! something else. Regenerate with `UPDATE_SNAPSHOTS=1 cargo test --test it snapshots`.

use crate::harness::{Kind, TestApp};

fn check(file: &str, current: &str) {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
    if std::env::var("UPDATE_SNAPSHOTS").as_deref() == Ok("1") {
        std::fs::write(&path, current).unwrap();
        return;
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == current,
        "{file} differs from what the code serves; review the change and run UPDATE_SNAPSHOTS=1 cargo test --test it snapshots"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn openapi_document_matches_the_committed_file_and_the_route_table() {
    let app = TestApp::start(Kind::Sqlite).await.unwrap();
    let served = app.get("/api/openapi.json", None).await;
    assert_eq!(served.status, 200);
    assert_eq!(served.header("service-version"), "2026-10-07");
    let doc = &served.body;
    assert_eq!(doc["openapi"], "3.1.0");
    assert_eq!(doc["info"]["version"], "2026-10-07");
    assert_eq!(
        doc["components"]["securitySchemes"]["bearer"]["scheme"],
        "bearer"
    );
    for route in signet_rest::routes::ROUTES.iter() {
        let op = &doc["paths"][route.full_path()][route.method.as_str().to_ascii_lowercase()];
        assert_eq!(
            op["operationId"],
            signet_rest::openapi::operation_id(route),
            "{route:?} is in the document"
        );
        assert!(
            op["responses"]["401"]["content"]["application/json"]["schema"]["$ref"].is_string()
        );
    }
    check(
        "openapi.json",
        &(serde_json::to_string_pretty(doc).unwrap() + "\n"),
    );
}

#[test]
fn graphql_sdl_matches_the_committed_file() {
    check("schema.graphql", &signet_schema::sdl());
}
