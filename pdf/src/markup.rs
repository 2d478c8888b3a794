//! Source to Typst markup. Nothing the caller wrote is ever spliced into the markup: every
//! string goes into a JSON data file that the markup reads by index (`#s(12)`), so text is
//! always text and no input can open a Typst expression. The markup itself is built only from
//! our own constants and numbers.

use std::collections::BTreeMap;
use std::fmt::Write;

use serde::Serialize;
use signet_source::{Align, Block, Field, FieldType, Inline, Marks, walk};

use crate::input::{Paper, Profile, RenderInput};

#[derive(Serialize)]
pub(crate) struct Data {
    pub strings: Vec<String>,
    pub fields: Vec<FieldBox>,
}

#[derive(Clone, Debug, Serialize)]
pub(crate) struct FieldBox {
    /// Width and height in points.
    pub w: f64,
    pub h: f64,
    /// Distance of the box's bottom below the text baseline, in points.
    pub b: f64,
    /// Index of the hint shown inside the box.
    pub label: usize,
}

pub(crate) struct Generated {
    pub markup: String,
    pub data: Data,
    /// The pictures' bytes: picture `n` is the file `/i/n` of the world.
    pub images: Vec<std::sync::Arc<[u8]>>,
    /// The fields in the order of their boxes; `FieldBox` index = position here.
    pub fields: Vec<Field>,
}

struct Gen<'a> {
    input: &'a RenderInput<'a>,
    out: String,
    strings: Vec<String>,
    index: BTreeMap<String, usize>,
    boxes: Vec<FieldBox>,
    fields: Vec<Field>,
    sig_blocks: BTreeMap<String, usize>,
    images: Vec<std::sync::Arc<[u8]>>,
}

/// The text's width and height on each paper, in points: the page less its margins (2.3 cm
/// each side, 2.3 cm at the top and 2.6 cm at the bottom) and room for the footer.
fn text_area(paper: Paper) -> (f64, f64) {
    let (w, h) = match paper {
        Paper::Letter => (612.0, 792.0),
        Paper::A4 => (595.28, 841.89),
    };
    let cm = 72.0 / 2.54;
    (w - 4.6 * cm, h - 4.9 * cm - 24.0)
}

const PREAMBLE: &str = r##"#let d = json("/data.json")
#let s(i) = d.strings.at(i)
#let fld(i) = {
  let f = d.fields.at(i)
  box(width: f.w * 1pt, height: f.h * 1pt, baseline: f.b * 1pt, stroke: 0.6pt + rgb("#2563eb"),
      fill: rgb("#eff6ff"), radius: 1.5pt, clip: true)[
    #place(top + left)[#metadata(i) <signet-field>]
    #place(horizon + left, dx: 3pt)[#text(size: 6.5pt, fill: rgb("#1e40af"), s(f.label))]
  ]
}
#let fldb(i) = {
  let f = d.fields.at(i)
  block(width: f.w * 1pt, height: f.h * 1pt, stroke: 0.6pt + rgb("#2563eb"),
      fill: rgb("#eff6ff").transparentize(20%), radius: 1.5pt, clip: true)[
    #place(top + left)[#metadata(i) <signet-field>]
    #place(horizon + left, dx: 3pt)[#text(size: 6.5pt, fill: rgb("#1e40af"), s(f.label))]
  ]
}
#let sigblock(sig, date, name, datelabel) = block(breakable: false, above: 2.2em, below: 1.6em)[
  #fld(sig)
  #v(-0.45em)
  #line(length: 200pt, stroke: 0.6pt)
  #v(-0.5em)
  #text(size: 0.9em, s(name))
  #v(-0.3em)
  #text(size: 0.8em, fill: luma(90), s(datelabel)) #h(4pt) #fld(date)
]
"##;

pub(crate) fn generate(input: &RenderInput<'_>) -> Generated {
    let mut g = Gen {
        input,
        out: String::with_capacity(4096),
        strings: Vec::new(),
        index: BTreeMap::new(),
        boxes: Vec::new(),
        fields: Vec::new(),
        sig_blocks: BTreeMap::new(),
        images: Vec::new(),
    };
    g.out.push_str(PREAMBLE);
    match &input.doc.file {
        Some(file) => g.file_pages(file),
        None => {
            g.setup();
            let view = walk::signer_view(input.doc);
            g.blocks(&view.content, "\n\n");
        }
    }
    Generated {
        markup: g.out,
        data: Data {
            strings: g.strings,
            fields: g.boxes,
        },
        fields: g.fields,
        images: g.images,
    }
}

