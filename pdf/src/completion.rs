//! What sealing adds to a signed document, rendered with the same fonts and the same rule as
//! the document itself (caller text only through the data file):
//!
//! - the **values layer**: transparent pages of the document's sizes with each value drawn in
//!   its field's rectangle, laid over the pages people signed (`signet-seal` does the laying);
//! - the **certificate of completion**: who, what, when, from where, the hashes and the audit
//!   summary, appended after the last page.

use std::fmt::Write;

use crate::input::{Paper, RenderError};
use crate::render::{Renderer, export};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ValueKind {
    /// A typed signature or initials: written larger, in a handwriting face.
    Signature,
    /// A drawn signature or initials: its strokes as vector paths, fitted into the field.
    Drawn,
    /// A ticked checkbox.
    Check,
    Text,
}

/// A value and where it goes, in points from the page's top-left corner.
#[derive(Clone, Debug)]
pub struct PlacedValue {
    /// 1-based.
    pub page: u32,
    pub x: f64,
    pub y: f64,
    pub width: f64,
    pub height: f64,
    pub kind: ValueKind,
    pub text: String,
    /// For `Drawn`: the pad's width and height and each stroke's points, in the pad's units.
    pub strokes: Option<Strokes>,
    /// For `Drawn`: the strokes are closed outlines, filled even-odd (a traced picture).
    pub filled: bool,
}

/// A drawn signature: the pad's width and height, and each stroke's points in its units.
pub type Strokes = (f64, f64, Vec<Vec<(f64, f64)>>);

#[derive(Clone, Debug, Default)]
pub struct CertificatePerson {
    /// "Ada Lovelace · client".
    pub heading: String,
    /// Label and value lines: email, IP address, opened, consented, signed.
    pub lines: Vec<(String, String)>,
}

#[derive(Clone, Debug)]
pub struct Certificate {
    pub paper: Paper,
    pub heading: String,
    pub test: bool,
    /// Label and value lines: document id, title, hashes, sealed at.
    pub facts: Vec<(String, String)>,
    pub people: Vec<CertificatePerson>,
    /// Time, event, description.
    pub events: Vec<[String; 3]>,
    /// Headings of the people and audit sections.
    pub people_heading: String,
    pub events_heading: String,
}

/// A font size at most `size` at which `text` fits on one line of a box `width` wide (less
/// its insets), from an estimate of each character's advance. The value is set in an
/// unbreakable box as well, so an estimate that is off overflows into the clip, never onto a
/// second line.
fn fit(text: &str, width: f64, size: f64) -> f64 {
    let ems: f64 = text
        .chars()
        .map(|c| match c {
            c if c.is_ascii_uppercase() || c.is_ascii_digit() => 0.62,
            c if c.is_ascii() => 0.52,
            '\u{1100}'..='\u{11ff}' | '\u{2e80}'..='\u{9fff}' | '\u{ac00}'..='\u{d7af}' => 1.0,
            _ => 0.6,
        })
        .sum();
    if ems <= 0.0 {
        return size;
    }
    (((width - 6.0) / ems).min(size)).max(4.0)
}

#[derive(Default)]
struct Strings(Vec<String>);

impl Strings {
    fn s(&mut self, text: &str) -> usize {
        self.0.push(text.to_string());
        self.0.len() - 1
    }
}

/// The field box as the signer saw it (see `markup`), opaque so the hint under it is covered.
const FIELD_STYLE: &str = "stroke: 0.6pt + rgb(\"#2563eb\"), fill: rgb(\"#eff6ff\"), radius: 1.5pt";

const HEAD: &str = "#let d = json(\"/data.json\")\n#let s(i) = d.strings.at(i)\n";

impl Renderer {
    /// Transparent pages of the given sizes carrying the values.
    pub fn values_layer(
        &self,
        pages: &[(f64, f64)],
        values: &[PlacedValue],
    ) -> Result<Vec<u8>, RenderError> {
        let mut st = Strings::default();
        let mut m = String::from(HEAD);
        let _ = writeln!(
            m,
            "#set text(font: {}, size: 9pt, fill: rgb(\"#0b1f5c\"))\n#set page(margin: 0pt, fill: none)",
            crate::fonts::SANS_STACK
        );
        for (i, (w, h)) in pages.iter().enumerate() {
            let _ = write!(m, "#page(width: {w:.2}pt, height: {h:.2}pt)[");
            for v in values.iter().filter(|v| v.page as usize == i + 1) {
                let (x, y, bw, bh) = (v.x, v.y, v.width, v.height);
                let body = match v.kind {
                    ValueKind::Check => {
                        let size = (bh * 0.9).clamp(6.0, 14.0);
                        format!(
                            "align(center + horizon, text(size: {size:.1}pt, weight: \"bold\")[X])"
                        )
                    }
                    ValueKind::Signature => {
                        // The hand is small for its size: written a third larger.
                        let size = fit(&v.text, bw, (bh * 0.72).clamp(10.0, 28.0));
                        let t = st.s(&v.text);
                        format!(
                            "align(left + horizon, box(text(font: {}, size: {size:.1}pt, s({t}))))",
                            crate::fonts::HAND_STACK
                        )
                    }
                    ValueKind::Drawn => drawn(v, bw, bh),
                    ValueKind::Text => {
                        let size = fit(&v.text, bw, (bh * 0.68).clamp(5.0, 9.5));
                        let t = st.s(&v.text);
                        format!("align(left + horizon, box(text(size: {size:.1}pt, s({t}))))")
                    }
                };
                let _ = write!(
                    m,
                    "#place(top + left, dx: {x:.2}pt, dy: {y:.2}pt, box(width: {bw:.2}pt, height: {bh:.2}pt, inset: (x: 3pt), clip: true, {FIELD_STYLE}, {body}))"
                );
            }
            m.push_str("]\n");
        }
        self.compile_pdf(m, st.0, "values")
    }

