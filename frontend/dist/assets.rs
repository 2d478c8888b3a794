// Written by build.mjs; do not edit.
/// Every built file: its name, its content type, its bytes.
pub static FILES: &[(&str, &str, &[u8])] = &[
    ("sign-FDIG25NB.js", "text/javascript; charset=utf-8", include_bytes!("sign-FDIG25NB.js")),
    ("sign-J7QO4UNK.css", "text/css; charset=utf-8", include_bytes!("sign-J7QO4UNK.css")),
    ("signing_embed-CTKLAFEK.js", "text/javascript; charset=utf-8", include_bytes!("signing_embed-CTKLAFEK.js")),
];
/// Logical names (`sign.js`) to built names.
pub static MANIFEST: &[(&str, &str)] = &[
    ("sign.js", "sign-FDIG25NB.js"),
    ("sign.css", "sign-J7QO4UNK.css"),
    ("signing_embed.js", "signing_embed-CTKLAFEK.js"),
];
