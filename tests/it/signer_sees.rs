//! What the signer sees is what is sealed, and what an ended link shows: each test performs
//! an attack from the review of the person-facing side and shows it refused or harmless.

use serde_json::{Value, json};
use signet_core::Mode;
use signet_core::plans::Plan;
use signet_storage::sea_orm::ConnectionTrait;

use crate::both_quiet;
use crate::harness::{Kind, Options, TestApp};
use crate::harness::{link_of, links, page};
use crate::signing_page::state;

/// Pixels of the pictures compared: the signing page's large picture.
const WIDTH: u32 = 1500;

/// A PNG's pixels as grey levels, with its width and height.
fn grey(bytes: &[u8]) -> (Vec<u8>, usize, usize) {
    let mut d = png::Decoder::new(std::io::Cursor::new(bytes));
    d.set_transformations(png::Transformations::EXPAND | png::Transformations::STRIP_16);
    let mut r = d.read_info().unwrap();
    let mut buf = vec![0; r.output_buffer_size().unwrap()];
    let info = r.next_frame(&mut buf).unwrap();
    let (w, h) = (info.width as usize, info.height as usize);
    let ch = info.color_type.samples();
    let mut out = Vec::with_capacity(w * h);
    for y in 0..h {
        for x in 0..w {
            let p = &buf[y * info.line_size + x * ch..][..ch];
            out.push(if ch >= 3 {
                ((p[0] as u32 * 30 + p[1] as u32 * 59 + p[2] as u32 * 11) / 100) as u8
            } else {
                p[0]
            });
        }
    }
    (out, w, h)
}

/// Each page of a PDF drawn by poppler (not the rasteriser Signet uses), `WIDTH` wide.
fn poppler_pages(pdf: &[u8]) -> Option<Vec<Vec<u8>>> {
    let tool = signet_testkit::program("pdftoppm", "poppler", "apt-get install poppler-utils")?;
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("in.pdf"), pdf).unwrap();
    let out = std::process::Command::new(tool)
        .args([
            "-png",
            "-gray",
            "-scale-to-x",
            &WIDTH.to_string(),
            "-scale-to-y",
            "-1",
        ])
        .arg(dir.path().join("in.pdf"))
        .arg(dir.path().join("p"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let mut names: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "png"))
        .collect();
    names.sort();
    Some(names.iter().map(|p| std::fs::read(p).unwrap()).collect())
}

/// Boxes in points (page, x, y, width, height) left out of a comparison: where values go.
type Masks = Vec<(i64, f64, f64, f64, f64)>;

fn masks_of(fields: &Value) -> Masks {
    let mut out = Vec::new();
    for f in fields.as_array().unwrap() {
        let boxed = |a: &Value| {
            (
                a["page"].as_i64().unwrap(),
                a["x"].as_f64().unwrap(),
                a["y"].as_f64().unwrap(),
                a["width"].as_f64().unwrap(),
                a["height"].as_f64().unwrap(),
            )
        };
        out.push(boxed(f));
        out.extend(f["areas"].as_array().into_iter().flatten().map(boxed));
    }
    out
}

/// The largest difference in mean ink between the signer's picture of a page and poppler's
/// drawing of the sealed page, over blocks of 20 pixels, leaving out the value boxes; and
/// the ink of each.
fn differ(shown: &[u8], sealed: &[u8], page: i64, width_pt: f64, masks: &Masks) -> (f64, f64, f64) {
    let (a, w, h) = grey(shown);
    let (b, w2, h2) = grey(sealed);
    assert_eq!(w, w2, "widths");
    assert!(h.abs_diff(h2) <= 2, "heights {h} and {h2}");
    let scale = w as f64 / width_pt;
    let masked = |x: usize, y: usize| {
        masks.iter().any(|&(p, mx, my, mw, mh)| {
            p == page
                && (x as f64) >= (mx - 6.0) * scale
                && (x as f64) <= (mx + mw + 6.0) * scale
                && (y as f64) >= (my - 6.0) * scale
                && (y as f64) <= (my + mh + 6.0) * scale
        })
    };
    let block = 20;
    let (mut worst, mut ink_a, mut ink_b) = (0f64, 0f64, 0f64);
    for by in (0..h.min(h2)).step_by(block) {
        for bx in (0..w).step_by(block) {
            let (mut sa, mut sb, mut n) = (0u64, 0u64, 0u64);
            for y in by..(by + block).min(h.min(h2)) {
                for x in bx..(bx + block).min(w) {
                    if masked(x, y) {
                        continue;
                    }
                    sa += 255 - a[y * w + x] as u64;
                    sb += 255 - b[y * w + x] as u64;
                    n += 1;
                }
            }
            if n == 0 {
                continue;
            }
            ink_a += sa as f64;
            ink_b += sb as f64;
            worst = worst.max((sa as f64 - sb as f64).abs() / n as f64);
        }
    }
    (worst, ink_a, ink_b)
}

