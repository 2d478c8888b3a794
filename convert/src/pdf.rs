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

use std::collections::BTreeMap;

use hayro_interpret::hayro_syntax::Pdf;
use hayro_interpret::{
    BlendMode, ClipPath, Context, Device, GlyphDrawMode, Image, InterpreterCache,
    InterpreterSettings, InterpreterWarning, Paint, PathDrawMode, SoftMask, TransformExt,
    interpret_page,
};
use kurbo::{Affine, BezPath, Point, Rect};
use lopdf::content::{Content, Operation};
use lopdf::{Dictionary, Document, Object, ObjectId};
use signet_source::FileRun;
use signet_source::tags::{self, Tag};

pub use crate::cost::MAX_PAGE_OPERATIONS;
use crate::cost::{MAX_FILE_PIXELS, Tally};
use crate::fields::short;

/// The most a page's content may decode to: a small stream that inflates past it is a bomb.
const MAX_CONTENT: usize = 32 * 1024 * 1024;
/// Every stream but pictures, decoded, all together at most this; each at most `MAX_CONTENT`.
const MAX_DECODED: usize = 128 * 1024 * 1024;
/// Object streams (each at most 4 MB decoded when the file is read) a file may have.
const MAX_OBJECT_STREAMS: usize = 256;
/// A picture's pixels: what a page's render may decode.
const MAX_PICTURE_PIXELS: u64 = 40_000_000;
/// Drawings (form XObjects) drawn, counting each time one draws another.
const MAX_FORM_USES: u64 = 20_000;
/// Glyphs drawn in the whole file.
const MAX_GLYPHS: usize = 2_000_000;
/// How many times taller than wide (or wider than tall) a page may be.
pub(crate) const MAX_ASPECT: f64 = 20.0;
/// Instructions the whole file runs, counted the same way.
pub const MAX_FILE_OPERATIONS: u64 = 3_000_000;

/// Why a PDF cannot be a template, said to its sender.
#[derive(Debug, PartialEq)]
pub struct PdfError(pub String);

impl std::fmt::Display for PdfError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

fn err(m: impl Into<String>) -> PdfError {
    PdfError(m.into())
}

/// One tag where it was written: its page (from 1) and the box its glyphs took, in points
/// from the page's top-left corner as the page is shown (rotation applied).
#[derive(Clone, Debug)]
pub struct PlacedTag {
    pub tag: Tag,
    /// The tag as written, for messages.
    pub text: String,
    pub page: u32,
    pub x: f64,
    pub y: f64,
    pub width: f64,
    pub height: f64,
}

impl PlacedTag {
    /// A tag at its box `(x0, y0, x1, y1)` in points, to the hundredth; a size the tag
    /// states wins over its box's.
    pub(crate) fn at(
        tag: Tag,
        text: String,
        page: u32,
        (x0, y0, x1, y1): (f64, f64, f64, f64),
    ) -> Self {
        PlacedTag {
            width: tag.width.unwrap_or(round(x1 - x0)),
            height: tag.height.unwrap_or(round(y1 - y0)),
            tag,
            text,
            page,
            x: round(x0),
            y: round(y0),
        }
    }
}

/// To the hundredth of a point.
pub(crate) fn round(v: f64) -> f64 {
    (v * 100.0).round() / 100.0
}

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

/// Makes the page tree one level: every page a child of one `Pages`, with what it inherited
/// (resources, boxes, rotation) written on it. A tree that loops or fans out to more pages
/// than it counts is read once, here, in the order lopdf finds the pages.
fn flatten_tree(doc: &mut Document) -> Result<(), PdfError> {
    // A page object listed twice (a tree that loops) is one page.
    let mut pages: Vec<ObjectId> = Vec::new();
    let mut seen = std::collections::BTreeSet::new();
    for id in doc.get_pages().into_values() {
        if seen.insert(id) {
            pages.push(id);
        }
    }
    for &page in &pages {
        for key in [&b"Resources"[..], b"MediaBox", b"CropBox", b"Rotate"] {
            let Ok(dict) = doc.get_dictionary(page) else {
                continue;
            };
            if dict.has(key) {
                continue;
            }
            let mut parent = dict.get(b"Parent").and_then(Object::as_reference).ok();
            let mut found = None;
            for _ in 0..64 {
                let Some(pid) = parent else { break };
                let Ok(p) = doc.get_dictionary(pid) else {
                    break;
                };
                if let Ok(v) = p.get(key) {
                    found = Some(v.clone());
                    break;
                }
                parent = p.get(b"Parent").and_then(Object::as_reference).ok();
            }
            if let Some(v) = found
                && let Ok(d) = doc.get_object_mut(page).and_then(Object::as_dict_mut)
            {
                d.set(key, v);
            }
        }
    }
    let root = doc.new_object_id();
    for &page in &pages {
        if let Ok(d) = doc.get_object_mut(page).and_then(Object::as_dict_mut) {
            d.set("Parent", root);
        }
    }
    let kids: Vec<Object> = pages.iter().map(|p| Object::Reference(*p)).collect();
    let mut tree = Dictionary::new();
    tree.set("Type", Object::Name(b"Pages".to_vec()));
    tree.set("Count", pages.len() as i64);
    tree.set("Kids", kids);
    doc.objects.insert(root, Object::Dictionary(tree));
    doc.catalog_mut()
        .map_err(|e| err(format!("the PDF has no catalog: {e}")))?
        .set("Pages", root);
    Ok(())
}

