//! The door every request passes, in two layers, each part in a file of its own: who is at
//! the door (`client.rs`), the budgets (`budget.rs`), who asks (`auth.rs`), the body
//! (`body.rs`), the idempotency rule (`idempotency.rs`) and the answer on its way out
//! (`answer.rs`).
//!
//! `outer` wraps the whole router: it gives the request its id and client address, and on the
//! way out renders any error still without a body, makes sure the rate headers are present,
//! stamps `Request-Id` and `Service-Version`, and writes the API log line.
//!
//! `door` wraps each row of a route table: it authenticates the key (every credential failure
//! is the same 401), checks the route's scope, spends the key's per-minute budget, reads the
//! body, applies the idempotency rule, and turns handler panics and errors into the spec's
//! error body.

mod answer;
pub mod auth;
pub mod body;
pub mod budget;
pub mod client;
pub mod idempotency;
pub mod session;

use std::net::IpAddr;
use std::sync::Arc;
use std::time::Instant;

use axum::Router;
use axum::extract::{Request, State};
use axum::http::{HeaderValue, StatusCode};
use axum::middleware::{Next, from_fn_with_state};
use axum::response::{IntoResponse, Response};
use axum::routing::MethodRouter;
use signet_core::api_log::ApiLogEntry;
use signet_core::{DomainError, SERVICE_VERSION, ids};
use tower_http::catch_panic::CatchPanicLayer;
use tracing::Instrument;

use crate::error::{ApiError, ErrorKind, PendingError, render};
use crate::routes::row::{Idem, Route};
use crate::state::AppState;
use answer::{LogInfo, carry_headers, finish};
use body::BodyLimit;
use budget::{anonymous_budget, over_budget, set_rate_headers};
use client::{ClientIp, RequestId};
pub use idempotency::{AnswerStored, IDEMPOTENCY_KEY, answered};

pub(crate) fn wrap(router: Router<AppState>, state: AppState) -> Router {
    router
        .layer(from_fn_with_state(state.clone(), outer))
        .with_state(state)
}

/// Mounts a route table's rows, each behind the door, at `prefix` (`/api/v1` for the API's
/// table, nothing for the pages', GraphQL's and the trust routes').
pub(crate) fn mount(
    router: Router<AppState>,
    prefix: &str,
    rows: &'static [Route],
    state: &AppState,
) -> Router<AppState> {
    rows.iter().fold(router, |r, row| {
        r.route(
            &format!("{prefix}{}", row.path),
            layer(row, (row.handler)(), state),
        )
    })
}

fn layer(
    route: &'static Route,
    handler: MethodRouter<AppState>,
    state: &AppState,
) -> MethodRouter<AppState> {
    handler
        .layer(CatchPanicLayer::custom(panicked))
        .route_layer(from_fn_with_state((state.clone(), route), door))
}

fn panicked(payload: Box<dyn std::any::Any + Send + 'static>) -> Response {
    let what = payload
        .downcast_ref::<String>()
        .map(String::as_str)
        .or_else(|| payload.downcast_ref::<&str>().copied())
        .unwrap_or("(no message)");
    ApiError(DomainError::Internal(format!("handler panicked: {what}"))).into_response()
}

pub(crate) async fn not_found() -> ApiError {
    ApiError(DomainError::NotFound(
        "No such route. Paths start with /api/v1.".into(),
    ))
}

async fn outer(State(state): State<AppState>, req: Request, next: Next) -> Response {
    let started = Instant::now();
    signet_queue::pacing::request_arrived();
    let request_id: Arc<str> = ids::new_id("req").into();
    // Every line logged while the request is answered carries its id: in JSON logs as
    // `span.request_id`, the id the caller sees in `Request-Id` and in error bodies.
    // At error level, so that it is on whatever the filter lets through (`SIGNET_LOG=warn`).
    let span = tracing::error_span!("request", request_id = %request_id);
    handle(state, req, next, request_id, started)
        .instrument(span)
        .await
}

