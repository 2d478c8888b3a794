//! `signet-pdf` behind the resolvers' `DocRenderer` seam.

use signet_pdf::{Labels, Paper, Profile, RenderInput, Renderer};
use signet_resolvers::render::{DocRenderer, Placement, RenderJob, RenderedDoc};

#[derive(Default)]
pub struct PdfRenderer(Renderer);

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
        let out = self.0.render(&input).map_err(|e| e.to_string())?;
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