    /// The certificate of completion as its own PDF, to be appended after the last page.
    pub fn certificate(&self, c: &Certificate) -> Result<Vec<u8>, RenderError> {
        let mut st = Strings::default();
        let mut m = String::from(HEAD);
        let paper = match c.paper {
            Paper::Letter => "us-letter",
            Paper::A4 => "a4",
        };
        let stamp = if c.test {
            let t = st.s("TEST");
            format!(
                "place(center + horizon, rotate(-35deg, text(120pt, weight: \"bold\", fill: rgb(220, 38, 38, 60), s({t}))))"
            )
        } else {
            "none".into()
        };
        let _ = writeln!(
            m,
            "#set page(paper: \"{paper}\", margin: (x: 2cm, y: 2cm), foreground: {stamp})\n\
             #set text(font: {}, size: 8.5pt)\n\
             #set table(stroke: 0.4pt + luma(170), inset: 4pt)",
            crate::fonts::SANS_STACK
        );
        let h = st.s(&c.heading);
        let _ = writeln!(m, "#text(size: 16pt, weight: \"bold\", s({h}))\n#v(0.6em)");
        let pairs = |st: &mut Strings, m: &mut String, lines: &[(String, String)]| {
            m.push_str("#table(columns: (auto, 1fr), ");
            for (k, v) in lines {
                let (k, v) = (st.s(k), st.s(v));
                let _ = write!(
                    m,
                    "strong(s({k})), text(font: \"DejaVu Sans Mono\", s({v})), "
                );
            }
            m.push_str(")\n");
        };
        pairs(&mut st, &mut m, &c.facts);
        let ph = st.s(&c.people_heading);
        let _ = writeln!(m, "#v(0.8em)\n#text(size: 11pt, weight: \"bold\", s({ph}))");
        for p in &c.people {
            let ph = st.s(&p.heading);
            let _ = writeln!(m, "#block(above: 0.8em, below: 0.3em, strong(s({ph})))");
            pairs(&mut st, &mut m, &p.lines);
        }
        let eh = st.s(&c.events_heading);
        let _ = writeln!(m, "#v(0.8em)\n#text(size: 11pt, weight: \"bold\", s({eh}))");
        m.push_str("#table(columns: (auto, auto, 1fr), ");
        for [t, e, d] in &c.events {
            let (t, e, d) = (st.s(t), st.s(e), st.s(d));
            let _ = write!(m, "s({t}), s({e}), s({d}), ");
        }
        m.push_str(")\n");
        self.compile_pdf(m, st.0, "certificate")
    }

    fn compile_pdf(
        &self,
        markup: String,
        strings: Vec<String>,
        ident: &str,
    ) -> Result<Vec<u8>, RenderError> {
        let data = serde_json::to_vec(&serde_json::json!({ "strings": strings }))
            .map_err(|e| RenderError::Compile(e.to_string()))?;
        let document = self.compile(markup, data, &[])?;
        export(&document, ident)
    }
}

/// A drawn signature as Typst curves: the pad's strokes scaled to fit the field (keeping their
/// proportions, centred), one curve per stroke, with round ends. Numbers only reach the
/// markup, never text from the page.
fn drawn(v: &PlacedValue, bw: f64, bh: f64) -> String {
    let Some((pw, ph, strokes)) = &v.strokes else {
        return "none".into();
    };
    let (iw, ih) = ((bw - 6.0).max(1.0), (bh - 2.0).max(1.0));
    let scale = (iw / pw.max(1.0)).min(ih / ph.max(1.0));
    let (ox, oy) = ((iw - pw * scale) / 2.0, (ih - ph * scale) / 2.0);
    let thickness = (scale * 3.0).clamp(0.5, 1.6);
    let at = |(x, y): (f64, f64)| {
        let x = if x.is_finite() {
            x.clamp(0.0, *pw)
        } else {
            0.0
        };
        let y = if y.is_finite() {
            y.clamp(0.0, *ph)
        } else {
            0.0
        };
        format!("({:.2}pt, {:.2}pt)", ox + x * scale, oy + y * scale)
    };
    let mut out = String::from("box(width: 100%, height: 100%, {");
    if v.filled {
        // One shape of every outline: where outlines nest, even-odd leaves the holes open.
        out.push_str(
            "place(top + left, curve(fill: rgb(\"#0b1f5c\"), fill-rule: \"even-odd\", stroke: none",
        );
        for outline in strokes.iter().filter(|s| s.len() >= 3) {
            let _ = write!(out, ", curve.move({})", at(outline[0]));
            for p in &outline[1..] {
                let _ = write!(out, ", curve.line({})", at(*p));
            }
            out.push_str(", curve.close()");
        }
        out.push_str("));})");
        return out;
    }
    for stroke in strokes.iter().filter(|s| !s.is_empty()) {
        let _ = write!(
            out,
            "place(top + left, curve(stroke: (paint: rgb(\"#0b1f5c\"), thickness: {thickness:.2}pt, cap: \"round\", join: \"round\"), curve.move({})",
            at(stroke[0])
        );
        if stroke.len() == 1 {
            let (x, y) = stroke[0];
            let _ = write!(out, ", curve.line({})", at((x + 0.5, y)));
        }
        for p in &stroke[1..] {
            let _ = write!(out, ", curve.line({})", at(*p));
        }
        out.push_str("));");
    }
    out.push_str("})");
    out
}
