//! The application's session cookie and its guard against cross-site forgery
//! (docs/decisions/the-application.md). The cookie is `__Host-signet-session` (`Secure`)
//! unless the public URL is plain `http://` on this machine (`localhost`, `127.0.0.1`,
//! `[::1]`), where it is `signet-session` without `Secure`. A request the cookie
//! authenticates must come from the application's own pages: `Origin` equal to the public
//! URL's origin (or, without `Origin`, `Sec-Fetch-Site: same-origin`) and the header
//! `X-Signet-Session: 1`, which no form and no simple cross-site request can send.

use axum::http::{HeaderMap, HeaderValue, header};
use signet_core::actor::Mode;
use signet_core::{Ctx, DomainError};

/// The header every call of the application's pages carries.
pub const SESSION_HEADER: &str = "x-signet-session";
/// The header that picks the documents a session works on: `test` or `live` (the default).
/// A key's mode is the key's; a person chooses, per request, as the application's switch says.
pub const MODE_HEADER: &str = "x-signet-mode";

/// The mode a session's request asks for (`live` without the header).
pub fn mode(headers: &HeaderMap) -> Result<Mode, DomainError> {
    match headers.get(MODE_HEADER) {
        None => Ok(Mode::Live),
        Some(v) => v
            .to_str()
            .ok()
            .and_then(Mode::parse)
            .ok_or_else(|| DomainError::Invalid("X-Signet-Mode: must be test or live".into())),
    }
}

/// Whether the public URL is plain http on this machine (the cookie cannot be `Secure`).
fn plain_local(ctx: &Ctx) -> bool {
    url::Url::parse(&ctx.public_url).is_ok_and(|u| {
        u.scheme() == "http"
            && matches!(
                u.host_str(),
                Some("localhost") | Some("127.0.0.1") | Some("[::1]")
            )
    })
}

/// The cookie's name here.
pub fn cookie_name(ctx: &Ctx) -> &'static str {
    if plain_local(ctx) {
        "signet-session"
    } else {
        "__Host-signet-session"
    }
}

/// The session cookie a request carries, if any.
pub fn cookie<'a>(ctx: &Ctx, headers: &'a HeaderMap) -> Option<&'a str> {
    let name = cookie_name(ctx);
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(k, _)| *k == name)
        .map(|(_, v)| v.trim())
        .filter(|v| !v.is_empty())
}

/// `Set-Cookie` for a new session's secret (`max_age_secs`), or to clear it (`None`).
pub fn set_cookie(ctx: &Ctx, value: Option<(&str, i64)>) -> HeaderValue {
    let secure = if plain_local(ctx) { "" } else { "; Secure" };
    let name = cookie_name(ctx);
    let v = match value {
        Some((token, age)) => {
            format!("{name}={token}; Path=/; HttpOnly; SameSite=Lax; Max-Age={age}{secure}")
        }
        None => format!("{name}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0{secure}"),
    };
    // Made of an id's characters only.
    HeaderValue::from_str(&v).unwrap_or_else(|_| HeaderValue::from_static(""))
}

/// The public URL's origin (`https://sign.example.com`).
fn origin(ctx: &Ctx) -> Option<String> {
    url::Url::parse(&ctx.public_url)
        .ok()
        .map(|u| u.origin().ascii_serialization())
}

/// Whether the request's `Origin` is this installation's (a websocket upgrade, which cannot
/// carry the header `same_origin` also asks for).
pub fn origin_is_ours(ctx: &Ctx, headers: &HeaderMap) -> bool {
    headers
        .get(header::ORIGIN)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|o| origin(ctx).is_some_and(|mine| mine == o))
}

/// Whether the request comes from the application's own pages (see the module's notes).
pub fn same_origin(ctx: &Ctx, headers: &HeaderMap) -> bool {
    let marked = headers
        .get(SESSION_HEADER)
        .is_some_and(|v| v.as_bytes() == b"1");
    let from_here = match headers.get(header::ORIGIN).and_then(|v| v.to_str().ok()) {
        Some(o) => origin(ctx).is_some_and(|mine| mine == o),
        None => headers
            .get("sec-fetch-site")
            .is_some_and(|v| v.as_bytes() == b"same-origin"),
    };
    marked && from_here
}

/// The refusal of a request that carries the cookie from elsewhere.
pub fn cross_site() -> DomainError {
    DomainError::Forbidden(
        "a request signed in with the application's session must come from the application's \
         own pages (the Origin of this installation and the X-Signet-Session header)"
            .into(),
    )
}
