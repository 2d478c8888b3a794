//! The `LlmProvider` seam: one conversation sent to the operator's model, asking for JSON
//! held to a schema, and what came back. Two adapters speak to real APIs: `openai` (chat
//! completions with a strict `json_schema` response format: OpenAI, llama.cpp, vLLM, Ollama
//! and hosted services alike) and `anthropic` (Messages with one forced tool whose input
//! schema is ours). Nothing here trusts the answer: a refusal, a reply cut short by the token
//! limit, or text that is not JSON is a `Failure`, and a JSON value is only ever checked by
//! the caller (`check`), never used as it came.

use std::time::Duration;

use secrecy::{ExposeSecret, SecretString};
use serde_json::Value;

/// Which API the operator's model speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    OpenAi,
    Anthropic,
}

impl Kind {
    pub fn parse(s: &str) -> Option<Kind> {
        match s {
            "openai" => Some(Kind::OpenAi),
            "anthropic" => Some(Kind::Anthropic),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Kind::OpenAi => "openai",
            Kind::Anthropic => "anthropic",
        }
    }
}

/// The operator's settings (`ai_*` in the configuration).
#[derive(Clone, Debug)]
pub struct Settings {
    pub kind: Kind,
    /// Up to the API's version: `https://api.openai.com/v1`, `http://127.0.0.1:8081/v1`,
    /// `https://api.anthropic.com/v1`.
    pub base_url: String,
    pub model: String,
    pub key: Option<SecretString>,
    /// One call to the model, from sending to the last byte of the answer.
    pub timeout: Duration,
    /// Tokens the model may write in one call.
    pub max_tokens: u32,
    /// OpenAI's `frequency_penalty`, sent when set: small local models repeat themselves
    /// without one.
    pub frequency_penalty: Option<f32>,
}

/// Who speaks a turn of the conversation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    User,
    Assistant,
}

/// What Signet asks: fixed instructions (never built from a caller's words), the turns, and
/// the schema the answer must keep to.
#[derive(Clone, Debug)]
pub struct Ask {
    pub instructions: String,
    pub turns: Vec<(Role, String)>,
    pub schema_name: &'static str,
    pub schema: Value,
}

/// Tokens a call spent, as the provider counted them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Usage {
    pub input: u64,
    pub output: u64,
}

/// A call that gave no JSON to check: why, in words a person can act on, and what it spent.
#[derive(Clone, Debug)]
pub struct Failure {
    pub reason: String,
    /// Sending the same question again could help (a repair round for a malformed or cut
    /// answer; nothing for a refusal or a bad key).
    pub repairable: bool,
    pub usage: Usage,
}

impl Failure {
    pub(crate) fn new(reason: impl Into<String>, repairable: bool, usage: Usage) -> Failure {
        Failure {
            reason: reason.into(),
            repairable,
            usage,
        }
    }
}

/// The JSON answer and what it cost.
#[derive(Clone, Debug)]
pub struct Answer {
    pub value: Value,
    /// The answer as the model wrote it, sent back in a repair round.
    pub text: String,
    pub usage: Usage,
}

/// A configured model.
pub struct Provider {
    pub settings: Settings,
    client: reqwest::Client,
}

impl std::fmt::Debug for Provider {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Provider")
            .field("kind", &self.settings.kind)
            .field("model", &self.settings.model)
            .finish()
    }
}

/// The most of a provider's answer read: a structured draft is far smaller.
const MAX_ANSWER_BYTES: usize = 4 * 1024 * 1024;

impl Provider {
    pub fn new(settings: Settings) -> Result<Provider, String> {
        // reqwest is built without a TLS crypto provider; ring is the one backend of the tree.
        let _ = rustls::crypto::ring::default_provider().install_default();
        let client = reqwest::Client::builder()
            .timeout(settings.timeout)
            .connect_timeout(Duration::from_secs(10))
            .redirect(reqwest::redirect::Policy::none())
            .user_agent(concat!("Signet/", env!("CARGO_PKG_VERSION")))
            .build()
            .map_err(|e| format!("building the HTTP client: {e}"))?;
        Ok(Provider { settings, client })
    }

