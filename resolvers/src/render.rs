//! The seam to the document engine. Resolvers never link Typst: the binary hands `Ctx` a
//! `DocRenderer` (backed by `signet-pdf`), so this crate and everything above it rebuild
//! without the engine.

use std::collections::BTreeMap;

use signet_source::{Doc, Field};

pub struct RenderJob {
    pub source: Doc,
    pub title: String,
    pub footer: String,
    /// `letter` or `a4`.
    pub paper: String,
    /// `typeset` or `contract`.
    pub profile: String,
    pub test: bool,
    pub lang: String,
    pub values: BTreeMap<String, String>,
    pub seat_names: BTreeMap<String, String>,
}

#[derive(Clone, Debug)]
pub struct Placement {
    pub field: Field,
    pub page: u32,
    pub x: f64,
    pub y: f64,
    pub width: f64,
    pub height: f64,
}

pub struct RenderedDoc {
    pub pdf: Vec<u8>,
    pub pages: Vec<(f64, f64)>,
    pub fields: Vec<Placement>,
}

pub trait DocRenderer: Send + Sync + 'static {
    /// CPU-bound; resolvers call it on the blocking pool.
    fn render(&self, job: &RenderJob) -> Result<RenderedDoc, String>;
    /// Transparent pages of the given sizes with the values drawn in; CPU-bound.
    fn values_layer(&self, pages: &[(f64, f64)], marks: &[ValueMark]) -> Result<Vec<u8>, String>;
    /// The certificate of completion as a PDF of its own; CPU-bound.
    fn certificate(&self, doc: &CertificateDoc) -> Result<Vec<u8>, String>;
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MarkKind {
    /// Typed signatures and initials.
    Signature,
    /// A ticked checkbox.
    Check,
    Text,
}

/// A field value and its rectangle, in points from the page's top-left corner.
#[derive(Clone, Debug)]
pub struct ValueMark {
    pub page: u32,
    pub x: f64,
    pub y: f64,
    pub width: f64,
    pub height: f64,
    pub kind: MarkKind,
    pub text: String,
}

/// The certificate of completion, as words; the engine lays it out.
#[derive(Clone, Debug)]
pub struct CertificateDoc {
    /// `letter` or `a4`.
    pub paper: String,
    pub heading: String,
    pub test: bool,
    pub facts: Vec<(String, String)>,
    /// A heading per person, with label and value lines.
    pub people: Vec<(String, Vec<(String, String)>)>,
    /// Time, event, description.
    pub events: Vec<[String; 3]>,
    pub people_heading: String,
    pub events_heading: String,
}
