//! Office files: a docx written by python-docx (a Word-compatible writer), files saved by
//! LibreOffice itself (odt, xlsx from a spreadsheet), and hostile archives: zip bombs, DTDs,
//! names that climb out, macros and links to outside the file.

use std::io::{Read, Write};
use std::process::Command;

use crate::office::{Cleaned, Office, clean};
use crate::pdf::prepare;
use crate::pdf_tests::{tags_come_out_and_the_rest_stays, text_of, tool, words, write};

/// LibreOffice with its sandbox, or `None` when it is missing and `office` was skipped.
fn office() -> Option<Office> {
    match Office::find() {
        Ok(o) => Some(o),
        Err(e) => {
            signet_testkit::part("office", Some(e));
            None
        }
    }
}

/// A zip of `parts`, in order, deflated.
fn zip_of(parts: &[(&str, &[u8])]) -> Vec<u8> {
    let mut z = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    for (name, data) in parts {
        let method = if *name == "mimetype" {
            zip::CompressionMethod::Stored
        } else {
            zip::CompressionMethod::Deflated
        };
        z.start_file(
            *name,
            zip::write::SimpleFileOptions::default().compression_method(method),
        )
        .unwrap();
        z.write_all(data).unwrap();
    }
    z.finish().unwrap().into_inner()
}

fn parts_of(bytes: &[u8]) -> Vec<(String, Vec<u8>)> {
    let mut z = zip::ZipArchive::new(std::io::Cursor::new(bytes)).unwrap();
    (0..z.len())
        .map(|i| {
            let mut f = z.by_index(i).unwrap();
            let mut d = Vec::new();
            f.read_to_end(&mut d).unwrap();
            (f.name().unwrap().into_owned(), d)
        })
        .collect()
}

const TYPES: &str = r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Default Extension="png" ContentType="image/png"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>"#;
const ROOT_RELS: &str = r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>"#;

/// A Word document body of `paragraphs`, with `extra` XML (a picture) after them.
fn document_xml(paragraphs: &[&str], extra: &str) -> String {
    let body: String = paragraphs
        .iter()
        .map(|p| format!("<w:p><w:r><w:t xml:space=\"preserve\">{p}</w:t></w:r></w:p>"))
        .collect();
    format!(
        r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:pic="http://schemas.openxmlformats.org/drawingml/2006/picture"><w:body>{body}{extra}</w:body></w:document>"#
    )
}

/// A picture in a Word body whose bytes are linked (`r:link`), not embedded.
const LINKED_PICTURE: &str = r#"<w:p><w:r><w:drawing><wp:inline><wp:extent cx="952500" cy="952500"/><wp:docPr id="1" name="p"/><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:pic><pic:nvPicPr><pic:cNvPr id="1" name="p"/><pic:cNvPicPr/></pic:nvPicPr><pic:blipFill><a:blip r:link="rIdOut"/><a:stretch><a:fillRect/></a:stretch></pic:blipFill><pic:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="952500" cy="952500"/></a:xfrm><a:prstGeom prst="rect"/></pic:spPr></pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p>"#;

fn docx(paragraphs: &[&str], extra: &str, document_rels: &str, more: &[(&str, &[u8])]) -> Vec<u8> {
    let doc = document_xml(paragraphs, extra);
    let mut parts: Vec<(&str, &[u8])> = vec![
        ("[Content_Types].xml", TYPES.as_bytes()),
        ("_rels/.rels", ROOT_RELS.as_bytes()),
        ("word/document.xml", doc.as_bytes()),
        ("word/_rels/document.xml.rels", document_rels.as_bytes()),
    ];
    parts.extend_from_slice(more);
    zip_of(&parts)
}

fn rels(items: &str) -> String {
    format!(
        r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">{items}</Relationships>"#
    )
}

fn refused(bytes: &[u8]) -> String {
    match clean(bytes) {
        Ok(c) => panic!("taken: {:?}", c.warnings),
        Err(e) => e.0,
    }
}

#[test]
fn a_zip_bomb_stops_at_the_caps_before_anything_is_unpacked_in_whole() {
    // 20 MB of zeros pack to about 20 KB: a thousand times, where office XML packs 5 to 30.
    let zeros = vec![0u8; 20 * 1024 * 1024];
    let bomb = docx(&["x"], "", &rels(""), &[("word/media/big.xml", &zeros)]);
    assert!(bomb.len() < 200_000, "{}", bomb.len());
    let why = refused(&bomb);
    assert!(why.contains("zip bomb") && why.contains("big.xml"), "{why}");
    // Parts that pack plainly but add up past the whole's cap are refused too, by size.
    let noise: Vec<u8> = (0..70u32 * 1024 * 1024)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
        .collect();
    let big = docx(&["x"], "", &rels(""), &[("word/media/noise.bin", &noise)]);
    let why = refused(&big);
    assert!(why.contains("larger than 64 MB"), "{why}");
}

