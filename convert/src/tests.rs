use serde_json::{Value, json};

use crate::html::{HtmlError, convert};

const PNG_1X1: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";

fn blocks(html: &str) -> (Vec<Value>, Vec<String>) {
    let c = convert(html).expect("converts");
    // Whatever the converter makes, the source model takes.
    signet_source::parse("source", &c.source).expect("a valid source");
    (c.source["content"].as_array().unwrap().clone(), c.warnings)
}

fn texts(v: &Value) -> String {
    let mut out = String::new();
    fn walk(v: &Value, out: &mut String) {
        if let Some(t) = v.get("text").and_then(Value::as_str) {
            out.push_str(t);
        }
        if v.get("type").and_then(Value::as_str) == Some("fieldTag") {
            out.push_str("[F]");
        }
        if let Some(c) = v.get("content").and_then(Value::as_array) {
            for x in c {
                walk(x, out);
            }
        }
    }
    walk(v, &mut out);
    out
}

#[test]
fn active_and_remote_content_is_dropped_and_said() {
    let (b, warnings) = blocks(
        r#"<html><head><title>T</title><style>p{color:red}</style>
        <link rel=stylesheet href="https://evil.test/a.css"><script>alert(1)</script></head>
        <body><p style="background:url(https://evil.test/x)">Kept <script>steal()</script>words</p>
        <iframe src="https://evil.test/"></iframe><form action="https://evil.test/post">
        <p>Form words</p><input name=a value=secret><button>Go</button></form>
        <img src="https://evil.test/track.png"><img src="/relative.png">
        <a href="javascript:alert(1)">click</a> <a href="https://example.com/terms">terms</a>
        <p>{{Sign;type=signature;role=client}}</p></body></html>"#,
    );
    let all: String = b.iter().map(texts).collect::<Vec<_>>().join("|");
    assert!(all.contains("Kept words"), "{all}");
    assert!(all.contains("Form words"));
    for gone in ["alert", "steal", "secret", "Go", "color", "evil"] {
        assert!(!all.contains(gone), "{gone} in {all}");
    }
    assert!(!serde_json::to_string(&b).unwrap().contains("evil.test"));
    // The https link stays a link; the javascript one is only words.
    assert!(
        serde_json::to_string(&b)
            .unwrap()
            .contains("https://example.com/terms")
    );
    for w in [
        "scripts removed (2)",
        "style sheets removed (2)",
        "frames and embedded objects removed",
        "form controls removed (2)",
        "pictures that are not data: addresses removed (nothing is fetched) (2)",
        "links that are not http, https or mailto removed",
        "style attributes removed",
        "forms removed (their words are kept)",
    ] {
        assert!(warnings.iter().any(|x| x == w), "{w} not in {warnings:?}");
    }
}

#[test]
fn a_tag_split_across_elements_and_quotes_is_one_field_in_place() {
    let (b, _) = blocks(
        "<p>Signed by <b>{{Tenant </b><i>sign;type=“signature”;</i> role = tenant}} on {{Date;type=date;role=tenant;width=80}}.</p>",
    );
    assert_eq!(b.len(), 1);
    let p = &b[0]["content"];
    assert_eq!(texts(&b[0]), "Signed by [F] on [F].");
    let f = p
        .as_array()
        .unwrap()
        .iter()
        .find(|n| n["type"] == "fieldTag")
        .unwrap();
    assert_eq!(f["attrs"]["name"], "Tenant sign");
    assert_eq!(f["attrs"]["type"], "signature");
    assert_eq!(f["attrs"]["role"], "tenant");
    let d = p
        .as_array()
        .unwrap()
        .iter()
        .rfind(|n| n["type"] == "fieldTag")
        .unwrap();
    assert_eq!(d["attrs"]["width"], 80.0);
    // The text before keeps its marks; nothing of the tag is left as text.
    assert_eq!(p[0], json!({"type": "text", "text": "Signed by "}));
}

