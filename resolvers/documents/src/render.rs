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
    /// A longer document fails to render, with its reason.
    pub max_pages: usize,
    /// Whether each page's text runs are collected for the signing page's text layer (its
    /// pictures are drawn afterwards from the stored file, by the pictures job).
    pub page_text: bool,
}

/// Widths of the signing page's pictures of a page: sharp on a phone (375 CSS pixels at 2×)
/// and on a large screen.
pub const PAGE_WIDTHS: [u32; 2] = [750, 1500];

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
    /// With `page_text`, one per page: its text runs as laid out,
    /// `[{x, y, width, height, size, text}]`, in points.
    pub text: Vec<serde_json::Value>,
}

/// One page of a stored PDF as the signing page shows it: its size in points and its PNG
/// pictures, one per width asked for.
pub struct PagePicture {
    pub size: (f64, f64),
    pub images: Vec<Vec<u8>>,
}

/// Why a render failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RenderFailure {
    /// The document itself cannot be rendered (too many pages, a page that cannot be shown
    /// to signers as it prints): the same words fail the same way, so no later try helps.
    Refused(String),
    /// Anything else: a later try may succeed.
    Broken(String),
}

impl RenderFailure {
    /// As a caller is told it: words that cannot be laid out are a 400 about `field`;
    /// anything else is ours, said with what we were `doing`.
    pub fn told(self, field: &str, doing: &str) -> signet_core::DomainError {
        match self {
            RenderFailure::Refused(e) => signet_core::DomainError::invalid(field, e),
            RenderFailure::Broken(e) => signet_core::DomainError::Internal(format!("{doing}: {e}")),
        }
    }
}

impl std::fmt::Display for RenderFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RenderFailure::Refused(m) | RenderFailure::Broken(m) => f.write_str(m),
        }
    }
}

pub trait DocRenderer: Send + Sync + 'static {
    /// CPU-bound; resolvers call it on the blocking pool.
    fn render(&self, job: &RenderJob) -> Result<RenderedDoc, RenderFailure>;
    /// How many pages `job` lays out to (`Refused` past `max_pages`), without the PDF or
    /// pictures; CPU-bound.
    fn page_count(&self, job: &RenderJob) -> Result<usize, RenderFailure>;
    /// Page `index` (from 0) of a stored PDF drawn as pictures at each of `widths`, with its
    /// size in points; fails when something on the page cannot be drawn. CPU-bound.
    fn picture(&self, pdf: &[u8], index: usize, widths: &[u32]) -> Result<PagePicture, String>;
    /// Transparent pages of the given sizes with the values drawn in; CPU-bound.
    fn values_layer(&self, pages: &[(f64, f64)], marks: &[ValueMark]) -> Result<Vec<u8>, String>;
    /// The certificate of completion as a PDF of its own; CPU-bound.
    fn certificate(&self, doc: &CertificateDoc) -> Result<Vec<u8>, String>;
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MarkKind {
    /// Typed signatures and initials.
    Signature,
    /// A drawn signature or initials: `strokes`, drawn as vector paths.
    Drawn,
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
    /// For `Drawn`: the pad's width and height, and each stroke's points in the pad's units.
    pub drawing: Option<Drawing>,
}

/// A signature drawn on the signing page's pad, or traced from an uploaded picture.
#[derive(Clone, Debug, Default)]
pub struct Drawing {
    pub width: f64,
    pub height: f64,
    /// Strokes drawn as lines, or (`filled`) closed outlines filled even-odd.
    pub strokes: Vec<Vec<(f64, f64)>>,
    pub filled: bool,
}

