//! Making a PDF template's pages: a 10-page PDF made safe, its tags found and taken out
//! (`signet_convert::pdf::prepare`, what `POST /templates/file` does on the blocking pool).
//!   cargo bench -p signet-convert --bench pdf

use std::collections::BTreeMap;

use criterion::{Criterion, criterion_group, criterion_main};
use serde_json::json;

/// Ten pages of a services agreement made by Typst, with two tags on each page.
fn ten_pages() -> Vec<u8> {
    let mut content = Vec::new();
    for page in 1..=10 {
        content.push(json!({"type": "heading", "attrs": {"level": 2}, "content": [{"type": "text", "text": format!("Part {page}")}]}));
        for p in 0..12 {
            content.push(json!({"type": "paragraph", "content": [{"type": "text", "text": format!(
                "Clause {page}.{p}. The provider shall perform the services with reasonable care \
                 and skill, in accordance with good industry practice, and deliver each item by \
                 the date agreed in writing. The client shall pay each invoice within thirty days.")}]}));
        }
        content.push(
            json!({"type": "paragraph", "content": [{"type": "text", "text": format!(
            "Initials: {{{{Client initials {page};type=initials;role=client}}}} and \
             {{{{Provider initials {page};type=initials;role=provider}}}}")}]}),
        );
    }
    let doc = signet_source::parse("source", &json!({"type": "doc", "content": content}))
        .unwrap_or_else(|p| panic!("{p:?}"));
    signet_pdf::Renderer::new()
        .render(&signet_pdf::RenderInput {
            doc: &doc,
            title: "Services agreement",
            footer: "bench",
            paper: signet_pdf::Paper::Letter,
            profile: signet_pdf::Profile::Contract,
            test: false,
            lang: "en",
            values: &BTreeMap::new(),
            seat_names: &BTreeMap::new(),
            labels: signet_pdf::Labels::EN,
        })
        .unwrap_or_else(|e| panic!("{e}"))
        .pdf
}

fn bench(c: &mut Criterion) {
    let pdf = ten_pages();
    let out = signet_convert::pdf::prepare(&pdf, 100).unwrap_or_else(|e| panic!("{e}"));
    eprintln!(
        "{} bytes of PDF: {} pages, {} tags found and taken out",
        pdf.len(),
        out.pages.len(),
        out.tags.len()
    );
    c.bench_function(
        "prepare a 10-page PDF template (made safe, tags found and cut)",
        |b| b.iter(|| signet_convert::pdf::prepare(&pdf, 100).unwrap_or_else(|e| panic!("{e}"))),
    );
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = bench
}
criterion_main!(benches);
