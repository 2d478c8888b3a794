//! `DomainError` as HTTP: the status for each kind, and the spec's error body.

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use signet_core::DomainError;

/// A handler's error. The door renders it into the error body with the request id.
#[derive(Debug)]
pub struct ApiError(pub DomainError);

impl From<DomainError> for ApiError {
    fn from(e: DomainError) -> Self {
        ApiError(e)
    }
}

pub fn status_of(e: &DomainError) -> StatusCode {
    match e {
        DomainError::Invalid(_) => StatusCode::BAD_REQUEST,
        DomainError::Unauthenticated => StatusCode::UNAUTHORIZED,
        DomainError::Forbidden(_) => StatusCode::FORBIDDEN,
        DomainError::NotFound(_) => StatusCode::NOT_FOUND,
        DomainError::Conflict { .. } => StatusCode::CONFLICT,
        DomainError::RateLimited { .. } => StatusCode::TOO_MANY_REQUESTS,
        DomainError::Dependency(_) => StatusCode::BAD_GATEWAY,
        DomainError::Timeout(_) => StatusCode::GATEWAY_TIMEOUT,
        DomainError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
    }
}

/// Marks a response as an error still to be given its body (which needs the request id).
#[derive(Clone, Debug)]
pub struct PendingError(pub std::sync::Arc<DomainError>);

/// Set on every rendered error response, for the API log.
#[derive(Clone, Copy, Debug)]
pub struct ErrorKind(pub &'static str);

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut res = status_of(&self.0).into_response();
        res.extensions_mut()
            .insert(PendingError(std::sync::Arc::new(self.0)));
        res
    }
}

/// The spec's error body: `{"error":{"kind","message","requestId","retryable"}}`.
pub fn render(e: &DomainError, request_id: &str) -> Response {
    if let DomainError::Internal(detail) = e {
        // Logged under the request's span, which carries its id.
        tracing::error!(%detail, "unexpected error");
    }
    let body = serde_json::json!({
        "error": {
            "kind": e.kind(),
            "message": e.public_message(),
            "requestId": request_id,
            "retryable": e.retryable(),
        }
    });
    let mut res = (status_of(e), axum::Json(body)).into_response();
    if let DomainError::RateLimited {
        retry_after_secs, ..
    } = e
    {
        res.headers_mut()
            .insert(header::RETRY_AFTER, HeaderValue::from(*retry_after_secs));
    }
    res.extensions_mut().insert(ErrorKind(e.kind()));
    res
}
