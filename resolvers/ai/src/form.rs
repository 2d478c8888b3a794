//! The form a model writes a draft in, and how it becomes the source model.
//!
//! The schema keeps to what every provider enforces in its strict mode: every property
//! required, nullable instead of optional, no additional properties, no lengths or patterns.
//! Blocks and inlines are one object per kind (`anyOf`), `type` first and then only what that
//! kind holds, sent in that order: under a grammar even a very small model names the kind
//! before it writes the rest. Everything the schema cannot
//! say is checked here, after the answer is read: lengths, role words, chips, and that no
//! string carries a link or markup. There is no payment type at all: a payment field is only
//! ever added by Signet from the brief (`brief.rs`). The converted source is then checked by
//! the same checker as `POST /documents/check` (`run.rs`).

use std::collections::BTreeSet;

use serde_json::{Value, json};

/// Field types a model may place: those that need no options and take no money.
pub const FIELD_TYPES: &[&str] = &[
    "signature",
    "initials",
    "text",
    "date",
    "checkbox",
    "number",
    "email",
    "name",
    "company",
    "phone",
];

const BLOCK_TYPES: &[&str] = &[
    "heading",
    "paragraph",
    "bullet_list",
    "ordered_list",
    "signatures",
];

/// Bounds checked on our side.
pub const MAX_BLOCKS: usize = 400;
pub const MAX_INLINES: usize = 200;
pub const MAX_ITEMS: usize = 100;
pub const MAX_TEXT: usize = 4_000;
pub const MAX_TITLE: usize = 200;
pub const MAX_NOTES: usize = 30;
pub const MAX_NOTE: usize = 500;
pub const MAX_SEATS: usize = 10;

fn strict(required: &[&str], properties: Value) -> Value {
    json!({
        "type": "object",
        "additionalProperties": false,
        "required": required,
        "properties": properties,
    })
}

/// A role property: one of `roles` when they are known, any string otherwise.
fn role_schema(roles: &[String], null: bool) -> Value {
    let ty = if null {
        json!(["string", "null"])
    } else {
        json!("string")
    };
    if roles.is_empty() {
        return json!({"type": ty});
    }
    let mut values: Vec<Value> = roles.iter().map(|r| json!(r)).collect();
    if null {
        values.push(Value::Null);
    }
    json!({"type": ty, "enum": values})
}

/// A chip's name: one of the facts when the seats are known and the words ask no
/// questions; any string otherwise (checked after).
fn chips(roles: &[String], template: bool) -> Value {
    if roles.is_empty() || template {
        return json!({"type": "string"});
    }
    let mut names: Vec<String> = ["org.name", "sender.name", "document.title", "document.date"]
        .iter()
        .map(|c| c.to_string())
        .collect();
    for r in roles {
        names.push(format!("{r}.name"));
        names.push(format!("{r}.email"));
    }
    json!({"type": "string", "enum": names})
}

/// One kind of block or inline: `type` first, then only the properties that kind uses, in
/// the order given (`ordered_text` writes them so; a grammar makes a model write them so).
fn kind(kind: &str, properties: &[(&str, Value)]) -> Value {
    let mut props = serde_json::Map::new();
    props.insert("type".into(), json!({"type": "string", "enum": [kind]}));
    let mut required = vec!["type"];
    for (k, v) in properties {
        props.insert((*k).into(), v.clone());
        required.push(k);
    }
    strict(&required, Value::Object(props))
}

