//! PDF templates from several makers: Typst (ours), Chromium's printer, cairo, and a file
//! written by hand in the standard Helvetica without widths (as small generators write
//! them); hostile files: active content, forms and signatures, encryption.

use std::collections::BTreeMap;
use std::process::Command;

use lopdf::content::{Content, Operation};
use lopdf::{Document, Object, Stream, dictionary};
use serde_json::json;

use crate::pdf::{PdfError, prepare};

/// Runs a tool; `None` only when it is missing and its part was skipped by name.
pub(crate) fn tool(name: &str, args: &[&str]) -> Option<String> {
    match Command::new(name).args(args).output() {
        Ok(o) => {
            assert!(
                o.status.success(),
                "{name} {args:?}: {}",
                String::from_utf8_lossy(&o.stderr)
            );
            Some(String::from_utf8_lossy(&o.stdout).into_owned())
        }
        Err(e) => {
            let part = if name == "soffice" {
                "office"
            } else {
                "poppler"
            };
            signet_testkit::part(part, Some(format!("{name} is needed: {e}")));
            None
        }
    }
}

pub(crate) fn write(dir: &tempfile::TempDir, name: &str, bytes: &[u8]) -> String {
    let p = dir.path().join(name);
    std::fs::write(&p, bytes).unwrap();
    p.to_string_lossy().into_owned()
}

/// A word as poppler sees it: `(text, page, x0, y0, x1, y1)`.
pub(crate) type Word = (String, u32, f64, f64, f64, f64);

/// Words of each page with their boxes, from poppler.
pub(crate) fn words(pdf: &[u8]) -> Option<Vec<Word>> {
    let dir = tempfile::tempdir().unwrap();
    let path = write(&dir, "w.pdf", pdf);
    let html = tool("pdftotext", &["-bbox", &path, "-"])?;
    let mut out = Vec::new();
    let mut page = 0;
    for line in html.lines() {
        let line = line.trim();
        if line.starts_with("<page") {
            page += 1;
        }
        let Some(rest) = line.strip_prefix("<word ") else {
            continue;
        };
        let attr = |k: &str| -> f64 {
            let i = rest.find(&format!("{k}=\"")).unwrap() + k.len() + 2;
            rest[i..i + rest[i..].find('"').unwrap()].parse().unwrap()
        };
        let text = &rest[rest.find('>').unwrap() + 1..rest.rfind("</word>").unwrap()];
        let text = text
            .replace("&amp;", "&")
            .replace("&lt;", "<")
            .replace("&gt;", ">")
            .replace("&quot;", "\"");
        out.push((
            text,
            page,
            attr("xMin"),
            attr("yMin"),
            attr("xMax"),
            attr("yMax"),
        ));
    }
    Some(out)
}

pub(crate) fn text_of(pdf: &[u8]) -> Option<String> {
    let dir = tempfile::tempdir().unwrap();
    let path = write(&dir, "t.pdf", pdf);
    tool("pdftotext", &[&path, "-"])
}

/// A PDF made by Typst, our own engine, from words with tags in them.
pub(crate) fn typst_pdf() -> Vec<u8> {
    let para = |t: &str| json!({"type": "paragraph", "content": [{"type": "text", "text": t}]});
    let doc = signet_source::parse(
        "source",
        &json!({"type": "doc", "content": [
            para("The tenant rents the studio for one year."),
            para("Signed by {{Tenant sign;type=signature;role=tenant}} on the day. After words."),
            para("Date: {{Date;type=date;role=tenant;width=90;height=18}} Closing words."),
        ]}),
    )
    .unwrap();
    signet_pdf::Renderer::new()
        .render(&signet_pdf::RenderInput {
            doc: &doc,
            title: "Lease",
            footer: "made by typst",
            paper: signet_pdf::Paper::A4,
            profile: signet_pdf::Profile::Contract,
            test: false,
            lang: "en",
            values: &BTreeMap::new(),
            seat_names: &BTreeMap::new(),
            labels: signet_pdf::Labels::EN,
        })
        .unwrap()
        .pdf
}

