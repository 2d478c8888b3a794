//! HTML to the source model. The page is parsed as a browser would (html5ever), then walked
//! with an allow-list: each element we know becomes its node of the source model (headings,
//! paragraphs, emphasis, links, lists, tables with spans, pictures, rules, quotes,
//! preformatted text), the text of elements we do not know is kept as text, and everything
//! that could run, style, fetch or submit is dropped with its content. No attribute is carried
//! over but the few a node needs (`href`, `src`, `colspan`, `rowspan`, `start`, `width`,
//! `alt`), so nothing of the page can reach Typst but words and checked pictures. The answer's
//! warnings say what was dropped.
//!
//! Text tags (`{{Label;type=signature;role=client}}`) are found in each paragraph's text as a
//! reader sees it, so a tag split across elements (`{{Sig<b>nature</b>;type=…}}`) is read
//! whole; each becomes a `fieldTag` where it is written.

use std::collections::BTreeMap;

use ego_tree::NodeRef;
use scraper::{Html, Node};
use serde_json::{Value, json};

use crate::fields::{Written, field_attrs};

mod blocks;
mod paragraphs;

/// The largest HTML taken, in bytes (the spec's "up to 2 MB").
pub const MAX_HTML: usize = 2 * 1024 * 1024;
/// Elements open at once, counted before parsing: a parser checks its open elements at each
/// tag, so a page of hundreds of thousands of nested elements would cost it their square.
const MAX_OPEN: usize = 2_000;
/// Lists, tables and quotes nest at most this deep; deeper ones are read as paragraphs.
const MAX_NESTING: usize = 12;
/// Elements are walked at most this deep; text below is kept, its structure is not.
const MAX_DEPTH: usize = 128;

/// A page turned into the source model.
#[derive(Debug)]
pub struct Converted {
    /// `{"type": "doc", "content": [...]}`, as `POST /templates/source` takes it.
    pub source: Value,
    /// What was dropped, each said once with how many times.
    pub warnings: Vec<String>,
}

/// Why a page cannot be a template: a tag that cannot be read, or two that conflict.
#[derive(Debug, PartialEq)]
pub struct HtmlError(pub String);

impl std::fmt::Display for HtmlError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// What is dropped, and how it is named in a warning.
fn dropped_kind(name: &str) -> Option<&'static str> {
    Some(match name {
        "script" | "noscript" => "scripts",
        "style" | "link" => "style sheets",
        "iframe" | "frame" | "frameset" | "object" | "embed" | "applet" | "portal" => {
            "frames and embedded objects"
        }
        "input" | "select" | "textarea" | "button" | "option" | "datalist" | "optgroup"
        | "output" | "fieldset" | "legend" => "form controls",
        "video" | "audio" | "source" | "track" | "canvas" | "picture" => {
            "videos, sounds and canvases"
        }
        "svg" | "math" => "SVG and MathML drawings",
        "template" | "slot" | "dialog" | "title" | "meta" | "base" | "map" | "area" => {
            return Some("");
        }
        _ => return None,
    })
}

#[derive(Clone, Default, PartialEq)]
struct Marks {
    bold: bool,
    italic: bool,
    underline: bool,
    strike: bool,
    link: Option<String>,
}

impl Marks {
    fn json(&self) -> Option<Value> {
        let mut m = Vec::new();
        if self.bold {
            m.push(json!({"type": "bold"}));
        }
        if self.italic {
            m.push(json!({"type": "italic"}));
        }
        if self.underline {
            m.push(json!({"type": "underline"}));
        }
        if self.strike {
            m.push(json!({"type": "strike"}));
        }
        if let Some(h) = &self.link {
            m.push(json!({"type": "link", "attrs": {"href": h}}));
        }
        (!m.is_empty()).then_some(Value::Array(m))
    }
}

/// A piece of a paragraph before its tags are found.
enum Piece {
    Text(String, Marks),
    Break,
}

struct Walker {
    warnings: BTreeMap<String, usize>,
    /// The tags in reading order; a `fieldTag` node holds `{"tag": n}` until `finish`.
    tags: Vec<Written>,
    blocks_seen: usize,
    error: Option<HtmlError>,
}

