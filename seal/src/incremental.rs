//! Incremental updates. The file we are given is never rewritten: each step appends a
//! revision (new objects, a cross-reference section with `/Prev`, a trailer), so every
//! earlier byte, and every earlier signature, stays valid, and each earlier revision can be
//! cut back out of the file and hashed.
//!
//! The file is read once with lopdf; the catalog and the first page are kept in memory and
//! each revision writes the versions it changes.

use lopdf::{Dictionary, Object, ObjectId};

use crate::SealError;

/// Room for each CMS blob, in bytes (written as twice as many hex digits). A signature with
/// its chain and time-stamp token is about 3 KB with P-256.
const RESERVE: usize = 12_288;
const BYTE_RANGE_PLACEHOLDER: &str = "[0 0000000000 0000000000 0000000000]";

/// The file so far and what the next revision needs to know of it.
pub(crate) struct Revisions {
    pub(crate) doc: lopdf::Document,
    pub(crate) out: Vec<u8>,
    /// Where the last cross-reference section starts.
    prev_xref: usize,
    /// The next free object number (the trailer's /Size).
    size: u32,
    pub(crate) root: ObjectId,
    catalog: Dictionary,
    page_id: ObjectId,
    page: Dictionary,
    acroform: Option<(u32, Dictionary)>,
    trailer_extra: Vec<(Vec<u8>, Object)>,
    /// Generation of each object number the file already has; new objects are generation 0.
    generations: std::collections::HashMap<u32, u16>,
}

impl Revisions {
    pub(crate) fn open(pdf: &[u8]) -> Result<Revisions, SealError> {
        let bad = |m: &str| SealError::Pdf(m.to_string());
        let prev_xref = start_xref(pdf).ok_or_else(|| bad("no startxref at the end"))?;
        if !pdf.get(prev_xref..).is_some_and(|t| t.starts_with(b"xref")) {
            return Err(bad(
                "only files with a classic cross-reference table can be sealed",
            ));
        }
        let doc = lopdf::Document::load_mem(pdf).map_err(|e| SealError::Pdf(e.to_string()))?;
        // lopdf decrypts as it reads: our revisions would be plaintext in an encrypted file.
        if doc.trailer.has(b"Encrypt") {
            return Err(bad("an encrypted PDF cannot be sealed"));
        }
        let root = doc
            .trailer
            .get(b"Root")
            .and_then(Object::as_reference)
            .map_err(|_| bad("the trailer has no /Root"))?;
        let catalog = doc
            .get_dictionary(root)
            .map_err(|_| bad("the catalog is missing"))?
            .clone();
        let page_id = *doc
            .get_pages()
            .get(&1)
            .ok_or_else(|| bad("the document has no page"))?;
        let mut page = doc
            .get_dictionary(page_id)
            .map_err(|_| bad("page 1 is missing"))?
            .clone();
        // Annotations are written inline from here on; an indirect array is read once.
        if let Ok(Object::Reference(r)) = page.get(b"Annots") {
            let annots = doc.get_object(*r).cloned().unwrap_or(Object::Array(vec![]));
            page.set("Annots", annots);
        }
        let acroform = match catalog.get(b"AcroForm") {
            Ok(Object::Reference(r)) => {
                let mut form = doc
                    .get_dictionary(*r)
                    .map_err(|_| bad("the form is missing"))?
                    .clone();
                // Fields are written inline from here on; an indirect array is read once.
                if let Ok(Object::Reference(f)) = form.get(b"Fields") {
                    let fields = doc
                        .get_object(*f)
                        .map_err(|_| bad("the form's fields are missing"))?
                        .clone();
                    form.set("Fields", fields);
                }
                Some((r.0, form))
            }
            Ok(Object::Dictionary(_)) => {
                return Err(bad("an inline /AcroForm is not supported"));
            }
            _ => None,
        };
        let size = doc
            .trailer
            .get(b"Size")
            .and_then(Object::as_i64)
            .map_err(|_| bad("the trailer has no /Size"))? as u32;
        let trailer_extra = [b"Info".as_slice(), b"ID"]
            .iter()
            .filter_map(|k| doc.trailer.get(k).ok().map(|v| (k.to_vec(), v.clone())))
            .collect();
        let size = size.max(doc.max_id + 1);
        let generations = doc.objects.keys().map(|(n, g)| (*n, *g)).collect();
        Ok(Revisions {
            doc,
            out: pdf.to_vec(),
            prev_xref,
            size,
            root,
            catalog,
            page_id,
            page,
            acroform,
            trailer_extra,
            generations,
        })
    }

