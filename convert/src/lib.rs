//! Templates from what people already have: HTML pages, PDFs, office files (through
//! LibreOffice) and pictures. Each turns into what the rest of Signet knows: the source model (for HTML),
//! printed by the same Typst engine as documents from words, so no browser runs and nothing
//! is fetched.

mod cost;
pub mod fields;
pub mod html;
pub mod office;
pub mod pdf;
pub mod picture;
mod process;

#[cfg(test)]
mod tests;

#[cfg(test)]
mod pdf_tests;

#[cfg(test)]
mod office_tests;

/// What kind of file a template is made from, read from its bytes (never from its name).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileKind {
    Pdf,
    /// Word processors' files: docx, doc, odt, rtf.
    Text,
    /// Spreadsheets: xlsx, xls, ods.
    Sheet,
    /// Presentations: pptx, ppt, odp.
    Slides,
    /// An office file of the old binary format, of one of the three kinds above.
    OldOffice,
    /// PNG, JPEG, TIFF or WebP.
    Picture,
    Unknown,
}

impl FileKind {
    /// Reads the kind from the first bytes (and, for zip-based office files, the names of
    /// their first parts).
    pub fn sniff(bytes: &[u8]) -> FileKind {
        let head = &bytes[..bytes.len().min(1024)];
        let has = |hay: &[u8], needle: &[u8]| hay.windows(needle.len()).any(|w| w == needle);
        if head.windows(5).any(|w| w == b"%PDF-") {
            return FileKind::Pdf;
        }
        if bytes.starts_with(b"PK\x03\x04") {
            let first = &bytes[..bytes.len().min(64 * 1024)];
            return if has(first, b"word/") || has(first, b"opendocument.text") {
                FileKind::Text
            } else if has(first, b"xl/") || has(first, b"opendocument.spreadsheet") {
                FileKind::Sheet
            } else if has(first, b"ppt/") || has(first, b"opendocument.presentation") {
                FileKind::Slides
            } else {
                FileKind::Unknown
            };
        }
        if bytes.starts_with(&[0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]) {
            return FileKind::OldOffice;
        }
        if bytes.starts_with(b"{\\rtf") {
            return FileKind::Text;
        }
        if signet_source::ImageFormat::sniff(bytes).is_some()
            || bytes.starts_with(b"II*\0")
            || bytes.starts_with(b"MM\0*")
        {
            return FileKind::Picture;
        }
        FileKind::Unknown
    }
}
