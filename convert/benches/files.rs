//! Templates from office files and pictures, each step as `POST /templates/file` runs it:
//! a 10-page Word file checked and cleaned, converted by LibreOffice in its sandbox (a fresh
//! process and profile each time), its PDF prepared; a page scanned at 150 dpi read by
//! tesseract, its tags covered, its page made.
//!   cargo bench -p signet-convert --bench files
//! Needs LibreOffice, bubblewrap, tesseract and poppler's pdftoppm (as CI installs them).

use std::io::Write;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};

/// A Word file of about ten pages: a heading and twelve clauses a page, and two tags each.
fn ten_page_docx() -> Vec<u8> {
    let mut body = String::new();
    for page in 1..=10 {
        body.push_str(&format!(
            "<w:p><w:r><w:rPr><w:b/><w:sz w:val=\"28\"/></w:rPr><w:t>Part {page}</w:t></w:r></w:p>"
        ));
        for p in 0..12 {
            body.push_str(&format!(
                "<w:p><w:r><w:t xml:space=\"preserve\">Clause {page}.{p}. The provider shall \
                 perform the services with reasonable care and skill, in accordance with good \
                 industry practice, and deliver each item by the date agreed in writing. The \
                 client shall pay each invoice within thirty days.</w:t></w:r></w:p>"
            ));
        }
        body.push_str(&format!(
            "<w:p><w:r><w:t xml:space=\"preserve\">Initials: {{{{Client initials {page};type=initials;role=client}}}} and {{{{Provider initials {page};type=initials;role=provider}}}}</w:t></w:r></w:p>"
        ));
    }
    let document = format!(
        r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>{body}</w:body></w:document>"#
    );
    let parts: [(&str, &str); 3] = [
        (
            "[Content_Types].xml",
            r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>"#,
        ),
        (
            "_rels/.rels",
            r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>"#,
        ),
        ("word/document.xml", &document),
    ];
    let mut z = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    for (name, data) in parts {
        z.start_file(name, zip::write::SimpleFileOptions::default())
            .unwrap_or_else(|e| panic!("{e}"));
        z.write_all(data.as_bytes())
            .unwrap_or_else(|e| panic!("{e}"));
    }
    z.finish().unwrap_or_else(|e| panic!("{e}")).into_inner()
}

/// A letter page with two tags, made by LibreOffice from a short Word file and scanned by
/// poppler at 150 dpi.
fn scanned_page(office: &signet_convert::office::Office) -> Vec<u8> {
    let docx = ten_page_docx();
    let cleaned = signet_convert::office::clean(&docx).unwrap_or_else(|e| panic!("{e}"));
    let pdf = office.to_pdf(&cleaned).unwrap_or_else(|e| panic!("{e}"));
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let path = dir.path().join("p.pdf");
    std::fs::write(&path, pdf).unwrap_or_else(|e| panic!("{e}"));
    let out = dir.path().join("page");
    let ok = std::process::Command::new("pdftoppm")
        .args(["-r", "150", "-png", "-singlefile", "-f", "1", "-l", "1"])
        .arg(&path)
        .arg(&out)
        .status()
        .is_ok_and(|s| s.success());
    assert!(ok, "pdftoppm is needed");
    std::fs::read(out.with_extension("png")).unwrap_or_else(|e| panic!("{e}"))
}

fn bench(c: &mut Criterion) {
    let office = signet_convert::office::Office::find().unwrap_or_else(|e| panic!("{e}"));
    let ocr = signet_convert::picture::Ocr::find().unwrap_or_else(|e| panic!("{e}"));
    let docx = ten_page_docx();
    let cleaned = signet_convert::office::clean(&docx).unwrap_or_else(|e| panic!("{e}"));
    let pdf = office.to_pdf(&cleaned).unwrap_or_else(|e| panic!("{e}"));
    let prepared = signet_convert::pdf::prepare(&pdf, 100).unwrap_or_else(|e| panic!("{e}"));
    eprintln!(
        "docx {} bytes -> PDF {} bytes: {} pages, {} tags",
        docx.len(),
        pdf.len(),
        prepared.pages.len(),
        prepared.tags.len()
    );
    let png = scanned_page(&office);
    let picture = signet_convert::picture::prepare(&png, &ocr).unwrap_or_else(|e| panic!("{e}"));
    eprintln!(
        "scan {} bytes -> page PDF {} bytes: {} tags, {} text runs",
        png.len(),
        picture.pdf.len(),
        picture.tags.len(),
        picture.text[0].len()
    );

    let mut g = c.benchmark_group("office");
    g.sample_size(10).measurement_time(Duration::from_secs(30));
    g.bench_function("check and clean a 10-page docx", |b| {
        b.iter(|| signet_convert::office::clean(&docx).unwrap_or_else(|e| panic!("{e}")))
    });
    g.bench_function(
        "convert a 10-page docx with LibreOffice (sandbox, fresh process and profile)",
        |b| b.iter(|| office.to_pdf(&cleaned).unwrap_or_else(|e| panic!("{e}"))),
    );
    g.bench_function(
        "prepare LibreOffice's 10-page PDF (tags found and cut)",
        |b| b.iter(|| signet_convert::pdf::prepare(&pdf, 100).unwrap_or_else(|e| panic!("{e}"))),
    );
    g.finish();

    let mut g = c.benchmark_group("picture");
    g.sample_size(10).measurement_time(Duration::from_secs(30));
    g.bench_function(
        "read a 150 dpi letter scan with tesseract, cover its tags, make its page",
        |b| {
            b.iter(|| {
                signet_convert::picture::prepare(&png, &ocr).unwrap_or_else(|e| panic!("{e}"))
            })
        },
    );
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