/// A run of blocks being written: its finished blocks and the paragraph being gathered.
struct Flow {
    blocks: Vec<Value>,
    pieces: Vec<Piece>,
    /// A heading's level while its words are gathered.
    heading: Option<u8>,
    /// The `textAlign` of the paragraphs being written, from the nearest element that set one.
    align: Option<&'static str>,
}

impl Flow {
    fn new() -> Flow {
        Flow {
            blocks: Vec::new(),
            pieces: Vec::new(),
            heading: None,
            align: None,
        }
    }
}

/// Turns `html` into the source model.
pub fn convert(html: &str) -> Result<Converted, HtmlError> {
    if html.len() > MAX_HTML {
        return Err(HtmlError(format!(
            "the HTML is {} bytes; at most {MAX_HTML} are taken",
            html.len()
        )));
    }
    if let Some(depth) = too_deep(html) {
        return Err(HtmlError(format!(
            "the HTML nests elements {depth} deep; at most {MAX_OPEN} are taken"
        )));
    }
    let page = Html::parse_document(html);
    let mut w = Walker {
        warnings: BTreeMap::new(),
        tags: Vec::new(),
        blocks_seen: 0,
        error: None,
    };
    let mut flow = Flow::new();
    let root = page.tree.root();
    w.children(root, &mut flow, Marks::default(), 0, 0);
    w.flush(&mut flow);
    if let Some(e) = w.error {
        return Err(e);
    }
    let mut content = flow.blocks;
    let names = field_attrs(&w.tags).map_err(HtmlError)?;
    for b in &mut content {
        name_fields(b, &names);
    }
    let mut warnings: Vec<String> = w
        .warnings
        .into_iter()
        .map(|(k, n)| if n > 1 { format!("{k} ({n})") } else { k })
        .collect();
    warnings.sort();
    Ok(Converted {
        source: json!({"type": "doc", "content": content}),
        warnings,
    })
}

impl Walker {
    fn warn(&mut self, what: impl Into<String>) {
        *self.warnings.entry(what.into()).or_default() += 1;
    }

    fn children(
        &mut self,
        node: NodeRef<'_, Node>,
        flow: &mut Flow,
        marks: Marks,
        nest: usize,
        depth: usize,
    ) {
        for child in node.children() {
            self.node(child, flow, &marks, nest, depth + 1);
        }
    }

    fn node(
        &mut self,
        node: NodeRef<'_, Node>,
        flow: &mut Flow,
        marks: &Marks,
        nest: usize,
        depth: usize,
    ) {
        if self.error.is_some() {
            return;
        }
        match node.value() {
            Node::Text(t) => self.text(flow, t, marks),
            Node::Element(e) => {
                let name = e.name();
                if depth > MAX_DEPTH {
                    self.flat_text(node, flow, marks);
                    return;
                }
                if e.attr("style").is_some() {
                    self.warn("style attributes removed");
                }
                if name == "head" {
                    // Nothing of the head is shown; what it would have loaded or run is said.
                    for d in node.descendants() {
                        if let Some(kind) =
                            d.value().as_element().and_then(|e| dropped_kind(e.name()))
                            && !kind.is_empty()
                        {
                            self.warn(format!("{kind} removed"));
                        }
                    }
                    return;
                }
                if let Some(kind) = dropped_kind(name) {
                    if !kind.is_empty() {
                        self.warn(format!("{kind} removed"));
                    }
                    return;
                }
                self.element(node, e, flow, marks, nest, depth);
            }
            Node::Document | Node::Fragment => {
                self.children(node, flow, marks.clone(), nest, depth)
            }
            _ => {}
        }
    }

    /// Past `MAX_DEPTH` only words are kept, gathered without recursion.
    fn flat_text(&mut self, node: NodeRef<'_, Node>, flow: &mut Flow, marks: &Marks) {
        let mut stack = vec![node];
        while let Some(n) = stack.pop() {
            match n.value() {
                Node::Text(t) => self.text(flow, t, marks),
                Node::Element(e) if dropped_kind(e.name()).is_some() => {}
                Node::Element(_) => {
                    // Children in reading order: the last pushed is taken first.
                    let kids: Vec<_> = n.children().collect();
                    stack.extend(kids.into_iter().rev());
                }
                _ => {}
            }
        }
    }

