//! The idempotency rule: a POST with an `Idempotency-Key` runs once per key; a retry with the
//! same body is answered with the stored answer (`Idempotent-Replayed: true`), one with a
//! different body is refused, one while the first still runs is told to retry. The key is
//! held while the request runs to its end in a task of its own; a retryable failure gives it
//! back. The body is fingerprinted with a keyed hash, as it may hold an access code.

use axum::body::{Body, to_bytes};
use axum::extract::Request;
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use signet_core::answer;
use signet_core::{Actor, DomainError, ids};
use signet_storage::state::{Begin, Hold, Stored};
use tracing::Instrument;

use super::answer::finish;
use super::body::{BodyLimit, body_too_large};
use crate::error::{PendingError, render};
use crate::routes::row::Idem;
use crate::state::AppState;

pub const IDEMPOTENCY_KEY: &str = "idempotency-key";
const IDEMPOTENCY_LOCK_MS: i64 = 60_000;

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

pub(super) async fn idempotent(
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
