use serde_json::{Value, json};

use crate::*;

fn para(content: Value) -> Value {
    json!({"type": "paragraph", "content": content})
}

fn field(name: &str, ty: &str, role: &str) -> Value {
    json!({"type": "fieldTag", "attrs": {"name": name, "type": ty, "role": role}})
}

fn person(seat: &str, i: usize) -> Person {
    Person {
        seat: seat.into(),
        name: format!("Person {i}"),
        email: format!("p{i}@example.com"),
        action: PersonAction::Sign,
        path: format!("people[{i}]"),
    }
}

fn run(src: Value, people: &[Person]) -> Report {
    let doc = parse("source", &src).unwrap();
    check(
        &doc,
        &CheckInput {
            people: Some(people),
            root: "source",
            require_signature: true,
            ..Default::default()
        },
    )
}

fn messages(ps: &[Problem]) -> Vec<String> {
    ps.iter().map(ToString::to_string).collect()
}

#[test]
fn parses_every_node_kind_into_typed_values() {
    let src = json!({"type": "doc", "content": [
        {"type": "heading", "attrs": {"level": 2}, "content": [{"type": "text", "text": "Terms"}]},
        para(json!([
            {"type": "text", "text": "Hello ", "marks": [{"type": "bold"}, {"type": "link", "attrs": {"href": "https://example.com"}}]},
            {"type": "variableChip", "attrs": {"name": "org.name"}},
            {"type": "hardBreak"},
            field("Start", "date", "client"),
        ])),
        {"type": "bulletList", "content": [{"type": "listItem", "content": [
            para(json!([{"type": "text", "text": "one"}])),
            {"type": "orderedList", "attrs": {"start": 3}, "content": [{"type": "listItem", "content": [para(json!([{"type": "text", "text": "nested"}]))]}]}
        ]}]},
        {"type": "table", "content": [
            {"type": "tableRow", "content": [{"type": "tableHeader", "content": [para(json!([{"type": "text", "text": "H"}]))]}]},
            {"type": "tableRow", "content": [{"type": "tableCell", "content": [para(json!([{"type": "text", "text": "C"}]))]}]}
        ]},
        {"type": "signatureBlock", "attrs": {"role": "client"}}
    ]});
    let doc = parse("source", &src).unwrap();
    assert_eq!(doc.content.len(), 5);
    let Block::Paragraph(p) = &doc.content[1] else {
        panic!()
    };
    let Inline::Text { marks, .. } = &p[0] else {
        panic!()
    };
    assert!(marks.bold && marks.link.as_deref() == Some("https://example.com"));
    let Block::Table(t) = &doc.content[3] else {
        panic!()
    };
    assert!(t.header);
    let fields = walk::fields(&doc);
    let names: Vec<_> = fields.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(names, ["Start", "client signature", "client date signed"]);
    assert_eq!(fields[2].autofill, Some(Autofill::DateSigned));
}

#[test]
fn structural_errors_carry_their_path() {
    let src = json!({"type": "doc", "content": [
        para(json!([{"type": "text", "text": "ok"}])),
        para(json!([{"type": "fieldTag", "attrs": {"name": "x", "type": "laser", "role": "a"}}])),
        {"type": "heading", "attrs": {"level": 7}},
        {"type": "signatureBlock", "attrs": {"role": "bad role!"}},
        para(json!([{"type": "text", "text": "x", "marks": [{"type": "link", "attrs": {"href": "javascript:alert(1)"}}]}])),
        {"type": "video"}
    ]});
    let errs = messages(&parse("source", &src).unwrap_err());
    assert!(
        errs[0].starts_with("source.content[1].content[0].attrs.type: unknown field type 'laser'"),
        "{errs:?}"
    );
    assert_eq!(
        errs[1],
        "source.content[2].attrs.level: must be 1, 2, 3 or 4"
    );
    assert!(errs[2].starts_with("source.content[3].attrs.role: 'bad role!' is not a role word"));
    assert!(
        errs[3].starts_with("source.content[4].content[0].marks[0].attrs.href: must be an http")
    );
    assert!(errs[4].starts_with("source.content[5].type: unknown node type 'video'"));
    assert_eq!(errs.len(), 5);
    assert!(parse("source", &json!([])).is_err());
}

#[test]
fn unknown_role_names_the_field_and_the_people() {
    let src = json!({"type": "doc", "content": [
        para(json!([field("Sig", "signature", "signer_1"), field("Other", "signature", "signer_3")]))
    ]});
    let r = run(src, &[person("signer_1", 0)]);
    assert_eq!(
        messages(&r.problems),
        [
            "source.content[0].content[1].attrs.role: unknown role 'signer_3'; the people are signer_1"
        ]
    );
}

