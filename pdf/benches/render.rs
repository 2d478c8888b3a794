//! Rendering time of a 1-page and a 10-page source (contract profile, letter paper, fields
//! and signature blocks), warm: the renderer is built once, as in the server.
//!   cargo bench -p signet-pdf --bench render

use std::collections::BTreeMap;

use criterion::{Criterion, criterion_group, criterion_main};
use serde_json::{Value, json};
use signet_pdf::{Labels, Paper, Profile, RenderInput, Renderer};

/// About `pages` pages of clauses with a field in every fifth and two signature blocks.
fn source(pages: usize) -> signet_source::Doc {
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

fn bench(c: &mut Criterion) {
    let renderer = Renderer::new();
    let values = BTreeMap::new();
    let seats = BTreeMap::from([
        ("client".to_string(), "Ada".to_string()),
        ("provider".to_string(), "Bob".to_string()),
    ]);
    for pages in [1, 10] {
        let doc = source(pages);
        let input = RenderInput {
            doc: &doc,
            title: "Services agreement",
            footer: "doc_bench",
            paper: Paper::Letter,
            profile: Profile::Contract,
            test: false,
            lang: "en",
            values: &values,
            seat_names: &seats,
            labels: Labels::EN,
        };
        let out = renderer.render(&input).unwrap_or_else(|e| panic!("{e}"));
        eprintln!(
            "{pages}-page source renders to {} pages, {} fields, {} bytes",
            out.pages.len(),
            out.fields.len(),
            out.pdf.len()
        );
        c.bench_function(
            &format!("render {pages}-page source, same words again"),
            |b| b.iter(|| renderer.render(&input).unwrap_or_else(|e| panic!("{e}"))),
        );
        // Every document the server renders differs (its id at least), so Typst's memo
        // cache helps less than with the same words again: a new title and footer each time.
        let mut n = 0u64;
        c.bench_function(
            &format!("render {pages}-page source, new document each time"),
            |b| {
                b.iter(|| {
                    n += 1;
                    let title = format!("Services agreement {n}");
                    let footer = format!("doc_{n:026}");
                    let fresh = RenderInput {
                        title: &title,
                        footer: &footer,
                        ..input
                    };
                    renderer.render(&fresh).unwrap_or_else(|e| panic!("{e}"))
                })
            },
        );
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(30);
    targets = bench
}
criterion_main!(benches);
