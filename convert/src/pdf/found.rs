//! Tags found in the drawn text, with their rectangles, and the runs of text around them.

use crate::fields::short;
use kurbo::{Point, Rect};
use signet_source::FileRun;
use signet_source::tags::{self, Tag};

use super::glyphs::Drawn;
use super::limits::{PdfError, err};

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

/// A page's glyphs, tags left out, gathered into runs: a run goes on while the next glyph
/// sits on the same line close after the last; a gap wider than a fifth of the size is a
/// space.
pub(crate) fn runs(glyphs: &[Drawn], tags: &[FoundTag]) -> Vec<FileRun> {
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
pub(crate) struct FoundTag {
    pub(crate) glyphs: std::ops::Range<usize>,
    pub(crate) placed: PlacedTag,
}

pub(crate) fn find_tags(glyphs: &[Drawn], page: u32) -> Result<Vec<FoundTag>, PdfError> {
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
pub(crate) fn widest_line(glyphs: &[Drawn]) -> Rect {
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
pub(crate) fn joined<'s>(pieces: impl Iterator<Item = &'s str>) -> (String, Vec<usize>) {
    let mut text = String::new();
    let mut starts = Vec::new();
    for p in pieces {
        starts.push(text.len());
        text.push_str(p);
    }
    (text, starts)
}

/// The pieces whose text starts inside `start..end` of the whole.
pub(crate) fn span(starts: &[usize], start: usize, end: usize) -> std::ops::Range<usize> {
    let first = starts.partition_point(|s| *s < start);
    let last = starts.partition_point(|s| *s < end);
    first..last
}
