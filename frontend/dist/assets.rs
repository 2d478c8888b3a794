// Written by build.mjs; do not edit.
/// Every built file: its name, its content type, its bytes.
pub static FILES: &[(&str, &str, &[u8])] = &[
    ("sign-6VKDMFSQ.css", "text/css; charset=utf-8", include_bytes!("sign-6VKDMFSQ.css")),
    ("sign-QR3OIUZB.js", "text/javascript; charset=utf-8", include_bytes!("sign-QR3OIUZB.js")),
    ("signing_embed-264W7NDU.js", "text/javascript; charset=utf-8", include_bytes!("signing_embed-264W7NDU.js")),
];
/// Logical names (`sign.js`) to built names.
pub static MANIFEST: &[(&str, &str)] = &[
    ("sign.css", "sign-6VKDMFSQ.css"),
    ("sign.js", "sign-QR3OIUZB.js"),
    ("signing_embed.js", "signing_embed-264W7NDU.js"),
];
