//! The signing page's server side, on both backend sets: a person opens the link from their
//! real email, and the page's calls (view, opened, consent, sign, decline, pictures, the
//! sealed copy) do what the page relies on, refuse what it must, and change nothing on GET.
//! The browser side is `frontend/tests/`.

use serde_json::{Value, json};
use signet_core::Mode;
use signet_core::plans::Plan;
use signet_storage::sea_orm::{ConnectionTrait, Value as Sql};

use crate::both_quiet;
use crate::harness::{TestApp, link_of, links, mails, page, page_as, values_for};

/// Every field type a person fills in, for the client seat.
pub fn every_field() -> Value {
    let tag = |name: &str, ty: &str, extra: Value| {
        let mut attrs = json!({"name": name, "type": ty, "role": "client"});
        if let Value::Object(e) = extra {
            for (k, v) in e {
                attrs[k] = v;
            }
        }
        json!({"type": "paragraph", "content": [
            {"type": "text", "text": format!("{name}: ")},
            {"type": "fieldTag", "attrs": attrs}
        ]})
    };
    json!({"type": "doc", "content": [
        {"type": "heading", "attrs": {"level": 1}, "content": [{"type": "text", "text": "Lease of the studio"}]},
        {"type": "paragraph", "content": [{"type": "text", "text": "The tenant pays the rent on the first day of each month."}]},
        tag("Start date", "date", json!({})),
        tag("Pets", "checkbox", json!({"required": false})),
        tag("Agree to the house rules", "checkbox", json!({})),
        tag("Billing", "radio", json!({"options": ["monthly", "yearly"]})),
        tag("Parking", "select", json!({"options": ["none", "one space", "two spaces"]})),
        tag("Occupants", "number", json!({})),
        tag("Contact email", "email", json!({"autofill": "email"})),
        tag("Full name", "name", json!({"autofill": "name", "editable": false})),
        tag("Company", "company", json!({"required": false, "placeholder": "If renting for a company"})),
        tag("Phone", "phone", json!({"tooltip": "For the caretaker"})),
        tag("Notes", "text", json!({"required": false})),
        tag("Deposit", "text", json!({"locked": true, "default": "2 months"})),
        tag("Initials", "initials", json!({})),
        {"type": "signatureBlock", "attrs": {"role": "client"}},
        {"type": "signatureBlock", "attrs": {"role": "landlord"}}
    ]})
}

pub async fn send(app: &TestApp, key: &str, extra: Value) -> String {
    let mut body = json!({
        "title": "Studio lease",
        "source": every_field(),
        "people": [
            {"name": "Ada Tenant", "email": "ada@example.com", "role": "client", "order": 1},
            {"name": "Bob Landlord", "email": "bob@example.com", "role": "landlord", "order": 2}
        ],
        "sendNow": true
    });
    if let Value::Object(e) = extra {
        for (k, v) in e {
            body[k] = v;
        }
    }
    let a = app
        .post(
            "/api/v1/documents",
            key,
            &[(
                "Idempotency-Key",
                &signet_core::ids::new_id("idem").to_string(),
            )],
            &body.to_string(),
        )
        .await;
    assert_eq!(a.status, 201, "{}", a.body);
    a.body["id"].as_str().unwrap().to_string()
}

pub(crate) async fn state(app: &TestApp, key: &str, id: &str) -> Value {
    app.get(&format!("/api/v1/documents/{id}"), Some(key))
        .await
        .body
}

pub async fn audit_events(app: &TestApp, id: &str) -> Vec<(String, Option<String>, Value)> {
    let db = &app.ctx().db;
    db.conn
        .query_all_raw(db.stmt(
            "SELECT event, seat, detail FROM audit_events WHERE document_id = $1 ORDER BY seq",
            [signet_storage::sea_orm::Value::from(id.to_string())],
        ))
        .await
        .unwrap()
        .iter()
        .map(|r| {
            (
                r.try_get("", "event").unwrap(),
                r.try_get("", "seat").unwrap(),
                serde_json::from_str(&r.try_get::<String>("", "detail").unwrap()).unwrap(),
            )
        })
        .collect()
}

/// A page's text layer holds the document's words.
fn assert_reads(page: &Value) {
    let text: Vec<&str> = page["text"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["text"].as_str().unwrap())
        .collect();
    assert!(
        text.join(" ").contains("The tenant pays the rent"),
        "{text:?}"
    );
}

