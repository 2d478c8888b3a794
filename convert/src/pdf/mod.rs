//! PDF templates: a PDF made safe, then its text tags found with their exact rectangles and
//! their glyphs taken out of the page's content.
//!
//! **Made safe** (lopdf): an encrypted file is refused. What could run or reach out goes: the
//! open action, document and page actions, JavaScript, attachments, bookmarks (their actions
//! can run scripts), the form (with XFA) and every existing signature. Annotations and form
//! fields are flattened: each one's visible appearance is drawn into the page, then the
//! annotations are dropped. Layers are dropped, so what shows is what prints.
//!
//! **Tags found** (hayro, the PDF interpreter Typst uses): each page is interpreted as a
//! viewer would, and every glyph's text and box is collected in drawing order, so fonts,
//! encodings, transforms and rotated pages are handled as a viewer handles them. Tags are read
//! from that text with the grammar of `signet_source::tags`.
//!
//! **Taken out** (lopdf): the page's text-showing operators are walked with their fonts, and
//! the codes of each tag are cut out of their strings. In their place goes a `TJ` adjustment
//! of exactly their advance, so every glyph after a tag stays where it was: the text around a
//! tag is untouched, and text extraction of the result no longer finds the tag.

mod cuts;
mod found;
mod glyphs;
mod limits;
mod safe;
mod vet;

pub use crate::cost::MAX_PAGE_OPERATIONS;
use lopdf::Document;
use signet_source::FileRun;
use std::collections::BTreeMap;

pub use found::PlacedTag;
pub(crate) use found::round;
pub(crate) use limits::MAX_ASPECT;
pub use limits::{MAX_FILE_OPERATIONS, PdfError};

use cuts::{Cuts, apply_cuts, plan_cuts};
use found::{find_tags, runs};
use glyphs::glyphs;
use limits::{MAX_GLYPHS, MAX_OBJECT_STREAMS, err};
use safe::{flatten_tree, make_safe};
#[cfg(test)]
pub(crate) use vet::operations_in;
use vet::vet;

#[derive(Debug)]
pub struct Prepared {
    /// The safe PDF, tags taken out.
    pub pdf: Vec<u8>,
    /// Each page's width and height in points, as shown.
    pub pages: Vec<(f64, f64)>,
    pub tags: Vec<PlacedTag>,
    /// Each page's words as drawn, tags left out, in runs along their lines.
    pub text: Vec<Vec<FileRun>>,
    /// What was removed or flattened, each said once with how many times.
    pub warnings: Vec<String>,
}

/// Makes `bytes` safe and takes its tags out. `max_pages` bounds the work before any page is
/// read.
pub fn prepare(bytes: &[u8], max_pages: usize) -> Result<Prepared, PdfError> {
    let mut warnings = BTreeMap::<String, usize>::new();
    let mut doc = load(bytes)?;
    flatten_tree(&mut doc)?;
    let pages = doc.get_pages();
    if pages.is_empty() {
        return Err(err("the PDF has no pages"));
    }
    if pages.len() > max_pages {
        return Err(err(format!(
            "the PDF has {} pages; at most {max_pages} are taken (max_pages)",
            pages.len()
        )));
    }
    make_safe(&mut doc, &mut warnings)?;
    // What was removed leaves the file, not only its references.
    doc.prune_objects();
    vet(&doc)?;
    let safe = save(&mut doc)?;
    // Where each glyph is, as a viewer draws it.
    let drawn = glyphs(&safe)?;
    if drawn.len() != pages.len() {
        return Err(err(
            "the PDF's pages cannot be read the same way twice; save it again and send it",
        ));
    }
    // The signing page draws each page 1,500 pixels wide: a page far taller than wide would
    // be a picture of hundreds of megabytes.
    if let Some(n) = drawn
        .iter()
        .position(|p| p.size.1 > p.size.0 * MAX_ASPECT || p.size.0 > p.size.1 * MAX_ASPECT)
    {
        return Err(err(format!(
            "page {} is more than {MAX_ASPECT} times as tall as it is wide, or as wide as it is \
             tall; split it into pages",
            n + 1
        )));
    }
    if drawn.iter().map(|p| p.glyphs.len()).sum::<usize>() >= MAX_GLYPHS {
        return Err(err(format!("the PDF draws more than {MAX_GLYPHS} letters")));
    }
    let mut placed = Vec::new();
    let mut cuts = Cuts::new();
    let mut text = Vec::with_capacity(drawn.len());
    for (n, (&number, &page_id)) in pages.iter().enumerate() {
        let Some(page) = drawn.get(n) else { break };
        let found = find_tags(&page.glyphs, number)?;
        text.push(runs(&page.glyphs, &found));
        if placed.len() + found.len() > crate::fields::MAX_TAGS {
            return Err(err(format!(
                "the PDF has more than {} text tags; a template takes at most that many",
                crate::fields::MAX_TAGS
            )));
        }
        if found.is_empty() {
            continue;
        }
        plan_cuts(&doc, page_id, number, &found, &page.glyphs, &mut cuts)?;
        placed.extend(found.into_iter().map(|f| f.placed));
    }
    apply_cuts(&mut doc, cuts)?;
    let pdf = if placed.is_empty() {
        safe
    } else {
        save(&mut doc)?
    };
    let mut said: Vec<String> = warnings
        .into_iter()
        .map(|(k, n)| if n > 1 { format!("{k} ({n})") } else { k })
        .collect();
    said.sort();
    Ok(Prepared {
        pdf,
        pages: drawn.iter().map(|p| p.size).collect(),
        text,
        tags: placed,
        warnings: said,
    })
}

