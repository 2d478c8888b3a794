//! A draft as the domain holds it between parsing and writing: its words, people and
//! choices (`Draft`), its rows once written (`DraftRows`), and what the renderer is given for
//! it (`render_job`). Creating, sending and rendering all use these; none of them owns them.

use std::collections::BTreeMap;

use super::input::PersonRow;
use super::store::{self, DocRow};
use super::trail;
use super::types::{EmailOptionsIn, SendOptionsIn};
use crate::render::RenderJob;
use signet_core::metadata::Metadata;

/// A draft's words, people and choices, validated.
pub(crate) struct Draft {
    pub title: String,
    pub description: Option<String>,
    pub external_id: Option<String>,
    pub metadata: Metadata,
    pub source: serde_json::Value,
    pub doc: signet_source::Doc,
    pub people: Vec<PersonRow>,
    pub facts: BTreeMap<String, String>,
    pub variable_values: BTreeMap<String, String>,
    pub paper: String,
    pub profile: String,
    pub send: SendOptionsIn,
    pub email: EmailOptionsIn,
    pub template: Option<(String, i64)>,
}

/// A draft's rows as written, with the audit rows of its transaction still to be written.
pub(crate) struct DraftRows {
    pub doc: DocRow,
    pub people: Vec<store::PersonDbRow>,
    pub trail: trail::Trail,
}

/// What the renderer is given for a sent document: its words with every value merged, dated
/// the day it was sent.
pub(crate) fn render_job(doc: &DocRow, draft: &Draft, max_pages: usize) -> RenderJob {
    render_job_of(&doc.id, doc.sent_at, doc.test, draft, max_pages)
}

/// `render_job` of a document not written yet: `id` is printed at the foot of each page.
pub(crate) fn render_job_of(
    id: &str,
    sent_at: Option<i64>,
    test: bool,
    draft: &Draft,
    max_pages: usize,
) -> RenderJob {
    let mut values: BTreeMap<String, String> = draft.facts.clone();
    for (k, v) in &draft.variable_values {
        values.insert(format!("custom.{k}"), v.clone());
    }
    values.insert("document.title".into(), draft.title.clone());
    let sent = sent_at
        .and_then(chrono::DateTime::from_timestamp_millis)
        .unwrap_or_else(chrono::Utc::now);
    values.insert("document.date".into(), sent.format("%Y-%m-%d").to_string());
    let mut seat_names = BTreeMap::new();
    for p in &draft.people {
        values.insert(format!("{}.name", p.seat), p.name.clone());
        values.insert(format!("{}.email", p.seat), p.email.clone());
        seat_names.insert(p.seat.clone(), p.name.clone());
    }
    RenderJob {
        source: draft.doc.clone(),
        title: draft.title.clone(),
        footer: id.to_string(),
        paper: draft.paper.clone(),
        profile: draft.profile.clone(),
        test,
        lang: draft.send.language.clone().unwrap_or_else(|| "en".into()),
        values,
        seat_names,
        max_pages,
        page_text: true,
    }
}
