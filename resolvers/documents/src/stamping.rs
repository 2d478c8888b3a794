//! Where the sealing worker's time stamps come from: the built-in authority (`signet-seal`),
//! or an operator's RFC 3161 service with a fallback. Sealing runs on the blocking pool, so
//! the external stamper makes its HTTP calls through the runtime's handle.

use std::time::Duration;

use signet_seal::{Authority, SealError, TimeStamper, remote};

/// The largest answer read from an external authority.
const MAX_ANSWER: usize = 256 * 1024;

/// The URL without user name, password or query, for logs and errors: an operator's
/// credentials for the service never reach a log line.
fn redact(url: &str) -> String {
    match reqwest::Url::parse(url) {
        Ok(mut u) => {
            let _ = u.set_username("");
            let _ = u.set_password(None);
            u.set_query(None);
            u.to_string()
        }
        Err(_) => "(the configured URL)".into(),
    }
}

#[derive(Clone, Default)]
pub struct Stamping {
    /// The primary URL first, then the fallback; empty for the built-in authority.
    urls: Vec<String>,
    client: Option<reqwest::Client>,
}

impl Stamping {
    pub fn built_in() -> Stamping {
        Stamping::default()
    }

    /// An external authority at `url`, tried first, then `fallback`; each call gives up after
    /// `timeout`.
    pub fn external(
        url: String,
        fallback: Option<String>,
        timeout: Duration,
    ) -> Result<Stamping, String> {
        let client = reqwest::Client::builder()
            .timeout(timeout)
            .connect_timeout(timeout)
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .map_err(|e| format!("the time-stamp client cannot be built: {e}"))?;
        Ok(Stamping {
            urls: std::iter::once(url).chain(fallback).collect(),
            client: Some(client),
        })
    }

    /// A stamper for this job; call from the blocking pool.
    /// The built-in authority stamps test seals with its test TSA, under the test root.
    pub(crate) fn stamper<'a>(
        &'a self,
        authority: &'a Authority,
        test: bool,
        handle: tokio::runtime::Handle,
    ) -> Box<dyn TimeStamper + 'a> {
        match &self.client {
            Some(client) => Box::new(Http {
                urls: &self.urls,
                client,
                handle,
            }),
            None => Box::new(authority.tsa_for(test)),
        }
    }
}

struct Http<'a> {
    urls: &'a [String],
    client: &'a reqwest::Client,
    handle: tokio::runtime::Handle,
}

impl TimeStamper for Http<'_> {
    fn stamp(&self, sha256: &[u8]) -> Result<Vec<u8>, SealError> {
        let pending = remote::request(sha256)?;
        let mut failures = Vec::new();
        for url in self.urls {
            let answer = self.handle.block_on(async {
                let mut res = self
                    .client
                    .post(url)
                    .header("content-type", "application/timestamp-query")
                    .body(pending.body.clone())
                    .send()
                    .await
                    .map_err(|e| e.without_url().to_string())?;
                if !res.status().is_success() {
                    return Err(format!("answered {}", res.status()));
                }
                // A token with its chain is a few kilobytes; stop reading well before memory
                // is at risk.
                let mut body = Vec::new();
                while let Some(chunk) =
                    res.chunk().await.map_err(|e| e.without_url().to_string())?
                {
                    body.extend_from_slice(&chunk);
                    if body.len() > MAX_ANSWER {
                        return Err(format!("answered more than {MAX_ANSWER} bytes"));
                    }
                }
                Ok(body)
            });
            let shown = redact(url);
            match answer.and_then(|body| pending.token(&body).map_err(|e| e.to_string())) {
                Ok(token) => return Ok(token),
                Err(e) => {
                    tracing::warn!(url = %shown, error = %e, "time-stamp authority failed");
                    failures.push(format!("{shown}: {e}"));
                }
            }
        }
        Err(SealError::TimeStamp(failures.join("; ")))
    }
}