both_quiet!(a_person_opens_consents_fills_every_field_and_signs, |app| {
    let ws = app.workspace(Plan::Pro).await;
    let key = app
        .key(&ws, Mode::Live, &["documents:read", "documents:write"])
        .await;
    let id = send(&app, &key, json!({})).await;
    app.run_pending_jobs().await;
    let token = link_of(&app, "ada@example.com");

    // The page: the same static shell for any link, with its guards; opening it changes
    // nothing (mail scanners follow links).
    let res = reqwest::get(format!("{}/s/{token}", app.base))
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    let h = res.headers().clone();
    let csp = h["content-security-policy"].to_str().unwrap();
    assert!(
        csp.contains("script-src 'self'") && !csp.contains("unsafe-inline"),
        "{csp}"
    );
    assert!(csp.contains("frame-ancestors 'none'"), "{csp}");
    assert_eq!(h["referrer-policy"], "no-referrer");
    assert_eq!(h["cache-control"], "no-store");
    assert_eq!(h["x-content-type-options"], "nosniff");
    let html = res.text().await.unwrap();
    assert!(
        !html.contains(&token) && !html.contains("Studio lease"),
        "{html}"
    );
    assert!(!html.contains("<script>"), "no inline script: {html}");
    let script = html
        .split("src=\"")
        .nth(1)
        .unwrap()
        .split('"')
        .next()
        .unwrap()
        .to_string();
    let js = reqwest::get(format!("{}{script}", app.base)).await.unwrap();
    assert_eq!(js.status(), 200);
    assert!(
        js.headers()["cache-control"]
            .to_str()
            .unwrap()
            .contains("immutable")
    );

    let (status, v) = page(&app, "GET", "/page/v1/view", &token, None).await;
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["stage"], "sign");
    assert_eq!(
        state(&app, &key, &id).await["state"],
        "sent",
        "a view changes nothing"
    );
    assert_eq!(v["person"]["name"], "Ada Tenant");
    assert_eq!(v["document"]["title"], "Studio lease");
    assert!(v["words"]["finish"].is_string());
    let consent = v["consent"].clone();
    assert_eq!(consent["version"], "2026-11-24");
    let fields = v["fields"].clone();
    let types: Vec<&str> = fields
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["type"].as_str().unwrap())
        .collect();
    for t in [
        "date",
        "checkbox",
        "radio",
        "select",
        "number",
        "email",
        "name",
        "company",
        "phone",
        "text",
        "initials",
        "signature",
    ] {
        assert!(types.contains(&t), "{t} in {types:?}");
    }
    assert!(
        fields
            .as_array()
            .unwrap()
            .iter()
            .all(|f| f["page"].as_i64().unwrap() >= 1 && f["width"].as_f64().unwrap() > 0.0),
        "every field is placed: {fields}"
    );
    let name = fields
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["type"] == "name")
        .unwrap();
    assert_eq!(
        (name["value"].clone(), name["editable"].clone()),
        (json!("Ada Tenant"), json!(false))
    );
    // The pictures of each page, at two widths, with the text to read and find.
    let pages = v["document"]["pages"].as_array().unwrap().clone();
    assert!(!pages.is_empty());
    assert_reads(&pages[0]);
    for (width, url) in pages[0]["images"].as_object().unwrap() {
        let img = reqwest::get(format!("{}{}", app.base, url.as_str().unwrap()))
            .await
            .unwrap();
        assert_eq!(img.status(), 200, "{width}");
        assert_eq!(img.headers()["cache-control"], "no-store");
        let bytes = img.bytes().await.unwrap();
        assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
        // A changed address is refused.
        let forged = url.as_str().unwrap().replace("tag=", "tag=0");
        assert_eq!(
            reqwest::get(format!("{}{forged}", app.base))
                .await
                .unwrap()
                .status(),
            404
        );
    }
    // Another token, or none, opens nothing.
    let (status, _) = page(&app, "GET", "/page/v1/view", &"A".repeat(43), None).await;
    assert_eq!(status, 404);

    // Signing before consent is refused; the page reports the view, then the consent.
    let (status, e) = page(
        &app,
        "POST",
        "/page/v1/sign",
        &token,
        Some(json!({"values": values_for(&fields)})),
    )
    .await;
    assert_eq!(status, 409, "{e}");
    let (status, _) = page(&app, "POST", "/page/v1/opened", &token, Some(json!({}))).await;
    assert_eq!(status, 204);
    page(&app, "POST", "/page/v1/opened", &token, Some(json!({}))).await;
    let doc = state(&app, &key, &id).await;
    assert_eq!(doc["state"], "opened", "{doc}");
    let (status, e) = page(
        &app,
        "POST",
        "/page/v1/consent",
        &token,
        Some(json!({"version": consent["version"], "sha256": "0".repeat(64)})),
    )
    .await;
    assert_eq!(status, 400, "{e}");
    let (status, v) = page(
        &app,
        "POST",
        "/page/v1/consent",
        &token,
        Some(json!({"version": consent["version"], "sha256": consent["sha256"]})),
    )
    .await;
    assert_eq!(status, 200, "{v}");
    assert!(v["consent"].is_null());

    // Values are checked on the server: a missing required one, a wrong option, a changed
    // fixed field, a signature drawn outside its pad.
    let mut missing = values_for(&fields);
    let date_id = fields
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["type"] == "date")
        .unwrap()["id"]
        .as_str()
        .unwrap()
        .to_string();
    missing.as_object_mut().unwrap().remove(&date_id);
    let (status, e) = page(
        &app,
        "POST",
        "/page/v1/sign",
        &token,
        Some(json!({"values": missing})),
    )
    .await;
    assert_eq!(status, 400);
    assert!(
        e["error"]["message"]
            .as_str()
            .unwrap()
            .contains("Start date"),
        "{e}"
    );
    let mut wrong = values_for(&fields);
    let radio = fields
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["type"] == "radio")
        .unwrap()["id"]
        .as_str()
        .unwrap()
        .to_string();
    wrong[&radio] = json!("weekly");
    let (status, _) = page(
        &app,
        "POST",
        "/page/v1/sign",
        &token,
        Some(json!({"values": wrong})),
    )
    .await;
    assert_eq!(status, 400);
    let mut fixed = values_for(&fields);
    fixed[name["id"].as_str().unwrap()] = json!("Somebody Else");
    let (status, e) = page(
        &app,
        "POST",
        "/page/v1/sign",
        &token,
        Some(json!({"values": fixed})),
    )
    .await;
    assert_eq!(status, 400, "{e}");
    assert_eq!(
        state(&app, &key, &id).await["state"],
        "opened",
        "nothing half-written"
    );

    let (status, v) = page(
        &app,
        "POST",
        "/page/v1/sign",
        &token,
        Some(json!({"values": values_for(&fields)})),
    )
    .await;
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["stage"], "signed");
    let (status, _) = page(
        &app,
        "POST",
        "/page/v1/sign",
        &token,
        Some(json!({"values": values_for(&fields)})),
    )
    .await;
    assert_eq!(status, 409, "signed once");

    // The trail: opened, consented (with the disclosure's digest) and signed, each with the
    // address and browser; then the next person is invited.
    let trail = audit_events(&app, &id).await;
    let ada: Vec<_> = trail
        .iter()
        .filter(|(_, s, _)| s.as_deref() == Some("client"))
        .collect();
    let events: Vec<&str> = ada.iter().map(|(e, _, _)| e.as_str()).collect();
    assert!(
        events.starts_with(&["invited"]) || events.contains(&"opened"),
        "{events:?}"
    );
    for e in ["opened", "consented", "signed"] {
        let (_, _, d) = ada
            .iter()
            .find(|(x, _, _)| x == e)
            .unwrap_or_else(|| panic!("{e} in {events:?}"));
        assert_eq!(d["ip"], "127.0.0.1", "{e}: {d}");
        assert_eq!(
            d["userAgent"], "Mozilla/5.0 (signing page test)",
            "{e}: {d}"
        );
    }
    let consented = &ada.iter().find(|(x, _, _)| x == "consented").unwrap().2;
    assert_eq!(consented["sha256"], consent["sha256"]);
    app.run_pending_jobs().await;
    let bob = link_of(&app, "bob@example.com");
    let (_, bv) = page(&app, "GET", "/page/v1/view", &bob, None).await;
    assert_eq!(bv["stage"], "sign");
    page(
        &app,
        "POST",
        "/page/v1/consent",
        &bob,
        Some(json!({"version": bv["consent"]["version"], "sha256": bv["consent"]["sha256"]})),
    )
    .await;
    let (status, e) = page(
        &app,
        "POST",
        "/page/v1/sign",
        &bob,
        Some(json!({"values": values_for(&bv["fields"])})),
    )
    .await;
    assert_eq!(status, 200, "{e}");
    app.run_pending_jobs().await;
    assert_eq!(state(&app, &key, &id).await["state"], "executed");

    // The signed copy, from the page, once it exists.
    let (_, v) = page(&app, "GET", "/page/v1/view", &token, None).await;
    assert_eq!(v["stage"], "executed");
    assert_eq!(v["document"]["sealed"], true);
    let pdf = reqwest::Client::new()
        .get(format!("{}/page/v1/signed.pdf", app.base))
        .header("Authorization", format!("Link {token}"))
        .send()
        .await
        .unwrap();
    assert_eq!(pdf.status(), 200);
    let pdf = pdf.bytes().await.unwrap();
    assert!(pdf.starts_with(b"%PDF"));
    // The drawn signature is in the sealed copy as paths: never its strokes as text.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("signed.pdf");
    std::fs::write(&path, &pdf).unwrap();
    match std::process::Command::new("pdftotext")
        .arg(&path)
        .arg("-")
        .output()
    {
        Ok(out) => {
            let text = String::from_utf8_lossy(&out.stdout);
            assert!(
                !text.contains("strokes") && !text.contains("drawn"),
                "{text}"
            );
            assert!(text.contains("AT"), "the typed initials: {text}");
        }
        Err(e) => {
            signet_testkit::part("poppler", Some(format!("pdftotext: {e}")));
        }
    }
    // And the seal still verifies with the vector signature in: pyHanko and qpdf.
    use crate::sealing::{run, tool, validate};
    if let Some(qpdf) = tool("qpdf") {
        let out = run(std::process::Command::new(&qpdf).arg("--check").arg(&path));
        assert!(out.contains("No syntax or stream encoding errors"), "{out}");
    }
    if let Some(pyhanko) = tool("pyhanko") {
        let (code, root, err) = app.cli(&["admin", "ca", "export"]);
        assert_eq!(code, 0, "{err}");
        let root_file = dir.path().join("root.pem");
        std::fs::write(&root_file, root).unwrap();
        let out = validate(&pyhanko, &root_file, &path);
        assert!(out.contains("The signature is judged VALID."), "{out}");
        assert!(
            out.contains("The signer's certificate is trusted."),
            "{out}"
        );
    }
});

