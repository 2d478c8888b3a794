//! A play file's header: the YAML block between the first two `---` lines, read as data only.
//!
//! The file is measured first (at most [`MAX_FILE_BYTES`], lines at most [`MAX_LINE`]); the
//! YAML is read as a stream of events and refused at the first anchor, alias or tag (what
//! YAML bombs and type tricks are made of), or past [`MAX_DEPTH`] levels or [`MAX_NODES`]
//! values, so a hostile file costs no more than its own size. The values are then checked
//! against the allow-list of keys, and every problem is reported at once, each with the key,
//! its line and column, what is wrong and how to mend it.

use yaml_rust2::parser::{Event, Parser};
use yaml_rust2::scanner::Marker;

pub const MAX_FILE_BYTES: usize = 256 * 1024;
pub const MAX_LINE: usize = 2_000;
pub const MAX_DEPTH: usize = 8;
pub const MAX_NODES: usize = 5_000;
pub const MAX_SEATS: usize = 20;
pub const MAX_QUESTIONS: usize = 40;

/// One thing wrong with a play file, where it is and how to mend it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// The key (`questions[2].options`), or `file` for the file as a whole.
    pub key: String,
    /// 1-based.
    pub line: usize,
    /// 1-based.
    pub column: usize,
    pub message: String,
    pub hint: String,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seat {
    pub role: String,
    pub label: String,
    pub order: Option<u32>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Choice {
    pub value: String,
    pub label: String,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Question {
    pub id: String,
    pub ask: String,
    pub options: Vec<Choice>,
    pub default: Option<String>,
    /// Earlier questions' ids and the values any one of which must have been answered.
    pub when: Vec<(String, Vec<String>)>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    pub name: String,
    pub title: String,
    pub description: String,
    /// `document` or `template`.
    pub kind: String,
    pub category: String,
    pub language: String,
    pub seats: Vec<Seat>,
    pub questions: Vec<Question>,
    pub guidance: Option<String>,
}

/// Where a value begins in the file: 1-based line and column.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Pos {
    line: usize,
    column: usize,
}

/// A value read from the YAML, with where it began.
#[derive(Clone, Debug)]
enum Node {
    Scalar(String, Pos),
    Seq(Vec<Node>, Pos),
    Map(Vec<(String, Pos, Node)>, Pos),
}

impl Node {
    fn at(&self) -> Pos {
        match self {
            Node::Scalar(_, p) | Node::Seq(_, p) | Node::Map(_, p) => *p,
        }
    }
}

fn problem(key: &str, at: Pos, message: impl Into<String>, hint: impl Into<String>) -> Problem {
    Problem {
        key: key.to_string(),
        line: at.line,
        column: at.column,
        message: message.into(),
        hint: hint.into(),
    }
}

fn whole(line: usize, message: impl Into<String>, hint: impl Into<String>) -> Problem {
    Problem {
        key: "file".into(),
        line,
        column: 1,
        message: message.into(),
        hint: hint.into(),
    }
}

/// The header's YAML, the line the words begin on (1-based) and the words, or why the file
/// cannot be read at all.
pub fn split(file: &str) -> Result<(&str, usize, &str), Problem> {
    if file.len() > MAX_FILE_BYTES {
        return Err(whole(
            1,
            format!(
                "the file is {} bytes; a play is at most {MAX_FILE_BYTES}",
                file.len()
            ),
            "split the play, or move long passages out of it",
        ));
    }
    if let Some((i, _)) = file
        .lines()
        .enumerate()
        .find(|(_, l)| l.chars().count() > MAX_LINE)
    {
        return Err(whole(
            i + 1,
            format!("a line is longer than {MAX_LINE} characters"),
            "break the line (a blank line starts a new paragraph)",
        ));
    }
    let file = file.strip_prefix('\u{feff}').unwrap_or(file);
    let mut lines = file.split_inclusive('\n');
    if lines.next().map(str::trim_end) != Some("---") {
        return Err(whole(
            1,
            "a play begins with a line of three dashes (---) and its header",
            "start the file with ---, the header's keys, then --- again before the words",
        ));
    }
    let start = file.find('\n').map_or(file.len(), |i| i + 1);
    let mut at = start;
    for (n, l) in lines.enumerate() {
        if l.trim_end() == "---" {
            let body_at = at + l.len();
            return Ok((&file[start..at], n + 3, &file[body_at..]));
        }
        at += l.len();
    }
    Err(whole(
        1,
        "the header never ends: no second line of three dashes (---)",
        "put --- on its own line after the header's last key",
    ))
}

/// Reads the YAML into nodes, refusing anchors, aliases, tags, more than one document, depth
/// past [`MAX_DEPTH`] and more than [`MAX_NODES`] values. `first_line` is the file's line the
/// YAML starts on.
fn nodes(yaml: &str, first_line: usize) -> Result<Node, Problem> {
    let pos = |m: &Marker| Pos {
        line: m.line() + first_line - 1,
        column: m.col() + 1,
    };
    const ANCHOR: &str = "the header uses an anchor (&name) or a tag (!name)";
    const PLAIN: &str = "write plain values: a play's header takes no anchors, aliases or tags";
    let mut parser = Parser::new_from_str(yaml);
    let mut stack: Vec<(Node, Option<(String, Pos)>)> = Vec::new();
    let mut root: Option<Node> = None;
    let mut count = 0usize;
    let mut documents = 0usize;
    loop {
        let (event, mark) = parser.next_token().map_err(|e| {
            problem(
                "file",
                pos(e.marker()),
                format!("the header is not valid YAML: {}", e.info()),
                "check the indentation and the colons around this place",
            )
        })?;
        let at = pos(&mark);
        let value = match event {
            Event::StreamStart | Event::Nothing | Event::DocumentEnd => continue,
            Event::StreamEnd => break,
            Event::DocumentStart => {
                documents += 1;
                if documents > 1 {
                    return Err(problem(
                        "file",
                        at,
                        "the header holds more than one YAML document",
                        "keep one header between the two --- lines",
                    ));
                }
                continue;
            }
            Event::Alias(_) => {
                return Err(problem(
                    "file",
                    at,
                    "the header uses an alias (*name)",
                    PLAIN,
                ));
            }
            Event::Scalar(text, _, anchor, tag) => {
                if anchor != 0 || tag.is_some() {
                    return Err(problem("file", at, ANCHOR, PLAIN));
                }
                Node::Scalar(text, at)
            }
            Event::SequenceStart(anchor, tag) | Event::MappingStart(anchor, tag)
                if anchor != 0 || tag.is_some() =>
            {
                return Err(problem("file", at, ANCHOR, PLAIN));
            }
            Event::SequenceStart(..) | Event::MappingStart(..) if stack.len() >= MAX_DEPTH => {
                return Err(problem(
                    "file",
                    at,
                    format!("the header nests more than {MAX_DEPTH} levels deep"),
                    "a play's header needs three levels at most",
                ));
            }
            Event::SequenceStart(..) => {
                stack.push((Node::Seq(Vec::new(), at), None));
                continue;
            }
            Event::MappingStart(..) => {
                stack.push((Node::Map(Vec::new(), at), None));
                continue;
            }
            Event::SequenceEnd | Event::MappingEnd => {
                let Some((node, _)) = stack.pop() else {
                    continue;
                };
                node
            }
        };
        count += 1;
        if count > MAX_NODES {
            return Err(problem(
                "file",
                at,
                format!("the header holds more than {MAX_NODES} values"),
                "a play's header is short: its seats and questions",
            ));
        }
        match stack.last_mut() {
            None => root = Some(value),
            Some((Node::Seq(items, _), _)) => items.push(value),
            Some((Node::Map(entries, _), pending)) => match pending.take() {
                None => match value {
                    Node::Scalar(k, p) => *pending = Some((k, p)),
                    other => {
                        return Err(problem(
                            "file",
                            other.at(),
                            "a key must be a plain word",
                            "write keys as plain words followed by a colon",
                        ));
                    }
                },
                Some((k, p)) => entries.push((k, p, value)),
            },
            Some((Node::Scalar(..), _)) => {}
        }
    }
    root.ok_or_else(|| {
        whole(
            first_line,
            "the header is empty",
            "write the play's name, title and seats between the --- lines",
        )
    })
}

const KEYS: [&str; 10] = [
    "name",
    "title",
    "description",
    "kind",
    "category",
    "language",
    "seats",
    "questions",
    "guidance",
    "version",
];

/// Collects every problem of a header while reading it.
#[derive(Default)]
struct Check {
    problems: Vec<Problem>,
}

/// A name: 2 to `max` lower-case letters, digits, `-` and `_`, starting with a letter.
pub fn is_slug(s: &str, max: usize) -> bool {
    (2..=max).contains(&s.len())
        && s.bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' || b == b'_')
        && s.as_bytes()[0].is_ascii_lowercase()
}

impl Check {
    fn fail(&mut self, key: &str, at: Pos, message: impl Into<String>, hint: impl Into<String>) {
        self.problems.push(problem(key, at, message, hint));
    }

    /// A one-line text of 1 to `max` characters with nothing that controls or disguises text.
    fn line(&mut self, key: &str, node: Option<&Node>, at: Pos, max: usize) -> String {
        match node {
            None => {
                self.fail(
                    key,
                    at,
                    format!("{key} is missing"),
                    format!("add `{key}:` to the header"),
                );
                String::new()
            }
            Some(Node::Scalar(s, p)) => {
                let t = s.trim();
                if t.is_empty() || t.chars().count() > max {
                    self.fail(
                        key,
                        *p,
                        format!("{key} must be 1 to {max} characters"),
                        "shorten it, or write it",
                    );
                } else if t
                    .chars()
                    .any(|c| c.is_control() || signet_core::fields::is_disguising(c))
                {
                    self.fail(
                        key,
                        *p,
                        format!("{key} holds a control character or a text-direction override"),
                        "write it as plain text",
                    );
                }
                t.to_string()
            }
            Some(other) => {
                self.fail(
                    key,
                    other.at(),
                    format!("{key} must be a single line of text"),
                    format!("write `{key}: …` on one line"),
                );
                String::new()
            }
        }
    }

    fn slug(&mut self, key: &str, node: Option<&Node>, at: Pos, max: usize) -> String {
        let s = self.line(key, node, at, max);
        if !s.is_empty() && !is_slug(&s, max) {
            let p = node.map_or(at, Node::at);
            self.fail(
                key,
                p,
                format!("{key} '{s}' is not a slug"),
                "use lower-case letters, digits, - and _, starting with a letter",
            );
        }
        s
    }

    /// An option's value: 1 to 40 lower-case letters, digits, `-` and `_` (`12m`, `yes`).
    fn value(&mut self, key: &str, node: Option<&Node>, at: Pos) -> String {
        let s = self.line(key, node, at, 40);
        if !s.is_empty()
            && !s
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' || b == b'_')
        {
            let p = node.map_or(at, Node::at);
            self.fail(
                key,
                p,
                format!("{key} '{s}' is not a value"),
                "use lower-case letters, digits, - and _ (quote yes and no: 'yes')",
            );
        }
        s
    }

    fn one_of(&mut self, key: &str, node: Option<&Node>, at: Pos, allowed: &[&str]) -> String {
        let s = self.line(key, node, at, 40);
        if !s.is_empty() && !allowed.contains(&s.as_str()) {
            let p = node.map_or(at, Node::at);
            self.fail(
                key,
                p,
                format!("{key} '{s}' is not one of {}", allowed.join(", ")),
                format!("write one of {}", allowed.join(", ")),
            );
        }
        s
    }
}

fn get<'a>(entries: &'a [(String, Pos, Node)], key: &str) -> Option<&'a Node> {
    entries.iter().find(|(k, _, _)| k == key).map(|(_, _, n)| n)
}

