//! What the office file's checks share: its zip-based kind, the parts that carry macros, and
//! the error they give.

use crate::pdf::PdfError;

pub(super) fn err(m: impl Into<String>) -> PdfError {
    PdfError(m.into())
}

/// Which zip-based kind.
#[derive(Clone, Copy, PartialEq)]
pub(super) enum Family {
    Ooxml,
    Odf,
}

/// What a macro part is, when `name` is one.
pub(super) fn macro_part(family: Family, name: &str) -> Option<&'static str> {
    let lower = name.to_ascii_lowercase();
    match family {
        Family::Ooxml => {
            if lower.ends_with("vbaproject.bin")
                || lower.ends_with("vbadata.xml")
                || lower.ends_with("vbaprojectsignature.bin")
                || lower.ends_with("vbaprojectsignatureagile.bin")
            {
                Some("macro project (VBA)")
            } else if lower.contains("/activex/") {
                Some("ActiveX control")
            } else if lower.starts_with("customui/") {
                Some("ribbon customisation (it calls macros)")
            } else {
                None
            }
        }
        Family::Odf => {
            if lower.starts_with("basic/") || lower.starts_with("scripts/") {
                Some("macro library")
            } else if lower.starts_with("dialogs/") {
                Some("macro dialog")
            } else {
                None
            }
        }
    }
}
