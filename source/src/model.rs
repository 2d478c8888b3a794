//! The typed source of a document written in words: what `parse` makes of the editor's JSON.
//! Everything past `parse` works on these values and never looks at JSON again.

use std::collections::BTreeMap;

#[derive(Clone, Debug, PartialEq)]
pub struct Doc {
    pub content: Vec<Block>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Block {
    Heading {
        level: u8,
        /// Sender-only: the heading and everything under it up to the next heading of the same
        /// or a higher level never reach a signer.
        sender_only: bool,
        content: Vec<Inline>,
    },
    Paragraph(Vec<Inline>),
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
    pub payment: Option<Payment>,
    /// Where the field was written, for messages (`source.content[2].content[0]`).
    pub path: String,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Payment {
    /// In minor units (cents); `None` when the tag gave no amount.
    pub amount_minor: Option<i64>,
    pub currency: String,
    pub description: Option<String>,
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
                    Block::SignatureBlock { .. } => 1,
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
