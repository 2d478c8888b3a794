//! The request's body, read whole before the handler runs: within the matched route's limit
//! (refused by its declared length before a byte is read) and the time a client is given to
//! send it, so that no extractor can read more or wait longer.

use axum::body::{Body, to_bytes};
use axum::extract::Request;
use axum::http::header;
use signet_core::DomainError;

/// The largest body the matched route accepts.
#[derive(Clone, Copy, Debug)]
pub struct BodyLimit(pub usize);

/// Reads the whole body before the handler runs, within the route's limit and the time a
/// client is given to send it, so that no extractor can read more or wait longer: a body
/// over the limit is refused by its declared length before a byte is read.
pub(super) async fn buffer_body(
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

pub fn body_too_large(limit: usize) -> DomainError {
    DomainError::invalid(
        "body",
        format!("is larger than the limit of {limit} bytes for this route"),
    )
}
