//! Making an HTML template: the page turned into the source model, and the whole of it as
//! `POST /templates/html` does it (conversion, the source model's parse and the one layout,
//! no pictures), for a page that lays out to about 10 pages.
//!   cargo bench -p signet-convert --bench html

use std::collections::BTreeMap;

use criterion::{Criterion, criterion_group, criterion_main};
use signet_pdf::{Labels, Paper, Profile, RenderInput, Renderer};

/// About ten pages of a services agreement, as a word processor saves it to HTML: headings,
/// styled paragraphs, a list, a table with a spanning cell, and text tags for two seats.
fn page() -> String {
    let mut h = String::from(
        "<!doctype html><html><head><meta charset=utf-8><title>Agreement</title>\
         <style>p { margin: 0 0 8pt } h2 { font-size: 14pt }</style></head><body>\
         <h1>Services agreement</h1>",
    );
    for s in 1..=25 {
        h.push_str(&format!("<h2 style=\"color:#333\">{s}. Section {s}</h2>"));
        for p in 0..4 {
            h.push_str(&format!(
                "<p class=MsoNormal><span style=\"font-family:Calibri\">The provider shall \
                 perform the services described in clause {s}.{p} with <b>reasonable care</b> \
                 and <i>skill</i>, in accordance with good industry practice, and shall \
                 deliver each item by the date agreed in writing between the parties. The \
                 client shall pay each invoice within thirty days of receipt.</span></p>"
            ));
        }
        if s % 5 == 0 {
            h.push_str(
                "<ul><li>Deliverables as listed</li><li>Reports each month</li></ul>\
                 <table><tr><th colspan=2>Fees</th></tr><tr><td>Monthly</td><td>900 EUR</td></tr></table>",
            );
        }
    }
    h.push_str(
        "<p>Client: {{Client name;type=text;role=client}} {{Client signature;type=signature;role=client}}</p>\
         <p>Date: {{Client date;type=datenow;role=client}}</p>\
         <p>Provider: {{Provider name;type=text;role=provider}} {{Provider signature;type=signature;role=provider}}</p>\
         <p>Date: {{Provider date;type=datenow;role=provider}}</p></body></html>",
    );
    h
}

fn bench(c: &mut Criterion) {
    let html = page();
    let renderer = Renderer::new();
    let values = BTreeMap::new();
    let seats = BTreeMap::new();
    let make = |n: u64| {
        let converted = signet_convert::html::convert(&html).unwrap_or_else(|e| panic!("{e}"));
        let doc =
            signet_source::parse("source", &converted.source).unwrap_or_else(|p| panic!("{p:?}"));
        let title = format!("Agreement {n}");
        renderer
            .render(&RenderInput {
                doc: &doc,
                title: &title,
                footer: "",
                paper: Paper::Letter,
                profile: Profile::Plain,
                test: false,
                lang: "en",
                values: &values,
                seat_names: &seats,
                labels: Labels::EN,
            })
            .unwrap_or_else(|e| panic!("{e}"))
    };
    let out = make(0);
    eprintln!(
        "{} bytes of HTML lay out to {} pages with {} fields",
        html.len(),
        out.pages.len(),
        out.fields.len()
    );
    c.bench_function("convert a 10-page HTML page to the source model", |b| {
        b.iter(|| signet_convert::html::convert(&html).unwrap_or_else(|e| panic!("{e}")))
    });
    let mut n = 0;
    c.bench_function(
        "make a 10-page HTML template (convert, parse, lay out)",
        |b| {
            b.iter(|| {
                n += 1;
                make(n)
            })
        },
    );
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = bench
}
criterion_main!(benches);