#[test]
fn shapes_are_kept() {
    let (b, _) = blocks(&format!(
        r#"<h1>Lease</h1><h5>Small</h5><ol start=3><li>One<ul><li>Inner</li></ul></li><li><p>Two</p></li></ol>
        <blockquote><p>Quoted</p></blockquote><pre>  line one
   line two</pre><hr>
        <table><thead><tr><th>A</th><th>B</th><th>C</th></tr></thead>
        <tbody><tr><td colspan=2>wide</td><td rowspan=2>tall</td></tr><tr><td>x</td><td>y</td></tr></tbody></table>
        <p>Logo: <img src="data:image/png;base64,{PNG_1X1}" alt="Our logo" width=40> after</p>
        <p>{{{{Sign;type=signature}}}}</p>"#
    ));
    let kinds: Vec<&str> = b.iter().map(|n| n["type"].as_str().unwrap()).collect();
    assert_eq!(
        kinds,
        [
            "heading",
            "heading",
            "orderedList",
            "blockquote",
            "codeBlock",
            "horizontalRule",
            "table",
            "paragraph",
            "image",
            "paragraph",
            "paragraph"
        ]
    );
    assert_eq!(b[1]["attrs"]["level"], 4);
    assert_eq!(b[2]["attrs"]["start"], 3);
    assert_eq!(b[2]["content"][0]["content"][1]["type"], "bulletList");
    assert_eq!(texts(&b[4]), "  line one\n   line two");
    let rows = b[6]["content"].as_array().unwrap();
    assert_eq!(rows[0]["content"][0]["type"], "tableHeader");
    assert_eq!(
        rows[1]["content"][0]["attrs"],
        json!({"colspan": 2, "rowspan": 1})
    );
    assert_eq!(
        rows[1]["content"][1]["attrs"],
        json!({"colspan": 1, "rowspan": 2})
    );
    assert_eq!(b[8]["attrs"]["alt"], "Our logo");
    assert_eq!(b[8]["attrs"]["width"], 30.0);
    // A tag without a role belongs to the default seat.
    assert_eq!(b[10]["content"][0]["attrs"]["role"], "signer");
    let doc = signet_source::parse("source", &json!({"type": "doc", "content": b})).unwrap();
    let signet_source::Block::Table(t) = &doc.content[6] else {
        panic!("a table")
    };
    assert_eq!(t.columns(), 3);
}

#[test]
fn a_picture_that_lies_about_its_kind_is_dropped() {
    use base64::Engine;
    let fake = base64::engine::general_purpose::STANDARD.encode(b"<svg onload=alert(1)>");
    let (b, warnings) = blocks(&format!(
        r#"<p><img src="data:image/png;base64,{fake}"></p><p>{{{{S;type=signature}}}}</p>"#
    ));
    assert_eq!(b.len(), 1);
    assert!(
        warnings
            .iter()
            .any(|w| w.contains("is not a PNG, JPEG, GIF or WebP")),
        "{warnings:?}"
    );
}

#[test]
fn a_tag_that_cannot_be_read_names_itself_and_where() {
    let e = convert("<p>one</p><p>two {{Sign;type=signatur;role=client}}</p>").unwrap_err();
    assert!(e.0.contains("{{Sign;type=signatur;role=client}}"), "{e}");
    assert!(e.0.contains("paragraph 2"), "{e}");
}

#[test]
fn labels_across_seats_are_named_per_seat_and_conflicts_refused() {
    let (b, _) = blocks(
        "<p>{{Signature;type=signature;role=First Party}}</p><p>{{Signature;type=signature;role=landlord}}</p>",
    );
    assert_eq!(
        b[0]["content"][0]["attrs"]["name"],
        "Signature (First_Party)"
    );
    assert_eq!(b[0]["content"][0]["attrs"]["role"], "First_Party");
    assert_eq!(b[1]["content"][0]["attrs"]["name"], "Signature (landlord)");
    let e =
        convert("<p>{{Name;type=text;role=a}}</p><p>{{Name;type=date;role=a}}</p>").unwrap_err();
    assert!(e.0.contains("different attributes"), "{e}");
    assert!(e.0.contains("paragraph 2"), "{e}");
}

#[test]
fn a_link_is_read_at_character_boundaries() {
    let (b, warnings) = blocks("<p><a href=\"€€€\">x</a> {{S;type=signature}}</p>");
    assert_eq!(texts(&b[0]), "x [F]");
    assert!(warnings.iter().any(|w| w.contains("links")), "{warnings:?}");
}

