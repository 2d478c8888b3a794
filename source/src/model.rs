//! The typed source of a document written in words: what `parse` makes of the editor's JSON.
//! Everything past `parse` works on these values and never looks at JSON again.

use std::collections::BTreeMap;

#[derive(Clone, Debug, PartialEq)]
pub struct Doc {
    pub content: Vec<Block>,
    /// A document whose pages are a file's (a template made from a PDF): its pages and its
    /// fields at their places. Its `content` is empty.
    pub file: Option<FileDoc>,
}

/// Pages of a stored PDF with fields placed on them.
#[derive(Clone, Debug, PartialEq)]
pub struct FileDoc {
    /// Where the PDF is kept: the blob of the template version it came from.
    pub blob: String,
    /// Each page's width and height in points.
    pub pages: Vec<(f64, f64)>,
    pub fields: Vec<PlacedField>,
    /// Each page's words as drawn (tags taken out), for the signing page's text layer: screen
    /// readers and find-in-page read a file's pages as they read pages from words.
    pub text: Vec<Vec<FileRun>>,
    /// The PDF's bytes, when the caller has read them for a render; never parsed from JSON.
    pub data: Option<std::sync::Arc<[u8]>>,
}

/// A run of a file page's text: its box and size in points from the page's top-left corner.
#[derive(Clone, Debug, PartialEq)]
pub struct FileRun {
    pub x: f64,
    pub y: f64,
    pub width: f64,
    pub height: f64,
    pub size: f64,
    pub text: String,
}

/// A field at its place: page from 1, rectangle in points from the page's top-left corner.
#[derive(Clone, Debug, PartialEq)]
pub struct PlacedField {
    pub field: Field,
    pub page: u32,
    pub x: f64,
    pub y: f64,
    pub width: f64,
    pub height: f64,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Block {
    Heading {
        level: u8,
        /// Sender-only: the heading and everything under it up to the next heading of the same
        /// or a higher level never reach a signer.
        sender_only: bool,
        /// Where its lines sit: `textAlign` in the source.
        align: Align,
        content: Vec<Inline>,
    },
    Paragraph(Vec<Inline>),
    /// Paragraphs set centred or to the right (a paragraph's `textAlign`).
    Aligned {
        align: Align,
        content: Vec<Block>,
    },
    BulletList(Vec<ListItem>),
    OrderedList {
        start: u32,
        items: Vec<ListItem>,
    },
    Table(Table),
    SignatureBlock {
        role: String,
        /// Where the block is in the request (`source.content[6]`), for the fields it stands
        /// for and so for every problem found with them.
        path: String,
    },
    /// A quoted passage (`blockquote`): set in from both sides.
    Quote(Vec<Block>),
    /// Preformatted text (`codeBlock`): kept line for line in a fixed-width face.
    Code(String),
    /// A line across the text (`horizontalRule`).
    Rule,
    /// A picture carried inside the source as a `data:` address (`image`).
    Image(Image),
}

/// Where a paragraph's or heading's lines sit.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Align {
    /// The start of the line, as the language writes (and justified where the profile is).
    #[default]
    Start,
    Center,
    End,
}

impl Align {
    /// A source's `textAlign`: `left` and `justify` are the profile's own setting.
    pub fn parse(s: &str) -> Option<Align> {
        match s {
            "left" | "start" | "justify" => Some(Align::Start),
            "center" => Some(Align::Center),
            "right" | "end" => Some(Align::End),
            _ => None,
        }
    }
}

/// The picture kinds a source may carry, read from their bytes, never from what they claim.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ImageFormat {
    Png,
    Jpeg,
    Gif,
    Webp,
}

impl ImageFormat {
    /// The kind of `bytes`, from their first bytes.
    pub fn sniff(bytes: &[u8]) -> Option<ImageFormat> {
        if bytes.starts_with(b"\x89PNG\r\n\x1a\n") {
            Some(ImageFormat::Png)
        } else if bytes.starts_with(&[0xff, 0xd8, 0xff]) {
            Some(ImageFormat::Jpeg)
        } else if bytes.starts_with(b"GIF87a") || bytes.starts_with(b"GIF89a") {
            Some(ImageFormat::Gif)
        } else if bytes.len() > 12 && &bytes[..4] == b"RIFF" && &bytes[8..12] == b"WEBP" {
            Some(ImageFormat::Webp)
        } else {
            None
        }
    }

