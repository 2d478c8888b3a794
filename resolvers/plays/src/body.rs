//! A play's words: the Markdown after the header, read in its plainest forms into blocks that
//! keep their conditions, then assembled for a set of answers into the source model's JSON
//! (what `POST /documents` takes), deterministically.
//!
//! Read: `#` to `###` headings (`{sender-only}` at the end marks one), paragraphs, `-`/`*` and
//! `1.` lists (nested by indenting), pipe tables, `>` quotes, `---` rules, `**bold**` and
//! `*italic*`, merge chips (`{{org.name}}`, `{{client.name}}`, `{{custom.term}}`), text tags
//! (`{{Label;type=…;role=…}}`), `::: signatures` / `::: signature <role>`, and blocks kept
//! only for matching answers (`::: when term = 1y | 2y and renew = yes` … `:::`, at most three
//! deep). Everything else that Markdown would turn into something (raw HTML, links, pictures,
//! code, footnotes) is refused where it is written: a play is data and cannot fetch, include
//! or run anything. Every problem is reported with its line and column.

use std::collections::BTreeMap;

use serde_json::{Value, json};

use crate::header::{Header, Problem};

/// Blocks inside blocks kept for answers.
pub const MAX_WHEN_DEPTH: usize = 3;
/// Lists inside lists.
const MAX_LIST_DEPTH: usize = 4;
/// Columns of a table, as the source model allows.
const MAX_COLUMNS: usize = 30;
/// Problems reported of the words; past it the rest is not looked at.
const MAX_PROBLEMS: usize = 100;

/// Chips a draft can fill without the caller's facts: the workspace's name, the sender's name
/// (the workspace's by default), the document's title and date, each seat's name and email,
/// and `custom.<question>` (the chosen option's label).
pub const FACTS: &[&str] = &["org.name", "sender.name", "document.title", "document.date"];

#[derive(Clone, Debug, PartialEq)]
pub enum Inline {
    Text {
        text: String,
        bold: bool,
        italic: bool,
    },
    /// A merge chip's name.
    Chip(String),
    /// A field from a text tag: the `fieldTag` node's attributes.
    Field(Value),
    Break,
}

/// One condition: the question's id and the values any of which it holds.
pub type Cond = (String, Vec<String>);

#[derive(Clone, Debug, PartialEq)]
pub enum Block {
    Heading {
        level: u8,
        sender_only: bool,
        content: Vec<Inline>,
    },
    Paragraph(Vec<Inline>),
    List {
        /// The first number of an ordered list; `None` for bullets.
        start: Option<u32>,
        items: Vec<Vec<Block>>,
    },
    Table {
        header: bool,
        rows: Vec<Vec<Vec<Inline>>>,
    },
    Quote(Vec<Inline>),
    Rule,
    /// A signature block for one seat.
    Signature(String),
    /// A signature block for every seat, in signing order.
    Signatures,
    /// Words kept only when every condition holds.
    When {
        conds: Vec<Cond>,
        content: Vec<Block>,
    },
}

/// Reads the words. `first_line` is the file's line the words begin on; the header gives the
/// seats and questions the words may name (an empty header when it could not be read: the
/// words are then checked for their own form only).
pub fn read(words: &str, first_line: usize, header: &Header) -> (Vec<Block>, Vec<Problem>) {
    let lines: Vec<Line> = words
        .lines()
        .enumerate()
        .map(|(i, l)| Line {
            n: first_line + i,
            text: l.trim_end_matches('\r'),
        })
        .collect();
    let mut r = Reader {
        header,
        problems: Vec::new(),
        checked: !header.name.is_empty() || !header.seats.is_empty(),
    };
    let mut at = 0;
    let blocks = r.blocks(&lines, &mut at, 0, None, &[]);
    (blocks, r.problems)
}

#[derive(Clone, Copy)]
struct Line<'a> {
    n: usize,
    text: &'a str,
}

struct Reader<'h> {
    header: &'h Header,
    problems: Vec<Problem>,
    /// Whether the header was read, so names of seats and questions can be checked.
    checked: bool,
}

fn indent(s: &str) -> usize {
    s.len() - s.trim_start_matches([' ', '\t']).len()
}

/// A list item's marker: its indent, the ordered number if any, and where its words begin.
fn item_marker(s: &str) -> Option<(usize, Option<u32>, usize)> {
    let ind = indent(s);
    let rest = &s[ind..];
    if let Some(r) = rest.strip_prefix("- ").or_else(|| rest.strip_prefix("* ")) {
        return Some((ind, None, s.len() - r.len()));
    }
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    if (1..=6).contains(&digits) && rest[digits..].starts_with(". ") {
        let n = rest[..digits].parse().ok()?;
        return Some((ind, Some(n), ind + digits + 2));
    }
    None
}