both_quiet!(
    declining_ends_the_document_for_everyone_with_the_reason_asked_for,
    |app| {
        let ws = app.workspace(Plan::Pro).await;
        let key = app
            .key(&ws, Mode::Live, &["documents:read", "documents:write"])
            .await;
        let id = send(
        &app,
        &key,
        json!({"send": {"requireDeclineReason": true}, "email": {"replyTo": "owner@example.com"}}),
    )
    .await;
        let all: Vec<&str> = signet_core::Scope::ALL.iter().map(|s| s.as_str()).collect();
        let reader = app.key(&ws, Mode::Live, &all).await;
        app.run_pending_jobs().await;
        let token = link_of(&app, "ada@example.com");
        let (status, e) = page(&app, "POST", "/page/v1/decline", &token, Some(json!({}))).await;
        assert_eq!(status, 400, "{e}");
        assert!(
            e["error"]["message"].as_str().unwrap().contains("reason"),
            "{e}"
        );
        let (status, v) = page(
            &app,
            "POST",
            "/page/v1/decline",
            &token,
            Some(json!({"reason": "The rent is wrong"})),
        )
        .await;
        assert_eq!(status, 200, "{v}");
        assert_eq!(v["stage"], "declined");
        let doc = state(&app, &key, &id).await;
        assert_eq!(doc["state"], "declined", "{doc}");
        let trail = audit_events(&app, &id).await;
        let (_, seat, d) = trail.iter().find(|(e, _, _)| e == "declined").unwrap();
        assert_eq!(seat.as_deref(), Some("client"));
        assert_eq!(d["reason"], "The rent is wrong");
        assert_eq!(d["ip"], "127.0.0.1");
        // A declined document shows that, not a form; acting again is refused.
        let (_, v) = page(&app, "GET", "/page/v1/view", &token, None).await;
        assert_eq!(v["fields"], json!([]));
        let (status, _) = page(
            &app,
            "POST",
            "/page/v1/decline",
            &token,
            Some(json!({"reason": "again"})),
        )
        .await;
        assert_eq!(status, 409);
        // The sender hears of it (the declined email is queued for them).
        app.run_pending_jobs().await;
        let log = app
            .get(&format!("/api/v1/emails?documentId={id}"), Some(&reader))
            .await;
        assert_eq!(log.status, 200, "{}", log.body);
        let declined: Vec<&str> = log.body["data"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|e| e["kind"] == "declined")
            .map(|e| e["to"].as_str().unwrap())
            .collect();
        for to in ["owner@example.com", "ada@example.com", "bob@example.com"] {
            assert!(declined.contains(&to), "{to} hears of it: {declined:?}");
        }
    }
);

