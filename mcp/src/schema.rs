//! Tool input schemas from the same utoipa schemas the OpenAPI document is made of: one
//! self-contained JSON Schema object per tool, its named parts under `$defs`.

use std::sync::Arc;

use serde_json::{Map, Value, json};

pub type JsonObject = Map<String, Value>;

/// `T`'s schema with every schema it names under `$defs`.
pub fn of<T: utoipa::ToSchema>() -> Arc<JsonObject> {
    let mut named = Vec::new();
    T::schemas(&mut named);
    let mut root = serde_json::to_value(T::schema()).unwrap_or_else(|_| json!({}));
    let mut defs = Map::new();
    for (name, schema) in named {
        let mut v = serde_json::to_value(schema).unwrap_or(Value::Null);
        local_refs(&mut v);
        defs.insert(name, v);
    }
    local_refs(&mut root);
    let mut obj = match root {
        Value::Object(m) => m,
        _ => Map::new(),
    };
    // MCP asks for an object at the root.
    obj.insert("type".into(), json!("object"));
    if !defs.is_empty() {
        obj.insert("$defs".into(), Value::Object(defs));
    }
    Arc::new(obj)
}

/// An object with no arguments.
pub fn none() -> Arc<JsonObject> {
    let Value::Object(m) =
        json!({"type": "object", "properties": {}, "additionalProperties": false})
    else {
        unreachable!()
    };
    Arc::new(m)
}

/// OpenAPI's `#/components/schemas/X` as `#/$defs/X`.
fn local_refs(v: &mut Value) {
    match v {
        Value::Object(m) => {
            if let Some(Value::String(r)) = m.get_mut("$ref")
                && let Some(name) = r.strip_prefix("#/components/schemas/")
            {
                *r = format!("#/$defs/{name}");
            }
            m.values_mut().for_each(local_refs);
        }
        Value::Array(a) => a.iter_mut().for_each(local_refs),
        _ => {}
    }
}