fn is_rule(s: &str) -> bool {
    let t = s.trim();
    t.len() >= 3 && (t.bytes().all(|b| b == b'-') || t.bytes().all(|b| b == b'_'))
}

impl Reader<'_> {
    fn fail(&mut self, line: usize, column: usize, message: impl Into<String>, hint: &str) {
        if self.problems.len() < MAX_PROBLEMS {
            self.problems.push(Problem {
                key: "body".into(),
                line,
                column,
                message: message.into(),
                hint: hint.into(),
            });
        }
    }

    /// Blocks from `lines[*at]` until the end, or the `:::` closing the block opened at
    /// `open` (its line). `active` are the conditions of the blocks around.
    fn blocks(
        &mut self,
        lines: &[Line],
        at: &mut usize,
        depth: usize,
        open: Option<usize>,
        active: &[Cond],
    ) -> Vec<Block> {
        let mut out = Vec::new();
        while *at < lines.len() {
            if self.problems.len() >= MAX_PROBLEMS {
                *at = lines.len();
                break;
            }
            let line = lines[*at];
            let t = line.text.trim();
            if t.is_empty() {
                *at += 1;
                continue;
            }
            if let Some(rest) = t.strip_prefix(":::") {
                let rest = rest.trim();
                *at += 1;
                if rest.is_empty() {
                    if open.is_some() {
                        return out;
                    }
                    self.fail(
                        line.n,
                        1,
                        "this ::: closes no block",
                        "remove it, or open the block with `::: when question = value` above",
                    );
                    continue;
                }
                if let Some(c) = rest.strip_prefix("when ") {
                    let conds = self.conditions(line, c);
                    if depth >= MAX_WHEN_DEPTH {
                        self.fail(
                            line.n,
                            1,
                            format!("blocks kept for answers nest at most {MAX_WHEN_DEPTH} deep"),
                            "join the conditions with `and` in one block",
                        );
                    }
                    let mut inner: Vec<Cond> = active.to_vec();
                    inner.extend(conds.iter().cloned());
                    let content = self.blocks(lines, at, depth + 1, Some(line.n), &inner);
                    out.push(Block::When { conds, content });
                    continue;
                }
                if rest == "signatures" {
                    out.push(Block::Signatures);
                    continue;
                }
                if let Some(role) = rest.strip_prefix("signature ") {
                    let role = role.trim();
                    self.seat(line, role);
                    out.push(Block::Signature(role.to_string()));
                    continue;
                }
                self.fail(
                    line.n,
                    1,
                    format!("'::: {}' is not a block a play knows", clip(rest)),
                    "write `::: when question = value`, `::: signatures` or `::: signature <role>`",
                );
                continue;
            }
            if let Some(b) = self.refused_line(line) {
                *at += 1;
                if let Some(b) = b {
                    out.push(b);
                }
                continue;
            }
            if t.starts_with('#') {
                *at += 1;
                out.extend(self.heading(line, active));
                continue;
            }
            if is_rule(t) {
                *at += 1;
                out.push(Block::Rule);
                continue;
            }
            if t.starts_with('|') {
                out.push(self.table(lines, at, active));
                continue;
            }
            if t.starts_with('>') {
                out.push(self.quote(lines, at, active));
                continue;
            }
            if item_marker(line.text).is_some() {
                out.push(self.list(lines, at, indent(line.text), 0, active));
                continue;
            }
            out.push(self.paragraph(lines, at, active));
        }
        if let Some(n) = open {
            self.fail(
                n,
                1,
                "this block is never closed",
                "put ::: on a line of its own where the block ends",
            );
        }
        out
    }

    /// A line Markdown would read as something a play does not take: a problem, and the
    /// line is skipped.
    fn refused_line(&mut self, line: Line) -> Option<Option<Block>> {
        let t = line.text.trim_start();
        let col = indent(line.text) + 1;
        if t.starts_with("```") || t.starts_with("~~~") {
            self.fail(
                line.n,
                col,
                "code blocks are not part of a play's words",
                "write the words as a paragraph",
            );
            return Some(None);
        }
        if t.starts_with("[^") || (t.starts_with('[') && t.contains("]:")) {
            self.fail(
                line.n,
                col,
                "footnotes and link definitions are not part of a play's words",
                "a play is data: it cannot fetch, include or run anything; write the words out",
            );
            return Some(None);
        }
        if t.starts_with("####") {
            self.fail(
                line.n,
                col,
                "a play's headings go three levels deep (#, ## and ###)",
                "use ### or a bold paragraph",
            );
            return Some(None);
        }
        None
    }

    fn heading(&mut self, line: Line, active: &[Cond]) -> Option<Block> {
        let t = line.text.trim_start();
        let level = t.bytes().take_while(|b| *b == b'#').count();
        let rest = &t[level..];
        if !rest.starts_with(' ') {
            self.fail(
                line.n,
                indent(line.text) + 1,
                "a heading's # is followed by a space",
                "write `# Title`",
            );
            return None;
        }
        let mut words = rest.trim();
        let mut sender_only = false;
        if let Some(w) = words.strip_suffix("{sender-only}") {
            words = w.trim_end();
            sender_only = true;
        }
        let col = line.text.len() - line.text.trim_start().len() + level + 2;
        let content = self.inlines(&[(line.n, col, words)], active);
        if content.is_empty() {
            self.fail(
                line.n,
                col,
                "the heading has no words",
                "write its words after the #",
            );
        }
        Some(Block::Heading {
            level: level as u8,
            sender_only,
            content,
        })
    }

    fn paragraph(&mut self, lines: &[Line], at: &mut usize, active: &[Cond]) -> Block {
        let mut parts = Vec::new();
        while *at < lines.len() {
            let l = lines[*at];
            let t = l.text.trim();
            if t.is_empty()
                || (!parts.is_empty()
                    && (t.starts_with(":::")
                        || t.starts_with('#')
                        || t.starts_with('|')
                        || t.starts_with('>')
                        || is_rule(t)
                        || item_marker(l.text).is_some()))
            {
                break;
            }
            parts.push((l.n, indent(l.text) + 1, l.text.trim_start()));
            *at += 1;
        }
        Block::Paragraph(self.inlines(&parts, active))
    }

    fn quote(&mut self, lines: &[Line], at: &mut usize, active: &[Cond]) -> Block {
        let mut parts = Vec::new();
        while *at < lines.len() {
            let l = lines[*at];
            let t = l.text.trim_start();
            let Some(rest) = t.strip_prefix('>') else {
                break;
            };
            let col = indent(l.text) + 2 + (rest.len() - rest.trim_start().len());
            parts.push((l.n, col, rest.trim_start()));
            *at += 1;
        }
        Block::Quote(self.inlines(&parts, active))
    }

    /// A list whose items are at `ind`; nested lists are more indented.
    fn list(
        &mut self,
        lines: &[Line],
        at: &mut usize,
        ind: usize,
        depth: usize,
        active: &[Cond],
    ) -> Block {
        let first = item_marker(lines[*at].text).map(|m| m.1);
        let ordered = first.flatten().is_some();
        let mut items: Vec<Vec<Block>> = Vec::new();
        if depth >= MAX_LIST_DEPTH {
            let l = lines[*at];
            self.fail(
                l.n,
                ind + 1,
                format!("lists nest at most {MAX_LIST_DEPTH} deep"),
                "indent less",
            );
        }
        while *at < lines.len() {
            let l = lines[*at];
            let Some((i, num, words_at)) = item_marker(l.text) else {
                break;
            };
            if i < ind || num.is_some() != ordered {
                break;
            }
            if i > ind {
                // A deeper list inside the last item.
                let nested = self.list(lines, at, i, depth + 1, active);
                match items.last_mut() {
                    Some(item) => item.push(nested),
                    None => items.push(vec![nested]),
                }
                continue;
            }
            *at += 1;
            let mut parts = vec![(l.n, words_at + 1, &l.text[words_at..])];
            // Lines that carry on the item's words: indented past its marker, not a marker.
            while *at < lines.len() {
                let c = lines[*at];
                if c.text.trim().is_empty()
                    || item_marker(c.text).is_some()
                    || indent(c.text) <= ind
                    || c.text.trim_start().starts_with(":::")
                {
                    break;
                }
                parts.push((c.n, indent(c.text) + 1, c.text.trim_start()));
                *at += 1;
            }
            items.push(vec![Block::Paragraph(self.inlines(&parts, active))]);
        }
        Block::List {
            start: if ordered {
                Some(first.flatten().unwrap_or(1))
            } else {
                None
            },
            items,
        }
    }

    fn table(&mut self, lines: &[Line], at: &mut usize, active: &[Cond]) -> Block {
        let mut rows = Vec::new();
        let mut header = false;
        let first = *at;
        while *at < lines.len() {
            let l = lines[*at];
            let t = l.text.trim();
            if !t.starts_with('|') {
                break;
            }
            *at += 1;
            let cells = split_cells(l.text);
            if *at - 1 == first + 1
                && cells.iter().all(|(_, c)| {
                    !c.trim().is_empty() && c.trim().bytes().all(|b| b"-:".contains(&b))
                })
            {
                header = true;
                continue;
            }
            if cells.len() > MAX_COLUMNS {
                self.fail(
                    l.n,
                    1,
                    format!("a table has at most {MAX_COLUMNS} columns"),
                    "split the table",
                );
            }
            let row = cells
                .iter()
                .map(|(col, c)| {
                    let lead = c.len() - c.trim_start().len();
                    self.inlines(&[(l.n, col + lead, c.trim())], active)
                })
                .collect();
            rows.push(row);
        }
        Block::Table { header, rows }
    }

    fn conditions(&mut self, line: Line, text: &str) -> Vec<Cond> {
        let mut out: Vec<Cond> = Vec::new();
        for part in text.split(" and ") {
            let Some((q, values)) = part.split_once('=') else {
                self.fail(
                    line.n,
                    1,
                    format!("'{}' is not a condition", clip(part.trim())),
                    "write `::: when question = value`, or `= a | b` for either",
                );
                continue;
            };
            let q = q.trim().to_string();
            let values: Vec<String> = values.split('|').map(|v| v.trim().to_string()).collect();
            if self.checked {
                match self.header.questions.iter().find(|x| x.id == q) {
                    None => self.fail(
                        line.n,
                        1,
                        format!("no question is called '{}'", clip(&q)),
                        "name a question of the header by its id",
                    ),
                    Some(question) => {
                        for v in &values {
                            if !question.options.iter().any(|o| &o.value == v) {
                                self.fail(
                                    line.n,
                                    1,
                                    format!("'{}' is not an option of question '{q}'", clip(v)),
                                    &format!(
                                        "use one of: {}",
                                        question
                                            .options
                                            .iter()
                                            .map(|o| o.value.as_str())
                                            .collect::<Vec<_>>()
                                            .join(", ")
                                    ),
                                );
                            }
                        }
                    }
                }
            }
            out.push((q, values));
        }
        out
    }

    fn seat(&mut self, line: Line, role: &str) {
        if self.checked && !self.header.seats.iter().any(|s| s.role == role) {
            self.fail(
                line.n,
                1,
                format!("no seat is called '{}'", clip(role)),
                "name a seat of the header by its role",
            );
        }
    }

    /// Reads the words of one block, given as pieces (line, column, text) joined by spaces.
    fn inlines(&mut self, parts: &[(usize, usize, &str)], active: &[Cond]) -> Vec<Inline> {
        let mut out = Vec::new();
        let mut bold = false;
        let mut italic = false;
        for (k, &(line, col, text)) in parts.iter().enumerate() {
            let (text, hard) = match text.strip_suffix('\\') {
                Some(t) => (t, true),
                None => (text, false),
            };
            self.line_inlines(line, col, text, active, &mut bold, &mut italic, &mut out);
            if k + 1 < parts.len() {
                if hard {
                    out.push(Inline::Break);
                } else {
                    push_text(&mut out, " ", bold, italic);
                }
            }
        }
        if (bold || italic)
            && let Some(&(line, col, _)) = parts.first()
        {
            self.fail(
                line,
                col,
                "a ** or * here is never closed",
                "close bold with ** and italic with *, or write \\* for a star",
            );
        }
        out
    }

    #[allow(clippy::too_many_arguments)]
    fn line_inlines(
        &mut self,
        line: usize,
        col: usize,
        text: &str,
        active: &[Cond],
        bold: &mut bool,
        italic: &mut bool,
        out: &mut Vec<Inline>,
    ) {
        let mut buf = String::new();
        let mut i = 0;
        let b = text.as_bytes();
        let column = |at: usize| col + text[..at].chars().count();
        while i < text.len() {
            let c = text[i..].chars().next().unwrap_or(' ');
            if signet_core::fields::is_disguising(c) || (c.is_control() && c != '\t') {
                self.fail(
                    line,
                    column(i),
                    format!(
                        "the words hold a hidden control character (U+{:04X})",
                        c as u32
                    ),
                    "delete it: characters that reverse or hide text are refused",
                );
                i += c.len_utf8();
                continue;
            }
            match c {
                '\\' if i + 1 < text.len() => {
                    let n = text[i + 1..].chars().next().unwrap_or(' ');
                    if n.is_ascii_punctuation() {
                        buf.push(n);
                        i += 1 + n.len_utf8();
                    } else {
                        buf.push('\\');
                        i += 1;
                    }
                }
                '{' if text[i..].starts_with("{{") => {
                    let Some(end) = text[i + 2..].find("}}").map(|e| e + i + 2) else {
                        self.fail(
                            line,
                            column(i),
                            "this {{ is never closed",
                            "close a chip or tag with }} on the same line, or write \\{ for a brace",
                        );
                        buf.push_str(&text[i..]);
                        break;
                    };
                    push_text(out, &std::mem::take(&mut buf), *bold, *italic);
                    let inner = &text[i + 2..end];
                    if let Some(node) = self.braces(line, column(i), inner, active) {
                        out.push(node);
                    }
                    i = end + 2;
                }
                '*' => {
                    push_text(out, &std::mem::take(&mut buf), *bold, *italic);
                    if text[i..].starts_with("**") {
                        *bold = !*bold;
                        i += 2;
                    } else {
                        *italic = !*italic;
                        i += 1;
                    }
                }
                '`' => {
                    self.fail(
                        line,
                        column(i),
                        "code is not part of a play's words",
                        "remove the backquote, or write \\` for one",
                    );
                    i += 1;
                }
                '<' if b
                    .get(i + 1)
                    .is_some_and(|n| n.is_ascii_alphabetic() || b"/!?".contains(n)) =>
                {
                    self.fail(
                        line,
                        column(i),
                        "HTML and web addresses in <…> are not part of a play's words",
                        "a play is data: it cannot fetch, include or run anything; write \\< for a less-than sign",
                    );
                    i += 1;
                }
                '!' if text[i..].starts_with("![") => {
                    self.fail(
                        line,
                        column(i),
                        "pictures are not part of a play's words",
                        "a play is data: it cannot fetch or include anything; add pictures to the draft afterwards",
                    );
                    i += 2;
                }
                '[' if is_link(&text[i..]) => {
                    self.fail(
                        line,
                        column(i),
                        "links are not part of a play's words",
                        "a play is data: it cannot fetch or include anything; write the address as words",
                    );
                    i += 1;
                }
                _ => {
                    buf.push(c);
                    i += c.len_utf8();
                }
            }
        }
        push_text(out, &buf, *bold, *italic);
    }

    /// What `{{inner}}` is: a tag (it has `;` or `=`), or a chip.
    fn braces(&mut self, line: usize, col: usize, inner: &str, active: &[Cond]) -> Option<Inline> {
        let name = inner.trim();
        if name.contains(';') || name.contains('=') {
            return match signet_source::tags::read(inner) {
                Ok(tag) => {
                    if let Some(role) = &tag.role
                        && self.checked
                        && !self.header.seats.iter().any(|s| &s.role == role)
                    {
                        self.fail(
                            line,
                            col,
                            format!("the tag's role '{}' is not a seat of the play", clip(role)),
                            "name a seat of the header in role=",
                        );
                    }
                    if tag.payment.is_some() {
                        self.fail(
                            line,
                            col,
                            "a play cannot take payments",
                            "remove the payment field; a person may add one to the draft",
                        );
                        return None;
                    }
                    let first = self
                        .header
                        .seats
                        .first()
                        .map(|s| s.role.as_str())
                        .unwrap_or("signer_1");
                    Some(Inline::Field(tag.attrs(first)))
                }
                Err(e) => {
                    self.fail(
                        line,
                        col,
                        e,
                        "tags read {{Label;type=text;role=<seat>}}; see docs/plays.md",
                    );
                    None
                }
            };
        }
        if let Some(q) = name.strip_prefix("custom.") {
            if self.checked {
                match self.header.questions.iter().find(|x| x.id == q) {
                    None => self.fail(
                        line,
                        col,
                        format!("'{{{{{}}}}}' names no question of the play", clip(name)),
                        "in a play, {{custom.<id>}} prints the answer to the question <id>",
                    ),
                    Some(question) => {
                        if let Some((dep, _)) = question.when.iter().find(|w| !implied(w, active)) {
                            self.fail(
                                line,
                                col,
                                format!(
                                    "question '{q}' is asked only when '{dep}' is answered so, \
                                     and this chip stands where it may not be"
                                ),
                                "put the chip inside a `::: when` block with the question's conditions",
                            );
                        }
                    }
                }
            }
            return Some(Inline::Chip(name.to_string()));
        }
        if FACTS.contains(&name) {
            return Some(Inline::Chip(name.to_string()));
        }
        if let Some((seat, what)) = name.rsplit_once('.')
            && (what == "name" || what == "email")
            && (!self.checked || self.header.seats.iter().any(|s| s.role == seat))
        {
            return Some(Inline::Chip(name.to_string()));
        }
        self.fail(
            line,
            col,
            format!("'{{{{{}}}}}' is not a chip a play can fill", clip(name)),
            "chips are {{org.name}}, {{sender.name}}, {{document.title}}, {{document.date}}, \
             {{<seat>.name}}, {{<seat>.email}} and {{custom.<question>}}",
        );
        None
    }
}

