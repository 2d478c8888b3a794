//! What drawing a PDF page will cost the renderer that draws signers' pictures of it.
//!
//! The count of a page's own instructions (`pdf::operations_in`) is not the whole cost:
//! the renderer (hayro) runs a Type 3 letter's instructions every time the letter is shown,
//! draws a tiling pattern's cell again for every shape painted with it, draws a whole page of
//! pixels for each soft mask under each transform it is used with (and keeps them until the
//! page is done), decodes a picture every time it is drawn, and paints every pixel a shape
//! covers, however often shapes are laid over each other. A `Tally` sits beside the glyph
//! collector while a template is read, follows the renderer's own rules for each of these,
//! and adds up instructions and pixels; past a budget it stops looking deeper, and the file
//! is refused. Pixels are counted at the signing page's largest picture, 1,500 pixels across.

use std::collections::{HashMap, HashSet};

use hayro_interpret::font::Glyph;
use hayro_interpret::pattern::Pattern;
use hayro_interpret::{
    BlendMode, CacheKey, ClipPath, Device, GlyphDrawMode, Image, Paint, PathDrawMode, SoftMask,
};
use kurbo::{Affine, BezPath, Point, Rect, Shape};

/// Instructions one page runs, each drawing's counted every time it is drawn. A dense page
/// of text runs a few thousand and a detailed chart tens of thousands; a page past this
/// costs a viewer (and the signing page's picture) seconds and hundreds of megabytes, and
/// is how a page can be made to look empty to one program and full to another.
pub const MAX_PAGE_OPERATIONS: u64 = 150_000;
/// The most drawing steps (each paint, clip, picture and letter, and each piece of a path
/// painted or clipped) one drawing of a page may take, repeats counted. Three times
/// `MAX_PAGE_OPERATIONS`, so a page within that whose instructions are all rectangles
/// painted one by one (six steps for two instructions) is within this too.
pub const MAX_PAGE_STEPS: u64 = 3 * MAX_PAGE_OPERATIONS;
/// The width of the largest picture the signing page draws of a page, in pixels.
pub(crate) const PICTURE_WIDTH: f64 = 1500.0;
/// The most pixels drawing one page may paint, decode and mask, overdraw counted: about
/// forty-five times an A4 page's 3.2 million at 1,500 pixels across.
pub const MAX_PAGE_PIXELS: u64 = 150_000_000;
/// The most for all of a file's pages together.
pub const MAX_FILE_PIXELS: u64 = 2_000_000_000;
/// The most soft masks (each a whole page of pixels, kept while the page draws) a page may
/// use, each transform it is used under counted apart.
pub const MAX_PAGE_MASKS: usize = 24;
/// The renderer's largest tiling-pattern cell, in pixels a side.
const MAX_CELL_SIDE: f64 = 3000.0;

/// What drawing costs: steps taken, pixels painted, decoded or masked.
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
pub(crate) struct Cost {
    pub draws: u64,
    pub pixels: u64,
}

impl Cost {
    fn add(&mut self, other: Cost) {
        self.draws = self.draws.saturating_add(other.draws);
        self.pixels = self.pixels.saturating_add(other.pixels);
    }
}

/// A memo of what one drawing of a Type 3 letter or pattern cell costs, by what it is and
/// the linear part of the transform it is drawn under.
type Memo = HashMap<(u128, [u64; 4]), Cost>;

pub(crate) struct Tally {
    pub cost: Cost,
    /// Where pixels count, in the interpreter's device space; outside a page (a letter or a
    /// cell measured on its own) everything counts.
    page: Rect,
    /// Picture pixels per device unit.
    scale: f64,
    /// The soft masks the renderer would keep for this page.
    masks: HashSet<u128>,
    memo: Memo,
}

impl Tally {
    /// A tally for a page of `size` points, interpreted in points.
    pub fn page(size: (f64, f64)) -> Self {
        Tally {
            cost: Cost::default(),
            page: Rect::new(0.0, 0.0, size.0, size.1),
            scale: PICTURE_WIDTH / size.0.max(1.0),
            masks: HashSet::new(),
            memo: Memo::new(),
        }
    }

