//! What a render takes and gives: the paper, the profile, the labels, the input, the field
//! boxes, the rendered document and the errors.

use std::collections::BTreeMap;

use signet_source::{Doc, Field};

use crate::pages;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Paper {
    Letter,
    A4,
}

impl Paper {
    pub fn parse(s: &str) -> Option<Paper> {
        match s {
            "letter" => Some(Paper::Letter),
            "a4" => Some(Paper::A4),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Paper::Letter => "letter",
            Paper::A4 => "a4",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Profile {
    /// Book-like: serif, justified.
    Typeset,
    /// Numbered clauses, sans.
    Contract,
    /// A page as its writer laid it out (templates from HTML): sans, ragged right, no
    /// numbering, and no title printed above it, since the page has its own.
    Plain,
}

impl Profile {
    pub fn parse(s: &str) -> Option<Profile> {
        match s {
            "typeset" => Some(Profile::Typeset),
            "contract" => Some(Profile::Contract),
            "plain" => Some(Profile::Plain),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Profile::Typeset => "typeset",
            Profile::Contract => "contract",
            Profile::Plain => "plain",
        }
    }
}

/// Words the renderer itself prints, in the document's language.
#[derive(Clone, Copy, Debug)]
pub struct Labels {
    pub date_signed: &'static str,
    pub sign_here: &'static str,
    pub initials: &'static str,
}

impl Labels {
    pub const EN: Labels = Labels {
        date_signed: "Date signed",
        sign_here: "Sign here",
        initials: "Initials",
    };
}

pub struct RenderInput<'a> {
    /// The whole source; sender-only sections are removed here, whatever the caller passed.
    pub doc: &'a Doc,
    pub title: &'a str,
    /// Printed at the foot of every page (the document id, say).
    pub footer: &'a str,
    pub paper: Paper,
    pub profile: Profile,
    /// Stamps every page TEST.
    pub test: bool,
    /// Two-letter language code; sets hyphenation, quotes and text direction.
    pub lang: &'a str,
    /// Values of merge chips by chip name (`org.name`, `custom.rent`, `client.name`).
    pub values: &'a BTreeMap<String, String>,
    /// The person's name for each seat, printed under signature blocks.
    pub seat_names: &'a BTreeMap<String, String>,
    pub labels: Labels,
}

/// Where a field's box is on the page, in PDF points measured from the page's top-left corner.
#[derive(Clone, Debug, PartialEq)]
pub struct FieldRect {
    pub field: Field,
    /// 1-based.
    pub page: u32,
    pub x: f64,
    pub y: f64,
    pub width: f64,
    pub height: f64,
}

#[derive(Clone, Debug)]
pub struct Rendered {
    pub pdf: Vec<u8>,
    /// Width and height of each page in points.
    pub pages: Vec<(f64, f64)>,
    pub fields: Vec<FieldRect>,
    /// What the signing page shows of each page, when pictures were asked for.
    pub views: Vec<pages::PageView>,
}

#[derive(Debug, thiserror::Error)]
pub enum RenderError {
    /// Our own markup failed to compile: a bug, never the caller's input.
    #[error("typst could not compile the document: {0}")]
    Compile(String),
    #[error("typst could not write the PDF: {0}")]
    Export(String),
    /// A page could not be pictured as it prints: the signer would not see what is sealed.
    #[error("the pages cannot be shown to signers as they print: {0}")]
    Pictures(String),
    /// The document laid out to more pages than the installation allows.
    #[error("the document is {pages} pages long; at most {max} are allowed (max_pages)")]
    TooLong { pages: usize, max: usize },
}