#[test]
fn dtds_names_that_climb_out_and_other_kinds_are_refused_with_their_reason() {
    let dtd = format!(
        "<?xml version=\"1.0\"?><!DOCTYPE w [<!ENTITY a \"aaaaaaaa\"><!ENTITY b \"&a;&a;&a;\">]>{}",
        &document_xml(&["&b;"], "")[38..]
    );
    let bomb = zip_of(&[
        ("[Content_Types].xml", TYPES.as_bytes()),
        ("_rels/.rels", ROOT_RELS.as_bytes()),
        ("word/document.xml", dtd.as_bytes()),
    ]);
    let why = refused(&bomb);
    assert!(
        why.contains("DTD") && why.contains("word/document.xml"),
        "{why}"
    );

    let climb = docx(
        &["x"],
        "",
        &rels(""),
        &[("../../etc/cron.d/x", b"* * * * * root id")],
    );
    assert!(refused(&climb).contains("leaves the archive"));

    let not_office = zip_of(&[("readme.txt", b"hello")]);
    assert!(refused(&not_office).contains("not a Word, Excel or PowerPoint"));

    let drawing = zip_of(&[
        ("mimetype", b"application/vnd.oasis.opendocument.graphics"),
        ("content.xml", b"<x/>"),
    ]);
    assert!(refused(&drawing).contains("opendocument.graphics"));

    // An old-format file that says it is encrypted is refused before LibreOffice would ask
    // for a password no one can type.
    let mut cfb = vec![0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
    cfb.extend(
        "EncryptedPackage"
            .encode_utf16()
            .flat_map(|u| u.to_le_bytes()),
    );
    assert!(refused(&cfb).contains("password"));
}

#[test]
fn macros_and_links_to_outside_the_file_are_taken_out_of_ooxml() {
    let doc_rels = rels(concat!(
        r#"<Relationship Id="rIdOut" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/image" Target="http://127.0.0.1:9/x.png" TargetMode="External"/>"#,
        r#"<Relationship Id="rIdFile" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/image" Target="file:///etc/hostname" TargetMode="External"/>"#,
        r#"<Relationship Id="rIdVba" Type="http://schemas.microsoft.com/office/2006/relationships/vbaProject" Target="vbaProject.bin"/>"#,
        r#"<Relationship Id="rIdIn" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/image" Target="media/in.png"/>"#,
    ));
    let bytes = docx(
        &["Sign {{Sig;type=signature;role=client}}"],
        LINKED_PICTURE,
        &doc_rels,
        &[
            ("word/vbaProject.bin", b"Attribute VB_Name = \"x\""),
            ("word/activeX/activeX1.xml", b"<ax/>"),
            ("customUI/customUI14.xml", b"<customUI onLoad=\"Run\"/>"),
        ],
    );
    let c = clean(&bytes).unwrap();
    assert_eq!(c.ext, "docx");
    let parts = parts_of(&c.bytes);
    let names: Vec<&str> = parts.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(
        names,
        [
            "[Content_Types].xml",
            "_rels/.rels",
            "word/document.xml",
            "word/_rels/document.xml.rels"
        ]
    );
    let kept = String::from_utf8(parts[3].1.clone()).unwrap();
    assert!(!kept.contains("External") && !kept.contains("127.0.0.1") && !kept.contains("file:"));
    assert!(
        kept.contains("media/in.png") && kept.contains("rIdVba"),
        "{kept}"
    );
    let said = c.warnings.join("; ");
    for what in [
        "macro project (VBA)",
        "ActiveX",
        "ribbon",
        "2 of: link to outside",
    ] {
        assert!(said.contains(what), "{what} not in {said}");
    }
}

#[test]
fn odf_macros_leave_with_their_manifest_entries_and_outside_links_are_emptied() {
    let manifest = r#"<?xml version="1.0" encoding="UTF-8"?>
<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0"><manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.text"/><manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/><manifest:file-entry manifest:full-path="Basic/Standard/Module1.xml" manifest:media-type="text/xml"/><manifest:file-entry manifest:full-path="Pictures/a.png" manifest:media-type="image/png"/></manifest:manifest>"#;
    let content = r##"<office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:xlink="http://www.w3.org/1999/xlink"><draw:image xlink:href="Pictures/a.png"/><draw:image xlink:href="http://127.0.0.1:9/x.png"/><draw:image xlink:href="file:///etc/passwd"/><draw:image xlink:href="../../secret.png"/><text:a xlink:href="#Intro">in</text:a></office:document-content>""##;
    let bytes = zip_of(&[
        ("mimetype", b"application/vnd.oasis.opendocument.text"),
        ("META-INF/manifest.xml", manifest.as_bytes()),
        ("content.xml", content.as_bytes()),
        (
            "Basic/Standard/Module1.xml",
            b"<script:module>Shell(\"id\")</script:module>",
        ),
        ("Pictures/a.png", b"png"),
    ]);
    let c = clean(&bytes).unwrap();
    assert_eq!(c.ext, "odt");
    let parts = parts_of(&c.bytes);
    assert_eq!(parts[0].0, "mimetype");
    let names: Vec<&str> = parts.iter().map(|(n, _)| n.as_str()).collect();
    assert!(!names.iter().any(|n| n.starts_with("Basic/")), "{names:?}");
    let manifest = String::from_utf8(parts[1].1.clone()).unwrap();
    assert!(!manifest.contains("Basic/") && manifest.contains("Pictures/a.png"));
    let content = String::from_utf8(parts[2].1.clone()).unwrap();
    assert!(content.contains(r#"xlink:href="Pictures/a.png""#) && content.contains("#Intro"));
    for gone in ["127.0.0.1", "/etc/passwd", "secret.png"] {
        assert!(!content.contains(gone), "{content}");
    }
    assert_eq!(content.matches(r#"xlink:href="""#).count(), 3, "{content}");
}

/// Runs `python3` with `script`; `None` outside CI without python-docx.
fn python(script: &str, dir: &tempfile::TempDir) -> Option<()> {
    let out = Command::new("python3")
        .arg("-c")
        .arg(script)
        .current_dir(dir.path())
        .output();
    let missing = match out {
        Ok(o) if o.status.success() => return Some(()),
        Ok(o) => format!("python3: {}", String::from_utf8_lossy(&o.stderr)),
        Err(e) => format!("python3: {e}"),
    };
    signet_testkit::part("office", Some(missing));
    None
}

fn converted(office: &Office, bytes: &[u8]) -> Vec<u8> {
    let c: Cleaned = clean(bytes).unwrap_or_else(|e| panic!("{e}"));
    office.to_pdf(&c).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn a_docx_written_by_python_docx_gives_its_tags_where_libreoffice_drew_them() {
    let Some(office) = office() else { return };
    let dir = tempfile::tempdir().unwrap();
    let script = r#"
import docx
d = docx.Document()
d.add_heading('Consulting agreement', 1)
d.add_paragraph('The consultant advises the client on their accounts for one year.')
p = d.add_paragraph('Client: ')
p.add_run('{{Client sign;').bold = True
p.add_run('type=signature;role=Client}}')
p.add_run(' on behalf of the client.')
d.add_paragraph('Date {{Date;type=date;role=Client;width=100;height=20}} and more words.')
d.add_paragraph('Consultant: {{Consultant sign;type=signature;role=Consultant}}')
d.add_paragraph('The words of this line run on and on until the tag at its end has to wrap: {{Initials here;type=initials;role=Consultant}}')
d.save('a.docx')
"#;
    if python(script, &dir).is_none() {
        return;
    }
    let docx = std::fs::read(dir.path().join("a.docx")).unwrap();
    let pdf = converted(&office, &docx);
    // The wrapped tag is left out of the shared checks: its box is its widest line's.
    let out = prepare(&pdf, 50).unwrap();
    let labels: Vec<&str> = out.tags.iter().map(|t| t.tag.label.as_str()).collect();
    assert_eq!(
        labels,
        ["Client sign", "Date", "Consultant sign", "Initials here"]
    );
    let wrapped = &out.tags[3];
    assert!(wrapped.height < 20.0, "one line high: {wrapped:?}");
    assert!(wrapped.width > 100.0, "{wrapped:?}");
    assert_eq!((out.tags[1].width, out.tags[1].height), (100.0, 20.0));
    if let Some(text) = text_of(&out.pdf) {
        assert!(!text.contains("{{") && !text.contains("}}"), "{text}");
        assert!(text.contains("on behalf of the client.") && text.contains("and more words."));
    }
    // Tags set in two runs (one bold) are one tag; every other word stays where it was.
    let single = {
        let dir2 = tempfile::tempdir().unwrap();
        let script2 = script.replace(
            "d.add_paragraph('The words of this line run on and on until the tag at its end has to wrap: {{Initials here;type=initials;role=Consultant}}')\n",
            "",
        );
        python(&script2, &dir2).unwrap();
        std::fs::read(dir2.path().join("a.docx")).unwrap()
    };
    tags_come_out_and_the_rest_stays(
        &converted(&office, &single),
        &[
            ("Client sign", "signature"),
            ("Date", "date"),
            ("Consultant sign", "signature"),
        ],
    );
}

#[test]
fn files_saved_by_libreoffice_itself_odt_and_xlsx_give_their_tags() {
    let Some(office) = office() else { return };
    let dir = tempfile::tempdir().unwrap();
    // LibreOffice (outside our sandbox, as a user's would) saves a Word text as odt and a
    // table as xlsx.
    let text_docx = docx(
        &[
            "Tenancy of the flat.",
            "Tenant: {{Tenant;type=signature;role=Tenant}}",
        ],
        "",
        &rels(""),
        &[],
    );
    let csv = "Item,Amount\nRent,1200\nSigned,{{Landlord;type=signature;role=Landlord}}\n";
    write(&dir, "t.docx", &text_docx);
    write(&dir, "s.csv", csv.as_bytes());
    let profile = format!("-env:UserInstallation=file://{}/p", dir.path().display());
    let out = dir.path().to_string_lossy().into_owned();
    if tool(
        "soffice",
        &[
            "--headless",
            &profile,
            "--convert-to",
            "odt:writer8",
            "--outdir",
            &out,
            &format!("{out}/t.docx"),
        ],
    )
    .is_none()
    {
        return;
    }
    tool(
        "soffice",
        &[
            "--headless",
            &profile,
            "--convert-to",
            "xlsx",
            "--outdir",
            &out,
            &format!("{out}/s.csv"),
        ],
    );
    let odt = std::fs::read(dir.path().join("t.odt")).unwrap();
    let xlsx = std::fs::read(dir.path().join("s.xlsx")).unwrap();
    assert_eq!(clean(&odt).unwrap().ext, "odt");
    assert_eq!(clean(&xlsx).unwrap().ext, "xlsx");
    let text =
        tags_come_out_and_the_rest_stays(&converted(&office, &odt), &[("Tenant", "signature")]);
    assert_eq!(text.tags[0].tag.role.as_deref(), Some("Tenant"));
    let sheet =
        tags_come_out_and_the_rest_stays(&converted(&office, &xlsx), &[("Landlord", "signature")]);
    let before = words(&converted(&office, &xlsx)).unwrap_or_default();
    if let Some(rent) = before.iter().find(|w| w.0 == "Rent") {
        // The tag sits in the cell under "Rent"'s row, in the second column.
        assert!(sheet.tags[0].y > rent.3, "{:?} vs {rent:?}", sheet.tags[0]);
    }
}

#[test]
fn a_linked_picture_is_neither_fetched_nor_read_from_disk() {
    let Some(office) = office() else { return };
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let port = listener.local_addr().unwrap().port();
    let doc_rels = rels(&format!(
        r#"<Relationship Id="rIdOut" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/image" Target="http://127.0.0.1:{port}/x.png" TargetMode="External"/>"#
    ));
    let bytes = docx(
        &["Sign {{Sig;type=signature;role=client}}"],
        LINKED_PICTURE,
        &doc_rels,
        &[],
    );
    let pdf = converted(&office, &bytes);
    let out = prepare(&pdf, 50).unwrap();
    assert_eq!(out.tags.len(), 1);
    assert!(
        listener.accept().is_err(),
        "LibreOffice connected to the picture's address"
    );
    // The same file without our cleaning, in the sandbox: still nothing reaches the host's
    // loopback (the sandbox has its own network, with nothing in it).
    let raw = Cleaned {
        bytes,
        ext: "docx",
        warnings: Vec::new(),
    };
    office.to_pdf(&raw).unwrap();
    assert!(listener.accept().is_err());
}

#[test]
fn every_spelling_of_an_outside_link_is_caught_by_reading_the_xml() {
    let spellings = [
        r#"<Relationship Id="a" Type="t" Target="http://127.0.0.1:9/a.png" TargetMode = "External"/>"#,
        "<Relationship\n Id=\"b\" Type=\"t\" Target=\"file:///etc/hostname\" TargetMode=\"External\"/>",
        r#"<r:Relationship Id="c" Type="t" Target="http://127.0.0.1:9/c.png" TargetMode="&#69;xternal"></r:Relationship>"#,
        r#"<Relationship Id="d" Type="t" Target="http://127.0.0.1:9/d.png" TargetMode='External' />"#,
    ];
    let doc_rels = rels(&spellings.concat());
    let c = clean(&docx(&["x"], "", &doc_rels, &[])).unwrap();
    let kept = String::from_utf8(parts_of(&c.bytes)[3].1.clone()).unwrap();
    assert!(
        !kept.contains("127.0.0.1") && !kept.contains("hostname"),
        "{kept}"
    );
    assert!(
        c.warnings.join(" ").contains("4 of: link to outside"),
        "{:?}",
        c.warnings
    );

    // UTF-16 hides nothing: it is refused.
    let wide: Vec<u8> = [0xff, 0xfe]
        .into_iter()
        .chain(doc_rels.encode_utf16().flat_map(|u| u.to_le_bytes()))
        .collect();
    let why = refused(&docx(
        &["x"],
        "",
        "",
        &[("word/_rels/settings.xml.rels", &wide)],
    ));
    assert!(why.contains("not UTF-8"), "{why}");

    // A DTD in a part not named .xml is found by its bytes.
    let vml = b"<?xml version=\"1.0\"?><!DOCTYPE v [<!ENTITY e SYSTEM \"file:///etc/passwd\">]><v>&e;</v>";
    let why = refused(&docx(&["x"], "", &rels(""), &[("word/drawing1.vml", vml)]));
    assert!(why.contains("DTD") && why.contains("drawing1.vml"), "{why}");

    // A part that only looks like relationships but does not parse is no way around: a
    // megabyte of unclosed elements is kept as it is, in one pass.
    let junk = "<Relationship ".repeat(70_000);
    let c = clean(&docx(
        &["x"],
        "",
        &rels(""),
        &[("word/_rels/x.xml.rels", junk.as_bytes())],
    ))
    .unwrap();
    assert!(c.warnings.is_empty(), "{:?}", c.warnings);

    // OpenDocument: spaces around '=', other prefixes, and form pictures.
    let content = r#"<office:document-content xmlns:office="o" xmlns:xlink="x" xmlns:l="x" xmlns:form="f"><a xlink:href = "http://127.0.0.1:9/a"/><b l:href="file:///etc/passwd"/><c form:image-data="http://127.0.0.1:9/c"/><d xlink:href="Pictures/d.png"/></office:document-content>"#;
    let odt = zip_of(&[
        ("mimetype", b"application/vnd.oasis.opendocument.text"),
        ("content.xml", content.as_bytes()),
    ]);
    let c = clean(&odt).unwrap();
    let kept = String::from_utf8(parts_of(&c.bytes)[1].1.clone()).unwrap();
    assert!(
        !kept.contains("127.0.0.1") && !kept.contains("passwd"),
        "{kept}"
    );
    assert!(kept.contains(r#"xlink:href="Pictures/d.png""#), "{kept}");
}

#[test]
fn fields_that_pull_in_other_files_are_refused_in_word_rtf_and_old_files() {
    let field = r#"<w:p><w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText xml:space="preserve"> INCLUDEPICTURE "file:///etc/hostname" \d </w:instrText></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r></w:p>"#;
    let why = refused(&docx(&["x"], field, &rels(""), &[]));
    assert!(
        why.contains("INCLUDEPICTURE") && why.contains("Ctrl+Shift+F9"),
        "{why}"
    );
    let simple = r#"<w:p><w:fldSimple w:instr=" INCLUDETEXT &quot;/etc/hostname&quot; "><w:r><w:t>x</w:t></w:r></w:fldSimple></w:p>"#;
    assert!(refused(&docx(&["x"], simple, &rels(""), &[])).contains("INCLUDETEXT"));
    // The word in the text itself is only a word.
    let c = clean(&docx(
        &["We never use INCLUDEPICTURE here."],
        "",
        &rels(""),
        &[],
    ))
    .unwrap();
    assert!(c.warnings.is_empty());
    let rtf = br#"{\rtf1\ansi {\field{\*\fldinst INCLUDEPICTURE "file:///usr/share/pixmaps/debian-logo.png" \\d}{\fldrslt x}}}"#;
    assert!(refused(rtf).contains("INCLUDEPICTURE"));
    assert_eq!(
        clean(br"{\rtf1\ansi Sign {{S;type=signature}}}")
            .unwrap()
            .ext,
        "rtf"
    );
    let mut doc = vec![0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
    doc.extend("WordDocument".encode_utf16().flat_map(|u| u.to_le_bytes()));
    doc.extend(b" INCLUDETEXT \"c:\\\\secret.txt\" ");
    assert!(refused(&doc).contains("INCLUDETEXT"));
}