    /// The tally is past a page's budget: nothing deeper is measured.
    pub fn over(&self) -> bool {
        self.cost.draws > MAX_PAGE_STEPS
            || self.cost.pixels > MAX_PAGE_PIXELS
            || self.masks.len() > MAX_PAGE_MASKS
    }

    /// What is wrong with the page, if anything, for a message naming `page`.
    pub fn refusal(&self, page: &str) -> Option<String> {
        if self.masks.len() > MAX_PAGE_MASKS {
            Some(format!(
                "{page} of the PDF uses more than {MAX_PAGE_MASKS} soft masks (transparency \
                 masks, each under its own transform); flatten its transparency or print it \
                 to PDF again"
            ))
        } else if self.cost.draws > MAX_PAGE_STEPS {
            Some(format!(
                "{page} of the PDF takes more than {MAX_PAGE_STEPS} drawing steps once its \
                 Type 3 letters, patterns and masks are drawn as often as they are used, the \
                 most a page may, so that every signer's picture of it is drawn in full \
                 (flatten the page or print it to PDF again)"
            ))
        } else if self.cost.pixels > MAX_PAGE_PIXELS {
            Some(format!(
                "{page} of the PDF paints more than {} million pixels to draw once (shapes, \
                 pictures and patterns laid over each other many times); flatten the page or \
                 print it to PDF again",
                MAX_PAGE_PIXELS / 1_000_000
            ))
        } else {
            None
        }
    }

    /// A tally for a letter or cell measured on its own, sharing this one's memo.
    fn nested(&mut self, scale: f64) -> Tally {
        Tally {
            cost: Cost::default(),
            page: Rect::new(-1e12, -1e12, 1e12, 1e12),
            scale,
            masks: HashSet::new(),
            memo: std::mem::take(&mut self.memo),
        }
    }

    fn area(&self, bounds: Rect) -> u64 {
        let r = bounds.intersect(self.page);
        if !(r.width() > 0.0 && r.height() > 0.0) {
            return 0;
        }
        let px = r.area() * self.scale * self.scale;
        if px.is_finite() { px as u64 } else { u64::MAX }
    }

    fn step(&mut self, pieces: usize, pixels: u64) {
        self.cost.add(Cost {
            draws: 1 + pieces as u64,
            pixels,
        });
    }

    /// A shape of `pieces` painted with `paint` over `bounds` (device space).
    fn painted(&mut self, pieces: usize, bounds: Rect, paint: &Paint<'_>) {
        let px = self.area(bounds);
        self.step(pieces, px);
        let Paint::Pattern(p) = paint else { return };
        match &**p {
            // The shading is drawn into a picture the size of the shape, then painted.
            Pattern::Shading(_) => self.cost.pixels = self.cost.pixels.saturating_add(px),
            Pattern::Tiling(t) => {
                // Drawn again, into a cell of its own, for every shape painted with it.
                let m = Affine::scale(self.scale) * t.matrix;
                let c = m.as_coeffs();
                let side = |v: Point, len: f64, step: f32| {
                    let s = v.to_vec2().length().clamp(1.0 / len, MAX_CELL_SIDE / len);
                    (s, (s * step as f64).abs().round())
                };
                let (bw, bh) = (t.bbox.width().max(1e-9), t.bbox.height().max(1e-9));
                let (xs, cw) = side(Point::new(c[0], c[1]), bw, t.x_step);
                let (ys, ch) = side(Point::new(c[2], c[3]), bh, t.y_step);
                let cell = (cw * ch) as u64;
                let key = (t.cache_key(), [xs, ys, 0.0, 0.0].map(f64::to_bits));
                let inner = match self.memo.get(&key) {
                    Some(c) => *c,
                    None if self.over() => Cost::default(),
                    None => {
                        let mut sub = self.nested(1.0);
                        sub.page = Rect::new(0.0, 0.0, cw, ch);
                        let at = Affine::scale_non_uniform(xs, ys)
                            * Affine::translate((-t.bbox.x0, -t.bbox.y0));
                        t.interpret(&mut sub, at, false);
                        self.memo = std::mem::take(&mut sub.memo);
                        self.memo.insert(key, sub.cost);
                        sub.cost
                    }
                };
                self.cost.add(inner);
                self.cost.pixels = self.cost.pixels.saturating_add(cell);
            }
        }
    }

