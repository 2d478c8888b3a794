//! Who asks: the bearer key (every credential failure is the same 401, and spends the
//! address's budget, which slows down key guessing), the route's scope, the key's per-minute
//! budget; for the signing page's calls, the link that must open a document before the body
//! is read. Also the constant-time check of the operator's bearer secrets (metrics, email
//! feedback).

use std::net::IpAddr;

use axum::http::{HeaderMap, header};
use signet_accounts::keys;
use signet_accounts::people::sessions;
use signet_core::actor::Mode;
use signet_core::{Actor, DomainError};
use signet_storage::state::BudgetState;

use super::budget::{anonymous_budget, over_budget};
use crate::routes::row::{Access, Route};
use crate::state::AppState;

pub(super) fn bearer(headers: &HeaderMap) -> Option<&str> {
    let v = headers.get(header::AUTHORIZATION)?.to_str().ok()?;
    let (scheme, token) = v.split_once(' ')?;
    scheme.eq_ignore_ascii_case("bearer").then(|| token.trim())
}

/// The link a page call carries, if any (`Authorization: Link <token>`).
pub(crate) fn link_of(headers: &HeaderMap) -> Option<&str> {
    headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Link "))
        .map(str::trim)
}

/// Whether `given` is the secret, compared in constant time (as keyed hashes).
pub(crate) fn same_secret(given: &str, secret: &str) -> bool {
    use ring::hmac;
    let key = hmac::Key::new(hmac::HMAC_SHA256, b"signet email feedback");
    let want = hmac::sign(&key, secret.as_bytes());
    hmac::verify(&key, given.as_bytes(), want.as_ref()).is_ok()
}

pub(super) type Refusal = (DomainError, Option<BudgetState>);

/// The application's session a request carries: its cookie's secret, and whether the request
/// came from the application's own pages (`session::same_origin`).
pub(super) struct SessionCookie<'a> {
    pub secret: &'a str,
    pub same_origin: bool,
    /// The mode the request asks for (`session::mode`).
    pub mode: Result<Mode, DomainError>,
}

pub(super) async fn authorize(
    state: &AppState,
    route: &Route,
    token: Option<&str>,
    session: Option<SessionCookie<'_>>,
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
            // A signing link, or a builder's or Scribe's link not yet exchanged.
            let live = match link {
                Some(token) => {
                    signet_documents::signing::link_is_live(&state.ctx, token)
                        .await
                        .map_err(|e| (e, Some(b)))?
                        || signet_accounts::frames::link_is_live(&state.ctx, token)
                            .await
                            .map_err(|e| (e, Some(b)))?
                }
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
    // A key for GraphQL and the API; the session cookie only for GraphQL and the
    // application's own calls, and only from its own pages.
    let authenticated = match (token, session) {
        (Some(token), _) if route.access != Access::Session => {
            keys::authenticate(&state.ctx, token, ip).await
        }
        (None, Some(c)) if matches!(route.access, Access::AnyKey | Access::Session) => {
            if c.same_origin {
                match c.mode {
                    Ok(mode) => sessions::authenticate(&state.ctx, c.secret)
                        .await
                        .map(|a| a.in_mode(mode).from_client(ip)),
                    Err(e) => Err(e),
                }
            } else {
                Err(super::session::cross_site())
            }
        }
        _ => Err(DomainError::Unauthenticated),
    };
    let actor = match authenticated.and_then(|a| match route.access {
        Access::Scope(s) => a.require(s).map(|_| a),
        Access::Either(s, t) if !a.scopes.contains(t) => a.require(s).map(|_| a),
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
