//! The editor's JSON to typed values. The walk keeps the JSON path of every node so each
//! problem reads like `source.content[3].attrs.role: ...`; it collects every structural problem
//! rather than stopping at the first, because `POST /documents/check` lists them all.

use serde_json::{Map, Value};

use crate::model::*;
use crate::{Problem, Severity};

const MAX_DEPTH: usize = 24;
const MAX_NODES: usize = 100_000;
const MAX_PROBLEMS: usize = 100;
const MAX_TEXT: usize = 100_000;

/// Parses `value`, the document source found at `root` in the request (`source`).
pub fn parse(root: &str, value: &Value) -> Result<Doc, Vec<Problem>> {
    let mut p = Parser {
        problems: Vec::new(),
        nodes: 0,
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
            return Doc { content: vec![] };
        };
        if obj.get("type").and_then(Value::as_str) != Some("doc") {
            self.err(&format!("{path}.type"), "must be \"doc\"");
        }
        let content = self.blocks(path, obj, 0);
        Doc { content }
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
            Some("heading") => {
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
                let content = self.inlines(path, obj);
                Some(Block::Heading {
                    level,
                    sender_only,
                    content,
                })
            }
            Some("paragraph") => Some(Block::Paragraph(self.inlines(path, obj))),
            Some("bulletList" | "bullet_list") => {
                Some(Block::BulletList(self.items(path, obj, depth)))
            }
            Some("orderedList" | "ordered_list") => {
                let start = match attrs.and_then(|a| a.get("start")) {
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
                };
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
            Some("horizontalRule" | "horizontal_rule") => None,
            Some(other) => {
                self.err(
                    &format!("{path}.type"),
                    format!(
                        "unknown node type '{}'; blocks are heading, paragraph, bulletList, \
                         orderedList, table, signatureBlock",
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
                        cells.push(Cell {
                            content: self.blocks(&cpath, co, depth + 1),
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
        if let Some(w) = rows.iter().map(Vec::len).max()
            && w > 30
        {
            self.err(path, format!("has {w} columns; at most 30 are allowed"));
        }
        Table { header, rows }
    }

    fn inlines(&mut self, path: &str, obj: &Map<String, Value>) -> Vec<Inline> {
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

    fn inline(&mut self, path: &str, v: &Value, _outer: &Marks, out: &mut Vec<Inline>) {
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

    fn marks(&mut self, path: &str, obj: &Map<String, Value>) -> Marks {
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

    fn field(&mut self, path: &str, attrs: Option<&Map<String, Value>>) -> Option<Field> {
        let Some(a) = attrs else {
            self.err(
                &format!("{path}.attrs"),
                "is required: a field needs name, type and role",
            );
            return None;
        };
        let ap = |k: &str| format!("{path}.attrs.{k}");
        let before = self.problems.len();
        let name = match a.get("name") {
            Some(Value::String(n)) if !n.trim().is_empty() && n.chars().count() <= 100 => {
                n.trim().to_string()
            }
            _ => {
                self.err(&ap("name"), "must be a name of 1 to 100 characters");
                String::new()
            }
        };
        let ty = match a.get("type").and_then(Value::as_str) {
            Some(t) => FieldType::parse(t).or_else(|| {
                let all: Vec<_> = FieldType::ALL.iter().map(|t| t.as_str()).collect();
                self.err(
                    &ap("type"),
                    format!(
                        "unknown field type '{}'; one of {}",
                        truncate(t),
                        all.join(", ")
                    ),
                );
                None
            }),
            None => {
                self.err(&ap("type"), "is required");
                None
            }
        };
        let role = self.role(path, Some(a));
        let flag = |k: &str, default: bool, me: &mut Self| match a.get(k) {
            None | Some(Value::Null) => default,
            Some(Value::Bool(b)) => *b,
            Some(_) => {
                me.err(&ap(k), "must be true or false");
                default
            }
        };
        let required = flag("required", true, self);
        let editable = flag("editable", true, self);
        let locked = flag("locked", false, self);
        let text = |k: &str, me: &mut Self| match a.get(k) {
            None | Some(Value::Null) => None,
            Some(Value::String(s)) if s.chars().count() <= 500 => Some(s.clone()),
            Some(Value::Number(n)) if k == "default" => Some(n.to_string()),
            Some(Value::Bool(b)) if k == "default" => Some(b.to_string()),
            Some(_) => {
                me.err(&ap(k), "must be a string of at most 500 characters");
                None
            }
        };
        let placeholder = text("placeholder", self);
        let tooltip = text("tooltip", self);
        let default = text("default", self);
        let autofill = match a.get("autofill") {
            None | Some(Value::Null) | Some(Value::Bool(false)) => None,
            Some(Value::String(s)) => Autofill::parse(s).or_else(|| {
                self.err(
                    &ap("autofill"),
                    format!(
                        "unknown autofill '{}'; one of name, email, date_signed",
                        truncate(s)
                    ),
                );
                None
            }),
            Some(_) => {
                self.err(&ap("autofill"), "must be name, email or date_signed");
                None
            }
        };
        let options = match a.get("options") {
            None | Some(Value::Null) => vec![],
            Some(Value::Array(items)) => {
                let mut out = Vec::new();
                for (i, o) in items.iter().enumerate() {
                    match o {
                        Value::String(s) if !s.trim().is_empty() && s.chars().count() <= 200 => {
                            out.push(s.clone())
                        }
                        _ => self.err(
                            &format!("{path}.attrs.options[{i}]"),
                            "must be a string of 1 to 200 characters",
                        ),
                    }
                }
                out
            }
            Some(_) => {
                self.err(&ap("options"), "must be an array of strings");
                vec![]
            }
        };
        let payment = if ty == Some(FieldType::Payment) {
            let amount_minor = match a.get("amount") {
                None | Some(Value::Null) => None,
                Some(v) => match parse_amount(v) {
                    Some(m) => Some(m),
                    None => {
                        self.err(
                            &ap("amount"),
                            "must be a positive amount such as 49.99 with at most 2 decimals",
                        );
                        None
                    }
                },
            };
            let currency = match a.get("currency") {
                None | Some(Value::Null) => "usd".to_string(),
                Some(Value::String(c))
                    if c.len() == 3 && c.bytes().all(|b| b.is_ascii_alphabetic()) =>
                {
                    c.to_ascii_lowercase()
                }
                Some(_) => {
                    self.err(
                        &ap("currency"),
                        "must be a three-letter currency code such as usd",
                    );
                    "usd".to_string()
                }
            };
            let description = text("description", self);
            Some(Payment {
                amount_minor,
                currency,
                description,
            })
        } else {
            None
        };
        if self.problems.len() > before {
            return None;
        }
        Some(Field {
            name,
            ty: ty?,
            role: role?,
            required,
            autofill,
            editable,
            placeholder,
            tooltip,
            locked,
            options,
            default,
            payment,
            path: path.to_string(),
        })
    }
}

/// `49.99`, `"49.99"` or `4999`-style whole amounts to minor units.
fn parse_amount(v: &Value) -> Option<i64> {
    let s = match v {
        Value::Number(n) => n.to_string(),
        Value::String(s) => s.trim().to_string(),
        _ => return None,
    };
    let (whole, frac) = s.split_once('.').unwrap_or((&s, ""));
    if whole.is_empty() || whole.len() > 10 || frac.len() > 2 {
        return None;
    }
    if !whole.bytes().all(|b| b.is_ascii_digit()) || !frac.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let w: i64 = whole.parse().ok()?;
    let f: i64 = if frac.is_empty() {
        0
    } else {
        format!("{frac:0<2}").parse().ok()?
    };
    let minor = w * 100 + f;
    (minor > 0).then_some(minor)
}

fn truncate(s: &str) -> String {
    let mut t: String = s.chars().take(60).collect();
    if t.len() < s.len() {
        t.push('…');
    }
    t
}