    pub(crate) fn alloc(&mut self) -> u32 {
        self.size += 1;
        self.size - 1
    }

    /// Appends one revision of `objects` (number, body without `obj`/`endobj`). Answers where
    /// each object's body starts in the file.
    pub(crate) fn append(&mut self, objects: Vec<(u32, Vec<u8>)>) -> Vec<usize> {
        if !self.out.ends_with(b"\n") {
            self.out.push(b'\n');
        }
        let mut offsets = Vec::with_capacity(objects.len());
        let mut xref: Vec<(u32, u16, usize)> = Vec::with_capacity(objects.len());
        for (num, body) in objects {
            let generation = self.generations.get(&num).copied().unwrap_or(0);
            xref.push((num, generation, self.out.len()));
            self.out
                .extend_from_slice(format!("{num} {generation} obj\n").as_bytes());
            offsets.push(self.out.len());
            self.out.extend_from_slice(&body);
            self.out.extend_from_slice(b"\nendobj\n");
        }
        xref.sort();
        let start = self.out.len();
        self.out.extend_from_slice(b"xref\n");
        let mut i = 0;
        while i < xref.len() {
            let mut j = i;
            while j + 1 < xref.len() && xref[j + 1].0 == xref[j].0 + 1 {
                j += 1;
            }
            self.out
                .extend_from_slice(format!("{} {}\n", xref[i].0, j - i + 1).as_bytes());
            for (_, generation, off) in &xref[i..=j] {
                self.out
                    .extend_from_slice(format!("{off:010} {generation:05} n \n").as_bytes());
            }
            i = j + 1;
        }
        let mut trailer = Dictionary::new();
        trailer.set("Size", Object::Integer(self.size as i64));
        trailer.set("Root", Object::Reference(self.root));
        for (k, v) in &self.trailer_extra {
            trailer.set(k.clone(), v.clone());
        }
        trailer.set("Prev", Object::Integer(self.prev_xref as i64));
        self.out.extend_from_slice(b"trailer\n");
        write_object(&mut self.out, &Object::Dictionary(trailer));
        self.out
            .extend_from_slice(format!("\nstartxref\n{start}\n%%EOF\n").as_bytes());
        self.prev_xref = start;
        offsets
    }

    pub(crate) fn dict(d: &Dictionary) -> Vec<u8> {
        let mut v = Vec::new();
        write_object(&mut v, &Object::Dictionary(d.clone()));
        v
    }

