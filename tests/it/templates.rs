//! Templates from words, on both backend sets: made, read and listed; their defaults; sent
//! to one party per seat (`POST /documents/send`) or made into a document with answers to
//! their questions (`POST /templates/{id}/documents`); a test key's send signed and sealed
//! like any document; a draft-only key's template waits unlisted.

use serde_json::{Value, json};
use signet_core::Mode;
use signet_core::plans::Plan;

use crate::both_quiet;
use crate::harness::TestApp;

fn lease(question: bool) -> Value {
    let mut content = vec![
        json!({"type": "heading", "attrs": {"level": 1}, "content": [{"type": "text", "text": "Lease of the studio"}]}),
        json!({"type": "paragraph", "content": [
            {"type": "text", "text": "Start date: "},
            {"type": "fieldTag", "attrs": {"name": "Start date", "type": "date", "role": "client"}}
        ]}),
    ];
    if question {
        content.push(json!({"type": "paragraph", "content": [
            {"type": "text", "text": "The rent is "},
            {"type": "variableChip", "attrs": {"name": "custom.rent"}},
            {"type": "text", "text": " a month."}
        ]}));
    }
    content.push(json!({"type": "signatureBlock", "attrs": {"role": "client"}}));
    content.push(json!({"type": "signatureBlock", "attrs": {"role": "landlord"}}));
    json!({"type": "doc", "content": content})
}

async fn post(app: &TestApp, key: &str, path: &str, body: Value) -> (u16, Value) {
    let r = app
        .post(
            path,
            key,
            &[(
                "Idempotency-Key",
                &signet_core::ids::new_id("idem").to_string(),
            )],
            &body.to_string(),
        )
        .await;
    (r.status.as_u16(), r.body)
}

/// A test document signed by each seat in turn, sealed: its signed PDF.
async fn signed_by_all(app: &TestApp, key: &str, id: &str, seats: &[&str]) -> Vec<u8> {
    app.run_pending_jobs().await;
    crate::harness::test_sign(app, key, id, seats).await;
    app.run_pending_jobs().await;
    let done = app.get(&format!("/api/v1/documents/{id}"), Some(key)).await;
    assert_eq!(done.body["state"], "executed", "{}", done.body);
    crate::harness::signed_pdf(app, key, id).await
}

/// A test key of a new Pro workspace that makes templates and sends from them.
async fn template_key(app: &TestApp) -> String {
    let ws = app.workspace(Plan::Pro).await;
    let scopes = [
        "documents:read",
        "documents:write",
        "templates:read",
        "templates:write",
    ];
    app.key(&ws, Mode::Test, &scopes).await
}

/// POST /templates/file with `bytes` in base64.
pub(crate) async fn post_file(
    app: &TestApp,
    key: &str,
    name: &str,
    file_name: &str,
    bytes: &[u8],
) -> (u16, Value) {
    use base64::Engine;
    let file = base64::engine::general_purpose::STANDARD.encode(bytes);
    post(
        app,
        key,
        "/api/v1/templates/file",
        json!({"name": name, "fileName": file_name, "file": file}),
    )
    .await
}

fn parties(seats: &[&str]) -> Value {
    Value::Array(
        seats
            .iter()
            .map(|s| json!({"seat": s, "name": format!("The {s}"), "email": format!("{s}@example.com")}))
            .collect(),
    )
}