/// Whether a question's condition `w` always holds where the conditions `active` do.
fn implied(w: &Cond, active: &[Cond]) -> bool {
    active
        .iter()
        .any(|(q, vals)| *q == w.0 && vals.iter().all(|v| w.1.contains(v)))
}

/// `[words](…)` or `[words][…]`: a Markdown link.
fn is_link(s: &str) -> bool {
    s.find(']')
        .is_some_and(|e| s[e + 1..].starts_with('(') || s[e + 1..].starts_with('['))
}

/// A table row's cells and the column each begins on; `\|` is a bar inside a cell.
fn split_cells(row: &str) -> Vec<(usize, String)> {
    let t = row.trim_end();
    let lead = indent(t);
    let inner = &t[lead + 1..];
    let inner = inner.strip_suffix('|').unwrap_or(inner);
    let mut cells = Vec::new();
    let mut cur = String::new();
    let mut start = lead + 2;
    let mut chars = inner.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        if c == '\\' && chars.peek().is_some_and(|(_, n)| *n == '|') {
            cur.push_str("\\|");
            chars.next();
        } else if c == '|' {
            cells.push((start, std::mem::take(&mut cur)));
            start = lead + 2 + i + 1;
        } else {
            cur.push(c);
        }
    }
    cells.push((start, cur));
    cells
}

