//! An office file's XML parts made safe: macros' hooks and links outside the file taken out,
//! fields that pull in other files and DTDs refused, each with its reason.

use super::family::{Family, err, macro_part};
use crate::pdf::PdfError;

/// A part whose bytes start as XML does (after a byte-order mark and blanks), whatever its
/// name: `.xml`, `.rels`, `.vml`, custom XML, or a main part renamed to hide.
pub(super) fn looks_like_xml(data: &[u8]) -> bool {
    let d = data.strip_prefix(b"\xef\xbb\xbf").unwrap_or(data);
    let utf16 = data.starts_with(b"\xff\xfe") || data.starts_with(b"\xfe\xff");
    utf16
        || d.iter()
            .find(|b| !b.is_ascii_whitespace())
            .is_some_and(|b| *b == b'<')
}

/// What cleaning an XML part gets.
#[derive(Clone, Copy, PartialEq)]
pub(super) enum Rule {
    /// OOXML relationships: those to external targets go.
    Relationships,
    /// Other OOXML parts: field codes that pull in other files are refused.
    OoxmlPart,
    /// OpenDocument content: links that are not parts of the package are emptied.
    OdfPart,
    /// The OpenDocument manifest: the entries of removed macro parts go.
    Manifest,
}

/// Field codes that make a word processor read another file or program when it lays out
/// (the last, short one only inside a field's instruction).
pub(super) const PULLING_FIELDS: [&str; 4] = ["INCLUDEPICTURE", "INCLUDETEXT", "DDEAUTO", "DDE "];

pub(super) fn pulls(text: &str) -> Option<&'static str> {
    let upper = text.to_ascii_uppercase();
    PULLING_FIELDS
        .iter()
        .find(|f| upper.contains(*f))
        .map(|f| f.trim_end())
}

pub(super) fn pulling_field(name: &str, field: &str) -> PdfError {
    err(format!(
        "has a field that brings in another file or program ({field}, in {}): unlink the \
         field (in Word: select all, then Ctrl+Shift+F9) or save as PDF, and send it again",
        crate::fields::short(name)
    ))
}

/// One element's start by `rule`: `None` to drop it (with what it holds), or the event to
/// write, its outside links emptied.
pub(super) fn element<'a>(
    e: quick_xml::events::BytesStart<'a>,
    empty: bool,
    rule: Rule,
    name: &str,
    cut: &mut usize,
    in_instr: &mut bool,
) -> Result<Option<quick_xml::events::Event<'a>>, PdfError> {
    use quick_xml::events::{BytesStart, Event};
    let wrap = |e: BytesStart<'a>| {
        if empty {
            Event::Empty(e)
        } else {
            Event::Start(e)
        }
    };
    let local = e.local_name().as_ref().to_vec();
    match rule {
        Rule::Relationships if local == b"Relationship" => {
            let external = e.attributes().with_checks(false).flatten().any(|a| {
                a.key.local_name().as_ref() == b"TargetMode"
                    && a.unescape_value()
                        .is_ok_and(|v| v.trim().eq_ignore_ascii_case("External"))
            });
            if external {
                *cut += 1;
                return Ok(None);
            }
        }
        Rule::OoxmlPart => {
            *in_instr = !empty && local == b"instrText";
            for a in e.attributes().with_checks(false).flatten() {
                if a.key.local_name().as_ref() == b"instr"
                    && let Ok(v) = a.unescape_value()
                    && let Some(field) = pulls(&v)
                {
                    return Err(pulling_field(name, field));
                }
            }
        }
        Rule::Manifest if local == b"file-entry" => {
            let gone = e.attributes().with_checks(false).flatten().any(|a| {
                a.key.local_name().as_ref() == b"full-path"
                    && a.unescape_value()
                        .is_ok_and(|v| macro_part(Family::Odf, &v).is_some())
            });
            if gone {
                return Ok(None);
            }
        }
        Rule::OdfPart => {
            let mut changed = false;
            let mut fresh =
                BytesStart::new(String::from_utf8_lossy(e.name().as_ref()).into_owned());
            for a in e.attributes().with_checks(false).flatten() {
                let key = a.key.as_ref();
                let linkish = matches!(a.key.local_name().as_ref(), b"href" | b"image-data")
                    && !key.starts_with(b"xmlns");
                let outside = linkish && a.unescape_value().map_or(true, |v| !inside_package(&v));
                if outside {
                    changed = true;
                    *cut += 1;
                    fresh.push_attribute((key, &b""[..]));
                } else {
                    fresh.push_attribute((key, a.value.as_ref()));
                }
            }
            if changed {
                return Ok(Some(wrap(fresh)));
            }
        }
        _ => {}
    }
    Ok(Some(wrap(e)))
}

