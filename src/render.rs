//! `signet-pdf` behind the resolvers' `DocRenderer` seam.

use signet_documents::render::{
    CertificateDoc, DocRenderer, MarkKind, PagePicture, Placement, RenderFailure, RenderJob,
    RenderedDoc, ValueMark,
};
use signet_pdf::{
    Certificate, CertificatePerson, Labels, Paper, PlacedValue, Profile, RenderInput, Renderer,
    ValueKind,
};

fn input_of(job: &RenderJob) -> RenderInput<'_> {
    RenderInput {
        doc: &job.source,
        title: &job.title,
        footer: &job.footer,
        paper: Paper::parse(&job.paper).unwrap_or(Paper::Letter),
        profile: Profile::parse(&job.profile).unwrap_or(Profile::Typeset),
        test: job.test,
        lang: &job.lang,
        values: &job.values,
        seat_names: &job.seat_names,
        labels: Labels::EN,
    }
}

/// What the resolvers are told of a failed render: whether the document itself decides it.
fn failure(e: signet_pdf::RenderError) -> RenderFailure {
    match e {
        // The words decide these: the same words fail the same way on every try.
        signet_pdf::RenderError::TooLong { .. }
        | signet_pdf::RenderError::Pictures(_)
        | signet_pdf::RenderError::Compile(_) => RenderFailure::Refused(e.to_string()),
        _ => RenderFailure::Broken(e.to_string()),
    }
}

/// The engine is built on the first render: parsing the embedded fonts costs about 50 MB
/// and a fraction of a second, which a process that never renders should not pay.
#[derive(Default)]
pub struct PdfRenderer(std::sync::OnceLock<Renderer>);

impl DocRenderer for PdfRenderer {
    fn page_count(&self, job: &RenderJob) -> Result<usize, RenderFailure> {
        self.engine()
            .page_count(&input_of(job), job.max_pages)
            .map_err(failure)
    }

    fn render(&self, job: &RenderJob) -> Result<RenderedDoc, RenderFailure> {
        let input = input_of(job);
        let engine = self.engine();
        let out = if job.page_text {
            engine.render_with_text(&input, job.max_pages)
        } else {
            engine.render_at_most(&input, job.max_pages)
        }
        .map_err(failure)?;
        Ok(RenderedDoc {
            pdf: out.pdf,
            pages: out.pages,
            fields: out
                .fields
                .into_iter()
                .map(|f| Placement {
                    field: f.field,
                    page: f.page,
                    x: f.x,
                    y: f.y,
                    width: f.width,
                    height: f.height,
                })
                .collect(),
            text: out
                .views
                .into_iter()
                .map(|v| serde_json::to_value(&v.text).unwrap_or_default())
                .collect(),
        })
    }

    fn picture(&self, pdf: &[u8], index: usize, widths: &[u32]) -> Result<PagePicture, String> {
        let view = signet_pdf::pages::picture(pdf, index, widths)?;
        Ok(PagePicture {
            size: view.size,
            images: view.images,
        })
    }

    fn values_layer(&self, pages: &[(f64, f64)], marks: &[ValueMark]) -> Result<Vec<u8>, String> {
        let values: Vec<PlacedValue> = marks
            .iter()
            .map(|m| PlacedValue {
                page: m.page,
                x: m.x,
                y: m.y,
                width: m.width,
                height: m.height,
                kind: match m.kind {
                    MarkKind::Signature => ValueKind::Signature,
                    MarkKind::Drawn => ValueKind::Drawn,
                    MarkKind::Check => ValueKind::Check,
                    MarkKind::Text => ValueKind::Text,
                },
                text: m.text.clone(),
                strokes: m
                    .drawing
                    .as_ref()
                    .map(|d| (d.width, d.height, d.strokes.clone())),
                filled: m.drawing.as_ref().is_some_and(|d| d.filled),
            })
            .collect();
        self.engine()
            .values_layer(pages, &values)
            .map_err(|e| e.to_string())
    }

    fn certificate(&self, doc: &CertificateDoc) -> Result<Vec<u8>, String> {
        let cert = Certificate {
            paper: Paper::parse(&doc.paper).unwrap_or(Paper::Letter),
            heading: doc.heading.clone(),
            test: doc.test,
            facts: doc.facts.clone(),
            people: doc
                .people
                .iter()
                .map(|(heading, lines)| CertificatePerson {
                    heading: heading.clone(),
                    lines: lines.clone(),
                })
                .collect(),
            events: doc.events.clone(),
            people_heading: doc.people_heading.clone(),
            events_heading: doc.events_heading.clone(),
        };
        self.engine().certificate(&cert).map_err(|e| e.to_string())
    }
}

impl PdfRenderer {
    fn engine(&self) -> &Renderer {
        self.0.get_or_init(Renderer::new)
    }
}