fn push_text(out: &mut Vec<Inline>, s: &str, bold: bool, italic: bool) {
    if s.is_empty() {
        return;
    }
    if let Some(Inline::Text {
        text,
        bold: b,
        italic: i,
    }) = out.last_mut()
        && *b == bold
        && *i == italic
    {
        text.push_str(s);
        return;
    }
    out.push(Inline::Text {
        text: s.to_string(),
        bold,
        italic,
    });
}

fn clip(s: &str) -> String {
    let mut c: String = s.chars().take(60).collect();
    if c.len() < s.len() {
        c.push('…');
    }
    c
}

/// The words for `answers` (question id to chosen value) as the source model's JSON, and the
/// `custom.<question>` chips used (what the draft's `variableValues` must answer). Blocks
/// whose conditions do not hold are left out; lists of the same kind that then stand side by
/// side are one list, so numbered clauses number on.
pub fn assemble(
    blocks: &[Block],
    header: &Header,
    answers: &BTreeMap<String, String>,
) -> (Value, Vec<String>) {
    let mut kept = Vec::new();
    keep(blocks, answers, &mut kept);
    let merged = merge_lists(kept);
    let mut used = Vec::new();
    let content: Vec<Value> = merged
        .iter()
        .flat_map(|b| block_json(b, header, &mut used))
        .collect();
    used.sort();
    used.dedup();
    (json!({"type": "doc", "content": content}), used)
}

