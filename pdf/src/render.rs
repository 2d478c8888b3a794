//! The renderer: a document's Typst markup compiled with the shared fonts and library, laid
//! out, exported to PDF/A, with each field's box and (when asked) each page's picture.

use std::sync::Arc;

use signet_source::Field;
use typst::foundations::{Label, Selector, Smart, Value};
use typst::introspection::MetadataElem;
use typst::utils::PicoStr;
use typst_layout::PagedDocument;

use crate::input::{FieldRect, RenderError, RenderInput, Rendered};
use crate::{markup, pages, world};

/// What a render makes of each page for the signing page.
enum Views<'a> {
    None,
    Text,
    /// Text and pictures at these widths.
    Pictures(&'a [u32]),
}

/// Holds what every render shares: the standard library and the embedded fonts. Build one at
/// start-up and share it; `render` may run on many threads at once.
#[derive(Clone)]
pub struct Renderer {
    shared: Arc<world::Shared>,
}

impl Default for Renderer {
    fn default() -> Self {
        Renderer::new()
    }
}

impl Renderer {
    pub fn new() -> Renderer {
        Renderer {
            shared: Arc::new(world::Shared::new()),
        }
    }

    /// Renders the signer's view of a source to PDF. CPU-bound: call it off the async runtime.
    pub fn render(&self, input: &RenderInput<'_>) -> Result<Rendered, RenderError> {
        self.render_at_most(input, usize::MAX)
    }

    /// As `render`, refusing a document longer than `max_pages` once laid out, before the PDF
    /// (as costly again) is written.
    pub fn render_at_most(
        &self,
        input: &RenderInput<'_>,
        max_pages: usize,
    ) -> Result<Rendered, RenderError> {
        self.render_with_views(input, max_pages, &[])
    }

    /// As `render_at_most`, and each page drawn at `widths` (pixels) with its text runs, for
    /// the signing page. No widths, no pictures.
    pub fn render_with_views(
        &self,
        input: &RenderInput<'_>,
        max_pages: usize,
        widths: &[u32],
    ) -> Result<Rendered, RenderError> {
        let views = if widths.is_empty() {
            Views::None
        } else {
            Views::Pictures(widths)
        };
        self.render_views(input, max_pages, views)
    }

    /// As `render_at_most`, with each page's text runs for the signing page's text layer but
    /// no pictures: those are drawn from the stored file afterwards, page by page
    /// ([`crate::pages::picture`]), off the render that sealing waits for.
    pub fn render_with_text(
        &self,
        input: &RenderInput<'_>,
        max_pages: usize,
    ) -> Result<Rendered, RenderError> {
        self.render_views(input, max_pages, Views::Text)
    }

    fn render_views(
        &self,
        input: &RenderInput<'_>,
        max_pages: usize,
        views: Views<'_>,
    ) -> Result<Rendered, RenderError> {
        let generated = markup::generate(input);
        let data =
            serde_json::to_vec(&generated.data).map_err(|e| RenderError::Compile(e.to_string()))?;
        let document = self.compile(generated.markup, data, &generated.images)?;
        if document.pages().len() > max_pages {
            return Err(RenderError::TooLong {
                pages: document.pages().len(),
                max: max_pages,
            });
        }
        let pages: Vec<(f64, f64)> = document
            .pages()
            .iter()
            .map(|p| (p.frame.width().to_pt(), p.frame.height().to_pt()))
            .collect();
        let fields = field_rects(&document, &generated.data.fields, &generated.fields)?;
        let pdf = export(&document, input.footer)?;
        let mut views = match views {
            Views::None => Vec::new(),
            Views::Text => pages::page_text(&document)
                .into_iter()
                .zip(&pages)
                .map(|(text, &size)| pages::PageView {
                    size,
                    images: Vec::new(),
                    text,
                })
                .collect(),
            Views::Pictures(widths) => {
                pages::page_views(&pdf, &document, widths).map_err(RenderError::Pictures)?
            }
        };
        // A file's pages are pictures to Typst: their words come from the file.
        if let Some(file) = &input.doc.file {
            for (view, runs) in views.iter_mut().zip(&file.text) {
                view.text.extend(runs.iter().map(|r| pages::TextRun {
                    x: r.x,
                    y: r.y,
                    width: r.width,
                    height: r.height,
                    size: r.size,
                    text: r.text.clone(),
                }));
            }
        }
        Ok(Rendered {
            pdf,
            pages,
            fields,
            views,
        })
    }

