// Written by build.mjs; do not edit.
/// Every built file: its name, its content type, its bytes.
pub static FILES: &[(&str, &str, &[u8])] = &[
    ("sign-2Q42EKH3.js", "text/javascript; charset=utf-8", include_bytes!("sign-2Q42EKH3.js")),
    ("sign-INWFMDBN.css", "text/css; charset=utf-8", include_bytes!("sign-INWFMDBN.css")),
];
/// Logical names (`sign.js`) to built names.
pub static MANIFEST: &[(&str, &str)] = &[
    ("sign.js", "sign-2Q42EKH3.js"),
    ("sign.css", "sign-INWFMDBN.css"),
];