/// Bounds what reading the file can cost, before anything draws it: every stream decodes
/// within a shared budget (pictures are counted by their pixels instead), every drawing's
/// instructions parse, and drawings drawing drawings stay few.
fn vet(doc: &Document) -> Result<(), PdfError> {
    let mut budget = MAX_DECODED;
    let big = || {
        err(format!(
            "the PDF decodes to more than {} MB",
            MAX_DECODED >> 20
        ))
    };
    // Type 3 letters' instructions, run whenever a letter is shown.
    let letters: std::collections::BTreeSet<ObjectId> = doc
        .objects
        .values()
        .filter_map(|o| o.as_dict().ok())
        .filter(|d| name_of(d.get(b"Subtype").ok()).as_deref() == Some("Type3"))
        .filter_map(|d| d.get(b"CharProcs").ok())
        .filter_map(|c| doc.dereference(c).ok())
        .filter_map(|(_, c)| c.as_dict().ok())
        .flat_map(|c| c.iter().filter_map(|(_, v)| v.as_reference().ok()))
        .collect();
    for (id, obj) in &doc.objects {
        let Object::Stream(s) = obj else { continue };
        let subtype = name_of(s.dict.get(b"Subtype").ok());
        if subtype.as_deref() == Some("Image") {
            let side = |k: &[u8]| s.dict.get(k).and_then(Object::as_i64).unwrap_or(0);
            let (w, h) = (side(b"Width"), side(b"Height"));
            if w <= 0 || h <= 0 || w as u64 * h as u64 > MAX_PICTURE_PIXELS {
                return Err(err(format!(
                    "a picture in the PDF is {w} × {h} pixels; at most {} million are taken",
                    MAX_PICTURE_PIXELS / 1_000_000
                )));
            }
            continue;
        }
        match s.decompressed_content_with_limit(budget.min(MAX_CONTENT)) {
            Ok(data) => {
                budget = budget.checked_sub(data.len()).ok_or_else(big)?;
                if letters.contains(id) {
                    operations_in(&data, "a Type 3 letter")?;
                } else if s.dict.get(b"PatternType").and_then(Object::as_i64).ok() == Some(1) {
                    operations_in(&data, "a tiling pattern")?;
                } else if subtype.as_deref() == Some("Form") {
                    // Counted before it is parsed: parsing holds every instruction at once.
                    operations_in(&data, "a drawing (form XObject)")?;
                    Content::decode(&data)
                        .map_err(|e| err(format!("a drawing in the PDF cannot be read: {e}")))?;
                }
            }
            // Past the smaller of the two limits: the message names the one it was.
            Err(lopdf::Error::Decompress(_)) if budget >= MAX_CONTENT => {
                return Err(err(format!(
                    "a stream in the PDF decodes to more than {} MB",
                    MAX_CONTENT >> 20
                )));
            }
            Err(lopdf::Error::Decompress(_)) => return Err(big()),
            // A stream lopdf cannot decode (a filter it lacks) is left to the viewer.
            Err(_) => {}
        }
    }
    let mut uses = 0u64;
    let mut operations = 0u64;
    let mut memo = BTreeMap::new();
    for (number, page) in doc.get_pages() {
        let data = doc
            .get_page_content_with_limit(page, MAX_CONTENT)
            .map_err(|_| big())?;
        let own = operations_in(&data, &format!("page {number}"))?;
        let content = Content::decode(&data)
            .map_err(|e| err(format!("page {number}'s content cannot be read: {e}")))?;
        drop(data);
        let resources = doc
            .get_dictionary(page)
            .ok()
            .and_then(|d| d.get(b"Resources").ok());
        let cost = drawn_forms(
            doc,
            &content.operations,
            (resources, page),
            &mut memo,
            &mut Vec::new(),
        )?;
        uses += cost.uses;
        if uses > MAX_FORM_USES {
            return Err(err(format!(
                "the PDF draws its drawings (form XObjects) more than {MAX_FORM_USES} times"
            )));
        }
        let page_ops = own.saturating_add(cost.operations);
        if page_ops > MAX_PAGE_OPERATIONS {
            return Err(too_many_operations(&format!("page {number}")));
        }
        operations = operations.saturating_add(page_ops);
        if operations > MAX_FILE_OPERATIONS {
            return Err(err(format!(
                "the PDF's pages run more than {MAX_FILE_OPERATIONS} drawing instructions in \
                 all; print it to PDF again, or split it"
            )));
        }
    }
    Ok(())
}

fn too_many_operations(what: &str) -> PdfError {
    err(format!(
        "{what} of the PDF runs more than {MAX_PAGE_OPERATIONS} drawing instructions, the most \
         a page may, so that every signer's picture of it is drawn in full (flatten the page \
         or print it to PDF again)"
    ))
}

/// How many instructions (operators) a content stream holds, counted by a scan that keeps
/// nothing and never recurses (however deep its arrays nest); past `MAX_PAGE_OPERATIONS` it
/// stops and refuses the file. Strings, names, numbers and inline pictures' bytes are
/// skipped as a parser would; what it cannot make sense of is left to the parser after it.
pub(crate) fn operations_in(data: &[u8], what: &str) -> Result<u64, PdfError> {
    let regular = |c: u8| {
        !matches!(
            c,
            b'\0'
                | b'\t'
                | b'\n'
                | b'\x0c'
                | b'\r'
                | b' '
                | b'('
                | b')'
                | b'<'
                | b'>'
                | b'['
                | b']'
                | b'{'
                | b'}'
                | b'/'
                | b'%'
        )
    };
    let white = |c: u8| matches!(c, b'\0' | b'\t' | b'\n' | b'\x0c' | b'\r' | b' ');
    let (mut n, mut i, len) = (0u64, 0usize, data.len());
    // Whether a `BI` opened an inline picture whose `ID` has not come yet.
    let mut inline = false;
    while i < len {
        match data[i] {
            b'%' => {
                while i < len && data[i] != b'\n' && data[i] != b'\r' {
                    i += 1;
                }
            }
            b'(' => {
                let mut depth = 0usize;
                while i < len {
                    match data[i] {
                        b'\\' => i += 1,
                        b'(' => depth += 1,
                        b')' => {
                            depth -= 1;
                            if depth == 0 {
                                break;
                            }
                        }
                        _ => {}
                    }
                    i += 1;
                }
                i += 1;
            }
            b'<' if data.get(i + 1) == Some(&b'<') => i += 2,
            b'<' => {
                while i < len && data[i] != b'>' {
                    i += 1;
                }
                i += 1;
            }
            b'/' => {
                i += 1;
                while i < len && regular(data[i]) {
                    i += 1;
                }
            }
            c if regular(c) => {
                let start = i;
                while i < len && regular(data[i]) {
                    i += 1;
                }
                let word = &data[start..i];
                let operand = word[0].is_ascii_digit()
                    || matches!(word[0], b'+' | b'-' | b'.')
                    || matches!(word, b"true" | b"false" | b"null");
                if operand {
                    continue;
                }
                n += 1;
                if n > MAX_PAGE_OPERATIONS {
                    return Err(too_many_operations(what));
                }
                // An inline picture's bytes run from one white space after the `ID` of a `BI`
                // to the first `EI` followed by white space (the shortest reading: a skip can
                // only make the count larger, never hide instructions). A lone `ID` is an
                // instruction like any other.
                if word == b"BI" {
                    inline = true;
                } else if word == b"ID" && inline {
                    inline = false;
                    i += 1;
                    while i + 1 < len
                        && !(data[i] == b'E'
                            && data[i + 1] == b'I'
                            && data.get(i + 2).is_none_or(|&c| white(c)))
                    {
                        i += 1;
                    }
                }
            }
            _ => i += 1,
        }
    }
    Ok(n)
}

