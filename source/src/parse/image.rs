//! A picture in the source: a `data:` address of a PNG, JPEG, GIF or WebP, read and bounded.

use serde_json::{Map, Value};

use super::*;

impl Parser {
    /// An `image` node: `attrs.src` a `data:` address of a PNG, JPEG, GIF or WebP picture,
    /// whose kind is read from its bytes; `attrs.width` in points; `attrs.alt`.
    pub(super) fn image(
        &mut self,
        path: &str,
        attrs: Option<&Map<String, Value>>,
    ) -> Option<Image> {
        let ap = |k: &str| format!("{path}.attrs.{k}");
        let Some(src) = attrs.and_then(|a| a.get("src")).and_then(Value::as_str) else {
            self.err(&ap("src"), "is required: a data: address of the picture");
            return None;
        };
        let data = match data_url(src) {
            Ok(d) => d,
            Err(e) => {
                self.err(&ap("src"), e);
                return None;
            }
        };
        let (format, px_width, px_height) = match image_header(&data) {
            Ok(h) => h,
            Err(e) => {
                self.err(&ap("src"), e);
                return None;
            }
        };
        let pixels = px_width as u64 * px_height as u64;
        self.pixels += pixels;
        if self.pixels > MAX_DOC_PIXELS {
            self.err(
                &ap("src"),
                format!(
                    "the pictures hold more than {} million pixels together",
                    MAX_DOC_PIXELS / 1_000_000
                ),
            );
            return None;
        }
        let width = match attrs.and_then(|a| a.get("width")) {
            None | Some(Value::Null) => None,
            Some(w) => match w.as_f64() {
                Some(w) if (1.0..=2000.0).contains(&w) => Some(w),
                _ => {
                    self.err(&ap("width"), "must be a number of points from 1 to 2000");
                    None
                }
            },
        };
        let alt = match attrs.and_then(|a| a.get("alt")) {
            None | Some(Value::Null) => None,
            Some(Value::String(s)) if s.chars().count() <= 500 => {
                Some(s.trim().to_string()).filter(|s| !s.is_empty())
            }
            Some(_) => {
                self.err(&ap("alt"), "must be a string of at most 500 characters");
                None
            }
        };
        Some(Image {
            format,
            data: data.into(),
            px_width,
            px_height,
            width,
            alt,
        })
    }
}

/// The bytes of a base64 `data:` address. Any other address (a remote or relative one) is
/// refused: a source never makes the service fetch anything.
pub fn data_url(src: &str) -> Result<Vec<u8>, String> {
    use base64::Engine;
    let Some(rest) = src.trim().strip_prefix("data:") else {
        return Err("must be a data: address (data:image/png;base64,...); \
                    pictures are never fetched"
            .into());
    };
    let Some((head, body)) = rest.split_once(',') else {
        return Err("is not a data: address".into());
    };
    if !head.ends_with(";base64") {
        return Err("must be a base64 data: address (data:image/png;base64,...)".into());
    }
    if body.len() > MAX_IMAGE_BYTES / 3 * 4 + 4 {
        return Err(format!(
            "the picture is larger than {} MB",
            MAX_IMAGE_BYTES / (1024 * 1024)
        ));
    }
    const LENIENT: base64::engine::GeneralPurpose = base64::engine::GeneralPurpose::new(
        &base64::alphabet::STANDARD,
        base64::engine::GeneralPurposeConfig::new()
            .with_decode_padding_mode(base64::engine::DecodePaddingMode::Indifferent),
    );
    let clean: String = body.chars().filter(|c| !c.is_ascii_whitespace()).collect();
    LENIENT
        .decode(clean)
        .map_err(|_| "holds no valid base64".to_string())
}

/// A picture's kind and size in pixels, from its bytes; refused when it is of another kind
/// or larger than a render should decode.
pub fn image_header(data: &[u8]) -> Result<(ImageFormat, u32, u32), String> {
    let Some(format) = ImageFormat::sniff(data) else {
        return Err("is not a PNG, JPEG, GIF or WebP picture (read from its bytes)".into());
    };
    let size = imagesize::blob_size(data)
        .map_err(|_| format!("is not a readable {} picture", format.mime()))?;
    let (w, h) = (size.width as u64, size.height as u64);
    if w == 0 || h == 0 || w > 20_000 || h > 20_000 || w * h > MAX_IMAGE_PIXELS {
        return Err(format!(
            "the picture is {w} × {h} pixels; at most {} million pixels are allowed",
            MAX_IMAGE_PIXELS / 1_000_000
        ));
    }
    Ok((format, w as u32, h as u32))
}