    fn text(&mut self, flow: &mut Flow, t: &str, marks: &Marks) {
        // White space collapses as a browser collapses it.
        let mut s = String::with_capacity(t.len());
        let mut space = matches!(flow.pieces.last(), Some(Piece::Text(p, _)) if p.ends_with(' '))
            || flow.pieces.is_empty()
            || matches!(flow.pieces.last(), Some(Piece::Break));
        for c in t.chars() {
            if matches!(c, ' ' | '\t' | '\n' | '\r' | '\u{c}') {
                if !space {
                    s.push(' ');
                    space = true;
                }
            } else {
                s.push(c);
                space = false;
            }
        }
        if s.is_empty() {
            return;
        }
        match flow.pieces.last_mut() {
            Some(Piece::Text(p, m)) if m == marks => p.push_str(&s),
            _ => flow.pieces.push(Piece::Text(s, marks.clone())),
        }
    }

    fn element(
        &mut self,
        node: NodeRef<'_, Node>,
        e: &scraper::node::Element,
        flow: &mut Flow,
        marks: &Marks,
        nest: usize,
        depth: usize,
    ) {
        let name = e.name();
        let mut m = marks.clone();
        match name {
            "b" | "strong" => m.bold = true,
            "i" | "em" | "cite" | "var" | "dfn" | "address" => m.italic = true,
            "u" | "ins" => m.underline = true,
            "s" | "strike" | "del" => m.strike = true,
            "a" => match e.attr("href").map(str::trim) {
                Some(h)
                    if (h.len() <= 2000)
                        && ["https://", "http://", "mailto:"].iter().any(|p| {
                            h.len() > p.len()
                                && h.get(..p.len()).is_some_and(|s| s.eq_ignore_ascii_case(p))
                        }) =>
                {
                    m.link = Some(h.to_string());
                }
                Some(h) if h.starts_with('#') || h.is_empty() => {}
                Some(_) => self.warn("links that are not http, https or mailto removed"),
                None => {}
            },
            "br" => {
                flow.pieces.push(Piece::Break);
                return;
            }
            "h1" | "h2" | "h3" | "h4" | "h5" | "h6" => {
                self.flush(flow);
                let outer = flow.align;
                flow.align = align_of(e).or(outer);
                let level = (name.as_bytes()[1] - b'0').min(4);
                flow.heading = Some(level);
                self.children(node, flow, m, nest, depth);
                self.flush(flow);
                flow.align = outer;
                return;
            }
            "ul" | "ol" | "menu" if nest < MAX_NESTING => {
                self.flush(flow);
                self.list(node, e, flow, &m, nest, depth);
                return;
            }
            "table" if nest < MAX_NESTING => {
                self.flush(flow);
                self.table(node, flow, &m, nest, depth);
                return;
            }
            "blockquote" if nest < MAX_NESTING => {
                self.flush(flow);
                let mut inner = Flow::new();
                self.children(node, &mut inner, m, nest + 1, depth);
                self.flush(&mut inner);
                if !inner.blocks.is_empty() {
                    flow.blocks
                        .push(json!({"type": "blockquote", "content": inner.blocks}));
                }
                return;
            }
            "pre" | "listing" | "xmp" | "plaintext" => {
                self.flush(flow);
                self.code(node, flow, depth);
                return;
            }
            "hr" => {
                self.flush(flow);
                flow.blocks.push(json!({"type": "horizontalRule"}));
                return;
            }
            "img" => {
                self.image(e, flow);
                return;
            }
            "form" => self.warn("forms removed (their words are kept)"),
            _ => {}
        }
        if is_block(name) {
            self.flush(flow);
            let outer = flow.align;
            flow.align = align_of(e).or(outer);
            self.children(node, flow, m, nest, depth);
            self.flush(flow);
            flow.align = outer;
        } else {
            self.children(node, flow, m, nest, depth);
        }
    }
}

fn name_fields(v: &mut Value, names: &[Value]) {
    match v {
        Value::Object(o) => {
            if o.get("type").and_then(Value::as_str) == Some("fieldTag")
                && let Some(n) = o
                    .get("attrs")
                    .and_then(|a| a.get("tag"))
                    .and_then(Value::as_u64)
                && let Some(attrs) = names.get(n as usize)
            {
                o.insert("attrs".into(), attrs.clone());
                return;
            }
            if let Some(c) = o.get_mut("content") {
                name_fields(c, names);
            }
        }
        Value::Array(a) => {
            for x in a {
                name_fields(x, names);
            }
        }
        _ => {}
    }
}

