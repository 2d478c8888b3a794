//! Counting what a file would make a reader do (instructions, drawings, pictures, glyphs)
//! before anything draws it.

use crate::cost::MAX_PAGE_OPERATIONS;
use lopdf::content::{Content, Operation};
use lopdf::{Document, Object, ObjectId};
use std::collections::BTreeMap;

use super::limits::{
    MAX_CONTENT, MAX_DECODED, MAX_FILE_OPERATIONS, MAX_FORM_USES, MAX_PICTURE_PIXELS, PdfError,
    err, too_many_operations,
};
use super::safe::name_of;

/// Bounds what reading the file can cost, before anything draws it: every stream decodes
/// within a shared budget (pictures are counted by their pixels instead), every drawing's
/// instructions parse, and drawings drawing drawings stay few.
pub(crate) fn vet(doc: &Document) -> Result<(), PdfError> {
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
pub(crate) struct Cost {
    pub(crate) uses: u64,
    pub(crate) operations: u64,
}

/// How many drawings `ops` draws, counting the drawings they draw in turn. `resources` are
/// the names `ops` draws by, with the page or drawing they belong to: a drawing without
/// resources of its own draws by its caller's, so what it costs is remembered per caller.
pub(crate) fn drawn_forms(
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