/// What drawing a content stream's drawings (form XObjects) costs: how many are drawn, and
/// how many instructions they run, each counted every time it is drawn.
#[derive(Clone, Copy, Default)]
struct Cost {
    uses: u64,
    operations: u64,
}

/// How many drawings `ops` draws, counting the drawings they draw in turn. `resources` are
/// the names `ops` draws by, with the page or drawing they belong to: a drawing without
/// resources of its own draws by its caller's, so what it costs is remembered per caller.
fn drawn_forms(
    doc: &Document,
    ops: &[Operation],
    (resources, owner): (Option<&Object>, ObjectId),
    memo: &mut BTreeMap<(ObjectId, Option<ObjectId>), Cost>,
    open: &mut Vec<ObjectId>,
) -> Result<Cost, PdfError> {
    let forms = resources
        .and_then(|r| doc.dereference(r).ok())
        .and_then(|(_, r)| r.as_dict().ok())
        .and_then(|r| r.get(b"XObject").ok())
        .and_then(|x| doc.dereference(x).ok())
        .and_then(|(_, x)| x.as_dict().ok());
    let mut total = Cost::default();
    for op in ops.iter().filter(|o| o.operator == "Do") {
        let Some(id) = op
            .operands
            .first()
            .and_then(|n| n.as_name().ok())
            .and_then(|n| forms?.get(n).ok())
            .and_then(|r| r.as_reference().ok())
        else {
            continue;
        };
        let Ok(Object::Stream(s)) = doc.get_object(id) else {
            continue;
        };
        if name_of(s.dict.get(b"Subtype").ok()).as_deref() != Some("Form") {
            continue;
        }
        let own = s.dict.get(b"Resources").ok();
        let key = (id, own.is_none().then_some(owner));
        let inner = match memo.get(&key) {
            Some(n) => *n,
            None => {
                if open.contains(&id) || open.len() >= 32 {
                    return Err(err(
                        "the PDF's drawings draw each other in a loop or too deep",
                    ));
                }
                open.push(id);
                let data = s
                    .decompressed_content_with_limit(MAX_CONTENT)
                    .map_err(|_| err("a drawing in the PDF cannot be read"))?;
                let own_ops = operations_in(&data, "a drawing (form XObject)")?;
                let content = Content::decode(&data)
                    .map_err(|e| err(format!("a drawing in the PDF cannot be read: {e}")))?;
                let by = match own {
                    Some(r) => (Some(r), id),
                    None => (resources, owner),
                };
                let inner = drawn_forms(doc, &content.operations, by, memo, open)?;
                open.pop();
                let n = Cost {
                    uses: inner.uses,
                    operations: own_ops.saturating_add(inner.operations),
                };
                memo.insert(key, n);
                n
            }
        };
        total.uses = total.uses.saturating_add(1).saturating_add(inner.uses);
        total.operations = total.operations.saturating_add(inner.operations);
        if total.operations > MAX_PAGE_OPERATIONS {
            return Err(too_many_operations("a page"));
        }
        if total.uses > MAX_FORM_USES {
            return Err(err(format!(
                "the PDF draws its drawings (form XObjects) more than {MAX_FORM_USES} times"
            )));
        }
    }
    Ok(total)
}

fn save(doc: &mut Document) -> Result<Vec<u8>, PdfError> {
    let mut out = Vec::new();
    doc.save_to(&mut out)
        .map_err(|e| err(format!("the PDF could not be written again: {e}")))?;
    Ok(out)
}

fn warn(w: &mut BTreeMap<String, usize>, what: &str) {
    *w.entry(what.to_string()).or_default() += 1;
}

/// Removes what could run or reach out, and flattens annotations and forms.
fn make_safe(doc: &mut Document, w: &mut BTreeMap<String, usize>) -> Result<(), PdfError> {
    let catalog = doc
        .catalog_mut()
        .map_err(|e| err(format!("the PDF has no catalog: {e}")))?;
    for (key, what) in [
        (&b"OpenAction"[..], "the action run on opening removed"),
        (b"AA", "document actions removed"),
        (
            b"Names",
            "JavaScript, attachments and named destinations removed",
        ),
        (b"Outlines", "bookmarks removed"),
        (b"OCProperties", "layers flattened"),
        (b"Perms", "existing signatures removed"),
        (b"DSS", "existing signatures removed"),
        (b"URI", "document actions removed"),
        (b"Collection", "attachments removed"),
        (b"AF", "attachments removed"),
    ] {
        if catalog.remove(key).is_some() {
            warn(w, what);
        }
    }
    let had_form = catalog.remove(b"AcroForm");
    if let Some(form) = &had_form
        && let Ok(d) = doc.dereference(form).and_then(|(_, o)| o.as_dict())
        && d.has(b"XFA")
    {
        warn(w, "an XFA form removed");
    }
    let pages: Vec<ObjectId> = doc.get_pages().values().copied().collect();
    for page_id in pages {
        flatten_page(doc, page_id, w)?;
    }
    Ok(())
}