impl Gen<'_> {
    /// Index of `text` in the data file's string table.
    fn s(&mut self, text: &str) -> usize {
        if let Some(i) = self.index.get(text) {
            return *i;
        }
        let i = self.strings.len();
        self.strings.push(text.to_string());
        self.index.insert(text.to_string(), i);
        i
    }

    /// A file's pages as they are, each a picture of the page at its own size, with each field
    /// placed exactly where it was found; the TEST stamp on top when asked.
    fn file_pages(&mut self, file: &signet_source::FileDoc) {
        let title = self.s(self.input.title);
        let foreground = self.test_stamp().0;
        let n = self.images.len();
        if let Some(data) = &file.data {
            self.images.push(data.clone());
        }
        let _ = write!(
            self.out,
            "#set document(title: s({title}))\n\
             #set page(margin: 0pt, foreground: {foreground}, header: none, footer: none)\n\
             #set text(font: {}, size: 10pt)\n",
            crate::fonts::SANS_STACK
        );
        for (p, (w, h)) in file.pages.iter().enumerate() {
            let _ = write!(
                self.out,
                "#page(width: {w:.3}pt, height: {h:.3}pt)[#place(top + left, image(\"/i/{n}\", \
                 format: \"pdf\", page: {}, width: {w:.3}pt, height: {h:.3}pt))",
                p + 1
            );
            for f in file.fields.iter().filter(|f| f.page as usize == p + 1) {
                let b = self.field_box(f.field.clone(), f.width, f.height);
                let _ = write!(
                    self.out,
                    "#place(top + left, dx: {:.3}pt, dy: {:.3}pt, fldb({b}))",
                    f.x, f.y
                );
            }
            self.out.push_str("]\n");
        }
    }

    /// The TEST stamp and banner of a test document (`none` for others).
    fn test_stamp(&mut self) -> (String, String) {
        if !self.input.test {
            return ("none".to_string(), "none".to_string());
        }
        let stamp = self.s("TEST");
        let banner = self.s("TEST DOCUMENT: a practice run with no legal effect");
        (
            format!(
                "place(center + horizon, rotate(-35deg, text(120pt, weight: \"bold\", \
                 fill: rgb(220, 38, 38, 60), s({stamp}))))"
            ),
            format!(
                "align(center, text(size: 8pt, weight: \"bold\", fill: rgb(220, 38, 38), s({banner})))"
            ),
        )
    }

    fn setup(&mut self) {
        let input = self.input;
        let title = self.s(input.title);
        let footer = self.s(input.footer);
        let paper = match input.paper {
            Paper::Letter => "us-letter",
            Paper::A4 => "a4",
        };
        let (fonts, size, justify, numbering) = match input.profile {
            Profile::Typeset => (crate::fonts::SERIF_STACK, "11pt", "true", "none"),
            Profile::Contract => (crate::fonts::SANS_STACK, "10pt", "false", "\"1.1.\""),
            Profile::Plain => (crate::fonts::SANS_STACK, "10.5pt", "false", "none"),
        };
        let heading = if input.profile == Profile::Plain {
            String::new()
        } else {
            format!("#align(center, text(size: 1.6em, weight: \"bold\", s({title})))\n#v(0.8em)\n")
        };
        let lang = if input.lang.len() == 2 && input.lang.bytes().all(|b| b.is_ascii_lowercase()) {
            input.lang
        } else {
            "en"
        };
        let (foreground, header) = self.test_stamp();
        let _ = write!(
            self.out,
            "#set document(title: s({title}))\n\
             #set page(paper: \"{paper}\", margin: (x: 2.3cm, top: 2.3cm, bottom: 2.6cm), \
             foreground: {foreground}, header: {header}, \
             footer: context text(size: 7.5pt, fill: luma(110))[#s({footer}) #h(1fr) \
             #counter(page).display(\"1 / 1\", both: true)])\n\
             #set text(font: {fonts}, size: {size}, lang: \"{lang}\")\n\
             #set par(justify: {justify}, leading: 0.62em)\n\
             #set heading(numbering: {numbering})\n\
             #show heading: set block(above: 1.4em, below: 0.8em)\n\
             #show raw: set text(font: \"DejaVu Sans Mono\", size: 0.85em)\n\
             {heading}"
        );
    }

    fn blocks(&mut self, blocks: &[Block], sep: &str) {
        for (i, b) in blocks.iter().enumerate() {
            if i > 0 {
                self.out.push_str(sep);
            }
            self.block(b);
        }
    }

    /// Blocks as one content argument: `[...]`.
    fn content_arg(&mut self, blocks: &[Block]) {
        self.out.push('[');
        self.blocks(blocks, "#parbreak()");
        self.out.push(']');
    }

    /// A table: its header row strong, a short row's missing cells left empty.
    fn table(&mut self, t: &signet_source::Table) {
        let cols = t.columns().max(1);
        let _ = write!(
            self.out,
            "#table(columns: {cols}, inset: 5pt, stroke: 0.5pt + luma(150), "
        );
        // A short row keeps its cells in their columns, as in a browser: empty cells
        // fill the rest of it.
        let gaps: Vec<usize> = t.filled().iter().map(|f| cols.saturating_sub(*f)).collect();
        for (r, row) in t.rows.iter().enumerate() {
            let header = r == 0 && t.header;
            if header {
                self.out.push_str("table.header(");
            }
            for cell in row {
                if cell.colspan > 1 || cell.rowspan > 1 {
                    let _ = write!(
                        self.out,
                        "table.cell(colspan: {}, rowspan: {})",
                        cell.colspan.max(1),
                        cell.rowspan.max(1)
                    );
                }
                if header {
                    self.out.push_str("[#strong");
                    self.content_arg(&cell.content);
                    self.out.push(']');
                } else {
                    self.content_arg(&cell.content);
                }
                self.out.push(',');
            }
            for _ in 0..gaps[r] {
                self.out.push_str("[],");
            }
            if header {
                self.out.push_str("),");
            }
        }
        self.out.push(')');
    }

    /// A picture at its pixels' size (96 per inch), or the width asked for, within the text
    /// area.
    fn image(&mut self, img: &signet_source::Image) {
        let n = self.images.len();
        self.images.push(img.data.clone());
        // Its pixels at 96 per inch, as a browser shows it, unless a width was asked
        // for; never wider than the text nor taller than a page.
        let (max_w, max_h) = text_area(self.input.paper);
        let natural = img.px_width as f64 * 0.75;
        let mut w = img.width.unwrap_or(natural).min(max_w);
        let h = w * img.px_height as f64 / img.px_width as f64;
        if h > max_h {
            w *= max_h / h;
        }
        let alt = match &img.alt {
            Some(a) => format!("s({})", self.s(a)),
            None => "none".into(),
        };
        let _ = write!(self.out, "#image(\"/i/{n}\", width: {w:.2}pt, alt: {alt})");
    }

    fn block(&mut self, b: &Block) {
        match b {
            Block::Heading {
                level,
                content,
                align,
                ..
            } => {
                let (open, close) = match align {
                    Align::Start => ("", ""),
                    Align::Center => ("#align(center)[", "]"),
                    Align::End => ("#align(end)[", "]"),
                };
                let _ = write!(self.out, "{open}#heading(level: {level})[");
                self.inlines(content);
                self.out.push(']');
                self.out.push_str(close);
            }
            Block::Aligned { align, content } => {
                let at = match align {
                    Align::Start => "start",
                    Align::Center => "center",
                    Align::End => "end",
                };
                // Centred and right-set lines are not justified.
                let _ = writeln!(self.out, "#align({at})[#set par(justify: false)");
                self.blocks(content, "#parbreak()");
                self.out.push(']');
            }
            Block::Paragraph(content) => {
                if content.is_empty() {
                    self.out.push_str("#v(0.6em)");
                }
                self.inlines(content);
            }
            Block::BulletList(items) => {
                self.out.push_str("#list(");
                for it in items {
                    self.content_arg(&it.content);
                    self.out.push(',');
                }
                self.out.push(')');
            }
            Block::OrderedList { start, items } => {
                let _ = write!(self.out, "#enum(start: {start}, ");
                for it in items {
                    self.content_arg(&it.content);
                    self.out.push(',');
                }
                self.out.push(')');
            }
            Block::Table(t) => self.table(t),
            Block::Quote(blocks) => {
                self.out.push_str(
                    "#block(inset: (left: 12pt, y: 2pt), stroke: (left: 1.5pt + luma(170)), ",
                );
                self.content_arg(blocks);
                self.out.push(')');
            }
            Block::Code(text) => {
                let s = self.s(text);
                let _ = write!(
                    self.out,
                    "#block(width: 100%, fill: luma(246), inset: 6pt, radius: 2pt, \
                     raw(s({s}), block: true))"
                );
            }
            Block::Rule => {
                self.out.push_str(
                    "#block(above: 1em, below: 1em, line(length: 100%, stroke: 0.5pt + luma(150)))",
                );
            }
            Block::Image(img) => self.image(img),
            Block::SignatureBlock { role, path } => {
                let n = self.sig_blocks.entry(role.clone()).or_default();
                *n += 1;
                let [sig, date] = walk::signature_block_fields(role, *n, path);
                let name = self
                    .input
                    .seat_names
                    .get(role)
                    .cloned()
                    .unwrap_or_else(|| role.clone());
                let sig = self.field_box(sig, 200.0, 40.0);
                let date = self.field_box(date, 90.0, 14.0);
                let name = self.s(&name);
                let label = self.s(self.input.labels.date_signed);
                let _ = write!(self.out, "#sigblock({sig}, {date}, {name}, {label})");
            }
        }
    }

    fn inlines(&mut self, content: &[Inline]) {
        for i in content {
            match i {
                Inline::Text { text, marks } => {
                    let s = self.s(text);
                    self.marked(marks, &format!("#s({s})"));
                }
                Inline::HardBreak => self.out.push_str("#linebreak()"),
                Inline::Chip { name, marks, .. } => {
                    let value = self
                        .input
                        .values
                        .get(name)
                        .cloned()
                        .unwrap_or_else(|| format!("[{name}]"));
                    let s = self.s(&value);
                    self.marked(marks, &format!("#s({s})"));
                }
                Inline::Field(f) => {
                    let (w, h) = inline_size(f);
                    let (w, h) = (f.width.unwrap_or(w), f.height.unwrap_or(h));
                    let b = self.field_box(f.clone(), w, h);
                    let _ = write!(self.out, "#fld({b})");
                }
            }
        }
    }

    fn marked(&mut self, marks: &Marks, inner: &str) {
        let mut s = inner.to_string();
        if marks.bold {
            s = format!("#strong[{s}]");
        }
        if marks.italic {
            s = format!("#emph[{s}]");
        }
        if marks.underline {
            s = format!("#underline[{s}]");
        }
        if marks.strike {
            s = format!("#strike[{s}]");
        }
        if let Some(href) = &marks.link {
            let h = self.s(href);
            s = format!("#link(s({h}))[{s}]");
        }
        self.out.push_str(&s);
    }

    fn field_box(&mut self, f: Field, w: f64, h: f64) -> usize {
        let hint = f.placeholder.clone().unwrap_or_else(|| match f.ty {
            FieldType::Signature => format!("{} · {}", self.input.labels.sign_here, f.role),
            FieldType::Initials => format!("{} · {}", self.input.labels.initials, f.role),
            FieldType::Checkbox => String::new(),
            _ => f.name.clone(),
        });
        let label = self.s(&hint);
        let i = self.boxes.len();
        self.boxes.push(FieldBox {
            w,
            h,
            b: if h > 14.0 { 0.0 } else { 3.0 },
            label,
        });
        self.fields.push(f);
        i
    }
}

/// Size in points of a field written inside a line of text.
fn inline_size(f: &Field) -> (f64, f64) {
    match f.ty {
        FieldType::Signature => (160.0, 34.0),
        FieldType::Initials => (50.0, 22.0),
        FieldType::Checkbox | FieldType::Radio if f.options.is_empty() => (11.0, 11.0),
        FieldType::Checkbox => (11.0, 11.0),
        FieldType::Date => (90.0, 14.0),
        FieldType::Number | FieldType::Phone => (100.0, 14.0),
        FieldType::Payment => (120.0, 16.0),
        _ => (150.0, 14.0),
    }
}
