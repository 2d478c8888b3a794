//! One signed POST to a receiver, and the process-wide pieces delivery needs: the guarded HTTP
//! client, the operator's address policy, the secret box, and the relay's wake-up signal.

use std::time::{Duration, Instant};

use super::guard::{self, Policy};
use super::secret;
use signet_core::DomainError;

/// A receiver has this long to answer.
pub const TIMEOUT: Duration = Duration::from_secs(15);
/// Bytes of a receiver's answer read (and dropped) so the connection can be reused.
const DRAIN_LIMIT: usize = 64 * 1024;

pub struct Hooks {
    pub policy: Policy,
    pub client: reqwest::Client,
    /// Woken when messages are stored for relay endpoints in this process.
    pub relay_wake: tokio::sync::Notify,
}

impl std::fmt::Debug for Hooks {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Hooks")
            .field("policy", &self.policy)
            .finish()
    }
}

impl Hooks {
    pub fn new(policy: Policy) -> Hooks {
        // reqwest is built without a TLS crypto provider; ring is the one backend of the tree.
        let _ = rustls::crypto::ring::default_provider().install_default();
        let client = reqwest::Client::builder()
            .timeout(TIMEOUT)
            .connect_timeout(Duration::from_secs(10))
            .redirect(reqwest::redirect::Policy::none())
            .no_proxy()
            // As many as deliveries in flight, so a busy receiver keeps its connections warm.
            .pool_max_idle_per_host(512)
            .user_agent(concat!("Signet-Webhooks/", env!("CARGO_PKG_VERSION")))
            .dns_resolver(guard::resolver(policy))
            .build()
            .unwrap_or_else(|e| panic!("building the webhook HTTP client: {e}"));
        Hooks {
            policy,
            client,
            relay_wake: tokio::sync::Notify::new(),
        }
    }
}

/// The webhook services of `ctx` (registered at start-up with `Ctx::with`).
pub fn hooks(ctx: &signet_core::Ctx) -> &Hooks {
    ctx.services.get()
}

/// The headers of one delivery: `webhook-id`, `webhook-timestamp`, and `webhook-signature` and
/// `service-signature` with one `v1,` value per live secret, space-separated.
pub fn signed_headers(
    secrets: &[String],
    webhook_id: &str,
    timestamp: i64,
    body: &[u8],
) -> Result<Vec<(String, String)>, DomainError> {
    let mut sigs = Vec::with_capacity(secrets.len());
    for s in secrets {
        sigs.push(secret::sign(s, webhook_id, timestamp, body)?);
    }
    let sig = sigs.join(" ");
    Ok(vec![
        ("content-type".into(), "application/json".into()),
        ("webhook-id".into(), webhook_id.to_string()),
        ("webhook-timestamp".into(), timestamp.to_string()),
        ("webhook-signature".into(), sig.clone()),
        ("service-signature".into(), sig),
    ])
}

/// What a receiver made of one attempt.
#[derive(Clone, Debug)]
pub struct Outcome {
    pub succeeded: bool,
    pub status: Option<u16>,
    pub result: String,
    pub duration_ms: i64,
    /// The receiver's Retry-After, when it gave one.
    pub retry_after: Option<Duration>,
}

impl Outcome {
    /// 410 Gone: the receiver asks never to be called again.
    pub fn gone(&self) -> bool {
        self.status == Some(410)
    }
}

fn retry_after(headers: &reqwest::header::HeaderMap) -> Option<Duration> {
    let v = headers
        .get(reqwest::header::RETRY_AFTER)?
        .to_str()
        .ok()?
        .trim();
    if let Ok(secs) = v.parse::<u64>() {
        return Some(Duration::from_secs(secs));
    }
    let when = chrono::DateTime::parse_from_rfc2822(v).ok()?;
    let secs = (when.timestamp() - chrono::Utc::now().timestamp()).max(0);
    Some(Duration::from_secs(secs as u64))
}

/// Posts `body` to `url` with `headers`. Never follows a redirect; the guard applies to the
/// addresses the connection uses.
pub async fn post(hooks: &Hooks, url: &str, headers: &[(String, String)], body: String) -> Outcome {
    let started = Instant::now();
    let done = |succeeded, status, result: String, retry_after| Outcome {
        succeeded,
        status,
        result,
        duration_ms: started.elapsed().as_millis() as i64,
        retry_after,
    };
    let url = match guard::check_form(url, hooks.policy) {
        Ok(u) => u,
        Err(e) => return done(false, None, format!("refused: the URL {e}"), None),
    };
    if let Err(e) = guard::check_literal(&url, hooks.policy) {
        return done(false, None, format!("refused: the URL {e}"), None);
    }
    let mut req = hooks.client.post(url).body(body);
    for (k, v) in headers {
        req = req.header(k.as_str(), v.as_str());
    }
    match req.send().await {
        Ok(mut resp) => {
            let status = resp.status();
            let after = retry_after(resp.headers());
            let mut read = 0;
            while read < DRAIN_LIMIT {
                match resp.chunk().await {
                    Ok(Some(c)) => read += c.len(),
                    _ => break,
                }
            }
            let words = format!(
                "{} {}",
                status.as_u16(),
                status.canonical_reason().unwrap_or("")
            );
            let result = if status.is_redirection() {
                format!("{} (redirects are not followed)", words.trim_end())
            } else {
                words.trim_end().to_string()
            };
            done(status.is_success(), Some(status.as_u16()), result, after)
        }
        Err(e) => {
            let result = if e.is_timeout() {
                format!("timed out after {} s", TIMEOUT.as_secs())
            } else if e.is_connect() {
                format!("could not connect: {}", root_cause(&e))
            } else {
                format!("failed: {}", root_cause(&e))
            };
            done(false, None, result, None)
        }
    }
}

fn root_cause(e: &(dyn std::error::Error + 'static)) -> String {
    let mut cur = e;
    while let Some(next) = cur.source() {
        cur = next;
    }
    cur.to_string()
}
