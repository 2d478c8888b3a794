//! Pictures (PNG, JPEG, TIFF, WebP: a scan or a photograph of a page) made into a one-page
//! template: tesseract reads the words with their boxes, text tags are found among them,
//! their pixels are covered with the paper's colour around them, and the page is the picture
//! at its own resolution.
//!
//! The picture is decoded here (the `image` crate, with caps on its size), turned upright by
//! its EXIF orientation, and tesseract is given a grey PNG this process wrote, never the
//! sender's bytes. Tesseract runs as a child process with one thread, capped memory and CPU
//! time and a deadline.

use std::collections::BTreeMap;
use std::io::Cursor;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use image::{DynamicImage, Rgb, RgbImage};
use lopdf::{Document, Object, Stream, dictionary};
use signet_source::FileRun;
use signet_source::tags;

use crate::fields::short;
use crate::pdf::{PdfError, PlacedTag, Prepared, round};

mod decode;

pub use decode::MAX_PIXELS;
use decode::{PAGE_WIDTH_IN, Picture, decode, err};

/// How long tesseract may take over one picture.
pub const TIMEOUT: Duration = Duration::from_secs(60);
const ADDRESS_SPACE: u64 = 2 * 1024 * 1024 * 1024;
const CPU_SECONDS: u64 = 90;
/// Below this confidence (0 to 100) a word is not put in the text layer.
const MIN_CONFIDENCE: f64 = 30.0;

/// tesseract with its English words, as found on this machine.
#[derive(Clone, Debug)]
pub struct Ocr {
    tesseract: PathBuf,
    prlimit: PathBuf,
}

impl Ocr {
    /// Finds `tesseract` (with its English data) and `prlimit`; the error names what is
    /// missing.
    pub fn find() -> Result<Ocr, String> {
        let tesseract = crate::process::find_program(&["tesseract"]);
        let prlimit = crate::process::find_program(&["prlimit"]);
        let english = tesseract.as_ref().is_some_and(|t| {
            Command::new(t)
                .arg("--list-langs")
                .stdin(Stdio::null())
                .stderr(Stdio::null())
                .output()
                .is_ok_and(|o| {
                    String::from_utf8_lossy(&o.stdout)
                        .lines()
                        .any(|l| l == "eng")
                })
        });
        match (tesseract, prlimit) {
            (Some(tesseract), Some(prlimit)) if english => Ok(Ocr { tesseract, prlimit }),
            (t, p) => {
                let mut missing = Vec::new();
                if t.is_none() {
                    missing.push("no tesseract (Debian: tesseract-ocr, tesseract-ocr-eng)");
                } else if !english {
                    missing.push("tesseract without its English data (Debian: tesseract-ocr-eng)");
                }
                if p.is_none() {
                    missing.push("no prlimit (Debian: util-linux)");
                }
                Err(format!(
                    "templates from pictures read their tags with tesseract, and this \
                     installation has {}: send a PDF",
                    missing.join(" and ")
                ))
            }
        }
    }

    /// Words with their boxes in pixels, from a grey PNG.
    fn words(&self, png: &[u8], dpi: f64) -> Result<Vec<Word>, PdfError> {
        let dir = tempfile::Builder::new()
            .prefix("signet-ocr-")
            .tempdir()
            .map_err(|e| err(format!("could not be read (a working folder: {e})")))?;
        let input = dir.path().join("page.png");
        std::fs::write(&input, png).map_err(|e| err(format!("could not be read: {e}")))?;
        let out = dir.path().join("words");
        let mut child = Command::new(&self.prlimit)
            .arg(format!("--as={ADDRESS_SPACE}"))
            .arg(format!("--cpu={CPU_SECONDS}"))
            .arg("--core=0")
            .arg("--")
            .arg(&self.tesseract)
            .arg(&input)
            .arg(&out)
            .args([
                "--dpi",
                &format!("{}", dpi.round() as u32),
                "-l",
                "eng",
                "tsv",
            ])
            .env_clear()
            .env("OMP_THREAD_LIMIT", "1")
            .env("PATH", "/usr/bin:/bin")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| err(format!("could not be read (starting tesseract: {e})")))?;
        let started = Instant::now();
        let status =
            crate::process::wait_for(&mut child, started, TIMEOUT).map_err(|e| match e {
                None => err(format!(
                    "took tesseract more than {} s to read; it was stopped",
                    TIMEOUT.as_secs()
                )),
                Some(e) => err(format!("could not be read (waiting: {e})")),
            })?;
        let tsv = std::fs::read_to_string(out.with_extension("tsv")).unwrap_or_default();
        if !status.success() || tsv.is_empty() {
            tracing::warn!(code = ?status.code(), "tesseract did not read a picture");
            return Err(err("could not be read by tesseract"));
        }
        Ok(parse_tsv(&tsv))
    }
}