both_quiet!(
    a_document_rendered_without_page_pictures_gets_them_when_first_viewed,
    |app| {
        let ws = app.workspace(Plan::Pro).await;
        let key = app
            .key(&ws, Mode::Live, &["documents:read", "documents:write"])
            .await;
        let id = send(&app, &key, json!({})).await;
        app.run_pending_jobs().await;
        let token = link_of(&app, "ada@example.com");
        let base = app.base.clone();
        let picture = |pages: Value| {
            let base = base.clone();
            async move {
                let url = pages[0]["images"]["750"].as_str().unwrap().to_string();
                let img = reqwest::get(format!("{base}{url}")).await.unwrap();
                assert_eq!(img.status(), 200);
                img.bytes().await.unwrap().to_vec()
            }
        };
        let (_, v) = page(&app, "GET", "/page/v1/view", &token, None).await;
        let first = picture(v["document"]["pages"].clone()).await;
        // As an installation upgraded from before page pictures: the rendered file alone.
        let unmade = || async {
            let ctx = app.ctx();
            for k in ctx.blobs.list(&format!("documents/{id}")).await.unwrap() {
                if k.ends_with(".png") || k.ends_with(".pages.json") {
                    ctx.blobs.delete(&k).await.unwrap();
                }
            }
        };
        let made = || async {
            let (_, v) = page(&app, "GET", "/page/v1/view", &token, None).await;
            assert_eq!(v["stage"], "sign");
            assert!(
                v["document"]["pages"].is_null(),
                "the page waits as for a render"
            );
            // The first view set them in the making; the page asks again.
            let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
            loop {
                let (_, v) = page(&app, "GET", "/page/v1/view", &token, None).await;
                if !v["document"]["pages"].is_null() {
                    break v["document"]["pages"].clone();
                }
                assert!(std::time::Instant::now() < deadline, "never made");
                tokio::time::sleep(std::time::Duration::from_millis(50)).await;
            }
        };
        unmade().await;
        let pages = made().await;
        assert_eq!(picture(pages.clone()).await, first);
        assert_reads(&pages[0]);
        // A newer version that would lay the words out otherwise (here: words changed under
        // the stored file) still shows the stored file, the one signed and sealed, and leaves
        // out a text layer that no longer matches it.
        let db = &app.ctx().db;
        db.conn
            .execute_raw(db.stmt(
                "UPDATE documents SET source = REPLACE(source, 'The tenant pays the rent', \
                 'The landlord pays the rent') WHERE id = $1",
                [Sql::from(id.clone())],
            ))
            .await
            .unwrap();
        unmade().await;
        let pages = made().await;
        assert_eq!(picture(pages.clone()).await, first);
        assert_eq!(pages[0]["text"], json!([]), "{}", pages[0]["text"]);
    }
);

