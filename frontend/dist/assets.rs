// Written by build.mjs; do not edit.
/// Every built file: its name, its content type, its bytes.
pub static FILES: &[(&str, &str, &[u8])] = &[
    ("sign-2WRYEUC3.js", "text/javascript; charset=utf-8", include_bytes!("sign-2WRYEUC3.js")),
    ("sign-QYHOK67A.css", "text/css; charset=utf-8", include_bytes!("sign-QYHOK67A.css")),
];
/// Logical names (`sign.js`) to built names.
pub static MANIFEST: &[(&str, &str)] = &[
    ("sign.js", "sign-2WRYEUC3.js"),
    ("sign.css", "sign-QYHOK67A.css"),
];