/// One word tesseract read: its line (block, paragraph, line), box in pixels, confidence.
#[derive(Clone, Debug, PartialEq)]
struct Word {
    line: (u32, u32, u32),
    left: f64,
    top: f64,
    width: f64,
    height: f64,
    confidence: f64,
    text: String,
}

fn parse_tsv(tsv: &str) -> Vec<Word> {
    tsv.lines()
        .skip(1)
        .filter_map(|l| {
            let c: Vec<&str> = l.splitn(12, '\t').collect();
            if c.len() < 12 || c[0] != "5" || c[11].trim().is_empty() {
                return None;
            }
            let n = |i: usize| c[i].parse::<f64>().ok();
            Some(Word {
                line: (c[2].parse().ok()?, c[3].parse().ok()?, c[4].parse().ok()?),
                left: n(6)?,
                top: n(7)?,
                width: n(8)?,
                height: n(9)?,
                confidence: n(10)?,
                text: c[11].trim().to_string(),
            })
        })
        .collect()
}

/// A tag found among the words: which words, and the parts of the first and last words it
/// takes (as fractions of their width).
struct Found {
    placed: PlacedTag,
    boxes: Vec<(f64, f64, f64, f64)>,
}

/// Reads a picture's tags with `ocr` and makes its page: the tags' pixels covered, the page
/// the picture at its resolution, the words (tags left out) its text layer.
pub fn prepare(bytes: &[u8], ocr: &Ocr) -> Result<Prepared, PdfError> {
    let Picture {
        mut rgb,
        dpi,
        jpeg,
        stated,
    } = decode(bytes)?;
    let gray = DynamicImage::ImageRgb8(rgb.clone()).to_luma8();
    let mut png = Vec::new();
    gray.write_to(&mut Cursor::new(&mut png), image::ImageFormat::Png)
        .map_err(|e| err(format!("could not be read: {e}")))?;
    drop(gray);
    let words = ocr.words(&png, dpi)?;
    let pt = 72.0 / dpi;
    let found = find_tags(&words, pt)?;
    let mut warnings = Vec::new();
    if !stated {
        warnings.push(format!(
            "the picture does not state its resolution; it was made {PAGE_WIDTH_IN} inches wide \
             ({} dpi)",
            dpi.round()
        ));
    }
    for f in &found {
        for b in &f.boxes {
            cover(&mut rgb, *b);
        }
    }
    let (w, h) = (f64::from(rgb.width()) * pt, f64::from(rgb.height()) * pt);
    let text = text_layer(&words, &found, pt);
    let pdf = page_pdf(&rgb, jpeg, (w, h))?;
    Ok(Prepared {
        pdf,
        pages: vec![(round(w), round(h))],
        tags: found.into_iter().map(|f| f.placed).collect(),
        text: vec![text],
        warnings,
    })
}

