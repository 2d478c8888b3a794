//! `signet-pdf` behind the resolvers' `DocRenderer` seam.

use signet_pdf::{Labels, Paper, Profile, RenderInput, Renderer};
use signet_resolvers::render::{DocRenderer, Placement, RenderJob, RenderedDoc};

/// The engine is built on the first render: parsing the embedded fonts costs about 50 MB
/// and a fraction of a second, which a process that never renders should not pay.
#[derive(Default)]
pub struct PdfRenderer(std::sync::OnceLock<Renderer>);

impl DocRenderer for PdfRenderer {
    fn render(&self, job: &RenderJob) -> Result<RenderedDoc, String> {
        let input = RenderInput {
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
        };
        let out = self
            .0
            .get_or_init(Renderer::new)
            .render(&input)
            .map_err(|e| e.to_string())?;
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
        })
    }
}