fn push_text(out: &mut Vec<Value>, text: &str, marks: &Marks) {
    if text.is_empty() {
        return;
    }
    let mut node = json!({"type": "text", "text": text});
    if let Some(m) = marks.json() {
        node["marks"] = m;
    }
    out.push(node);
}

/// The text of preformatted elements: white space kept, `<br>` a line end.
fn raw_text(node: NodeRef<'_, Node>, out: &mut String, depth: usize) {
    for c in node.children() {
        match c.value() {
            Node::Text(t) => out.push_str(t),
            Node::Element(e) if e.name() == "br" => out.push('\n'),
            Node::Element(e) if dropped_kind(e.name()).is_some() => {}
            Node::Element(_) if depth < MAX_DEPTH => raw_text(c, out, depth + 1),
            _ => {}
        }
    }
}

/// Where an element sets its lines: `<center>`, an `align` attribute, or the one property of
/// a `style` attribute that is read, `text-align`.
fn align_of(e: &scraper::node::Element) -> Option<&'static str> {
    let word = |v: &str| match v
        .trim()
        .trim_end_matches("!important")
        .trim()
        .to_ascii_lowercase()
        .as_str()
    {
        "center" | "-webkit-center" => Some("center"),
        "right" | "end" => Some("right"),
        "left" | "start" => Some("left"),
        "justify" => Some("justify"),
        _ => None,
    };
    if e.name() == "center" {
        return Some("center");
    }
    if let Some(a) = e.attr("align").and_then(word) {
        return Some(a);
    }
    let style = e.attr("style")?;
    style.split(';').find_map(|decl| {
        let (k, v) = decl.split_once(':')?;
        (k.trim().eq_ignore_ascii_case("text-align"))
            .then(|| word(v))
            .flatten()
    })
}

/// Elements that stand on lines of their own: their words are a paragraph.
fn is_block(name: &str) -> bool {
    matches!(
        name,
        "p" | "div"
            | "section"
            | "article"
            | "header"
            | "footer"
            | "main"
            | "aside"
            | "nav"
            | "figure"
            | "figcaption"
            | "center"
            | "dl"
            | "dt"
            | "dd"
            | "details"
            | "summary"
            | "li"
            | "ul"
            | "ol"
            | "menu"
            | "table"
            | "tr"
            | "td"
            | "th"
            | "blockquote"
            | "body"
            | "html"
            | "hgroup"
            | "search"
    )
}

fn data_address(mime: &str, bytes: &[u8]) -> String {
    use base64::Engine;
    format!(
        "data:{mime};base64,{}",
        base64::engine::general_purpose::STANDARD.encode(bytes)
    )
}

/// How deep the page's elements nest, when deeper than `MAX_OPEN`, from its tags alone.
/// Elements that close themselves (`br`, `img`...) and those a parser closes when the next
/// one starts (`p`, `li`, `td`...) are not counted, so sloppy but shallow pages pass.
fn too_deep(html: &str) -> Option<usize> {
    const SKIP: &[&str] = &[
        "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
        "track", "wbr", "p", "li", "dt", "dd", "tr", "td", "th", "option", "thead", "tbody",
        "tfoot", "colgroup", "rb", "rt", "rp", "optgroup", "!doctype", "html", "head", "body",
    ];
    let b = html.as_bytes();
    let mut depth: usize = 0;
    let mut i = 0;
    while let Some(at) = b[i..].iter().position(|c| *c == b'<') {
        i += at + 1;
        let closing = b.get(i) == Some(&b'/');
        let start = if closing { i + 1 } else { i };
        let end = b[start..]
            .iter()
            .position(|c| !(c.is_ascii_alphanumeric() || *c == b'-' || *c == b'!'))
            .map_or(b.len(), |e| start + e);
        if end == start {
            continue;
        }
        let name = html[start..end].to_ascii_lowercase();
        if SKIP.contains(&name.as_str()) {
            continue;
        }
        if closing {
            depth = depth.saturating_sub(1);
        } else {
            // A tag that closes itself (`<x/>`) opens nothing.
            let close = b[end..]
                .iter()
                .position(|c| *c == b'>')
                .map_or(b.len(), |e| end + e);
            if close > end && b[close - 1] == b'/' {
                continue;
            }
            depth += 1;
            if depth > MAX_OPEN {
                return Some(depth);
            }
        }
    }
    None
}
