// Written by build.mjs; do not edit.
/// Every built file: its name, its content type, its bytes.
pub static FILES: &[(&str, &str, &[u8])] = &[
    ("sign-7DKKB7BP.js", "text/javascript; charset=utf-8", include_bytes!("sign-7DKKB7BP.js")),
    ("sign-XBP7VOEH.css", "text/css; charset=utf-8", include_bytes!("sign-XBP7VOEH.css")),
];
/// Logical names (`sign.js`) to built names.
pub static MANIFEST: &[(&str, &str)] = &[
    ("sign.js", "sign-7DKKB7BP.js"),
    ("sign.css", "sign-XBP7VOEH.css"),
];
