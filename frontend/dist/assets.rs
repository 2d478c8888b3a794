// Written by build.mjs; do not edit.
/// Every built file: its name, its content type, its bytes.
pub static FILES: &[(&str, &str, &[u8])] = &[
    ("sign-MA6U36BB.css", "text/css; charset=utf-8", include_bytes!("sign-MA6U36BB.css")),
    ("sign-ZHQLAKR7.js", "text/javascript; charset=utf-8", include_bytes!("sign-ZHQLAKR7.js")),
    ("signing_embed-CTKLAFEK.js", "text/javascript; charset=utf-8", include_bytes!("signing_embed-CTKLAFEK.js")),
];
/// Logical names (`sign.js`) to built names.
pub static MANIFEST: &[(&str, &str)] = &[
    ("sign.css", "sign-MA6U36BB.css"),
    ("sign.js", "sign-ZHQLAKR7.js"),
    ("signing_embed.js", "signing_embed-CTKLAFEK.js"),
];