impl Drawing {
    /// A drawn value as the signing page stores it (`{"kind": "drawn", "width", "height",
    /// "strokes": [[[x, y, t], ...], ...]}`), or a traced one (`{"kind": "traced", ...,
    /// "paths": [[[x, y], ...], ...]}`); `None` for any other value.
    pub fn parse(value: &str) -> Option<Drawing> {
        let v: serde_json::Value = serde_json::from_str(value).ok()?;
        let (list, filled) = match v.get("kind")?.as_str()? {
            "drawn" => ("strokes", false),
            "traced" => ("paths", true),
            _ => return None,
        };
        let strokes = v
            .get(list)?
            .as_array()?
            .iter()
            .map(|s| {
                s.as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(|p| Some((p.get(0)?.as_f64()?, p.get(1)?.as_f64()?)))
                    .collect()
            })
            .collect();
        Some(Drawing {
            width: v.get("width")?.as_f64()?,
            height: v.get("height")?.as_f64()?,
            strokes,
            filled,
        })
    }
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

/// Threads that render sent documents in the background, one per core, under Linux's idle
/// scheduling class: they run only on CPU nothing else wants, and give way at once when a
/// request thread wakes. Under a load that fills every core the renders wait for it to ease,
/// and on a busy machine they also pace themselves ([`signet_queue::pacing`]); elsewhere they keep
/// the normal priority. Sealing renders a document it finds without a file on the blocking
/// pool instead (`documents::rendering::render_document`).
///
/// Two lanes: renders, which sealing and the held invitations wait for, and the signing
/// page's pictures of rendered pages, one page a task. A free thread takes the oldest render
/// first, and a page picture only when no render waits.
static BACKGROUND: std::sync::LazyLock<std::sync::Arc<Lanes>> = std::sync::LazyLock::new(|| {
    let lanes = std::sync::Arc::new(Lanes::default());
    let threads = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(2);
    for i in 0..threads {
        let theirs = lanes.clone();
        let spawned = std::thread::Builder::new()
            .name(format!(
                "{}-{i}",
                signet_queue::pacing::RENDER_THREAD_PREFIX
            ))
            .spawn(move || {
                lower_priority();
                while let Some(task) = theirs.next() {
                    signet_queue::pacing::run_paced(task);
                }
            });
        match spawned {
            Ok(_) => {
                lanes
                    .threads
                    .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            }
            Err(e) => tracing::error!(error = %e, "cannot start a render thread"),
        }
    }
    lanes
});

type Task = Box<dyn FnOnce() + Send + 'static>;

/// The render threads' two queues of tasks.
#[derive(Default)]
struct Lanes {
    queued: std::sync::Mutex<(
        std::collections::VecDeque<Task>,
        std::collections::VecDeque<Task>,
    )>,
    ready: std::sync::Condvar,
    /// Threads that started: with none, a task would wait for ever.
    threads: std::sync::atomic::AtomicUsize,
}

impl Lanes {
    fn push(&self, task: Task, later: bool) {
        let mut q = self
            .queued
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if later { &mut q.1 } else { &mut q.0 }.push_back(task);
        drop(q);
        self.ready.notify_one();
    }

    /// The next task, renders first; waits for one.
    fn next(&self) -> Option<Task> {
        let mut q = self
            .queued
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        loop {
            if let Some(task) = q.0.pop_front().or_else(|| q.1.pop_front()) {
                return Some(task);
            }
            q = self
                .ready
                .wait(q)
                .unwrap_or_else(std::sync::PoisonError::into_inner);
        }
    }
}

fn lower_priority() {
    #[cfg(target_os = "linux")]
    {
        use thread_priority::{
            NormalThreadSchedulePolicy, ThreadPriority, ThreadSchedulePolicy,
            set_thread_priority_and_policy, thread_native_id,
        };
        let idle = ThreadSchedulePolicy::Normal(NormalThreadSchedulePolicy::Idle);
        if let Err(e) =
            set_thread_priority_and_policy(thread_native_id(), ThreadPriority::Min, idle)
        {
            tracing::debug!(error = ?e, "render threads keep the normal priority");
        }
    }
}

/// Runs CPU-bound work on the background render threads and waits for it.
pub async fn in_background<T: Send + 'static>(
    work: impl FnOnce() -> T + Send + 'static,
) -> Result<T, String> {
    on_threads(work, false).await
}

/// As [`in_background`], taken only when no render waits: the signing page's pictures.
pub async fn in_background_later<T: Send + 'static>(
    work: impl FnOnce() -> T + Send + 'static,
) -> Result<T, String> {
    on_threads(work, true).await
}

async fn on_threads<T: Send + 'static>(
    work: impl FnOnce() -> T + Send + 'static,
    later: bool,
) -> Result<T, String> {
    if BACKGROUND
        .threads
        .load(std::sync::atomic::Ordering::Relaxed)
        == 0
    {
        return Err("the render threads are gone".into());
    }
    let (tx, rx) = tokio::sync::oneshot::channel();
    BACKGROUND.push(
        Box::new(move || {
            let out = std::panic::catch_unwind(std::panic::AssertUnwindSafe(work));
            let _ = tx.send(out);
        }),
        later,
    );
    match rx.await {
        Ok(Ok(out)) => Ok(out),
        Ok(Err(_)) => Err("rendering panicked".into()),
        Err(_) => Err("the render threads are gone".into()),
    }
}