/// The tags among the words, line by line and across the lines of a paragraph.
fn find_tags(words: &[Word], pt: f64) -> Result<Vec<Found>, PdfError> {
    let mut paragraphs: BTreeMap<(u32, u32), Vec<&Word>> = BTreeMap::new();
    for w in words {
        paragraphs.entry((w.line.0, w.line.1)).or_default().push(w);
    }
    let mut out = Vec::new();
    for para in paragraphs.values() {
        let mut text = String::new();
        let mut spans = Vec::new();
        for w in para {
            // OCR often reads a tag's braces apart (`{ {Name` … `} }`): they join.
            let joins = (text.ends_with('{') && w.text.starts_with('{'))
                || (text.ends_with('}') && w.text.starts_with('}'));
            if !text.is_empty() && !joins {
                text.push(' ');
            }
            spans.push(text.len()..text.len() + w.text.len());
            text.push_str(&w.text);
        }
        for f in tags::find(&text) {
            let written = text[f.start..f.end].to_string();
            let tag = f.tag.map_err(|why| {
                err(format!(
                    "the text tag {} in the picture cannot be read: {why}",
                    short(&written)
                ))
            })?;
            // Each word the tag touches, cut to the part it takes.
            let mut boxes = Vec::new();
            let mut lines: BTreeMap<u32, (f64, f64, f64, f64)> = BTreeMap::new();
            for (w, span) in para.iter().zip(&spans) {
                let (from, to) = (span.start.max(f.start), span.end.min(f.end));
                if from >= to {
                    continue;
                }
                let chars = w.text.chars().count().max(1) as f64;
                let before = text[span.start..from].chars().count() as f64;
                let inside = text[from..to].chars().count() as f64;
                let x0 = w.left + w.width * before / chars;
                let x1 = x0 + w.width * inside / chars;
                let b = (x0, w.top, x1, w.top + w.height);
                boxes.push(b);
                let l = lines.entry(w.line.2).or_insert(b);
                *l = (l.0.min(b.0), l.1.min(b.1), l.2.max(b.2), l.3.max(b.3));
            }
            // A tag wrapped onto a second line takes its widest line's place.
            let widest = lines
                .values()
                .copied()
                .max_by(|a, b| (a.2 - a.0).total_cmp(&(b.2 - b.0)))
                .unwrap_or_default();
            let (x0, y0, x1, y1) = widest;
            out.push(Found {
                placed: PlacedTag::at(tag, written, 1, (x0 * pt, y0 * pt, x1 * pt, y1 * pt)),
                boxes,
            });
        }
    }
    Ok(out)
}

/// Paints a box (in pixels), a little larger than the letters, with the median colour of its
/// edge: the paper's, where the tag was written on it.
fn cover(rgb: &mut RgbImage, (x0, y0, x1, y1): (f64, f64, f64, f64)) {
    let (w, h) = rgb.dimensions();
    let pad = ((y1 - y0) * 0.15).max(2.0);
    let clamp = |v: f64, max: u32| v.round().clamp(0.0, f64::from(max.saturating_sub(1))) as u32;
    let (x0, y0) = (clamp(x0 - pad, w), clamp(y0 - pad, h));
    let (x1, y1) = (clamp(x1 + pad, w), clamp(y1 + pad, h));
    // The median of the edge's pixels, channel by channel: the paper's colour where most of
    // the edge is paper, unmoved by grain or by a letter that crosses the edge.
    let mut channels: [Vec<u8>; 3] = Default::default();
    let mut edge = |x: u32, y: u32| {
        for (c, v) in channels.iter_mut().zip(rgb.get_pixel(x, y).0) {
            c.push(v);
        }
    };
    for x in x0..=x1 {
        edge(x, y0);
        edge(x, y1);
    }
    for y in y0..=y1 {
        edge(x0, y);
        edge(x1, y);
    }
    let paper = channels.map(|mut c| {
        c.sort_unstable();
        c.get(c.len() / 2).copied().unwrap_or(255)
    });
    for y in y0..=y1 {
        for x in x0..=x1 {
            rgb.put_pixel(x, y, Rgb(paper));
        }
    }
}