fn holds(conds: &[Cond], answers: &BTreeMap<String, String>) -> bool {
    conds
        .iter()
        .all(|(q, vals)| answers.get(q).is_some_and(|a| vals.contains(a)))
}

fn keep<'a>(blocks: &'a [Block], answers: &BTreeMap<String, String>, out: &mut Vec<&'a Block>) {
    for b in blocks {
        match b {
            Block::When { conds, content } => {
                if holds(conds, answers) {
                    keep(content, answers, out);
                }
            }
            other => out.push(other),
        }
    }
}

/// Adjacent lists of one kind joined; a list's items keep their blocks.
fn merge_lists(kept: Vec<&Block>) -> Vec<Block> {
    let mut out: Vec<Block> = Vec::new();
    for b in kept {
        if let (
            Block::List { start, items },
            Some(Block::List {
                start: prev,
                items: prev_items,
            }),
        ) = (b, out.last_mut())
            && start.is_some() == prev.is_some()
        {
            prev_items.extend(items.iter().cloned());
            continue;
        }
        out.push(b.clone());
    }
    out
}

fn inline_json(content: &[Inline], used: &mut Vec<String>) -> Vec<Value> {
    content
        .iter()
        .map(|i| match i {
            Inline::Text { text, bold, italic } => {
                let mut marks = Vec::new();
                if *bold {
                    marks.push(json!({"type": "bold"}));
                }
                if *italic {
                    marks.push(json!({"type": "italic"}));
                }
                if marks.is_empty() {
                    json!({"type": "text", "text": text})
                } else {
                    json!({"type": "text", "text": text, "marks": marks})
                }
            }
            Inline::Chip(name) => {
                if let Some(q) = name.strip_prefix("custom.") {
                    used.push(q.to_string());
                }
                json!({"type": "variableChip", "attrs": {"name": name}})
            }
            Inline::Field(attrs) => json!({"type": "fieldTag", "attrs": attrs}),
            Inline::Break => json!({"type": "hardBreak"}),
        })
        .collect()
}

