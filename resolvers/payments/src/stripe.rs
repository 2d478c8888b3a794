//! Stripe's REST API as Signet uses it: form bodies with bracketed keys, the platform's secret
//! key of the mode (live or test), `Stripe-Account` for the connected account a call acts on,
//! and `Idempotency-Key` on every call that makes something, so a call repeated after a lost
//! answer makes nothing twice. Stripe unreachable, slow, rate limiting or failing is a
//! `dependency` error the caller may retry; a refusal is a conflict with Stripe's own words.
//! Events are verified here too: `Stripe-Signature: t=…,v1=…` is HMAC-SHA256 of `t.body` with
//! the endpoint's secret, within a tolerance of the signing time.

use std::time::Duration;

use ring::hmac;
use secrecy::{ExposeSecret, SecretString};
use serde_json::Value;
use signet_core::{DomainError, Mode};

/// How far from now a signed event's time may be (Stripe's own libraries' default).
pub const TOLERANCE_SECS: i64 = 300;
/// The most of an answer read: Stripe's objects are a few kilobytes.
const MAX_ANSWER_BYTES: usize = 1024 * 1024;

/// The platform's keys of one mode.
pub struct Keys {
    pub secret: SecretString,
    /// The signing secret of the Connect webhook endpoint registered for this mode.
    pub webhook: SecretString,
}

/// The platform's Stripe account, as the operator configured it.
pub struct Stripe {
    /// `https://api.stripe.com` (or a stand-in's address in tests).
    pub base: String,
    pub live: Option<Keys>,
    pub test: Option<Keys>,
    client: reqwest::Client,
}

impl std::fmt::Debug for Stripe {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Stripe")
            .field("base", &self.base)
            .field("live", &self.live.is_some())
            .field("test", &self.test.is_some())
            .finish()
    }
}

impl Stripe {
    pub fn new(base: &str, live: Option<Keys>, test: Option<Keys>) -> Result<Stripe, String> {
        // reqwest is built without a TLS crypto provider; ring is the one backend of the tree.
        let _ = rustls::crypto::ring::default_provider().install_default();
        let client = reqwest::Client::builder()
            .timeout(Duration::from_secs(20))
            .connect_timeout(Duration::from_secs(5))
            .redirect(reqwest::redirect::Policy::none())
            .user_agent(concat!("Signet/", env!("CARGO_PKG_VERSION")))
            .build()
            .map_err(|e| format!("building the HTTP client: {e}"))?;
        Ok(Stripe {
            base: base.trim_end_matches('/').to_string(),
            live,
            test,
            client,
        })
    }

    /// An installation without payments: every call says so.
    pub fn none() -> Stripe {
        let _ = rustls::crypto::ring::default_provider().install_default();
        Stripe {
            base: "https://api.stripe.com".into(),
            live: None,
            test: None,
            client: reqwest::Client::new(),
        }
    }

    pub fn keys(&self, mode: Mode) -> Result<&Keys, DomainError> {
        match mode {
            Mode::Live => self.live.as_ref(),
            Mode::Test => self.test.as_ref(),
        }
        .ok_or_else(|| {
            DomainError::conflict(format!(
                "payments are not set up on this installation for {} documents (its operator \
                 sets the platform's Stripe keys: docs/payments.md)",
                mode.as_str()
            ))
        })
    }

    /// `POST path` with `params` (form-encoded), on `account` when given.
    pub async fn post(
        &self,
        mode: Mode,
        path: &str,
        params: &[(String, String)],
        account: Option<&str>,
        idempotency_key: Option<&str>,
    ) -> Result<Value, DomainError> {
        let body = url::form_urlencoded::Serializer::new(String::new())
            .extend_pairs(params)
            .finish();
        let mut req = self
            .request(mode, reqwest::Method::POST, path, account)?
            .header(
                reqwest::header::CONTENT_TYPE,
                "application/x-www-form-urlencoded",
            )
            .body(body);
        if let Some(k) = idempotency_key {
            req = req.header("Idempotency-Key", k);
        }
        answer(req.send().await).await
    }

    /// `GET path` (with its query), on `account` when given.
    pub async fn get(
        &self,
        mode: Mode,
        path: &str,
        account: Option<&str>,
    ) -> Result<Value, DomainError> {
        let req = self.request(mode, reqwest::Method::GET, path, account)?;
        answer(req.send().await).await
    }

    fn request(
        &self,
        mode: Mode,
        method: reqwest::Method,
        path: &str,
        account: Option<&str>,
    ) -> Result<reqwest::RequestBuilder, DomainError> {
        let keys = self.keys(mode)?;
        let mut req = self
            .client
            .request(method, format!("{}{path}", self.base))
            .bearer_auth(keys.secret.expose_secret());
        if let Some(a) = account {
            req = req.header("Stripe-Account", a);
        }
        Ok(req)
    }

