//! A model's answer turned into a job's outcome, or the exact problems that stop it: the
//! form's own checks (`form`), then the same check as `POST /documents/check`. For an edit,
//! every change is checked on its own against the words given, and the words with every
//! change applied (`apply`) must pass the check.

use serde_json::{Value, json};
use signet_core::actor::Scopes;
use signet_core::{Actor, Ctx, Scope};
use signet_documents::types::{DocumentCheckIn, PersonIn};

use crate::brief::Brief;
use crate::form::{self, Allowed, Problems};
use crate::store::Output;
use crate::types::{AiChangeOut, AiPatchesOut, AiValueOut};

pub const MAX_CHANGES: usize = 50;

/// The check of POST /documents/check, as the job's workspace would run it.
async fn check(
    ctx: &Ctx,
    reader: &Actor,
    source: &Value,
    seats: &[(String, String)],
    template: bool,
    require_signature: bool,
) -> Result<Vec<String>, String> {
    let people: Vec<PersonIn> = seats
        .iter()
        .map(|(role, label)| PersonIn::stand_in(role, label, None))
        .collect();
    let mut reader = reader.clone();
    reader.scopes = Scopes::from_iter([Scope::DocumentsRead]);
    let report = signet_documents::check(
        ctx,
        &reader,
        DocumentCheckIn {
            source: source.clone(),
            facts: None,
            people: (!template && !people.is_empty()).then_some(people),
            variable_values: None,
            require_signature: Some(require_signature),
            for_template: Some(template),
        },
    )
    .await
    .map_err(|e| e.to_string())?;
    Ok(report
        .problems
        .iter()
        .map(|p| format!("{}: {}", p.path, p.message))
        .collect())
}

/// A draft's answer: the source, its seats, the notes.
pub async fn draft(
    ctx: &Ctx,
    reader: &Actor,
    brief: &Brief,
    template: bool,
    v: &Value,
) -> Result<Output, Vec<String>> {
    let mut p = Problems::default();
    let title = v
        .get("title")
        .and_then(Value::as_str)
        .unwrap_or("")
        .trim()
        .to_string();
    form::text_ok(&mut p, "title", &title, form::MAX_TITLE);
    let seats = form::seats(&mut p, v, &brief.seats);
    let allowed = Allowed {
        roles: seats.iter().map(|(r, _)| r.clone()).collect(),
        template,
    };
    let list = v
        .get("blocks")
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or(&[]);
    let mut content = form::blocks(&mut p, "blocks", list, &allowed);
    let notes = form::notes(&mut p, v);
    if !content.iter().any(has_words) {
        p.add("blocks", "the draft has no words");
    }
    // A draft without a title takes its first heading's words, else the kind of document.
    let title = if title.is_empty() {
        first_heading(&content).unwrap_or_else(|| brief.title())
    } else {
        title
    };
    if !p.is_empty() {
        return Err(p.0);
    }
    // Every seat signs: a seat the words gave no signature place gets a block at the end,
    // and the brief's payment goes before the first signature block.
    for (role, _) in &seats {
        let signs = content.iter().any(|b| {
            b.pointer("/attrs/role").and_then(Value::as_str) == Some(role)
                && b.get("type").and_then(Value::as_str) == Some("signatureBlock")
        }) || has_signature_field(&content, role);
        if !signs {
            content.push(json!({"type": "signatureBlock", "attrs": {"role": role}}));
        }
    }
    let at = content
        .iter()
        .position(|b| b.get("type").and_then(Value::as_str) == Some("signatureBlock"))
        .unwrap_or(content.len());
    let payment = brief.payment_blocks();
    content.splice(at..at, payment);
    let source = json!({"type": "doc", "content": content});
    let problems = check(ctx, reader, &source, &seats, template, true)
        .await
        .map_err(|e| vec![e])?;
    if !problems.is_empty() {
        return Err(problems);
    }
    Ok(Output {
        title: Some(title),
        source: Some(source),
        seats,
        patches: AiPatchesOut {
            notes,
            applied: vec![],
            values: vec![],
        },
    })
}