/// The checks every maker's file passes: each tag found where poppler sees it, its text gone
/// from the result, and every other word exactly where it was.
pub(crate) fn tags_come_out_and_the_rest_stays(
    pdf: &[u8],
    expect: &[(&str, &str)],
) -> crate::pdf::Prepared {
    let out = prepare(pdf, 50).unwrap_or_else(|e| panic!("{e}"));
    let got: Vec<(&str, &str)> = out
        .tags
        .iter()
        .map(|t| (t.tag.label.as_str(), t.tag.ty.as_str()))
        .collect();
    assert_eq!(got, expect, "{:?}", out.tags);
    let (Some(before), Some(after), Some(text)) = (words(pdf), words(&out.pdf), text_of(&out.pdf))
    else {
        return out;
    };
    assert!(
        !text.contains("{{") && !text.contains("}}") && !text.contains("type="),
        "{text}"
    );
    // Every word that is not part of a tag is still there, in the same place.
    let is_tag_word =
        |w: &str| w.contains("{{") || w.contains("}}") || w.contains(";") || w.contains('=');
    let kept: Vec<_> = before.iter().filter(|w| !is_tag_word(&w.0)).collect();
    for w in &kept {
        let same = after.iter().any(|a| {
            a.0 == w.0 && a.1 == w.1 && (a.2 - w.2).abs() < 0.05 && (a.3 - w.3).abs() < 0.05
        });
        assert!(same, "{w:?} moved or went: {after:?}");
    }
    // Each tag's box starts where poppler saw its first word.
    for t in &out.tags {
        let first = before
            .iter()
            .find(|w| {
                w.1 == t.page
                    && w.0.starts_with("{{")
                    && t.text.starts_with(&w.0[..w.0.len().min(6)])
            })
            .unwrap_or_else(|| panic!("{} not seen by poppler: {before:?}", t.text));
        assert!((t.x - first.2).abs() < 1.5, "x {t:?} vs {first:?}");
        assert!(
            t.y < first.5 && t.y + t.height > first.3,
            "y {t:?} vs {first:?}"
        );
    }
    out
}

#[test]
fn a_typst_pdf_gives_its_tags_with_their_boxes() {
    let out = tags_come_out_and_the_rest_stays(
        &typst_pdf(),
        &[("Tenant sign", "signature"), ("Date", "date")],
    );
    assert_eq!(out.pages.len(), 1);
    assert!((out.pages[0].0 - 595.28).abs() < 0.1);
    let date = &out.tags[1];
    assert_eq!((date.width, date.height), (90.0, 18.0));
    // The page's words, tags left out, are its text layer: whole lines, in place.
    let runs: Vec<&str> = out.text[0].iter().map(|r| r.text.as_str()).collect();
    assert!(
        runs.contains(&"The tenant rents the studio for one year."),
        "{runs:?}"
    );
    assert!(runs.iter().any(|r| r.starts_with("Signed by")), "{runs:?}");
    assert!(
        runs.iter().any(|r| r.contains("on the day. After words.")),
        "{runs:?}"
    );
    assert!(
        !runs.iter().any(|r| r.contains("{{") || r.contains("type=")),
        "{runs:?}"
    );
    assert_eq!(date.tag.role.as_deref(), Some("tenant"));
}

#[test]
fn a_pdf_printed_by_cairo_gives_its_tags() {
    let dir = tempfile::tempdir().unwrap();
    let src = write(&dir, "typst.pdf", &typst_pdf());
    let dst = dir.path().join("cairo.pdf").to_string_lossy().into_owned();
    if tool("pdftocairo", &["-pdf", &src, &dst]).is_none() {
        return;
    }
    let pdf = std::fs::read(&dst).unwrap();
    tags_come_out_and_the_rest_stays(&pdf, &[("Tenant sign", "signature"), ("Date", "date")]);
}

#[test]
fn a_pdf_printed_by_chromium_gives_its_tags() {
    let dir = tempfile::tempdir().unwrap();
    let html = write(
        &dir,
        "page.html",
        br#"<html><body style="font-family: sans-serif">
        <h1>Order form</h1><p>Customer: <b>{{Customer;type=text;role=buyer}}</b> thanks.</p>
        <p>Sign here {{Buyer signature;type=signature;role=buyer}} and date it.</p></body></html>"#,
    );
    let pdf = dir
        .path()
        .join("chromium.pdf")
        .to_string_lossy()
        .into_owned();
    let printed = Command::new("chromium")
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-pdf-header-footer",
            &format!("--print-to-pdf={pdf}"),
        ])
        .arg(format!("file://{html}"))
        .output();
    match printed {
        Ok(o) => assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr)),
        Err(e) => {
            signet_testkit::part("browser", Some(format!("chromium is needed: {e}")));
            return;
        }
    }
    tags_come_out_and_the_rest_stays(
        &std::fs::read(&pdf).unwrap(),
        &[("Customer", "text"), ("Buyer signature", "signature")],
    );
}