    /// The mode whose endpoint secret signed `body` at a time within the tolerance of
    /// `now_secs`, or why the event is refused.
    pub fn verify(&self, header: &str, body: &[u8], now_secs: i64) -> Result<Mode, DomainError> {
        let refused = |why: &str| DomainError::Invalid(format!("Stripe-Signature: {why}"));
        let mut time = None;
        let mut signatures = Vec::new();
        for part in header.split(',') {
            match part.trim().split_once('=') {
                Some(("t", t)) => time = t.parse::<i64>().ok(),
                Some(("v1", s)) => signatures.extend(from_hex(s)),
                _ => {}
            }
        }
        let time = time.ok_or_else(|| refused("no time (t=)"))?;
        if signatures.is_empty() {
            return Err(refused("no v1 signature"));
        }
        if signatures.len() > MAX_SIGNATURES {
            return Err(refused("too many signatures"));
        }
        let age = now_secs.checked_sub(time).map(i64::abs);
        if age.is_none_or(|a| a > TOLERANCE_SECS) {
            return Err(refused("signed outside the five-minute tolerance"));
        }
        let mut signed = format!("{time}.").into_bytes();
        signed.extend_from_slice(body);
        // One HMAC per secret, compared with each signature given in constant time.
        for (mode, keys) in [(Mode::Live, &self.live), (Mode::Test, &self.test)] {
            let Some(keys) = keys else { continue };
            let key = hmac::Key::new(hmac::HMAC_SHA256, keys.webhook.expose_secret().as_bytes());
            let tag = hmac::sign(&key, &signed);
            if signatures.iter().any(|s| same(s, tag.as_ref())) {
                return Ok(mode);
            }
        }
        Err(refused("no signature matches an endpoint secret"))
    }
}

/// Signatures one header may carry (Stripe sends one, two while a secret is rolled).
const MAX_SIGNATURES: usize = 8;

/// Equal bytes, in time that does not depend on where they differ.
fn same(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |d, (x, y)| d | (x ^ y)) == 0
}

fn from_hex(s: &str) -> Option<Vec<u8>> {
    if s.len() != 64 {
        return None;
    }
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).ok())
        .collect()
}

async fn answer(sent: Result<reqwest::Response, reqwest::Error>) -> Result<Value, DomainError> {
    let unreachable = || {
        DomainError::Dependency(
            "the payment processor (Stripe) could not be reached; try again in a moment".into(),
        )
    };
    let mut res = sent.map_err(|e| {
        tracing::warn!(error = %e, "stripe unreachable");
        unreachable()
    })?;
    let status = res.status();
    let mut bytes = Vec::new();
    while let Some(chunk) = res.chunk().await.map_err(|_| unreachable())? {
        if bytes.len() + chunk.len() > MAX_ANSWER_BYTES {
            return Err(unreachable());
        }
        bytes.extend_from_slice(&chunk);
    }
    if status.is_server_error() || status.as_u16() == 429 {
        tracing::warn!(%status, "stripe failed");
        return Err(unreachable());
    }
    let json: Value = serde_json::from_slice(&bytes).map_err(|_| unreachable())?;
    if status.is_success() {
        return Ok(json);
    }
    let message = json["error"]["message"]
        .as_str()
        .unwrap_or("it gave no reason")
        .chars()
        .take(300)
        .collect::<String>();
    Err(DomainError::conflict(format!(
        "the payment processor (Stripe) refused: {message}"
    )))
}

/// Form parameters from pairs of `&str` and anything shown.
pub fn params<const N: usize>(pairs: [(&str, String); N]) -> Vec<(String, String)> {
    pairs.into_iter().map(|(k, v)| (k.to_string(), v)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stripe() -> Stripe {
        let keys = |s: &str| Keys {
            secret: SecretString::from("sk"),
            webhook: SecretString::from(s.to_string()),
        };
        let mut s = Stripe::none();
        s.live = Some(keys("whsec_live"));
        s.test = Some(keys("whsec_test"));
        s
    }

    fn sign(secret: &str, t: i64, body: &[u8]) -> String {
        let key = hmac::Key::new(hmac::HMAC_SHA256, secret.as_bytes());
        let mut signed = format!("{t}.").into_bytes();
        signed.extend_from_slice(body);
        let tag = hmac::sign(&key, &signed);
        let hex: String = tag.as_ref().iter().map(|b| format!("{b:02x}")).collect();
        format!("t={t},v1={hex}")
    }

    #[test]
    fn an_event_is_believed_only_when_signed_recently_by_a_known_secret() {
        let s = stripe();
        let body = br#"{"id":"evt_1"}"#;
        let now = 1_800_000_000;
        assert_eq!(
            s.verify(&sign("whsec_test", now, body), body, now).ok(),
            Some(Mode::Test)
        );
        assert_eq!(
            s.verify(&sign("whsec_live", now - 200, body), body, now)
                .ok(),
            Some(Mode::Live)
        );
        // Another secret, another body, an old signature, none at all.
        assert!(
            s.verify(&sign("whsec_other", now, body), body, now)
                .is_err()
        );
        assert!(
            s.verify(&sign("whsec_test", now, body), br#"{"id":"evt_2"}"#, now)
                .is_err()
        );
        assert!(
            s.verify(&sign("whsec_test", now - 301, body), body, now)
                .is_err()
        );
        assert!(s.verify("t=1800000000", body, now).is_err());
        assert!(
            s.verify(&sign("whsec_test", i64::MIN, body), body, now)
                .is_err()
        );
        let many = format!("{},v1={}", sign("whsec_test", now, body), "0".repeat(64));
        assert!(s.verify(&many, body, now).is_ok());
        let flood = format!("t={now}{}", format!(",v1={}", "0".repeat(64)).repeat(9));
        assert!(s.verify(&flood, body, now).is_err());
        // Rotation: two v1 signatures, one of them good.
        let good = sign("whsec_test", now, body);
        let both = format!(
            "{},v1={}",
            sign("whsec_old", now, body),
            &good[good.find("v1=").unwrap() + 3..]
        );
        assert_eq!(s.verify(&both, body, now).ok(), Some(Mode::Test));
    }
}