/// Draws each visible annotation's appearance into its page and drops the annotations, and
/// drops the page's own actions.
fn flatten_page(
    doc: &mut Document,
    page_id: ObjectId,
    w: &mut BTreeMap<String, usize>,
) -> Result<(), PdfError> {
    let annots: Vec<Object> = {
        let page = doc
            .get_dictionary(page_id)
            .map_err(|e| err(format!("a page cannot be read: {e}")))?;
        match page.get(b"Annots") {
            Ok(a) => match doc.dereference(a) {
                Ok((_, Object::Array(items))) => items.clone(),
                _ => Vec::new(),
            },
            Err(_) => Vec::new(),
        }
    };
    let mut draws = String::new();
    let mut forms: Vec<(String, ObjectId)> = Vec::new();
    for (i, a) in annots.iter().enumerate() {
        let Ok((_, Object::Dictionary(annot))) = doc.dereference(a) else {
            continue;
        };
        let subtype = name_of(annot.get(b"Subtype").ok());
        let flags = annot.get(b"F").and_then(Object::as_i64).unwrap_or(0);
        let field_type = field_type_of(doc, annot);
        match subtype.as_deref() {
            Some("Link") => {
                warn(w, "links removed");
                continue;
            }
            Some("Popup") => continue,
            Some("Widget") if field_type.as_deref() == Some("Sig") => {
                warn(w, "existing signatures removed");
                continue;
            }
            _ => {}
        }
        // Hidden or not shown on screen: nothing to draw.
        if flags & (2 | 32) != 0 {
            continue;
        }
        let Some((form_id, bbox, matrix)) = appearance(doc, annot) else {
            if subtype.as_deref() == Some("Widget") {
                warn(w, "form fields without an appearance removed");
            }
            continue;
        };
        let Some(rect) = rect_of(doc, annot.get(b"Rect").ok()) else {
            continue;
        };
        // The appearance's box, through its matrix, is fitted to the annotation's rectangle.
        let shown = matrix.transform_rect_bbox(bbox);
        if shown.width() <= 0.0 || shown.height() <= 0.0 {
            continue;
        }
        let fit = Affine::translate((rect.x0, rect.y0))
            * Affine::scale_non_uniform(
                rect.width() / shown.width(),
                rect.height() / shown.height(),
            )
            * Affine::translate((-shown.x0, -shown.y0));
        let c = fit.as_coeffs();
        if !c.iter().all(|v| v.is_finite()) {
            continue;
        }
        let name = format!("SignetFlat{i}");
        draws.push_str(&format!(
            "q {} {} {} {} {} {} cm /{name} Do Q\n",
            num(c[0]),
            num(c[1]),
            num(c[2]),
            num(c[3]),
            num(c[4]),
            num(c[5])
        ));
        forms.push((name, form_id));
        warn(
            w,
            if subtype.as_deref() == Some("Widget") {
                "form fields flattened"
            } else {
                "annotations flattened"
            },
        );
    }
    let page = doc
        .get_object_mut(page_id)
        .and_then(Object::as_dict_mut)
        .map_err(|e| err(format!("a page cannot be changed: {e}")))?;
    if page.remove(b"AA").is_some() {
        warn(w, "page actions removed");
    }
    page.remove(b"Annots");
    if draws.is_empty() {
        return Ok(());
    }
    for (name, id) in &forms {
        doc.add_xobject(page_id, name.as_bytes(), *id)
            .map_err(|e| err(format!("flattening a page: {e}")))?;
    }
    // The page's own drawing, in a saved state of its own, then the appearances on top.
    let old = doc
        .get_page_content_with_limit(page_id, MAX_CONTENT)
        .map_err(|e| err(format!("a page's content cannot be read: {e}")))?;
    let mut content = b"q\n".to_vec();
    content.extend_from_slice(&old);
    content.extend_from_slice(b"\nQ\n");
    content.extend_from_slice(draws.as_bytes());
    doc.change_page_content(page_id, content)
        .map_err(|e| err(format!("flattening a page: {e}")))?;
    Ok(())
}

fn num(v: f64) -> String {
    let s = format!("{v:.4}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s.is_empty() || s == "-0" {
        "0".into()
    } else {
        s.to_string()
    }
}

fn name_of(o: Option<&Object>) -> Option<String> {
    o.and_then(|o| o.as_name().ok())
        .map(|n| String::from_utf8_lossy(n).into_owned())
}

/// A widget's field type, from it or the field it belongs to.
fn field_type_of(doc: &Document, annot: &Dictionary) -> Option<String> {
    let mut d = annot;
    for _ in 0..16 {
        if let Some(t) = name_of(d.get(b"FT").ok()) {
            return Some(t);
        }
        match d.get(b"Parent").ok().map(|p| doc.dereference(p)) {
            Some(Ok((_, Object::Dictionary(p)))) => d = p,
            _ => return None,
        }
    }
    None
}

fn rect_of(doc: &Document, o: Option<&Object>) -> Option<Rect> {
    let (_, o) = doc.dereference(o?).ok()?;
    let a = o.as_array().ok()?;
    let v: Vec<f64> = a
        .iter()
        .filter_map(|x| doc.dereference(x).ok()?.1.as_float().ok().map(f64::from))
        .collect();
    (v.len() == 4 && v.iter().all(|x| x.is_finite()))
        .then(|| Rect::new(v[0], v[1], v[2], v[3]).abs())
}

/// The normal appearance of an annotation (its current state's, for check boxes), with its
/// box and matrix.
fn appearance(doc: &Document, annot: &Dictionary) -> Option<(ObjectId, Rect, Affine)> {
    let ap = doc
        .dereference(annot.get(b"AP").ok()?)
        .ok()?
        .1
        .as_dict()
        .ok()?;
    let normal = ap.get(b"N").ok()?;
    let id = match normal {
        Object::Reference(id) => match doc.get_object(*id).ok()? {
            Object::Stream(_) => *id,
            Object::Dictionary(states) => state_of(annot, states)?,
            _ => return None,
        },
        Object::Dictionary(states) => state_of(annot, states)?,
        _ => return None,
    };
    let Object::Stream(s) = doc.get_object(id).ok()? else {
        return None;
    };
    let bbox = rect_of(doc, s.dict.get(b"BBox").ok())?;
    let matrix = match s.dict.get(b"Matrix").ok().map(|m| doc.dereference(m)) {
        Some(Ok((_, Object::Array(m)))) if m.len() == 6 => {
            let v: Vec<f64> = m
                .iter()
                .filter_map(|x| x.as_float().ok().map(f64::from))
                .collect();
            if v.len() != 6 || !v.iter().all(|x| x.is_finite()) {
                return None;
            }
            Affine::new([v[0], v[1], v[2], v[3], v[4], v[5]])
        }
        _ => Affine::IDENTITY,
    };
    Some((id, bbox, matrix))
}

