//! Caller metadata: up to 20 keys of 1 to 40 letters, digits, dots, dashes and underscores;
//! string values of up to 500 characters. Parsed once at the edge; every message names the key.

use std::collections::BTreeMap;

use serde_json::Value;

use crate::DomainError;

pub const MAX_KEYS: usize = 20;
pub const MAX_KEY_LEN: usize = 40;
pub const MAX_VALUE_LEN: usize = 500;

#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Metadata(pub BTreeMap<String, String>);

impl Metadata {
    /// `field` is where the object sits in the request, for example `metadata`.
    pub fn parse(field: &str, value: &Value) -> Result<Metadata, DomainError> {
        let obj = match value {
            Value::Null => return Ok(Metadata::default()),
            Value::Object(o) => o,
            _ => {
                return Err(DomainError::invalid(
                    field,
                    "must be an object of string values",
                ));
            }
        };
        if obj.len() > MAX_KEYS {
            return Err(DomainError::invalid(
                field,
                format!("has {} keys; at most {MAX_KEYS} are allowed", obj.len()),
            ));
        }
        let mut out = BTreeMap::new();
        for (k, v) in obj {
            let len = k.chars().count();
            if len == 0 || len > MAX_KEY_LEN {
                return Err(DomainError::invalid(
                    &format!("{field}.{k}"),
                    format!("keys must be 1 to {MAX_KEY_LEN} characters"),
                ));
            }
            if !k
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_'))
            {
                return Err(DomainError::invalid(
                    &format!("{field}.{k}"),
                    "keys may hold only letters, digits, dot, dash and underscore",
                ));
            }
            let Value::String(s) = v else {
                return Err(DomainError::invalid(
                    &format!("{field}.{k}"),
                    "value must be a string",
                ));
            };
            if s.chars().count() > MAX_VALUE_LEN {
                return Err(DomainError::invalid(
                    &format!("{field}.{k}"),
                    format!("value is longer than {MAX_VALUE_LEN} characters"),
                ));
            }
            out.insert(k.clone(), s.clone());
        }
        Ok(Metadata(out))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn err(v: Value) -> String {
        Metadata::parse("metadata", &v).unwrap_err().to_string()
    }

    #[test]
    fn accepts_the_limits_exactly() {
        let mut obj = serde_json::Map::new();
        for i in 0..20 {
            obj.insert(format!("k{i}.a-b_c"), json!("x".repeat(500)));
        }
        obj.insert("a".repeat(40), json!("é".repeat(500)));
        obj.remove("k0.a-b_c");
        let m = Metadata::parse("metadata", &Value::Object(obj)).unwrap();
        assert_eq!(m.0.len(), 20);
    }

    #[test]
    fn names_the_key_and_reason() {
        let many: serde_json::Map<_, _> = (0..21).map(|i| (format!("k{i}"), json!("v"))).collect();
        assert_eq!(
            err(Value::Object(many)),
            "metadata: has 21 keys; at most 20 are allowed"
        );
        assert!(err(json!({"a b": "v"})).starts_with("metadata.a b: keys may hold only"));
        assert!(err(json!({"a".repeat(41): "v"})).contains("1 to 40 characters"));
        assert_eq!(err(json!({"n": 5})), "metadata.n: value must be a string");
        assert!(
            err(json!({"long": "x".repeat(501)})).starts_with("metadata.long: value is longer")
        );
        assert_eq!(
            err(json!([1])),
            "metadata: must be an object of string values"
        );
    }
}