    /// Adds a signature field and its signature dictionary, then fills `/Contents` with what
    /// `contents` makes of the SHA-256 of the signed byte ranges.
    pub(crate) fn signature(
        &mut self,
        name: &str,
        head: &str,
        contents: impl FnOnce(&[u8]) -> Result<Vec<u8>, SealError>,
    ) -> Result<(), SealError> {
        let sig = self.alloc();
        let field = self.alloc();
        let (form_id, mut form) = match self.acroform.take() {
            Some(f) => f,
            None => (self.alloc(), Dictionary::new()),
        };
        let mut fields = match form.get(b"Fields") {
            Ok(Object::Array(a)) => a.clone(),
            _ => Vec::new(),
        };
        fields.push(Object::Reference((field, 0)));
        form.set("Fields", Object::Array(fields));
        form.set("SigFlags", Object::Integer(3));
        let form_gen = self.generations.get(&form_id).copied().unwrap_or(0);
        self.catalog
            .set("AcroForm", Object::Reference((form_id, form_gen)));
        let mut annots = match self.page.get(b"Annots") {
            Ok(Object::Array(a)) => a.clone(),
            _ => Vec::new(),
        };
        annots.push(Object::Reference((field, 0)));
        self.page.set("Annots", Object::Array(annots));

        let widget = format!(
            "<< /Type /Annot /Subtype /Widget /FT /Sig /T {} /V {sig} 0 R /F 132 /Rect [0 0 0 0] /P {} {} R >>",
            literal(name),
            self.page_id.0,
            self.page_id.1
        );
        let placeholder = format!(
            "<< {head} /ByteRange {BYTE_RANGE_PLACEHOLDER} /Contents <{}> >>",
            "0".repeat(RESERVE * 2)
        );
        let offsets = self.append(vec![
            (sig, placeholder.into_bytes()),
            (field, widget.into_bytes()),
            (form_id, Self::dict(&form)),
            (self.page_id.0, Self::dict(&self.page)),
            (self.root.0, Self::dict(&self.catalog)),
        ]);
        self.acroform = Some((form_id, form));

        // Where the placeholders are, from how the dictionary was written (never searched for:
        // a name in `head` could hold the same bytes).
        let sig_at = offsets[0];
        let range_at = sig_at + format!("<< {head} /ByteRange ").len();
        let hole_start = range_at + BYTE_RANGE_PLACEHOLDER.len() + " /Contents ".len();
        debug_assert!(self.out[hole_start] == b'<');
        let hole_end = hole_start + RESERVE * 2 + 2;
        let total = self.out.len();
        let range = format!(
            "[0 {hole_start:<10} {hole_end:<10} {:<10}]",
            total - hole_end
        );
        self.out[range_at..range_at + range.len()].copy_from_slice(range.as_bytes());

        let mut ctx = ring::digest::Context::new(&ring::digest::SHA256);
        ctx.update(&self.out[..hole_start]);
        ctx.update(&self.out[hole_end..]);
        let blob = contents(ctx.finish().as_ref())?;
        if blob.len() > RESERVE {
            return Err(SealError::Pdf(format!(
                "the signature needs {} bytes, more than the {RESERVE} reserved",
                blob.len()
            )));
        }
        let hex: String = blob.iter().map(|b| format!("{b:02x}")).collect();
        self.out[hole_start + 1..hole_start + 1 + hex.len()].copy_from_slice(hex.as_bytes());
        Ok(())
    }

    /// The DSS: certificates and CRLs as streams, referenced from the catalog.
    pub(crate) fn dss(&mut self, certs: &[Vec<u8>], crls: &[Vec<u8>]) -> Result<(), SealError> {
        let mut objects = Vec::new();
        let mut refs = |blobs: &[Vec<u8>], objects: &mut Vec<(u32, Vec<u8>)>| {
            let mut list = Vec::new();
            for b in blobs {
                let n = self.alloc();
                let mut body = format!("<< /Length {} >>\nstream\n", b.len()).into_bytes();
                body.extend_from_slice(b);
                body.extend_from_slice(b"\nendstream");
                objects.push((n, body));
                list.push(Object::Reference((n, 0)));
            }
            list
        };
        let cert_refs = refs(certs, &mut objects);
        let crl_refs = refs(crls, &mut objects);
        let dss = self.alloc();
        let mut d = Dictionary::new();
        d.set("Type", Object::Name(b"DSS".to_vec()));
        d.set("Certs", Object::Array(cert_refs));
        d.set("CRLs", Object::Array(crl_refs));
        objects.push((dss, Self::dict(&d)));
        self.catalog.set("DSS", Object::Reference((dss, 0)));
        // ISO 32000-1 extension level for the DSS (ETSI EN 319 142-1).
        let mut esic = Dictionary::new();
        esic.set("BaseVersion", Object::Name(b"1.7".to_vec()));
        esic.set("ExtensionLevel", Object::Integer(5));
        let mut ext = Dictionary::new();
        ext.set("ESIC", Object::Dictionary(esic));
        self.catalog.set("Extensions", Object::Dictionary(ext));
        objects.push((self.root.0, Self::dict(&self.catalog)));
        self.append(objects);
        Ok(())
    }
}

