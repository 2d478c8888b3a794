//! A route that exists only in the test server: it passes through the same door and the same
//! extractors as every `/api/v1` route, and counts how often its action really ran, so the
//! idempotency, body and panic rules can be shown before the first real POST route exists.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Duration;

use axum::Json;
use axum::routing::{MethodRouter, post};
use signet_core::Scope;
use signet_rest::extract::JsonIn;
use signet_rest::routes::row::{Access, Idem, Route, schema_of};

static RUNS: Mutex<Option<HashMap<String, u64>>> = Mutex::new(None);

pub fn runs(tag: &str) -> u64 {
    RUNS.lock()
        .unwrap()
        .as_ref()
        .and_then(|m| m.get(tag).copied())
        .unwrap_or(0)
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct ProbeIn {
    tag: String,
    #[serde(default)]
    panic: bool,
    #[serde(default)]
    sleep_ms: u64,
}

fn handler() -> MethodRouter<signet_rest::AppState> {
    post(|JsonIn(p): JsonIn<ProbeIn>| async move {
        if p.panic {
            panic!("probe asked to panic");
        }
        tokio::time::sleep(Duration::from_millis(p.sleep_ms)).await;
        let n = {
            let mut guard = RUNS.lock().unwrap();
            let count = guard
                .get_or_insert_with(HashMap::new)
                .entry(p.tag.clone())
                .or_insert(0);
            *count += 1;
            *count
        };
        (
            axum::http::StatusCode::CREATED,
            Json(serde_json::json!({"tag": p.tag, "run": n})),
        )
    })
}

pub static ROUTES: &[Route] = &[Route::post(
    "/probe",
    "v1.probe.create",
    Access::Scope(Scope::DocumentsWrite),
    handler,
)
.summary("test only")
.idempotency(Idem::Required)
.response(schema_of::<signet_webhooks::TopicOut>)
.success(201)
.body_limit(1024)];
