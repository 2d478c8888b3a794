//! Rendering time of a 1-page and a 10-page source (contract profile, letter paper, fields
//! and signature blocks), warm: the renderer is built once, as in the server; and with the
//! signing page's pictures of each page.
//!   cargo bench -p signet-pdf --bench render

use std::collections::BTreeMap;

use criterion::{Criterion, criterion_group, criterion_main};
use signet_pdf::{RenderInput, Renderer};

mod common;
use common::{input, source};

fn bench(c: &mut Criterion) {
    let renderer = Renderer::new();
    let values = BTreeMap::new();
    let seats = BTreeMap::from([
        ("client".to_string(), "Ada".to_string()),
        ("provider".to_string(), "Bob".to_string()),
    ]);
    for pages in [1, 10] {
        let doc = source(pages);
        let input = input(&doc, &values, &seats);
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
        // What the signing page's pictures and text add to a render: each page drawn 750 and
        // 1,500 pixels wide, as PNG, and its text runs (a new document each time).
        c.bench_function(
            &format!("render {pages}-page source with page pictures, new document each time"),
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
                    renderer
                        .render_with_views(&fresh, 100, &[750, 1500])
                        .unwrap_or_else(|e| panic!("{e}"))
                })
            },
        );
        let views = renderer
            .render_with_views(&input, 100, &[750, 1500])
            .unwrap_or_else(|e| panic!("{e}"))
            .views;
        let bytes: Vec<usize> = views
            .iter()
            .flat_map(|v| v.images.iter().map(Vec::len))
            .collect();
        eprintln!(
            "{pages}-page source: page pictures of {:?} bytes (750, 1,500 pixels wide per page)",
            bytes
        );
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(30);
    targets = bench
}
criterion_main!(benches);
