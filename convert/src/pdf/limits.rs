//! What a PDF may cost before it is refused, and the error that says why.

use crate::cost::MAX_PAGE_OPERATIONS;

/// The most a page's content may decode to: a small stream that inflates past it is a bomb.
pub(crate) const MAX_CONTENT: usize = 32 * 1024 * 1024;
/// Every stream but pictures, decoded, all together at most this; each at most `MAX_CONTENT`.
pub(crate) const MAX_DECODED: usize = 128 * 1024 * 1024;
/// Object streams (each at most 4 MB decoded when the file is read) a file may have.
pub(crate) const MAX_OBJECT_STREAMS: usize = 256;
/// A picture's pixels: what a page's render may decode.
pub(crate) const MAX_PICTURE_PIXELS: u64 = 40_000_000;
/// Drawings (form XObjects) drawn, counting each time one draws another.
pub(crate) const MAX_FORM_USES: u64 = 20_000;
/// Glyphs drawn in the whole file.
pub(crate) const MAX_GLYPHS: usize = 2_000_000;
/// How many times taller than wide (or wider than tall) a page may be.
pub(crate) const MAX_ASPECT: f64 = 20.0;
/// Instructions the whole file runs, counted the same way.
pub const MAX_FILE_OPERATIONS: u64 = 3_000_000;

/// Why a PDF cannot be a template, said to its sender.
#[derive(Debug, PartialEq)]
pub struct PdfError(pub String);

impl std::fmt::Display for PdfError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

pub(crate) fn err(m: impl Into<String>) -> PdfError {
    PdfError(m.into())
}

pub(crate) fn too_many_operations(what: &str) -> PdfError {
    err(format!(
        "{what} of the PDF runs more than {MAX_PAGE_OPERATIONS} drawing instructions, the most \
         a page may, so that every signer's picture of it is drawn in full (flatten the page \
         or print it to PDF again)"
    ))
}