    pub fn mime(self) -> &'static str {
        match self {
            ImageFormat::Png => "image/png",
            ImageFormat::Jpeg => "image/jpeg",
            ImageFormat::Gif => "image/gif",
            ImageFormat::Webp => "image/webp",
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Image {
    pub format: ImageFormat,
    pub data: std::sync::Arc<[u8]>,
    /// Its size in pixels, read from its header.
    pub px_width: u32,
    pub px_height: u32,
    /// The printed width in points; at most the text's width. `None`: its pixels at 96 per
    /// inch, as a browser would show it.
    pub width: Option<f64>,
    /// Words for people who cannot see it.
    pub alt: Option<String>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct ListItem {
    pub content: Vec<Block>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Table {
    /// Whether the first row is a header row.
    pub header: bool,
    pub rows: Vec<Vec<Cell>>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Cell {
    pub content: Vec<Block>,
    /// Columns and rows the cell spans; 1 for an ordinary cell.
    pub colspan: u16,
    pub rowspan: u16,
}

impl Cell {
    pub fn new(content: Vec<Block>) -> Cell {
        Cell {
            content,
            colspan: 1,
            rowspan: 1,
        }
    }
}

/// The widest grid counted: more than the 30 columns a table may have.
const MAX_GRID: usize = 64;

impl Table {
    /// The columns each row fills, its own cells and those spanning down into it from rows
    /// above counted, as a browser lays a table out.
    pub fn filled(&self) -> Vec<usize> {
        // How many more rows each column stays taken by a cell spanning down into them.
        let mut taken: Vec<u16> = Vec::new();
        let mut out = Vec::with_capacity(self.rows.len());
        for row in &self.rows {
            let mut col = 0;
            for cell in row {
                while taken.get(col).is_some_and(|t| *t > 0) {
                    col += 1;
                }
                // Past the widest grid allowed, the rest of the row is not counted: the table
                // is refused as too wide anyway, and a row of wide spans costs no more.
                let span = (cell.colspan.max(1) as usize).min(MAX_GRID.saturating_sub(col));
                if span == 0 {
                    break;
                }
                if taken.len() < col + span {
                    taken.resize(col + span, 0);
                }
                for t in &mut taken[col..col + span] {
                    *t = cell.rowspan.max(1);
                }
                col += span;
            }
            out.push(taken.iter().filter(|t| **t > 0).count());
            for t in &mut taken {
                *t = t.saturating_sub(1);
            }
        }
        out
    }

    /// The columns of the table's grid: the widest row, spans counted.
    pub fn columns(&self) -> usize {
        self.filled().into_iter().max().unwrap_or(0)
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum Inline {
    Text {
        text: String,
        marks: Marks,
    },
    HardBreak,
    Field(Field),
    Chip {
        name: String,
        marks: Marks,
        /// Where the chip was written, for messages.
        path: String,
    },
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Marks {
    pub bold: bool,
    pub italic: bool,
    pub underline: bool,
    pub strike: bool,
    /// An `http`, `https` or `mailto` address; anything else is refused at parse time.
    pub link: Option<String>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FieldType {
    Signature,
    Initials,
    Text,
    Date,
    Checkbox,
    Radio,
    Select,
    Number,
    Email,
    Name,
    Company,
    Phone,
    Payment,
}

impl FieldType {
    pub const ALL: &'static [FieldType] = &[
        FieldType::Signature,
        FieldType::Initials,
        FieldType::Text,
        FieldType::Date,
        FieldType::Checkbox,
        FieldType::Radio,
        FieldType::Select,
        FieldType::Number,
        FieldType::Email,
        FieldType::Name,
        FieldType::Company,
        FieldType::Phone,
        FieldType::Payment,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            FieldType::Signature => "signature",
            FieldType::Initials => "initials",
            FieldType::Text => "text",
            FieldType::Date => "date",
            FieldType::Checkbox => "checkbox",
            FieldType::Radio => "radio",
            FieldType::Select => "select",
            FieldType::Number => "number",
            FieldType::Email => "email",
            FieldType::Name => "name",
            FieldType::Company => "company",
            FieldType::Phone => "phone",
            FieldType::Payment => "payment",
        }
    }

    pub fn parse(s: &str) -> Option<FieldType> {
        FieldType::ALL.iter().copied().find(|t| t.as_str() == s)
    }

    /// Whether the field takes one of `options`.
    pub fn has_options(self) -> bool {
        matches!(self, FieldType::Radio | FieldType::Select)
    }
}

/// What the service fills in for the person, so they do not type it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Autofill {
    Name,
    Email,
    DateSigned,
}

impl Autofill {
    pub fn as_str(self) -> &'static str {
        match self {
            Autofill::Name => "name",
            Autofill::Email => "email",
            Autofill::DateSigned => "date_signed",
        }
    }

    pub fn parse(s: &str) -> Option<Autofill> {
        match s {
            "name" => Some(Autofill::Name),
            "email" => Some(Autofill::Email),
            "date_signed" | "dateSigned" | "date" => Some(Autofill::DateSigned),
            _ => None,
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Field {
    pub name: String,
    pub ty: FieldType,
    /// The role word of the person who fills it in.
    pub role: String,
    pub required: bool,
    pub autofill: Option<Autofill>,
    /// Whether the person may change an autofilled or default value.
    pub editable: bool,
    pub placeholder: Option<String>,
    pub tooltip: Option<String>,
    /// A locked field shows its default and cannot be changed by anyone.
    pub locked: bool,
    pub options: Vec<String>,
    pub default: Option<String>,
    pub payment: Option<Box<Payment>>,
    /// The box's size in points, when the writer asked for one (a text tag's `width` and
    /// `height`); otherwise the type's own size.
    pub width: Option<f64>,
    pub height: Option<f64>,
    /// Where the field was written, for messages (`source.content[2].content[0]`).
    pub path: String,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Payment {
    /// In minor units (cents); `None` when the tag gave no amount.
    pub amount_minor: Option<i64>,
    pub currency: String,
    pub description: Option<String>,
    /// An amount worked out from other fields (a text tag's `formula`), checked when read
    /// and evaluated by payments; or the processor's own `price` id or payment `link`.
    pub formula: Option<String>,
    pub price: Option<String>,
    pub link: Option<String>,
}

/// Values that merge chips draw from, already flattened to `org.name`-style keys.
pub type Values = BTreeMap<String, String>;

/// Lines a page holds at most, and characters a line holds at most, in any profile and paper
/// (generous: the smallest type and the widest line either profile sets).
const MAX_LINES_PER_PAGE: usize = 90;
const MAX_CHARS_PER_LINE: usize = 160;

impl Doc {
    /// The fewest pages these words could take when laid out: every block takes at least one
    /// line and its text at least its length over the widest line. A document that must be
    /// longer than an installation allows is refused from this before any layout is done.
    pub fn min_pages(&self) -> usize {
        if let Some(f) = &self.file {
            return f.pages.len().max(1);
        }
        fn inline_chars(content: &[Inline]) -> usize {
            content
                .iter()
                .map(|i| match i {
                    Inline::Text { text, .. } => text.chars().count(),
                    _ => 1,
                })
                .sum()
        }
        fn lines(blocks: &[Block]) -> usize {
            blocks
                .iter()
                .map(|b| match b {
                    Block::Heading { content, .. } | Block::Paragraph(content) => {
                        inline_chars(content).div_ceil(MAX_CHARS_PER_LINE).max(1)
                    }
                    Block::BulletList(items) | Block::OrderedList { items, .. } => {
                        items.iter().map(|i| lines(&i.content).max(1)).sum()
                    }
                    Block::Table(t) => t
                        .rows
                        .iter()
                        .map(|r| {
                            r.iter()
                                .map(|c| lines(&c.content))
                                .max()
                                .unwrap_or(0)
                                .max(1)
                        })
                        .sum(),
                    Block::SignatureBlock { .. } | Block::Rule | Block::Image(_) => 1,
                    Block::Quote(blocks)
                    | Block::Aligned {
                        content: blocks, ..
                    } => lines(blocks).max(1),
                    Block::Code(text) => text
                        .lines()
                        .map(|l| l.chars().count().div_ceil(MAX_CHARS_PER_LINE).max(1))
                        .sum::<usize>()
                        .max(1),
                })
                .sum()
        }
        // Sender-only sections are never laid out for a signer.
        let mut hidden: Option<u8> = None;
        let shown: Vec<Block> = self
            .content
            .iter()
            .filter(|b| {
                if let Block::Heading {
                    level, sender_only, ..
                } = b
                {
                    if hidden.is_some_and(|h| *level <= h) {
                        hidden = None;
                    }
                    if *sender_only && hidden.is_none() {
                        hidden = Some(*level);
                    }
                }
                hidden.is_none()
            })
            .cloned()
            .collect();
        lines(&shown).div_ceil(MAX_LINES_PER_PAGE).max(1)
    }
}
