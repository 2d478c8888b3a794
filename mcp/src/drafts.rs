//! Drafting from a play through the person's answers. A play asks its questions a round at a
//! time (`needs_input`). Where the assistant's client can ask the person (MCP elicitation),
//! each round is a form of the questions with their options:
//!
//! - on protocol 2026-07-28 and later, by answering the call with `InputRequiredResult` (the
//!   client asks, then calls again with the answers and the draft's reference as
//!   `requestState`; a reference only ever opens a draft of the caller's own workspace);
//! - on earlier protocols, by asking the client directly while the call waits.
//!
//! Otherwise, or when the person declines, the tool answers the draft as it stands, with the
//! questions for the assistant to ask in its own words and pass to `answer_draft`.

use std::collections::BTreeMap;

use rmcp::model::{
    ElicitRequest, ElicitRequestParams, ElicitResult, ElicitationAction, ElicitationSchema,
    InputRequest, InputRequests, InputRequiredResult, ProtocolVersion,
};
use rmcp::service::RequestContext;
use rmcp::{RoleServer, model::CallToolResponse};
use serde_json::{Value, json};
use signet_core::{Actor, Ctx, DomainError};
use signet_plays::drafting;
use signet_plays::types::{DraftAnswersIn, DraftOut};

/// The input request's key in an `InputRequiredResult`.
const ANSWERS: &str = "answers";
/// Rounds asked within one call on an earlier protocol, whatever the play.
const MAX_ROUNDS: usize = 12;

pub enum Next {
    /// The call's answer.
    Done(Box<Result<DraftOut, DomainError>>),
    /// Ask the client (2026-07-28): the form, and the draft's reference as the state.
    Ask(InputRequiredResult),
}

fn supports_forms(rctx: &RequestContext<RoleServer>) -> bool {
    rctx.client_capabilities()
        .and_then(|c| c.elicitation)
        .is_some()
}

fn stateless(rctx: &RequestContext<RoleServer>) -> bool {
    rctx.protocol_version()
        .is_some_and(|v| !v.has_initialize() || v >= ProtocolVersion::V_2026_07_28)
}

/// The form asking one round's questions: each a choice of its options, its default chosen.
fn form(draft: &DraftOut) -> Result<ElicitRequestParams, DomainError> {
    let mut properties = serde_json::Map::new();
    let mut required = Vec::new();
    for q in &draft.questions {
        let mut p = json!({
            "type": "string",
            "title": q.ask,
            "oneOf": q.options.iter().map(|o| json!({"const": o.value, "title": o.label})).collect::<Vec<_>>(),
        });
        if let Some(d) = &q.default {
            p["default"] = json!(d);
        }
        properties.insert(q.id.clone(), p);
        required.push(json!(q.id));
    }
    let schema: ElicitationSchema = serde_json::from_value(json!({
        "type": "object", "properties": properties, "required": required,
    }))
    .map_err(|e| DomainError::Internal(format!("a play's questions as a form: {e}")))?;
    Ok(ElicitRequestParams::FormElicitationParams {
        meta: None,
        message: format!(
            "To draft \"{}\", choose an answer to each question.",
            draft
                .document
                .as_ref()
                .map(|d| d.title.as_str())
                .unwrap_or(&draft.play)
        ),
        requested_schema: schema,
    })
}

/// The answers of an accepted form: question id to the chosen value.
fn accepted(result: &ElicitResult) -> Option<BTreeMap<String, Value>> {
    if result.action != ElicitationAction::Accept {
        return None;
    }
    let Some(Value::Object(m)) = &result.content else {
        return None;
    };
    Some(m.iter().map(|(k, v)| (k.clone(), v.clone())).collect())
}

async fn answer(
    ctx: &Ctx,
    actor: &Actor,
    draft_ref: &str,
    answers: BTreeMap<String, Value>,
) -> Result<DraftOut, DomainError> {
    let body: DraftAnswersIn = serde_json::from_value(json!({ "answers": answers }))
        .map_err(|e| DomainError::invalid("answers", e))?;
    drafting::answer(ctx, actor, draft_ref, body).await
}

/// `draft_from_play` or `answer_draft` (`first` does the tool's own step), then as many
/// rounds of questions as the person answers through the client.
pub async fn run(
    ctx: &Ctx,
    actor: &Actor,
    rctx: &RequestContext<RoleServer>,
    request_state: Option<&str>,
    input: Option<&BTreeMap<String, Value>>,
    first: impl std::future::Future<Output = Result<DraftOut, DomainError>>,
) -> Next {
    // A retry after the client asked the person: the state is the draft's reference.
    let mut draft = match (request_state, input.and_then(|i| i.get(ANSWERS))) {
        (Some(draft_ref), Some(response)) => {
            let result: ElicitResult = match serde_json::from_value(response.clone()) {
                Ok(r) => r,
                Err(e) => {
                    return Next::Done(Box::new(Err(DomainError::invalid("inputResponses", e))));
                }
            };
            match accepted(&result) {
                Some(answers) => answer(ctx, actor, draft_ref, answers).await,
                // Declined: the draft as it stands, its questions for the assistant to ask.
                None => answer(ctx, actor, draft_ref, BTreeMap::new()).await,
            }
        }
        _ => first.await,
    };
    if !supports_forms(rctx) {
        return Next::Done(Box::new(draft));
    }
    if stateless(rctx) {
        return match draft {
            Ok(d) if d.status == "needs_input" && !d.questions.is_empty() => match form(&d) {
                Ok(params) => {
                    let mut requests = InputRequests::new();
                    requests.insert(
                        ANSWERS.into(),
                        InputRequest::Elicitation(ElicitRequest::new(params)),
                    );
                    Next::Ask(InputRequiredResult::new(Some(requests), Some(d.draft_ref)))
                }
                Err(e) => Next::Done(Box::new(Err(e))),
            },
            other => Next::Done(Box::new(other)),
        };
    }
    // An earlier protocol: ask while the call waits.
    for _ in 0..MAX_ROUNDS {
        let d = match &draft {
            Ok(d) if d.status == "needs_input" && !d.questions.is_empty() => d,
            _ => break,
        };
        let params = match form(d) {
            Ok(p) => p,
            Err(e) => return Next::Done(Box::new(Err(e))),
        };
        let Ok(result) = rctx.peer.create_elicitation(params).await else {
            break;
        };
        let Some(answers) = accepted(&result) else {
            break;
        };
        let draft_ref = d.draft_ref.clone();
        draft = answer(ctx, actor, &draft_ref, answers).await;
    }
    Next::Done(Box::new(draft))
}

/// What the assistant is told with a draft that still needs answers.
pub fn guidance(draft: &Value) -> Option<String> {
    if draft["status"] != "needs_input" {
        return None;
    }
    let mut text = format!(
        "The draft needs the person's answers. Ask them these questions, then call answer_draft with draftRef \"{}\" and answers {{question id: chosen value}}:",
        draft["draftRef"].as_str().unwrap_or_default()
    );
    for q in draft["questions"].as_array().into_iter().flatten() {
        text.push_str(&format!(
            "\n- {} ({}): {}",
            q["ask"].as_str().unwrap_or_default(),
            q["id"].as_str().unwrap_or_default(),
            q["options"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|o| format!(
                    "\"{}\" = {}",
                    o["value"].as_str().unwrap_or_default(),
                    o["label"].as_str().unwrap_or_default()
                ))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    Some(text)
}

pub fn into_response(r: InputRequiredResult) -> CallToolResponse {
    r.into()
}