fn state_of(annot: &Dictionary, states: &Dictionary) -> Option<ObjectId> {
    let on = annot.get(b"AS").ok()?.as_name().ok()?;
    states.get(on).ok()?.as_reference().ok()
}

/// One glyph as drawn: its text and its box, in points from the page's top-left corner.
#[derive(Clone, Debug)]
struct Drawn {
    text: String,
    rect: Rect,
    /// Its advance in thousandths of the font size, when the font says.
    advance: Option<f32>,
    at: Affine,
}

struct DrawnPage {
    size: (f64, f64),
    glyphs: Vec<Drawn>,
}

/// Collects glyphs and tallies what drawing the page will cost; draws nothing.
struct Collector {
    glyphs: Vec<Drawn>,
    tally: Tally,
}

impl<'a> Device<'a> for Collector {
    fn set_soft_mask(&mut self, mask: Option<SoftMask<'a>>) {
        self.tally.set_soft_mask(mask);
    }
    fn set_blend_mode(&mut self, _: BlendMode) {}
    fn draw_path(&mut self, path: &BezPath, at: Affine, paint: &Paint<'a>, mode: &PathDrawMode) {
        self.tally.draw_path(path, at, paint, mode);
    }
    fn draw_rect(&mut self, rect: &Rect, at: Affine, paint: &Paint<'a>, mode: &PathDrawMode) {
        self.tally.draw_rect(rect, at, paint, mode);
    }
    fn push_clip_path(&mut self, clip: &ClipPath) {
        self.tally.push_clip_path(clip);
    }
    fn push_transparency_group(&mut self, o: f32, mask: Option<SoftMask<'a>>, b: BlendMode) {
        self.tally.push_transparency_group(o, mask, b);
    }
    fn draw_glyph(
        &mut self,
        glyph: &hayro_interpret::font::Glyph<'a>,
        transform: Affine,
        glyph_transform: Affine,
        paint: &Paint<'a>,
        mode: &GlyphDrawMode,
    ) {
        self.tally
            .draw_glyph(glyph, transform, glyph_transform, paint, mode);
        if self.glyphs.len() >= MAX_GLYPHS {
            return;
        }
        let at = transform * glyph_transform;
        // Filled and stroked text is drawn twice; it is one glyph.
        if matches!(mode, GlyphDrawMode::Stroke(_))
            && self.glyphs.last().is_some_and(|g| g.at == at)
        {
            return;
        }
        let advance = match glyph {
            hayro_interpret::font::Glyph::Outline(g) => g.advance_width(),
            hayro_interpret::font::Glyph::Type3(_) => None,
        };
        let w = advance.unwrap_or(500.0) as f64;
        // The glyph's cell: its advance across, from a fifth of an em below the baseline to
        // four fifths above, in glyph space (a thousand units to the em).
        let corners = [
            Point::new(0.0, -200.0),
            Point::new(w, -200.0),
            Point::new(0.0, 800.0),
            Point::new(w, 800.0),
        ]
        .map(|p| at * p);
        let mut rect = Rect::from_points(corners[0], corners[1]);
        for c in &corners[2..] {
            rect = rect.union_pt(*c);
        }
        let text = glyph
            .as_unicode()
            .map(|u| bf_text(&u))
            .unwrap_or_else(|| "\u{fffd}".into());
        self.glyphs.push(Drawn {
            text,
            rect,
            advance,
            at,
        });
    }
    fn draw_image(&mut self, image: Image<'a, '_>, at: Affine) {
        self.tally.draw_image(image, at);
    }
    fn pop_clip_path(&mut self) {}
    fn pop_transparency_group(&mut self) {}
}

fn bf_text(u: &hayro_interpret::hayro_cmap::BfString) -> String {
    use hayro_interpret::hayro_cmap::BfString;
    match u {
        BfString::Char(c) => c.to_string(),
        BfString::String(s) => s.clone(),
    }
}

fn glyphs(pdf: &[u8]) -> Result<Vec<DrawnPage>, PdfError> {
    let file = Pdf::new(pdf.to_vec()).map_err(|e| err(format!("the PDF cannot be read: {e:?}")))?;
    // The signing page's pictures are drawn by the same interpreter: what it cannot draw
    // here, a signer would not see, so the file is refused now rather than at a send.
    let warned: std::sync::Arc<std::sync::Mutex<Option<InterpreterWarning>>> = Default::default();
    let sink = warned.clone();
    let settings = InterpreterSettings {
        render_annotations: false,
        warning_sink: std::sync::Arc::new(move |w| {
            sink.lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .get_or_insert(w);
        }),
        ..InterpreterSettings::default()
    };
    let cache = InterpreterCache::new();
    let mut out = Vec::new();
    let mut pixels = 0u64;
    for page in file.pages().iter() {
        let (w, h) = page.render_dimensions();
        let mut ctx = Context::new(
            page.initial_transform(true).to_kurbo(),
            Rect::new(0.0, 0.0, w as f64, h as f64),
            &cache,
            page.xref(),
            settings.clone(),
        );
        let mut device = Collector {
            glyphs: Vec::new(),
            tally: Tally::page((w as f64, h as f64)),
        };
        interpret_page(page, &mut ctx, &mut device);
        if let Some(why) = device.tally.refusal(&format!("page {}", out.len() + 1)) {
            return Err(err(why));
        }
        pixels = pixels.saturating_add(device.tally.cost.pixels);
        if pixels > MAX_FILE_PIXELS {
            return Err(err(format!(
                "the PDF's pages paint more than {} million pixels to draw once in all; print \
                 it to PDF again, or split it",
                MAX_FILE_PIXELS / 1_000_000
            )));
        }
        let said = warned
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .take();
        if let Some(w) = said {
            return Err(err(format!(
                "page {} cannot be shown to signers as it prints: {}; print it to PDF again \
                 with its fonts and pictures embedded",
                out.len() + 1,
                match w {
                    InterpreterWarning::UnsupportedFont => "a font on it cannot be drawn",
                    InterpreterWarning::ImageDecodeFailure => "a picture on it cannot be decoded",
                }
            )));
        }
        out.push(DrawnPage {
            size: (w as f64, h as f64),
            glyphs: device.glyphs,
        });
    }
    Ok(out)
}

