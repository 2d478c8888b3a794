//! What the signing page shows of a laid-out document: each page as a picture at the widths
//! asked for, and its text as positioned runs, so that a screen reader reads the document and
//! the browser's find-in-page finds words in it. Signers never download a PDF engine.
//!
//! The pictures are drawn from the very PDF that people sign and that sealing writes onto,
//! by a PDF rasteriser (hayro), never from a second rendering of the layout: what a signer
//! is shown cannot drift from what is sealed. Anything the rasteriser reports it could not
//! draw (a font it cannot read, a picture it cannot decode) fails the pictures, and so the
//! render, rather than leaving a blank where the sealed copy prints. The widest picture is
//! drawn once; a picture half as wide is made from it. A page is encoded as a 4-bit grey PNG
//! when it has no colour (most contracts), else as RGB.

use std::sync::{Arc, Mutex};

use hayro::hayro_interpret::{InterpreterSettings, InterpreterWarning};
use hayro::hayro_syntax::Pdf;
use hayro::vello_cpu::color::palette::css::WHITE;
use serde::Serialize;
use typst::layout::{Abs, Frame, FrameItem, Point, Transform};
use typst_layout::PagedDocument;

/// A run of text as laid out, in points from the page's top-left corner.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TextRun {
    pub x: f64,
    pub y: f64,
    pub width: f64,
    pub height: f64,
    /// The font size in points, scaled with the run.
    pub size: f64,
    /// In logical order (an Arabic run reads right to left on the page).
    pub text: String,
}

/// One page as the signing page shows it.
#[derive(Clone, Debug)]
pub struct PageView {
    /// Width and height in points.
    pub size: (f64, f64),
    /// PNG pictures, one per width asked for, in that order.
    pub images: Vec<Vec<u8>>,
    pub text: Vec<TextRun>,
}

/// The tallest picture drawn, in pixels: a page of 200 inches at the widest width fits.
const MAX_HEIGHT: f32 = 65_535.0;

/// Draws every page of `pdf`, the file exported from `document`, at each of `widths`
/// (pixels), and collects the layout's text.
pub fn page_views(
    pdf: &[u8],
    document: &PagedDocument,
    widths: &[u32],
) -> Result<Vec<PageView>, String> {
    let mut drawn = pictures(pdf, widths)?;
    if drawn.len() != document.pages().len() {
        return Err(format!(
            "page pictures: the PDF has {} pages, its layout {}",
            drawn.len(),
            document.pages().len()
        ));
    }
    for (view, text) in drawn.iter_mut().zip(page_text(document)) {
        view.text = text;
    }
    Ok(drawn)
}

/// Each page's text runs as laid out, without pictures: what the signing page's text layer
/// needs from the layout (the pictures are drawn later, from the file).
pub fn page_text(document: &PagedDocument) -> Vec<Vec<TextRun>> {
    document
        .pages()
        .iter()
        .map(|page| {
            let mut text = Vec::new();
            runs(&page.frame, Transform::identity(), &mut text);
            text
        })
        .collect()
}

/// Every page of a PDF as PNG pictures at each of `widths` (pixels), with its size in
/// points and no text. Fails when the rasteriser says it could not draw something on a page.
pub fn pictures(pdf: &[u8], widths: &[u32]) -> Result<Vec<PageView>, String> {
    let drawer = Drawer::open(pdf)?;
    let cache = hayro::RenderCache::new();
    (0..drawer.pages())
        .map(|n| drawer.draw(n, widths, &cache))
        .collect()
}

/// One page of a PDF (`index` from 0) as PNG pictures at each of `widths`, with its size in
/// points and no text: what a job that draws a document page by page asks for, so that only
/// one page's pixels are held at a time whatever the page count.
pub fn picture(pdf: &[u8], index: usize, widths: &[u32]) -> Result<PageView, String> {
    let drawer = Drawer::open(pdf)?;
    if index >= drawer.pages() {
        return Err(format!(
            "page pictures: the PDF has {} pages, not {}",
            drawer.pages(),
            index + 1
        ));
    }
    drawer.draw(index, widths, &hayro::RenderCache::new())
}

/// A parsed PDF and what its pages' drawing shares.
struct Drawer {
    file: Pdf,
    warnings: Arc<Mutex<Vec<InterpreterWarning>>>,
    settings: InterpreterSettings,
}