    fn mask(&mut self, mask: Option<SoftMask<'_>>) {
        let Some(m) = mask else { return };
        if !self.masks.insert(m.cache_key()) || self.over() {
            return;
        }
        // A whole page drawn, then kept as the mask.
        let page = self.area(self.page).saturating_mul(2);
        let mut sub = self.nested(self.scale);
        sub.page = self.page;
        m.interpret(&mut sub);
        self.memo = std::mem::take(&mut sub.memo);
        self.cost.add(sub.cost);
        self.cost.pixels = self.cost.pixels.saturating_add(page);
    }
}

fn linear(at: Affine) -> [u64; 4] {
    let c = at.as_coeffs();
    [c[0], c[1], c[2], c[3]].map(f64::to_bits)
}

impl<'a> Device<'a> for Tally {
    fn set_soft_mask(&mut self, mask: Option<SoftMask<'a>>) {
        self.mask(mask);
    }
    fn set_blend_mode(&mut self, _: BlendMode) {}
    fn draw_path(&mut self, path: &BezPath, at: Affine, paint: &Paint<'a>, _: &PathDrawMode) {
        self.painted(
            path.elements().len(),
            (at * path.clone()).bounding_box(),
            paint,
        );
    }
    fn draw_rect(&mut self, rect: &Rect, at: Affine, paint: &Paint<'a>, _: &PathDrawMode) {
        self.painted(5, at.transform_rect_bbox(*rect), paint);
    }
    fn push_clip_path(&mut self, clip: &ClipPath) {
        let px = self.area(clip.path.bounding_box());
        self.step(clip.path.elements().len(), px);
    }
    fn push_transparency_group(&mut self, _: f32, mask: Option<SoftMask<'a>>, _: BlendMode) {
        self.step(0, 0);
        self.mask(mask);
    }
    fn draw_glyph(
        &mut self,
        glyph: &Glyph<'a>,
        at: Affine,
        glyph_at: Affine,
        paint: &Paint<'a>,
        _: &GlyphDrawMode,
    ) {
        match glyph {
            Glyph::Outline(g) => {
                let w = g.advance_width().unwrap_or(1000.0) as f64;
                let cell = (at * glyph_at).transform_rect_bbox(Rect::new(0.0, -200.0, w, 800.0));
                // A letter's outline is kept once drawn: one step, whatever its pieces.
                self.painted(0, cell, paint);
            }
            Glyph::Type3(g) => {
                // Its instructions run at every showing: measured once a size, then counted.
                self.step(0, 0);
                let whole = at * glyph_at;
                let key = (g.cache_key(), linear(whole));
                let inner = match self.memo.get(&key) {
                    Some(c) => *c,
                    None if self.over() => Cost::default(),
                    None => {
                        let mut sub = self.nested(self.scale);
                        let c = at.as_coeffs();
                        g.interpret(
                            &mut sub,
                            Affine::new([c[0], c[1], c[2], c[3], 0.0, 0.0]),
                            glyph_at,
                            paint,
                        );
                        self.memo = std::mem::take(&mut sub.memo);
                        self.memo.insert(key, sub.cost);
                        sub.cost
                    }
                };
                self.cost.add(inner);
            }
        }
    }
    fn draw_image(&mut self, image: Image<'a, '_>, at: Affine) {
        let (w, h) = (image.width() as f64, image.height() as f64);
        // Decoded at every drawing, then painted where it lands.
        let decoded = (w * h) as u64;
        let px = self.area(at.transform_rect_bbox(Rect::new(0.0, 0.0, w, h)));
        self.step(0, px.saturating_add(decoded));
    }
    fn pop_clip_path(&mut self) {}
    fn pop_transparency_group(&mut self) {}
}
