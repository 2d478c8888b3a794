//! A picture read and bounded before anything decodes it whole: its kind, size, TIFF pieces
//! and stated resolution.

use std::io::Cursor;

use image::{DynamicImage, ImageDecoder, ImageReader, RgbImage};

use crate::pdf::PdfError;

/// A picture's pixels at most.
pub const MAX_PIXELS: u64 = 40_000_000;
/// What decoding may allocate.
pub(super) const MAX_ALLOC: u64 = 512 * 1024 * 1024;
/// A picture that says less than this (or nothing) is taken as a scan or photograph whose
/// resolution was never set.
pub(super) const MIN_DPI: f64 = 100.0;
pub(super) const MAX_DPI: f64 = 1200.0;
/// Letter paper's width in inches: a picture without a resolution is made this wide.
pub(super) const PAGE_WIDTH_IN: f64 = 8.5;

pub(super) fn err(m: impl Into<String>) -> PdfError {
    PdfError(m.into())
}

/// A decoded picture: upright pixels, its resolution, whether it came as a JPEG.
pub(super) struct Picture {
    pub(super) rgb: RgbImage,
    pub(super) dpi: f64,
    pub(super) jpeg: bool,
    pub(super) stated: bool,
}

pub(super) fn decode(bytes: &[u8]) -> Result<Picture, PdfError> {
    let mut reader = ImageReader::new(Cursor::new(bytes))
        .with_guessed_format()
        .map_err(|e| err(format!("could not be read as a picture: {e}")))?;
    let mut limits = image::Limits::default();
    limits.max_alloc = Some(MAX_ALLOC);
    reader.limits(limits);
    let format = reader.format();
    let jpeg = format == Some(image::ImageFormat::Jpeg);
    if !matches!(
        format,
        Some(
            image::ImageFormat::Png
                | image::ImageFormat::Jpeg
                | image::ImageFormat::Tiff
                | image::ImageFormat::WebP
        )
    ) {
        return Err(err(
            "is a picture of a kind not taken: send PNG, JPEG, TIFF or WebP",
        ));
    }
    if format == Some(image::ImageFormat::Tiff) {
        tiff_check(bytes)?;
    }
    let mut decoder = reader
        .into_decoder()
        .map_err(|e| err(format!("could not be read as a picture: {e}")))?;
    let (w, h) = decoder.dimensions();
    if u64::from(w) * u64::from(h) > MAX_PIXELS {
        return Err(err(format!(
            "is a picture of {w} × {h} pixels; at most {} million are taken",
            MAX_PIXELS / 1_000_000
        )));
    }
    let orientation = decoder.orientation().ok();
    let mut image = DynamicImage::from_decoder(decoder)
        .map_err(|e| err(format!("could not be read as a picture: {e}")))?;
    if let Some(o) = orientation {
        image.apply_orientation(o);
    }
    let stated = stated_dpi(bytes).filter(|d| (MIN_DPI..=MAX_DPI).contains(d));
    let rgb = image.to_rgb8();
    let dpi = stated.unwrap_or_else(|| (f64::from(rgb.width()) / PAGE_WIDTH_IN).max(72.0));
    // A page at least an inch and at most 200 inches (PDF's largest) each way.
    let (w_in, h_in) = (f64::from(rgb.width()) / dpi, f64::from(rgb.height()) / dpi);
    if w_in < 1.0 || h_in < 1.0 || w_in > 200.0 || h_in > 200.0 {
        return Err(err(format!(
            "makes a page of {w_in:.2} × {h_in:.2} inches at {} dpi; a page is 1 to 200 inches \
             each way",
            dpi.round()
        )));
    }
    // The signing page draws each page 1,500 pixels wide, as for PDF templates.
    if h_in > w_in * crate::pdf::MAX_ASPECT || w_in > h_in * crate::pdf::MAX_ASPECT {
        return Err(err(format!(
            "makes a page of {w_in:.2} × {h_in:.2} inches, more than {} times as long one way \
             as the other; split it into pages",
            crate::pdf::MAX_ASPECT
        )));
    }
    Ok(Picture {
        rgb,
        dpi,
        jpeg,
        stated: stated.is_some(),
    })
}