fn paragraph(content: &[Inline], used: &mut Vec<String>) -> Value {
    json!({"type": "paragraph", "content": inline_json(content, used)})
}

fn block_json(b: &Block, header: &Header, used: &mut Vec<String>) -> Vec<Value> {
    let one = match b {
        Block::Heading {
            level,
            sender_only,
            content,
        } => {
            let mut attrs = json!({"level": level});
            if *sender_only {
                attrs["audience"] = json!("sender");
            }
            json!({"type": "heading", "attrs": attrs, "content": inline_json(content, used)})
        }
        Block::Paragraph(c) => paragraph(c, used),
        Block::Quote(c) => json!({"type": "blockquote", "content": [paragraph(c, used)]}),
        Block::Rule => json!({"type": "horizontalRule"}),
        Block::List { start, items } => {
            let items: Vec<Value> = items
                .iter()
                .map(|blocks| {
                    let content: Vec<Value> = blocks
                        .iter()
                        .flat_map(|b| block_json(b, header, used))
                        .collect();
                    json!({"type": "listItem", "content": content})
                })
                .collect();
            match start {
                Some(n) => json!({"type": "orderedList", "attrs": {"start": n}, "content": items}),
                None => json!({"type": "bulletList", "content": items}),
            }
        }
        Block::Table { header: h, rows } => {
            let rows: Vec<Value> = rows
                .iter()
                .enumerate()
                .map(|(r, cells)| {
                    let kind = if *h && r == 0 {
                        "tableHeader"
                    } else {
                        "tableCell"
                    };
                    let cells: Vec<Value> = cells
                        .iter()
                        .map(|c| json!({"type": kind, "content": [paragraph(c, used)]}))
                        .collect();
                    json!({"type": "tableRow", "content": cells})
                })
                .collect();
            json!({"type": "table", "content": rows})
        }
        Block::Signature(role) => json!({"type": "signatureBlock", "attrs": {"role": role}}),
        Block::Signatures => {
            let mut seats: Vec<_> = header.seats.iter().enumerate().collect();
            seats.sort_by_key(|(i, s)| (s.order.unwrap_or(0), *i));
            return seats
                .into_iter()
                .map(|(_, s)| json!({"type": "signatureBlock", "attrs": {"role": s.role}}))
                .collect();
        }
        Block::When { .. } => return vec![],
    };
    vec![one]
}

