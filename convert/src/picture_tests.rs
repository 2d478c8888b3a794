//! Pictures: a page scanned at 150 dpi (PNG stating its resolution) and the same page as a
//! photograph would give it (grey-tinted paper, grain, JPEG, no resolution); hostile
//! pictures refused before they are decoded.

use super::decode::stated_dpi;
use super::*;
use crate::pdf_tests::{tool, typst_pdf, write};

fn ocr() -> Option<Ocr> {
    match Ocr::find() {
        Ok(o) => Some(o),
        Err(e) => {
            signet_testkit::part("ocr", Some(e));
            None
        }
    }
}

/// Typst's tagged page as poppler rasterises it at `dpi`, as a PNG.
fn scanned(dpi: u32) -> Option<Vec<u8>> {
    let dir = tempfile::tempdir().unwrap();
    let pdf = write(&dir, "p.pdf", &typst_pdf());
    let out = dir.path().join("page").to_string_lossy().into_owned();
    tool(
        "pdftoppm",
        &["-r", &dpi.to_string(), "-png", "-singlefile", &pdf, &out],
    )?;
    Some(std::fs::read(format!("{out}.png")).unwrap())
}

/// Where Typst drew each tag, in points, read from the PDF itself.
fn drawn_tags() -> Vec<PlacedTag> {
    crate::pdf::prepare(&typst_pdf(), 10).unwrap().tags
}

fn near(a: f64, b: f64, within: f64) -> bool {
    (a - b).abs() <= within
}

#[test]
fn a_scanned_page_gives_its_tags_where_they_were_drawn_and_they_are_covered() {
    let (Some(ocr), Some(png)) = (ocr(), scanned(150)) else {
        return;
    };
    assert_eq!(stated_dpi(&png).map(f64::round), Some(150.0));
    let out = prepare(&png, &ocr).unwrap_or_else(|e| panic!("{e}"));
    assert!(out.warnings.is_empty(), "{:?}", out.warnings);
    // The page is the picture at its resolution: A4.
    assert!(
        near(out.pages[0].0, 595.28, 0.6) && near(out.pages[0].1, 841.89, 0.6),
        "{:?}",
        out.pages
    );
    let drawn = drawn_tags();
    let got: Vec<&str> = out.tags.iter().map(|t| t.tag.label.as_str()).collect();
    assert_eq!(got, ["Tenant sign", "Date"]);
    for (t, d) in out.tags.iter().zip(&drawn) {
        assert_eq!(t.tag.role, d.tag.role);
        assert!(near(t.x, d.x, 2.0) && near(t.y, d.y, 3.0), "{t:?} vs {d:?}");
        if d.tag.width.is_none() {
            assert!(near(t.width, d.width, 4.0), "{t:?} vs {d:?}");
        }
    }
    assert_eq!((out.tags[1].width, out.tags[1].height), (90.0, 18.0));
    // The words are the text layer, tags left out.
    let runs: Vec<&str> = out.text[0].iter().map(|r| r.text.as_str()).collect();
    assert!(
        runs.iter()
            .any(|r| r.contains("The tenant rents the studio")),
        "{runs:?}"
    );
    assert!(
        !runs.iter().any(|r| r.contains("{{") || r.contains("type=")),
        "{runs:?}"
    );
    // Read again, the page has no tag left: its pixels were covered.
    let page = rasterised(&out.pdf);
    let words = ocr.words(&page, 150.0).unwrap();
    let again: String = words.iter().map(|w| format!("{} ", w.text)).collect();
    assert!(again.contains("tenant rents the studio"), "{again}");
    assert!(
        !again.contains("{{") && !again.contains("type=") && !again.contains("role="),
        "{again}"
    );
    assert!(
        again.contains("After words.") && again.contains("Closing words."),
        "{again}"
    );
    // Kept losslessly, at its pixels.
    let input = image::load_from_memory(&png).unwrap();
    assert_eq!(image_size(&out.pdf), (input.width(), input.height()));
}

/// The page's picture as PNG, through poppler (or the picture itself without poppler).
fn rasterised(pdf: &[u8]) -> Vec<u8> {
    let dir = tempfile::tempdir().unwrap();
    let path = write(&dir, "o.pdf", pdf);
    let out = dir.path().join("o").to_string_lossy().into_owned();
    tool(
        "pdftoppm",
        &["-r", "150", "-png", "-singlefile", &path, &out],
    )
    .unwrap();
    std::fs::read(format!("{out}.png")).unwrap()
}

