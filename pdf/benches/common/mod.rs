//! What the benchmarks share: a source of about N pages.

use std::collections::BTreeMap;

use serde_json::{Value, json};
use signet_pdf::{Labels, Paper, Profile, RenderInput};

/// About `pages` pages of clauses with a field in every fifth and two signature blocks.
pub fn source(pages: usize) -> signet_source::Doc {
    let mut content = vec![];
    for i in 0..pages * 8 {
        content.push(json!({"type": "heading", "attrs": {"level": 2}, "content": [{"type": "text", "text": format!("Clause {i}")}]}));
        let mut para = vec![
            json!({"type": "text", "text": "The parties agree that the services described in this clause are provided with reasonable care and skill, on the dates set out in the schedule, and that any change is agreed in writing. "}),
        ];
        if i % 5 == 0 {
            para.push(json!({"type": "fieldTag", "attrs": {"name": format!("Initials {i}"), "type": "initials", "role": "client"}}));
        }
        content.push(json!({"type": "paragraph", "content": para}));
    }
    content.push(json!({"type": "signatureBlock", "attrs": {"role": "client"}}));
    content.push(json!({"type": "signatureBlock", "attrs": {"role": "provider"}}));
    signet_source::parse(
        "source",
        &json!({"type": "doc", "content": Value::Array(content)}),
    )
    .unwrap_or_else(|e| panic!("{e:?}"))
}

/// The render input both benchmarks use: contract profile, letter paper, English.
pub fn input<'a>(
    doc: &'a signet_source::Doc,
    values: &'a BTreeMap<String, String>,
    seats: &'a BTreeMap<String, String>,
) -> RenderInput<'a> {
    RenderInput {
        doc,
        title: "Services agreement",
        footer: "doc_bench",
        paper: Paper::Letter,
        profile: Profile::Contract,
        test: false,
        lang: "en",
        values,
        seat_names: seats,
        labels: Labels::EN,
    }
}
