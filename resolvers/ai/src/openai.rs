//! OpenAI's chat completions, as OpenAI, llama.cpp, vLLM and Ollama serve them: the schema
//! goes in `response_format` as a strict `json_schema`, the answer is the first choice's
//! `message.content`. A `refusal`, a `finish_reason` of `length` (the answer was cut at the
//! token limit) or of `content_filter` is a failure, never JSON to trust.

use serde_json::{Value, json};

use crate::provider::{Answer, Ask, Failure, Role, Settings, Usage, parse_json};

pub(crate) fn request(s: &Settings, ask: &Ask) -> (String, Value) {
    let mut messages = vec![json!({"role": "system", "content": ask.instructions})];
    for (role, text) in &ask.turns {
        let role = match role {
            Role::User => "user",
            Role::Assistant => "assistant",
        };
        messages.push(json!({"role": role, "content": text}));
    }
    let mut body = json!({
        "model": s.model,
        "messages": messages,
        "response_format": {
            "type": "json_schema",
            "json_schema": {"name": ask.schema_name, "strict": true, "schema": ask.schema},
        },
        "max_tokens": s.max_tokens,
        "temperature": 0,
        "stream": false,
    });
    if let Some(p) = s.frequency_penalty {
        body["frequency_penalty"] = json!(p);
    }
    (format!("{}/chat/completions", s.base_url), body)
}

pub(crate) fn answer(json: &Value) -> Result<Answer, Failure> {
    let usage = Usage {
        input: json
            .pointer("/usage/prompt_tokens")
            .and_then(Value::as_u64)
            .unwrap_or(0),
        output: json
            .pointer("/usage/completion_tokens")
            .and_then(Value::as_u64)
            .unwrap_or(0),
    };
    let Some(choice) = json.pointer("/choices/0") else {
        return Err(Failure::new(
            "the model's answer had no choices",
            true,
            usage,
        ));
    };
    if let Some(r) = choice.pointer("/message/refusal").and_then(Value::as_str)
        && !r.trim().is_empty()
    {
        let r: String = r.chars().take(300).collect();
        return Err(Failure::new(
            format!("the model refused: {r}"),
            false,
            usage,
        ));
    }
    match choice.get("finish_reason").and_then(Value::as_str) {
        Some("length") => {
            return Err(Failure::new(
                "the model's answer was cut short at the token limit",
                true,
                usage,
            ));
        }
        Some("content_filter") => {
            return Err(Failure::new(
                "the model's provider filtered the answer",
                false,
                usage,
            ));
        }
        _ => {}
    }
    let Some(text) = choice.pointer("/message/content").and_then(Value::as_str) else {
        return Err(Failure::new(
            "the model's answer had no content",
            true,
            usage,
        ));
    };
    match parse_json(text) {
        Some(value) => Ok(Answer {
            value,
            text: text.to_string(),
            usage,
        }),
        None => Err(Failure::new("the model's answer was not JSON", true, usage)),
    }
}
