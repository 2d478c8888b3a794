//! Extractors that turn bad input into a 400 naming the field and the reason: wrong content
//! type, a body over the route's limit, malformed JSON, a field of the wrong type, an unknown
//! field (request types deny them, so typos surface instead of being ignored); and the query
//! string's parsers (each name at most once and from the route's list).

use axum::body::to_bytes;
use axum::extract::{FromRequest, FromRequestParts, Request};
use axum::http::header;
use axum::http::request::Parts;
use serde::de::DeserializeOwned;
use signet_core::DomainError;

use crate::ApiError;
use crate::door::body::{BodyLimit, body_too_large};

/// A JSON body of type `T`.
pub struct JsonIn<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for JsonIn<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, _: &S) -> Result<Self, ApiError> {
        let (is_json, bytes) = read_body(req).await?;
        if !is_json {
            return Err(DomainError::invalid("Content-Type", "must be application/json").into());
        }
        parse_json(&bytes).map(JsonIn).map_err(ApiError)
    }
}

/// A JSON body that may be left out entirely (no body, or an empty one): then `T::default()`.
pub struct JsonOrEmpty<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned + Default> FromRequest<S> for JsonOrEmpty<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, _: &S) -> Result<Self, ApiError> {
        let (is_json, bytes) = read_body(req).await?;
        if bytes.iter().all(u8::is_ascii_whitespace) {
            return Ok(JsonOrEmpty(T::default()));
        }
        if !is_json {
            return Err(DomainError::invalid("Content-Type", "must be application/json").into());
        }
        parse_json(&bytes).map(JsonOrEmpty).map_err(ApiError)
    }
}

/// Whether the body is declared JSON, and the body itself within the route's limit.
async fn read_body(req: Request) -> Result<(bool, axum::body::Bytes), ApiError> {
    let is_json = req
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .map(is_json_type)
        .unwrap_or(false);
    let limit = req
        .extensions()
        .get::<BodyLimit>()
        .map(|b| b.0)
        .unwrap_or(2 << 20);
    let bytes = to_bytes(req.into_body(), limit)
        .await
        .map_err(|_| body_too_large(limit))?;
    Ok((is_json, bytes))
}

fn is_json_type(v: &str) -> bool {
    let m = v
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase();
    m == "application/json" || (m.starts_with("application/") && m.ends_with("+json"))
}

/// Deserializes `bytes`, naming the path of the first offending field.
pub fn parse_json<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, DomainError> {
    // Every request body is an object; serde would otherwise read a struct from an array.
    if bytes.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'[') {
        return Err(DomainError::invalid("body", "must be a JSON object"));
    }
    // Most bodies are good: read them without tracking paths, and only a refused one again
    // with tracking, to name where it went wrong.
    if let Ok(v) = serde_json::from_slice(bytes) {
        return Ok(v);
    }
    let de = &mut serde_json::Deserializer::from_slice(bytes);
    serde_path_to_error::deserialize(de).map_err(|e| {
        let path = e.path().to_string();
        let inner = e.into_inner();
        let reason = strip_position(&inner.to_string());
        if inner.is_syntax() || inner.is_eof() {
            return DomainError::invalid("body", format!("is not valid JSON ({reason})"));
        }
        let field = if path == "." {
            "body".to_string()
        } else {
            path
        };
        DomainError::invalid(&field, reason)
    })
}

fn strip_position(msg: &str) -> String {
    match msg.rfind(" at line ") {
        Some(i) => msg[..i].to_string(),
        None => msg.to_string(),
    }
}

/// Query parameters of type `T`.
pub struct QueryIn<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequestParts<S> for QueryIn<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, ApiError> {
        axum::extract::Query::<T>::try_from_uri(&parts.uri)
            .map(|axum::extract::Query(v)| QueryIn(v))
            .map_err(|e| {
                let text = e.body_text();
                let reason = text.trim_start_matches("Failed to deserialize query string: ");
                ApiError(DomainError::Invalid(format!("query: {reason}")))
            })
    }
}

/// Query pairs, each name at most once and from `allowed`.
pub(crate) fn query(
    raw: Option<&str>,
    allowed: &[&str],
) -> Result<Vec<(String, String)>, DomainError> {
    let pairs: Vec<(String, String)> = serde_urlencoded::from_str(raw.unwrap_or(""))
        .map_err(|e| DomainError::invalid("query", e))?;
    for (i, (k, _)) in pairs.iter().enumerate() {
        if !allowed.contains(&k.as_str()) {
            return Err(DomainError::invalid(
                k,
                format!("unknown query parameter; use {}", allowed.join(", ")),
            ));
        }
        if pairs[..i].iter().any(|(p, _)| p == k) {
            return Err(DomainError::invalid(k, "is given more than once"));
        }
    }
    Ok(pairs)
}

/// An integer parameter; the spec lets only `wait` be given as `null`.
pub(crate) fn int(pairs: &[(String, String)], name: &str) -> Result<Option<i64>, DomainError> {
    match pairs
        .iter()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.as_str())
    {
        None => Ok(None),
        // `wait` is "integer or null"; an empty value is neither, as for documents' `limit`.
        Some("null") if name == "wait" => Ok(None),
        Some(v) => v
            .parse()
            .map(Some)
            .map_err(|_| DomainError::invalid(name, format!("must be a whole number, got '{v}'"))),
    }
}

pub(crate) fn text(pairs: &[(String, String)], name: &str) -> Option<String> {
    pairs
        .iter()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.clone())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct In {
        title: String,
        people: Vec<Person>,
    }

    #[derive(Debug, serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Person {
        email: String,
    }

    fn err(body: &str) -> String {
        parse_json::<In>(body.as_bytes()).unwrap_err().to_string()
    }

    #[test]
    fn messages_name_the_field_and_reason() {
        assert_eq!(
            err(r#"{"title": 5, "people": []}"#),
            "title: invalid type: integer `5`, expected a string"
        );
        assert!(
            err(r#"{"title": "a", "people": [{"email": true}]}"#)
                .starts_with("people[0].email: invalid type")
        );
        assert!(
            err(r#"{"title": "a", "people": [], "titel": 1}"#).contains("unknown field `titel`")
        );
        assert!(err(r#"{"people": []}"#).contains("missing field `title`"));
        assert!(err(r#"{"title": "a""#).starts_with("body: is not valid JSON"));
        assert!(err("").starts_with("body: is not valid JSON"));
    }
}
