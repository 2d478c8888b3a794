//! Making a template from an HTML page or a file (PDF, Office, picture): converted on a
//! bounded number of threads, a workspace's files one at a time.

use std::collections::BTreeMap;

use crate::input;
use signet_core::actor::{Actor, Scope};
use signet_core::answer::{Claim, Made};
use signet_core::{Ctx, DomainError, ids};

use super::made::{checked, checked_with, fields_placed};
use super::store::{Named, NewTemplate, insert, insert_with_id};
use super::types::*;

/// Conversions (HTML now; files later) running at once in this process: each takes a core
/// for up to a few hundred milliseconds, so more would only queue on the cores and slow
/// every other request. Past it a request waits its turn.
pub(super) fn conversions() -> &'static tokio::sync::Semaphore {
    static S: std::sync::OnceLock<tokio::sync::Semaphore> = std::sync::OnceLock::new();
    S.get_or_init(|| {
        tokio::sync::Semaphore::new(
            std::thread::available_parallelism()
                .map(|n| n.get())
                .unwrap_or(2),
        )
    })
}

/// How long a slow file waits for its turn before the caller is told to come back.
const SLOW_WAIT: std::time::Duration = std::time::Duration::from_secs(30);

/// Conversions that run another program for seconds (LibreOffice): half the cores, so a
/// burst of office files leaves the rest to every other request.
fn slow_conversions() -> &'static tokio::sync::Semaphore {
    static S: std::sync::OnceLock<tokio::sync::Semaphore> = std::sync::OnceLock::new();
    S.get_or_init(|| {
        tokio::sync::Semaphore::new(
            std::thread::available_parallelism()
                .map(|n| n.get() / 2)
                .unwrap_or(1)
                .max(1),
        )
    })
}

/// A workspace's one piece of slow work of a kind at a time (a file's conversion, a preview):
/// a second, while the first runs or waits, is told to come back, so one workspace's burst
/// never fills the queue another waits in.
pub(super) struct SlowTurn(&'static str, String);

impl SlowTurn {
    fn busy() -> &'static std::sync::Mutex<std::collections::HashSet<(&'static str, String)>> {
        static B: std::sync::OnceLock<
            std::sync::Mutex<std::collections::HashSet<(&'static str, String)>>,
        > = std::sync::OnceLock::new();
        B.get_or_init(Default::default)
    }

    /// The workspace's turn at `lane`, or a 429 saying `busy`.
    pub(super) fn take(
        lane: &'static str,
        workspace: &str,
        busy: &str,
    ) -> Result<SlowTurn, DomainError> {
        let mut taken = Self::busy().lock().unwrap_or_else(|p| p.into_inner());
        if !taken.insert((lane, workspace.to_string())) {
            return Err(DomainError::RateLimited {
                message: busy.into(),
                retry_after_secs: 2,
            });
        }
        Ok(SlowTurn(lane, workspace.to_string()))
    }
}

impl Drop for SlowTurn {
    fn drop(&mut self) {
        let mut taken = Self::busy().lock().unwrap_or_else(|p| p.into_inner());
        taken.remove(&(self.0, std::mem::take(&mut self.1)));
    }
}

const FILE_BUSY: &str = "another file of this workspace is being converted; send this one when \
                         it is done (one at a time)";

/// What makes the file a PDF first, when it is not one.
enum Maker {
    Pdf,
    Office(signet_convert::office::Office),
    Picture(signet_convert::picture::Ocr),
}

impl Maker {
    /// The maker of a file, from its bytes; refused when the machine has no converter for it.
    fn of(bytes: &[u8]) -> Result<Maker, DomainError> {
        use signet_convert::FileKind;
        Ok(match FileKind::sniff(bytes) {
            FileKind::Pdf => Maker::Pdf,
            FileKind::Text | FileKind::Sheet | FileKind::Slides | FileKind::OldOffice => {
                // Looked for once per process: the answer is the machine's.
                static FOUND: std::sync::OnceLock<Result<signet_convert::office::Office, String>> =
                    std::sync::OnceLock::new();
                let found = FOUND.get_or_init(signet_convert::office::Office::find);
                Maker::Office(found.clone().map_err(|e| DomainError::invalid("file", e))?)
            }
            FileKind::Picture => {
                static FOUND: std::sync::OnceLock<Result<signet_convert::picture::Ocr, String>> =
                    std::sync::OnceLock::new();
                let found = FOUND.get_or_init(signet_convert::picture::Ocr::find);
                Maker::Picture(found.clone().map_err(|e| DomainError::invalid("file", e))?)
            }
            FileKind::Unknown => {
                return Err(DomainError::invalid(
                    "file",
                    "is not a PDF, Word, Excel, PowerPoint or picture file (read from its bytes)",
                ));
            }
        })
    }

    /// The template's kind.
    fn kind(&self) -> &'static str {
        match self {
            Maker::Pdf => "pdf",
            Maker::Office(_) => "office",
            Maker::Picture(_) => "picture",
        }
    }

    /// The file made safe and a PDF, with what was taken out of it.
    fn prepare(
        self,
        bytes: Vec<u8>,
        max_pages: usize,
    ) -> Result<signet_convert::pdf::Prepared, DomainError> {
        let invalid = |e: signet_convert::pdf::PdfError| DomainError::invalid("file", e.0);
        Ok(match self {
            Maker::Pdf => signet_convert::pdf::prepare(&bytes, max_pages).map_err(invalid)?,
            Maker::Office(office) => {
                let cleaned = signet_convert::office::clean(&bytes).map_err(invalid)?;
                drop(bytes);
                let pdf = office.to_pdf(&cleaned).map_err(invalid)?;
                let mut prepared =
                    signet_convert::pdf::prepare(&pdf, max_pages).map_err(invalid)?;
                let mut warnings = cleaned.warnings;
                warnings.append(&mut prepared.warnings);
                prepared.warnings = warnings;
                prepared
            }
            Maker::Picture(ocr) => {
                signet_convert::picture::prepare(&bytes, &ocr).map_err(invalid)?
            }
        })
    }

    /// The turns a conversion holds: the workspace's one turn for files (a PDF too: a small
    /// one can cost seconds and hundreds of megabytes, so a workspace sends them one at a
    /// time) and one of the process's. Waiting for a slow turn is bounded: past it the caller
    /// is told to come back, rather than holding a connection behind other workspaces' files.
    async fn turns(
        &self,
        workspace: &str,
    ) -> Result<(tokio::sync::SemaphorePermit<'static>, SlowTurn), DomainError> {
        let slow = SlowTurn::take("file", workspace, FILE_BUSY)?;
        let turn = match self {
            Maker::Pdf => conversions().acquire().await,
            _ => tokio::time::timeout(SLOW_WAIT, slow_conversions().acquire())
                .await
                .map_err(|_| DomainError::RateLimited {
                    message: "the server is converting other files; send this one again shortly"
                        .into(),
                    retry_after_secs: 5,
                })?,
        }
        .map_err(|e| DomainError::Internal(format!("conversions: {e}")))?;
        Ok((turn, slow))
    }
}