/// Whether a node holds anything to read or fill in: words, a chip or a field.
fn has_words(n: &Value) -> bool {
    matches!(
        n.get("type").and_then(Value::as_str),
        Some("fieldTag" | "variableChip")
    ) || n
        .get("text")
        .and_then(Value::as_str)
        .is_some_and(|t| !t.trim().is_empty())
        || n.get("content")
            .and_then(Value::as_array)
            .is_some_and(|c| c.iter().any(has_words))
}

/// The words of the first heading.
fn first_heading(content: &[Value]) -> Option<String> {
    let h = content
        .iter()
        .find(|b| b.get("type").and_then(Value::as_str) == Some("heading"))?;
    let words: String = h
        .get("content")?
        .as_array()?
        .iter()
        .filter_map(|i| i.get("text").and_then(Value::as_str))
        .collect();
    let words = words
        .trim()
        .chars()
        .take(form::MAX_TITLE)
        .collect::<String>();
    (!words.is_empty()).then_some(words)
}

fn has_signature_field(nodes: &[Value], role: &str) -> bool {
    nodes.iter().any(|n| {
        (n.get("type").and_then(Value::as_str) == Some("fieldTag")
            && n.pointer("/attrs/type").and_then(Value::as_str) == Some("signature")
            && n.pointer("/attrs/role").and_then(Value::as_str) == Some(role))
            || n.get("content")
                .and_then(Value::as_array)
                .is_some_and(|c| has_signature_field(c, role))
    })
}

/// Applies `changes` to `source`'s top-level blocks, every path naming the block of the
/// words given: from the last block to the first, and at one block an insert after it, then
/// its replacement or deletion, then an insert before it. That is the order a caller applying
/// every change uses too (docs/ai.md).
pub fn apply(source: &Value, changes: &[AiChangeOut]) -> Value {
    let mut content: Vec<Value> = source
        .get("content")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    let index = |c: &AiChangeOut| -> usize {
        c.path
            .strip_prefix("content[")
            .and_then(|r| r.strip_suffix(']'))
            .and_then(|n| n.parse().ok())
            .unwrap_or(0)
    };
    let rank = |op: &str| match op {
        "insert_after" => 0,
        "replace" | "delete" => 1,
        _ => 2,
    };
    let mut order: Vec<&AiChangeOut> = changes.iter().collect();
    order.sort_by(|a, b| index(b).cmp(&index(a)).then(rank(&a.op).cmp(&rank(&b.op))));
    for c in order {
        let i = index(c).min(content.len());
        let new: Vec<Value> = c.proposed.iter().map(|j| j.0.clone()).collect();
        match c.op.as_str() {
            "insert_after" => {
                let at = (i + 1).min(content.len());
                content.splice(at..at, new);
            }
            "insert_before" => {
                content.splice(i..i, new);
            }
            "replace" if i < content.len() => {
                content.splice(i..=i, new);
            }
            "delete" if i < content.len() => {
                content.remove(i);
            }
            _ => {}
        }
    }
    let mut out = source.clone();
    out["content"] = Value::Array(content);
    out
}