/// A `<!DOCTYPE` or `<!ENTITY` anywhere, in any case (XML allows them only in the prolog;
/// a reader that meets one later fails anyway).
pub(super) fn declares_dtd(data: &[u8]) -> bool {
    let same = |w: &[u8], pat: &[u8]| w.iter().zip(pat).all(|(a, b)| a.eq_ignore_ascii_case(b));
    memchr_all(data, b'<').any(|i| {
        let w = &data[i..];
        (w.len() >= 9 && same(&w[..9], b"<!DOCTYPE"))
            || (w.len() >= 8 && same(&w[..8], b"<!ENTITY"))
    })
}

pub(super) fn memchr_all(data: &[u8], b: u8) -> impl Iterator<Item = usize> + '_ {
    data.iter()
        .enumerate()
        .filter(move |(_, c)| **c == b)
        .map(|(i, _)| i)
}

/// Reads an XML part with a real XML reader (so no spelling of an attribute escapes it) and
/// writes it anew by `rule`; says how many links went. A part in UTF-16 or with a DTD is
/// refused. A part that starts like XML but does not parse (an HTML chunk) is kept as it is
/// once no DTD is in it.
pub(super) fn clean_xml(data: &[u8], rule: Rule, name: &str) -> Result<(Vec<u8>, usize), PdfError> {
    use quick_xml::events::Event;
    let dtd = || {
        err(format!(
            "has an XML part that declares a DTD ({}), which office files do not need and \
             which could make a reader expand entities or fetch",
            crate::fields::short(name)
        ))
    };
    let Ok(text) = std::str::from_utf8(data) else {
        return Err(err(format!(
            "has an XML part that is not UTF-8 ({}); office files write theirs in UTF-8",
            crate::fields::short(name)
        )));
    };
    if declares_dtd(data) {
        return Err(dtd());
    }
    let mut reader = quick_xml::Reader::from_str(text);
    reader.config_mut().check_end_names = false;
    let mut writer = quick_xml::Writer::new(Vec::with_capacity(data.len()));
    let mut cut = 0;
    // Inside an element being dropped: how deep.
    let mut skipping = 0usize;
    // Inside a Word field instruction.
    let mut in_instr = false;
    loop {
        let event = match reader.read_event() {
            Ok(Event::Eof) => break,
            Ok(e) => e,
            Err(_) => return Ok((data.to_vec(), 0)),
        };
        if skipping > 0 {
            match event {
                Event::Start(_) => skipping += 1,
                Event::End(_) => skipping -= 1,
                _ => {}
            }
            continue;
        }
        let out = match event {
            Event::DocType(_) => return Err(dtd()),
            Event::Start(e) => match element(e, false, rule, name, &mut cut, &mut in_instr)? {
                Some(ev) => ev,
                None => {
                    skipping = 1;
                    continue;
                }
            },
            Event::Empty(e) => match element(e, true, rule, name, &mut cut, &mut in_instr)? {
                Some(ev) => ev,
                None => continue,
            },
            Event::End(e) => {
                in_instr = false;
                Event::End(e)
            }
            Event::Text(t) if in_instr => {
                if let Some(field) = pulls(&String::from_utf8_lossy(t.as_ref())) {
                    return Err(pulling_field(name, field));
                }
                Event::Text(t)
            }
            other => other,
        };
        writer
            .write_event(out)
            .map_err(|e| err(format!("could not be written anew: {e}")))?;
    }
    Ok((writer.into_inner(), cut))
}

pub(super) fn inside_package(href: &str) -> bool {
    let v = href.trim();
    if v.starts_with('#') {
        return true;
    }
    let v = v.strip_prefix("./").unwrap_or(v);
    !v.is_empty()
        && !v.contains(':')
        && !v.starts_with('/')
        && !v.contains('\\')
        && !v.split('/').any(|s| s == "..")
        && !v.contains("&#")
        && !v.contains('%')
}
