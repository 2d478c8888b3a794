use std::collections::BTreeMap;
use std::process::Command;

use serde_json::{Value, json};

use crate::*;
use signet_source::Doc;

fn doc(content: Value) -> Doc {
    signet_source::parse("source", &json!({"type": "doc", "content": content})).unwrap()
}

/// A contract on A4 for Ada Lovelace, with each page drawn at `widths`.
fn render_views(d: &Doc, widths: &[u32]) -> Rendered {
    let seats = BTreeMap::from([("client".to_string(), "Ada Lovelace".to_string())]);
    Renderer::new()
        .render_with_views(
            &RenderInput {
                doc: d,
                title: "Agreement",
                footer: "doc_01",
                paper: Paper::A4,
                profile: Profile::Contract,
                test: false,
                lang: "en",
                values: &BTreeMap::new(),
                seat_names: &seats,
                labels: Labels::EN,
            },
            10,
            widths,
        )
        .unwrap()
}

fn render(d: &Doc, values: &BTreeMap<String, String>, test: bool, lang: &str) -> Rendered {
    let seats = BTreeMap::from([("client".to_string(), "Ada Lovelace".to_string())]);
    Renderer::new()
        .render(&RenderInput {
            doc: d,
            title: "Agreement",
            footer: "doc_01",
            paper: Paper::A4,
            profile: Profile::Contract,
            test,
            lang,
            values,
            seat_names: &seats,
            labels: Labels::EN,
        })
        .unwrap()
}

/// Runs a poppler tool on the PDF. Missing tools fail under CI=true and skip elsewhere.
/// A PDF's content streams as text (`qpdf --qdf`); `None` without qpdf outside CI.
fn uncompressed(pdf: &[u8]) -> Option<String> {
    let dir = tempfile::tempdir().unwrap();
    let (src, out) = (dir.path().join("in.pdf"), dir.path().join("out.pdf"));
    std::fs::write(&src, pdf).unwrap();
    match Command::new("qpdf")
        .args(["--qdf", "--object-streams=disable"])
        .arg(&src)
        .arg(&out)
        .status()
    {
        Ok(s) => assert!(s.success()),
        Err(e) => {
            signet_testkit::part("poppler", Some(format!("qpdf is needed: {e}")));
            return None;
        }
    }
    Some(String::from_utf8_lossy(&std::fs::read(&out).unwrap()).into_owned())
}

