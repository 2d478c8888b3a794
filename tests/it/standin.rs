//! The Stripe stand-in (testkit/stripe/standin.py), started once for the test binary and
//! shared: every test app has its own secret keys, and so its own world in it. It ends when
//! the binary does (its standard input closes).

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::sync::OnceLock;

use serde_json::{Value, json};

struct Running {
    url: String,
    // Held open for the binary's life: the stand-in ends when it closes.
    _stdin: std::process::ChildStdin,
}

static STANDIN: OnceLock<Option<Running>> = OnceLock::new();

/// The stand-in's address, started on first use; `None` only when the part is skipped.
pub fn url() -> Option<String> {
    STANDIN
        .get_or_init(|| {
            let script = concat!(env!("CARGO_MANIFEST_DIR"), "/testkit/stripe/standin.py");
            let child = Command::new("python3")
                .args([script, "--port", "0", "--any-key", "--until-stdin-closes"])
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::inherit())
                .spawn();
            let mut child = match child {
                Ok(c) => c,
                Err(e) => {
                    signet_testkit::part(
                        "stripe",
                        Some(format!("python3 runs the Stripe stand-in: {e}")),
                    );
                    return None;
                }
            };
            let mut line = String::new();
            BufReader::new(child.stdout.take().expect("stdout"))
                .read_line(&mut line)
                .expect("the stand-in says it is ready");
            let url = line
                .trim()
                .strip_prefix("ready ")
                .unwrap_or_else(|| panic!("the stand-in said {line:?}"))
                .to_string();
            Some(Running {
                url,
                _stdin: child.stdin.take().expect("stdin"),
            })
        })
        .as_ref()
        .map(|r| r.url.clone())
}

/// A test app's keys at the stand-in.
#[derive(Clone, Debug)]
pub struct Keys {
    pub url: String,
    pub test_key: String,
    pub live_key: String,
    pub test_hook: String,
    pub live_hook: String,
}

impl Keys {
    pub fn new(url: String, suffix: &str) -> Keys {
        Keys {
            url,
            test_key: format!("sk_test_{suffix}"),
            live_key: format!("sk_live_{suffix}"),
            test_hook: format!("whsec_{suffix}test"),
            live_hook: format!("whsec_{suffix}live"),
        }
    }

    /// Registers `hook` (the app's `/hooks/stripe`) for Connect events of both worlds.
    pub async fn register(&self, hook: &str) {
        for (key, secret) in [
            (&self.test_key, &self.test_hook),
            (&self.live_key, &self.live_hook),
        ] {
            self.control(
                "POST",
                "/_test/webhooks",
                json!({"key": key, "url": hook, "secret": secret, "connect": true}),
            )
            .await;
        }
    }

    /// A test control (`/_test/...`), answering its JSON.
    pub async fn control(&self, method: &str, path: &str, body: Value) -> Value {
        let res = reqwest::Client::new()
            .request(method.parse().unwrap(), format!("{}{path}", self.url))
            .json(&body)
            .send()
            .await
            .unwrap();
        let status = res.status();
        let out: Value = res.json().await.unwrap_or(Value::Null);
        assert!(status.is_success(), "{path}: {status} {out}");
        out
    }

    /// A call of Stripe's API as the platform (test mode), on `account` when given.
    pub async fn api(
        &self,
        method: &str,
        path: &str,
        form: &[(&str, &str)],
        account: Option<&str>,
    ) -> Value {
        let mut r = reqwest::Client::new()
            .request(method.parse().unwrap(), format!("{}{path}", self.url))
            .bearer_auth(&self.test_key);
        if let Some(a) = account {
            r = r.header("Stripe-Account", a);
        }
        if !form.is_empty() {
            r = r
                .header("content-type", "application/x-www-form-urlencoded")
                .body(encoded(form));
        }
        let res = r.send().await.unwrap();
        let status = res.status();
        let out: Value = res.json().await.unwrap();
        assert!(status.is_success(), "{path}: {status} {out}");
        out
    }
}

/// Pairs as a form body.
pub fn encoded(pairs: &[(&str, &str)]) -> String {
    url::form_urlencoded::Serializer::new(String::new())
        .extend_pairs(pairs)
        .finish()
}
