//! The door every request passes, in two layers.
//!
//! `outer` wraps the whole router: it gives the request its id and client address, and on the
//! way out renders any error still without a body, makes sure the rate headers are present,
//! stamps `Request-Id` and `Service-Version`, and writes the API log line.
//!
//! `door` wraps each route of the table: it authenticates the key (every credential failure
//! is the same 401), checks the route's scope, spends the key's per-minute budget, applies the
//! idempotency rule, and turns handler panics and errors into the spec's error body.

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::Instant;

use axum::Router;
use axum::body::{Body, to_bytes};
use axum::extract::{ConnectInfo, Request, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::middleware::{Next, from_fn_with_state};
use axum::response::{IntoResponse, Response};
use axum::routing::MethodRouter;
use signet_accounts::keys;
use signet_accounts::keys::canonical;
use signet_core::answer;
use signet_core::api_log::ApiLogEntry;
use signet_core::{Actor, DomainError, SERVICE_VERSION, ids};
use signet_storage::state::{Begin, BudgetState, Hold, Stored};
use tower_http::catch_panic::CatchPanicLayer;
use tracing::Instrument;

use crate::error::{ErrorKind, PendingError, render};
use crate::routes::{Access, Idem, Route};
use crate::{ApiError, AppState};

#[derive(Clone, Debug)]
pub struct RequestId(pub Arc<str>);

#[derive(Clone, Copy, Debug)]
pub struct ClientIp(pub IpAddr);

/// The largest body the matched route accepts.
#[derive(Clone, Copy, Debug)]
pub struct BodyLimit(pub usize);

/// What the API log needs to know from inside the route.
#[derive(Clone, Debug)]
struct LogInfo {
    route: &'static str,
    key_id: Option<String>,
    workspace_id: Option<String>,
}

pub const IDEMPOTENCY_KEY: &str = "idempotency-key";
const IDEMPOTENCY_LOCK_MS: i64 = 60_000;

pub(crate) fn wrap(router: Router<AppState>, state: AppState) -> Router {
    router
        .layer(from_fn_with_state(state.clone(), outer))
        .with_state(state)
}

pub(crate) fn layer(
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

fn client_ip(state: &AppState, req: &Request) -> IpAddr {
    let peer = req
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map(|c| canonical(c.0.ip()))
        .unwrap_or(IpAddr::from([127, 0, 0, 1]));
    let trusted = |ip: &IpAddr| state.config.trusted_proxies.iter().any(|n| n.contains(ip));
    if !trusted(&peer) {
        return peer;
    }
    let entries: Vec<&str> = req
        .headers()
        .get_all("x-forwarded-for")
        .iter()
        .flat_map(|v| v.to_str().unwrap_or("unknown").split(','))
        .collect();
    forwarded_client(peer, &entries, trusted)
}

/// The address a caller behind our proxies is known by, from `X-Forwarded-For` entries read
/// from the right: every entry right of the client was written by one of our proxies, so the
/// first entry that is not one of them is the client, and anything left of it could have
/// been written by the client itself. No entry is skipped: one that is not an address
/// (`unknown`, garbage) ends the walk as [`UNKNOWN_CLIENT`], which no allow-list of real
/// addresses contains.
pub fn forwarded_client(
    peer: IpAddr,
    entries: &[&str],
    trusted: impl Fn(&IpAddr) -> bool,
) -> IpAddr {
    let mut client = peer;
    for entry in entries.iter().rev() {
        match forwarded_ip(entry) {
            Some(ip) if trusted(&ip) => client = ip,
            Some(ip) => return ip,
            None => return UNKNOWN_CLIENT,
        }
    }
    client
}

/// The client of a forwarded request whose address a proxy could not tell.
pub const UNKNOWN_CLIENT: IpAddr = IpAddr::V6(std::net::Ipv6Addr::UNSPECIFIED);

/// One `X-Forwarded-For` entry: an address with or without a port, IPv6 in brackets or bare.
fn forwarded_ip(entry: &str) -> Option<IpAddr> {
    let e = entry.trim().trim_matches('"');
    if let Ok(ip) = e.parse::<IpAddr>() {
        return Some(canonical(ip));
    }
    if let Some(rest) = e.strip_prefix('[') {
        let (inside, after) = rest.split_once(']')?;
        let port_ok = after.is_empty()
            || after
                .strip_prefix(':')
                .is_some_and(|p| p.parse::<u16>().is_ok());
        return port_ok
            .then(|| inside.parse::<std::net::Ipv6Addr>().ok())
            .flatten()
            .map(|ip| canonical(IpAddr::V6(ip)));
    }
    let (host, port) = e.split_once(':')?;
    port.parse::<u16>().ok()?;
    host.parse::<std::net::Ipv4Addr>()
        .ok()
        .map(|ip| canonical(IpAddr::V4(ip)))
}

/// The anonymous budget's bucket: an IPv4 address, or an IPv6 address's /64, which one
/// subscriber usually holds whole.
pub fn anonymous_bucket(ip: IpAddr) -> String {
    match ip {
        IpAddr::V4(v4) => format!("ip:{v4}"),
        IpAddr::V6(v6) => {
            let s = v6.segments();
            format!("ip:{:x}:{:x}:{:x}:{:x}::/64", s[0], s[1], s[2], s[3])
        }
    }
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
    let ip = client_ip(&state, &req);
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
        created_at: signet_storage::now_ms(),
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

/// Keeps headers a layer already set (rate limits, Retry-After) on a re-rendered response.
fn carry_headers(old: Response, mut new: Response) -> Response {
    for (name, value) in old.headers() {
        if name != header::CONTENT_TYPE && name != header::CONTENT_LENGTH {
            new.headers_mut().entry(name).or_insert(value.clone());
        }
    }
    if let Some(info) = old.extensions().get::<LogInfo>() {
        new.extensions_mut().insert(info.clone());
    }
    new
}

pub(crate) async fn anonymous_budget(state: &AppState, ip: IpAddr) -> BudgetState {
    let limit = state.config.anonymous_per_minute;
    match state.ctx.budget.hit(&anonymous_bucket(ip), limit).await {
        Ok(b) => b,
        Err(e) => {
            tracing::warn!(error = %e, "rate budget unavailable; letting the request through");
            BudgetState {
                limit,
                remaining: limit,
                reset_secs: 60,
                allowed: true,
            }
        }
    }
}

pub(crate) fn set_rate_headers(h: &mut HeaderMap, b: &BudgetState) {
    h.insert("ratelimit-limit", HeaderValue::from(b.limit));
    h.insert("ratelimit-remaining", HeaderValue::from(b.remaining));
    h.insert("ratelimit-reset", HeaderValue::from(b.reset_secs));
}

pub(crate) fn over_budget(b: &BudgetState) -> DomainError {
    DomainError::RateLimited {
        message: format!(
            "Over the budget of {} requests a minute; retry after {} seconds.",
            b.limit, b.reset_secs
        ),
        retry_after_secs: b.reset_secs,
    }
}

fn bearer(headers: &HeaderMap) -> Option<&str> {
    let v = headers.get(header::AUTHORIZATION)?.to_str().ok()?;
    let (scheme, token) = v.split_once(' ')?;
    scheme.eq_ignore_ascii_case("bearer").then(|| token.trim())
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

    let token = bearer(req.headers()).map(str::to_string);
    let link = crate::page::link_of(req.headers());
    let (actor, budget) = match authorize(&state, route, token.as_deref(), link, ip).await {
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
        info.workspace_id = Some(a.workspace_id.clone());
        req.extensions_mut().insert(a.clone());
    }
    req.extensions_mut().insert(BodyLimit(route.body_limit));
    // A route that takes no body still accepts a small one (`{}`), which it ignores.
    let limit = route.body_limit.max(1024);
    let req = match buffer_body(req, limit, state.config.body_timeout).await {
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
        (rule, Some(actor)) => idempotent(&state, rule, actor, req, next, &request_id).await,
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

/// Reads the whole body before the handler runs, within the route's limit and the time a
/// client is given to send it, so that no extractor can read more or wait longer: a body
/// over the limit is refused by its declared length before a byte is read.
async fn buffer_body(
    req: Request,
    limit: usize,
    timeout: std::time::Duration,
) -> Result<Request, DomainError> {
    let declared = req
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if declared.is_some_and(|n| n > limit as u64) {
        return Err(body_too_large(limit));
    }
    let (parts, body) = req.into_parts();
    let bytes = match tokio::time::timeout(timeout, to_bytes(body, limit)).await {
        Ok(Ok(b)) => b,
        Ok(Err(e)) => {
            return Err(
                if std::error::Error::source(&e)
                    .is_some_and(|s| s.is::<http_body_util::LengthLimitError>())
                {
                    body_too_large(limit)
                } else {
                    DomainError::invalid("body", "could not be read in full")
                },
            );
        }
        Err(_) => {
            return Err(DomainError::invalid(
                "body",
                format!(
                    "was not received in full within {} seconds",
                    timeout.as_secs()
                ),
            ));
        }
    };
    Ok(Request::from_parts(parts, Body::from(bytes)))
}

type Refusal = (DomainError, Option<BudgetState>);

async fn authorize(
    state: &AppState,
    route: &Route,
    token: Option<&str>,
    link: Option<&str>,
    ip: IpAddr,
) -> Result<(Option<Actor>, BudgetState), Refusal> {
    if matches!(route.access, Access::Public | Access::Link) {
        let b = anonymous_budget(state, ip).await;
        if !b.allowed {
            return Err((over_budget(&b), Some(b)));
        }
        // A page call's link is looked up before its body is read: a made-up link costs
        // one indexed read, never the memory of a body.
        if route.access == Access::Link {
            let live = match link {
                Some(token) => signet_documents::signing::link_is_live(&state.ctx, token)
                    .await
                    .map_err(|e| (e, Some(b)))?,
                None => false,
            };
            if !live {
                return Err((
                    DomainError::NotFound("this link does not open a document".into()),
                    Some(b),
                ));
            }
        }
        return Ok((None, b));
    }
    let authenticated = match token {
        Some(token) => keys::authenticate(&state.ctx, token, ip).await,
        None => Err(DomainError::Unauthenticated),
    };
    let actor = match authenticated.and_then(|a| match route.access {
        Access::Scope(s) => a.require(s).map(|_| a),
        _ => Ok(a),
    }) {
        Ok(a) => a,
        Err(e) => {
            // Failed credentials spend the address's budget, which slows down key guessing.
            let b = anonymous_budget(state, ip).await;
            let e = if b.allowed || matches!(e, DomainError::Internal(_)) {
                e
            } else {
                over_budget(&b)
            };
            return Err((e, Some(b)));
        }
    };
    let b = match signet_core::limits::spend(&state.ctx, &actor, 1).await {
        Ok(b) => b,
        Err(e) => return Err((e, None)),
    };
    if !b.allowed {
        return Err((over_budget(&b), Some(b)));
    }
    Ok((Some(actor), b))
}

/// Renders a handler's pending error now, so that an idempotent replay carries the same body.
fn finish(mut res: Response, request_id: &str) -> Response {
    match res.extensions_mut().remove::<PendingError>() {
        Some(PendingError(e)) => carry_headers(res, render(&e, request_id)),
        None => res,
    }
}

fn idempotency_key(req: &Request, rule: Idem) -> Result<Option<String>, DomainError> {
    let Some(v) = req.headers().get(IDEMPOTENCY_KEY) else {
        return if rule == Idem::Required {
            Err(DomainError::invalid(
                "Idempotency-Key",
                "header is required on this request",
            ))
        } else {
            Ok(None)
        };
    };
    let v = v
        .to_str()
        .ok()
        .filter(|s| s.bytes().all(|b| (0x21..=0x7e).contains(&b)))
        .ok_or_else(|| {
            DomainError::invalid("Idempotency-Key", "must be printable ASCII without spaces")
        })?;
    if !(8..=200).contains(&v.len()) {
        return Err(DomainError::invalid(
            "Idempotency-Key",
            format!("must be 8 to 200 characters, got {}", v.len()),
        ));
    }
    Ok(Some(v.to_string()))
}

async fn idempotent(
    state: &AppState,
    rule: Idem,
    actor: &Actor,
    req: Request,
    next: Next,
    request_id: &str,
) -> Response {
    let key = match idempotency_key(&req, rule) {
        Ok(Some(k)) => k,
        Ok(None) => return finish(next.run(req).await, request_id),
        Err(e) => return render(&e, request_id),
    };
    let limit = req
        .extensions()
        .get::<BodyLimit>()
        .map(|b| b.0)
        .unwrap_or(0);
    let (parts, body) = req.into_parts();
    let bytes = match to_bytes(body, limit).await {
        Ok(b) => b,
        Err(_) => return render(&body_too_large(limit), request_id),
    };
    // Keyed: a body may hold an access code, and no unkeyed hash of one is ever kept.
    let mut ctx = ring::hmac::Context::with_key(&state.ctx.key_hasher);
    ctx.update(parts.method.as_str().as_bytes());
    ctx.update(b"\n");
    ctx.update(parts.uri.path().as_bytes());
    ctx.update(b"\n");
    ctx.update(&bytes);
    let fingerprint = ids::hex(ctx.sign().as_ref());
    let hold = match state
        .ctx
        .idempotency
        .begin(actor.id(), &key, &fingerprint, IDEMPOTENCY_LOCK_MS)
        .await
    {
        Err(e) => return render(&e.into(), request_id),
        Ok(Begin::Replay(stored)) => return replay(&state.ctx, stored, request_id),
        Ok(Begin::InProgress) => {
            return render(
                &DomainError::Conflict {
                    message:
                        "Idempotency-Key: a request with this key is still running; retry shortly"
                            .into(),
                    retryable: true,
                },
                request_id,
            );
        }
        Ok(Begin::Mismatch) => {
            return render(
                &DomainError::invalid(
                    "Idempotency-Key",
                    "was already used for a different request; use a new key for a new request",
                ),
                request_id,
            );
        }
        Ok(Begin::Proceed(hold)) => hold,
    };
    let mut req = Request::from_parts(parts, Body::from(bytes));
    if let Some(claim) = hold.claim() {
        req.extensions_mut().insert(claim);
    }
    // The request runs to its end, answer stored and key given back, in a task of its own:
    // a client that goes away must not drop the key while its action is still committing
    // (on the embedded default the writer thread commits it regardless), or a quick retry
    // would run the action again.
    let (id, state) = (request_id.to_string(), state.clone());
    // The task logs under the request's span: its lines carry the request id too.
    let task = async move { run_holding(&state.ctx, hold, req, next, &id).await };
    match tokio::spawn(task.instrument(tracing::Span::current())).await {
        Ok(res) => res,
        Err(e) => {
            tracing::error!(error = %e, "an idempotent request's task failed");
            render(
                &DomainError::Internal("the request's task failed".into()),
                request_id,
            )
        }
    }
}

/// Runs the request while holding its key, then stores its answer or gives the key back.
async fn run_holding(
    ctx: &signet_core::Ctx,
    hold: Hold,
    req: Request,
    next: Next,
    request_id: &str,
) -> Response {
    let mut res = next.run(req).await;
    if res.extensions_mut().remove::<AnswerStored>().is_some() {
        // The handler stored this answer in its own transaction.
        return res;
    }
    let retryable = res
        .extensions()
        .get::<PendingError>()
        .map(|p| p.0.retryable())
        .unwrap_or(res.status().is_server_error());
    res = finish(res, request_id);
    if retryable {
        if let Err(e) = hold.release().await {
            tracing::warn!(error = %e, "releasing an idempotency key failed");
        }
        return res;
    }
    let (parts, body) = res.into_parts();
    let Ok(body) = to_bytes(body, usize::MAX).await else {
        let _ = hold.release().await;
        return render(
            &DomainError::Internal("response body unreadable".into()),
            request_id,
        );
    };
    let text = String::from_utf8_lossy(&body);
    let stored = Stored {
        status: parts.status.as_u16(),
        body: match parts.extensions.get::<SealAnswer>() {
            Some(_) => answer::seal_answer(ctx, &text),
            None => text.into_owned(),
        },
    };
    if let Err(e) = hold.finish(&stored).await {
        tracing::error!(error = %e, "storing an idempotent answer failed");
    }
    Response::from_parts(parts, Body::from(body))
}

/// Marks a response whose idempotent answer the handler already stored, in the same
/// transaction as the action it answers (`signet_storage::state::Claim::store_in`).
#[derive(Clone, Copy, Debug)]
pub struct AnswerStored;

/// Marks a response holding a secret shown once: the door seals it before storing it for
/// replay (`answer::seal_answer`).
#[derive(Clone, Copy, Debug)]
struct SealAnswer;

/// A resolver's answer as a response. When the resolver stored it with the request's
/// idempotency claim, the stored bytes are sent as they are, so that a replay is the same
/// answer, and the door is told not to store it again.
pub fn answered<T: serde::Serialize>(m: answer::Made<T>) -> Response {
    let status = StatusCode::from_u16(m.status).unwrap_or(StatusCode::OK);
    match m.stored {
        Some(body) => {
            let mut res =
                (status, [(header::CONTENT_TYPE, "application/json")], body).into_response();
            res.extensions_mut().insert(AnswerStored);
            res
        }
        None => {
            let mut res = (status, axum::Json(m.out)).into_response();
            if m.secret {
                res.extensions_mut().insert(SealAnswer);
            }
            res
        }
    }
}

fn replay(ctx: &signet_core::Ctx, stored: Stored, request_id: &str) -> Response {
    let status = StatusCode::from_u16(stored.status).unwrap_or(StatusCode::OK);
    let body = match answer::open_answer(ctx, stored.body) {
        Ok(b) => b,
        Err(e) => return render(&e, request_id),
    };
    let mut res = (status, body).into_response();
    let h = res.headers_mut();
    h.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    h.insert("idempotent-replayed", HeaderValue::from_static("true"));
    res
}

pub fn body_too_large(limit: usize) -> DomainError {
    DomainError::invalid(
        "body",
        format!("is larger than the limit of {limit} bytes for this route"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forwarded_entries_are_walked_from_the_right_without_skipping() {
        let proxy: IpAddr = "10.0.0.1".parse().unwrap();
        let trusted = |ip: &IpAddr| ip.to_string().starts_with("10.0.0.");
        let client = |entries: &[&str]| forwarded_client(proxy, entries, trusted);
        assert_eq!(client(&[]), proxy);
        assert_eq!(
            client(&["203.0.113.5"]),
            "203.0.113.5".parse::<IpAddr>().unwrap()
        );
        assert_eq!(
            client(&["1.1.1.1", " 203.0.113.5:41234"]).to_string(),
            "203.0.113.5"
        );
        assert_eq!(
            client(&["1.1.1.1", "[2001:db8::7]:41234"]).to_string(),
            "2001:db8::7"
        );
        assert_eq!(
            client(&["1.1.1.1", "[2001:db8::7]"]).to_string(),
            "2001:db8::7"
        );
        assert_eq!(
            client(&["1.1.1.1", "2001:db8::7"]).to_string(),
            "2001:db8::7"
        );
        assert_eq!(
            client(&["1.1.1.1", "10.0.0.2", "10.0.0.3"]).to_string(),
            "1.1.1.1"
        );
        assert_eq!(
            client(&["1.1.1.1", "::ffff:10.0.0.2"]).to_string(),
            "1.1.1.1"
        );
        for garbled in [
            "unknown",
            "",
            "1.2.3.4:x",
            "[::1",
            "_hidden",
            "1.2.3.4:99999",
        ] {
            assert_eq!(client(&["1.1.1.1", garbled]), UNKNOWN_CLIENT, "{garbled:?}");
        }
    }

    #[test]
    fn ipv6_clients_share_a_budget_per_64() {
        let a = anonymous_bucket("2001:db8:1:2:aaaa::1".parse().unwrap());
        let b = anonymous_bucket("2001:db8:1:2:ffff:1:2:3".parse().unwrap());
        let c = anonymous_bucket("2001:db8:1:3::1".parse().unwrap());
        assert_eq!(a, b);
        assert_ne!(a, c);
        assert_eq!(a, "ip:2001:db8:1:2::/64");
        assert_eq!(
            anonymous_bucket("192.0.2.1".parse().unwrap()),
            "ip:192.0.2.1"
        );
    }
}
