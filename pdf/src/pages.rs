//! What the signing page shows of a laid-out document: each page as a picture at the widths
//! asked for, and its text as positioned runs, so that a screen reader reads the document and
//! the browser's find-in-page finds words in it. Signers never download a PDF engine.
//!
//! A page goes through Typst's SVG export and resvg (glyphs are outlines there, so no font is
//! looked up again), onto a white page, and is encoded as a 4-bit grey PNG when it has no
//! colour (most contracts), else as RGB.

use serde::Serialize;
use typst::layout::{Abs, Frame, FrameItem, Point, Transform};
use typst_layout::{Page, PagedDocument};

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

/// Draws every page of a laid-out document at each of `widths` (pixels) and collects its text.
pub fn page_views(document: &PagedDocument, widths: &[u32]) -> Result<Vec<PageView>, String> {
    document
        .pages()
        .iter()
        .map(|page| page_view(page, widths))
        .collect()
}

fn page_view(page: &Page, widths: &[u32]) -> Result<PageView, String> {
    let size = (page.frame.width().to_pt(), page.frame.height().to_pt());
    let svg = typst_svg::svg(
        page,
        &typst_svg::SvgOptions {
            render_bleed: false,
            pretty: false,
        },
    );
    let tree = resvg::usvg::Tree::from_str(&svg, &resvg::usvg::Options::default())
        .map_err(|e| format!("page picture: {e}"))?;
    let images = widths
        .iter()
        .map(|&w| picture(&tree, size, w))
        .collect::<Result<_, _>>()?;
    let mut text = Vec::new();
    runs(&page.frame, Transform::identity(), &mut text);
    Ok(PageView { size, images, text })
}

/// The page drawn `width` pixels wide on white.
fn picture(tree: &resvg::usvg::Tree, size: (f64, f64), width: u32) -> Result<Vec<u8>, String> {
    let scale = width as f64 / size.0.max(1.0);
    let height = (size.1 * scale).round().max(1.0) as u32;
    let mut pixmap = resvg::tiny_skia::Pixmap::new(width, height)
        .ok_or_else(|| format!("page picture of {width}×{height} pixels"))?;
    pixmap.fill(resvg::tiny_skia::Color::WHITE);
    // Typst's SVG is measured in points; the tree's size is the page's.
    let sx = width as f32 / tree.size().width();
    let sy = height as f32 / tree.size().height();
    resvg::render(
        tree,
        resvg::tiny_skia::Transform::from_scale(sx, sy),
        &mut pixmap.as_mut(),
    );
    encode(&pixmap)
}

/// PNG, grey when every pixel is (the page is opaque: drawn on white). Grey pages are 16
/// levels (4 bits), enough for anti-aliased text and a sixth to a quarter smaller than 256.
fn encode(pixmap: &resvg::tiny_skia::Pixmap) -> Result<Vec<u8>, String> {
    let rgba = pixmap.data();
    let grey = rgba.chunks_exact(4).all(|p| p[0] == p[1] && p[1] == p[2]);
    let (width, height) = (pixmap.width() as usize, pixmap.height() as usize);
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
        (
            png::ColorType::Rgb,
            png::BitDepth::Eight,
            rgba.chunks_exact(4)
                .flat_map(|p| [p[0], p[1], p[2]])
                .collect(),
        )
    };
    let mut out = Vec::with_capacity(data.len() / 8);
    let mut enc = png::Encoder::new(&mut out, pixmap.width(), pixmap.height());
    enc.set_color(color);
    enc.set_depth(depth);
    // Balanced, not High: a tenth larger, three times faster (the pictures are most of a
    // render's time; see bench/RESULTS.md).
    enc.set_compression(png::Compression::Balanced);
    let mut w = enc.write_header().map_err(|e| e.to_string())?;
    w.write_image_data(&data).map_err(|e| e.to_string())?;
    w.finish().map_err(|e| e.to_string())?;
    Ok(out)
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