fn load(bytes: &[u8]) -> Result<Document, PdfError> {
    if !bytes.starts_with(b"%PDF-")
        && !bytes[..bytes.len().min(1024)]
            .windows(5)
            .any(|w| w == b"%PDF-")
    {
        return Err(err("is not a PDF"));
    }
    if bytes.windows(7).filter(|w| w == b"/ObjStm").count() > MAX_OBJECT_STREAMS {
        return Err(err(format!(
            "the PDF has more than {MAX_OBJECT_STREAMS} object streams"
        )));
    }
    let options = lopdf::LoadOptions::with_max_decompressed_size(4 * 1024 * 1024);
    let doc = Document::load_mem_with_options(bytes, options).map_err(|e| {
        let m = e.to_string();
        if m.to_ascii_lowercase().contains("decrypt") || m.to_ascii_lowercase().contains("password") {
            err("the PDF is encrypted: save it again without a password or restrictions, then send it")
        } else {
            err(format!("the PDF cannot be read: {m}"))
        }
    })?;
    if doc.was_encrypted() || doc.is_encrypted() {
        return Err(err(
            "the PDF is encrypted: save it again without a password or restrictions, then send it",
        ));
    }
    Ok(doc)
}

fn save(doc: &mut Document) -> Result<Vec<u8>, PdfError> {
    let mut out = Vec::new();
    doc.save_to(&mut out)
        .map_err(|e| err(format!("the PDF could not be written again: {e}")))?;
    Ok(out)
}

/// The source of a template made from a prepared PDF kept at `blob`: its pages, and a field
/// at each tag's box (kept inside its page), named as every template's tags are.
pub fn template_source(p: &Prepared, blob: &str) -> Result<serde_json::Value, PdfError> {
    let written: Vec<crate::fields::Written> = p
        .tags
        .iter()
        .map(|t| crate::fields::Written {
            tag: t.tag.clone(),
            place: format!("page {}", t.page),
            text: t.text.clone(),
        })
        .collect();
    let attrs = crate::fields::field_attrs(&written).map_err(PdfError)?;
    let fields: Vec<serde_json::Value> = p
        .tags
        .iter()
        .zip(attrs)
        .map(|(t, mut a)| {
            let (pw, ph) = p.pages[t.page as usize - 1];
            let x = t.x.clamp(0.0, (pw - 1.0).max(0.0));
            let y = t.y.clamp(0.0, (ph - 1.0).max(0.0));
            a["page"] = serde_json::json!(t.page);
            a["x"] = serde_json::json!(x);
            a["y"] = serde_json::json!(y);
            a["width"] = serde_json::json!(t.width.min(pw - x).max(1.0));
            a["height"] = serde_json::json!(t.height.min(ph - y).max(1.0));
            a
        })
        .collect();
    let pages: Vec<[f64; 2]> = p.pages.iter().map(|(w, h)| [*w, *h]).collect();
    let text: Vec<Vec<serde_json::Value>> = p
        .text
        .iter()
        .map(|runs| {
            runs.iter()
                .map(|r| serde_json::json!({"x": r.x, "y": r.y, "width": r.width, "height": r.height, "size": r.size, "text": r.text}))
                .collect()
        })
        .collect();
    Ok(serde_json::json!({
        "type": "doc",
        "content": [],
        "file": {"blob": blob, "pages": pages, "fields": fields, "text": text}
    }))
}