/// The file's bytes, within the size taken.
fn decoded(file: &str) -> Result<Vec<u8>, DomainError> {
    use base64::Engine;
    if file.len() > MAX_FILE.div_ceil(3) * 4 + 4 {
        return Err(DomainError::invalid(
            "file",
            format!("is larger than {MAX_FILE} bytes (10 MB)"),
        ));
    }
    base64::engine::general_purpose::STANDARD
        .decode(file.trim())
        .map_err(|_| DomainError::invalid("file", "is not valid base64"))
}

/// The paper a file's template names: its pages keep their own sizes, and the paper says
/// which the first one is.
fn paper_of(pages: &[(f64, f64)]) -> String {
    match pages.first() {
        Some((w, h)) if (w - 595.28).abs() < 3.0 && (h - 841.89).abs() < 3.0 => "a4",
        _ => "letter",
    }
    .into()
}

/// POST /templates/file: a PDF made safe, its text tags found and taken out, kept as the
/// template's pages with a field at each tag's place.
pub async fn create_file(
    ctx: &Ctx,
    actor: &Actor,
    body: TemplateFileIn,
    claim: Option<&Claim>,
) -> Result<Made<TemplateOut>, DomainError> {
    actor.require(Scope::TemplatesWrite)?;
    signet_core::rules::check(&body)?;
    let named = Named::parse(&body.name, body.metadata.as_ref(), &body.external_id)?;
    let bytes = decoded(&body.file)?;
    drop(body.file);
    let maker = Maker::of(&bytes)?;
    let template_kind = maker.kind();
    let facts = crate::facts_for(ctx, actor, BTreeMap::new()).await?;
    let id = ids::new_id("tpl");
    let blob = crate::blob_keys::template_file(&id, 1);
    let max_pages = crate::services(ctx).max_pages;
    // The turns go with the work, as for HTML.
    let turns = maker.turns(&actor.workspace_id).await?;
    let key = blob.clone();
    let later = body.place_fields == Some(true);
    let work = move || -> Result<_, DomainError> {
        let _turns = turns;
        let prepared = maker.prepare(bytes, max_pages)?;
        let source = signet_convert::pdf::template_source(&prepared, &key)
            .map_err(|e| DomainError::invalid("file", e.0))?;
        let (doc, report) = checked_with(
            "file",
            &source,
            facts,
            (!later).then_some(
                "the file has no text tag such as {{Signature;type=signature;role=client}}",
            ),
        )?;
        Ok((prepared, source, doc, report))
    };
    let (prepared, source, doc, report) = signet_core::blocking(work)
        .await
        .map_err(|e| DomainError::Internal(format!("preparing a PDF: {e}")))??;
    let fields = fields_placed(
        &report.fields,
        doc.file
            .iter()
            .flat_map(|f| &f.fields)
            .map(|p| (p.field.name.as_str(), (p.page, p.x, p.y, p.width, p.height))),
    );
    // The file is kept before the row that names it is written; a failed write removes it.
    ctx.blobs.put(&blob, prepared.pdf).await?;
    let new = NewTemplate {
        kind: template_kind,
        named,
        source: source.to_string(),
        paper: paper_of(&prepared.pages),
        profile: "plain".into(),
        report,
        fields,
        warnings: prepared.warnings,
        pages: Some(prepared.pages.len() as i64),
    };
    let made = insert_with_id(ctx, actor, claim, id, new).await;
    if made.is_err()
        && let Err(e) = ctx.blobs.delete(&blob).await
    {
        tracing::warn!(blob, error = %e, "removing a failed template's file failed");
    }
    made
}

