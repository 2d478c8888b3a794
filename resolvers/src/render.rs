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
}