/// An edit's answer: the changes, the proposed answers, the notes, and the words with every
/// change applied.
pub async fn edit(
    ctx: &Ctx,
    reader: &Actor,
    source: &Value,
    template: bool,
    roles: &[String],
    variables: &[(String, Option<String>)],
    v: &Value,
) -> Result<Output, Vec<String>> {
    let mut p = Problems::default();
    let given = source
        .get("content")
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or(&[]);
    let allowed = Allowed {
        roles: roles.to_vec(),
        template,
    };
    let list = v
        .get("changes")
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or(&[]);
    if list.len() > MAX_CHANGES {
        p.add("changes", format!("has more than {MAX_CHANGES} changes"));
    }
    let mut taken = std::collections::BTreeSet::new();
    let mut applied = Vec::new();
    for (n, c) in list.iter().take(MAX_CHANGES).enumerate() {
        let at_s = format!("changes[{n}]");
        let op = c.get("op").and_then(Value::as_str).unwrap_or("");
        let at = c.get("at").and_then(Value::as_i64).unwrap_or(-1);
        let inserting = matches!(op, "insert_before" | "insert_after");
        let in_range =
            at >= 0 && ((at as usize) < given.len() || (inserting && given.is_empty() && at == 0));
        if !in_range {
            p.add(
                &format!("{at_s}.at"),
                format!(
                    "must be the number of a block, 0 to {}",
                    given.len().saturating_sub(1)
                ),
            );
            continue;
        }
        let at = at as usize;
        let blocks = c
            .get("blocks")
            .and_then(Value::as_array)
            .map(Vec::as_slice)
            .unwrap_or(&[]);
        let proposed = form::blocks(&mut p, &format!("{at_s}.blocks"), blocks, &allowed);
        match op {
            "replace" | "insert_before" | "insert_after" if proposed.is_empty() => {
                p.add(
                    &format!("{at_s}.blocks"),
                    "a replace or insert needs blocks",
                );
            }
            "replace" | "delete" if !taken.insert(at) => {
                p.add(
                    &format!("{at_s}.at"),
                    "another change already replaces or deletes this block",
                );
            }
            "replace" | "delete" | "insert_before" | "insert_after" => {}
            _ => p.add(
                &format!("{at_s}.op"),
                "must be replace, insert_before, insert_after or delete",
            ),
        }
        let why = c
            .get("why")
            .and_then(Value::as_str)
            .unwrap_or("")
            .trim()
            .to_string();
        form::text_ok(&mut p, &format!("{at_s}.why"), &why, 500);
        applied.push(AiChangeOut {
            op: op.to_string(),
            path: format!("content[{at}]"),
            was: given.get(at).cloned().map(async_graphql::Json),
            proposed: if op == "delete" {
                vec![]
            } else {
                proposed.into_iter().map(async_graphql::Json).collect()
            },
            why,
        });
    }
    let mut values = Vec::new();
    for (n, x) in v
        .get("values")
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or(&[])
        .iter()
        .take(MAX_CHANGES)
        .enumerate()
    {
        let at_s = format!("values[{n}]");
        let name = x.get("name").and_then(Value::as_str).unwrap_or("").trim();
        let name = name.strip_prefix("custom.").unwrap_or(name);
        if !variables.iter().any(|(k, _)| k == name) {
            p.add(&format!("{at_s}.name"), "is not one of the questions given");
            continue;
        }
        let value = x
            .get("value")
            .and_then(Value::as_str)
            .unwrap_or("")
            .trim()
            .to_string();
        let why = x
            .get("why")
            .and_then(Value::as_str)
            .unwrap_or("")
            .trim()
            .to_string();
        form::text_ok(&mut p, &format!("{at_s}.value"), &value, 500);
        form::text_ok(&mut p, &format!("{at_s}.why"), &why, 500);
        values.push(AiValueOut {
            name: name.to_string(),
            value,
            why,
        });
    }
    let notes = form::notes(&mut p, v);
    if !p.is_empty() {
        return Err(p.0);
    }
    let whole = apply(source, &applied);
    let seats: Vec<(String, String)> = roles.iter().map(|r| (r.clone(), r.clone())).collect();
    let problems = check(ctx, reader, &whole, &seats, template, false)
        .await
        .map_err(|e| vec![e])?;
    if !problems.is_empty() {
        return Err(problems
            .into_iter()
            .map(|p| format!("with every change applied, {p}"))
            .collect());
    }
    Ok(Output {
        title: None,
        source: Some(whole),
        seats,
        patches: AiPatchesOut {
            notes,
            applied,
            values,
        },
    })
}
