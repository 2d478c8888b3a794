// Written by build.mjs; do not edit.
/// Every built file: its name, its content type, its bytes.
pub static FILES: &[(&str, &str, &[u8])] = &[
    ("sign-GZVMU7EN.js", "text/javascript; charset=utf-8", include_bytes!("sign-GZVMU7EN.js")),
    ("sign-MA6U36BB.css", "text/css; charset=utf-8", include_bytes!("sign-MA6U36BB.css")),
    ("signing_embed-CTKLAFEK.js", "text/javascript; charset=utf-8", include_bytes!("signing_embed-CTKLAFEK.js")),
];
/// Logical names (`sign.js`) to built names.
pub static MANIFEST: &[(&str, &str)] = &[
    ("sign.js", "sign-GZVMU7EN.js"),
    ("sign.css", "sign-MA6U36BB.css"),
    ("signing_embed.js", "signing_embed-CTKLAFEK.js"),
];