/// The one-time codes emailed so far to `to`, oldest first (from the `.eml` files).
fn codes_to(app: &TestApp, to: &str) -> Vec<String> {
    mails(app)
        .into_iter()
        .filter(|(addressee, subject, _, _)| addressee == to && subject.starts_with("Your code"))
        .map(|(_, subject, _, _)| {
            subject
                .rsplit(' ')
                .next()
                .unwrap_or_default()
                .chars()
                .filter(char::is_ascii_digit)
                .collect()
        })
        .collect()
}

both_quiet!(
    a_person_asked_for_codes_sees_nothing_until_both_pass_and_is_locked_out_after_five_wrong_tries,
    |app| {
        let ws = app.workspace(Plan::Pro).await;
        let key = app
            .key(&ws, Mode::Live, &["documents:read", "documents:write"])
            .await;
        let people = |code: &str| {
            json!({"people": [
                {"name": "Ada Tenant", "email": "ada@example.com", "role": "client", "order": 1,
                 "accessCode": code, "emailCode": true},
                {"name": "Bob Landlord", "email": "bob@example.com", "role": "landlord", "order": 2,
                 "accessCode": "bob's own"}
            ]})
        };
        // A code too short to be one is refused, naming the field.
        let bad = app
            .post(
                "/api/v1/documents",
                &key,
                &[("Idempotency-Key", "identity-bad-code-1")],
                &json!({"title": "Lease", "source": every_field(), "people": people("12")["people"]})
                    .to_string(),
            )
            .await;
        assert_eq!(bad.status, 400, "{}", bad.body);
        assert!(
            bad.body["error"]["message"]
                .as_str()
                .unwrap()
                .contains("people[0].accessCode"),
            "{}",
            bad.body
        );
        let id = send(&app, &key, people("blue river 42")).await;
        // What the sender reads back says what is asked, never the code.
        let doc = app
            .get(&format!("/api/v1/documents/{id}"), Some(&key))
            .await;
        assert_eq!(
            doc.body["people"][0]["checks"],
            json!(["accessCode", "emailCode"])
        );
        assert_eq!(doc.body["people"][1]["checks"], json!(["accessCode"]));
        assert!(!doc.body.to_string().contains("blue river 42"));
        let source = app
            .get(&format!("/api/v1/documents/{id}/source"), Some(&key))
            .await;
        assert!(
            !source.body.to_string().contains("blue river 42"),
            "{}",
            source.body
        );
        app.run_pending_jobs().await;
        let token = link_of(&app, "ada@example.com");

        // Before the checks: the title and the check screen, nothing of the document.
        let (status, v) = page(&app, "GET", "/page/v1/view", &token, None).await;
        assert_eq!(status, 200, "{v}");
        assert_eq!(v["document"]["title"], "Studio lease");
        assert!(v["document"]["pages"].is_null(), "{v}");
        assert_eq!(v["fields"], json!([]));
        assert!(v["consent"].is_null());
        assert_eq!(v["person"]["email"], "");
        let gate = &v["verify"];
        assert_eq!(
            (gate["accessCode"].clone(), gate["emailCode"].clone()),
            (json!(true), json!(true))
        );
        assert_eq!(gate["address"], "a•••@example.com");
        assert_eq!(gate["triesLeft"], 5);
        for (path, body) in [
            ("/page/v1/opened", json!({})),
            (
                "/page/v1/consent",
                json!({"version": "2026-11-24", "sha256": "0"}),
            ),
            ("/page/v1/sign", json!({"values": {}})),
            ("/page/v1/decline", json!({"reason": "no"})),
        ] {
            let (status, e) = page(&app, "POST", path, &token, Some(body)).await;
            assert_eq!(status, 403, "{path}: {e}");
            assert_eq!(e["error"]["kind"], "forbidden");
        }
        // A forged pass opens nothing: the page still asks, and shows no page, field or
        // address.
        let (status, forged) = page_as(
            &app,
            "GET",
            "/page/v1/view",
            &token,
            Some("9999999999999.00"),
            None,
        )
        .await;
        assert_eq!(status, 200);
        assert!(forged["document"]["pages"].is_null(), "{forged}");
        assert_eq!(forged["fields"], json!([]), "{forged}");
        assert_eq!(forged["person"]["email"], "", "{forged}");
        assert_eq!(forged["verify"]["accessCode"], true, "{forged}");

        // The emailed code: sent on request, one at a time.
        let (status, c) = page(&app, "POST", "/page/v1/code", &token, Some(json!({}))).await;
        assert_eq!(status, 200, "{c}");
        assert_eq!(c["sent"], true);
        let (_, again) = page(&app, "POST", "/page/v1/code", &token, Some(json!({}))).await;
        assert_eq!(again["sent"], false, "not twice within 30 seconds: {again}");
        assert!(again["gate"]["nextCodeIn"].as_i64().unwrap() > 0);
        app.run_pending_jobs().await;
        let codes = codes_to(&app, "ada@example.com");
        assert_eq!(codes.len(), 1, "{codes:?}");
        let code = codes[0].clone();
        assert_eq!(code.len(), 6);

        // One wrong code fails the try; with both asked, it does not say which (so the access
        // code cannot be guessed without the mailbox).
        let (_, out) = page(
            &app,
            "POST",
            "/page/v1/verify",
            &token,
            Some(json!({"accessCode": "blue river 41", "emailCode": code})),
        )
        .await;
        assert!(out["pass"].is_null(), "{out}");
        assert_eq!(out["wrong"], json!(["accessCode", "emailCode"]));
        assert_eq!(out["gate"]["triesLeft"], 4);
        let (status, out) = page(
            &app,
            "POST",
            "/page/v1/verify",
            &token,
            Some(json!({"accessCode": " blue river 42 ", "emailCode": code})),
        )
        .await;
        assert_eq!(status, 200, "{out}");
        let pass = out["pass"].as_str().expect("a pass").to_string();
        let (_, v) = page_as(&app, "GET", "/page/v1/view", &token, Some(&pass), None).await;
        assert!(v["verify"].is_null(), "{v}");
        assert!(v["document"]["pages"].is_array());
        assert_eq!(v["person"]["email"], "ada@example.com");
        let (status, _) = page_as(
            &app,
            "POST",
            "/page/v1/opened",
            &token,
            Some(&pass),
            Some(json!({})),
        )
        .await;
        assert_eq!(status, 204);
        // An emailed code works once.
        let (_, out) = page(
            &app,
            "POST",
            "/page/v1/verify",
            &token,
            Some(json!({"accessCode": "blue river 42", "emailCode": code})),
        )
        .await;
        assert_eq!(out["wrong"], json!(["accessCode", "emailCode"]), "{out}");

        // Five wrong tries lock the link, and then even the right codes do not open it.
        // A new code may be asked for a minute after the last.
        app.advance(std::time::Duration::from_secs(61));
        let (_, c) = page(&app, "POST", "/page/v1/code", &token, Some(json!({}))).await;
        assert_eq!(c["sent"], true, "{c}");
        app.run_pending_jobs().await;
        let fresh = codes_to(&app, "ada@example.com").last().unwrap().clone();
        for n in 0..4 {
            let (_, out) = page(
                &app,
                "POST",
                "/page/v1/verify",
                &token,
                Some(json!({"accessCode": format!("guess {n}"), "emailCode": "000000"})),
            )
            .await;
            assert!(out["pass"].is_null());
        }
        let (_, out) = page(
            &app,
            "POST",
            "/page/v1/verify",
            &token,
            Some(json!({"accessCode": "blue river 42", "emailCode": fresh})),
        )
        .await;
        assert!(out["pass"].is_null(), "locked: {out}");
        assert_eq!(out["gate"]["triesLeft"], 0);
        let locked = out["gate"]["lockedUntil"].as_i64().expect("locked");
        let minutes = (locked - app.ctx().now()) / 60_000;
        assert!((14..=15).contains(&minutes), "{minutes}");
        let (_, c) = page(&app, "POST", "/page/v1/code", &token, Some(json!({}))).await;
        assert_eq!(c["sent"], false, "no code while locked");
        let (_, v) = page(&app, "GET", "/page/v1/view", &token, None).await;
        assert!(v["verify"]["lockedUntil"].is_i64());
        // The pass given before the lock still works: it is that person's for hours.
        let (_, v) = page_as(&app, "GET", "/page/v1/view", &token, Some(&pass), None).await;
        assert!(v["verify"].is_null());

        // Every try is in the trail, with where it came from; no code is anywhere.
        let trail = audit_events(&app, &id).await;
        let events: Vec<&str> = trail.iter().map(|(e, _, _)| e.as_str()).collect();
        assert_eq!(
            events.iter().filter(|e| **e == "code_sent").count(),
            2,
            "{events:?}"
        );
        assert_eq!(
            events.iter().filter(|e| **e == "identity_failed").count(),
            6,
            "{events:?}"
        );
        assert_eq!(
            events
                .iter()
                .filter(|e| **e == "identity_confirmed")
                .count(),
            1
        );
        assert_eq!(
            events.iter().filter(|e| **e == "identity_locked").count(),
            1
        );
        let (_, _, failed) = trail
            .iter()
            .find(|(e, _, _)| e == "identity_failed")
            .unwrap();
        assert_eq!(failed["wrong"], json!(["accessCode"]));
        assert_eq!(failed["ip"], "127.0.0.1");
        let mut everything = String::new();
        for (table, column) in [
            ("audit_events", "description"),
            ("audit_events", "detail"),
            ("emails", "subject"),
            ("outbox", "payload"),
            ("identity_checks", "code_hash"),
            ("people", "access_code_hash"),
        ] {
            let ctx = app.ctx();
            let rows = ctx
                .db
                .conn
                .query_all_raw(
                    ctx.db
                        .stmt(&format!("SELECT {column} AS v FROM {table}"), []),
                )
                .await
                .unwrap();
            assert!(!rows.is_empty(), "{table}");
            for r in rows {
                everything.push_str(
                    &r.try_get::<Option<String>>("", "v")
                        .unwrap()
                        .unwrap_or_default(),
                );
                everything.push('\n');
            }
        }
        assert!(
            everything.contains("Your code for"),
            "the code email is logged"
        );
        for secret in [code.as_str(), fresh.as_str(), "blue river 42"] {
            assert!(!everything.contains(secret), "{secret} is stored somewhere");
        }

        // The trail keeps which code was wrong, and the second lock lasts twice the first.
        let (_, _, locked_row) = trail
            .iter()
            .find(|(e, _, _)| e == "identity_locked")
            .unwrap();
        assert_eq!(locked_row["minutes"], 15);
        assert_eq!(signet_documents::signing::identity::lock_minutes(1), 30);

        // Ada's pass is hers: Bob's link, once it is his turn, asks him for his own code.
        let (_, v) = page_as(&app, "GET", "/page/v1/view", &token, Some(&pass), None).await;
        page_as(
            &app,
            "POST",
            "/page/v1/consent",
            &token,
            Some(&pass),
            Some(json!({"version": v["consent"]["version"], "sha256": v["consent"]["sha256"]})),
        )
        .await;
        let (status, e) = page_as(
            &app,
            "POST",
            "/page/v1/sign",
            &token,
            Some(&pass),
            Some(json!({"values": values_for(&v["fields"])})),
        )
        .await;
        assert_eq!(status, 200, "{e}");
        app.run_pending_jobs().await;
        let bob = link_of(&app, "bob@example.com");
        let (_, bv) = page_as(&app, "GET", "/page/v1/view", &bob, Some(&pass), None).await;
        assert_eq!(bv["verify"]["accessCode"], true, "{bv}");
        assert_eq!(bv["verify"]["emailCode"], false);
        let (status, _) = page(&app, "POST", "/page/v1/code", &bob, Some(json!({}))).await;
        assert_eq!(status, 409, "Bob is not asked for an emailed code");
        let (_, out) = page(
            &app,
            "POST",
            "/page/v1/verify",
            &bob,
            Some(json!({"accessCode": "bob's own"})),
        )
        .await;
        assert!(out["pass"].is_string(), "{out}");

        // A revised draft keeps its people's codes.
        let draft = app
            .post(
                "/api/v1/documents",
                &key,
                &[("Idempotency-Key", "identity-draft-1")],
                &json!({"title": "Lease", "source": every_field(), "people": people("green field")["people"]})
                    .to_string(),
            )
            .await;
        assert_eq!(draft.status, 201, "{}", draft.body);
        let did = draft.body["id"].as_str().unwrap();
        let revised = app
            .post(
                &format!("/api/v1/documents/{did}/revise"),
                &key,
                &[("Idempotency-Key", "identity-revise-1")],
                &json!({"source": every_field()}).to_string(),
            )
            .await;
        assert_eq!(revised.status, 201, "{}", revised.body);
        assert_eq!(
            revised.body["people"][0]["checks"],
            json!(["accessCode", "emailCode"])
        );

        // An ended document shows its state, and nothing of it, to a link without a pass.
        let other = send(&app, &key, people("ended document")).await;
        app.run_pending_jobs().await;
        let void = app
            .post(&format!("/api/v1/documents/{other}/void"), &key, &[], "{}")
            .await;
        assert_eq!(void.status, 200, "{}", void.body);
        let ada_links: Vec<String> = links(&app)
            .into_iter()
            .filter(|(to, _)| to == "ada@example.com")
            .map(|(_, t)| t)
            .collect();
        let mut seen_voided = false;
        for t in ada_links {
            let (_, v) = page(&app, "GET", "/page/v1/view", &t, None).await;
            if v["stage"] == "voided" {
                seen_voided = true;
                assert!(v["document"]["pages"].is_null(), "{v}");
                assert_eq!(v["person"]["email"], "");
                assert!(
                    v["verify"].is_null(),
                    "nothing to check on an ended document"
                );
            }
        }
        assert!(seen_voided);
    }
);