    /// Sends `ask` and reads the answer. Dropping the future closes the connection, which
    /// stops a local server's generation (cancelling a job relies on it).
    pub async fn ask(&self, ask: &Ask) -> Result<Answer, Failure> {
        let (url, body) = match self.settings.kind {
            Kind::OpenAi => crate::openai::request(&self.settings, ask),
            Kind::Anthropic => crate::anthropic::request(&self.settings, ask),
        };
        // The schema's properties in their order (`ordered_text`), which `.json()` would sort.
        let mut req = self
            .client
            .post(url)
            .header(reqwest::header::CONTENT_TYPE, "application/json")
            .body(crate::form::ordered_text(&body));
        if let Some(key) = &self.settings.key {
            req = match self.settings.kind {
                Kind::OpenAi => req.bearer_auth(key.expose_secret()),
                Kind::Anthropic => req.header("x-api-key", key.expose_secret()),
            };
        }
        if self.settings.kind == Kind::Anthropic {
            req = req.header("anthropic-version", crate::anthropic::VERSION);
        }
        let res = req.send().await.map_err(|e| unreachable_failure(&e))?;
        let status = res.status();
        let bytes = read_capped(res).await?;
        let json: Value = serde_json::from_slice(&bytes).map_err(|_| {
            Failure::new(
                format!("the model's server answered {status} with something other than JSON"),
                status.is_server_error(),
                Usage::default(),
            )
        })?;
        if !status.is_success() {
            return Err(http_failure(status.as_u16(), &json));
        }
        match self.settings.kind {
            Kind::OpenAi => crate::openai::answer(&json),
            Kind::Anthropic => crate::anthropic::answer(&json),
        }
    }
}

fn unreachable_failure(e: &reqwest::Error) -> Failure {
    let what = if e.is_timeout() {
        "the model did not answer in time"
    } else if e.is_connect() {
        "the model's server could not be reached"
    } else {
        "the connection to the model's server failed"
    };
    Failure::new(what, false, Usage::default())
}

async fn read_capped(mut res: reqwest::Response) -> Result<Vec<u8>, Failure> {
    let mut out = Vec::new();
    loop {
        match res.chunk().await {
            Ok(Some(chunk)) => {
                if out.len() + chunk.len() > MAX_ANSWER_BYTES {
                    return Err(Failure::new(
                        "the model's answer was larger than 4 MB",
                        false,
                        Usage::default(),
                    ));
                }
                out.extend_from_slice(&chunk);
            }
            Ok(None) => return Ok(out),
            Err(e) => return Err(unreachable_failure(&e)),
        }
    }
}

/// A refused call: the provider's own message (both APIs put it at `error.message`), cut
/// short, and whether trying again could help.
fn http_failure(status: u16, json: &Value) -> Failure {
    let said = json
        .pointer("/error/message")
        .and_then(Value::as_str)
        .map(|m| m.chars().take(300).collect::<String>())
        .unwrap_or_default();
    let what = match status {
        401 | 403 => "the model's server refused the key; the operator checks ai_api_key",
        404 => {
            "the model's server does not know this model or address; the operator checks ai_model and ai_base_url"
        }
        429 => "the model's server is over its rate or spending limit",
        400 | 422 => "the model's server refused the request",
        _ => "the model's server failed",
    };
    let reason = if said.is_empty() {
        format!("{what} ({status})")
    } else {
        format!("{what} ({status}: {said})")
    };
    Failure::new(reason, false, Usage::default())
}

/// The first JSON value of a model's text: the text itself, or inside a Markdown fence some
/// servers add even under a schema.
pub(crate) fn parse_json(text: &str) -> Option<Value> {
    let t = text.trim();
    let t = t
        .strip_prefix("```json")
        .or_else(|| t.strip_prefix("```"))
        .and_then(|r| r.trim_end().strip_suffix("```"))
        .unwrap_or(t);
    serde_json::from_str(t.trim()).ok()
}