pub(crate) fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

fn start_xref(pdf: &[u8]) -> Option<usize> {
    let tail_from = pdf.len().saturating_sub(1024);
    let tail = &pdf[tail_from..];
    let at = tail.windows(9).rposition(|w| w == b"startxref")?;
    let digits: String = tail[at + 9..]
        .iter()
        .skip_while(|b| b.is_ascii_whitespace())
        .take_while(|b| b.is_ascii_digit())
        .map(|b| *b as char)
        .collect();
    digits.parse().ok()
}

/// A PDF literal string with the characters that need it escaped; non-ASCII as UTF-16BE
/// with a BOM, which every reader accepts for text strings.
pub(crate) fn literal(s: &str) -> String {
    if s.is_ascii() {
        let mut out = String::from("(");
        for c in s.chars() {
            match c {
                '(' | ')' | '\\' => {
                    out.push('\\');
                    out.push(c);
                }
                c if c.is_ascii_control() => out.push(' '),
                c => out.push(c),
            }
        }
        out.push(')');
        out
    } else {
        let mut out = String::from("<FEFF");
        for u in s.encode_utf16() {
            out.push_str(&format!("{u:04X}"));
        }
        out.push('>');
        out
    }
}

/// Writes a lopdf object in PDF syntax. Strings go out as hex, which needs no escaping.
pub(crate) fn write_object(out: &mut Vec<u8>, o: &Object) {
    match o {
        Object::Null => out.extend_from_slice(b"null"),
        Object::Boolean(b) => out.extend_from_slice(if *b { b"true" } else { b"false" }),
        Object::Integer(i) => out.extend_from_slice(i.to_string().as_bytes()),
        Object::Real(r) => {
            let s = format!("{r:.6}");
            let s = s.trim_end_matches('0').trim_end_matches('.');
            out.extend_from_slice(if s.is_empty() || s == "-" { "0" } else { s }.as_bytes());
        }
        Object::Name(n) => {
            out.push(b'/');
            for &b in n {
                if b.is_ascii_alphanumeric() || b"-_.+*".contains(&b) {
                    out.push(b);
                } else {
                    out.extend_from_slice(format!("#{b:02X}").as_bytes());
                }
            }
        }
        Object::String(s, _) => {
            out.push(b'<');
            for b in s {
                out.extend_from_slice(format!("{b:02X}").as_bytes());
            }
            out.push(b'>');
        }
        Object::Array(a) => {
            out.push(b'[');
            for (i, item) in a.iter().enumerate() {
                if i > 0 {
                    out.push(b' ');
                }
                write_object(out, item);
            }
            out.push(b']');
        }
        Object::Dictionary(d) => {
            out.extend_from_slice(b"<<");
            for (k, v) in d {
                out.push(b' ');
                write_object(out, &Object::Name(k.clone()));
                out.push(b' ');
                write_object(out, v);
            }
            out.extend_from_slice(b" >>");
        }
        Object::Stream(st) => {
            let mut d = st.dict.clone();
            d.set("Length", Object::Integer(st.content.len() as i64));
            write_object(out, &Object::Dictionary(d));
            out.extend_from_slice(b"\nstream\n");
            out.extend_from_slice(&st.content);
            out.extend_from_slice(b"\nendstream");
        }
        Object::Reference((n, g)) => out.extend_from_slice(format!("{n} {g} R").as_bytes()),
    }
}