#[test]
fn a_signature_blocks_unknown_role_points_at_the_block() {
    let src = json!({"type": "doc", "content": [
        para(json!([field("Sig", "signature", "signer_1")])),
        {"type": "heading", "attrs": {"level": 2, "audience": "sender"}, "content": [{"type": "text", "text": "Ours"}]},
        {"type": "signatureBlock", "attrs": {"role": "signer_1"}},
        {"type": "heading", "attrs": {"level": 2}, "content": [{"type": "text", "text": "Signatures"}]},
        {"type": "signatureBlock", "attrs": {"role": "signer_3"}}
    ]});
    let r = run(src, &[person("signer_1", 0)]);
    assert_eq!(
        messages(&r.problems),
        ["source.content[4].attrs.role: unknown role 'signer_3'; the people are signer_1"]
    );
    // The block under the sender-only heading is dropped, and the warning says where it was.
    assert_eq!(
        messages(&r.warnings),
        [
            "source.content[2]: field 'signer_1 signature' is in a sender-only section; signers \
             never see it, so it is dropped"
        ]
    );
}

#[test]
fn people_without_fields_or_signatures_are_problems() {
    let src =
        json!({"type": "doc", "content": [para(json!([field("Initials", "initials", "a")]))]});
    let r = run(src, &[person("a", 0), person("b", 1)]);
    let m = messages(&r.problems);
    assert!(
        m.contains(&"people[0]: person 'a' (Person 0) has no signature field".to_string()),
        "{m:?}"
    );
    assert!(m.contains(&"people[1]: person 'b' (Person 1) has no field to fill in".to_string()));
    assert!(m.contains(&"source.content: the document has no signature field".to_string()));
}

#[test]
fn payment_amounts_follow_their_currency_and_formulas_read_number_fields() {
    let pay = |attrs: serde_json::Value| {
        let mut f = field("Pay", "payment", "a");
        for (k, v) in attrs.as_object().unwrap() {
            f["attrs"][k] = v.clone();
        }
        f
    };
    let src = json!({"type": "doc", "content": [para(json!([
        field("Sig", "signature", "a"),
        field("Seats", "number", "a"),
        pay(json!({"amount": "1200", "currency": "JPY"})),
    ]))]});
    let r = run(src, &[person("a", 0)]);
    assert!(r.problems.is_empty(), "{:?}", messages(&r.problems));
    let p = r.fields[2].payment.as_ref().unwrap();
    assert_eq!((p.amount_minor, p.currency.as_str()), (Some(1200), "jpy"));
    // Yen have no cents, a dinar has three digits, and a currency payments do not take is named.
    for (attrs, said) in [
        (
            json!({"amount": "12.5", "currency": "jpy"}),
            "attrs.amount: must be a positive whole amount: JPY has no cents",
        ),
        (
            json!({"amount": "1.2345", "currency": "kwd"}),
            "attrs.amount: must be a positive amount such as 49.99 with at most 3 decimals",
        ),
        (
            json!({"amount": "5", "currency": "xyz"}),
            "attrs.currency: 'xyz' is not a currency payments take",
        ),
        (
            json!({"formula": "Seats * 10 + Rooms"}),
            "attrs.formula: the formula reads 'Rooms', which is no number field of the document",
        ),
        (
            json!({"amount": "5", "price": "price_1"}),
            "attrs.amount: payment field 'Pay' needs exactly one of amount, formula, price and link",
        ),
        (
            json!({"price": "prod_1"}),
            "attrs.price: must be a price id of the processor, such as price_1Mo…",
        ),
        (
            json!({"link": "http://buy.example/x"}),
            "attrs.link: must be the https:// address of a payment link of the workspace's processor",
        ),
    ] {
        let src = json!({"type": "doc", "content": [para(json!([
            field("Sig", "signature", "a"),
            field("Seats", "number", "a"),
            pay(attrs.clone()),
        ]))]});
        let doc = parse("source", &src);
        let m = match doc {
            Err(problems) => messages(&problems),
            Ok(doc) => messages(
                &check(
                    &doc,
                    &CheckInput {
                        root: "source",
                        people: Some(&[person("a", 0)]),
                        ..Default::default()
                    },
                )
                .problems,
            ),
        };
        assert!(m.iter().any(|e| e.ends_with(said)), "{attrs}: {m:?}");
    }
    let ok = json!({"type": "doc", "content": [para(json!([
        field("Sig", "signature", "a"),
        field("seats", "number", "a"),
        pay(json!({"formula": "SEATS * 10"})),
    ]))]});
    assert!(run(ok, &[person("a", 0)]).problems.is_empty());
}