/// A page in the standard Helvetica, no widths, no ToUnicode: text in `Tj` and `'` with a tag
/// between words in one string, as small generators write it.
fn helvetica_pdf(extra: impl FnOnce(&mut Document, lopdf::ObjectId, lopdf::ObjectId)) -> Vec<u8> {
    let mut doc = Document::with_version("1.7");
    let pages_id = doc.new_object_id();
    let font = doc.add_object(dictionary! {
        "Type" => "Font", "Subtype" => "Type1", "BaseFont" => "Helvetica", "Encoding" => "WinAnsiEncoding",
    });
    let content = Content {
        operations: vec![
            Operation::new("BT", vec![]),
            Operation::new("Tf", vec!["F1".into(), 12.into()]),
            Operation::new("TL", vec![16.into()]),
            Operation::new("Td", vec![72.into(), 720.into()]),
            Operation::new(
                "Tj",
                vec![Object::string_literal(
                    "Name: {{Full name;type=text;role=client}} end of line",
                )],
            ),
            Operation::new(
                "'",
                vec![Object::string_literal(
                    "Second line {{Sign;type=signature;role=client}}",
                )],
            ),
            Operation::new("Tj", vec![Object::string_literal(" follows on")]),
            Operation::new("ET", vec![]),
        ],
    };
    let content_id = doc.add_object(Stream::new(dictionary! {}, content.encode().unwrap()));
    let page_id = doc.add_object(dictionary! {
        "Type" => "Page", "Parent" => pages_id, "Contents" => content_id,
        "MediaBox" => vec![0.into(), 0.into(), 612.into(), 792.into()],
        "Resources" => dictionary! { "Font" => dictionary! { "F1" => font } },
    });
    doc.objects.insert(
        pages_id,
        Object::Dictionary(
            dictionary! { "Type" => "Pages", "Kids" => vec![page_id.into()], "Count" => 1 },
        ),
    );
    let catalog = doc.add_object(dictionary! { "Type" => "Catalog", "Pages" => pages_id });
    doc.trailer.set("Root", catalog);
    extra(&mut doc, catalog, page_id);
    let mut out = Vec::new();
    doc.save_to(&mut out).unwrap();
    out
}

#[test]
fn a_standard_font_without_widths_is_cut_in_the_middle_of_a_string() {
    let out = tags_come_out_and_the_rest_stays(
        &helvetica_pdf(|_, _, _| {}),
        &[("Full name", "text"), ("Sign", "signature")],
    );
    // Letter paper, top-left corner: the first line is 72 points from the top.
    let t = &out.tags[0];
    assert!((t.y + t.height - 72.0).abs() < 4.0 && t.y < 72.0, "{t:?}");
    if let Some(text) = text_of(&out.pdf) {
        assert!(
            text.contains("Name:") && text.contains("end of line") && text.contains("follows on"),
            "{text}"
        );
    }
}