fn image_size(pdf: &[u8]) -> (u32, u32) {
    let doc = Document::load_mem(pdf).unwrap();
    let page = doc.get_pages()[&1];
    let (res, _) = doc.get_page_resources(page).unwrap();
    let xobjects = res.unwrap().get(b"XObject").unwrap().as_dict().unwrap();
    let im = doc
        .get_object(xobjects.get(b"Im0").unwrap().as_reference().unwrap())
        .unwrap()
        .as_stream()
        .unwrap();
    let d = |k: &[u8]| im.dict.get(k).unwrap().as_i64().unwrap() as u32;
    (d(b"Width"), d(b"Height"))
}

#[test]
fn a_photographed_page_without_a_resolution_is_made_letter_wide_and_covered_in_its_paper() {
    let (Some(ocr), Some(png)) = (ocr(), scanned(200)) else {
        return;
    };
    // Tinted paper, grain, and a JPEG that says nothing of its resolution.
    let mut rgb = image::load_from_memory(&png).unwrap().to_rgb8();
    let mut seed = 7u32;
    for p in rgb.pixels_mut() {
        seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
        let grain = (seed >> 29) as i16 - 4;
        let tint = [-18i16, -22, -40];
        for (c, t) in p.0.iter_mut().zip(tint) {
            *c = (i16::from(*c) + t + grain).clamp(0, 255) as u8;
        }
    }
    let mut jpeg = Vec::new();
    image::codecs::jpeg::JpegEncoder::new_with_quality(&mut jpeg, 85)
        .encode_image(&rgb)
        .unwrap();
    assert_eq!(stated_dpi(&jpeg), None);
    let out = prepare(&jpeg, &ocr).unwrap_or_else(|e| panic!("{e}"));
    assert!(
        out.warnings[0].contains("does not state its resolution"),
        "{:?}",
        out.warnings
    );
    assert!(near(out.pages[0].0, 612.0, 0.01), "{:?}", out.pages);
    let got: Vec<&str> = out.tags.iter().map(|t| t.tag.label.as_str()).collect();
    assert_eq!(got, ["Tenant sign", "Date"]);
    // Placed where they were drawn, at the page's new scale.
    let scale = 612.0 / 595.28;
    for (t, d) in out.tags.iter().zip(drawn_tags()) {
        assert!(
            near(t.x, d.x * scale, 3.0) && near(t.y, d.y * scale, 4.0),
            "{t:?} vs {d:?}"
        );
    }
    // The cover is the paper's colour, not white.
    let page = image::load_from_memory(&rasterised(&out.pdf))
        .unwrap()
        .to_rgb8();
    let t = &out.tags[0];
    let px = 150.0 / 72.0;
    let c = page
        .get_pixel(
            ((t.x + 5.0) * px) as u32,
            ((t.y + t.height / 2.0) * px) as u32,
        )
        .0;
    assert!(c[2] < 230 && c[0] > c[2] + 10, "{c:?}");
    assert_eq!(image_size(&out.pdf), (rgb.width(), rgb.height()));
}

#[test]
fn pictures_too_large_or_not_pictures_are_refused_before_they_are_decoded() {
    let Some(ocr) = ocr() else { return };
    // A PNG header claiming 100,000 × 100,000 pixels, and nothing behind it.
    let mut png = b"\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR".to_vec();
    png.extend(100_000u32.to_be_bytes());
    png.extend(100_000u32.to_be_bytes());
    png.extend([8, 2, 0, 0, 0]);
    let crc = crc32(&png[12..]);
    png.extend(crc.to_be_bytes());
    // An empty IDAT: the decoder stops reading the header there.
    png.extend(0u32.to_be_bytes());
    png.extend(b"IDAT");
    png.extend(crc32(b"IDAT").to_be_bytes());
    let why = prepare(&png, &ocr).unwrap_err().0;
    assert!(
        why.contains("100000 × 100000") && why.contains("40 million"),
        "{why}"
    );
    let gif = b"GIF89a\x01\0\x01\0\0\0\0;".to_vec();
    assert!(prepare(&gif, &ocr).unwrap_err().0.contains("not taken"));
    assert!(
        prepare(b"\xff\xd8\xff\xe0garbage", &ocr)
            .unwrap_err()
            .0
            .contains("could not be read")
    );
}