async fn handle(
    state: AppState,
    mut req: Request,
    next: Next,
    request_id: Arc<str>,
    started: Instant,
) -> Response {
    // Probes spend no budget: a balancer behind one address asks every second.
    let probe = crate::health::PATHS.contains(&req.uri().path());
    let ip = client::client_ip(&state, &req);
    let method = req.method().to_string();
    req.extensions_mut().insert(RequestId(request_id.clone()));
    req.extensions_mut().insert(ClientIp(ip));

    let mut res = next.run(req).await;

    if let Some(PendingError(e)) = res.extensions_mut().remove::<PendingError>() {
        res = carry_headers(res, render(&e, &request_id));
    } else if res.status().as_u16() >= 400 && res.extensions().get::<ErrorKind>().is_none() {
        // Answers made by the framework itself (wrong method, bad path parameters).
        let e = match res.status() {
            StatusCode::NOT_FOUND => DomainError::NotFound("No such route.".into()),
            StatusCode::METHOD_NOT_ALLOWED => {
                DomainError::Invalid("method: this route does not accept this method".into())
            }
            s if s.is_client_error() => DomainError::Invalid(format!("request: {s}")),
            s => DomainError::Internal(format!("framework answered {s}")),
        };
        let status = res.status();
        res = carry_headers(res, render(&e, &request_id));
        *res.status_mut() = status;
    }
    if !probe && !res.headers().contains_key("ratelimit-limit") {
        // No route's door ran (an unknown path, a wrong method, the OpenAPI document): the
        // answer is public, so the address's budget is spent and enforced here.
        let budget = anonymous_budget(&state, ip).await;
        if !budget.allowed {
            res = render(&over_budget(&budget), &request_id);
        }
        set_rate_headers(res.headers_mut(), &budget);
    }
    let h = res.headers_mut();
    if let Ok(v) = HeaderValue::from_str(&request_id) {
        h.insert("request-id", v);
    }
    h.insert("service-version", HeaderValue::from_static(SERVICE_VERSION));

    let info = res.extensions_mut().remove::<LogInfo>();
    let operation: &'static str = info.as_ref().map(|i| i.route).unwrap_or("(no route)");
    let entry = ApiLogEntry {
        request_id: request_id.to_string(),
        key_id: info.as_ref().and_then(|i| i.key_id.clone()),
        workspace_id: info.as_ref().and_then(|i| i.workspace_id.clone()),
        method,
        route: operation.to_string(),
        status: res.status().as_u16(),
        error_kind: res.extensions().get::<ErrorKind>().map(|k| k.0.to_string()),
        duration_us: started.elapsed().as_micros() as u64,
        client_ip: ip.to_string(),
        created_at: state.ctx.now(),
    };
    // The operation id, never the path or query: a request line names no document, and
    // nothing a caller puts in a URL reaches the log.
    tracing::debug!(
        method = %entry.method,
        route = %entry.route,
        status = entry.status,
        error = entry.error_kind.as_deref().unwrap_or("-"),
        duration_us = entry.duration_us,
        "request answered"
    );
    // A probe a second would fill the API log with nothing a caller did.
    if !probe {
        if entry.status == 429 {
            signet_core::metrics::rate_limited();
        }
        signet_core::metrics::request(operation, entry.status, entry.duration_us as f64 / 1e6);
        state.ctx.api_log.record(entry);
    }
    res
}

async fn door(
    State((state, route)): State<(AppState, &'static Route)>,
    mut req: Request,
    next: Next,
) -> Response {
    let request_id = req
        .extensions()
        .get::<RequestId>()
        .map(|r| r.0.clone())
        .unwrap_or_else(|| Arc::from("req_unknown"));
    let ip = req
        .extensions()
        .get::<ClientIp>()
        .map(|c| c.0)
        .unwrap_or(IpAddr::from([127, 0, 0, 1]));
    let mut info = LogInfo {
        route: route.operation_id,
        key_id: None,
        workspace_id: None,
    };

    let token = auth::bearer(req.headers()).map(str::to_string);
    let link = auth::link_of(req.headers());
    let cookie = session::cookie(&state.ctx, req.headers()).map(|secret| auth::SessionCookie {
        secret,
        same_origin: session::same_origin(&state.ctx, req.headers()),
        mode: session::mode(req.headers()),
    });
    let authorized = auth::authorize(&state, route, token.as_deref(), cookie, link, ip).await;
    let (actor, budget) = match authorized {
        Ok(ok) => ok,
        Err((e, budget)) => {
            let mut res = render(&e, &request_id);
            if let Some(b) = budget {
                set_rate_headers(res.headers_mut(), &b);
            }
            res.extensions_mut().insert(info);
            return res;
        }
    };
    if let Some(a) = &actor {
        info.key_id = a.principal.key_id().map(str::to_string);
        info.workspace_id = Some(a.workspace_id.to_string());
        req.extensions_mut().insert(a.clone());
    }
    req.extensions_mut().insert(BodyLimit(route.body_limit));
    // A route that takes no body still accepts a small one (`{}`), which it ignores.
    let limit = route.body_limit.max(1024);
    let req = match body::buffer_body(req, limit, state.config.body_timeout).await {
        Ok(r) => r,
        Err(e) => {
            let mut res = render(&e, &request_id);
            set_rate_headers(res.headers_mut(), &budget);
            res.extensions_mut().insert(info);
            return res;
        }
    };

    let mut res = match (route.idempotency, &actor) {
        (Idem::None, _) | (_, None) => finish(next.run(req).await, &request_id),
        (rule, Some(actor)) => {
            idempotency::idempotent(&state, rule, actor, req, next, &request_id).await
        }
    };
    let size = {
        use axum::body::HttpBody as _;
        res.body().size_hint().exact()
    };
    let budget = match (&actor, size) {
        // A large answer costs more than one request (`limits::charge_size`).
        (Some(a), Some(size)) => signet_core::limits::charge_size(&state.ctx, a, size)
            .await
            .unwrap_or(budget),
        _ => budget,
    };
    set_rate_headers(res.headers_mut(), &budget);
    res.extensions_mut().insert(info);
    res
}