both_quiet!(a_template_from_words_is_sent_to_its_parties, |app| {
    let ws = app.workspace(Plan::Pro).await;
    let scopes = [
        "documents:read",
        "documents:write",
        "templates:read",
        "templates:write",
    ];
    let key = app.key(&ws, Mode::Live, &scopes).await;

    // Made from words: seats are the roles, questions the unanswered custom chips.
    let bare = app
        .post(
            "/api/v1/templates/source",
            &key,
            &[],
            &json!({"name": "Lease", "source": lease(false)}).to_string(),
        )
        .await;
    assert_eq!(bare.status, 400, "an Idempotency-Key is required");
    let (status, e) = post(
        &app,
        &key,
        "/api/v1/templates/source",
        json!({"name": "No seats", "source": {"type": "doc", "content": [
            {"type": "paragraph", "content": [{"type": "text", "text": "Nobody signs."}]}]}}),
    )
    .await;
    assert_eq!(status, 400, "{e}");
    assert!(
        e["error"]["message"].as_str().unwrap().contains("seat"),
        "{e}"
    );
    let (status, plain) = post(
        &app,
        &key,
        "/api/v1/templates/source",
        json!({"name": "Studio lease", "source": lease(false), "paper": "a4", "metadata": {"team": "lettings"}}),
    )
    .await;
    assert_eq!(status, 201, "{plain}");
    assert_eq!(plain["seats"], json!(["client", "landlord"]));
    assert_eq!(plain["questions"], json!([]));
    assert_eq!(plain["version"], 1);
    assert_eq!(plain["approved"], true);
    assert_eq!(plain["paper"], "a4");
    let names: Vec<&str> = plain["fields"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["name"].as_str().unwrap())
        .collect();
    assert!(names.contains(&"Start date"), "{names:?}");
    let tpl = plain["id"].as_str().unwrap().to_string();
    let (status, asked) = post(
        &app,
        &key,
        "/api/v1/templates/source",
        json!({"name": "Lease with rent", "source": lease(true)}),
    )
    .await;
    assert_eq!(status, 201, "{asked}");
    assert_eq!(asked["questions"], json!(["rent"]));
    let asking = asked["id"].as_str().unwrap().to_string();

    // Read and listed; another workspace sees nothing.
    let got = app
        .get(&format!("/api/v1/templates/{tpl}"), Some(&key))
        .await;
    assert_eq!(got.status, 200);
    assert_eq!(got.body["name"], "Studio lease");
    assert_eq!(
        app.get("/api/v1/templates/tpl_nothing", Some(&key))
            .await
            .status,
        404
    );
    let other = app.workspace(Plan::Pro).await;
    let stranger = app.key(&other, Mode::Live, &scopes).await;
    assert_eq!(
        app.get(&format!("/api/v1/templates/{tpl}"), Some(&stranger))
            .await
            .status,
        404
    );
    let list = app.get("/api/v1/documents/templates", Some(&key)).await;
    assert_eq!(list.status, 200, "{}", list.body);
    let ids: Vec<&str> = list.body["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, [asking.as_str(), tpl.as_str()], "newest first");
    let page = app
        .get("/api/v1/documents/templates?limit=1", Some(&key))
        .await;
    assert_eq!(page.body["data"].as_array().unwrap().len(), 1);
    let next = page.body["page"]["nextCursor"].as_str().unwrap();
    let rest = app
        .get(
            &format!("/api/v1/documents/templates?limit=1&cursor={next}"),
            Some(&key),
        )
        .await;
    assert_eq!(rest.body["data"][0]["id"], tpl.as_str());

    // Defaults: every later document starts with them.
    let (status, d) = post(
        &app,
        &key,
        &format!("/api/v1/templates/{tpl}/defaults"),
        json!({"description": "Standard studio lease", "message": "Please sign by Friday.",
               "send": {"expiryDays": 10, "signingOrder": true}}),
    )
    .await;
    assert_eq!(status, 200, "{d}");
    assert_eq!(d["defaults"]["message"], "Please sign by Friday.");

    // Sent to one party per seat: a missing, extra or repeated seat names itself.
    for (bad, field) in [
        (parties(&["client"]), "landlord"),
        (parties(&["client", "landlord", "guarantor"]), "guarantor"),
        (parties(&["client", "client", "landlord"]), "twice"),
    ] {
        let (status, e) = post(
            &app,
            &key,
            "/api/v1/documents/send",
            json!({"templateId": tpl, "parties": bad}),
        )
        .await;
        assert_eq!(status, 400, "{e}");
        assert!(
            e["error"]["message"].as_str().unwrap().contains(field),
            "{e}"
        );
    }
    // A party's rules are checked under the name the caller gave it, first fault first in the
    // order the fields are declared, whatever the order they were sent in.
    let mut two_faults = parties(&["client", "landlord"]);
    two_faults[1]["accessCode"] = json!("abc");
    two_faults[1]["email"] = json!("not an address");
    let (status, e) = post(
        &app,
        &key,
        "/api/v1/documents/send",
        json!({"templateId": tpl, "parties": two_faults, "expiryDays": 0}),
    )
    .await;
    assert_eq!(status, 400, "{e}");
    assert_eq!(
        e["error"]["message"], "parties[1].email: 'not an address' is not an email address",
        "{e}"
    );
    let (status, e) = post(
        &app,
        &key,
        "/api/v1/documents/send",
        json!({"templateId": asking, "parties": parties(&["client", "landlord"])}),
    )
    .await;
    assert_eq!(status, 400, "{e}");
    assert!(
        e["error"]["message"]
            .as_str()
            .unwrap()
            .contains(&format!("/templates/{asking}/documents")),
        "{e}"
    );
    let (status, e) = post(
        &app,
        &key,
        "/api/v1/documents/send",
        json!({"templateId": "tpl_nothing", "parties": parties(&["client"])}),
    )
    .await;
    assert_eq!(status, 400, "{e}");
    let (status, sent) = post(
        &app,
        &key,
        "/api/v1/documents/send",
        json!({"templateId": tpl, "parties": parties(&["landlord", "client"]),
               "title": "Lease of flat 3", "metadata": {"unit": "3"}, "embedded": ["landlord"]}),
    )
    .await;
    assert_eq!(status, 201, "{sent}");
    assert_eq!(sent["state"], "sent");
    assert_eq!(sent["title"], "Lease of flat 3");
    assert_eq!(sent["templateId"], tpl.as_str());
    assert_eq!(sent["templateVersion"], 1);
    assert_eq!(sent["description"], "Standard studio lease");
    assert_eq!(sent["paper"], "a4");
    let people = sent["people"].as_array().unwrap();
    let seat = |s: &str| people.iter().find(|p| p["seat"] == s).unwrap().clone();
    // Signing order (from the defaults) follows the template's seats, not the parties' order.
    assert_eq!(seat("client")["status"], "invited");
    assert_eq!(seat("landlord")["status"], "waiting");
    assert_eq!(seat("landlord")["embedded"], true);
    let days = (chrono::DateTime::parse_from_rfc3339(sent["expiresAt"].as_str().unwrap())
        .unwrap()
        .timestamp_millis()
        - signet_storage::now_ms())
        / 86_400_000;
    assert!(
        (9..=10).contains(&days),
        "expiryDays from the defaults: {days}"
    );

    // A written template's questions are answered on its own route; unanswered, it cannot go.
    let people_in = json!([
        {"name": "Ada Tenant", "email": "ada@example.com", "role": "client"},
        {"name": "Bob Landlord", "email": "bob@example.com", "role": "landlord"}
    ]);
    let (status, e) = post(
        &app,
        &key,
        &format!("/api/v1/templates/{asking}/documents"),
        json!({"people": people_in, "sendNow": true}),
    )
    .await;
    assert_eq!(status, 400, "{e}");
    assert!(
        e["error"]["message"].as_str().unwrap().contains("rent"),
        "{e}"
    );
    let (status, draft) = post(
        &app,
        &key,
        &format!("/api/v1/templates/{asking}/documents"),
        json!({"people": people_in, "variableValues": {"rent": "900 EUR"}}),
    )
    .await;
    assert_eq!(status, 201, "{draft}");
    assert_eq!(draft["state"], "draft");
    assert_eq!(draft["templateId"], asking.as_str());
    let source = app
        .get(
            &format!("/api/v1/documents/{}/source", draft["id"].as_str().unwrap()),
            Some(&key),
        )
        .await;
    assert!(
        source.body.to_string().contains("900 EUR"),
        "{}",
        source.body
    );

    // Templates serve test keys too; a test send is signed and sealed like any document.
    let test = app.key(&ws, Mode::Test, &scopes).await;
    let (status, t) = post(
        &app,
        &test,
        "/api/v1/documents/send",
        json!({"templateId": tpl, "parties": parties(&["client", "landlord"])}),
    )
    .await;
    assert_eq!(status, 201, "{t}");
    assert_eq!(t["test"], true);
    let pdf = signed_by_all(
        &app,
        &test,
        t["id"].as_str().unwrap(),
        &["client", "landlord"],
    )
    .await;
    assert!(pdf.starts_with(b"%PDF"));

    // A draft-only key's template waits, unlisted and unsendable, for a person.
    let drafts = app
        .key_with({
            let mut k = signet_accounts::keys::KeyCreateIn::new(
                &ws,
                Mode::Live,
                signet_core::actor::Scopes::parse(scopes.iter().copied()).unwrap(),
            );
            k.draft_only = true;
            k
        })
        .await;
    let (status, waiting) = post(
        &app,
        &drafts,
        "/api/v1/templates/source",
        json!({"name": "Waiting lease", "source": lease(false)}),
    )
    .await;
    assert_eq!(status, 201, "{waiting}");
    assert_eq!(waiting["approved"], false);
    let list = app.get("/api/v1/documents/templates", Some(&key)).await;
    assert!(
        !list
            .body
            .to_string()
            .contains(waiting["id"].as_str().unwrap())
    );
    let (status, _) = post(
        &app,
        &key,
        "/api/v1/documents/send",
        json!({"templateId": waiting["id"], "parties": parties(&["client", "landlord"])}),
    )
    .await;
    assert_eq!(status, 409);
    // A person approves it with the approvals of draft-only keys' sends; then it is listed.
    let (code, out, err) = app.cli(&["admin", "approvals", "list", "--workspace", &ws, "--json"]);
    assert_eq!(code, 0, "{err}");
    let list: Value = serde_json::from_str(&out).unwrap();
    let approval = list["data"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["templateId"] == waiting["id"])
        .unwrap_or_else(|| panic!("{list}"))
        .clone();
    assert!(approval["documentId"].is_null());
    let (code, out, err) = app.cli(&[
        "admin",
        "approvals",
        "approve",
        approval["id"].as_str().unwrap(),
        "--by",
        "Olga Ops",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("listed for sending"), "{out}");
    let list = app.get("/api/v1/documents/templates", Some(&key)).await;
    assert!(
        list.body
            .to_string()
            .contains(waiting["id"].as_str().unwrap())
    );

    // GraphQL reads and sends through the same resolvers.
    let q = json!({"query": "mutation($i: TemplateSendInput!) { sendTemplate(input: $i) { state templateId } }",
        "variables": {"i": {"templateId": tpl, "parties": parties(&["client", "landlord"])}}});
    let g = app.post("/graphql", &key, &[], &q.to_string()).await;
    assert_eq!(
        g.body["data"]["sendTemplate"]["state"], "sent",
        "{}",
        g.body
    );
    let q = json!({"query": "{ templates(limit: 5) { data { id seats questions } } }"});
    let g = app.post("/graphql", &key, &[], &q.to_string()).await;
    assert_eq!(
        g.body["data"]["templates"]["data"][2]["seats"],
        json!(["client", "landlord"]),
        "{}",
        g.body
    );
});

/// Checks a test document's sealed PDF with pyHanko against the test root, and answers its
/// text (pdftotext); kept in `KEEP_PICTURES` as `<name>.pdf` when asked.
pub(crate) fn sealed_and_valid(app: &TestApp, pdf: &[u8], name: &str) -> Option<String> {
    use crate::sealing::{run, tool, validate};
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("signed.pdf");
    std::fs::write(&path, pdf).unwrap();
    if let Ok(keep) = std::env::var("KEEP_PICTURES") {
        std::fs::write(format!("{keep}/{name}.pdf"), pdf).unwrap();
    }
    if let Some(pyhanko) = tool("pyhanko") {
        // A test document's seal chains to the test root.
        let (code, root, err) = app.cli(&["admin", "ca", "export", "--test"]);
        assert_eq!(code, 0, "{err}");
        let root_file = dir.path().join("root.pem");
        std::fs::write(&root_file, root).unwrap();
        let out = validate(&pyhanko, &root_file, &path);
        assert!(out.contains("The signature is judged VALID."), "{out}");
    }
    tool("pdftotext").map(|p| run(std::process::Command::new(&p).arg(&path).arg("-")))
}

/// A PNG of one colour, as a `data:` address.
fn png(w: u32, h: u32) -> String {
    use base64::Engine;
    let mut out = Vec::new();
    {
        let mut e = png::Encoder::new(&mut out, w, h);
        e.set_color(png::ColorType::Rgb);
        let mut wr = e.write_header().unwrap();
        wr.write_image_data(&[30, 60, 200].repeat((w * h) as usize))
            .unwrap();
    }
    format!(
        "data:image/png;base64,{}",
        base64::engine::general_purpose::STANDARD.encode(out)
    )
}

both_quiet!(a_template_from_html_is_cleaned_laid_out_and_sent, |app| {
    let ws = app.workspace(Plan::Pro).await;
    let scopes = [
        "documents:read",
        "documents:write",
        "templates:read",
        "templates:write",
    ];
    let key = app.key(&ws, Mode::Test, &scopes).await;
    // A listener the page points at: nothing may ever connect to it.
    let trap = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let at = format!("http://{}", trap.local_addr().unwrap());
    let html = format!(
        r#"<!doctype html><html><head><link rel=stylesheet href="{at}/a.css">
        <style>@import url({at}/b.css); body {{ background: url({at}/c.png) }}</style>
        <script src="{at}/d.js"></script></head><body>
        <img src="{png}" alt="Logo" width="120">
        <h1>Studio lease</h1>
        <p style="background-image: url({at}/e.png)">The tenant rents the studio. <script>fetch("{at}/f")</script>Kept words.</p>
        <iframe src="{at}/g"></iframe><img src="{at}/h.png"><video src="{at}/i.mp4"></video>
        <form action="{at}/post"><input name=x value=hidden-value></form>
        <table><tr><th colspan=2>Rent</th></tr><tr><td>Monthly</td><td>900 EUR</td></tr></table>
        <p>Tenant: <b>{{{{Tenant signature;type=signature;</b>role=client}}}}</p>
        <p>Date: {{{{Tenant date;type=date;role=client;width=90;height=18}}}}</p>
        <p>Landlord: {{{{Landlord signature;type=signature;role=landlord}}}}</p>
        </body></html>"#,
        png = png(160, 40)
    );
    let (status, t) = post(
        &app,
        &key,
        "/api/v1/templates/html",
        json!({"name": "Studio lease", "html": html, "paper": "a4", "metadata": {"kind": "lease"}}),
    )
    .await;
    assert_eq!(status, 201, "{t}");
    assert_eq!(t["kind"], "html");
    assert_eq!(t["profile"], "plain");
    assert_eq!(t["pages"], 1);
    assert_eq!(t["seats"], json!(["client", "landlord"]));
    let warnings = t["warnings"].to_string();
    for w in [
        "scripts removed",
        "style sheets removed",
        "style attributes removed",
        "frames and embedded objects removed",
        "pictures that are not data: addresses removed",
        "videos, sounds and canvases removed",
        "form controls removed",
    ] {
        assert!(warnings.contains(w), "{w}: {warnings}");
    }
    // Each field has its page and rectangle on the A4 page (595 × 842 points), in reading
    // order down the page, sized as its tag asked.
    let fields = t["fields"].as_array().unwrap();
    assert_eq!(fields.len(), 3, "{t}");
    let area = |i: usize| fields[i]["areas"][0].clone();
    for i in 0..3 {
        let a = area(i);
        assert_eq!(a["page"], 1);
        let (x, y) = (a["x"].as_f64().unwrap(), a["y"].as_f64().unwrap());
        assert!(x > 50.0 && x + a["width"].as_f64().unwrap() < 545.0, "{a}");
        assert!(y > 100.0 && y < 780.0, "{a}");
    }
    assert_eq!(fields[1]["name"], "Tenant date");
    assert_eq!(
        (area(1)["width"].as_f64(), area(1)["height"].as_f64()),
        (Some(90.0), Some(18.0))
    );
    assert!(area(0)["y"].as_f64() < area(1)["y"].as_f64());
    assert!(area(1)["y"].as_f64() < area(2)["y"].as_f64());
    let again = app
        .get(
            &format!("/api/v1/templates/{}", t["id"].as_str().unwrap()),
            Some(&key),
        )
        .await;
    assert_eq!(again.body, t);

    // A tag that cannot be read is named, with where it is.
    let (status, e) = post(
        &app,
        &key,
        "/api/v1/templates/html",
        json!({"name": "Bad", "html": "<p>Intro</p><p>Sign: {{Sig;type=signatur;role=client}}</p>"}),
    )
    .await;
    assert_eq!(status, 400, "{e}");
    let m = e["error"]["message"].as_str().unwrap();
    assert!(
        m.contains("{{Sig;type=signatur;role=client}}") && m.contains("paragraph 2"),
        "{m}"
    );
    // A page with no tag has no seat.
    let (status, e) = post(
        &app,
        &key,
        "/api/v1/templates/html",
        json!({"name": "No tags", "html": "<p>Only words</p>"}),
    )
    .await;
    assert_eq!(status, 400, "{e}");
    assert!(
        e["error"]["message"].as_str().unwrap().contains("text tag"),
        "{e}"
    );
    // Past 2 MB the page is refused by name; the body itself is within the route's limit.
    let big = format!(
        "<p>{}</p>",
        "a".repeat(signet_documents::templates::MAX_HTML)
    );
    let (status, e) = post(
        &app,
        &key,
        "/api/v1/templates/html",
        json!({"name": "Big", "html": big}),
    )
    .await;
    assert_eq!(status, 400, "{e}");
    assert!(
        e["error"]["message"]
            .as_str()
            .unwrap()
            .contains("at most 2097152"),
        "{e}"
    );

    // Sent to its parties, signed and sealed; nothing of a tag or of what was removed is left.
    let (status, d) = post(
        &app,
        &key,
        "/api/v1/documents/send",
        json!({"templateId": t["id"], "parties": parties(&["client", "landlord"])}),
    )
    .await;
    assert_eq!(status, 201, "{d}");
    assert_eq!(d["templateId"], t["id"]);
    let pdf = signed_by_all(
        &app,
        &key,
        d["id"].as_str().unwrap(),
        &["client", "landlord"],
    )
    .await;
    let text = sealed_and_valid(&app, &pdf, "html-template");
    if let Some(text) = text {
        assert!(
            text.contains("Kept words") && text.contains("900 EUR"),
            "{text}"
        );
        for gone in ["{{", "}}", "type=", "hidden-value", "fetch("] {
            assert!(!text.contains(gone), "{gone} in {text}");
        }
    }

    // GraphQL makes one through the same resolver.
    let q = json!({"query": "mutation($i: TemplateHtmlInput!) { createTemplateFromHtml(input: $i) { kind seats pages } }",
        "variables": {"i": {"name": "From GraphQL", "html": "<p>{{Sign;type=signature;role=buyer}}</p>"}}});
    let g = app.post("/graphql", &key, &[], &q.to_string()).await;
    assert_eq!(
        g.body["data"]["createTemplateFromHtml"]["seats"],
        json!(["buyer"]),
        "{}",
        g.body
    );

    // And nothing ever knocked on the page's addresses.
    let knock = tokio::time::timeout(std::time::Duration::from_millis(200), trap.accept()).await;
    assert!(
        knock.is_err(),
        "the service fetched something the page named"
    );
});

/// A PDF with text tags, made by Typst from words.
pub(crate) fn tagged_pdf() -> Vec<u8> {
    typst_file(&[
        "The tenant rents the studio for one year.",
        "Tenant: {{Tenant signature;type=signature;role=tenant;height=30}} Kept after.",
        "Landlord: {{Landlord signature;type=signature;role=landlord;height=30}}",
    ])
}

/// An A4 PDF of `paragraphs`, made by Typst as a lease a sender uploads.
fn typst_file(paragraphs: &[&str]) -> Vec<u8> {
    let content: Vec<Value> = paragraphs
        .iter()
        .map(|t| json!({"type": "paragraph", "content": [{"type": "text", "text": t}]}))
        .collect();
    let doc = signet_source::parse("source", &json!({"type": "doc", "content": content})).unwrap();
    signet_pdf::Renderer::new()
        .render(&signet_pdf::RenderInput {
            doc: &doc,
            title: "Studio lease",
            footer: "an uploaded file",
            paper: signet_pdf::Paper::A4,
            profile: signet_pdf::Profile::Contract,
            test: false,
            lang: "en",
            values: &std::collections::BTreeMap::new(),
            seat_names: &std::collections::BTreeMap::new(),
            labels: signet_pdf::Labels::EN,
        })
        .unwrap()
        .pdf
}

both_quiet!(a_template_from_a_pdf_keeps_its_pages_and_is_sent, |app| {
    use base64::Engine;
    let b64 = |b: &[u8]| base64::engine::general_purpose::STANDARD.encode(b);
    let key = template_key(&app).await;
    let (status, t) = post_file(&app, &key, "Studio lease", "lease.pdf", &tagged_pdf()).await;
    assert_eq!(status, 201, "{t}");
    assert_eq!(
        (t["kind"].as_str(), t["pages"].as_i64(), t["paper"].as_str()),
        (Some("pdf"), Some(1), Some("a4"))
    );
    assert_eq!(t["seats"], json!(["tenant", "landlord"]));
    let area = &t["fields"][0]["areas"][0];
    assert_eq!(area["page"], 1);
    assert_eq!(area["height"], 30.0);
    assert!(
        area["x"].as_f64().unwrap() > 60.0 && area["y"].as_f64().unwrap() > 60.0,
        "{area}"
    );

    // Files of other kinds are named, and what they need is said; the name is not believed.
    let docx = b"PK\x03\x04\x14\x00\x00\x00\x08\x00word/document.xml....".to_vec();
    let (status, e) = post_file(&app, &key, "W", "a.pdf", &docx).await;
    assert_eq!(status, 400, "{e}");
    assert!(
        e["error"]["message"]
            .as_str()
            .unwrap()
            .contains("not a readable office file"),
        "{e}"
    );
    let (status, e) = post_file(&app, &key, "P", "a.pdf", b"\x89PNG\r\n\x1a\nxxxx").await;
    assert_eq!(status, 400, "{e}");
    assert!(
        e["error"]["message"]
            .as_str()
            .unwrap()
            .contains("could not be read as a picture"),
        "{e}"
    );
    let (status, e) = post(
        &app,
        &key,
        "/api/v1/templates/file",
        json!({"name": "X", "fileName": "a.pdf", "file": "not base64!"}),
    )
    .await;
    assert_eq!(status, 400, "{e}");

    // Nobody names a file for a document's pages but its template.
    let (status, e) = post(
        &app,
        &key,
        "/api/v1/documents",
        json!({"title": "Forged", "people": [{"name": "A", "email": "a@example.com", "role": "tenant"}],
               "source": {"type": "doc", "content": [], "file": {"blob": format!("templates/{}/v1.pdf", t["id"].as_str().unwrap()),
               "pages": [[595.28, 841.89]], "fields": [{"name": "S", "type": "signature", "role": "tenant", "page": 1, "x": 10, "y": 10, "width": 50, "height": 20}]}}}),
    )
    .await;
    assert_eq!(status, 400, "{e}");
    assert!(
        e["error"]["message"]
            .as_str()
            .unwrap()
            .contains("through its template"),
        "{e}"
    );

    // Sent, signed and sealed: the file's words are there, its tags are not.
    let (status, d) = post(
        &app,
        &key,
        "/api/v1/documents/send",
        json!({"templateId": t["id"], "parties": parties(&["tenant", "landlord"])}),
    )
    .await;
    assert_eq!(status, 201, "{d}");
    let pdf = signed_by_all(
        &app,
        &key,
        d["id"].as_str().unwrap(),
        &["tenant", "landlord"],
    )
    .await;
    // GraphQL makes one through the same resolver.
    let q = json!({"query": "mutation($i: TemplateFileInput!) { createTemplateFromFile(input: $i) { kind seats pages } }",
        "variables": {"i": {"name": "From GraphQL", "fileName": "lease.pdf", "file": b64(&tagged_pdf())}}});
    let g = app.post("/graphql", &key, &[], &q.to_string()).await;
    assert_eq!(
        g.body["data"]["createTemplateFromFile"],
        json!({"kind": "pdf", "seats": ["tenant", "landlord"], "pages": 1}),
        "{}",
        g.body
    );
    if let Some(text) = sealed_and_valid(&app, &pdf, "pdf-template") {
        assert!(
            text.contains("The tenant rents the studio") && text.contains("Kept after."),
            "{text}"
        );
        assert!(!text.contains("{{") && !text.contains("type="), "{text}");
    }
});

/// A Word file written by python-docx (a Word-compatible writer), or `None` outside CI
/// without it.
pub(crate) fn word_file() -> Option<Vec<u8>> {
    let dir = tempfile::tempdir().unwrap();
    let script = r#"
import docx
d = docx.Document()
d.add_heading('Consulting agreement', 1)
d.add_paragraph('The consultant advises the client on their accounts for one year.')
p = d.add_paragraph('Client: ')
p.add_run('{{Client signature;').bold = True
p.add_run('type=signature;role=client;height=30}}')
p.add_run(' for the client.')
d.add_paragraph('Consultant: {{Consultant signature;type=signature;role=consultant;height=30}}')
d.add_paragraph('See https://example.com/terms for the terms.')
d.save('a.docx')
"#;
    let out = std::process::Command::new("python3")
        .arg("-c")
        .arg(script)
        .current_dir(dir.path())
        .output();
    let missing = match out {
        Ok(o) if o.status.success() => {
            return Some(std::fs::read(dir.path().join("a.docx")).unwrap());
        }
        Ok(o) => format!("python-docx: {}", String::from_utf8_lossy(&o.stderr)),
        Err(e) => format!("python3: {e}"),
    };
    signet_testkit::part("office", Some(missing));
    None
}

both_quiet!(
    a_template_from_a_word_file_is_converted_by_libreoffice_and_sent,
    |app| {
        let Some(docx) = word_file() else { return };
        if !signet_testkit::part("office", signet_convert::office::Office::find().err()) {
            return;
        }
        let key = template_key(&app).await;
        let (status, t) = post_file(&app, &key, "Consulting", "agreement.pdf", &docx).await;
        assert_eq!(status, 201, "{t}");
        assert_eq!(
            (t["kind"].as_str(), t["pages"].as_i64()),
            (Some("office"), Some(1)),
            "{t}"
        );
        assert_eq!(t["seats"], json!(["client", "consultant"]));
        let (client, consultant) = (&t["fields"][0]["areas"][0], &t["fields"][1]["areas"][0]);
        assert_eq!(
            (client["page"].as_i64(), client["height"].as_f64()),
            (Some(1), Some(30.0))
        );
        assert!(
            consultant["y"].as_f64().unwrap() > client["y"].as_f64().unwrap() + 10.0,
            "{client} {consultant}"
        );

        // A zip bomb dressed as a Word file is refused, and says why.
        let mut bomb = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
        let opts = zip::write::SimpleFileOptions::default();
        for (name, data) in [
            ("[Content_Types].xml", b"<Types/>".to_vec()),
            ("word/document.xml", vec![b' '; 30 << 20]),
        ] {
            bomb.start_file(name, opts).unwrap();
            std::io::Write::write_all(&mut bomb, &data).unwrap();
        }
        let bomb = bomb.finish().unwrap().into_inner();
        let (status, e) = post_file(&app, &key, "Bomb", "a.docx", &bomb).await;
        assert_eq!(status, 400, "{e}");
        assert!(
            e["error"]["message"].as_str().unwrap().contains("zip bomb"),
            "{e}"
        );

        // Sent, signed and sealed: the Word file's words are there, its tags are not.
        let (status, d) = post(
            &app,
            &key,
            "/api/v1/documents/send",
            json!({"templateId": t["id"], "parties": parties(&["client", "consultant"])}),
        )
        .await;
        assert_eq!(status, 201, "{d}");
        let pdf = signed_by_all(
            &app,
            &key,
            d["id"].as_str().unwrap(),
            &["client", "consultant"],
        )
        .await;
        if let Some(text) = sealed_and_valid(&app, &pdf, "office-template") {
            assert!(
                text.contains("The consultant advises the client")
                    && text.contains("for the client."),
                "{text}"
            );
            assert!(!text.contains("{{") && !text.contains("type="), "{text}");
        }
    }
);

/// The tagged PDF's page as a scanner gives it: 150 dpi, PNG; `None` outside CI without
/// poppler.
pub(crate) fn scanned_page() -> Option<Vec<u8>> {
    let dir = tempfile::tempdir().unwrap();
    let pdf = dir.path().join("p.pdf");
    std::fs::write(&pdf, tagged_pdf()).unwrap();
    let out = dir.path().join("page");
    let made = std::process::Command::new("pdftoppm")
        .args(["-r", "150", "-png", "-singlefile"])
        .arg(&pdf)
        .arg(&out)
        .status();
    match made {
        Ok(s) if s.success() => Some(std::fs::read(out.with_extension("png")).unwrap()),
        _ => {
            signet_testkit::part("poppler", Some("pdftoppm is needed".into()));
            None
        }
    }
}

both_quiet!(
    a_template_from_a_scanned_page_is_read_by_tesseract_and_sent,
    |app| {
        let Some(png) = scanned_page() else { return };
        if !signet_testkit::part("ocr", signet_convert::picture::Ocr::find().err()) {
            return;
        }
        let key = template_key(&app).await;
        let (status, t) = post_file(&app, &key, "Scanned lease", "scan.png", &png).await;
        assert_eq!(status, 201, "{t}");
        assert_eq!(
            (t["kind"].as_str(), t["pages"].as_i64(), t["paper"].as_str()),
            (Some("picture"), Some(1), Some("a4")),
            "{t}"
        );
        assert_eq!(t["seats"], json!(["tenant", "landlord"]));
        // Where Typst drew the tags, to the scan's precision.
        let drawn = signet_convert::pdf::prepare(&tagged_pdf(), 10)
            .unwrap()
            .tags;
        for (f, d) in t["fields"].as_array().unwrap().iter().zip(&drawn) {
            let a = &f["areas"][0];
            assert!(
                (a["x"].as_f64().unwrap() - d.x).abs() < 2.0
                    && (a["y"].as_f64().unwrap() - d.y).abs() < 3.0,
                "{a} vs {d:?}"
            );
            assert_eq!(a["height"], 30.0);
        }
        let (status, d) = post(
            &app,
            &key,
            "/api/v1/documents/send",
            json!({"templateId": t["id"], "parties": parties(&["tenant", "landlord"])}),
        )
        .await;
        assert_eq!(status, 201, "{d}");
        let pdf = signed_by_all(
            &app,
            &key,
            d["id"].as_str().unwrap(),
            &["tenant", "landlord"],
        )
        .await;
        // The sealed file holds the page's picture; its seal is valid.
        sealed_and_valid(&app, &pdf, "picture-template");
    }
);

/// A PDF whose tags write one field in two places (a company name twice, initials on one
/// page and a signature), made by Typst.
fn repeated_tags_pdf(conflict: bool) -> Vec<u8> {
    let second = if conflict {
        "Again: {{Company;type=text;role=tenant}} and that is all."
    } else {
        "Again: {{Company;type=company;role=tenant}} and {{Init;type=initials;role=tenant}}."
    };
    typst_file(&[
        "The tenant named below rents the studio.",
        "Company: {{Company;type=company;role=tenant}} Init: {{Init;type=initials;role=tenant}}",
        second,
        "Tenant: {{Tenant signature;type=signature;role=tenant;height=30}}",
    ])
}

both_quiet!(
    one_field_written_in_several_places_is_filled_once_and_shown_in_each,
    |app| {
        let key = template_key(&app).await;
        let (status, t) =
            post_file(&app, &key, "Lease", "lease.pdf", &repeated_tags_pdf(false)).await;
        assert_eq!(status, 201, "{t}");
        let names: Vec<&str> = t["fields"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f["name"].as_str().unwrap())
            .collect();
        assert_eq!(names, ["Company", "Init", "Tenant signature"]);
        assert_eq!(t["fields"][0]["areas"].as_array().unwrap().len(), 2, "{t}");
        assert_eq!(t["fields"][1]["areas"].as_array().unwrap().len(), 2, "{t}");
        let (a, b) = (&t["fields"][0]["areas"][0], &t["fields"][0]["areas"][1]);
        assert!(
            b["y"].as_f64().unwrap() > a["y"].as_f64().unwrap() + 5.0,
            "{a} {b}"
        );

        // The same label and seat with another type is refused, naming the tag.
        let (status, e) =
            post_file(&app, &key, "Lease", "lease.pdf", &repeated_tags_pdf(true)).await;
        assert_eq!(status, 400, "{e}");
        let m = e["error"]["message"].as_str().unwrap();
        assert!(
            m.contains("{{Company;type=text;role=tenant}}") && m.contains("different attributes"),
            "{m}"
        );

        // Sent and signed: one value, in both places of the sealed file.
        let (status, d) = post(
            &app,
            &key,
            "/api/v1/documents/send",
            json!({"templateId": t["id"], "parties": parties(&["tenant"])}),
        )
        .await;
        assert_eq!(status, 201, "{d}");
        let pdf = signed_by_all(&app, &key, d["id"].as_str().unwrap(), &["tenant"]).await;
        if let Some(text) = sealed_and_valid(&app, &pdf, "repeated-fields") {
            // The page before the certificate: the value (wrapped in its narrow box) twice.
            let page = text.split("Certificate").next().unwrap_or(&text);
            assert_eq!(page.matches("Test").count(), 2, "{text}");
            assert!(!page.contains("{{"), "{text}");
        }
    }
);
