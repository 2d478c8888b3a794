//! The person-facing pages' built files (`dist/`, written by `build.mjs` from `src/`), in the
//! binary: `signet serve` needs no Node. A test fails when `dist/` differs from a fresh build.

mod assets {
    include!("dist/assets.rs");
}

/// The handwriting faces of typed signatures, the same files the sealed PDF uses
/// (`pdf/fonts/`), under names that carry the font's version (they are cached for good).
static FONTS: &[(&str, &str, &[u8])] = &[
    (
        "Caveat-2.000.ttf",
        "font/ttf",
        include_bytes!("../pdf/fonts/Caveat-Regular.ttf"),
    ),
    (
        "ArefRuqaa-1.003.ttf",
        "font/ttf",
        include_bytes!("../pdf/fonts/ArefRuqaa-Regular.ttf"),
    ),
];

/// A built file by its built name (`sign-3FQ2.js`), or a handwriting face: that name, its
/// content type and bytes.
pub fn file(name: &str) -> Option<(&'static str, &'static str, &'static [u8])> {
    assets::FILES
        .iter()
        .chain(FONTS)
        .find(|(n, _, _)| *n == name)
        .copied()
}

/// The built name of a logical one (`sign.js`).
pub fn built(logical: &str) -> Option<&'static str> {
    assets::MANIFEST
        .iter()
        .find(|(l, _)| *l == logical)
        .map(|(_, b)| *b)
}