/// TIFF compressions taken: none, LZW, Deflate (both codes) and PackBits. JPEG inside TIFF is
/// refused: each strip is a JPEG of its own size, decoded whatever the TIFF says its pixels
/// are, so a small file could make the decoder work for hours.
pub(super) const TIFF_COMPRESSIONS: [u16; 5] = [1, 5, 8, 32946, 32773];
/// Strips or tiles a TIFF may have.
pub(super) const MAX_TIFF_PIECES: u32 = 65_536;

/// Reads the first directory of a classic TIFF and refuses what could cost more than its
/// pixels: another compression than those taken, or too many strips or tiles.
pub(super) fn tiff_check(bytes: &[u8]) -> Result<(), PdfError> {
    let little = bytes.starts_with(b"II");
    let u16_at = |i: usize| -> Option<u16> {
        let b: [u8; 2] = bytes.get(i..i + 2)?.try_into().ok()?;
        Some(if little {
            u16::from_le_bytes(b)
        } else {
            u16::from_be_bytes(b)
        })
    };
    let u32_at = |i: usize| -> Option<u32> {
        let b: [u8; 4] = bytes.get(i..i + 4)?.try_into().ok()?;
        Some(if little {
            u32::from_le_bytes(b)
        } else {
            u32::from_be_bytes(b)
        })
    };
    let unreadable = || err("is a TIFF whose first page cannot be read: send it as PNG or JPEG");
    if u16_at(2) != Some(42) {
        return Err(err("is a BigTIFF or not a TIFF: send it as PNG or JPEG"));
    }
    let ifd = u32_at(4).ok_or_else(unreadable)? as usize;
    let count = u16_at(ifd).ok_or_else(unreadable)? as usize;
    for n in 0..count {
        let at = ifd + 2 + n * 12;
        let tag = u16_at(at).ok_or_else(unreadable)?;
        let kind = u16_at(at + 2).ok_or_else(unreadable)?;
        let values = u32_at(at + 4).ok_or_else(unreadable)?;
        match tag {
            259 => {
                let c = if kind == 3 {
                    u16_at(at + 8)
                } else {
                    u32_at(at + 8).map(|v| v as u16)
                }
                .ok_or_else(unreadable)?;
                if !TIFF_COMPRESSIONS.contains(&c) {
                    return Err(err(format!(
                        "is a TIFF compressed in a way not taken ({}): send it as PNG or JPEG",
                        if matches!(c, 6 | 7) {
                            "JPEG".to_string()
                        } else {
                            format!("kind {c}")
                        }
                    )));
                }
            }
            273 | 324 if values > MAX_TIFF_PIECES => {
                return Err(err(format!(
                    "is a TIFF of {values} strips or tiles; at most {MAX_TIFF_PIECES} are taken"
                )));
            }
            _ => {}
        }
    }
    Ok(())
}

/// The resolution a PNG (`pHYs`) or JPEG (JFIF) states, in dots per inch.
pub(super) fn stated_dpi(bytes: &[u8]) -> Option<f64> {
    if bytes.starts_with(b"\x89PNG\r\n\x1a\n") {
        let mut at = 8;
        while at + 12 <= bytes.len() {
            let len = u32::from_be_bytes(bytes[at..at + 4].try_into().ok()?) as usize;
            let kind = &bytes[at + 4..at + 8];
            if kind == b"pHYs" && len == 9 && at + 17 <= bytes.len() {
                let d = &bytes[at + 8..at + 17];
                let x = u32::from_be_bytes(d[0..4].try_into().ok()?);
                return (d[8] == 1).then(|| f64::from(x) * 0.0254);
            }
            if kind == b"IDAT" {
                return None;
            }
            at += 12 + len;
        }
        return None;
    }
    if bytes.starts_with(&[0xff, 0xd8]) && bytes.len() > 20 && &bytes[6..11] == b"JFIF\0" {
        let units = bytes[13];
        let x = f64::from(u16::from_be_bytes([bytes[14], bytes[15]]));
        return match units {
            1 => Some(x),
            2 => Some(x * 2.54),
            _ => None,
        };
    }
    None
}