/// POST /templates/html: the page cleaned and turned into the source model, laid out once on
/// its paper so that each field has its page and rectangle.
pub async fn create_html(
    ctx: &Ctx,
    actor: &Actor,
    body: TemplateHtmlIn,
    claim: Option<&Claim>,
) -> Result<Made<TemplateOut>, DomainError> {
    actor.require(Scope::TemplatesWrite)?;
    signet_core::rules::check(&body)?;
    let named = Named::parse(&body.name, body.metadata.as_ref(), &body.external_id)?;
    let (paper, _) = input::paper_and_profile(body.paper, None)?;
    let max = MAX_HTML;
    if body.html.len() > max {
        return Err(DomainError::invalid(
            "html",
            format!(
                "is {} bytes; at most {max} (2 MB) are taken",
                body.html.len()
            ),
        ));
    }
    if body.html.trim().is_empty() {
        return Err(DomainError::invalid("html", "is empty"));
    }
    let facts = crate::facts_for(ctx, actor, BTreeMap::new()).await?;
    let renderer = crate::services(ctx).renderer.clone();
    let max_pages = crate::services(ctx).max_pages;
    let (html, title, paper_for) = (body.html, named.name.clone(), paper.clone());
    // The turn goes with the work: a caller who hangs up does not end the conversion, so
    // it must not free a turn the conversion still takes.
    let turn = conversions()
        .acquire()
        .await
        .map_err(|e| DomainError::Internal(format!("conversions: {e}")))?;
    let work = move || -> Result<_, DomainError> {
        let _turn = turn;
        let converted =
            signet_convert::html::convert(&html).map_err(|e| DomainError::invalid("html", e.0))?;
        drop(html);
        let (doc, report) = checked(
            "html",
            &converted.source,
            facts,
            "write a text tag such as {{Signature;type=signature;role=client}}",
        )?;
        let rendered = renderer
            .render(&crate::render::RenderJob {
                source: doc,
                title,
                footer: String::new(),
                paper: paper_for,
                profile: "plain".into(),
                test: false,
                lang: "en".into(),
                values: BTreeMap::new(),
                seat_names: BTreeMap::new(),
                max_pages,
                page_text: false,
            })
            .map_err(|e| e.told("html", "laying out an HTML template"))?;
        Ok((converted, report, rendered.fields, rendered.pages.len()))
    };
    let (converted, report, placed, pages) = signet_core::blocking(work)
        .await
        .map_err(|e| DomainError::Internal(format!("converting HTML: {e}")))??;
    let fields = fields_placed(
        &report.fields,
        placed
            .iter()
            .map(|p| (p.field.name.as_str(), (p.page, p.x, p.y, p.width, p.height))),
    );
    insert(
        ctx,
        actor,
        claim,
        NewTemplate {
            kind: "html",
            named,
            source: converted.source.to_string(),
            paper,
            profile: "plain".into(),
            report,
            fields,
            warnings: converted.warnings,
            pages: Some(pages as i64),
        },
    )
    .await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_workspace_converts_one_slow_file_at_a_time_and_others_are_not_held() {
        let first = SlowTurn::take("file", "ws_a", FILE_BUSY).unwrap();
        match SlowTurn::take("file", "ws_a", FILE_BUSY) {
            Err(DomainError::RateLimited {
                retry_after_secs, ..
            }) => assert_eq!(retry_after_secs, 2),
            other => panic!("{:?}", other.map(|_| ())),
        }
        let other = SlowTurn::take("file", "ws_b", FILE_BUSY).unwrap();
        // Another kind of work of the same workspace has its own turn.
        let preview = SlowTurn::take("preview", "ws_a", "busy").unwrap();
        drop(preview);
        drop(first);
        let again = SlowTurn::take("file", "ws_a", FILE_BUSY).unwrap();
        drop((other, again));
    }
}
