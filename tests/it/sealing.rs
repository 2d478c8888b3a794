//! The sealed record end to end: a test document signed by every seat is sealed by the
//! server's worker, downloaded as signed.pdf and judged by independent verifiers (pyHanko,
//! poppler's pdfsig with an NSS database trusting `signet admin ca export`, qpdf), and its audit
//! log is read as CSV. With `CI=true` a missing verifier fails the test.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::{Value, json};
use signet_core::Mode;
use signet_documents::{rendering, seal};
use signet_storage::sea_orm::ConnectionTrait;
use signet_storage::sea_orm::Value as Sql;

use crate::both_quiet;
use crate::documents::create;
use crate::harness::{Kind, Options, TestApp};

/// A verifier or PDF tool; `None` only when the person running the suite skipped its part.
pub(crate) fn tool(name: &str) -> Option<PathBuf> {
    let part = match name {
        "pdftotext" | "pdffonts" | "pdftoppm" => "poppler",
        _ => "verifiers",
    };
    signet_testkit::program(name, part, "scripts/test installs it")
}

pub(crate) fn run(cmd: &mut Command) -> String {
    let out = cmd.output().expect("verifier runs");
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// The text of `pdf` as poppler's pdftotext reads it; `None` when pdftotext is not here (and
/// `verifiers` was skipped by name).
pub(crate) fn pdf_text(pdf: &[u8]) -> Option<String> {
    let pdftotext = tool("pdftotext")?;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("read.pdf");
    std::fs::write(&path, pdf).unwrap();
    Some(run(Command::new(&pdftotext).arg(&path).arg("-")))
}

/// poppler's pdfsig on `file`, with an NSS database in `dir` that trusts only `root`; `None`
/// when pdfsig or certutil is not here (and `verifiers` was skipped by name).
pub(crate) fn pdfsig_trusting(dir: &Path, root: &Path, file: &Path) -> Option<String> {
    let (pdfsig, certutil) = (tool("pdfsig")?, tool("certutil")?);
    let nss = tempfile::tempdir_in(dir).unwrap();
    let db = format!("sql:{}", nss.path().display());
    run(Command::new(&certutil).args(["-N", "-d", &db, "--empty-password"]));
    run(Command::new(&certutil)
        .args(["-A", "-d", &db, "-n", "signet-root", "-t", "CT,C,C", "-i"])
        .arg(root));
    Some(run(Command::new(&pdfsig)
        .arg("-nssdir")
        .arg(nss.path())
        .arg(file)))
}

/// `pyhanko sign validate` with only our root trusted.
pub(crate) fn validate(pyhanko: &Path, root: &Path, file: &Path) -> String {
    run(Command::new(pyhanko)
        .args([
            "sign",
            "validate",
            "--pretty-print",
            "--trust-replace",
            "--trust",
        ])
        .arg(root)
        .arg(file))
}

async fn bytes(app: &TestApp, path: &str, key: &str) -> (u16, String, String, Vec<u8>) {
    let res = app
        .client
        .get(format!("{}{path}", app.base))
        .bearer_auth(key)
        .send()
        .await
        .unwrap();
    let status = res.status().as_u16();
    let h = |n: &str| {
        res.headers()
            .get(n)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
            .to_string()
    };
    let (ct, cd) = (h("content-type"), h("content-disposition"));
    (status, ct, cd, res.bytes().await.unwrap().to_vec())
}

async fn sign_all(app: &TestApp, key: &str, id: &str) {
    crate::harness::test_sign(app, key, id, &["client", "provider"]).await;
}

async fn executed(app: &TestApp, key: &str, id: &str) -> Value {
    app.run_pending_jobs().await;
    let d = app.get(&format!("/api/v1/documents/{id}"), Some(key)).await;
    assert_eq!(d.body["state"], "executed", "not sealed: {}", d.body);
    d.body
}

fn sha256_hex(b: &[u8]) -> String {
    ring::digest::digest(&ring::digest::SHA256, b)
        .as_ref()
        .iter()
        .map(|x| format!("{x:02x}"))
        .collect()
}

/// The hash the certificate states after `label`, and the byte count it names.
fn stated(text: &str, label: &str) -> (String, usize) {
    let words: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let at = words
        .find(label)
        .unwrap_or_else(|| panic!("{label} in {words}"));
    let rest = &words[at + label.len()..];
    let hash: String = rest
        .trim_start()
        .chars()
        .take_while(char::is_ascii_hexdigit)
        .collect();
    let n = rest
        .split("the first ")
        .nth(1)
        .and_then(|r| r.split(' ').next())
        .and_then(|n| n.parse().ok())
        .expect("byte count");
    (hash, n)
}

both_quiet!(
    a_signed_document_is_sealed_and_independent_verifiers_accept_it,
    |app| {
        let (ws, key) = app.owner().await;
        let made = create(&app, &key, json!({"sendNow": true})).await;
        assert_eq!(made.status, 201, "{}", made.body);
        let id = made.body["id"].as_str().unwrap().to_string();

        // Not yet signed: no sealed copy.
        let (status, ..) = bytes(&app, &format!("/api/v1/documents/{id}/signed.pdf"), &key).await;
        assert_eq!(status, 404);

        // The day the server dates the signatures: this one, or the next if midnight passes.
        let day = || chrono::Utc::now().format("%B %-d, %Y").to_string();
        let day_before = day();
        sign_all(&app, &key, &id).await;
        let day_after = day();
        let doc = executed(&app, &key, &id).await;
        assert_eq!(doc["test"], true);

        let (status, ct, cd, pdf) =
            bytes(&app, &format!("/api/v1/documents/{id}/signed.pdf"), &key).await;
        assert_eq!(status, 200);
        assert_eq!(ct, "application/pdf");
        assert!(
            cd.starts_with("attachment; filename=\"services-agreement-doc_")
                && cd.ends_with("-signed.pdf\""),
            "{cd}"
        );
        assert!(pdf.starts_with(b"%PDF-"));
        // A live key never sees a test document's copy.
        let live = app
            .key(&ws, Mode::Live, &["documents:read", "documents:write"])
            .await;
        let (status, ..) = bytes(&app, &format!("/api/v1/documents/{id}/signed.pdf"), &live).await;
        assert_eq!(status, 404);

        // The executed event went out with the sealed state.
        let db = &app.ctx().db;
        let rows = db
            .conn
            .query_all_raw(db.stmt(
                "SELECT payload FROM outbox WHERE document_id = $1 AND kind = 'event'",
                [signet_storage::sea_orm::Value::from(id.clone())],
            ))
            .await
            .unwrap();
        let executed_events: Vec<Value> = rows
            .iter()
            .map(|r| serde_json::from_str(&r.try_get::<String>("", "payload").unwrap()).unwrap())
            .filter(|e: &Value| e["type"] == "documents.document.executed")
            .collect();
        assert_eq!(executed_events.len(), 1);
        assert_eq!(executed_events[0]["data"]["document"]["state"], "executed");

        let dir = app.dir.path();
        let file = dir.join("sealed.pdf");
        std::fs::write(&file, &pdf).unwrap();
        let mut changed = pdf.clone();
        // One byte inside the first revision's page content stream.
        let at = changed.windows(6).position(|w| w == b"stream").unwrap() + 20;
        changed[at] ^= 0x01;
        let bad = dir.join("changed.pdf");
        std::fs::write(&bad, &changed).unwrap();

        // A test document chains to the test root, which is exported on its own.
        let (code, root, err) = app.cli(&["admin", "ca", "export", "--test"]);
        assert_eq!(code, 0, "{err}");
        assert!(root.starts_with("-----BEGIN CERTIFICATE-----"), "{root}");
        let root_file = dir.join("test-root.pem");
        std::fs::write(&root_file, &root).unwrap();
        let (code, live_root, err) = app.cli(&["admin", "ca", "export"]);
        assert_eq!(code, 0, "{err}");
        assert_ne!(live_root, root, "test seals have a root of their own");
        let live_root_file = dir.join("root.pem");
        std::fs::write(&live_root_file, &live_root).unwrap();

        if let Some(pdftotext) = tool("pdftotext") {
            let text = run(Command::new(&pdftotext).arg(&file).arg("-"));
            assert!(text.contains("Certificate of completion (TEST)"), "{text}");
            assert!(text.contains("Ada Client") && text.contains("ada@example.com"));
            // The values were drawn in: the date a test signature fills, as English writes it.
            let words = text.split_whitespace().collect::<Vec<_>>().join(" ");
            assert!(
                words.contains(&day_before) || words.contains(&day_after),
                "{text}"
            );
            // The stated hashes are those of the file's own earlier revisions.
            let (orig, n) = stated(&text, "Original SHA-256");
            assert_eq!(orig, sha256_hex(&pdf[..n]));
            assert!(pdf[..n].ends_with(b"%%EOF\n") || pdf[..n].ends_with(b"%%EOF"));
            let (fin, m) = stated(&text, "Final SHA-256");
            assert!(m > n);
            assert_eq!(fin, sha256_hex(&pdf[..m]));
        }
        if let Some(qpdf) = tool("qpdf") {
            let out = run(Command::new(&qpdf).arg("--check").arg(&file));
            assert!(out.contains("No syntax or stream encoding errors"), "{out}");
        }
        if let Some(pyhanko) = tool("pyhanko") {
            let out = validate(&pyhanko, &root_file, &file);
            assert!(out.contains("The signature is judged VALID."), "{out}");
            assert!(
                out.contains("The signer's certificate is trusted."),
                "{out}"
            );
            assert!(out.contains("The TSA certificate is trusted."), "{out}");
            assert!(
                out.contains("All modifications relate to signature maintenance"),
                "{out}"
            );
            let out = validate(&pyhanko, &root_file, &bad);
            assert!(!out.contains("judged VALID"), "{out}");
            // Whoever trusts only the live root never accepts a test seal: any test key can
            // have one made.
            let out = validate(&pyhanko, &live_root_file, &file);
            assert!(!out.contains("judged VALID"), "{out}");
            assert!(
                !out.contains("The signer's certificate is trusted."),
                "{out}"
            );
            assert!(!out.contains("The TSA certificate is trusted."), "{out}");
            let out = run(Command::new(&pyhanko)
                .args([
                    "sign",
                    "adesverify",
                    "--no-revocation-check",
                    "--trust-replace",
                    "--trust",
                ])
                .arg(&root_file)
                .arg(&file));
            assert!(
                out.contains(
                    "INTACT:TRUSTED,TIMESTAMP_TOKEN<INTACT:TRUSTED>,EXTENDED_WITH_LTA_UPDATES"
                ),
                "{out}"
            );
        }
        // Both roots are served to verifiers without a key, each with a fresh CRL, and the
        // built-in (live) time-stamp authority answers a real RFC 3161 client over HTTP.
        let served = app.get("/ca/root.pem", None).await;
        assert_eq!(served.status, 200);
        assert_eq!(served.body.as_str(), Some(live_root.as_str()));
        let served = app.get("/ca/test-root.pem", None).await;
        assert_eq!(served.status, 200);
        assert_eq!(served.body.as_str(), Some(root.as_str()));
        for path in ["/ca/root.crl", "/ca/test-root.crl"] {
            let (status, ct, _, crl) = bytes(&app, path, "none").await;
            assert_eq!((status, ct.as_str()), (200, "application/pkix-crl"));
            assert_eq!(crl[0], 0x30, "a DER CertificateList");
        }
        if let Some(pyhanko) = tool("pyhanko") {
            let stamped = dir.join("stamped.pdf");
            let out = run(Command::new(&pyhanko)
                .args(["sign", "timestamp", "--trust-replace", "--trust"])
                .arg(&live_root_file)
                .args(["--timestamp-url", &format!("{}/tsa", app.base)])
                .arg(&file)
                .arg(&stamped));
            assert!(stamped.exists(), "{out}");
            let out = run(Command::new(&pyhanko)
                .args(["sign", "validate", "--pretty-print", "--trust-replace"])
                .arg("--trust")
                .arg(&root_file)
                .arg("--trust")
                .arg(&live_root_file)
                .arg(&stamped));
            assert!(out.contains("The signature is judged VALID."), "{out}");
        }
        let refused = app
            .client
            .post(format!("{}/tsa", app.base))
            .header("content-type", "application/timestamp-query")
            .body("not a request")
            .send()
            .await
            .unwrap();
        assert_eq!(
            refused.status(),
            200,
            "RFC 3161 answers a rejection, not an HTTP error"
        );
        let body = refused.bytes().await.unwrap();
        assert!(
            body.windows(3).any(|w| w == [0x02, 0x01, 0x02]),
            "status rejection"
        );

        if let Some(out) = pdfsig_trusting(dir, &root_file, &file) {
            assert!(out.contains("Signature is Valid"), "{out}");
            assert!(out.contains("Certificate is Trusted"), "{out}");
            // The document time stamp (B-LTA) covers the whole file.
            assert!(out.contains("Total document signed"), "{out}");
            assert!(
                out.contains("Signet Document Seal (TEST)"),
                "test documents use the test certificate: {out}"
            );
            // pdfsig answers 0 even on a digest mismatch: its words are what count.
            let out = pdfsig_trusting(dir, &root_file, &bad).unwrap();
            assert!(!out.contains("Signature is Valid"), "{out}");
        }

        // The audit log as CSV: the spec's columns, every row, the seal last, no link or code.
        let (status, ct, cd, csv) =
            bytes(&app, &format!("/api/v1/documents/{id}/audit-log.csv"), &key).await;
        assert_eq!(status, 200);
        assert_eq!(ct, "text/csv; charset=utf-8");
        assert!(cd.ends_with("-audit-log.csv\""), "{cd}");
        let csv = String::from_utf8(csv).unwrap();
        let lines: Vec<&str> = csv.split("\r\n").filter(|l| !l.is_empty()).collect();
        assert_eq!(lines[0], "time,event,description,person,document,detail");
        assert!(lines[1].contains(",created,"), "{csv}");
        assert!(lines.last().unwrap().contains(",sealed,"), "{csv}");
        assert!(
            lines
                .iter()
                .any(|l| l.contains("Ada Client <ada@example.com> (client)")),
            "{csv}"
        );
        assert!(lines[1..].iter().all(|l| l.contains(&id)));
        for bad in ["http://", "https://", "token", "code="] {
            assert!(!csv.to_lowercase().contains(bad), "{bad} in {csv}");
        }
        // The same rows over GraphQL, with their chain hashes.
        let q = json!({ "query": format!("{{ documentAuditLog(id: \"{id}\") {{ event person hash }} }}") });
        let g = app.post("/graphql", &key, &[], &q.to_string()).await;
        let rows = g.body["data"]["documentAuditLog"].as_array().expect("rows");
        assert_eq!(rows.len(), lines.len() - 1, "{}", g.body);
        assert_eq!(rows.last().unwrap()["event"], "sealed");
        assert_eq!(rows.last().unwrap()["hash"].as_str().unwrap().len(), 64);
        let (status, ..) = bytes(&app, "/api/v1/documents/doc_nope/audit-log.csv", &key).await;
        assert_eq!(status, 404);
        let (status, ..) = bytes(
            &app,
            &format!("/api/v1/documents/{id}/audit-log.csv"),
            &live,
        )
        .await;
        assert_eq!(status, 404);
    }
);

#[test]
fn the_audit_chain_verifier_finds_edited_inserted_and_removed_rows() {
    use signet_documents::trail::{AuditRecord, GENESIS, chain_hash, verify_chain};
    let mut rows: Vec<AuditRecord> = Vec::new();
    let mut prev = GENESIS.to_string();
    for (i, event) in ["created", "sent", "signed", "sealed"].iter().enumerate() {
        let seq = i as i64 + 1;
        let hash = chain_hash(&prev, seq, 1000 + seq, event, "d", None, "signet", "{}");
        rows.push(AuditRecord {
            seq,
            at: 1000 + seq,
            event: event.to_string(),
            description: "d".into(),
            seat: None,
            actor: "signet".into(),
            detail: "{}".into(),
            prev_hash: std::mem::replace(&mut prev, hash.clone()),
            hash,
        });
    }
    assert_eq!(verify_chain(&rows), Ok(()));

    let mut edited = rows.clone();
    edited[2].description = "someone else signed".into();
    assert_eq!(
        verify_chain(&edited),
        Err("row 3 was edited after it was written".into())
    );

    let mut removed = rows.clone();
    removed.remove(1);
    assert!(
        verify_chain(&removed)
            .unwrap_err()
            .contains("row 2 is missing")
    );

    // An inserted row with a forged hash of its own still breaks the next row's link.
    let mut inserted = rows.clone();
    let forged_hash = chain_hash(&rows[1].hash, 3, 1, "voided", "x", None, "x", "{}");
    inserted.insert(
        2,
        AuditRecord {
            seq: 3,
            at: 1,
            event: "voided".into(),
            description: "x".into(),
            seat: None,
            actor: "x".into(),
            detail: "{}".into(),
            prev_hash: rows[1].hash.clone(),
            hash: forged_hash,
        },
    );
    for (i, r) in inserted.iter_mut().enumerate() {
        r.seq = i as i64 + 1;
    }
    assert!(verify_chain(&inserted).is_err());
}

async fn exec(app: &TestApp, sql: &str, id: &str) {
    let db = &app.ctx().db;
    db.conn
        .execute_raw(db.stmt(sql, [Sql::from(id.to_string())]))
        .await
        .unwrap();
}

async fn state(app: &TestApp, key: &str, id: &str) -> String {
    let d = app.get(&format!("/api/v1/documents/{id}"), Some(key)).await;
    d.body["state"].as_str().unwrap().to_string()
}

/// A worker that died mid-seal leaves a lease that runs out; a signed document whose job was
/// lost is found by the sweep. Both end executed, sealed once.
async fn abandoned_and_lost_jobs_are_sealed(kind: Kind) {
    let Some(app) = TestApp::start_without_workers(kind).await else {
        return;
    };
    let (_, key) = app.owner().await;
    let ctx = app.ctx();
    let db = &ctx.db;
    let mut ids = vec![];
    for _ in 0..2 {
        let made = create(&app, &key, json!({"sendNow": true})).await;
        let id = made.body["id"].as_str().unwrap().to_string();
        sign_all(&app, &key, &id).await;
        assert_eq!(state(&app, &key, &id).await, "signed");
        ids.push(id);
    }
    // The first: a worker took the job and died; its lease has run out.
    exec(&app, "UPDATE outbox SET state = 'running', attempts = 1, run_at = 0 WHERE document_id = $1 AND kind = 'seal'", &ids[0]).await;
    // The second: its job is gone altogether.
    exec(
        &app,
        "DELETE FROM outbox WHERE document_id = $1 AND kind = 'seal'",
        &ids[1],
    )
    .await;

    assert_eq!(
        signet_workers::pass::<signet_documents::seal::Seals>(ctx)
            .await
            .unwrap(),
        1
    );
    assert_eq!(state(&app, &key, &ids[0]).await, "executed");
    assert_eq!(state(&app, &key, &ids[1]).await, "signed");
    // A document signed moments ago may still have its job on the way: left alone.
    assert_eq!(seal::requeue_stuck(ctx).await.unwrap(), 0);
    exec(
        &app,
        "UPDATE documents SET updated_at = updated_at - 600000 WHERE id = $1",
        &ids[1],
    )
    .await;
    assert_eq!(seal::requeue_stuck(ctx).await.unwrap(), 1);
    assert_eq!(seal::requeue_stuck(ctx).await.unwrap(), 0, "queued once");
    assert_eq!(
        signet_workers::pass::<signet_documents::seal::Seals>(ctx)
            .await
            .unwrap(),
        1
    );
    assert_eq!(state(&app, &key, &ids[1]).await, "executed");
    // Nothing left, and nothing sealed twice.
    assert_eq!(
        signet_workers::pass::<signet_documents::seal::Seals>(ctx)
            .await
            .unwrap(),
        0
    );
    // No render worker ran: sealing rendered each document first. The render jobs still
    // queued then find the file made and end without rendering again.
    assert_eq!(
        signet_workers::pass::<signet_documents::rendering::Renders>(ctx)
            .await
            .unwrap(),
        2
    );
    assert_eq!(
        signet_workers::pass::<signet_documents::rendering::Renders>(ctx)
            .await
            .unwrap(),
        0
    );
    for id in &ids {
        let rows = db
            .conn
            .query_all_raw(db.stmt(
                "SELECT event FROM audit_events WHERE document_id = $1 AND event IN ('rendered', 'sealed') ORDER BY seq",
                [Sql::from(id.clone())],
            ))
            .await
            .unwrap();
        let events: Vec<String> = rows
            .iter()
            .map(|r| r.try_get("", "event").unwrap())
            .collect();
        assert_eq!(events, ["rendered", "sealed"], "{id}");
    }
}

/// A try that wrote its file and then failed or died before its row committed leaves a file
/// no row names. Once a later try of that job ends, such files go; the files the document
/// names stay, and a render's cleanup leaves a seal's files alone (a seal may be on its way).
async fn files_earlier_tries_left_are_removed(kind: Kind) {
    let Some(app) = TestApp::start_without_workers(kind).await else {
        return;
    };
    let (_, key) = app.owner().await;
    let ctx = app.ctx();
    let made = create(&app, &key, json!({"sendNow": true})).await;
    let id = made.body["id"].as_str().unwrap().to_string();
    let folder = format!("documents/{id}");
    let left = |name: &str| format!("{folder}/{name}");
    for name in [
        "render_01earlier.pdf",
        "render_01earlier.tmp4242",
        "sealed-seal_01early.pdf",
    ] {
        ctx.blobs
            .put(&left(name), b"%PDF-1.7 left".to_vec())
            .await
            .unwrap();
    }
    // The render job's first try died after writing its file.
    exec(
        &app,
        "UPDATE outbox SET attempts = 1 WHERE document_id = $1 AND kind = 'render'",
        &id,
    )
    .await;
    assert_eq!(
        signet_workers::pass::<signet_documents::rendering::Renders>(ctx)
            .await
            .unwrap(),
        1
    );
    // Its pictures, queued by the render, are drawn by their own job.
    assert_eq!(
        signet_workers::pass::<signet_documents::pictures::Pictures>(ctx)
            .await
            .unwrap(),
        1
    );
    let named = |col: &'static str| {
        let db = ctx.db.clone();
        let id = id.clone();
        async move {
            let row = db
                .conn
                .query_one_raw(db.stmt(
                    &format!("SELECT {col} FROM documents WHERE id = $1"),
                    [Sql::from(id)],
                ))
                .await
                .unwrap()
                .unwrap();
            row.try_get::<Option<String>>("", col).unwrap().unwrap()
        }
    };
    let rendered = named("pdf_blob").await;
    // The named render's page pictures and text (for the signing page) share its name and
    // stay; they are counted apart.
    let views = format!("{}.", rendered.trim_end_matches(".pdf"));
    let listed = |all: Vec<String>| -> Vec<String> {
        let (own, rest): (Vec<String>, Vec<String>) = all
            .into_iter()
            .partition(|k| k.starts_with(&views) && *k != rendered);
        assert_eq!(
            own.len(),
            3,
            "two pictures and the index of its one page: {own:?}"
        );
        rest
    };
    assert_eq!(
        listed(ctx.blobs.list(&folder).await.unwrap()),
        [rendered.clone(), left("sealed-seal_01early.pdf")],
        "a render removes the renders no row names, and only those"
    );

    sign_all(&app, &key, &id).await;
    ctx.blobs
        .put(&left("render_01late.pdf"), b"%PDF-1.7 left".to_vec())
        .await
        .unwrap();
    exec(
        &app,
        "UPDATE outbox SET attempts = 1 WHERE document_id = $1 AND kind = 'seal'",
        &id,
    )
    .await;
    assert_eq!(
        signet_workers::pass::<signet_documents::seal::Seals>(ctx)
            .await
            .unwrap(),
        1
    );
    let sealed = named("sealed_blob").await;
    let mut expected = vec![rendered.clone(), sealed];
    expected.sort();
    assert_eq!(listed(ctx.blobs.list(&folder).await.unwrap()), expected);
    let (status, _, _, pdf) =
        bytes(&app, &format!("/api/v1/documents/{id}/signed.pdf"), &key).await;
    assert_eq!(status, 200);
    assert!(pdf.starts_with(b"%PDF"));

    // A first, clean try lists nothing: files beside it are not its business.
    let made = create(&app, &key, json!({"sendNow": true})).await;
    let other = made.body["id"].as_str().unwrap().to_string();
    let stray = format!("documents/{other}/render_01stray.pdf");
    ctx.blobs.put(&stray, b"%PDF-1.7".to_vec()).await.unwrap();
    assert_eq!(
        signet_workers::pass::<signet_documents::rendering::Renders>(ctx)
            .await
            .unwrap(),
        1
    );
    assert!(ctx.blobs.get(&stray).await.unwrap().is_some());
}