impl Drawer {
    fn open(pdf: &[u8]) -> Result<Drawer, String> {
        let file = Pdf::new(pdf.to_vec()).map_err(|e| format!("page pictures: {e:?}"))?;
        let warnings: Arc<Mutex<Vec<InterpreterWarning>>> = Arc::default();
        let sink = warnings.clone();
        let settings = InterpreterSettings {
            warning_sink: Arc::new(move |w| {
                sink.lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner)
                    .push(w)
            }),
            ..InterpreterSettings::default()
        };
        Ok(Drawer {
            file,
            warnings,
            settings,
        })
    }

    fn pages(&self) -> usize {
        self.file.pages().len()
    }

    /// Page `n` (from 0) at each of `widths`: the widest drawn once, a width half of it
    /// made from that picture.
    fn draw<'a>(
        &'a self,
        n: usize,
        widths: &[u32],
        cache: &hayro::RenderCache<'a>,
    ) -> Result<PageView, String> {
        let page = &self.file.pages()[n];
        let (w, h) = page.render_dimensions();
        let size = (w as f64, h as f64);
        let Some(&widest) = widths.iter().max() else {
            return Ok(PageView {
                size,
                images: Vec::new(),
                text: Vec::new(),
            });
        };
        let big = self.raster(n, widest, cache)?;
        let images = widths
            .iter()
            .map(|&width| {
                if width == widest {
                    big.png()
                } else if width * 2 == widest {
                    big.halved().png()
                } else {
                    self.raster(n, width, cache)?.png()
                }
            })
            .collect::<Result<_, _>>()?;
        Ok(PageView {
            size,
            images,
            text: Vec::new(),
        })
    }

    fn raster<'a>(
        &'a self,
        n: usize,
        width: u32,
        cache: &hayro::RenderCache<'a>,
    ) -> Result<Raster, String> {
        let page = &self.file.pages()[n];
        let (w, h) = page.render_dimensions();
        let scale = width as f32 / w.max(1.0);
        let height = (h * scale).round().max(1.0);
        if height > MAX_HEIGHT || width > MAX_HEIGHT as u32 {
            return Err(format!(
                "page {}'s picture would be {width} × {height} pixels",
                n + 1
            ));
        }
        let pixmap = hayro::render(
            page,
            cache,
            &self.settings,
            &hayro::RenderSettings {
                x_scale: scale,
                y_scale: scale,
                width: Some(width as u16),
                height: Some(height as u16),
                bg_color: WHITE,
            },
        );
        let said = std::mem::take(
            &mut *self
                .warnings
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner),
        );
        if let Some(first) = said.first() {
            return Err(format!(
                "page {} cannot be shown as it prints: {}",
                n + 1,
                match first {
                    InterpreterWarning::UnsupportedFont => "a font on it cannot be drawn",
                    InterpreterWarning::ImageDecodeFailure => "a picture on it cannot be decoded",
                }
            ));
        }
        Ok(Raster {
            width: pixmap.width() as usize,
            height: pixmap.height() as usize,
            pixels: Pixels::Drawn(pixmap),
        })
    }
}

/// Opaque pixels, four bytes each (drawn on white, so premultiplied is plain RGBA).
struct Raster {
    width: usize,
    height: usize,
    pixels: Pixels,
}

/// A raster's bytes: the rasteriser's own (not copied: a 1,500-pixel page is 11.6 MB), or
/// made here.
enum Pixels {
    Drawn(hayro::vello_cpu::Pixmap),
    Made(Vec<u8>),
}

impl Raster {
    /// Half as wide and high, each pixel the mean of the (up to) four it covers.
    fn rgba(&self) -> &[u8] {
        match &self.pixels {
            Pixels::Drawn(p) => p.data_as_u8_slice(),
            Pixels::Made(v) => v,
        }
    }