#[test]
fn merge_braces_that_are_not_tags_stay_words() {
    let (b, _) = blocks("<p>Hello {{org.name}} and {{Sign;type=signature}}</p>");
    assert_eq!(texts(&b[0]), "Hello {{org.name}} and [F]");
}

#[test]
fn too_large_or_too_deep_is_bounded() {
    let big = "a".repeat(crate::html::MAX_HTML + 1);
    assert!(matches!(convert(&big), Err(HtmlError(_))));
    // 600 nested lists and divs: structure is capped, words are kept, the source parses.
    let deep = format!(
        "{}deep{}<p>{{{{S;type=signature}}}}</p>",
        "<ul><li><div>".repeat(600),
        "</div></li></ul>".repeat(600)
    );
    let (b, _) = blocks(&deep);
    assert!(b.iter().map(texts).any(|t| t.contains("deep")));
    // Past 2,000 elements open at once the page is refused before it is parsed.
    let deeper = "<div>".repeat(200_000);
    let e = convert(&deeper).unwrap_err();
    assert!(e.0.contains("at most 2000"), "{e}");
    // Sloppy but shallow pages pass: thousands of unclosed paragraphs and items.
    let sloppy = format!(
        "{}<p>{{{{S;type=signature}}}}",
        "<p>words<li>item".repeat(5000)
    );
    blocks(&sloppy);
    // Tags past the most a template takes are refused, and many braces cost one pass.
    let many = "<p>{{S;type=text}}</p>".repeat(1001);
    assert!(
        convert(&many)
            .unwrap_err()
            .0
            .contains("more than 1000 text tags")
    );
    let braces = format!("<p>{}}}}}</p>", "{".repeat(1_000_000));
    let c = convert(&format!("{braces}<p>{{{{S;type=signature}}}}</p>")).unwrap();
    assert_eq!(c.source["content"][1]["content"][0]["type"], "fieldTag");
}

#[test]
fn payment_tags_keep_their_amount_or_formula() {
    let (b, _) = blocks(
        "<p>{{Deposit;type=payment;amount=500.00;currency=EUR;role=client}}</p>\
         <p>{{Total;type=payment;formula=Deposit * 2;role=client}}</p>",
    );
    let deposit = &b[0]["content"][0]["attrs"];
    assert_eq!(
        (deposit["amount"].as_str(), deposit["currency"].as_str()),
        (Some("500.00"), Some("EUR"))
    );
    let doc = signet_source::parse("source", &json!({"type": "doc", "content": b})).unwrap();
    let fields = signet_source::walk::fields(&doc);
    let p = fields[0].payment.as_ref().unwrap();
    assert_eq!((p.amount_minor, p.currency.as_str()), (Some(50_000), "eur"));
    assert_eq!(
        fields[1].payment.as_ref().unwrap().formula.as_deref(),
        Some("Deposit * 2")
    );
}

#[test]
fn centred_and_right_set_lines_stay_so() {
    let (b, warnings) = blocks(
        "<center><h1>AGREEMENT</h1></center><p align=right>Paris, 1 May</p>\
         <div style=\"color: red; text-align: center\"><p>Between the parties</p></div>\
         <p>Plain words {{S;type=signature}}</p>",
    );
    assert_eq!(b[0]["attrs"]["textAlign"], "center");
    assert_eq!(b[1]["attrs"]["textAlign"], "right");
    assert_eq!(b[2]["attrs"]["textAlign"], "center");
    assert!(b[3]["attrs"].get("textAlign").is_none());
    // Only text-align is read of a style; the rest is still said to be removed.
    assert!(
        warnings.iter().any(|w| w == "style attributes removed"),
        "{warnings:?}"
    );
    let doc = signet_source::parse("source", &json!({"type": "doc", "content": b})).unwrap();
    assert!(matches!(
        &doc.content[0],
        signet_source::Block::Heading {
            align: signet_source::Align::Center,
            ..
        }
    ));
    assert!(matches!(
        &doc.content[1],
        signet_source::Block::Aligned {
            align: signet_source::Align::End,
            ..
        }
    ));
}
