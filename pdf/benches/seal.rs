//! Sealing time of a 1-page and a 10-page document with two people, as the sealing job does
//! it: the values layer and the certificate rendered with Typst, both laid onto the sent file
//! as incremental updates, then PAdES B-LTA with the built-in time-stamp authority. "Without
//! rendering" takes the layer and the certificate as already rendered: the PDF and crypto work
//! alone.
//!   cargo bench -p signet-pdf --bench seal

use std::collections::BTreeMap;

use chrono::Utc;
use criterion::{Criterion, criterion_group, criterion_main};
use signet_pdf::{Certificate, CertificatePerson, Paper, PlacedValue, Renderer, ValueKind};
use signet_seal::{Authority, NewAuthority};
use signet_source::FieldType;

mod common;
use common::{input, source};

fn certificate() -> Certificate {
    let person = |name: &str, seat: &str| CertificatePerson {
        heading: format!("{name} · {seat}"),
        lines: vec![
            ("Email".into(), format!("{seat}@example.com")),
            ("IP address".into(), "203.0.113.7".into()),
            (
                "User agent".into(),
                "Mozilla/5.0 (X11; Linux x86_64)".into(),
            ),
            ("Opened".into(), "2026-11-22 10:00:00 UTC".into()),
            ("Consented".into(), "2026-11-22 10:01:00 UTC".into()),
            ("Signed".into(), "2026-11-22 10:02:00 UTC".into()),
        ],
    };
    Certificate {
        paper: Paper::Letter,
        heading: "Certificate of completion".into(),
        test: false,
        facts: vec![
            ("Document".into(), "doc_01BENCH".into()),
            ("Original SHA-256".into(), "ab".repeat(32)),
            ("Final SHA-256".into(), "cd".repeat(32)),
        ],
        people: vec![
            person("Ada Client", "client"),
            person("Bob Provider", "provider"),
        ],
        events: (0..12)
            .map(|i| {
                [
                    format!("2026-11-22 10:{i:02}:00 UTC"),
                    "signed".into(),
                    "Ada Client signed".into(),
                ]
            })
            .collect(),
        people_heading: "Signers and recipients".into(),
        events_heading: "Audit trail".into(),
    }
}

fn bench(c: &mut Criterion) {
    let renderer = Renderer::new();
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let authority = Authority::load_or_create(&dir.path().join("ca"), &NewAuthority::default())
        .unwrap_or_else(|e| panic!("{e}"));
    let values = BTreeMap::new();
    let seats = BTreeMap::from([
        ("client".to_string(), "Ada Client".to_string()),
        ("provider".to_string(), "Bob Provider".to_string()),
    ]);
    for pages in [1, 10] {
        let doc = source(pages);
        let sent = renderer
            .render(&input(&doc, &values, &seats))
            .unwrap_or_else(|e| panic!("{e}"));
        let marks: Vec<PlacedValue> = sent
            .fields
            .iter()
            .map(|f| PlacedValue {
                page: f.page,
                x: f.x,
                y: f.y,
                width: f.width,
                height: f.height,
                kind: match f.field.ty {
                    FieldType::Signature | FieldType::Initials => ValueKind::Signature,
                    _ => ValueKind::Text,
                },
                text: match f.field.ty {
                    FieldType::Initials => "AC".into(),
                    FieldType::Signature => "Ada Client".into(),
                    _ => "2026-11-22".into(),
                },
                strokes: None,
                filled: false,
            })
            .collect();
        let cert = certificate();
        let seal_all = |layer: &[u8], cert_pdf: &[u8]| {
            let with_values = signet_seal::stamp(&sent.pdf, layer, sent.pages.len())
                .unwrap_or_else(|e| panic!("{e}"));
            let complete =
                signet_seal::stamp(&with_values, cert_pdf, 0).unwrap_or_else(|e| panic!("{e}"));
            signet_seal::seal(
                &complete,
                &authority,
                authority.tsa(),
                false,
                "bench",
                Utc::now(),
            )
            .unwrap_or_else(|e| panic!("{e}"))
        };
        let layer = renderer
            .values_layer(&sent.pages, &marks)
            .unwrap_or_else(|e| panic!("{e}"));
        let cert_pdf = renderer
            .certificate(&cert)
            .unwrap_or_else(|e| panic!("{e}"));
        eprintln!(
            "{pages}-page source: {} pages, {} values, sealed file {} bytes",
            sent.pages.len(),
            marks.len(),
            seal_all(&layer, &cert_pdf).len()
        );
        let render_and_seal = |cert: &Certificate| {
            let layer = renderer
                .values_layer(&sent.pages, &marks)
                .unwrap_or_else(|e| panic!("{e}"));
            let cert_pdf = renderer.certificate(cert).unwrap_or_else(|e| panic!("{e}"));
            seal_all(&layer, &cert_pdf)
        };
        c.bench_function(
            &format!("seal {pages}-page document, with rendering"),
            |b| b.iter(|| render_and_seal(&cert)),
        );
        // Every sealed document differs (its id and hashes at least), so Typst's memo cache
        // helps less than with the same certificate again.
        let mut n = 0u64;
        c.bench_function(
            &format!("seal {pages}-page document, with rendering, new document each time"),
            |b| {
                b.iter(|| {
                    n += 1;
                    let mut fresh = cert.clone();
                    fresh.facts[0].1 = format!("doc_{n:026}");
                    fresh.facts[1].1 = format!("{n:064x}");
                    render_and_seal(&fresh)
                })
            },
        );
        c.bench_function(
            &format!("seal {pages}-page document, without rendering"),
            |b| b.iter(|| seal_all(&layer, &cert_pdf)),
        );
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(30);
    targets = bench
}
criterion_main!(benches);