/// A sent document as its first signer is shown it and then signs it, and its sealed copy:
/// each page's large picture, the fields' boxes, and the sealed PDF.
async fn shown_then_sealed(
    app: &TestApp,
    key: &str,
    id: &str,
    email: &str,
) -> (Vec<(Vec<u8>, f64)>, Masks, Vec<u8>) {
    shown_then_signed_by(app, key, id, email, &[]).await
}

/// `shown_then_sealed` for a document whose `others` sign after the first signer, the
/// boxes of all their fields left out.
async fn shown_then_signed_by(
    app: &TestApp,
    key: &str,
    id: &str,
    email: &str,
    others: &[&str],
) -> (Vec<(Vec<u8>, f64)>, Masks, Vec<u8>) {
    app.run_pending_jobs().await;
    let token = link_of(app, email);
    let (status, v) = page(app, "GET", "/page/v1/view", &token, None).await;
    assert_eq!(status, 200, "{v}");
    let mut shown = Vec::new();
    for p in v["document"]["pages"].as_array().unwrap() {
        let url = p["images"][WIDTH.to_string()].as_str().unwrap();
        let img = reqwest::get(format!("{}{url}", app.base)).await.unwrap();
        assert_eq!(img.status(), 200);
        shown.push((
            img.bytes().await.unwrap().to_vec(),
            p["width"].as_f64().unwrap(),
        ));
    }
    let mut masks = masks_of(&v["fields"]);
    sign(app, &token).await;
    for other in others {
        app.run_pending_jobs().await;
        let token = link_of(app, other);
        let (_, v) = page(app, "GET", "/page/v1/view", &token, None).await;
        masks.extend(masks_of(&v["fields"]));
        sign(app, &token).await;
    }
    app.run_pending_jobs().await;
    assert_eq!(state(app, key, id).await["state"], "executed");
    (shown, masks, crate::harness::signed_pdf(app, key, id).await)
}

/// Every page the signer was shown matches poppler's drawing of the sealed page, outside
/// the boxes the values were drawn into; answers each page's ink as shown.
fn assert_shown_is_sealed(
    what: &str,
    shown: &[(Vec<u8>, f64)],
    masks: &Masks,
    pdf: &[u8],
) -> Vec<f64> {
    let Some(sealed) = poppler_pages(pdf) else {
        return Vec::new();
    };
    // The sealed copy adds its certificate's pages after the document's.
    assert!(
        sealed.len() > shown.len(),
        "{what}: {} pages sealed",
        sealed.len()
    );
    let mut inks = Vec::new();
    for (i, (png, width_pt)) in shown.iter().enumerate() {
        let (worst, a, b) = differ(png, &sealed[i], i as i64 + 1, *width_pt, masks);
        assert!(
            worst < 40.0,
            "{what}, page {}: a block differs by {worst:.1} grey levels on average",
            i + 1
        );
        assert!(
            (a - b).abs() <= 0.08 * a.max(b) + 50_000.0,
            "{what}, page {}: ink shown {a:.0}, sealed {b:.0}",
            i + 1
        );
        inks.push(a);
    }
    inks
}

/// Sends template `t` to one person for its seat `client`; answers the document's id.
async fn send_template(app: &TestApp, key: &str, t: &Value, email: &str) -> String {
    let (status, d) = post(
        app,
        key,
        "/api/v1/documents/send",
        &json!({"templateId": t["id"], "parties": [
            {"seat": "client", "name": "Ada Client", "email": email}]}),
    )
    .await;
    assert_eq!(status, 201, "{d}");
    d["id"].as_str().unwrap().to_string()
}

/// What a key that makes templates and sends from them holds.
const TEMPLATE_SCOPES: [&str; 4] = [
    "documents:read",
    "documents:write",
    "templates:read",
    "templates:write",
];