    /// How many pages a source lays out to, refusing one longer than `max_pages`: the
    /// layout alone, without the PDF or pictures, to refuse a send before it is answered.
    pub fn page_count(
        &self,
        input: &RenderInput<'_>,
        max_pages: usize,
    ) -> Result<usize, RenderError> {
        let generated = markup::generate(input);
        let data =
            serde_json::to_vec(&generated.data).map_err(|e| RenderError::Compile(e.to_string()))?;
        let pages = self
            .compile(generated.markup, data, &generated.images)?
            .pages()
            .len();
        if pages > max_pages {
            return Err(RenderError::TooLong {
                pages,
                max: max_pages,
            });
        }
        Ok(pages)
    }

    /// The laid-out pages of a source, before export: for tests that look at the glyphs.
    #[cfg(test)]
    pub(crate) fn layout(&self, input: &RenderInput<'_>) -> Result<PagedDocument, RenderError> {
        let generated = markup::generate(input);
        let data =
            serde_json::to_vec(&generated.data).map_err(|e| RenderError::Compile(e.to_string()))?;
        self.compile(generated.markup, data, &generated.images)
    }

    /// Compiles generated markup with its data file. Each document is different: the memo
    /// cache is kept from growing without bound.
    pub(crate) fn compile(
        &self,
        markup: String,
        data: Vec<u8>,
        images: &[Arc<[u8]>],
    ) -> Result<PagedDocument, RenderError> {
        let world = world::DocWorld::new(&self.shared, markup, data, images);
        let result = typst::compile::<PagedDocument>(&world).output;
        typst::comemo::evict(4);
        result.map_err(|errs| RenderError::Compile(messages(&errs)))
    }
}

fn messages(errs: &[typst::diag::SourceDiagnostic]) -> String {
    errs.iter()
        .map(|e| e.message.to_string())
        .collect::<Vec<_>>()
        .join("; ")
}

/// The PDF of a compiled document; `ident` names it in the file's identifier.
pub(crate) fn export(document: &PagedDocument, ident: &str) -> Result<Vec<u8>, RenderError> {
    let options = typst_pdf::PdfOptions {
        ident: Smart::Custom(ident.to_string()),
        creator: Smart::Custom(Some("Signet".to_string())),
        ..Default::default()
    };
    typst_pdf::pdf(document, &options).map_err(|errs| RenderError::Export(messages(&errs)))
}

fn field_rects(
    document: &PagedDocument,
    boxes: &[markup::FieldBox],
    fields: &[Field],
) -> Result<Vec<FieldRect>, RenderError> {
    let bad = || RenderError::Compile("field markers are missing".into());
    let label = Label::new(PicoStr::intern("signet-field")).ok_or_else(bad)?;
    let intro = document.introspector();
    let mut out: Vec<Option<FieldRect>> = vec![None; fields.len()];
    for c in intro.elements().query(&Selector::Label(label)) {
        let Some(meta) = c.to_packed::<MetadataElem>() else {
            continue;
        };
        let Value::Int(i) = meta.value else { continue };
        let i = i as usize;
        let (Some(loc), Some(b), Some(f)) = (c.location(), boxes.get(i), fields.get(i)) else {
            continue;
        };
        let Some(pos) = intro.position(loc) else {
            continue;
        };
        out[i] = Some(FieldRect {
            field: f.clone(),
            page: pos.page.get() as u32,
            x: round2(pos.point.x.to_pt()),
            y: round2(pos.point.y.to_pt()),
            width: b.w,
            height: b.h,
        });
    }
    out.into_iter().map(|r| r.ok_or_else(bad)).collect()
}

fn round2(v: f64) -> f64 {
    (v * 100.0).round() / 100.0
}