    fn halved(&self) -> Raster {
        let source = self.rgba();
        let (width, height) = (self.width.div_ceil(2), self.height.div_ceil(2));
        let mut rgba = vec![0u8; width * height * 4];
        for y in 0..height {
            for x in 0..width {
                let mut sum = [0u32; 4];
                let mut n = 0;
                for (dx, dy) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
                    let (sx, sy) = (2 * x + dx, 2 * y + dy);
                    if sx < self.width && sy < self.height {
                        let i = (sy * self.width + sx) * 4;
                        for (c, s) in sum.iter_mut().enumerate() {
                            *s += source[i + c] as u32;
                        }
                        n += 1;
                    }
                }
                let o = (y * width + x) * 4;
                for (c, s) in sum.iter().enumerate() {
                    rgba[o + c] = ((s + n / 2) / n) as u8;
                }
            }
        }
        Raster {
            width,
            height,
            pixels: Pixels::Made(rgba),
        }
    }

    /// PNG, grey when every pixel is. Grey pages are 16 levels (4 bits), enough for
    /// anti-aliased text and a sixth to a quarter smaller than 256.
    fn png(&self) -> Result<Vec<u8>, String> {
        let (width, height, rgba) = (self.width, self.height, self.rgba());
        let grey = rgba.chunks_exact(4).all(|p| p[0] == p[1] && p[1] == p[2]);
        let mut palette: Option<Vec<u8>> = None;
        let (color, depth, data): (png::ColorType, png::BitDepth, Vec<u8>) = if grey {
            // Two pixels a byte, each row starting on a byte; 0..=255 to the nearest of 0..=15.
            let row = width.div_ceil(2);
            let mut packed = vec![0u8; row * height];
            for (y, line) in rgba.chunks_exact(width * 4).enumerate() {
                for (x, p) in line.chunks_exact(4).enumerate() {
                    let level = (p[0] as u16 + 8) / 17;
                    packed[y * row + x / 2] |= (level as u8) << if x % 2 == 0 { 4 } else { 0 };
                }
            }
            (png::ColorType::Grayscale, png::BitDepth::Four, packed)
        } else {
            // Colour is kept to 16 levels a channel too (field boxes, logos): pages then hold
            // a few hundred colours at most, and as a palette of at most 256 they are a
            // third of their size as RGB.
            let level = |c: u8| ((c as u16 + 8) / 17) as usize;
            // Palette index by 4-bit colour (4,096 of them); `u16::MAX` while unseen.
            let mut index = vec![u16::MAX; 4096];
            let mut colours: Vec<u8> = Vec::with_capacity(768);
            let mut indexed = Vec::with_capacity(width * height);
            for p in rgba.chunks_exact(4) {
                let (r, g, b) = (level(p[0]), level(p[1]), level(p[2]));
                let slot = &mut index[(r << 8) | (g << 4) | b];
                if *slot == u16::MAX {
                    if colours.len() == 768 {
                        break;
                    }
                    *slot = (colours.len() / 3) as u16;
                    colours.extend([r, g, b].map(|v| (v * 17) as u8));
                }
                indexed.push(*slot as u8);
            }
            if indexed.len() == width * height {
                palette = Some(colours);
                (png::ColorType::Indexed, png::BitDepth::Eight, indexed)
            } else {
                (
                    png::ColorType::Rgb,
                    png::BitDepth::Eight,
                    rgba.chunks_exact(4)
                        .flat_map(|p| [p[0], p[1], p[2]].map(|c| (level(c) * 17) as u8))
                        .collect(),
                )
            }
        };
        let mut out = Vec::with_capacity(data.len() / 8);
        let mut enc = png::Encoder::new(&mut out, width as u32, height as u32);
        enc.set_color(color);
        enc.set_depth(depth);
        if let Some(p) = palette {
            enc.set_palette(p);
        }
        // Adaptive filters. Grey pages at deflate level 8, not High (9): the rasteriser's
        // smoother edges made level 6 pictures of a full page of text about 1.5% larger, and
        // level 9 is far slower for a further half per cent. Palette pages (twice the bytes
        // to deflate: one a pixel) at level 6: level 8 took half of a render's time for 2.5%
        // smaller pictures (see bench/RESULTS.md).
        enc.set_compression(png::Compression::Balanced);
        enc.set_deflate_compression(png::DeflateCompression::Level(if grey { 8 } else { 6 }));
        let mut w = enc.write_header().map_err(|e| e.to_string())?;
        w.write_image_data(&data).map_err(|e| e.to_string())?;
        w.finish().map_err(|e| e.to_string())?;
        Ok(out)
    }
}

/// Every text run of a frame, placed on the page.
fn runs(frame: &Frame, ts: Transform, out: &mut Vec<TextRun>) {
    for (pos, item) in frame.items() {
        let here = ts.pre_concat(Transform::translate(pos.x, pos.y));
        match item {
            FrameItem::Group(g) => runs(&g.frame, here.pre_concat(g.transform), out),
            FrameItem::Text(t) => {
                let text = t.text.trim();
                if text.is_empty() {
                    continue;
                }
                let metrics = t.font.metrics();
                let ascender = metrics.ascender.at(t.size);
                let descender = metrics.descender.at(t.size);
                // The run's box: from the ascender above the baseline to the descender below.
                let top = Point::new(Abs::zero(), -ascender).transform(here);
                let bottom = Point::new(t.width(), -descender).transform(here);
                let scale = here.sy.get().abs();
                out.push(TextRun {
                    x: round(top.x.to_pt().min(bottom.x.to_pt())),
                    y: round(top.y.to_pt().min(bottom.y.to_pt())),
                    width: round((bottom.x - top.x).to_pt().abs()),
                    height: round((bottom.y - top.y).to_pt().abs()),
                    size: round(t.size.to_pt() * scale),
                    text: text.to_string(),
                });
            }
            _ => {}
        }
    }
}

fn round(v: f64) -> f64 {
    (v * 100.0).round() / 100.0
}