async fn live_key(app: &TestApp, scopes: &[&str]) -> String {
    let ws = app.workspace(Plan::Pro).await;
    app.key(&ws, Mode::Live, scopes).await
}

async fn post(app: &TestApp, key: &str, path: &str, body: &Value) -> (u16, Value) {
    let r = app
        .post(
            path,
            key,
            &[("Idempotency-Key", &signet_core::ids::new_id("idem"))],
            &body.to_string(),
        )
        .await;
    (r.status.as_u16(), r.body)
}

both_quiet!(
    a_forged_pdf_page_is_refused_and_what_is_shown_is_what_is_sealed,
    |app| {
        let key = live_key(&app, &TEMPLATE_SCOPES).await;
        // The review's file: a page drawing 1.1 million invisible squares under a fee. Refused
        // when the template is made, with the reason.
        let forged = crate::forged::fee_pdf(1_100_000);
        let (status, e) =
            crate::templates::post_file(&app, &key, "Forged", "fee.pdf", &forged).await;
        assert_eq!(status, 400, "{e}");
        let message = e["error"]["message"].as_str().unwrap();
        assert!(
            message.contains("page 2") && message.contains("drawing instructions"),
            "{message}"
        );

        // Under the cap, the same trick is taken, and the signer's picture of the fee page is
        // the sealed page: the fee shows in both.
        let (status, t) = crate::templates::post_file(
            &app,
            &key,
            "Service agreement",
            "fee.pdf",
            &crate::forged::fee_pdf(60_000),
        )
        .await;
        assert_eq!(status, 201, "{t}");
        let id = send_template(&app, &key, &t, "ada@example.com").await;
        let (shown, masks, pdf) = shown_then_sealed(&app, &key, &id, "ada@example.com").await;
        assert_eq!(shown.len(), 2);
        let inks = assert_shown_is_sealed("a PDF template", &shown, &masks, &pdf);
        if let Some(fee_page) = inks.get(1) {
            assert!(
                *fee_page > 100_000.0,
                "the fee page is shown with its ink: {fee_page}"
            );
        }

        // A document from words, the same way.
        let (status, d) = post(
        &app,
        &key,
        "/api/v1/documents",
        &json!({
            "title": "Studio lease",
            "source": long_source(30),
            "people": [{"name": "Ada Tenant", "email": "ada.words@example.com", "role": "client"}],
            "sendNow": true
        }),
    )
    .await;
        assert_eq!(status, 201, "{d}");
        let id = d["id"].as_str().unwrap();
        let (shown, masks, pdf) = shown_then_sealed(&app, &key, id, "ada.words@example.com").await;
        assert_shown_is_sealed("a document from words", &shown, &masks, &pdf);

        // A template from HTML.
        let (status, t) = post(
        &app,
        &key,
        "/api/v1/templates/html",
        &json!({"name": "Offer", "html": "<h1>Offer letter</h1><p>The salary is EUR 80,000 a year, paid monthly.</p><p>Signed: {{Signature;type=signature;role=client;height=30}}</p>"}),
    )
    .await;
        assert_eq!(status, 201, "{t}");
        let id = send_template(&app, &key, &t, "ada.html@example.com").await;
        let (shown, masks, pdf) = shown_then_sealed(&app, &key, &id, "ada.html@example.com").await;
        assert_shown_is_sealed("an HTML template", &shown, &masks, &pdf);
    }
);

/// Office and picture templates end as PDFs on the same path: what the signer is shown of a
/// Word file (through LibreOffice) and of a photographed page (through tesseract) is the
/// sealed page too.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn office_and_picture_templates_are_shown_as_they_are_sealed() {
    let app = TestApp::start_without_workers(Kind::Sqlite).await.unwrap();
    let key = live_key(&app, &TEMPLATE_SCOPES).await;
    let mut files = Vec::new();
    if let Some(docx) = crate::templates::word_file()
        && signet_testkit::part("office", signet_convert::office::Office::find().err())
    {
        files.push((
            "a Word file",
            "agreement.docx",
            docx,
            ["client", "consultant"],
        ));
    }
    if let Some(png) = crate::templates::scanned_page()
        && signet_testkit::part("ocr", signet_convert::picture::Ocr::find().err())
    {
        files.push((
            "a photographed page",
            "lease.png",
            png,
            ["tenant", "landlord"],
        ));
    }
    for (what, name, bytes, seats) in files {
        let (status, t) = crate::templates::post_file(&app, &key, what, name, &bytes).await;
        assert_eq!(status, 201, "{what}: {t}");
        let emails: Vec<String> = seats
            .iter()
            .map(|s| format!("{s}.{}@example.com", name.replace('.', "-")))
            .collect();
        let parties: Vec<Value> = seats
            .iter()
            .zip(&emails)
            .map(|(seat, email)| json!({"seat": seat, "name": format!("The {seat}"), "email": email}))
            .collect();
        let (status, d) = post(
            &app,
            &key,
            "/api/v1/documents/send",
            &json!({"templateId": t["id"], "parties": parties}),
        )
        .await;
        assert_eq!(status, 201, "{d}");
        let id = d["id"].as_str().unwrap();
        let (shown, masks, pdf) =
            shown_then_signed_by(&app, &key, id, &emails[0], &[emails[1].as_str()]).await;
        assert_shown_is_sealed(what, &shown, &masks, &pdf);
    }
}