#[test]
fn active_content_forms_and_signatures_are_removed_and_appearances_kept() {
    let pdf = helvetica_pdf(|doc, catalog, page| {
        let js = doc.add_object(
            dictionary! { "S" => "JavaScript", "JS" => Object::string_literal("app.alert('x')") },
        );
        let appearance = doc.add_object(Stream::new(
            dictionary! {
                "Type" => "XObject", "Subtype" => "Form",
                "BBox" => vec![0.into(), 0.into(), 100.into(), 20.into()],
                "Resources" => dictionary! { "Font" => dictionary! { "F1" => dictionary! {
                    "Type" => "Font", "Subtype" => "Type1", "BaseFont" => "Helvetica" } } },
            },
            b"BT /F1 10 Tf 2 6 Td (FilledValue) Tj ET".to_vec(),
        ));
        let field = doc.add_object(dictionary! {
            "Type" => "Annot", "Subtype" => "Widget", "FT" => "Tx", "T" => Object::string_literal("name"),
            "Rect" => vec![300.into(), 600.into(), 400.into(), 620.into()],
            "AP" => dictionary! { "N" => appearance }, "AA" => dictionary! { "K" => js },
        });
        let sig = doc.add_object(dictionary! {
            "Type" => "Annot", "Subtype" => "Widget", "FT" => "Sig", "T" => Object::string_literal("sig"),
            "Rect" => vec![300.into(), 500.into(), 400.into(), 520.into()],
            "AP" => dictionary! { "N" => appearance },
        });
        let link = doc.add_object(dictionary! {
            "Type" => "Annot", "Subtype" => "Link",
            "Rect" => vec![72.into(), 700.into(), 200.into(), 712.into()], "A" => js,
        });
        let file = doc.add_object(Stream::new(
            dictionary! { "Type" => "EmbeddedFile" },
            b"MZ evil".to_vec(),
        ));
        let p = doc.get_object_mut(page).unwrap().as_dict_mut().unwrap();
        p.set("Annots", vec![field.into(), sig.into(), link.into()]);
        p.set("AA", dictionary! { "O" => js });
        let c = doc.get_object_mut(catalog).unwrap().as_dict_mut().unwrap();
        c.set("OpenAction", js);
        c.set("AcroForm", dictionary! { "Fields" => vec![field.into(), sig.into()], "XFA" => Object::string_literal("<xdp/>") });
        c.set("Names", dictionary! {
            "JavaScript" => dictionary! { "Names" => vec![Object::string_literal("a"), js.into()] },
            "EmbeddedFiles" => dictionary! { "Names" => vec![Object::string_literal("evil.exe"), dictionary! { "EF" => dictionary! { "F" => file } }.into()] },
        });
    });
    let out = prepare(&pdf, 50).unwrap();
    for w in [
        "the action run on opening removed",
        "JavaScript, attachments and named destinations removed",
        "an XFA form removed",
        "existing signatures removed",
        "links removed",
        "page actions removed",
        "form fields flattened",
    ] {
        assert!(
            out.warnings.iter().any(|x| x == w),
            "{w}: {:?}",
            out.warnings
        );
    }
    let dir = tempfile::tempdir().unwrap();
    let src = write(&dir, "in.pdf", &out.pdf);
    let qdf = dir.path().join("qdf.pdf").to_string_lossy().into_owned();
    if tool("qpdf", &["--qdf", "--object-streams=disable", &src, &qdf]).is_some() {
        let raw = String::from_utf8_lossy(&std::fs::read(&qdf).unwrap()).into_owned();
        for gone in [
            "/JavaScript",
            "/JS",
            "/OpenAction",
            "/EmbeddedFile",
            "/AcroForm",
            "/Annots",
            "/AA",
            "/XFA",
            "MZ evil",
        ] {
            assert!(!raw.contains(gone), "{gone} left in the PDF");
        }
    }
    // The form field's value is drawn into the page; the signature's is not.
    if let Some(text) = text_of(&out.pdf) {
        assert_eq!(text.matches("FilledValue").count(), 1, "{text}");
    }
}

#[test]
fn encrypted_and_broken_files_are_refused_with_a_reason() {
    let plain = helvetica_pdf(|_, _, _| {});
    let dir = tempfile::tempdir().unwrap();
    let src = write(&dir, "plain.pdf", &plain);
    let enc = dir.path().join("enc.pdf").to_string_lossy().into_owned();
    // Only an owner password (no password to open it), as "protected" PDFs often are.
    if tool("qpdf", &["--encrypt", "", "owner", "256", "--", &src, &enc]).is_some() {
        let e = prepare(&std::fs::read(&enc).unwrap(), 50).unwrap_err();
        assert!(e.0.contains("encrypted"), "{e}");
    }
    assert_eq!(
        prepare(b"hello", 50).unwrap_err(),
        PdfError("is not a PDF".into())
    );
    let e = prepare(&plain, 0).unwrap_err();
    assert!(e.0.contains("max_pages"), "{e}");
}

#[test]
fn a_prepared_pdf_is_a_source_the_model_takes() {
    let out = prepare(&helvetica_pdf(|_, _, _| {}), 5).unwrap();
    let source = crate::pdf::template_source(&out, "templates/tpl_1/v1.pdf").unwrap();
    let doc = signet_source::parse("source", &source).unwrap_or_else(|p| panic!("{p:?}"));
    let file = doc.file.as_ref().unwrap();
    assert_eq!(file.fields.len(), 2);
    assert_eq!(file.fields[0].field.name, "Full name");
    assert_eq!(file.fields[0].field.role, "client");
    assert_eq!(
        (file.fields[0].x, file.fields[0].y),
        (out.tags[0].x, out.tags[0].y)
    );
    assert_eq!(signet_source::walk::roles(&doc), vec!["client".to_string()]);
}

