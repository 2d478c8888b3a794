//! Taken out: the codes of each tag cut from the page's strings, a `TJ` adjustment of their
//! advance in their place.

use crate::fields::short;
use lopdf::content::{Content, Operation};
use lopdf::{Dictionary, Document, Object, ObjectId};
use signet_source::tags;
use std::collections::BTreeMap;

use super::found::{FoundTag, joined, span};
use super::glyphs::Drawn;
use super::limits::{MAX_CONTENT, PdfError, err};
use super::safe::name_of;

/// A font as the walk needs it: how its codes are cut and read.
pub(crate) struct FontInfo<'d> {
    pub(crate) two_bytes: bool,
    pub(crate) encoding: Option<lopdf::Encoding<'d>>,
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
pub(crate) enum Source {
    Page(ObjectId),
    Form(ObjectId),
}

/// The codes to cut, per source and operator: `(array item, byte start, length, adjustment)`.
pub(crate) type Cuts = BTreeMap<Source, BTreeMap<usize, Vec<(usize, usize, usize, f64)>>>;

/// One code shown by the page's content: where it is in which operator.
pub(crate) struct Shown {
    pub(crate) source: Source,
    pub(crate) op: usize,
    /// The array item of a `TJ` (0 for the others).
    pub(crate) item: usize,
    pub(crate) start: usize,
    pub(crate) len: usize,
    pub(crate) text: String,
    /// The one-byte code 32, which word spacing applies to.
    pub(crate) space: bool,
    /// The text state it was shown with: size, character and word spacing.
    pub(crate) size: f64,
    pub(crate) tc: f64,
    pub(crate) tw: f64,
}

#[derive(Clone, Default)]
pub(crate) struct TextState {
    pub(crate) font: Option<Vec<u8>>,
    pub(crate) size: f64,
    pub(crate) tc: f64,
    pub(crate) tw: f64,
}

pub(crate) fn font_info<'d>(doc: &'d Document, dict: &'d Dictionary) -> FontInfo<'d> {
    FontInfo {
        two_bytes: name_of(dict.get(b"Subtype").ok()).as_deref() == Some("Type0"),
        encoding: dict.get_font_encoding(doc).ok(),
    }
}

/// Finds each tag of a page in its drawing instructions (the page's and the forms it draws)
/// and plans the cut of its codes, with the advance each leaves behind.
pub(crate) fn plan_cuts(
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
pub(crate) fn apply_cuts(doc: &mut Document, cuts: Cuts) -> Result<(), PdfError> {
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
pub(crate) fn fonts_in<'d>(
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
pub(crate) fn walk(
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

pub(crate) fn show(
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
pub(crate) fn rewrite(op: Operation, cuts: &[(usize, usize, usize, f64)]) -> Vec<Operation> {
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
pub(crate) fn flush(
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