/// The definitions both schemas share: a block and an inline, one object per kind, so that
/// the model names the kind first and then writes only what that kind holds; roles held to
/// `roles` when they are known.
fn defs(roles: &[String], template: bool) -> Value {
    let inlines = json!({"type": "array", "items": {"$ref": "#/$defs/inline"}});
    json!({
        "inline": {"anyOf": [
            kind("text", &[
                ("text", json!({"type": "string"})),
                ("bold", json!({"type": "boolean"})),
                ("italic", json!({"type": "boolean"})),
            ]),
            kind("chip", &[("text", chips(roles, template))]),
            kind("field", &[
                ("text", json!({"type": "string"})),
                ("field_type", json!({"type": "string", "enum": FIELD_TYPES})),
                ("role", role_schema(roles, false)),
                ("required", json!({"type": "boolean"})),
            ]),
        ]},
        "block": {"anyOf": [
            kind("heading", &[
                ("level", json!({"type": "integer", "enum": [1, 2, 3]})),
                ("sender_only", json!({"type": "boolean"})),
                ("text", inlines.clone()),
            ]),
            kind("paragraph", &[("text", inlines.clone())]),
            kind("bullet_list", &[("items", json!({"type": "array", "items": inlines.clone()}))]),
            kind("ordered_list", &[("items", json!({"type": "array", "items": inlines}))]),
            kind("signatures", &[("role", role_schema(roles, true))]),
        ]},
    })
}

/// A schema (or any JSON holding one) as text, each object's `properties` written in the
/// order of its `required` list, every other object's keys as they sort. Providers that
/// constrain the answer with a grammar (llama.cpp) make the model write properties in the
/// schema's order: a block's `type` then comes first, before what depends on it.
pub fn ordered_text(v: &Value) -> String {
    let mut out = String::new();
    write_ordered(v, None, &mut out);
    out
}

fn write_ordered(v: &Value, order: Option<&[Value]>, out: &mut String) {
    match v {
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            if let Some(order) = order {
                let rank = |k: &str| order.iter().position(|o| o == k).unwrap_or(usize::MAX);
                keys.sort_by_key(|k| (rank(k), k.as_str()));
            }
            let required = map.get("required").and_then(Value::as_array);
            out.push('{');
            for (i, k) in keys.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(&Value::String((*k).clone()).to_string());
                out.push(':');
                let inner = match (k.as_str(), required) {
                    ("properties", Some(r)) => Some(r.as_slice()),
                    _ => None,
                };
                write_ordered(&map[k.as_str()], inner, out);
            }
            out.push('}');
        }
        Value::Array(list) => {
            out.push('[');
            for (i, item) in list.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_ordered(item, None, out);
            }
            out.push(']');
        }
        other => out.push_str(&other.to_string()),
    }
}

/// The schema of a draft: a title, the seats that sign, the blocks, and notes for a person.
/// `roles`: the seats when the brief fixes them; the model then names no seats (they are the
/// brief's) and no other role anywhere.
pub fn draft_schema(roles: &[String], template: bool) -> Value {
    let mut s = if roles.is_empty() {
        strict(
            &["title", "seats", "blocks", "notes"],
            json!({
                "title": {"type": "string"},
                "seats": {"type": "array", "items": strict(&["role", "label"], json!({
                    "role": {"type": "string"},
                    "label": {"type": "string"},
                }))},
                "blocks": {"type": "array", "items": {"$ref": "#/$defs/block"}},
                "notes": {"type": "array", "items": {"type": "string"}},
            }),
        )
    } else {
        strict(
            &["title", "blocks", "notes"],
            json!({
                "title": {"type": "string"},
                "blocks": {"type": "array", "items": {"$ref": "#/$defs/block"}},
                "notes": {"type": "array", "items": {"type": "string"}},
            }),
        )
    };
    s["$defs"] = defs(roles, template);
    s
}

/// The schema of an edit: changes to numbered blocks, answers to questions, notes; roles
/// held to the words' seats.
pub fn edit_schema(roles: &[String], template: bool) -> Value {
    let mut s = strict(
        &["changes", "values", "notes"],
        json!({
            "changes": {"type": "array", "items": strict(&["op", "at", "blocks", "why"], json!({
                "op": {"type": "string", "enum": ["replace", "insert_before", "insert_after", "delete"]},
                "at": {"type": "integer"},
                "blocks": {"type": "array", "items": {"$ref": "#/$defs/block"}},
                "why": {"type": "string"},
            }))},
            "values": {"type": "array", "items": strict(&["name", "value", "why"], json!({
                "name": {"type": "string"},
                "value": {"type": "string"},
                "why": {"type": "string"},
            }))},
            "notes": {"type": "array", "items": {"type": "string"}},
        }),
    );
    s["$defs"] = defs(roles, template);
    s
}