/// The page tree the catalog names.
fn page_tree(doc: &Document, catalog: lopdf::ObjectId) -> lopdf::ObjectId {
    doc.get_dictionary(catalog)
        .unwrap()
        .get(b"Pages")
        .unwrap()
        .as_reference()
        .unwrap()
}

/// A page whose content is `content`, added to the Helvetica file by `extra`.
fn with_content(doc: &mut Document, page: lopdf::ObjectId, content: Vec<u8>, compress: bool) {
    let mut s = Stream::new(dictionary! {}, content);
    if compress {
        s.compress().unwrap();
    }
    let id = doc.add_object(s);
    let p = doc.get_object_mut(page).unwrap().as_dict_mut().unwrap();
    p.set("Contents", id);
}

#[test]
fn hostile_structures_are_refused_before_anything_draws_them() {
    // Content nested 200,000 deep (a parser that recursed would overflow its stack).
    let deep = helvetica_pdf(|doc, _, page| with_content(doc, page, b"[".repeat(200_000), true));
    let e = prepare(&deep, 5).unwrap_err();
    assert!(e.0.contains("cannot be read"), "{e}");
    // A small stream that inflates to 200 MB.
    let bomb = helvetica_pdf(|doc, _, page| with_content(doc, page, vec![b' '; 200 << 20], true));
    assert!(bomb.len() < 2 << 20, "{}", bomb.len());
    let e = prepare(&bomb, 5).unwrap_err();
    assert!(
        e.0.contains("a stream in the PDF decodes to more than 32 MB"),
        "{e}"
    );
    // Five streams of 30 MB each: each within a stream's limit, 150 MB together.
    let many = helvetica_pdf(|doc, _, page| {
        let parts: Vec<Object> = (0..5)
            .map(|_| {
                let mut s = Stream::new(dictionary! {}, vec![b' '; 30 << 20]);
                s.compress().unwrap();
                doc.add_object(s).into()
            })
            .collect();
        let p = doc.get_object_mut(page).unwrap().as_dict_mut().unwrap();
        p.set("Contents", parts);
    });
    let e = prepare(&many, 5).unwrap_err();
    assert!(e.0.contains("the PDF decodes to more than 128 MB"), "{e}");
    // Drawings that draw each other ten times, six deep: a million drawings.
    let fan = helvetica_pdf(|doc, _, page| {
        let mut inner: Option<lopdf::ObjectId> = None;
        for _ in 0..6 {
            let (body, res) = match inner {
                Some(id) => (
                    b"/X Do ".repeat(10),
                    dictionary! { "XObject" => dictionary! { "X" => id } },
                ),
                None => (b"0 0 1 1 re f".to_vec(), dictionary! {}),
            };
            inner = Some(doc.add_object(Stream::new(
                dictionary! { "Type" => "XObject", "Subtype" => "Form",
                "BBox" => vec![0.into(), 0.into(), 10.into(), 10.into()], "Resources" => res },
                body,
            )));
        }
        let p = doc.get_object_mut(page).unwrap().as_dict_mut().unwrap();
        p.set(
            "Resources",
            dictionary! { "XObject" => dictionary! { "X" => inner.unwrap() } },
        );
        with_content(doc, page, b"/X Do".to_vec(), false);
    });
    let e = prepare(&fan, 5).unwrap_err();
    assert!(e.0.contains("more than 20000 times"), "{e}");
    // A page tree that holds itself: read once, as one page.
    let looped = helvetica_pdf(|doc, catalog, _| {
        let pages = page_tree(doc, catalog);
        let tree = doc.get_object_mut(pages).unwrap().as_dict_mut().unwrap();
        let mut kids = tree.get(b"Kids").unwrap().as_array().unwrap().clone();
        kids.push(pages.into());
        tree.set("Kids", kids);
    });
    match prepare(&looped, 5) {
        Ok(out) => assert_eq!(out.pages.len(), 1),
        Err(e) => assert!(!e.0.is_empty()),
    }
}

/// The Helvetica file with a page of `content` drawing by `resources`, made by `make` (which
/// adds what the resources name).
fn page_of(
    content: String,
    make: impl FnOnce(&mut Document) -> lopdf::Dictionary,
) -> Result<crate::pdf::Prepared, PdfError> {
    let pdf = helvetica_pdf(|doc, _, page| {
        let resources = make(doc);
        let p = doc.get_object_mut(page).unwrap().as_dict_mut().unwrap();
        p.set("Resources", resources);
        with_content(doc, page, content.into_bytes(), true);
    });
    prepare(&pdf, 5)
}

