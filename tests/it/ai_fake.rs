//! A model provider in the test process that answers as OpenAI's chat completions and
//! Anthropic's Messages do (their recorded shapes: content, refusals, truncation, errors,
//! slow answers), from a script of answers, and keeps every request it was sent with its
//! headers. A request whose connection is closed before its answer is counted as abandoned.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::routing::post;
use serde_json::{Value, json};

/// One scripted answer.
#[derive(Clone, Debug)]
pub enum Reply {
    /// The model's JSON, as OpenAI's `message.content` or Anthropic's tool input.
    Json(Value),
    /// Text that is not JSON.
    Text(String),
    /// Cut at the token limit (`finish_reason: length`, `stop_reason: max_tokens`).
    Truncated,
    /// A refusal (`message.refusal`, `stop_reason: refusal`).
    Refusal(String),
    /// An HTTP error with the API's error body.
    Status(u16, String),
    /// Waits this long first, then answers the inner reply.
    Slow(Duration, Box<Reply>),
}

#[derive(Clone, Debug)]
pub struct Seen {
    pub path: String,
    pub headers: HeaderMap,
    pub body: Value,
}

#[derive(Clone, Default)]
pub struct Fake {
    script: Arc<Mutex<VecDeque<Reply>>>,
    pub seen: Arc<Mutex<Vec<Seen>>>,
    pub abandoned: Arc<AtomicUsize>,
}

struct Abandon(Arc<AtomicUsize>, bool);

impl Drop for Abandon {
    fn drop(&mut self) {
        if !self.1 {
            self.0.fetch_add(1, Ordering::SeqCst);
        }
    }
}

impl Fake {
    /// Starts the provider on a port of 127.0.0.1; answers its base URL (`.../v1`).
    pub async fn start() -> (Fake, String) {
        let fake = Fake::default();
        let app = axum::Router::new()
            .route("/v1/chat/completions", post(openai))
            .route("/v1/messages", post(anthropic))
            .with_state(fake.clone());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        tokio::spawn(async move { axum::serve(listener, app).await.ok() });
        (fake, format!("http://{addr}/v1"))
    }

    pub fn answer(&self, r: Reply) {
        self.script.lock().unwrap().push_back(r);
    }

    pub fn requests(&self) -> Vec<Seen> {
        self.seen.lock().unwrap().clone()
    }

    async fn next(&self, path: &str, headers: HeaderMap, body: Value) -> Reply {
        self.seen.lock().unwrap().push(Seen {
            path: path.into(),
            headers,
            body,
        });
        let mut r = self
            .script
            .lock()
            .unwrap()
            .pop_front()
            .unwrap_or(Reply::Status(500, "no answer scripted".into()));
        let mut guard = Abandon(self.abandoned.clone(), false);
        while let Reply::Slow(d, inner) = r {
            tokio::time::sleep(d).await;
            r = *inner;
        }
        guard.1 = true;
        r
    }
}

const USAGE_IN: u64 = 1200;
const USAGE_OUT: u64 = 300;

async fn openai(
    State(f): State<Fake>,
    headers: HeaderMap,
    body: axum::Json<Value>,
) -> (StatusCode, axum::Json<Value>) {
    let r = f.next("/v1/chat/completions", headers, body.0).await;
    let usage = json!({"prompt_tokens": USAGE_IN, "completion_tokens": USAGE_OUT, "total_tokens": USAGE_IN + USAGE_OUT});
    let choice = |message: Value, finish: &str| {
        json!({
            "id": "chatcmpl-1", "object": "chat.completion", "created": 1_764_000_000, "model": "fake",
            "choices": [{"index": 0, "message": message, "logprobs": null, "finish_reason": finish}],
            "usage": usage,
        })
    };
    match r {
        Reply::Json(v) => (
            StatusCode::OK,
            axum::Json(choice(
                json!({"role": "assistant", "content": v.to_string(), "refusal": null}),
                "stop",
            )),
        ),
        Reply::Text(t) => (
            StatusCode::OK,
            axum::Json(choice(
                json!({"role": "assistant", "content": t, "refusal": null}),
                "stop",
            )),
        ),
        Reply::Truncated => (
            StatusCode::OK,
            axum::Json(choice(
                json!({"role": "assistant", "content": "{\"title\": \"Mutual non-disc", "refusal": null}),
                "length",
            )),
        ),
        Reply::Refusal(t) => (
            StatusCode::OK,
            axum::Json(choice(
                json!({"role": "assistant", "content": null, "refusal": t}),
                "stop",
            )),
        ),
        Reply::Status(s, m) => (
            StatusCode::from_u16(s).unwrap(),
            axum::Json(
                json!({"error": {"message": m, "type": "invalid_request_error", "param": null, "code": null}}),
            ),
        ),
        Reply::Slow(..) => unreachable!(),
    }
}

async fn anthropic(
    State(f): State<Fake>,
    headers: HeaderMap,
    body: axum::Json<Value>,
) -> (StatusCode, axum::Json<Value>) {
    let name = body
        .0
        .pointer("/tool_choice/name")
        .and_then(Value::as_str)
        .unwrap_or("draft")
        .to_string();
    let r = f.next("/v1/messages", headers, body.0).await;
    let usage = json!({"input_tokens": USAGE_IN, "output_tokens": USAGE_OUT});
    let message = |content: Value, stop: &str| {
        json!({
            "id": "msg_1", "type": "message", "role": "assistant", "model": "fake",
            "content": content, "stop_reason": stop, "stop_sequence": null, "usage": usage,
        })
    };
    match r {
        Reply::Json(v) => (
            StatusCode::OK,
            axum::Json(message(
                json!([{"type": "tool_use", "id": "toolu_1", "name": name, "input": v}]),
                "tool_use",
            )),
        ),
        Reply::Text(t) => (
            StatusCode::OK,
            axum::Json(message(json!([{"type": "text", "text": t}]), "end_turn")),
        ),
        Reply::Truncated => (
            StatusCode::OK,
            axum::Json(message(
                json!([{"type": "tool_use", "id": "toolu_1", "name": name, "input": {}}]),
                "max_tokens",
            )),
        ),
        Reply::Refusal(_) => (StatusCode::OK, axum::Json(message(json!([]), "refusal"))),
        Reply::Status(s, m) => (
            StatusCode::from_u16(s).unwrap(),
            axum::Json(
                json!({"type": "error", "error": {"type": "invalid_request_error", "message": m}}),
            ),
        ),
        Reply::Slow(..) => unreachable!(),
    }
}
