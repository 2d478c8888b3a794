//! The editor's JSON to typed values. The walk keeps the JSON path of every node so each
//! problem reads like `source.content[3].attrs.role: ...`; it collects every structural problem
//! rather than stopping at the first, because `POST /documents/check` lists them all.

use serde_json::{Map, Value};

use crate::model::*;
use crate::{Problem, Severity};

mod field;
mod file;
pub mod image;
mod words;

const MAX_DEPTH: usize = 24;
const MAX_NODES: usize = 100_000;
const MAX_PROBLEMS: usize = 100;
const MAX_TEXT: usize = 100_000;
/// A cell spans at most this many columns or rows.
const MAX_SPAN: u64 = 1_000;
/// A picture's bytes, its pixels, and all pictures' pixels together: a few pages of scans at
/// print resolution, and no picture that decodes to more memory than a render should take.
pub const MAX_IMAGE_BYTES: usize = 5 * 1024 * 1024;
pub const MAX_IMAGE_PIXELS: u64 = 25_000_000;
pub const MAX_DOC_PIXELS: u64 = 60_000_000;

/// Parses `value`, the document source found at `root` in the request (`source`).
pub fn parse(root: &str, value: &Value) -> Result<Doc, Vec<Problem>> {
    let mut p = Parser {
        problems: Vec::new(),
        nodes: 0,
        pixels: 0,
    };
    let doc = p.doc(root, value);
    if p.problems.is_empty() {
        Ok(doc)
    } else {
        Err(p.problems)
    }
}

/// Words that name merge chips (`org.name`, `sender.email`, `custom.x`, `document.title`) and
/// so cannot be a seat: a seat's own chips are `<seat>.name` and `<seat>.email`.
pub const RESERVED_ROLES: &[&str] = &["org", "sender", "document", "custom"];

/// Why `s` cannot be a role word, if it cannot.
pub fn role_problem(s: &str) -> Option<String> {
    if !is_role_word(s) {
        return Some(format!(
            "'{}' is not a role word: use 1 to 40 letters, digits, '_' or '-'",
            truncate(s)
        ));
    }
    RESERVED_ROLES
        .contains(&s)
        .then(|| format!("'{s}' names merge chips and cannot be a role; pick another word"))
}

