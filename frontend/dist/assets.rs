// Written by build.mjs; do not edit.
/// Every built file: its name, its content type, its bytes.
pub static FILES: &[(&str, &str, &[u8])] = &[
    ("sign-3VQP5BZX.js", "text/javascript; charset=utf-8", include_bytes!("sign-3VQP5BZX.js")),
    ("sign-XYGNGBX7.css", "text/css; charset=utf-8", include_bytes!("sign-XYGNGBX7.css")),
    ("signing_embed-264W7NDU.js", "text/javascript; charset=utf-8", include_bytes!("signing_embed-264W7NDU.js")),
];
/// Logical names (`sign.js`) to built names.
pub static MANIFEST: &[(&str, &str)] = &[
    ("sign.js", "sign-3VQP5BZX.js"),
    ("sign.css", "sign-XYGNGBX7.css"),
    ("signing_embed.js", "signing_embed-264W7NDU.js"),
];
