//! Every glyph of every page with its text and box, in drawing order, as hayro draws them.

use crate::cost::{MAX_FILE_PIXELS, Tally};
use hayro_interpret::hayro_syntax::Pdf;
use hayro_interpret::{
    BlendMode, ClipPath, Context, Device, GlyphDrawMode, Image, InterpreterCache,
    InterpreterSettings, InterpreterWarning, Paint, PathDrawMode, SoftMask, TransformExt,
    interpret_page,
};
use kurbo::{Affine, BezPath, Point, Rect};

use super::limits::{MAX_GLYPHS, PdfError, err};

/// One glyph as drawn: its text and its box, in points from the page's top-left corner.
#[derive(Clone, Debug)]
pub(crate) struct Drawn {
    pub(crate) text: String,
    pub(crate) rect: Rect,
    /// Its advance in thousandths of the font size, when the font says.
    pub(crate) advance: Option<f32>,
    pub(crate) at: Affine,
}

pub(crate) struct DrawnPage {
    pub(crate) size: (f64, f64),
    pub(crate) glyphs: Vec<Drawn>,
}

/// Collects glyphs and tallies what drawing the page will cost; draws nothing.
pub(crate) struct Collector {
    pub(crate) glyphs: Vec<Drawn>,
    pub(crate) tally: Tally,
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

pub(crate) fn bf_text(u: &hayro_interpret::hayro_cmap::BfString) -> String {
    use hayro_interpret::hayro_cmap::BfString;
    match u {
        BfString::Char(c) => c.to_string(),
        BfString::String(s) => s.clone(),
    }
}

pub(crate) fn glyphs(pdf: &[u8]) -> Result<Vec<DrawnPage>, PdfError> {
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