/// Every `custom.<question>` chip and tag of the words, whatever the answers: what the dry
/// run names as used.
pub fn questions_used(blocks: &[Block], out: &mut Vec<String>) {
    for b in blocks {
        let inl: Vec<&Vec<Inline>> = match b {
            Block::Heading { content, .. } | Block::Paragraph(content) | Block::Quote(content) => {
                vec![content]
            }
            Block::Table { rows, .. } => rows.iter().flatten().collect(),
            Block::List { items, .. } => {
                for item in items {
                    questions_used(item, out);
                }
                vec![]
            }
            Block::When { content, .. } => {
                questions_used(content, out);
                vec![]
            }
            _ => vec![],
        };
        for c in inl.into_iter().flatten() {
            if let Inline::Chip(n) = c
                && let Some(q) = n.strip_prefix("custom.")
            {
                out.push(q.to_string());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header() -> Header {
        let file = "---
name: test-play
title: T
description: d
kind: document
category: general
language: en
seats:
  - role: client
    label: Client
  - role: us
    label: Us
    order: 2
questions:
  - id: term
    ask: Term?
    options:
      - value: one
        label: One year
      - value: two
        label: Two years
  - id: renew
    ask: Renew?
    when:
      term: two
    options:
      - value: 'yes'
        label: Yes
      - value: 'no'
        label: No
---
";
        crate::header::read(file).unwrap().0
    }

    fn text_of(v: &Value) -> String {
        match v {
            Value::Object(o) => {
                let mut s = o
                    .get("text")
                    .and_then(Value::as_str)
                    .unwrap_or("")
                    .to_string();
                if let Some(n) = o
                    .get("attrs")
                    .and_then(|a| a.get("name"))
                    .and_then(Value::as_str)
                {
                    s.push_str(&format!("[{n}]"));
                }
                if let Some(Value::Array(c)) = o.get("content") {
                    for x in c {
                        s.push_str(&text_of(x));
                    }
                    s.push('\n');
                }
                s
            }
            _ => String::new(),
        }
    }

    #[test]
    fn words_are_kept_for_matching_answers_and_lists_number_on() {
        let h = header();
        let words = "# Agreement\n\nBetween {{org.name}} and {{client.name}}.\n\n\
            1. The term is {{custom.term}}.\n\n::: when term = two\n1. It may renew.\n\n\
            ::: when renew = yes\n1. It renews once, for {{custom.renew}}.\n:::\n:::\n\
            1. **Law**: the *State's*.\n\n::: signatures\n";
        let (blocks, problems) = read(words, 30, &h);
        assert_eq!(problems, vec![]);
        let one: BTreeMap<_, _> = [("term".to_string(), "one".to_string())].into();
        let (doc, used) = assemble(&blocks, &h, &one);
        let t = text_of(&doc);
        assert!(t.contains("The term is [custom.term]."), "{t}");
        assert!(!t.contains("renew"), "{t}");
        assert_eq!(used, vec!["term"]);
        // Two items in one list numbered from 1.
        let list = &doc["content"][2];
        assert_eq!(list["type"], "orderedList");
        assert_eq!(list["content"].as_array().unwrap().len(), 2);
        let two: BTreeMap<_, _> = [
            ("term".to_string(), "two".to_string()),
            ("renew".to_string(), "yes".to_string()),
        ]
        .into();
        let (doc, used) = assemble(&blocks, &h, &two);
        assert_eq!(doc["content"][2]["content"].as_array().unwrap().len(), 4);
        assert_eq!(used, vec!["renew", "term"]);
        let last = doc["content"].as_array().unwrap();
        // Signature blocks in signing order: client (no order) before us (2).
        assert_eq!(last[last.len() - 2]["attrs"]["role"], "client");
        assert_eq!(last[last.len() - 1]["attrs"]["role"], "us");
        let bold = &doc["content"][2]["content"][3]["content"][0]["content"][0];
        assert_eq!(bold["marks"][0]["type"], "bold");
    }

    #[test]
    fn every_mistake_is_named_with_its_line_and_column() {
        let h = header();
        let words = "Hello <script>x</script>\n\n![logo](https://evil.example/x.png)\n\n\
            See [here](https://x.example).\n\n```\ncode\n```\n\n::: when term = three\nx\n\n\
            {{weather.today}} {{custom.renew}} {{Sign;type=signature;role=boss}}\n\n\
            #### Deep\n\n::: include other.md\n\nPay {{Fee;type=payment;amount=10}}\n\n\
            Evil \u{202e}txt\n";
        let (_, problems) = read(words, 10, &h);
        let at: Vec<(usize, usize)> = problems.iter().map(|p| (p.line, p.column)).collect();
        let msgs: Vec<&str> = problems.iter().map(|p| p.message.as_str()).collect();
        assert!(at.contains(&(10, 7)), "{at:?} {msgs:?}");
        assert!(msgs.iter().any(|m| m.contains("pictures")), "{msgs:?}");
        assert!(msgs.iter().any(|m| m.contains("links")), "{msgs:?}");
        assert!(msgs.iter().any(|m| m.contains("code blocks")), "{msgs:?}");
        assert!(
            msgs.iter().any(|m| m.contains("'three' is not an option")),
            "{msgs:?}"
        );
        assert!(msgs.iter().any(|m| m.contains("weather.today")), "{msgs:?}");
        assert!(
            msgs.iter().any(|m| m.contains("asked only when")),
            "{msgs:?}"
        );
        assert!(msgs.iter().any(|m| m.contains("'boss'")), "{msgs:?}");
        assert!(msgs.iter().any(|m| m.contains("three levels")), "{msgs:?}");
        assert!(msgs.iter().any(|m| m.contains("::: include")), "{msgs:?}");
        assert!(msgs.iter().any(|m| m.contains("payments")), "{msgs:?}");
        assert!(msgs.iter().any(|m| m.contains("U+202E")), "{msgs:?}");
        assert!(msgs.iter().any(|m| m.contains("never closed")), "{msgs:?}");
        assert!(
            problems
                .iter()
                .all(|p| p.key == "body" && !p.hint.is_empty())
        );
    }

    #[test]
    fn tables_tags_and_sender_only_headings_become_the_source_model() {
        let h = header();
        let words = "## Notes {sender-only}\n\nPrivate.\n\n| Item | Price |\n|---|---:|\n\
            | Chairs \\| tables | {{Price;type=number;role=us}} |\n\n> Quoted\n> on\n\n---\n";
        let (blocks, problems) = read(words, 1, &h);
        assert_eq!(problems, vec![]);
        let (doc, _) = assemble(&blocks, &h, &BTreeMap::new());
        let c = doc["content"].as_array().unwrap();
        assert_eq!(c[0]["attrs"]["audience"], "sender");
        assert_eq!(c[2]["content"][0]["content"][0]["type"], "tableHeader");
        let cell = &c[2]["content"][1]["content"];
        assert_eq!(
            cell[0]["content"][0]["content"][0]["text"],
            "Chairs | tables"
        );
        assert_eq!(cell[1]["content"][0]["content"][0]["attrs"]["role"], "us");
        assert_eq!(c[3]["content"][0]["content"][0]["text"], "Quoted on");
        assert_eq!(c[4]["type"], "horizontalRule");
        // The words pass the source model's own reading.
        signet_source::parse("source", &doc).unwrap();
    }

    #[test]
    fn blocks_nest_three_deep_at_most() {
        let h = header();
        let words = "::: when term = two\n::: when term = two\n::: when term = two\n\
            ::: when term = two\nx\n:::\n:::\n:::\n:::\n";
        let (_, problems) = read(words, 1, &h);
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert_eq!(problems[0].line, 4);
    }
}