/// PNG's chunk checksum.
fn crc32(bytes: &[u8]) -> u32 {
    let mut c = 0xffff_ffffu32;
    for b in bytes {
        c ^= u32::from(*b);
        for _ in 0..8 {
            c = if c & 1 == 1 {
                0xedb8_8320 ^ (c >> 1)
            } else {
                c >> 1
            };
        }
    }
    !c
}

#[test]
fn tesseract_words_are_read_from_its_tsv() {
    let tsv = "level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext\n\
               1\t1\t0\t0\t0\t0\t0\t0\t1240\t1754\t-1\t\n\
               5\t1\t1\t1\t1\t1\t188\t252\t45\t18\t96.3\tThis\n\
               5\t1\t1\t1\t1\t2\t241\t255\t115\t21\t96.8\t{{Sign;type=signature}}\n\
               5\t1\t1\t1\t2\t1\t188\t288\t20\t18\t12.0\t \n";
    let words = parse_tsv(tsv);
    assert_eq!(words.len(), 2);
    let found = find_tags(&words, 0.5).unwrap();
    assert_eq!(found.len(), 1);
    assert_eq!(
        (found[0].placed.x, found[0].placed.y, found[0].placed.width),
        (120.5, 127.5, 57.5)
    );
}

#[test]
fn a_tiff_of_jpeg_strips_and_a_page_under_an_inch_are_refused() {
    let Some(ocr) = ocr() else { return };
    // A little-endian TIFF, 16 × 16, one strip, compression 7 (JPEG).
    let mut tiff = b"II*\0\x08\0\0\0".to_vec();
    let entries: [(u16, u16, u32, u32); 5] = [
        (256, 3, 1, 16),
        (257, 3, 1, 16),
        (259, 3, 1, 7),
        (273, 4, 1, 200),
        (279, 4, 1, 10),
    ];
    tiff.extend((entries.len() as u16).to_le_bytes());
    for (tag, kind, count, value) in entries {
        tiff.extend(tag.to_le_bytes());
        tiff.extend(kind.to_le_bytes());
        tiff.extend(count.to_le_bytes());
        tiff.extend(value.to_le_bytes());
    }
    tiff.extend(0u32.to_le_bytes());
    tiff.resize(300, 0);
    let why = prepare(&tiff, &ocr).unwrap_err().0;
    assert!(
        why.contains("TIFF compressed in a way not taken (JPEG)"),
        "{why}"
    );
    // A strip of a picture stating 1200 dpi is a page a hundredth of an inch high.
    let mut png = Vec::new();
    image::RgbImage::from_pixel(600, 16, image::Rgb([255, 255, 255]))
        .write_to(&mut Cursor::new(&mut png), image::ImageFormat::Png)
        .unwrap();
    let mut phys = b"pHYs".to_vec();
    phys.extend(47_244u32.to_be_bytes());
    phys.extend(47_244u32.to_be_bytes());
    phys.push(1);
    let mut chunk = 9u32.to_be_bytes().to_vec();
    chunk.extend(&phys);
    chunk.extend(crc32(&phys).to_be_bytes());
    let at = 8 + 25; // after the signature and IHDR
    png.splice(at..at, chunk);
    assert_eq!(stated_dpi(&png).map(f64::round), Some(1200.0));
    let why = prepare(&png, &ocr).unwrap_err().0;
    assert!(why.contains("a page is 1 to 200 inches"), "{why}");
}

#[test]
fn braces_tesseract_reads_apart_still_make_a_tag() {
    // As tesseract 5 reads a serif page: `{ {Holder … } }`.
    let words: Vec<Word> = [
        "Holder:",
        "{",
        "{Holder",
        "signature;type=signature;role=client;width=180",
        "}",
        "}",
    ]
    .iter()
    .enumerate()
    .map(|(i, t)| Word {
        line: (1, 1, 1),
        left: 100.0 * i as f64,
        top: 10.0,
        width: 90.0,
        height: 20.0,
        confidence: 90.0,
        text: t.to_string(),
    })
    .collect();
    let found = find_tags(&words, 1.0).unwrap();
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].placed.tag.label, "Holder signature");
    assert_eq!((found[0].placed.x, found[0].placed.width), (100.0, 180.0));
}