/// Paragraphs enough for about ten pages.
fn long_source(paragraphs: usize) -> Value {
    let p = json!({"type": "paragraph", "content": [{"type": "text", "text":
        "The tenant pays the rent on the first day of each month, by bank transfer."}]});
    let mut content = vec![p; paragraphs];
    content.push(json!({"type": "signatureBlock", "attrs": {"role": "client"}}));
    json!({"type": "doc", "content": content})
}

async fn too_long(app: TestApp) {
    let key = live_key(&app, &["documents:read", "documents:write"]).await;
    let body = |source: Value| {
        json!({
            "title": "Lease",
            "source": source,
            "people": [{"name": "Ada Tenant", "email": "ada@example.com", "role": "client"}],
            "facts": {"sender.email": "owner@example.com"},
            "sendNow": true
        })
    };
    // Known before answering: refused with the count and the cap, nothing written.
    let (status, e) = post(&app, &key, "/api/v1/documents", &body(long_source(400))).await;
    assert_eq!(status, 400, "{e}");
    let message = e["error"]["message"].as_str().unwrap();
    assert!(
        message.starts_with("source:") && message.contains("at most 5 are allowed"),
        "{message}"
    );
    let list = app.get("/api/v1/documents", Some(&key)).await;
    assert_eq!(list.body["data"], json!([]), "{}", list.body);

    // A render that fails for good all the same (the stored words changed under it): the
    // document ends where the caller sees it, nobody is invited, and the sender is told.
    let (status, d) = post(&app, &key, "/api/v1/documents", &body(long_source(1))).await;
    assert_eq!(status, 201, "{d}");
    let id = d["id"].as_str().unwrap().to_string();
    let db = &app.ctx().db;
    db.conn
        .execute_raw(db.stmt(
            "UPDATE documents SET source = $2 WHERE id = $1",
            [id.clone().into(), long_source(400).to_string().into()],
        ))
        .await
        .unwrap();
    app.run_pending_jobs().await;
    let doc = state(&app, &key, &id).await;
    assert_eq!(doc["state"], "voided", "{doc}");
    let reason = doc["reason"].as_str().unwrap();
    assert!(reason.contains("at most 5 are allowed"), "{reason}");
    assert!(doc["pageCount"].is_null(), "{doc}");
    let sent: Vec<String> = links(&app).into_iter().map(|(to, _)| to).collect();
    assert!(!sent.contains(&"ada@example.com".to_string()), "{sent:?}");
    let told = crate::harness::mails_to(&app, "owner@example.com");
    assert!(
        told.iter()
            .any(|(subject, text)| subject.contains("Lease")
                && text.contains("at most 5 are allowed")),
        "{told:?}"
    );
    let events: Vec<String> = crate::signing_page::audit_events(&app, &id)
        .await
        .into_iter()
        .map(|(event, _, _)| event)
        .collect();
    assert!(events.contains(&"voided".to_string()), "{events:?}");
    let voided = outbox_states(&app, &id, "event", "%document.voided%").await;
    assert_eq!(voided.len(), 1, "the voided event is out for webhooks");
    let invitations = outbox_states(&app, &id, "email", "%invitation%").await;
    assert_eq!(
        invitations,
        ["cancelled"],
        "the held invitation is withdrawn unsent"
    );
}

