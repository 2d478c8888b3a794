//! Made safe: what could run or reach out goes, and annotations and form fields are drawn
//! into their pages.

use kurbo::{Affine, Rect};
use lopdf::{Dictionary, Document, Object, ObjectId};
use std::collections::BTreeMap;

use super::limits::{MAX_CONTENT, PdfError, err};

/// Makes the page tree one level: every page a child of one `Pages`, with what it inherited
/// (resources, boxes, rotation) written on it. A tree that loops or fans out to more pages
/// than it counts is read once, here, in the order lopdf finds the pages.
pub(crate) fn flatten_tree(doc: &mut Document) -> Result<(), PdfError> {
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

pub(crate) fn warn(w: &mut BTreeMap<String, usize>, what: &str) {
    *w.entry(what.to_string()).or_default() += 1;
}

/// Removes what could run or reach out, and flattens annotations and forms.
pub(crate) fn make_safe(
    doc: &mut Document,
    w: &mut BTreeMap<String, usize>,
) -> Result<(), PdfError> {
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
pub(crate) fn flatten_page(
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
        let Some(c) = fitted(bbox, matrix, rect) else {
            continue;
        };
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
    drawn_over(doc, page_id, &draws, &forms, w)
}

/// The coefficients that fit an appearance's box, through its matrix, to the annotation's
/// rectangle; none when either is empty or the numbers are not finite.
fn fitted(bbox: Rect, matrix: Affine, rect: Rect) -> Option<[f64; 6]> {
    let shown = matrix.transform_rect_bbox(bbox);
    if shown.width() <= 0.0 || shown.height() <= 0.0 {
        return None;
    }
    let fit = Affine::translate((rect.x0, rect.y0))
        * Affine::scale_non_uniform(rect.width() / shown.width(), rect.height() / shown.height())
        * Affine::translate((-shown.x0, -shown.y0));
    let c = fit.as_coeffs();
    c.iter().all(|v| v.is_finite()).then_some(c)
}

/// The page without its annotations and actions, its own drawing kept in a saved state and
/// the flattened appearances (`draws`, naming `forms`) drawn on top.
fn drawn_over(
    doc: &mut Document,
    page_id: ObjectId,
    draws: &str,
    forms: &[(String, ObjectId)],
    w: &mut BTreeMap<String, usize>,
) -> Result<(), PdfError> {
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
    for (name, id) in forms {
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

pub(crate) fn num(v: f64) -> String {
    let s = format!("{v:.4}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s.is_empty() || s == "-0" {
        "0".into()
    } else {
        s.to_string()
    }
}

pub(crate) fn name_of(o: Option<&Object>) -> Option<String> {
    o.and_then(|o| o.as_name().ok())
        .map(|n| String::from_utf8_lossy(n).into_owned())
}

/// A widget's field type, from it or the field it belongs to.
pub(crate) fn field_type_of(doc: &Document, annot: &Dictionary) -> Option<String> {
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

pub(crate) fn rect_of(doc: &Document, o: Option<&Object>) -> Option<Rect> {
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
pub(crate) fn appearance(doc: &Document, annot: &Dictionary) -> Option<(ObjectId, Rect, Affine)> {
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

pub(crate) fn state_of(annot: &Dictionary, states: &Dictionary) -> Option<ObjectId> {
    let on = annot.get(b"AS").ok()?.as_name().ok()?;
    states.get(on).ok()?.as_reference().ok()
}