/// What a conversion may use: the seats' role words and the chips the mode allows.
#[derive(Clone, Debug, Default)]
pub struct Allowed {
    pub roles: Vec<String>,
    /// A template's words may ask questions (`custom.<key>` chips); a document's may not.
    pub template: bool,
}

impl Allowed {
    fn chip(&self, name: &str) -> bool {
        if matches!(
            name,
            "org.name" | "sender.name" | "document.title" | "document.date"
        ) {
            return true;
        }
        if let Some(key) = name.strip_prefix("custom.") {
            return self.template
                && (1..=40).contains(&key.len())
                && key
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
        }
        match name.split_once('.') {
            Some((role, "name" | "email")) => self.roles.iter().any(|r| r == role),
            _ => false,
        }
    }
}

/// Problems found while converting, each at its place in the model's answer.
#[derive(Debug, Default)]
pub struct Problems(pub Vec<String>);

impl Problems {
    pub fn add(&mut self, at: &str, what: impl std::fmt::Display) {
        if self.0.len() < 50 {
            self.0.push(format!("{at}: {what}"));
        }
    }
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// Whether a string carries something that could become a link or markup in any reader:
/// an address with a scheme, a `www.` host, an HTML tag or entity, or a control character.
pub fn unsafe_text(s: &str) -> Option<&'static str> {
    let lower = s.to_ascii_lowercase();
    if lower.contains("://") || lower.contains("www.") {
        return Some("contains a web address; write words, never links");
    }
    for scheme in ["javascript:", "data:", "vbscript:", "file:", "mailto:"] {
        if lower.contains(scheme) {
            return Some("contains a link scheme; write words, never links");
        }
    }
    if lower.contains('<') && lower.contains('>') || lower.contains("&#") {
        return Some("contains markup; write plain words");
    }
    if s.chars().any(|c| {
        (c.is_control() && c != '\n' && c != '\t')
            || ('\u{202a}'..='\u{202e}').contains(&c)
            || ('\u{2066}'..='\u{2069}').contains(&c)
    }) {
        return Some("contains control characters");
    }
    None
}

/// A string of the answer checked for length and safety.
pub fn text_ok(p: &mut Problems, at: &str, s: &str, max: usize) {
    if s.chars().count() > max {
        p.add(at, format!("is longer than {max} characters"));
    }
    if let Some(why) = unsafe_text(s) {
        p.add(at, why);
    }
}

fn str_of<'a>(v: &'a Value, key: &str) -> Option<&'a str> {
    v.get(key).and_then(Value::as_str)
}

fn arr_of<'a>(v: &'a Value, key: &str) -> &'a [Value] {
    v.get(key)
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or(&[])
}

/// One inline of the answer as a source node.
fn inline(p: &mut Problems, at: &str, v: &Value, allowed: &Allowed) -> Option<Value> {
    let text = str_of(v, "text").unwrap_or_default();
    match str_of(v, "type") {
        Some("text") => {
            text_ok(p, at, text, MAX_TEXT);
            if text.is_empty() {
                return None;
            }
            let mut marks = vec![];
            if v.get("bold") == Some(&Value::Bool(true)) {
                marks.push(json!({"type": "bold"}));
            }
            if v.get("italic") == Some(&Value::Bool(true)) {
                marks.push(json!({"type": "italic"}));
            }
            Some(if marks.is_empty() {
                json!({"type": "text", "text": text})
            } else {
                json!({"type": "text", "text": text, "marks": marks})
            })
        }
        Some("chip") => {
            let name = text.trim();
            if !allowed.chip(name) {
                p.add(
                    at,
                    format!(
                        "'{}' is not a chip this draft may use; use org.name, sender.name, \
                         document.title, document.date, or a seat's role word with .name or .email{}",
                        name.chars().take(60).collect::<String>(),
                        if allowed.template {
                            ", or custom. and a key for a question"
                        } else {
                            ""
                        }
                    ),
                );
                return None;
            }
            Some(json!({"type": "variableChip", "attrs": {"name": name}}))
        }
        Some("field") => {
            text_ok(p, at, text, 100);
            let ty = str_of(v, "field_type").unwrap_or_default();
            if !FIELD_TYPES.contains(&ty) {
                p.add(
                    at,
                    format!("field_type must be one of {}", FIELD_TYPES.join(", ")),
                );
                return None;
            }
            let role = str_of(v, "role").unwrap_or_default();
            if !allowed.roles.iter().any(|r| r == role) {
                p.add(
                    at,
                    format!(
                        "role '{}' is not one of the seats ({})",
                        role.chars().take(40).collect::<String>(),
                        allowed.roles.join(", ")
                    ),
                );
                return None;
            }
            let name = if text.trim().is_empty() {
                ty
            } else {
                text.trim()
            };
            let required = v.get("required") != Some(&Value::Bool(false));
            Some(json!({"type": "fieldTag", "attrs": {
                "name": name, "type": ty, "role": role, "required": required,
            }}))
        }
        _ => {
            p.add(at, "type must be text, chip or field");
            None
        }
    }
}

