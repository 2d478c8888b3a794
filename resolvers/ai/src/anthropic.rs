//! Anthropic's Messages API: the schema is the input schema of one tool the model is made to
//! call (`tool_choice`), and the answer is that call's `input`. A `stop_reason` of
//! `max_tokens` (cut short) or `refusal`, or no call of the tool, is a failure.

use serde_json::{Value, json};

use crate::provider::{Answer, Ask, Failure, Role, Settings, Usage};

pub(crate) const VERSION: &str = "2023-06-01";

pub(crate) fn request(s: &Settings, ask: &Ask) -> (String, Value) {
    let messages: Vec<Value> = ask
        .turns
        .iter()
        .map(|(role, text)| {
            let role = match role {
                Role::User => "user",
                Role::Assistant => "assistant",
            };
            json!({"role": role, "content": text})
        })
        .collect();
    let body = json!({
        "model": s.model,
        "max_tokens": s.max_tokens,
        "system": ask.instructions,
        "messages": messages,
        "tools": [{
            "name": ask.schema_name,
            "description": "Give the answer. Always answer by calling this tool.",
            "input_schema": ask.schema,
        }],
        "tool_choice": {"type": "tool", "name": ask.schema_name},
        "temperature": 0,
    });
    (format!("{}/messages", s.base_url), body)
}

pub(crate) fn answer(json: &Value) -> Result<Answer, Failure> {
    let usage = Usage {
        input: json
            .pointer("/usage/input_tokens")
            .and_then(Value::as_u64)
            .unwrap_or(0),
        output: json
            .pointer("/usage/output_tokens")
            .and_then(Value::as_u64)
            .unwrap_or(0),
    };
    match json.get("stop_reason").and_then(Value::as_str) {
        Some("max_tokens") => {
            return Err(Failure::new(
                "the model's answer was cut short at the token limit",
                true,
                usage,
            ));
        }
        Some("refusal") => {
            return Err(Failure::new("the model refused", false, usage));
        }
        _ => {}
    }
    let call = json.get("content").and_then(Value::as_array).and_then(|c| {
        c.iter()
            .find(|b| b.get("type").and_then(Value::as_str) == Some("tool_use"))
    });
    match call.and_then(|c| c.get("input")) {
        Some(input) if input.is_object() => Ok(Answer {
            value: input.clone(),
            text: input.to_string(),
            usage,
        }),
        _ => Err(Failure::new(
            "the model answered without calling its answer tool",
            true,
            usage,
        )),
    }
}