/// A Type 3 font whose one letter, `a`, runs `squares` squares (two instructions each).
fn type3_font(doc: &mut Document, squares: usize) -> lopdf::ObjectId {
    let letter = doc.add_object(Stream::new(
        dictionary! {},
        format!("1000 0 d0 {}", "0 0 10 10 re f ".repeat(squares)).into_bytes(),
    ));
    doc.add_object(dictionary! {
        "Type" => "Font", "Subtype" => "Type3",
        "FontBBox" => vec![0.into(), 0.into(), 1000.into(), 1000.into()],
        "FontMatrix" => vec![0.001.into(), 0.into(), 0.into(), 0.001.into(), 0.into(), 0.into()],
        "CharProcs" => dictionary! { "a" => letter },
        "Encoding" => dictionary! { "Type" => "Encoding", "Differences" => vec![97.into(), Object::Name(b"a".to_vec())] },
        "FirstChar" => 97, "LastChar" => 97, "Widths" => vec![1000.into()],
        "Resources" => dictionary! {},
    })
}

#[test]
fn what_the_renderer_repeats_is_counted_before_a_template_is_taken() {
    // A Type 3 letter of a thousand squares shown 100 times takes 600,000 drawing steps (each
    // square painted in six) every time the page is drawn, from a page of five instructions:
    // refused. Shown 20 times, it is taken.
    let letters = |shown: usize| {
        page_of(
            format!("BT /T3 12 Tf 72 700 Td ({}) Tj ET", "a".repeat(shown)),
            |doc| {
                let font = type3_font(doc, 1000);
                dictionary! { "Font" => dictionary! { "T3" => font } }
            },
        )
    };
    let e = letters(100).map(|_| ()).expect_err("refused");
    assert!(
        e.0.contains("Type 3 letters") && e.0.contains("page 1"),
        "{e}"
    );
    letters(20).expect("a Type 3 font used as fonts are");
    // A tiling pattern's cell of a thousand squares, drawn again under each of 100 shapes:
    // refused; under ten, taken.
    let patterned = |shapes: usize| {
        page_of(
            format!(
                "/Pattern cs /P scn {}",
                (0..shapes)
                    .map(|i| format!("{} 100 4 4 re f ", 10 + (i % 100) * 5))
                    .collect::<String>()
            ),
            |doc| {
                let cell = doc.add_object(Stream::new(
                    dictionary! {
                        "Type" => "Pattern", "PatternType" => 1, "PaintType" => 1, "TilingType" => 1,
                        "BBox" => vec![0.into(), 0.into(), 10.into(), 10.into()],
                        "XStep" => 10, "YStep" => 10, "Resources" => dictionary! {},
                    },
                    "0 0 1 1 re f ".repeat(1000).into_bytes(),
                ));
                dictionary! { "Pattern" => dictionary! { "P" => cell } }
            },
        )
    };
    let e = patterned(100).map(|_| ()).expect_err("refused");
    assert!(e.0.contains("patterns"), "{e}");
    patterned(10).expect("a pattern used a few times");
    // Two thousand white squares the size of the page, one over another: 4,000 instructions,
    // but some 6,400 million pixels to paint.
    let e = page_of(
        "1 g ".to_string() + &"0 0 612 792 re f ".repeat(2000),
        |_| {
            dictionary! {}
        },
    )
    .map(|_| ())
    .expect_err("refused");
    assert!(e.0.contains("million pixels"), "{e}");
    // A soft mask under 30 transforms: 30 whole pages of pixels kept at once.
    let masked = |uses: usize| {
        page_of(
            (0..uses)
                .map(|i| format!("q 1 0 0 1 {i} 0 cm /M gs 0 0 50 50 re f Q "))
                .collect(),
            |doc| {
                let group = doc.add_object(Stream::new(
                    dictionary! {
                        "Type" => "XObject", "Subtype" => "Form",
                        "BBox" => vec![0.into(), 0.into(), 612.into(), 792.into()],
                        "Group" => dictionary! { "S" => "Transparency", "CS" => "DeviceGray" },
                        "Resources" => dictionary! {},
                    },
                    b"0.5 g 0 0 100 100 re f".to_vec(),
                ));
                dictionary! { "ExtGState" => dictionary! {
                    "M" => dictionary! { "SMask" => dictionary! { "S" => "Luminosity", "G" => group } },
                } }
            },
        )
    };
    let e = masked(30).map(|_| ()).expect_err("refused");
    assert!(e.0.contains("soft masks"), "{e}");
    masked(3).expect("a few masks");
}