/// A page's glyphs, tags left out, gathered into runs: a run goes on while the next glyph
/// sits on the same line close after the last; a gap wider than a fifth of the size is a
/// space.
fn runs(glyphs: &[Drawn], tags: &[FoundTag]) -> Vec<FileRun> {
    let mut tagged = vec![false; glyphs.len()];
    for t in tags {
        for i in t.glyphs.clone() {
            tagged[i] = true;
        }
    }
    let in_tag = |i: usize| tagged[i];
    let mut out: Vec<FileRun> = Vec::new();
    let mut last: Option<(f64, f64, f64)> = None; // baseline y, right edge, size
    for (i, g) in glyphs.iter().enumerate() {
        if in_tag(i) {
            last = None;
            continue;
        }
        let c = g.at.as_coeffs();
        let size = (c[2] * c[2] + c[3] * c[3]).sqrt() * 1000.0;
        let base = (g.at * Point::ORIGIN).y;
        let same_line = last.is_some_and(|(b, right, s)| {
            (b - base).abs() < 0.3 * s
                && g.rect.x0 - right < 1.5 * s
                && g.rect.x0 - right > -0.5 * s
        });
        if let (true, Some(run), Some((_, right, s))) = (same_line, out.last_mut(), last) {
            if g.rect.x0 - right > 0.2 * s && !run.text.ends_with(' ') && g.text != " " {
                run.text.push(' ');
            }
            run.text.push_str(&g.text);
            let r = Rect::new(run.x, run.y, run.x + run.width, run.y + run.height).union(g.rect);
            (run.x, run.y, run.width, run.height) = (r.x0, r.y0, r.width(), r.height());
        } else if !g.text.trim().is_empty() {
            out.push(FileRun {
                x: g.rect.x0,
                y: g.rect.y0,
                width: g.rect.width(),
                height: g.rect.height(),
                size,
                text: g.text.clone(),
            });
        } else {
            last = None;
            continue;
        }
        last = Some((base, g.rect.x1, size.max(1.0)));
    }
    for r in &mut out {
        let round = |v: f64| (v * 100.0).round() / 100.0;
        (r.x, r.y, r.width, r.height, r.size) = (
            round(r.x),
            round(r.y),
            round(r.width),
            round(r.height),
            round(r.size),
        );
        r.text = r.text.trim_end().to_string();
    }
    out.retain(|r| {
        r.x.is_finite() && r.y.is_finite() && r.width.is_finite() && r.height.is_finite()
    });
    out
}

/// A tag found in a page's drawn text: the glyphs it took and where.
struct FoundTag {
    glyphs: std::ops::Range<usize>,
    placed: PlacedTag,
}

fn find_tags(glyphs: &[Drawn], page: u32) -> Result<Vec<FoundTag>, PdfError> {
    let (text, starts) = joined(glyphs.iter().map(|g| g.text.as_str()));
    let mut out = Vec::new();
    for f in tags::find(&text) {
        let written = text[f.start..f.end].to_string();
        let tag = f.tag.map_err(|why| {
            err(format!(
                "the text tag {} on page {page} cannot be read: {why}",
                short(&written)
            ))
        })?;
        let range = span(&starts, f.start, f.end);
        let rect = widest_line(&glyphs[range.clone()]);
        out.push(FoundTag {
            glyphs: range,
            placed: PlacedTag::at(tag, written, page, (rect.x0, rect.y0, rect.x1, rect.y1)),
        });
    }
    Ok(out)
}

/// The box of a tag's glyphs on one line: a tag a word processor wrapped onto a second line
/// takes the place of its widest piece, not a box over both lines and the text between.
fn widest_line(glyphs: &[Drawn]) -> Rect {
    let mut best = Rect::ZERO;
    let mut line: Option<Rect> = None;
    let mut last: Option<Rect> = None;
    for g in glyphs {
        let r = g.rect;
        let new_line = last.is_some_and(|p| {
            let h = p.height().max(r.height()).max(0.1);
            (r.y0 - p.y0).abs() > h * 0.5 || r.x0 < p.x0 - h
        });
        if new_line
            && let Some(l) = line.take()
            && l.width() > best.width()
        {
            best = l;
        }
        line = Some(line.map_or(r, |l| l.union(r)));
        last = Some(r);
    }
    if let Some(l) = line
        && l.width() > best.width()
    {
        best = l;
    }
    best
}

/// The pieces joined, and where each starts in the whole.
fn joined<'s>(pieces: impl Iterator<Item = &'s str>) -> (String, Vec<usize>) {
    let mut text = String::new();
    let mut starts = Vec::new();
    for p in pieces {
        starts.push(text.len());
        text.push_str(p);
    }
    (text, starts)
}

/// The pieces whose text starts inside `start..end` of the whole.
fn span(starts: &[usize], start: usize, end: usize) -> std::ops::Range<usize> {
    let first = starts.partition_point(|s| *s < start);
    let last = starts.partition_point(|s| *s < end);
    first..last
}

/// A font as the walk needs it: how its codes are cut and read.
struct FontInfo<'d> {
    two_bytes: bool,
    encoding: Option<lopdf::Encoding<'d>>,
}

impl FontInfo<'_> {
    fn text(&self, code: &[u8]) -> String {
        self.encoding
            .as_ref()
            .and_then(|e| e.bytes_to_string(code).ok())
            .unwrap_or_else(|| "\u{fffd}".into())
    }
}

/// Whose drawing instructions a code is in: the page's, or a form XObject's it draws.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Source {
    Page(ObjectId),
    Form(ObjectId),
}

/// The codes to cut, per source and operator: `(array item, byte start, length, adjustment)`.
type Cuts = BTreeMap<Source, BTreeMap<usize, Vec<(usize, usize, usize, f64)>>>;

