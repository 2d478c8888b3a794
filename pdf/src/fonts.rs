//! Fonts compiled into the binary: Typst's own (Libertinus Serif, New Computer Modern, DejaVu
//! Sans Mono) plus Noto for Latin, Greek and Cyrillic in sans and serif, Arabic, and one CJK
//! face covering Chinese, Japanese and Korean; and the handwriting faces of typed signatures. `fonts/README.md` says where each comes from
//! and how it was subset.

use typst::foundations::Bytes;
use typst::text::Font;

macro_rules! embedded {
    ($($file:literal),* $(,)?) => {
        &[$(include_bytes!(concat!("../fonts/", $file)) as &[u8]),*]
    };
}

static OURS: &[&[u8]] = embedded!(
    "NotoSans-Regular.ttf",
    "NotoSans-Bold.ttf",
    "NotoSans-Italic.ttf",
    "NotoSans-BoldItalic.ttf",
    "NotoSerif-Regular.ttf",
    "NotoSerif-Bold.ttf",
    "NotoSerif-Italic.ttf",
    "NotoSerif-BoldItalic.ttf",
    "NotoNaskhArabic-Regular.ttf",
    "NotoNaskhArabic-Bold.ttf",
    "NotoSansArabic-Regular.ttf",
    "NotoSansArabic-Bold.ttf",
    "NotoSansCJK-Regular.otf",
    "NotoSansCJK-Bold.otf",
    "Caveat-Regular.ttf",
    "ArefRuqaa-Regular.ttf",
);

/// The handwriting faces of typed signatures and initials, which the signing page shows too:
/// file name and bytes.
pub static HANDWRITING: &[(&str, &[u8])] = &[
    (
        "Caveat-Regular.ttf",
        include_bytes!("../fonts/Caveat-Regular.ttf"),
    ),
    (
        "ArefRuqaa-Regular.ttf",
        include_bytes!("../fonts/ArefRuqaa-Regular.ttf"),
    ),
];

/// Family stack of typed signatures: a hand for Latin, Cyrillic and Arabic; Chinese, Japanese
/// and Korean in the CJK face.
pub(crate) const HAND_STACK: &str = "(\"Caveat\", \"Aref Ruqaa\", \"Noto Sans CJK SC\")";

/// Family stack of the `typeset` profile: the first family holding a character wins.
pub(crate) const SERIF_STACK: &str =
    "(\"Libertinus Serif\", \"Noto Serif\", \"Noto Naskh Arabic\", \"Noto Sans CJK SC\")";
/// Family stack of the `contract` profile.
pub(crate) const SANS_STACK: &str = "(\"Noto Sans\", \"Noto Sans Arabic\", \"Noto Sans CJK SC\")";

/// The scripts every profile renders with real glyphs.
pub const COVERAGE: &[&str] = &[
    "Latin (with Latin Extended: all of en, es, fr, de, pt, it, nl, pl, tr)",
    "Greek",
    "Cyrillic (ru)",
    "Arabic (ar)",
    "Han (zh, ja: CJK Unified Ideographs U+4E00 to U+9FFF and compatibility ideographs)",
    "Hiragana and Katakana (ja)",
    "Hangul (ko)",
];

pub(crate) fn load() -> Vec<Font> {
    typst_assets::fonts()
        .chain(OURS.iter().copied())
        .flat_map(|data| Font::iter(Bytes::new(data)))
        .collect()
}