fn inlines(p: &mut Problems, at: &str, list: &[Value], allowed: &Allowed) -> Vec<Value> {
    if list.len() > MAX_INLINES {
        p.add(at, format!("has more than {MAX_INLINES} pieces"));
    }
    list.iter()
        .take(MAX_INLINES)
        .enumerate()
        .filter_map(|(i, v)| inline(p, &format!("{at}[{i}]"), v, allowed))
        .collect()
}

fn paragraph(content: Vec<Value>) -> Value {
    if content.is_empty() {
        json!({"type": "paragraph"})
    } else {
        json!({"type": "paragraph", "content": content})
    }
}

/// One block of the answer as source nodes (a `signatures` block without a role is one
/// signature block per seat).
pub fn block(p: &mut Problems, at: &str, v: &Value, allowed: &Allowed) -> Vec<Value> {
    let text = |p: &mut Problems| inlines(p, &format!("{at}.text"), arr_of(v, "text"), allowed);
    match str_of(v, "type") {
        Some("heading") => {
            let level = v.get("level").and_then(Value::as_u64).unwrap_or(2);
            if !(1..=3).contains(&level) {
                p.add(&format!("{at}.level"), "must be 1, 2 or 3");
            }
            let mut attrs = json!({"level": level.clamp(1, 3)});
            if v.get("sender_only") == Some(&Value::Bool(true)) {
                attrs["audience"] = json!("sender");
            }
            // A heading without words says nothing: left out, as an empty list is.
            let content = text(p);
            if content.is_empty() {
                return vec![];
            }
            vec![json!({"type": "heading", "attrs": attrs, "content": content})]
        }
        Some("paragraph") => vec![paragraph(text(p))],
        Some(kind @ ("bullet_list" | "ordered_list")) => {
            let items = arr_of(v, "items");
            if items.is_empty() {
                return vec![];
            }
            if items.len() > MAX_ITEMS {
                p.add(
                    &format!("{at}.items"),
                    format!("has more than {MAX_ITEMS} items"),
                );
            }
            let items: Vec<Value> = items
                .iter()
                .take(MAX_ITEMS)
                .enumerate()
                .map(|(i, item)| {
                    let list = item.as_array().map(Vec::as_slice).unwrap_or(&[]);
                    let c = inlines(p, &format!("{at}.items[{i}]"), list, allowed);
                    json!({"type": "listItem", "content": [paragraph(c)]})
                })
                .collect();
            let ty = if kind == "bullet_list" {
                "bulletList"
            } else {
                "orderedList"
            };
            vec![json!({"type": ty, "content": items})]
        }
        Some("signatures") => match str_of(v, "role") {
            Some(role) if allowed.roles.iter().any(|r| r == role) => {
                vec![json!({"type": "signatureBlock", "attrs": {"role": role}})]
            }
            Some(role) => {
                p.add(
                    &format!("{at}.role"),
                    format!(
                        "'{}' is not one of the seats",
                        role.chars().take(40).collect::<String>()
                    ),
                );
                vec![]
            }
            None => allowed
                .roles
                .iter()
                .map(|r| json!({"type": "signatureBlock", "attrs": {"role": r}}))
                .collect(),
        },
        _ => {
            p.add(
                at,
                format!("type must be one of {}", BLOCK_TYPES.join(", ")),
            );
            vec![]
        }
    }
}