#[test]
fn a_drawing_without_resources_is_counted_with_each_page_that_draws_it() {
    // One drawing, `F`, draws `/Y` by its caller's resources. Page 1's `Y` is one square;
    // page 2's is 80,000 instructions, and page 2 draws `F` twice: 160,000 instructions.
    let pdf = helvetica_pdf(|doc, catalog, first| {
        let form = |doc: &mut Document, body: Vec<u8>, resources: Option<lopdf::Dictionary>| {
            let mut d = dictionary! { "Type" => "XObject", "Subtype" => "Form",
            "BBox" => vec![0.into(), 0.into(), 10.into(), 10.into()] };
            if let Some(r) = resources {
                d.set("Resources", r);
            }
            doc.add_object(Stream::new(d, body))
        };
        let f = form(doc, b"/Y Do".to_vec(), None);
        let light = form(doc, b"0 0 1 1 re f".to_vec(), Some(dictionary! {}));
        let heavy = form(doc, b"0 0 1 1 re ".repeat(80_000), Some(dictionary! {}));
        let pages = page_tree(doc, catalog);
        let p = doc.get_object_mut(first).unwrap().as_dict_mut().unwrap();
        p.set(
            "Resources",
            dictionary! { "XObject" => dictionary! { "F" => f, "Y" => light } },
        );
        with_content(doc, first, b"/F Do".to_vec(), false);
        let content = doc.add_object(Stream::new(dictionary! {}, b"/F Do /F Do".to_vec()));
        let second = doc.add_object(dictionary! {
            "Type" => "Page", "Parent" => pages, "Contents" => content,
            "MediaBox" => vec![0.into(), 0.into(), 612.into(), 792.into()],
            "Resources" => dictionary! { "XObject" => dictionary! { "F" => f, "Y" => heavy } },
        });
        let tree = doc.get_object_mut(pages).unwrap().as_dict_mut().unwrap();
        tree.set("Kids", vec![first.into(), second.into()]);
        tree.set("Count", 2);
    });
    let e = prepare(&pdf, 5).map(|_| ()).expect_err("refused");
    assert!(e.0.contains("drawing instructions"), "{e}");
}

#[test]
fn a_rotated_page_keeps_its_words_and_fields_where_they_are_shown() {
    let dir = tempfile::tempdir().unwrap();
    let src = write(&dir, "typst.pdf", &typst_pdf());
    let rotated = dir
        .path()
        .join("rotated.pdf")
        .to_string_lossy()
        .into_owned();
    if tool("qpdf", &["--rotate=+90", &src, &rotated]).is_none() {
        return;
    }
    let out = prepare(&std::fs::read(&rotated).unwrap(), 5).unwrap();
    // Shown turned: the page is landscape and the tags' boxes are in its shown corner.
    let (w, h) = out.pages[0];
    assert!(w > h, "{:?}", out.pages);
    let source = crate::pdf::template_source(&out, "templates/tpl_1/v1.pdf").unwrap();
    let mut doc = signet_source::parse("source", &source).unwrap();
    doc.file.as_mut().unwrap().data = Some(out.pdf.clone().into());
    let rendered = signet_pdf::Renderer::new()
        .render(&signet_pdf::RenderInput {
            doc: &doc,
            title: "Rotated",
            footer: "",
            paper: signet_pdf::Paper::A4,
            profile: signet_pdf::Profile::Plain,
            test: false,
            lang: "en",
            values: &BTreeMap::new(),
            seat_names: &BTreeMap::new(),
            labels: signet_pdf::Labels::EN,
        })
        .unwrap();
    assert!(
        (rendered.pages[0].0 - w).abs() < 0.5 && (rendered.pages[0].1 - h).abs() < 0.5,
        "{:?} vs {:?}",
        rendered.pages,
        (w, h)
    );
    let (f, t) = (&rendered.fields[0], &out.tags[0]);
    assert!(
        (f.x - t.x).abs() < 0.01 && (f.y - t.y).abs() < 0.01,
        "{f:?} vs {t:?}"
    );
    // The words of the document's page are where poppler shows them on the prepared file.
    let (Some(before), Some(after)) = (words(&out.pdf), words(&rendered.pdf)) else {
        return;
    };
    let find = |ws: &[Word], t: &str| {
        ws.iter()
            .find(|w| w.0 == t)
            .cloned()
            .unwrap_or_else(|| panic!("{t}: {ws:?}"))
    };
    for t in ["tenant", "After", "Closing"] {
        let (a, b) = (find(&before, t), find(&after, t));
        assert!(
            (a.2 - b.2).abs() < 1.0 && (a.3 - b.3).abs() < 1.0,
            "{t}: {a:?} vs {b:?}"
        );
    }
}