/// Whether `s` can be a role word: 1 to 40 letters, digits, `_` or `-`.
pub fn is_role_word(s: &str) -> bool {
    (1..=40).contains(&s.len())
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

struct Parser {
    problems: Vec<Problem>,
    nodes: usize,
    pixels: u64,
}

fn kind(v: &Value) -> Option<&str> {
    v.get("type").and_then(Value::as_str)
}

impl Parser {
    fn err(&mut self, path: &str, message: impl Into<String>) {
        if self.problems.len() < MAX_PROBLEMS {
            self.problems.push(Problem {
                severity: Severity::Problem,
                path: path.to_string(),
                message: message.into(),
            });
        }
    }

    /// Counts one more node; false (with a problem) once the source is too large.
    fn count_node(&mut self, path: &str) -> bool {
        self.nodes += 1;
        if self.nodes > MAX_NODES {
            self.err(path, format!("the source has more than {MAX_NODES} nodes"));
            return false;
        }
        true
    }

    fn doc(&mut self, path: &str, v: &Value) -> Doc {
        let Some(obj) = v.as_object() else {
            self.err(
                path,
                "must be an object with type \"doc\" and a content array",
            );
            return Doc {
                content: vec![],
                file: None,
            };
        };
        if obj.get("type").and_then(Value::as_str) != Some("doc") {
            self.err(&format!("{path}.type"), "must be \"doc\"");
        }
        let content = self.blocks(path, obj, 0);
        let file = match obj.get("file") {
            None | Some(Value::Null) => None,
            Some(f) => self.file(&format!("{path}.file"), f),
        };
        if file.is_some() && !content.is_empty() {
            self.err(
                &format!("{path}.content"),
                "a document of a file's pages has no content of its own",
            );
        }
        Doc { content, file }
    }

    fn children<'v>(&mut self, path: &str, obj: &'v Map<String, Value>) -> &'v [Value] {
        match obj.get("content") {
            None | Some(Value::Null) => &[],
            Some(Value::Array(a)) => a,
            Some(_) => {
                self.err(&format!("{path}.content"), "must be an array of nodes");
                &[]
            }
        }
    }

    fn blocks(&mut self, path: &str, obj: &Map<String, Value>, depth: usize) -> Vec<Block> {
        if depth > MAX_DEPTH {
            self.err(path, format!("nests deeper than {MAX_DEPTH} levels"));
            return vec![];
        }
        let mut out = Vec::new();
        // Inline nodes written directly at block level are gathered into one paragraph.
        let mut loose: Vec<Inline> = Vec::new();
        for (i, child) in self.children(path, obj).iter().enumerate() {
            let cpath = format!("{path}.content[{i}]");
            if !self.count_node(&cpath) {
                return out;
            }
            if let Some("text" | "fieldTag" | "field_tag" | "variableChip" | "variable_chip") =
                kind(child)
            {
                self.inline(&cpath, child, &Marks::default(), &mut loose);
                continue;
            }
            if !loose.is_empty() {
                out.push(Block::Paragraph(std::mem::take(&mut loose)));
            }
            if let Some(b) = self.block(&cpath, child, depth) {
                out.push(b);
            }
        }
        if !loose.is_empty() {
            out.push(Block::Paragraph(loose));
        }
        out
    }

    fn block(&mut self, path: &str, v: &Value, depth: usize) -> Option<Block> {
        let Some(obj) = v.as_object() else {
            self.err(path, "must be a node object with a type");
            return None;
        };
        let attrs = obj.get("attrs").and_then(Value::as_object);
        match kind(v) {
            Some("heading") => Some(self.heading(path, obj, attrs)),
            Some("paragraph") => {
                let align = self.align(path, attrs);
                let p = Block::Paragraph(self.inlines(path, obj));
                Some(match align {
                    Align::Start => p,
                    align => Block::Aligned {
                        align,
                        content: vec![p],
                    },
                })
            }
            Some("bulletList" | "bullet_list") => {
                Some(Block::BulletList(self.items(path, obj, depth)))
            }
            Some("orderedList" | "ordered_list") => {
                let start = self.list_start(path, attrs);
                let items = self.items(path, obj, depth);
                Some(Block::OrderedList { start, items })
            }
            Some("table") => Some(Block::Table(self.table(path, obj, depth))),
            Some("signatureBlock" | "signature_block") => {
                let role = self.role(path, attrs)?;
                Some(Block::SignatureBlock {
                    role,
                    path: path.to_string(),
                })
            }
            Some("horizontalRule" | "horizontal_rule") => Some(Block::Rule),
            Some("blockquote") => Some(Block::Quote(self.blocks(path, obj, depth + 1))),
            Some("codeBlock" | "code_block") => self.code(path, obj),
            Some("image") => self.image(path, attrs).map(Block::Image),
            Some(other) => {
                self.err(
                    &format!("{path}.type"),
                    format!(
                        "unknown node type '{}'; blocks are heading, paragraph, bulletList, \
                         orderedList, table, blockquote, codeBlock, horizontalRule, image, \
                         signatureBlock",
                        truncate(other)
                    ),
                );
                None
            }
            None => {
                self.err(&format!("{path}.type"), "is missing");
                None
            }
        }
    }

    /// A `heading` node: its level (1 to 4), whether only the sender sees its section, its
    /// alignment and words.
    fn heading(
        &mut self,
        path: &str,
        obj: &Map<String, Value>,
        attrs: Option<&Map<String, Value>>,
    ) -> Block {
        let level = match attrs.and_then(|a| a.get("level")) {
            None | Some(Value::Null) => 1,
            Some(l) => match l.as_u64() {
                Some(n @ 1..=4) => n as u8,
                _ => {
                    self.err(&format!("{path}.attrs.level"), "must be 1, 2, 3 or 4");
                    1
                }
            },
        };
        let sender_only = match attrs.and_then(|a| a.get("audience")) {
            None | Some(Value::Null) => false,
            Some(Value::String(s)) if s == "sender" => true,
            Some(Value::String(s)) if s == "all" || s == "everyone" => false,
            Some(_) => {
                self.err(
                    &format!("{path}.attrs.audience"),
                    "must be \"sender\" or left out",
                );
                false
            }
        };
        let align = self.align(path, attrs);
        let content = self.inlines(path, obj);
        Block::Heading {
            level,
            sender_only,
            align,
            content,
        }
    }

    /// An ordered list's first number: 0 to 100000, 1 when left out.
    fn list_start(&mut self, path: &str, attrs: Option<&Map<String, Value>>) -> u32 {
        match attrs.and_then(|a| a.get("start")) {
            None | Some(Value::Null) => 1,
            Some(s) => match s.as_u64() {
                Some(n) if n <= 100_000 => n as u32,
                _ => {
                    self.err(
                        &format!("{path}.attrs.start"),
                        "must be a whole number from 0 to 100000",
                    );
                    1
                }
            },
        }
    }

    /// A `codeBlock` node: text nodes only, at most `MAX_TEXT` bytes.
    fn code(&mut self, path: &str, obj: &Map<String, Value>) -> Option<Block> {
        let mut text = String::new();
        for (i, child) in self.children(path, obj).iter().enumerate() {
            match child.get("text").and_then(Value::as_str) {
                Some(t) if kind(child) == Some("text") => text.push_str(t),
                _ => self.err(
                    &format!("{path}.content[{i}]"),
                    "a codeBlock holds only text nodes",
                ),
            }
        }
        if text.len() > MAX_TEXT {
            self.err(path, format!("is longer than {MAX_TEXT} bytes"));
            return None;
        }
        Some(Block::Code(text))
    }

    fn items(&mut self, path: &str, obj: &Map<String, Value>, depth: usize) -> Vec<ListItem> {
        let mut items = Vec::new();
        for (i, item) in self.children(path, obj).iter().enumerate() {
            let ipath = format!("{path}.content[{i}]");
            if !self.count_node(&ipath) {
                break;
            }
            match (kind(item), item.as_object()) {
                (Some("listItem" | "list_item"), Some(o)) => items.push(ListItem {
                    content: self.blocks(&ipath, o, depth + 1),
                }),
                _ => self.err(&format!("{ipath}.type"), "a list holds only listItem nodes"),
            }
        }
        items
    }

    fn table(&mut self, path: &str, obj: &Map<String, Value>, depth: usize) -> Table {
        let mut rows = Vec::new();
        let mut header = false;
        for (r, row) in self.children(path, obj).iter().enumerate() {
            let rpath = format!("{path}.content[{r}]");
            if !self.count_node(&rpath) {
                break;
            }
            let Some(ro) = row
                .as_object()
                .filter(|_| matches!(kind(row), Some("tableRow" | "table_row")))
            else {
                self.err(
                    &format!("{rpath}.type"),
                    "a table holds only tableRow nodes",
                );
                continue;
            };
            let mut cells = Vec::new();
            for (c, cell) in self.children(&rpath, ro).iter().enumerate() {
                let cpath = format!("{rpath}.content[{c}]");
                if !self.count_node(&cpath) {
                    break;
                }
                match (kind(cell), cell.as_object()) {
                    (
                        Some(k @ ("tableCell" | "table_cell" | "tableHeader" | "table_header")),
                        Some(co),
                    ) => {
                        if r == 0 && k.contains("eader") {
                            header = true;
                        }
                        let cattrs = co.get("attrs").and_then(Value::as_object);
                        let span = |k: &str, me: &mut Self| match cattrs.and_then(|a| a.get(k)) {
                            None | Some(Value::Null) => 1,
                            Some(v) => match v.as_u64() {
                                Some(n @ 1..=MAX_SPAN) => n as u16,
                                _ => {
                                    me.err(
                                        &format!("{cpath}.attrs.{k}"),
                                        format!("must be a whole number from 1 to {MAX_SPAN}"),
                                    );
                                    1
                                }
                            },
                        };
                        let colspan = span("colspan", self);
                        let rowspan = span("rowspan", self);
                        cells.push(Cell {
                            content: self.blocks(&cpath, co, depth + 1),
                            colspan,
                            rowspan,
                        });
                    }
                    _ => self.err(
                        &format!("{cpath}.type"),
                        "a table row holds only tableCell or tableHeader nodes",
                    ),
                }
            }
            rows.push(cells);
        }
        let table = Table { header, rows };
        let w = table.columns();
        if w > 30 {
            self.err(path, format!("has {w} columns; at most 30 are allowed"));
        }
        table
    }

    fn role(&mut self, path: &str, attrs: Option<&Map<String, Value>>) -> Option<String> {
        match attrs.and_then(|a| a.get("role")) {
            Some(Value::String(r)) => match role_problem(r) {
                None => Some(r.clone()),
                Some(problem) => {
                    self.err(&format!("{path}.attrs.role"), problem);
                    None
                }
            },
            _ => {
                self.err(&format!("{path}.attrs.role"), "is required");
                None
            }
        }
    }

    /// `attrs.textAlign`: `left`, `center`, `right` or `justify`.
    fn align(&mut self, path: &str, attrs: Option<&Map<String, Value>>) -> Align {
        match attrs.and_then(|a| a.get("textAlign")) {
            None | Some(Value::Null) => Align::Start,
            Some(Value::String(s)) if Align::parse(s).is_some() => {
                Align::parse(s).unwrap_or_default()
            }
            Some(_) => {
                self.err(
                    &format!("{path}.attrs.textAlign"),
                    "must be left, center, right or justify",
                );
                Align::Start
            }
        }
    }
}

/// `49.99`, `"49.99"` or `4999`-style whole amounts to minor units.
/// A written amount (`49.99`, or a number) in minor units of `currency`, with at most the
/// currency's own digits after the point.
fn parse_amount(v: &Value, currency: &str) -> Option<i64> {
    let s = match v {
        Value::Number(n) => n.to_string(),
        Value::String(s) => s.trim().to_string(),
        _ => return None,
    };
    crate::currencies::minor_units(&s, currency)
}

fn truncate(s: &str) -> String {
    let mut t: String = s.chars().take(60).collect();
    if t.len() < s.len() {
        t.push('…');
    }
    t
}