/// One code shown by the page's content: where it is in which operator.
struct Shown {
    source: Source,
    op: usize,
    /// The array item of a `TJ` (0 for the others).
    item: usize,
    start: usize,
    len: usize,
    text: String,
    /// The one-byte code 32, which word spacing applies to.
    space: bool,
    /// The text state it was shown with: size, character and word spacing.
    size: f64,
    tc: f64,
    tw: f64,
}

#[derive(Clone, Default)]
struct TextState {
    font: Option<Vec<u8>>,
    size: f64,
    tc: f64,
    tw: f64,
}

fn font_info<'d>(doc: &'d Document, dict: &'d Dictionary) -> FontInfo<'d> {
    FontInfo {
        two_bytes: name_of(dict.get(b"Subtype").ok()).as_deref() == Some("Type0"),
        encoding: dict.get_font_encoding(doc).ok(),
    }
}

/// Finds each tag of a page in its drawing instructions (the page's and the forms it draws)
/// and plans the cut of its codes, with the advance each leaves behind.
fn plan_cuts(
    doc: &Document,
    page_id: ObjectId,
    page: u32,
    found: &[FoundTag],
    drawn: &[Drawn],
    cuts: &mut Cuts,
) -> Result<(), PdfError> {
    let data = doc
        .get_page_content_with_limit(page_id, MAX_CONTENT)
        .map_err(|e| err(format!("page {page}'s content cannot be read: {e}")))?;
    let content = Content::decode(&data)
        .map_err(|e| err(format!("page {page}'s content cannot be read: {e}")))?;
    let resources = doc
        .get_dictionary(page_id)
        .ok()
        .and_then(|d| d.get(b"Resources").ok())
        .and_then(|r| doc.dereference(r).ok())
        .and_then(|(_, r)| r.as_dict().ok());
    let mut shown = Vec::new();
    walk(
        doc,
        Source::Page(page_id),
        &content.operations,
        resources,
        TextState::default(),
        &mut shown,
        0,
    );
    let (text, starts) = joined(shown.iter().map(|s| s.text.as_str()));
    let ours: Vec<_> = tags::find(&text);
    if ours.len() != found.len() {
        return Err(err(format!(
            "the text tags on page {page} could not be taken out of its content: {} were seen \
             and {} found in the drawing instructions (is one part of a picture?)",
            found.len(),
            ours.len()
        )));
    }
    let bare = |t: &str| t.chars().filter(|c| !c.is_whitespace()).collect::<String>();
    for (f, o) in found.iter().zip(&ours) {
        if bare(&f.placed.text) != bare(&text[o.start..o.end]) {
            return Err(err(format!(
                "the text tag {} on page {page} could not be taken out of its content: it is \
                 drawn in a way that cannot be matched (as a clipping path, say)",
                short(&f.placed.text)
            )));
        }
        let codes = span(&starts, o.start, o.end);
        let glyphs = &drawn[f.glyphs.clone()];
        let same_count = glyphs.len() == codes.len();
        for (k, ci) in codes.enumerate() {
            let s = &shown[ci];
            let w0 = if same_count { glyphs[k].advance } else { None };
            let Some(w0) = w0.map(f64::from) else {
                return Err(err(format!(
                    "the text tag {} on page {page} could not be taken out: its font does not \
                     say how wide its letters are",
                    short(&f.placed.text)
                )));
            };
            let adjust = if s.size.abs() > 1e-9 {
                -(w0 + 1000.0 * (s.tc + if s.space { s.tw } else { 0.0 }) / s.size)
            } else {
                0.0
            };
            let at = cuts.entry(s.source).or_default().entry(s.op).or_default();
            // A form drawn twice shows its codes twice: they are cut once.
            if !at.iter().any(|c| c.0 == s.item && c.1 == s.start) {
                at.push((s.item, s.start, s.len, adjust));
            }
        }
    }
    Ok(())
}

/// Cuts the planned codes out of each page's and form's drawing instructions.
fn apply_cuts(doc: &mut Document, cuts: Cuts) -> Result<(), PdfError> {
    let bad = |e: lopdf::Error| err(format!("a page's content cannot be rewritten: {e}"));
    for (source, mut by_op) in cuts {
        for c in by_op.values_mut() {
            c.sort_by_key(|c| (c.0, c.1));
        }
        let data = match source {
            Source::Page(id) => doc
                .get_page_content_with_limit(id, MAX_CONTENT)
                .map_err(bad)?,
            Source::Form(id) => match doc.get_object(id) {
                Ok(Object::Stream(s)) => s
                    .decompressed_content_with_limit(MAX_CONTENT)
                    .map_err(bad)?,
                _ => continue,
            },
        };
        let mut content = Content::decode(&data).map_err(bad)?;
        let mut ops = Vec::with_capacity(content.operations.len() + by_op.len() * 3);
        for (i, op) in content.operations.drain(..).enumerate() {
            match by_op.get(&i) {
                Some(c) => ops.extend(rewrite(op, c)),
                None => ops.push(op),
            }
        }
        content.operations = ops;
        let bytes = content.encode().map_err(bad)?;
        match source {
            Source::Page(id) => doc.change_page_content(id, bytes).map_err(bad)?,
            Source::Form(id) => {
                if let Ok(Object::Stream(s)) = doc.get_object_mut(id) {
                    s.set_plain_content(bytes);
                }
            }
        }
    }
    Ok(())
}

/// The fonts a resource dictionary names.
fn fonts_in<'d>(
    doc: &'d Document,
    resources: Option<&'d Dictionary>,
) -> BTreeMap<Vec<u8>, FontInfo<'d>> {
    let Some(fonts) = resources
        .and_then(|r| r.get(b"Font").ok())
        .and_then(|f| doc.dereference(f).ok())
        .and_then(|(_, f)| f.as_dict().ok())
    else {
        return BTreeMap::new();
    };
    fonts
        .iter()
        .filter_map(|(name, f)| {
            let (_, f) = doc.dereference(f).ok()?;
            Some((name.clone(), font_info(doc, f.as_dict().ok()?)))
        })
        .collect()
}