fn map_of<'a>(check: &mut Check, key: &str, node: &'a Node) -> Option<&'a [(String, Pos, Node)]> {
    match node {
        Node::Map(entries, _) => Some(entries),
        other => {
            check.fail(
                key,
                other.at(),
                format!("{key} must be a set of keys"),
                "write each key on its own line, indented",
            );
            None
        }
    }
}

fn unknown(check: &mut Check, prefix: &str, entries: &[(String, Pos, Node)], known: &[&str]) {
    let mut seen: Vec<&str> = Vec::new();
    for (k, p, _) in entries {
        let key = if prefix.is_empty() {
            k.clone()
        } else {
            format!("{prefix}.{k}")
        };
        if !known.contains(&k.as_str()) {
            check.fail(
                &key,
                *p,
                format!("'{k}' is not a key a play takes here"),
                format!("the keys here are {}", known.join(", ")),
            );
        } else if seen.contains(&k.as_str()) {
            check.fail(&key, *p, format!("'{k}' is written twice"), "keep one");
        }
        seen.push(k);
    }
}

fn seats(check: &mut Check, node: Option<&Node>, at: Pos) -> Vec<Seat> {
    let Some(node) = node else {
        check.fail(
            "seats",
            at,
            "seats is missing",
            "list who signs: `seats:` then `- role: tenant` and `label: Tenant`",
        );
        return Vec::new();
    };
    let Node::Seq(items, p) = node else {
        check.fail(
            "seats",
            node.at(),
            "seats must be a list",
            "write each seat as `- role: …`",
        );
        return Vec::new();
    };
    if items.is_empty() || items.len() > MAX_SEATS {
        check.fail(
            "seats",
            *p,
            format!("a play has 1 to {MAX_SEATS} seats"),
            "list the people who sign",
        );
    }
    let mut out: Vec<Seat> = Vec::new();
    for (i, item) in items.iter().take(MAX_SEATS).enumerate() {
        let key = format!("seats[{i}]");
        let Some(e) = map_of(check, &key, item) else {
            continue;
        };
        unknown(check, &key, e, &["role", "label", "order"]);
        let role = check.slug(&format!("{key}.role"), get(e, "role"), item.at(), 40);
        let label = check.line(&format!("{key}.label"), get(e, "label"), item.at(), 80);
        let order = match get(e, "order") {
            None => None,
            Some(Node::Scalar(s, p)) => match s.trim().parse::<u32>() {
                Ok(n) if (1..=100).contains(&n) => Some(n),
                _ => {
                    check.fail(
                        &format!("{key}.order"),
                        *p,
                        "order must be a whole number from 1 to 100",
                        "people sign in turn by order, 1 first",
                    );
                    None
                }
            },
            Some(other) => {
                check.fail(
                    &format!("{key}.order"),
                    other.at(),
                    "order must be a whole number",
                    "write `order: 1`",
                );
                None
            }
        };
        if !role.is_empty() && out.iter().any(|s| s.role == role) {
            check.fail(
                &format!("{key}.role"),
                item.at(),
                format!("the seat '{role}' is listed twice"),
                "give each seat its own role word",
            );
        }
        out.push(Seat { role, label, order });
    }
    out
}

