//! Templates: a workspace's reusable documents. This part makes them from words (the same
//! source model, checks and rendering as documents), reads and lists them, keeps their
//! defaults, and makes documents from them: `POST /templates/{id}/documents` (answers to the
//! template's questions, a draft unless `sendNow`) and `POST /documents/send` (one party per
//! seat, sent at once). Templates belong to the workspace and serve test and live keys alike;
//! the documents made from them keep the key's mode and remember the template and version.
//!
//! Versions: a template keeps each version's words (`template_versions`); only the newest is
//! current. A template made through a draft-only key is not listed for sending until a
//! person approves it.

mod files;
mod made;
mod sending;
mod store;
mod types;
mod versions;

pub use files::{create_file, create_html};
pub use made::create_source;
pub(crate) use sending::decide;
pub use sending::{make_document, send, set_defaults};
pub use store::{get, list};
pub use types::*;
pub use versions::{
    PREVIEW_PAGES, PreviewFieldOut, PreviewPageOut, TemplatePreviewIn, TemplatePreviewOut,
    TemplateSourceOut, TemplateVersionIn, draft_pages, new_version, page, preview, source,
};