/// The render job of each send: it stores the file people see with its page sizes and field
/// rectangles, and an audit row stating the file's SHA-256; a document ended before its
/// render gets no file; a job whose document is already rendered renders nothing.
async fn render_jobs_render_each_sent_document_once(kind: Kind) {
    let Some(app) = TestApp::start_without_workers(kind).await else {
        return;
    };
    let (_, key) = app.owner().await;
    let ctx = app.ctx();
    let db = &ctx.db;
    let sent = create(&app, &key, json!({"sendNow": true})).await;
    assert_eq!(sent.status, 201, "{}", sent.body);
    assert_eq!(sent.body["state"], "sent");
    assert!(sent.body["pageCount"].is_null(), "not rendered yet");
    let id = sent.body["id"].as_str().unwrap().to_string();
    let voided = create(&app, &key, json!({"sendNow": true})).await;
    let gone = voided.body["id"].as_str().unwrap().to_string();
    let r = app
        .post(&format!("/api/v1/documents/{gone}/void"), &key, &[], "{}")
        .await;
    assert_eq!(r.status, 200, "{}", r.body);

    assert_eq!(
        signet_workers::pass::<signet_documents::rendering::Renders>(ctx)
            .await
            .unwrap(),
        2
    );
    assert_eq!(
        signet_workers::pass::<signet_documents::rendering::Renders>(ctx)
            .await
            .unwrap(),
        0,
        "each job ends"
    );
    let shown = app
        .get(&format!("/api/v1/documents/{id}"), Some(&key))
        .await;
    assert!(
        shown.body["pageCount"].as_i64().unwrap() >= 1,
        "{}",
        shown.body
    );
    let row = db
        .conn
        .query_one_raw(db.stmt(
            "SELECT pdf_blob FROM documents WHERE id = $1",
            [Sql::from(id.clone())],
        ))
        .await
        .unwrap()
        .unwrap();
    let blob: String = row.try_get("", "pdf_blob").unwrap();
    let pdf = ctx.blobs.get(&blob).await.unwrap().unwrap();
    let audit = db
        .conn
        .query_all_raw(db.stmt(
            "SELECT detail FROM audit_events WHERE document_id = $1 AND event = 'rendered'",
            [Sql::from(id.clone())],
        ))
        .await
        .unwrap();
    assert_eq!(audit.len(), 1);
    let detail: Value =
        serde_json::from_str(&audit[0].try_get::<String>("", "detail").unwrap()).unwrap();
    assert_eq!(
        detail["sha256"],
        sha256_hex(&pdf),
        "the audit row states the file's hash"
    );
    let fields = db
        .conn
        .query_all_raw(db.stmt(
            "SELECT page, width FROM fields WHERE document_id = $1",
            [Sql::from(id.clone())],
        ))
        .await
        .unwrap();
    assert!(!fields.is_empty());
    for f in &fields {
        assert!(f.try_get::<i32>("", "page").unwrap() >= 1);
        assert!(f.try_get::<f64>("", "width").unwrap() > 0.0);
    }
    let row = db
        .conn
        .query_one_raw(db.stmt(
            "SELECT pdf_blob FROM documents WHERE id = $1",
            [Sql::from(gone.clone())],
        ))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        row.try_get::<Option<String>>("", "pdf_blob").unwrap(),
        None,
        "voided first"
    );
    assert!(
        !rendering::render_document(ctx, &id, None).await.unwrap(),
        "rendered once"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn render_jobs_render_each_sent_document_once_sqlite() {
    render_jobs_render_each_sent_document_once(Kind::Sqlite).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn render_jobs_render_each_sent_document_once_postgres_redis() {
    render_jobs_render_each_sent_document_once(Kind::PostgresRedis).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn files_earlier_tries_left_are_removed_sqlite() {
    files_earlier_tries_left_are_removed(Kind::Sqlite).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn files_earlier_tries_left_are_removed_postgres_redis() {
    files_earlier_tries_left_are_removed(Kind::PostgresRedis).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn abandoned_and_lost_sealing_jobs_are_sealed_sqlite() {
    abandoned_and_lost_jobs_are_sealed(Kind::Sqlite).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn abandoned_and_lost_sealing_jobs_are_sealed_postgres_redis() {
    abandoned_and_lost_jobs_are_sealed(Kind::PostgresRedis).await;
}

/// An operator's time-stamp authority with its first address down: the fallback stamps the
/// seal, and its certificates travel in the file.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_external_time_stamp_authority_and_its_fallback_stamp_the_seal() {
    // Another Signet plays the external authority; the first URL is a port nobody listens on.
    let other = TestApp::start(Kind::Sqlite).await.unwrap();
    let closed = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        format!("http://{}/tsa", l.local_addr().unwrap())
    };
    let opts = Options {
        tsa_urls: Some((closed, format!("{}/tsa", other.base))),
        no_worker: true,
        ..Options::default()
    };
    let app = TestApp::start_with(Kind::Sqlite, opts).await.unwrap();
    let (_, key) = app.owner().await;
    let made = create(&app, &key, json!({"sendNow": true})).await;
    let id = made.body["id"].as_str().unwrap().to_string();
    sign_all(&app, &key, &id).await;
    executed(&app, &key, &id).await;
    let (status, _, _, pdf) =
        bytes(&app, &format!("/api/v1/documents/{id}/signed.pdf"), &key).await;
    assert_eq!(status, 200);

    let dir = app.dir.path();
    let file = dir.join("sealed.pdf");
    std::fs::write(&file, &pdf).unwrap();
    let ours = dir.join("ours.pem");
    // A test document: our test root issued its sealing certificate.
    std::fs::write(
        &ours,
        signet_documents::services(app.ctx())
            .authority
            .test_root_pem(),
    )
    .unwrap();
    let theirs = dir.join("theirs.pem");
    std::fs::write(
        &theirs,
        signet_documents::services(other.ctx()).authority.root_pem(),
    )
    .unwrap();
    assert_ne!(
        signet_documents::services(app.ctx()).authority.root_pem(),
        signet_documents::services(other.ctx()).authority.root_pem()
    );
    if let Some(pyhanko) = tool("pyhanko") {
        let out = run(Command::new(&pyhanko)
            .args(["sign", "validate", "--pretty-print", "--trust-replace"])
            .arg("--trust")
            .arg(&ours)
            .arg("--trust")
            .arg(&theirs)
            .arg(&file));
        assert!(out.contains("The signature is judged VALID."), "{out}");
        assert!(out.contains("The TSA certificate is trusted."), "{out}");
        // With our root alone the time stamp is not ours: the other authority made it.
        let out = validate(&pyhanko, &ours, &file);
        assert!(!out.contains("The TSA certificate is trusted."), "{out}");
    }
}

/// A PKCS#12 setting that cannot be used stops start-up with a message naming it.
#[test]
fn an_unusable_pkcs12_file_is_named_at_start() {
    let dir = tempfile::tempdir().unwrap();
    let signet = |file: &str| {
        let out = Command::new(env!("CARGO_BIN_EXE_signet"))
            .args(["admin", "ca", "export"])
            .env("SIGNET_DATA_DIR", dir.path())
            .env("SIGNET_SEAL_PKCS12", file)
            // Digits only: read as written, never taken for a number or printed.
            .env("SIGNET_SEAL_PKCS12_PASSWORD", "123456")
            .current_dir(dir.path())
            .output()
            .unwrap();
        (
            out.status.success(),
            String::from_utf8_lossy(&out.stderr).to_string(),
        )
    };
    let (ok, err) = signet("/nonexistent/seal.p12");
    assert!(!ok);
    assert!(
        err.contains("seal_pkcs12 (SIGNET_SEAL_PKCS12): cannot read"),
        "{err}"
    );
    let junk = dir.path().join("junk.p12");
    std::fs::write(&junk, b"not a pkcs12 file").unwrap();
    let (ok, err) = signet(junk.to_str().unwrap());
    assert!(!ok);
    assert!(err.contains("cannot be opened"), "{err}");
    assert!(!err.contains("123456"), "{err}");
}

/// Every process of an installation seals under one root: a process started with another
/// certificate authority refuses to run, and says which setting to mend.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_process_with_another_certificate_authority_refuses_to_start() {
    let app = TestApp::start(Kind::Sqlite).await.unwrap();
    let (ws, _) = app.owner().await;
    let run = |ca_dir: Option<&Path>| {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_signet"));
        cmd.args(["admin", "key", "list", "--workspace", &ws])
            .envs(app.env())
            .env_remove("REDIS_URL")
            .current_dir(app.dir.path());
        if let Some(d) = ca_dir {
            cmd.env("SIGNET_CA_DIR", d);
        }
        let out = cmd.output().unwrap();
        (
            out.status.success(),
            String::from_utf8_lossy(&out.stderr).to_string(),
        )
    };
    let (ok, err) = run(None);
    assert!(ok, "the same ca_dir: {err}");
    let other = app.dir.path().join("other-ca");
    let (ok, err) = run(Some(&other));
    assert!(!ok);
    assert!(
        err.contains("ca_dir (SIGNET_CA_DIR)") && err.contains("must share one ca_dir"),
        "{err}"
    );
}
