//! Probes for load balancers and orchestrators: `GET /healthz` (the process is up) and
//! `GET /readyz` (its database, Redis and file store answer; 503 naming what is down). They
//! take no key and spend no address's budget: `/healthz` does no work, and `/readyz` is
//! worked out at most once a second per process. `GET /metrics` is Prometheus' scrape, with
//! the bearer `metrics_token` (off without one).

use axum::Router;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use serde_json::json;

use crate::AppState;
use crate::door::auth::same_secret;
use crate::door::budget::{anonymous_budget, over_budget, set_rate_headers};
use crate::door::client::{ClientIp, RequestId};
use crate::error::ErrorKind;

pub(crate) const PATHS: [&str; 3] = ["/healthz", "/readyz", "/metrics"];

/// How long a readiness answer is reused.
const FRESH: std::time::Duration = std::time::Duration::from_secs(1);

pub(crate) fn router() -> Router<AppState> {
    Router::new()
        .route(
            "/healthz",
            get(|| async { axum::Json(json!({"status": "up"})) }),
        )
        .route("/readyz", get(ready))
        .route("/metrics", get(metrics))
}

async fn metrics(
    State(s): State<AppState>,
    ip: Option<axum::Extension<ClientIp>>,
    headers: axum::http::HeaderMap,
) -> Response {
    use secrecy::ExposeSecret as _;
    use signet_core::DomainError;
    let Some(token) = &s.config.metrics_token else {
        return crate::ApiError::from(DomainError::NotFound(
            "metrics are off: set metrics_token (SIGNET_METRICS_TOKEN)".into(),
        ))
        .into_response();
    };
    let given = headers
        .get(axum::http::header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .unwrap_or_default();
    // Every scrape spends the address's anonymous budget (a scraper asks a few times a
    // minute), and past it the token is not even compared: it cannot be guessed at the
    // network's speed, and a right guess over the budget is not told apart from a wrong one.
    let ip = ip.map_or(std::net::IpAddr::from([0, 0, 0, 0]), |e| e.0.0);
    let b = anonymous_budget(&s, ip).await;
    if !b.allowed || !same_secret(given, token.expose_secret()) {
        let e = if b.allowed {
            DomainError::Unauthenticated
        } else {
            over_budget(&b)
        };
        let mut res = crate::ApiError::from(e).into_response();
        set_rate_headers(res.headers_mut(), &b);
        return res;
    }
    let text = signet_core::metrics::render(&s.ctx).await;
    (
        [(
            axum::http::header::CONTENT_TYPE,
            "text/plain; version=0.0.4; charset=utf-8",
        )],
        text,
    )
        .into_response()
}

async fn ready(State(s): State<AppState>, id: Option<axum::Extension<RequestId>>) -> Response {
    // One probe at a time works it out; the others wait for its answer.
    let r = {
        let mut last = s.readiness.0.lock().await;
        match last.as_ref() {
            Some((at, r)) if at.elapsed() < FRESH => r.clone(),
            _ => {
                let r = signet_core::health::readiness(&s.ctx).await;
                *last = Some((std::time::Instant::now(), r.clone()));
                r
            }
        }
    };
    if r.ready {
        return axum::Json(json!({"status": "ready", "checks": r.checks})).into_response();
    }
    let down: Vec<String> = r
        .checks
        .iter()
        .filter(|(_, v)| v.starts_with("down"))
        .map(|(k, v)| format!("{k} is {v}"))
        .collect();
    let request_id = id.map(|e| e.0.0.to_string()).unwrap_or_default();
    // The spec's error shape, with each part's state beside it.
    let body = json!({
        "error": {
            "kind": "dependency",
            "message": format!("not ready: {}", down.join("; ")),
            "requestId": request_id,
            "retryable": true,
        },
        "checks": r.checks,
    });
    let mut res = (StatusCode::SERVICE_UNAVAILABLE, axum::Json(body)).into_response();
    res.extensions_mut().insert(ErrorKind("dependency"));
    res
}