fn questions(check: &mut Check, node: Option<&Node>) -> Vec<Question> {
    let Some(node) = node else { return Vec::new() };
    let Node::Seq(items, p) = node else {
        check.fail(
            "questions",
            node.at(),
            "questions must be a list",
            "write each question as `- id: …`",
        );
        return Vec::new();
    };
    if items.len() > MAX_QUESTIONS {
        check.fail(
            "questions",
            *p,
            format!("a play asks at most {MAX_QUESTIONS} questions"),
            "ask fewer, or split the play",
        );
    }
    let mut out: Vec<Question> = Vec::new();
    for (i, item) in items.iter().take(MAX_QUESTIONS).enumerate() {
        let key = format!("questions[{i}]");
        let Some(e) = map_of(check, &key, item) else {
            continue;
        };
        unknown(check, &key, e, &["id", "ask", "options", "default", "when"]);
        let id = check.slug(&format!("{key}.id"), get(e, "id"), item.at(), 40);
        if !id.is_empty() && out.iter().any(|q| q.id == id) {
            check.fail(
                &format!("{key}.id"),
                item.at(),
                format!("the question '{id}' is asked twice"),
                "give each question its own id",
            );
        }
        let ask = check.line(&format!("{key}.ask"), get(e, "ask"), item.at(), 200);
        let mut options: Vec<Choice> = Vec::new();
        match get(e, "options") {
            Some(Node::Seq(opts, p)) => {
                if !(2..=4).contains(&opts.len()) {
                    check.fail(
                        &format!("{key}.options"),
                        *p,
                        "a question has 2 to 4 options",
                        "offer two, three or four answers",
                    );
                }
                for (j, o) in opts.iter().take(4).enumerate() {
                    let okey = format!("{key}.options[{j}]");
                    let Some(oe) = map_of(check, &okey, o) else {
                        continue;
                    };
                    unknown(check, &okey, oe, &["value", "label"]);
                    let value = check.value(&format!("{okey}.value"), get(oe, "value"), o.at());
                    let label = check.line(&format!("{okey}.label"), get(oe, "label"), o.at(), 80);
                    if !value.is_empty() && options.iter().any(|c| c.value == value) {
                        check.fail(
                            &format!("{okey}.value"),
                            o.at(),
                            format!("the option '{value}' is offered twice"),
                            "give each option its own value",
                        );
                    }
                    options.push(Choice { value, label });
                }
            }
            Some(other) => check.fail(
                &format!("{key}.options"),
                other.at(),
                "options must be a list",
                "write each option as `- value: …` with its `label`",
            ),
            None => check.fail(
                &format!("{key}.options"),
                item.at(),
                "the question has no options",
                "offer 2 to 4 answers under `options:`",
            ),
        }
        let default = match get(e, "default") {
            None => None,
            Some(n) => {
                let d = check.line(&format!("{key}.default"), Some(n), n.at(), 40);
                if !d.is_empty() && !options.iter().any(|c| c.value == d) {
                    check.fail(
                        &format!("{key}.default"),
                        n.at(),
                        format!("the default '{d}' is not one of the options"),
                        "name one of this question's values",
                    );
                }
                Some(d)
            }
        };
        let mut when: Vec<(String, Vec<String>)> = Vec::new();
        if let Some(n) = get(e, "when")
            && let Some(conds) = map_of(check, &format!("{key}.when"), n)
        {
            for (qid, p, v) in conds {
                let wkey = format!("{key}.when.{qid}");
                let Some(earlier) = out.iter().find(|q| q.id == *qid) else {
                    check.fail(
                        &wkey,
                        *p,
                        format!("'{qid}' is not a question asked before this one"),
                        "a condition names an earlier question's id",
                    );
                    continue;
                };
                let values: Vec<String> = match v {
                    Node::Scalar(s, _) => vec![s.trim().to_string()],
                    Node::Seq(vs, _) => vs
                        .iter()
                        .map(|x| match x {
                            Node::Scalar(s, _) => s.trim().to_string(),
                            _ => String::new(),
                        })
                        .collect(),
                    Node::Map(..) => vec![String::new()],
                };
                for val in &values {
                    if !earlier.options.iter().any(|c| c.value == *val) {
                        check.fail(
                            &wkey,
                            v.at(),
                            format!("'{val}' is not one of {qid}'s values"),
                            "name values the earlier question offers",
                        );
                    }
                }
                when.push((qid.clone(), values));
            }
        }
        out.push(Question {
            id,
            ask,
            options,
            default,
            when,
        });
    }
    out
}