fn poppler(tool: &str, pdf: &[u8], args: &[&str]) -> Option<String> {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("doc.pdf");
    std::fs::write(&path, pdf).unwrap();
    let mut cmd = Command::new(tool);
    cmd.args(args).arg(&path);
    if tool == "pdftotext" {
        cmd.arg("-");
    }
    let out = match cmd.output() {
        Ok(o) => o,
        Err(e) => {
            signet_testkit::part("poppler", Some(format!("{tool} is needed: {e}")));
            return None;
        }
    };
    assert!(
        out.status.success(),
        "{tool}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    Some(String::from_utf8_lossy(&out.stdout).into_owned())
}

fn para(text: &str) -> Value {
    json!({"type": "paragraph", "content": [{"type": "text", "text": text}]})
}

#[test]
fn hostile_text_stays_text() {
    let hostile = [
        r#"#import "/etc/passwd""#,
        "#read(\"/etc/passwd\")",
        "]) #panic(\"x\") [",
        "$ x^2 $ *bold* _em_ `raw` <label> @ref = Heading",
        "\\ // /* comment",
        "#let s(i) = \"pwned\"",
        "}}{{ #{ 1 + 1 }",
    ];
    let content: Vec<Value> = hostile.iter().map(|h| para(h)).collect();
    let chip = json!({"type": "paragraph", "content": [{"type": "variableChip", "attrs": {"name": "custom.x"}}]});
    let mut content = content;
    content.push(chip);
    let values = BTreeMap::from([("custom.x".to_string(), "#panic(\"chip\")".to_string())]);
    let out = render(&doc(Value::Array(content)), &values, false, "en");
    assert!(out.pdf.starts_with(b"%PDF-"));
    if let Some(text) = poppler("pdftotext", &out.pdf, &["-raw"]) {
        let flat: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
        for h in hostile.iter().chain(["#panic(\"chip\")"].iter()) {
            let want: String = h.split_whitespace().collect::<Vec<_>>().join(" ");
            assert!(
                flat.contains(&want),
                "{want:?} not printed literally in {flat:?}"
            );
        }
        assert!(!flat.contains("root:"), "no file was read");
        assert_eq!(
            flat.matches("pwned").count(),
            1,
            "the hostile let printed once, as text"
        );
    }
}

#[test]
fn fields_get_exact_rectangles_in_reading_order() {
    let mut content = vec![json!({"type": "paragraph", "content": [
        {"type": "text", "text": "Start date: "},
        {"type": "fieldTag", "attrs": {"name": "Start", "type": "date", "role": "client"}},
    ]})];
    for i in 0..80 {
        content.push(para(&format!(
            "Clause {i}: the parties agree to everything written here, at length."
        )));
    }
    content.push(json!({"type": "signatureBlock", "attrs": {"role": "client"}}));
    let out = render(&doc(Value::Array(content)), &BTreeMap::new(), false, "en");
    let names: Vec<_> = out.fields.iter().map(|f| f.field.name.as_str()).collect();
    assert_eq!(names, ["Start", "client signature", "client date signed"]);
    assert!(out.pages.len() >= 2, "80 clauses fill more than a page");
    let (w, h) = out.pages[0];
    assert!(
        (w - 595.28).abs() < 0.1 && (h - 841.89).abs() < 0.1,
        "A4: {w}x{h}"
    );
    let start = &out.fields[0];
    assert_eq!((start.page, start.width, start.height), (1, 90.0, 14.0));
    let sig = &out.fields[1];
    assert_eq!(
        sig.page as usize,
        out.pages.len(),
        "the signature block ends the document"
    );
    for f in &out.fields {
        assert!(
            f.x > 0.0 && f.x + f.width < w && f.y > 0.0 && f.y + f.height < h,
            "{f:?}"
        );
    }
    assert!(
        out.fields[2].y > sig.y + sig.height,
        "date sits below the signature line"
    );
}

#[test]
fn every_language_of_the_spec_uses_a_font_that_covers_it() {
    let samples = [
        ("en", "Signed and delivered", "NotoSans"),
        ("pl", "Zażółć gęślą jaźń", "NotoSans"),
        ("tr", "Türkçe ğış İı", "NotoSans"),
        ("ru", "Договор подписан", "NotoSans"),
        ("ar", "تم توقيع العقد", "NotoSansArabic"),
        ("ja", "契約書に署名しました", "NotoSansCJK"),
        ("zh", "合同已签署", "NotoSansCJK"),
        ("ko", "계약서에 서명했습니다", "NotoSansCJK"),
    ];
    for (lang, text, font) in samples {
        let out = render(&doc(json!([para(text)])), &BTreeMap::new(), false, lang);
        let Some(fonts) = poppler("pdffonts", &out.pdf, &[]) else {
            return;
        };
        assert!(
            fonts.contains(font),
            "{lang}: {font} not embedded:\n{fonts}"
        );
        if let Some(t) = poppler("pdftotext", &out.pdf, &[]) {
            let compact: String = t.split_whitespace().collect();
            let want: String = text.split_whitespace().collect();
            if lang != "ar" {
                assert!(compact.contains(&want), "{lang}: {want} not in {compact}");
            }
        }
    }
}

/// Every glyph of a laid-out frame, with the family of the font that drew it.
fn glyphs(frame: &typst::layout::Frame, out: &mut Vec<(String, u16, String)>) {
    use typst::layout::FrameItem;
    for (_, item) in frame.items() {
        match item {
            FrameItem::Group(g) => glyphs(&g.frame, out),
            FrameItem::Text(t) => {
                for g in &t.glyphs {
                    let ch = t.text[g.range()].to_string();
                    out.push((t.font.info().family.clone(), g.id, ch));
                }
            }
            _ => {}
        }
    }
}

#[test]
fn each_of_the_fourteen_languages_is_drawn_without_a_missing_glyph_in_both_profiles() {
    // The languages of `send.language`, each with letters of its own; for the scripts with
    // faces of their own, the word their family names carry (Noto Sans Arabic in `contract`,
    // Noto Naskh Arabic in `typeset`).
    let samples = [
        ("en", "Signed and delivered by the parties", None),
        ("es", "Firmó el contrato: ñandú, ¿sí? ¡Acción!", None),
        ("fr", "Signé à Noël : élève, œuvre, « ça », Ÿ", None),
        ("de", "Unterzeichnet: Größe, Übergabe, Straße", None),
        ("pt", "Assinado: ação, coração, pão, à", None),
        ("it", "Firmato: città, perché, più", None),
        ("nl", "Ondertekend: één, café, coöperatie", None),
        ("pl", "Zażółć gęślą jaźń", None),
        ("tr", "Türkçe ğış İı Şş", None),
        ("ru", "Договор подписан сторонами. Ёё", None),
        ("ar", "تم توقيع العقد بين الطرفين", Some("Arabic")),
        ("ja", "契約書に署名しました。カタカナ", Some("CJK")),
        ("zh", "合同已由双方签署", Some("CJK")),
        ("ko", "계약서에 서명했습니다", Some("CJK")),
    ];
    let renderer = Renderer::new();
    let seats = BTreeMap::from([("client".to_string(), "Ada Lovelace".to_string())]);
    let values = BTreeMap::new();
    for profile in [Profile::Contract, Profile::Typeset] {
        for (lang, text, family) in samples {
            let d = doc(json!([
                {"type": "heading", "attrs": {"level": 1}, "content": [{"type": "text", "text": text}]},
                para(text),
                {"type": "paragraph", "content": [{"type": "text", "text": text, "marks": [{"type": "bold"}]}]},
            ]));
            let laid = renderer
                .layout(&RenderInput {
                    doc: &d,
                    title: text,
                    footer: "doc_01",
                    paper: Paper::Letter,
                    profile,
                    test: false,
                    lang,
                    values: &values,
                    seat_names: &seats,
                    labels: Labels::EN,
                })
                .unwrap();
            let mut all = vec![];
            for page in laid.pages() {
                glyphs(&page.frame, &mut all);
            }
            let missing: Vec<_> = all.iter().filter(|g| g.1 == 0).collect();
            assert!(
                missing.is_empty(),
                "{lang} {profile:?}: missing glyphs {missing:?}"
            );
            // The sample's own letters come from a face made for its script.
            let own: Vec<&String> = all
                .iter()
                .filter(|g| g.2.chars().any(|c| text.contains(c) && !c.is_ascii()))
                .map(|g| &g.0)
                .collect();
            assert!(
                !own.is_empty() || lang == "en",
                "{lang}: no glyphs of the sample"
            );
            if let Some(family) = family {
                assert!(
                    own.iter().all(|f| f.contains(family)),
                    "{lang} {profile:?}: drawn with {own:?}"
                );
            }
        }
    }
}

#[test]
fn test_documents_are_stamped_and_sender_sections_never_render() {
    let d = doc(json!([
        {"type": "heading", "attrs": {"level": 1, "audience": "sender"}, "content": [{"type": "text", "text": "Internal"}]},
        para("our floor price is 900"),
        {"type": "heading", "attrs": {"level": 1}, "content": [{"type": "text", "text": "Terms"}]},
        para("Visible terms"),
    ]));
    let out = render(&d, &BTreeMap::new(), true, "en");
    if let Some(text) = poppler("pdftotext", &out.pdf, &[]) {
        assert!(
            text.contains("TEST DOCUMENT") && text.contains("Visible terms"),
            "{text}"
        );
        assert!(!text.contains("floor price") && !text.contains("Internal"));
    }
    let live = render(&d, &BTreeMap::new(), false, "en");
    if let Some(text) = poppler("pdftotext", &live.pdf, &[]) {
        assert!(!text.contains("TEST"));
    }
}

#[test]
fn each_page_is_drawn_at_each_width_with_its_text_placed() {
    let d = doc(json!([
        para("The tenant pays the rent on the first day of each month."),
        para("مرحبا بالعالم"),
    ]));
    let out = render_views(&d, &[400, 800]);
    assert_eq!(out.views.len(), out.pages.len());
    let page = &out.views[0];
    let (w, h) = page.size;
    for (img, width) in page.images.iter().zip([400u32, 800]) {
        let decoder = png::Decoder::new(std::io::Cursor::new(img));
        let reader = decoder.read_info().unwrap();
        let info = reader.info();
        assert_eq!(info.width, width);
        assert_eq!(info.height, (h * width as f64 / w).round() as u32);
        // A black-and-white contract is drawn in grey levels only.
        assert_eq!(info.color_type, png::ColorType::Grayscale);
    }
    assert!(page.images[0].len() < page.images[1].len());
    let text: Vec<&str> = page.text.iter().map(|r| r.text.as_str()).collect();
    let all = text.join(" ");
    assert!(all.contains("The tenant pays"), "{text:?}");
    assert!(all.contains("مرحبا"), "Arabic in logical order: {text:?}");
    let run = page
        .text
        .iter()
        .find(|r| r.text.contains("The tenant"))
        .unwrap();
    // Inside the page, below the title, about the size of body text.
    assert!(run.x > 20.0 && run.x + run.width < w, "{run:?}");
    assert!(run.y > 40.0 && run.y + run.height < h, "{run:?}");
    assert!((8.0..16.0).contains(&run.size), "{run:?}");
    assert!(run.height >= run.size * 0.9, "{run:?}");
}

#[test]
fn a_drawn_signature_is_placed_as_vector_paths_not_text_or_a_picture() {
    let strokes = vec![
        vec![(20.0, 150.0), (80.0, 40.0), (140.0, 160.0), (200.0, 60.0)],
        vec![(240.0, 120.0), (420.0, 110.0)],
        vec![(500.0, 100.0)],
    ];
    let layer = Renderer::new()
        .values_layer(
            &[(595.0, 842.0)],
            &[PlacedValue {
                page: 1,
                x: 72.0,
                y: 600.0,
                width: 180.0,
                height: 40.0,
                kind: ValueKind::Drawn,
                text: String::new(),
                strokes: Some((600.0, 200.0, strokes)),
                filled: false,
            }],
        )
        .unwrap();
    if let Some(text) = poppler("pdftotext", &layer, &[]) {
        assert!(text.trim().is_empty(), "no text: {text:?}");
    }
    if let Some(images) = poppler("pdfimages", &layer, &["-list"]) {
        assert!(images.lines().count() <= 2, "no picture: {images}");
    }
    // The content stream, uncompressed: one move and the lines of each stroke.
    let Some(pdf) = uncompressed(&layer) else {
        return;
    };
    // Each stroke: round caps and joins (`1 J 1 j`), a move, then a line to each next point.
    let strokes: Vec<&str> = pdf.lines().filter(|l| l.contains(" 1 J 1 j ")).collect();
    assert_eq!(strokes.len(), 3, "a path per stroke:\n{pdf}");
    let count = |l: &str, op: &str| l.split_whitespace().filter(|t| *t == op).count();
    let moves: Vec<usize> = strokes.iter().map(|l| count(l, "m")).collect();
    let lines: Vec<usize> = strokes.iter().map(|l| count(l, "l")).collect();
    assert_eq!(moves, [1, 1, 1]);
    assert_eq!(lines, [3, 1, 1], "a dot is a short line");
}

#[test]
fn a_typed_signature_is_written_in_the_hand_of_its_script() {
    let typed = |page: u32, text: &str| PlacedValue {
        page,
        x: 72.0,
        y: 600.0,
        width: 200.0,
        height: 40.0,
        kind: ValueKind::Signature,
        text: text.into(),
        strokes: None,
        filled: false,
    };
    let layer = Renderer::new()
        .values_layer(
            &[(595.0, 842.0), (595.0, 842.0), (595.0, 842.0)],
            &[
                typed(1, "Zofia Wójcik"),
                typed(2, "ليلى حداد"),
                typed(3, "山田 花子"),
            ],
        )
        .unwrap();
    // The fonts embedded (as subsets, `ABCDEF+Name`): the Latin hand, the Arabic hand, and the
    // CJK face for Japanese.
    let Some(fonts) = poppler("pdffonts", &layer, &[]) else {
        return;
    };
    for family in ["Caveat", "ArefRuqaa", "NotoSansCJK"] {
        assert!(fonts.contains(family), "{family} in {fonts}");
    }
    if let Some(text) = poppler("pdftotext", &layer, &[]) {
        assert!(text.contains("Zofia Wójcik"), "{text}");
    }
}

/// What a phone and a desktop download for a page dense with text (4-bit grey pictures).
#[test]
fn a_full_page_of_text_is_a_small_picture_at_each_width() {
    let long = "The tenant pays the rent on the first day of each month, by bank transfer to the account the landlord names in writing. ".repeat(3);
    let paras: Vec<_> = (0..22).map(|_| para(&long)).collect();
    let d = doc(json!(paras));
    let seats = BTreeMap::from([("client".to_string(), "Ada Lovelace".to_string())]);
    let out = Renderer::new()
        .render_with_views(
            &RenderInput {
                doc: &d,
                title: "Agreement",
                footer: "doc_01",
                paper: Paper::A4,
                profile: Profile::Typeset,
                test: false,
                lang: "en",
                values: &BTreeMap::new(),
                seat_names: &seats,
                labels: Labels::EN,
            },
            10,
            &[750, 1500],
        )
        .unwrap();
    let first = &out.views[0];
    // Grey, 4 bits a pixel: IHDR's bit depth and colour type.
    assert_eq!(&first.images[0][24..26], &[4, 0]);
    assert!(first.images[0].len() < 80_000, "{}", first.images[0].len());
    assert!(first.images[1].len() < 200_000, "{}", first.images[1].len());
}

#[test]
fn a_traced_signature_is_one_filled_shape_with_its_holes() {
    // An "o": an outer square and the hole inside it, filled even-odd.
    let outlines = vec![
        vec![(100.0, 50.0), (200.0, 50.0), (200.0, 150.0), (100.0, 150.0)],
        vec![(130.0, 80.0), (130.0, 120.0), (170.0, 120.0), (170.0, 80.0)],
    ];
    let layer = Renderer::new()
        .values_layer(
            &[(595.0, 842.0)],
            &[PlacedValue {
                page: 1,
                x: 72.0,
                y: 600.0,
                width: 180.0,
                height: 40.0,
                kind: ValueKind::Drawn,
                text: String::new(),
                strokes: Some((600.0, 200.0, outlines)),
                filled: true,
            }],
        )
        .unwrap();
    if let Some(text) = poppler("pdftotext", &layer, &[]) {
        assert!(text.trim().is_empty(), "no text: {text:?}");
    }
    if let Some(images) = poppler("pdfimages", &layer, &["-list"]) {
        assert!(images.lines().count() <= 2, "no picture: {images}");
    }
    let Some(pdf) = uncompressed(&layer) else {
        return;
    };
    // The shape in the signature's ink: two subpaths (two moves) painted once with the
    // even-odd fill operator, and no stroke.
    let ink = pdf
        .split("0.043137256 0.12156863 0.36078432 scn")
        .nth(1)
        .expect("the signature's ink");
    let shape: Vec<&str> = ink.split_whitespace().take_while(|o| *o != "Q").collect();
    assert!(shape.contains(&"f*"), "filled even-odd: {shape:?}");
    assert_eq!(shape.iter().filter(|o| **o == "m").count(), 2, "{shape:?}");
    assert!(!shape.contains(&"S"), "no stroke: {shape:?}");
}

/// A `w`×`h` PNG of one colour, as a `data:` address.
fn png_data(w: u32, h: u32, rgb: [u8; 3]) -> String {
    use base64::Engine;
    let mut out = Vec::new();
    {
        let mut e = png::Encoder::new(&mut out, w, h);
        e.set_color(png::ColorType::Rgb);
        let mut wr = e.write_header().unwrap();
        wr.write_image_data(&rgb.repeat((w * h) as usize)).unwrap();
    }
    format!(
        "data:image/png;base64,{}",
        base64::engine::general_purpose::STANDARD.encode(out)
    )
}

#[test]
fn pictures_quotes_code_rules_and_spanning_cells_are_printed() {
    let cell =
        |t: &str, attrs: Value| json!({"type": "tableCell", "attrs": attrs, "content": [para(t)]});
    let d = doc(json!([
        {"type": "image", "attrs": {"src": png_data(40, 20, [220, 30, 30]), "alt": "Red logo", "width": 120}},
        {"type": "blockquote", "content": [para("Quoted clause")]},
        {"type": "codeBlock", "content": [{"type": "text", "text": "ACCOUNT  0042\n  INDENTED"}]},
        {"type": "horizontalRule"},
        {"type": "table", "content": [
            {"type": "tableRow", "content": [cell("wide", json!({"colspan": 2})), cell("tall", json!({"rowspan": 2}))]},
            {"type": "tableRow", "content": [cell("left", json!({})), cell("right", json!({}))]},
            {"type": "tableRow", "content": [cell("short", json!({}))]}
        ]},
        {"type": "paragraph", "content": [{"type": "fieldTag", "attrs": {"name": "Code", "type": "text", "role": "client", "width": 80, "height": 20}}]},
        {"type": "paragraph", "attrs": {"textAlign": "center"}, "content": [{"type": "text", "text": "Centred line"}]}
    ]));
    let out = render_views(&d, &[400]);
    assert_eq!((out.fields[0].width, out.fields[0].height), (80.0, 20.0));
    // The page's picture shows the red logo: it is drawn in colour, not grey.
    let reader = png::Decoder::new(std::io::Cursor::new(&out.views[0].images[0]))
        .read_info()
        .unwrap();
    assert_ne!(reader.info().color_type, png::ColorType::Grayscale);
    if let Ok(dir) = std::env::var("KEEP_PICTURES") {
        std::fs::write(format!("{dir}/blocks.png"), &out.views[0].images[0]).unwrap();
    }
    if let Some(text) = poppler("pdftotext", &out.pdf, &["-layout"]) {
        for w in [
            "Quoted clause",
            "ACCOUNT",
            "INDENTED",
            "wide",
            "tall",
            "left",
            "right",
            "short",
        ] {
            assert!(text.contains(w), "{w} in {text}");
        }
    }
    if let Some(pdf) = uncompressed(&out.pdf) {
        assert!(
            pdf.contains("/Subtype /Image"),
            "the logo is a picture of the PDF"
        );
    }
    // A centred paragraph sits in the middle of the text's width (A4: 595 points across).
    if let Some(html) = poppler("pdftotext", &out.pdf, &["-bbox"]) {
        let x = |word: &str, attr: &str| -> f64 {
            let line = html
                .lines()
                .find(|l| l.contains(&format!(">{word}<")))
                .unwrap();
            let i = line.find(&format!("{attr}=\"")).unwrap() + attr.len() + 2;
            line[i..i + line[i..].find('"').unwrap()].parse().unwrap()
        };
        let middle = (x("Centred", "xMin") + x("line", "xMax")) / 2.0;
        assert!((middle - 595.28 / 2.0).abs() < 3.0, "{middle}");
    }
}

#[test]
fn a_files_pages_are_printed_as_they_are_with_fields_exactly_in_place() {
    let words = render(
        &doc(json!([para("Original words of the uploaded file.")])),
        &BTreeMap::new(),
        false,
        "en",
    );
    let (w, h) = words.pages[0];
    let field = |name: &str, x: f64, y: f64| {
        signet_source::PlacedField {
        field: signet_source::parse(
            "source",
            &json!({"type": "doc", "content": [{"type": "paragraph", "content": [
                {"type": "fieldTag", "attrs": {"name": name, "type": "signature", "role": "client"}}]}]}),
        )
        .map(|d| signet_source::walk::fields(&d).remove(0))
        .unwrap(),
        page: 1,
        x,
        y,
        width: 120.0,
        height: 30.0,
    }
    };
    let file_doc = Doc {
        content: vec![],
        file: Some(signet_source::FileDoc {
            blob: "templates/tpl_1/v1.pdf".into(),
            pages: vec![(w, h)],
            fields: vec![field("Sign", 100.0, 200.0), field("Sign 2", 300.5, 640.25)],
            text: vec![vec![signet_source::FileRun {
                x: 65.0,
                y: 100.0,
                width: 200.0,
                height: 12.0,
                size: 10.0,
                text: "Original words of the uploaded file.".into(),
            }]],
            data: Some(words.pdf.clone().into()),
        }),
    };
    let out = render_views(&file_doc, &[400]);
    assert_eq!(out.pages.len(), 1);
    assert!((out.pages[0].0 - w).abs() < 0.01 && (out.pages[0].1 - h).abs() < 0.01);
    let rects: Vec<_> = out
        .fields
        .iter()
        .map(|f| (f.page, f.x, f.y, f.width, f.height))
        .collect();
    assert_eq!(
        rects,
        vec![
            (1, 100.0, 200.0, 120.0, 30.0),
            (1, 300.5, 640.25, 120.0, 30.0)
        ]
    );
    assert_eq!(out.views.len(), 1);
    // The file's words are the page's text layer.
    assert!(
        out.views[0]
            .text
            .iter()
            .any(|r| r.text == "Original words of the uploaded file.")
    );
    // The signing page's picture shows the file's page: dark pixels where its words are.
    let mut reader = png::Decoder::new(std::io::Cursor::new(&out.views[0].images[0]))
        .read_info()
        .unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    let pixels = &buf[..info.buffer_size()];
    let dark = pixels.iter().filter(|v| **v < 100).count();
    assert!(
        dark > 200,
        "the page's words are drawn: {dark} dark samples"
    );
    // The file's words are still words (the page is embedded, not pictured), once.
    if let Some(text) = poppler("pdftotext", &out.pdf, &[]) {
        assert_eq!(
            text.matches("Original words of the uploaded file.").count(),
            1,
            "{text}"
        );
    }
}