#[test]
fn chips_duplicates_and_payments_are_checked() {
    let src = json!({"type": "doc", "content": [para(json!([
        {"type": "variableChip", "attrs": {"name": "custom.rent"}},
        {"type": "variableChip", "attrs": {"name": "weather.today"}},
        {"type": "variableChip", "attrs": {"name": "a.name"}},
        field("Sig", "signature", "a"),
        field("sig", "text", "a"),
        field("Pay", "payment", "a"),
    ]))]});
    let r = run(src.clone(), &[person("a", 0)]);
    let m = messages(&r.problems);
    assert!(m.iter().any(|e| e == "source.content[0].content[0].attrs.name: 'custom.rent' has no answer; give it in variableValues.rent"), "{m:?}");
    assert!(m.iter().any(|e| {
        e.starts_with("source.content[0].content[1].attrs.name: unknown chip 'weather.today'")
    }));
    assert!(m.iter().any(|e| {
        e.starts_with("source.content[0].content[4].attrs.name: field 'sig' is written again with another type")
    }));
    // The same field written twice is one field in two places; a payment is in one place.
    // Names are one field whatever their ASCII case; beyond ASCII, case makes another name
    // (as for the stored rows and the renderer).
    let again = json!({"type": "doc", "content": [
        para(json!([field("Initials", "initials", "a"), field("Äpfel", "text", "a")])),
        para(json!([field("initials", "initials", "a"), field("Pay", "payment", "a"), field("Pay", "payment", "a")])),
        para(json!([field("äpfel", "text", "a")])),
    ]});
    let twice = run(again, &[person("a", 0)]);
    let names: Vec<&str> = twice.fields.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(names, ["Initials", "Äpfel", "Pay", "äpfel"]);
    let said = messages(&twice.problems);
    assert!(
        said.iter()
            .any(|e| e.contains("payment field 'Pay' is written twice")),
        "{said:?}"
    );
    assert!(!said.iter().any(|e| e.contains("Initials")), "{said:?}");
    assert!(!said.iter().any(|e| e.contains("pfel")), "{said:?}");
    assert!(m.iter().any(
        |e| e == "source.content[0].content[5].attrs.amount: payment field 'Pay' needs exactly one of amount, formula, price and link"
    ));
    assert_eq!(m.len(), 4, "{m:?}");
    // As a template, the unanswered custom chip is a question.
    let doc = parse("source", &src).unwrap();
    let t = check(
        &doc,
        &CheckInput {
            for_template: true,
            root: "source",
            ..Default::default()
        },
    );
    assert_eq!(t.questions, ["rent"]);
    assert!(
        !messages(&t.problems)
            .iter()
            .any(|e| e.contains("custom.rent"))
    );
}

#[test]
fn sender_only_sections_end_at_a_heading_of_the_same_or_higher_level() {
    let h = |level: u8, sender: bool, t: &str| {
        let mut attrs = json!({"level": level});
        if sender {
            attrs["audience"] = json!("sender");
        }
        json!({"type": "heading", "attrs": attrs, "content": [{"type": "text", "text": t}]})
    };
    let src = json!({"type": "doc", "content": [
        h(1, false, "Contract"),
        h(2, true, "Internal notes"),
        para(json!([{"type": "text", "text": "our margin is 40%"}, field("Secret", "text", "a")])),
        h(3, false, "Still internal"),
        para(json!([{"type": "text", "text": "hidden too"}])),
        h(2, false, "Payment terms"),
        para(json!([field("Sig", "signature", "a")]))
    ]});
    let doc = parse("source", &src).unwrap();
    let view = walk::signer_view(&doc);
    let text = format!("{view:?}");
    assert!(!text.contains("margin") && !text.contains("hidden too") && !text.contains("Secret"));
    assert!(text.contains("Payment terms") && text.contains("Contract"));
    let r = run(src, &[person("a", 0)]);
    assert!(r.ok(), "{:?}", r.problems);
    assert_eq!(r.fields.len(), 1);
    assert!(r.warnings[0].message.contains("sender-only section"));
}

#[test]
fn empty_list_items_and_table_cells_count_toward_the_node_limit() {
    let cells: Vec<Value> = (0..50_001).map(|_| json!({"type": "tableCell"})).collect();
    let rows = json!([{"type": "tableRow", "content": cells.clone()}, {"type": "tableRow", "content": cells}]);
    let src = json!({"type": "doc", "content": [{"type": "table", "content": rows}]});
    let errs = parse("source", &src).unwrap_err();
    assert!(
        errs[0].message.contains("more than 100000 nodes"),
        "{:?}",
        errs[0]
    );
}