/// Reads a play file's header: the header, the line its words begin on, and the words; or
/// every problem found, in the file's order.
pub fn read(file: &str) -> Result<(Header, usize, &str), Vec<Problem>> {
    match read_all(file)? {
        (h, line, body, problems) if problems.is_empty() => Ok((h, line, body)),
        (_, _, _, problems) => Err(problems),
    }
}

/// What is read of a header even when it has problems: the header as far as it could be read
/// (what is wrong left empty), the line its words begin on, the words, and the problems in
/// the file's order; `Err` only when the file cannot be read as a play at all. The dry run
/// reads the words too, so that it reports every problem at once.
pub fn read_all(file: &str) -> Result<(Header, usize, &str, Vec<Problem>), Vec<Problem>> {
    let (yaml, body_line, body) = split(file).map_err(|p| vec![p])?;
    let root = nodes(yaml, 2).map_err(|p| vec![p])?;
    let mut check = Check::default();
    let top = Pos { line: 2, column: 1 };
    let Some(e) = map_of(&mut check, "file", &root) else {
        return Err(check.problems);
    };
    unknown(&mut check, "", e, &KEYS);
    if let Some(v) = get(e, "version") {
        check.fail(
            "version",
            v.at(),
            "a play's version is not written in the file",
            "remove it: every save is the next version",
        );
    }
    let header = Header {
        name: check.slug("name", get(e, "name"), top, 64),
        title: check.line("title", get(e, "title"), top, 120),
        description: check.line("description", get(e, "description"), top, 200),
        kind: check.one_of("kind", get(e, "kind"), top, &["document", "template"]),
        category: check.slug("category", get(e, "category"), top, 40),
        language: check.one_of(
            "language",
            get(e, "language"),
            top,
            signet_core::languages::LANGUAGES,
        ),
        seats: seats(&mut check, get(e, "seats"), top),
        questions: questions(&mut check, get(e, "questions")),
        guidance: match get(e, "guidance") {
            None => None,
            Some(Node::Scalar(s, p)) if s.chars().count() > 4_000 => {
                check.fail(
                    "guidance",
                    *p,
                    "guidance is at most 4,000 characters",
                    "keep the guidance short",
                );
                None
            }
            Some(Node::Scalar(s, _)) => Some(s.trim().to_string()),
            Some(other) => {
                check.fail(
                    "guidance",
                    other.at(),
                    "guidance must be text",
                    "write `guidance: |` and the text indented below",
                );
                None
            }
        },
    };
    check.problems.sort_by_key(|p| (p.line, p.column));
    Ok((header, body_line, body, check.problems))
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = "---
name: mutual-nda
title: Mutual non-disclosure agreement
description: Both sides keep each other's secrets.
kind: document
category: confidentiality
language: en
seats:
  - role: first
    label: First party
    order: 1
  - role: second
    label: Second party
questions:
  - id: term
    ask: How long do the secrets stay secret?
    options:
      - value: two-years
        label: Two years
      - value: forever
        label: For as long as they are secret
    default: two-years
  - id: renew
    ask: Does the agreement renew?
    when:
      term: two-years
    options:
      - value: 'yes'
        label: Yes, once
      - value: 'no'
        label: No
---
# Mutual non-disclosure agreement

The parties agree.
";

    #[test]
    fn a_good_header_is_read_with_where_its_words_begin() {
        let (h, line, body) = read(GOOD).unwrap();
        assert_eq!(h.name, "mutual-nda");
        assert_eq!(h.seats.len(), 2);
        assert_eq!(h.seats[0].order, Some(1));
        assert_eq!(
            h.questions[1].when,
            vec![("term".to_string(), vec!["two-years".to_string()])]
        );
        assert_eq!(h.questions[0].default.as_deref(), Some("two-years"));
        assert_eq!(line, 33);
        assert!(body.starts_with("# Mutual non-disclosure agreement"));
    }

    #[test]
    fn every_mistake_is_named_with_its_line_at_once() {
        let bad = GOOD
            .replace("kind: document", "kind: contract")
            .replace("language: en", "language: xx\ncolour: blue")
            .replace(
                "        label: Two years\n",
                "        label: Two years\n      - value: two-years\n        label: Again\n",
            )
            .replace("      term: two-years", "      term: ten-years");
        let problems = read(&bad).unwrap_err();
        let seen: Vec<(&str, usize)> = problems.iter().map(|p| (p.key.as_str(), p.line)).collect();
        assert_eq!(
            seen,
            [
                ("kind", 5),
                ("language", 7),
                ("colour", 8),
                ("questions[0].options[1].value", 21),
                ("questions[1].when.term", 29),
            ],
            "{problems:#?}"
        );
        assert!(problems.iter().all(|p| !p.hint.is_empty()));
    }

    #[test]
    fn anchors_aliases_tags_and_depth_are_refused_before_any_work() {
        // A billion laughs: each line ten times the one before.
        let mut bomb = String::from(
            "---\na: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n",
        );
        for i in 0..9 {
            let prev = (b'a' + i) as char;
            let next = (b'a' + i + 1) as char;
            bomb.push_str(&format!(
                "{next}: &{next} [{}]\n",
                vec![format!("*{prev}"); 9].join(",")
            ));
        }
        bomb.push_str("---\n");
        let started = std::time::Instant::now();
        let p = read(&bomb).unwrap_err();
        assert!(started.elapsed() < std::time::Duration::from_millis(50));
        assert!(
            p[0].message.contains("anchor") || p[0].message.contains("alias"),
            "{p:?}"
        );
        assert_eq!(p[0].line, 2);

        let tagged = "---\nname: !!binary aGVsbG8=\n---\n";
        assert!(read(tagged).unwrap_err()[0].message.contains("tag"));

        let deep = format!("---\nname: {}x{}\n---\n", "[".repeat(20), "]".repeat(20));
        assert!(
            read(&deep).unwrap_err()[0]
                .message
                .contains("nests more than 8")
        );

        let two = "---\nname: a\n--- \n";
        assert!(read(two).is_err());
    }

    #[test]
    fn the_file_is_measured_before_it_is_read() {
        let big = format!("---\nname: x\n---\n{}", "a".repeat(MAX_FILE_BYTES));
        assert!(read(&big).unwrap_err()[0].message.contains("bytes"));
        let long = format!("---\ntitle: {}\n---\n", "a".repeat(MAX_LINE + 1));
        let p = read(&long).unwrap_err();
        assert_eq!((p[0].key.as_str(), p[0].line), ("file", 2));
        assert!(
            read("# No header\n").unwrap_err()[0]
                .message
                .contains("three dashes")
        );
        assert!(
            read("---\nname: x\n").unwrap_err()[0]
                .message
                .contains("never ends")
        );
    }

    #[test]
    fn a_title_may_not_disguise_itself() {
        let p = read(&GOOD.replace("title: Mutual", "title: \u{202e}Mutual")).unwrap_err();
        assert_eq!(p[0].key, "title");
        assert!(p[0].message.contains("text-direction"));
    }
}
