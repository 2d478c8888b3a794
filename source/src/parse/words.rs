//! The words of a block: text runs with their marks, chips, field tags and breaks.

use serde_json::{Map, Value};

use super::*;

impl Parser {
    pub(super) fn inlines(&mut self, path: &str, obj: &Map<String, Value>) -> Vec<Inline> {
        let mut out = Vec::new();
        for (i, child) in self.children(path, obj).iter().enumerate() {
            let cpath = format!("{path}.content[{i}]");
            if !self.count_node(&cpath) {
                break;
            }
            self.inline(&cpath, child, &Marks::default(), &mut out);
        }
        out
    }

    pub(super) fn inline(&mut self, path: &str, v: &Value, _outer: &Marks, out: &mut Vec<Inline>) {
        let Some(obj) = v.as_object() else {
            self.err(path, "must be a node object with a type");
            return;
        };
        let attrs = obj.get("attrs").and_then(Value::as_object);
        match kind(v) {
            Some("text") => {
                let Some(text) = obj.get("text").and_then(Value::as_str) else {
                    self.err(&format!("{path}.text"), "must be a string");
                    return;
                };
                if text.len() > MAX_TEXT {
                    self.err(
                        &format!("{path}.text"),
                        format!("is longer than {MAX_TEXT} bytes"),
                    );
                    return;
                }
                let marks = self.marks(path, obj);
                out.push(Inline::Text {
                    text: text.to_string(),
                    marks,
                });
            }
            Some("hardBreak" | "hard_break") => out.push(Inline::HardBreak),
            Some("variableChip" | "variable_chip") => {
                let apath = format!("{path}.attrs.name");
                match attrs.and_then(|a| a.get("name")).and_then(Value::as_str) {
                    Some(n) if !n.trim().is_empty() && n.len() <= 100 => {
                        let marks = self.marks(path, obj);
                        out.push(Inline::Chip {
                            name: n.trim().to_string(),
                            marks,
                            path: path.to_string(),
                        });
                    }
                    _ => self.err(
                        &apath,
                        "must be a chip name such as org.name or custom.rent",
                    ),
                }
            }
            Some("fieldTag" | "field_tag") => {
                if let Some(f) = self.field(path, attrs) {
                    out.push(Inline::Field(f));
                }
            }
            Some(other) => self.err(
                &format!("{path}.type"),
                format!(
                    "'{}' cannot stand inside a paragraph or heading; use text, hardBreak, \
                     fieldTag or variableChip",
                    truncate(other)
                ),
            ),
            None => self.err(&format!("{path}.type"), "is missing"),
        }
    }

    pub(super) fn marks(&mut self, path: &str, obj: &Map<String, Value>) -> Marks {
        let mut m = Marks::default();
        let Some(marks) = obj.get("marks") else {
            return m;
        };
        let Some(marks) = marks.as_array() else {
            self.err(&format!("{path}.marks"), "must be an array");
            return m;
        };
        for (i, mark) in marks.iter().enumerate() {
            let mpath = format!("{path}.marks[{i}]");
            match kind(mark) {
                Some("bold" | "strong") => m.bold = true,
                Some("italic" | "em") => m.italic = true,
                Some("underline") => m.underline = true,
                Some("strike" | "strikethrough") => m.strike = true,
                Some("link") => {
                    let href = mark
                        .get("attrs")
                        .and_then(|a| a.get("href"))
                        .and_then(Value::as_str)
                        .unwrap_or("");
                    let lower = href.to_ascii_lowercase();
                    if href.len() > 2000
                        || !(lower.starts_with("https://")
                            || lower.starts_with("http://")
                            || lower.starts_with("mailto:"))
                    {
                        self.err(
                            &format!("{mpath}.attrs.href"),
                            "must be an http, https or mailto address of at most 2000 characters",
                        );
                    } else {
                        m.link = Some(href.to_string());
                    }
                }
                Some(other) => self.err(
                    &format!("{mpath}.type"),
                    format!(
                        "unknown mark '{}'; marks are bold, italic, underline, strike, link",
                        truncate(other)
                    ),
                ),
                None => self.err(&format!("{mpath}.type"), "is missing"),
            }
        }
        m
    }
}