#[test]
fn a_tag_inside_a_drawing_the_page_draws_is_cut_there() {
    let pdf = helvetica_pdf(|doc, _, page| {
        let font = doc.add_object(dictionary! {
            "Type" => "Font", "Subtype" => "Type1", "BaseFont" => "Helvetica", "Encoding" => "WinAnsiEncoding",
        });
        let form = doc.add_object(Stream::new(
            dictionary! { "Type" => "XObject", "Subtype" => "Form",
                "BBox" => vec![0.into(), 0.into(), 612.into(), 792.into()],
                "Resources" => dictionary! { "Font" => dictionary! { "F2" => font } } },
            b"BT /F2 11 Tf 72 600 Td (Form words {{Form sign;type=signature;role=client}} after it) Tj ET".to_vec(),
        ));
        let p = doc.get_object_mut(page).unwrap().as_dict_mut().unwrap();
        let mut res = p.get(b"Resources").unwrap().as_dict().unwrap().clone();
        res.set("XObject", dictionary! { "T" => form });
        p.set("Resources", res);
        with_content(
            doc,
            page,
            b"BT /F1 12 Tf 72 720 Td (Name: {{Full name;type=text;role=client}} end of line) Tj ET q /T Do Q".to_vec(),
            false,
        );
    });
    let out = tags_come_out_and_the_rest_stays(
        &pdf,
        &[("Full name", "text"), ("Form sign", "signature")],
    );
    let t = &out.tags[1];
    // 600 points up from the bottom of a letter page is 192 down from its top.
    assert!(t.y < 192.0 && t.y + t.height > 190.0, "{t:?}");
}

#[test]
fn instructions_are_counted_without_parsing_them() {
    use crate::pdf::operations_in;
    let content =
        b"q 1 0 0 1 72 700 cm BT /F1 12 Tf (a (nested) string with ET \\) inside) Tj ET Q\n\
        % a comment with re f operators\n<</MCID 0>> BDC [(x) 120 (y)] TJ EMC\n\
        <48656c6c6f> Tj true false null pop\nBI /W 2 /H 1 /BPC 8 /CS /G ID \x00EI\xffQ q EI Q";
    // q cm BT Tf Tj ET Q BDC TJ EMC Tj pop BI ID EI Q
    assert_eq!(operations_in(content, "page 1").unwrap(), 16);
    let deep = format!("{}{} re f", "[".repeat(100_000), "]".repeat(100_000));
    assert_eq!(operations_in(deep.as_bytes(), "page 1").unwrap(), 2);
    // A lone `ID` (no `BI`) hides nothing after it, nor does an `EI` glued to a picture's
    // last byte.
    let lone = format!("ID\n{}", "0 0 1 1 re f\n".repeat(80_000));
    assert!(operations_in(lone.as_bytes(), "page 1").is_err());
    let glued = format!(
        "BI /W 1 /H 1 ID \x01EI\n{}",
        "0 0 1 1 re f\n".repeat(80_000)
    );
    assert!(operations_in(glued.as_bytes(), "page 1").is_err());
    let many = "0 0 1 1 re f\n".repeat(80_000);
    let e = operations_in(many.as_bytes(), "page 2").unwrap_err();
    assert!(
        e.0.contains("page 2") && e.0.contains("drawing instructions"),
        "{e}"
    );
}

#[test]
fn a_page_far_taller_than_wide_is_refused() {
    let tall = helvetica_pdf(|doc, _, page| {
        if let Ok(d) = doc.get_object_mut(page).and_then(Object::as_dict_mut) {
            d.set(
                "MediaBox",
                vec![0.into(), 0.into(), 100.into(), 14_400.into()],
            );
        }
    });
    let e = crate::pdf::prepare(&tall, 10).unwrap_err();
    assert!(e.0.contains("page 1 is more than 20 times as tall"), "{e}");
}