/// The words tesseract is sure enough of, tags left out, gathered along their lines.
fn text_layer(words: &[Word], found: &[Found], pt: f64) -> Vec<FileRun> {
    let in_tag = |w: &Word| {
        found.iter().any(|f| {
            f.boxes.iter().any(|b| {
                let cx = w.left + w.width / 2.0;
                let cy = w.top + w.height / 2.0;
                cx >= b.0 - 1.0 && cx <= b.2 + 1.0 && cy >= b.1 && cy <= b.3
            })
        })
    };
    let mut out: Vec<FileRun> = Vec::new();
    let mut last_line = None;
    for w in words {
        if w.confidence < MIN_CONFIDENCE || in_tag(w) {
            last_line = None;
            continue;
        }
        let (x, y, width, height) = (w.left * pt, w.top * pt, w.width * pt, w.height * pt);
        match out.last_mut() {
            Some(run) if last_line == Some(w.line) => {
                run.text.push(' ');
                run.text.push_str(&w.text);
                let right = (x + width).max(run.x + run.width);
                let bottom = (y + height).max(run.y + run.height);
                run.y = run.y.min(y);
                run.width = right - run.x;
                run.height = bottom - run.y;
                run.size = run.size.max(height);
            }
            _ => out.push(FileRun {
                x,
                y,
                width,
                height,
                size: height,
                text: w.text.clone(),
            }),
        }
        last_line = Some(w.line);
    }
    for r in &mut out {
        (r.x, r.y, r.width, r.height, r.size) = (
            round(r.x),
            round(r.y),
            round(r.width),
            round(r.height),
            round(r.size),
        );
    }
    out
}

/// A one-page PDF of the picture, `size` points: a JPEG stays a JPEG (at high quality), the
/// rest is kept losslessly.
fn page_pdf(rgb: &RgbImage, jpeg: bool, size: (f64, f64)) -> Result<Vec<u8>, PdfError> {
    let (pw, ph) = rgb.dimensions();
    let mut doc = Document::with_version("1.7");
    let image = if jpeg {
        let mut out = Vec::new();
        image::codecs::jpeg::JpegEncoder::new_with_quality(&mut out, 92)
            .encode_image(rgb)
            .map_err(|e| err(format!("could not be made a page: {e}")))?;
        let mut s = Stream::new(
            dictionary! {
                "Type" => "XObject", "Subtype" => "Image",
                "Width" => pw as i64, "Height" => ph as i64,
                "ColorSpace" => "DeviceRGB", "BitsPerComponent" => 8,
                "Filter" => "DCTDecode",
            },
            out,
        );
        s.allows_compression = false;
        s
    } else {
        let mut s = Stream::new(
            dictionary! {
                "Type" => "XObject", "Subtype" => "Image",
                "Width" => pw as i64, "Height" => ph as i64,
                "ColorSpace" => "DeviceRGB", "BitsPerComponent" => 8,
            },
            rgb.as_raw().clone(),
        );
        s.compress()
            .map_err(|e| err(format!("could not be made a page: {e}")))?;
        s
    };
    let image_id = doc.add_object(image);
    let (w, h) = (round(size.0), round(size.1));
    let content = format!("q {w} 0 0 {h} 0 0 cm /Im0 Do Q");
    let content_id = doc.add_object(Stream::new(dictionary! {}, content.into_bytes()));
    let pages_id = doc.new_object_id();
    let page_id = doc.add_object(dictionary! {
        "Type" => "Page",
        "Parent" => pages_id,
        "MediaBox" => vec![0.into(), 0.into(), Object::Real(w as f32), Object::Real(h as f32)],
        "Resources" => dictionary! { "XObject" => dictionary! { "Im0" => image_id } },
        "Contents" => content_id,
    });
    doc.objects.insert(
        pages_id,
        Object::Dictionary(dictionary! {
            "Type" => "Pages", "Kids" => vec![page_id.into()], "Count" => 1,
        }),
    );
    let catalog = doc.add_object(dictionary! { "Type" => "Catalog", "Pages" => pages_id });
    doc.trailer.set("Root", catalog);
    let mut out = Vec::new();
    doc.save_to(&mut out)
        .map_err(|e| err(format!("could not be made a page: {e}")))?;
    Ok(out)
}

#[cfg(test)]
#[path = "picture_tests.rs"]
mod tests;