/// A list of blocks of the answer as source nodes.
pub fn blocks(p: &mut Problems, at: &str, list: &[Value], allowed: &Allowed) -> Vec<Value> {
    if list.len() > MAX_BLOCKS {
        p.add(at, format!("has more than {MAX_BLOCKS} blocks"));
    }
    list.iter()
        .take(MAX_BLOCKS)
        .enumerate()
        .flat_map(|(i, b)| block(p, &format!("{at}[{i}]"), b, allowed))
        .collect()
}

/// Notes for a person, checked.
pub fn notes(p: &mut Problems, v: &Value) -> Vec<String> {
    let list = arr_of(v, "notes");
    if list.len() > MAX_NOTES {
        p.add("notes", format!("has more than {MAX_NOTES} notes"));
    }
    list.iter()
        .take(MAX_NOTES)
        .enumerate()
        .filter_map(|(i, n)| {
            let n = n.as_str()?.trim();
            text_ok(p, &format!("notes[{i}]"), n, MAX_NOTE);
            (!n.is_empty()).then(|| n.to_string())
        })
        .collect()
}

/// The seats a draft's answer names, checked against the roles it may use (`fixed`: the
/// brief's people or the kind's seats; empty when the model may name its own).
pub fn seats(p: &mut Problems, v: &Value, fixed: &[(String, String)]) -> Vec<(String, String)> {
    // The brief's seats are the document's whatever the model listed.
    if !fixed.is_empty() {
        return fixed.to_vec();
    }
    let list = arr_of(v, "seats");
    let mut out: Vec<(String, String)> = Vec::new();
    let mut seen = BTreeSet::new();
    for (i, s) in list.iter().enumerate().take(MAX_SEATS + 1) {
        let at = format!("seats[{i}]");
        let role = str_of(s, "role").unwrap_or_default().trim().to_string();
        let label = str_of(s, "label").unwrap_or_default().trim().to_string();
        if let Some(why) = signet_source::role_problem(&role) {
            p.add(&format!("{at}.role"), why);
            continue;
        }
        if !fixed.is_empty() && !fixed.iter().any(|(r, _)| *r == role) {
            let names: Vec<&str> = fixed.iter().map(|(r, _)| r.as_str()).collect();
            p.add(
                &format!("{at}.role"),
                format!("'{role}' is not one of {}", names.join(", ")),
            );
            continue;
        }
        text_ok(p, &format!("{at}.label"), &label, 100);
        if seen.insert(role.clone()) {
            out.push((role, label));
        }
    }
    if list.len() > MAX_SEATS {
        p.add("seats", format!("has more than {MAX_SEATS} seats"));
    }
    if out.is_empty() {
        p.add("seats", "name at least one seat that signs");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_kinds_type_is_written_first_and_its_properties_in_order() {
        let text = ordered_text(&draft_schema(&["client".into()], false));
        let heading = text.find(r#""enum":["heading"]"#).unwrap();
        let level = text[heading..].find(r#""level""#).unwrap();
        let sender_only = text[heading..].find(r#""sender_only""#).unwrap();
        assert!(level < sender_only, "{text}");
        // The top: title, seats, blocks, notes, as the instructions list them.
        let at = |k: &str| text.find(&format!(r#""{k}":{{"#)).unwrap();
        assert!(
            at("title") < at("blocks") && at("blocks") < at("notes"),
            "{text}"
        );
        // Seats the brief fixes are not asked for.
        assert!(!text.contains(r#""seats""#), "{text}");
        let open = ordered_text(&draft_schema(&[], false));
        let at = |k: &str| open.find(&format!(r#""{k}":{{"#)).unwrap();
        assert!(
            at("title") < at("seats") && at("seats") < at("blocks"),
            "{open}"
        );
        // The same JSON, only in another order.
        let back: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(back, draft_schema(&["client".into()], false));
    }
}