/// Every code the drawing instructions show, in order, with its text and text state; the
/// forms they draw are walked where they are drawn, in the text state of that moment.
fn walk(
    doc: &Document,
    source: Source,
    ops: &[Operation],
    resources: Option<&Dictionary>,
    mut st: TextState,
    out: &mut Vec<Shown>,
    depth: usize,
) {
    let fonts = fonts_in(doc, resources);
    let mut saved: Vec<TextState> = Vec::new();
    let f = |o: Option<&Object>| o.and_then(|o| o.as_float().ok()).map(f64::from);
    for (i, op) in ops.iter().enumerate() {
        let a = &op.operands;
        let at = |item| (source, i, item);
        match op.operator.as_str() {
            "q" => saved.push(st.clone()),
            "Q" => {
                if let Some(s) = saved.pop() {
                    st = s;
                }
            }
            "Tf" => {
                st.font = a.first().and_then(|n| n.as_name().ok()).map(<[u8]>::to_vec);
                st.size = f(a.get(1)).unwrap_or(0.0);
            }
            "Tc" => st.tc = f(a.first()).unwrap_or(0.0),
            "Tw" => st.tw = f(a.first()).unwrap_or(0.0),
            "Tj" | "'" => show(out, at(0), a.first(), &st, &fonts),
            "\"" => {
                st.tw = f(a.first()).unwrap_or(st.tw);
                st.tc = f(a.get(1)).unwrap_or(st.tc);
                show(out, at(0), a.get(2), &st, &fonts);
            }
            "TJ" => {
                if let Some(Object::Array(items)) = a.first() {
                    for (k, item) in items.iter().enumerate() {
                        show(out, at(k), Some(item), &st, &fonts);
                    }
                }
            }
            "Do" if depth < 16 => {
                let Some((id, form)) = a
                    .first()
                    .and_then(|n| n.as_name().ok())
                    .and_then(|n| {
                        resources?
                            .get(b"XObject")
                            .ok()
                            .and_then(|x| doc.dereference(x).ok())
                            .and_then(|(_, x)| x.as_dict().ok())?
                            .get(n)
                            .ok()?
                            .as_reference()
                            .ok()
                    })
                    .and_then(|id| match doc.get_object(id) {
                        Ok(Object::Stream(s)) => Some((id, s)),
                        _ => None,
                    })
                else {
                    continue;
                };
                if name_of(form.dict.get(b"Subtype").ok()).as_deref() != Some("Form") {
                    continue;
                }
                let Ok(data) = form.decompressed_content_with_limit(MAX_CONTENT) else {
                    continue;
                };
                let Ok(content) = Content::decode(&data) else {
                    continue;
                };
                let own = form
                    .dict
                    .get(b"Resources")
                    .ok()
                    .and_then(|r| doc.dereference(r).ok())
                    .and_then(|(_, r)| r.as_dict().ok())
                    .or(resources);
                walk(
                    doc,
                    Source::Form(id),
                    &content.operations,
                    own,
                    st.clone(),
                    out,
                    depth + 1,
                );
            }
            _ => {}
        }
    }
}

fn show(
    out: &mut Vec<Shown>,
    (source, op, item): (Source, usize, usize),
    s: Option<&Object>,
    st: &TextState,
    fonts: &BTreeMap<Vec<u8>, FontInfo<'_>>,
) {
    let Some(Object::String(bytes, _)) = s else {
        return;
    };
    let Some(font) = st.font.as_ref().and_then(|n| fonts.get(n)) else {
        return;
    };
    let step = if font.two_bytes { 2 } else { 1 };
    let mut at = 0;
    while at < bytes.len() {
        let len = step.min(bytes.len() - at);
        out.push(Shown {
            source,
            op,
            item,
            start: at,
            len,
            text: font.text(&bytes[at..at + len]),
            space: len == 1 && bytes[at] == b' ',
            size: st.size,
            tc: st.tc,
            tw: st.tw,
        });
        at += len;
    }
}

/// One text operator with some of its codes cut: a `TJ` whose strings lack them and whose
/// numbers make up their advance. `'` and `"` keep their line move and spacing.
fn rewrite(op: Operation, cuts: &[(usize, usize, usize, f64)]) -> Vec<Operation> {
    let mut before = Vec::new();
    let items: Vec<Object> = match op.operator.as_str() {
        "TJ" => match op.operands.into_iter().next() {
            Some(Object::Array(a)) => a,
            _ => return Vec::new(),
        },
        "Tj" => op.operands.into_iter().take(1).collect(),
        "'" => {
            before.push(Operation::new("T*", vec![]));
            op.operands.into_iter().take(1).collect()
        }
        "\"" => {
            let mut a = op.operands.into_iter();
            let (aw, ac) = (a.next(), a.next());
            if let Some(aw) = aw {
                before.push(Operation::new("Tw", vec![aw]));
            }
            if let Some(ac) = ac {
                before.push(Operation::new("Tc", vec![ac]));
            }
            before.push(Operation::new("T*", vec![]));
            a.take(1).collect()
        }
        _ => return vec![op],
    };
    let mut array = Vec::new();
    for (k, item) in items.into_iter().enumerate() {
        let Object::String(bytes, format) = item else {
            array.push(item);
            continue;
        };
        let mut kept = Vec::new();
        let mut pending = 0.0;
        let mut at = 0;
        let mine: Vec<_> = cuts.iter().filter(|c| c.0 == k).collect();
        for c in &mine {
            if c.1 > at {
                if pending != 0.0 {
                    flush(&mut array, &mut kept, format, &mut pending);
                }
                kept.extend_from_slice(&bytes[at..c.1]);
            }
            pending += c.3;
            at = c.1 + c.2;
        }
        if pending != 0.0 {
            flush(&mut array, &mut kept, format, &mut pending);
        }
        kept.extend_from_slice(&bytes[at.min(bytes.len())..]);
        if !kept.is_empty() {
            array.push(Object::String(kept, format));
        }
    }
    before.push(Operation::new("TJ", vec![Object::Array(array)]));
    before
}

/// Writes the codes kept so far, then the adjustment for the codes cut after them.
fn flush(
    array: &mut Vec<Object>,
    kept: &mut Vec<u8>,
    format: lopdf::StringFormat,
    pending: &mut f64,
) {
    if !kept.is_empty() {
        array.push(Object::String(std::mem::take(kept), format));
    }
    array.push(Object::Real(*pending as f32));
    *pending = 0.0;
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
