//! Hand-made PDFs an attacker would send as templates: written byte by byte here, so the
//! test controls every instruction a page runs.

use std::io::Write as _;

/// A two-page letter PDF. Page 1 asks the client to sign; page 2 draws `squares` white
/// squares of a tenth of a point where its fee is then written (invisible in print, millions
/// of shapes to a program that turns the page into pictures).
pub fn fee_pdf(squares: usize) -> Vec<u8> {
    let first = b"BT /F1 14 Tf 72 700 Td (Service agreement between the parties.) Tj ET\n\
BT /F1 12 Tf 72 600 Td (Client: {{Client signature;type=signature;role=client;height=30}}) Tj ET\n"
        .to_vec();
    // The squares first, the fee after them: a program that gives up on the squares part of
    // the way never draws the fee.
    let mut second = b"q 1 1 1 rg\n".to_vec();
    for i in 0..squares {
        let (x, y) = (
            72.0 + (i % 4000) as f64 * 0.11,
            640.0 + (i / 4000) as f64 * 0.11,
        );
        writeln!(second, "{x:.2} {y:.2} 0.1 0.1 re f").unwrap();
    }
    second.extend(b"Q\nBT /F1 28 Tf 72 650 Td (Fee: USD 50,000 a month) Tj ET\n");
    pdf(&[first, second])
}

/// A letter-sized PDF of the given page contents (flate-compressed), with Helvetica as /F1.
pub fn pdf(pages: &[Vec<u8>]) -> Vec<u8> {
    let mut objects: Vec<Vec<u8>> = Vec::new();
    // 1: catalog, 2: pages, 3: font, then a page and its content for each page.
    let kids: Vec<String> = (0..pages.len())
        .map(|i| format!("{} 0 R", 4 + 2 * i))
        .collect();
    objects.push(b"<< /Type /Catalog /Pages 2 0 R >>".to_vec());
    objects.push(
        format!(
            "<< /Type /Pages /Kids [{}] /Count {} >>",
            kids.join(" "),
            pages.len()
        )
        .into_bytes(),
    );
    objects.push(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>".to_vec());
    for (i, content) in pages.iter().enumerate() {
        objects.push(
            format!(
                "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] \
                 /Resources << /Font << /F1 3 0 R >> >> /Contents {} 0 R >>",
                5 + 2 * i
            )
            .into_bytes(),
        );
        let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::best());
        z.write_all(content).unwrap();
        let packed = z.finish().unwrap();
        let mut stream = format!(
            "<< /Length {} /Filter /FlateDecode >>\nstream\n",
            packed.len()
        )
        .into_bytes();
        stream.extend(packed);
        stream.extend(b"\nendstream");
        objects.push(stream);
    }
    file_of(&objects)
}

/// A PDF file of `objects` (numbered from 1, the first the catalog), with its cross-reference
/// table and trailer.
pub fn file_of(objects: &[Vec<u8>]) -> Vec<u8> {
    let mut out = b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n".to_vec();
    let mut offsets = Vec::new();
    for (i, o) in objects.iter().enumerate() {
        offsets.push(out.len());
        out.extend(format!("{} 0 obj\n", i + 1).into_bytes());
        out.extend(o);
        out.extend(b"\nendobj\n");
    }
    let xref = out.len();
    out.extend(format!("xref\n0 {}\n0000000000 65535 f \n", objects.len() + 1).into_bytes());
    for o in offsets {
        out.extend(format!("{o:010} 00000 n \n").into_bytes());
    }
    out.extend(
        format!(
            "trailer\n<< /Size {} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n",
            objects.len() + 1
        )
        .into_bytes(),
    );
    out
}