/// The states of a document's jobs of `kind` whose payload is `LIKE` `payload`.
async fn outbox_states(app: &TestApp, id: &str, kind: &str, payload: &str) -> Vec<String> {
    let db = &app.ctx().db;
    db.conn
        .query_all_raw(db.stmt(
            "SELECT state FROM outbox WHERE document_id = $1 AND kind = $2 AND payload LIKE $3",
            [id.into(), kind.into(), payload.into()],
        ))
        .await
        .unwrap()
        .iter()
        .map(|r| r.try_get::<String>("", "state").unwrap())
        .collect()
}

mod a_document_too_long_is_refused_or_ends_visibly {
    use super::*;

    fn opts() -> Options {
        Options {
            max_pages: Some(5),
            no_worker: true,
            ..Default::default()
        }
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn sqlite() {
        too_long(TestApp::start_with(Kind::Sqlite, opts()).await.unwrap()).await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn postgres_redis() {
        if let Some(app) = TestApp::start_with(Kind::PostgresRedis, opts()).await {
            too_long(app).await;
        }
    }
}

both_quiet!(
    an_ended_document_shows_its_state_and_nothing_of_its_pages,
    |app| {
        let key = live_key(&app, &["documents:read", "documents:write"]).await;
        let id = crate::signing_page::send(&app, &key, json!({})).await;
        app.run_pending_jobs().await;
        let token = link_of(&app, "ada@example.com");
        let (_, v) = page(&app, "GET", "/page/v1/view", &token, None).await;
        let url = v["document"]["pages"][0]["images"]["750"]
            .as_str()
            .unwrap()
            .to_string();
        let picture = |url: String| {
            let base = app.base.clone();
            async move { reqwest::get(format!("{base}{url}")).await.unwrap().status() }
        };
        assert_eq!(picture(url.clone()).await, 200);

        let (status, _) = post(
            &app,
            &key,
            &format!("/api/v1/documents/{id}/void"),
            &json!({"reason": "sent to the wrong person"}),
        )
        .await;
        assert_eq!(status, 200);
        let (status, v) = page(&app, "GET", "/page/v1/view", &token, None).await;
        assert_eq!(status, 200);
        assert_eq!(v["stage"], "voided");
        assert!(v["document"]["pages"].is_null(), "{v}");
        assert_eq!(v["person"]["email"], "", "{v}");
        assert_eq!(v["fields"], json!([]));
        assert_eq!(v["document"]["title"], "Studio lease");
        assert!(!v["document"]["sender"].as_str().unwrap().is_empty());
        // The picture addresses handed out before the void show nothing now.
        assert_eq!(picture(url).await, 404);
        // Nor does a picture the other person's link could have had.
        let other = link_of(&app, "ada@example.com");
        let (_, v) = page(&app, "GET", "/page/v1/view", &other, None).await;
        assert!(v["document"]["pages"].is_null());
    }
);

/// A page call with a browser of the caller's choosing.
async fn page_from(app: &TestApp, path: &str, token: &str, agent: &str, body: Value) -> u16 {
    crate::harness::page_call(&app.base, "POST", path, token, None, agent, Some(body))
        .await
        .0
}

/// Accepts the disclosure the view `v` showed, as the person of `token`.
async fn consent(app: &TestApp, token: &str, v: &Value) {
    let shown = &v["consent"];
    page(
        app,
        "POST",
        "/page/v1/consent",
        token,
        Some(json!({"version": shown["version"], "sha256": shown["sha256"]})),
    )
    .await;
}

/// Consents and signs as the person of `token`, from the test's browser.
async fn sign(app: &TestApp, token: &str) {
    crate::harness::sign_as(&app.base, token, "Mozilla/5.0 (signing page test)").await;
}

both_quiet!(
    the_certificate_keeps_how_and_where_each_person_signed,
    |app| {
        let key = live_key(&app, &["documents:read", "documents:write"]).await;
        let id = crate::signing_page::send(&app, &key, json!({})).await;
        app.run_pending_jobs().await;
        let ada = link_of(&app, "ada@example.com");
        sign(&app, &ada).await;
        // After signing, identity checks have nothing left to open, and change nothing.
        for _ in 0..3 {
            let status = page_from(
                &app,
                "/page/v1/verify",
                &ada,
                "Attacker-Browser/6.6",
                json!({"accessCode": "0000"}),
            )
            .await;
            assert_eq!(status, 409);
        }
        assert_eq!(
            page_from(
                &app,
                "/page/v1/code",
                &ada,
                "Attacker-Browser/6.6",
                json!({})
            )
            .await,
            409
        );
        app.run_pending_jobs().await;
        let bob = link_of(&app, "bob@example.com");
        sign(&app, &bob).await;
        app.run_pending_jobs().await;
        assert_eq!(state(&app, &key, &id).await["state"], "executed");
        let pdf = crate::harness::signed_pdf(&app, &key, &id).await;
        let Some(text) = crate::sealing::pdf_text(&pdf) else {
            return;
        };
        let text = text.replace('\n', " ");
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("s.pdf"), &pdf).unwrap();
        // A live seal, judged by pdfsig trusting the live root alone.
        let (code, root, err) = app.cli(&["admin", "ca", "export"]);
        assert_eq!(code, 0, "{err}");
        std::fs::write(dir.path().join("root.pem"), &root).unwrap();
        if let Some(judged) = crate::sealing::pdfsig_trusting(
            dir.path(),
            &dir.path().join("root.pem"),
            &dir.path().join("s.pdf"),
        ) {
            assert!(judged.contains("Signature is Valid"), "{judged}");
            assert!(judged.contains("Certificate is Trusted"), "{judged}");
            assert!(judged.contains("Total document signed"), "{judged}");
            assert!(
                judged.contains("Signet Document Seal") && !judged.contains("(TEST)"),
                "{judged}"
            );
        }
        assert!(!text.contains("Attacker-Browser"), "{text}");
        assert!(text.contains("signing page test"), "{text}");
        assert!(
            text.contains("a signing link emailed to ada@example.com"),
            "{text}"
        );
    }
);

/// Sends the head of a page call declaring a body of `length` bytes, and one byte of it;
/// answers what comes back within 10 s (a server waiting for the body would say nothing).
async fn declared(app: &TestApp, token: &str, length: usize) -> String {
    use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
    let addr = app.base.trim_start_matches("http://");
    let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
    let head = format!(
        "POST /page/v1/sign HTTP/1.1\r\nHost: x\r\nAuthorization: Link {token}\r\n\
         Content-Type: application/json\r\nContent-Length: {length}\r\n\r\n{{"
    );
    s.write_all(head.as_bytes()).await.unwrap();
    let mut out = Vec::new();
    let _ = tokio::time::timeout(std::time::Duration::from_secs(10), s.read_to_end(&mut out)).await;
    String::from_utf8_lossy(&out).into_owned()
}

both_quiet!(
    page_calls_check_the_link_before_the_body_and_take_a_mebibyte,
    |app| {
        let key = live_key(&app, &["documents:read", "documents:write"]).await;
        crate::signing_page::send(&app, &key, json!({})).await;
        app.run_pending_jobs().await;
        let token = link_of(&app, "ada@example.com");
        // A made-up link is refused as such before a byte of its body is read, whatever the
        // body says it weighs (under the page limit too).
        for length in [13 * 1024 * 1024, 1000] {
            let answer = declared(&app, &"B".repeat(43), length).await;
            assert!(answer.starts_with("HTTP/1.1 404"), "{answer}");
            assert!(
                answer.contains("this link does not open a document"),
                "{answer}"
            );
        }
        // A real link: a body over a mebibyte is refused by its declared size.
        let answer = declared(&app, &token, 1024 * 1024 + 1).await;
        assert!(answer.starts_with("HTTP/1.1 400"), "{answer}");
        assert!(answer.contains("1048576"), "{answer}");
        // ... and one under it is read.
        let r = reqwest::Client::new()
            .post(format!("{}/page/v1/sign", app.base))
            .header("Authorization", format!("Link {token}"))
            .json(&json!({"values": {"x": "a".repeat(900 * 1024)}}))
            .send()
            .await
            .unwrap();
        let body = r.text().await.unwrap();
        assert!(!body.contains("1048576"), "{body}");
    }
);

both_quiet!(
    opening_is_an_act_of_the_person_not_a_picture_loading,
    |app| {
        let key = live_key(&app, &["documents:read", "documents:write"]).await;
        let id = crate::signing_page::send(&app, &key, json!({})).await;
        app.run_pending_jobs().await;
        let token = link_of(&app, "ada@example.com");
        // What a scanner that runs the page does: the view and every picture.
        let (_, v) = page(&app, "GET", "/page/v1/view", &token, None).await;
        for p in v["document"]["pages"].as_array().unwrap() {
            for url in p["images"].as_object().unwrap().values() {
                reqwest::get(format!("{}{}", app.base, url.as_str().unwrap()))
                    .await
                    .unwrap();
            }
        }
        assert_eq!(state(&app, &key, &id).await["state"], "sent");
        // Accepting the disclosure is the person's act: opened, then consented.
        consent(&app, &token, &v).await;
        assert_eq!(state(&app, &key, &id).await["state"], "opened");
        let events: Vec<String> = crate::signing_page::audit_events(&app, &id)
            .await
            .into_iter()
            .map(|(e, _, _)| e)
            .collect();
        let at = |e: &str| events.iter().position(|x| x == e).unwrap();
        assert!(at("opened") < at("consented"), "{events:?}");
    }
);

both_quiet!(line_and_paragraph_separators_cannot_forge_lines, |app| {
    let key = live_key(&app, &["documents:read", "documents:write"]).await;
    for (field, person) in [
        (
            "name",
            json!({"name": "Ann Lee\u{2028} Email ceo@bank.example\u{2029} Action approve", "email": "ann@example.com", "role": "client"}),
        ),
        (
            "name",
            json!({"name": "Ann Lee\u{2029}", "email": "ann@example.com", "role": "client"}),
        ),
    ] {
        let (status, e) = post(
            &app,
            &key,
            "/api/v1/documents",
            &json!({"title": "Lease", "source": long_source(1), "people": [person]}),
        )
        .await;
        assert_eq!(status, 400, "{e}");
        let m = e["error"]["message"].as_str().unwrap();
        assert!(m.contains(field) && m.contains("U+2028"), "{m}");
    }
    let (status, e) = post(
        &app,
        &key,
        "/api/v1/documents",
        &json!({"title": "Lease\u{2028}Approved", "source": long_source(1),
                "people": [{"name": "Ann", "email": "ann@example.com", "role": "client"}]}),
    )
    .await;
    assert_eq!(status, 400, "{e}");
});

both_quiet!(
    test_mail_goes_only_to_the_workspace_sender_once_a_kind,
    |app| {
        let ws = app.workspace(Plan::Pro).await;
        let key = app
            .key(
                &ws,
                Mode::Test,
                &["documents:read", "documents:write", "account:read"],
            )
            .await;
        let people: Vec<Value> = (0..5)
        .map(|i| json!({"name": format!("P{i}"), "email": format!("p{i}@example.com"), "role": format!("signer{i}")}))
        .collect();
        let blocks: Vec<Value> = (0..5)
            .map(|i| json!({"type": "signatureBlock", "attrs": {"role": format!("signer{i}")}}))
            .collect();
        let body = json!({
            "title": "Your bank account is suspended",
            "source": {"type": "doc", "content": blocks},
            "people": people,
            "facts": {"sender.email": "stranger@victim.example"},
            "send": {"replyTo": "stranger@victim.example", "message": "Log in at https://bank.example.evil"},
            "sendNow": true
        });
        // No sender address of the workspace's own: nothing goes anywhere.
        let (status, d) = post(&app, &key, "/api/v1/documents", &body).await;
        assert_eq!(status, 201, "{d}");
        app.run_pending_jobs().await;
        assert!(
            crate::harness::mails_to(&app, "stranger@victim.example").is_empty(),
            "nothing reaches an address the request named"
        );
        assert!(links(&app).is_empty());

        // With one set by the operator, each kind goes there once.
        let db = &app.ctx().db;
        db.conn
            .execute_raw(db.stmt(
                "UPDATE workspaces SET sender_email = 'owner@acme.example' WHERE id = $1",
                [ws.clone().into()],
            ))
            .await
            .unwrap();
        let (status, d) = post(&app, &key, "/api/v1/documents", &body).await;
        assert_eq!(status, 201, "{d}");
        app.run_pending_jobs().await;
        assert!(crate::harness::mails_to(&app, "stranger@victim.example").is_empty());
        let owner = crate::harness::mails_to(&app, "owner@acme.example");
        assert_eq!(owner.len(), 1, "one invitation of five people: {owner:?}");
        assert!(owner[0].0.starts_with("[TEST]"), "{owner:?}");
        let usage = app.get("/api/v1/usage", Some(&key)).await;
        assert_eq!(usage.body["testEmails"]["used"], 1, "{}", usage.body);
        assert_eq!(usage.body["emails"]["used"], 0, "{}", usage.body);
    }
);
