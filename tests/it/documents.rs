//! The document lifecycle over REST on both backend sets: drafts, checks, sends, signing order,
//! reminders, voiding, revising, test mode, usage and approvals.

use serde_json::{Value, json};
use signet_core::Mode;
use signet_core::plans::Plan;
use signet_storage::sea_orm::{ConnectionTrait, Value as Sql};

use crate::harness::{Answer, TestApp, busy, claim_on, replayed, stored};
use crate::{both, both_quiet};

pub fn source() -> Value {
    json!({"type": "doc", "content": [
        {"type": "heading", "attrs": {"level": 1}, "content": [{"type": "text", "text": "Services agreement"}]},
        {"type": "paragraph", "content": [
            {"type": "text", "text": "Between "},
            {"type": "variableChip", "attrs": {"name": "org.name"}},
            {"type": "text", "text": " and "},
            {"type": "variableChip", "attrs": {"name": "client.name"}},
            {"type": "text", "text": " for a fee of "},
            {"type": "variableChip", "attrs": {"name": "custom.fee"}},
            {"type": "text", "text": "."}
        ]},
        {"type": "heading", "attrs": {"level": 2, "audience": "sender"}, "content": [{"type": "text", "text": "Internal"}]},
        {"type": "paragraph", "content": [{"type": "text", "text": "Margin 40%"}]},
        {"type": "heading", "attrs": {"level": 2}, "content": [{"type": "text", "text": "Signatures"}]},
        {"type": "paragraph", "content": [
            {"type": "text", "text": "Start: "},
            {"type": "fieldTag", "attrs": {"name": "Start date", "type": "date", "role": "client"}}
        ]},
        {"type": "signatureBlock", "attrs": {"role": "client"}},
        {"type": "signatureBlock", "attrs": {"role": "provider"}}
    ]})
}

pub fn body(extra: Value) -> String {
    let mut b = json!({
        "title": "Services agreement",
        "source": source(),
        "people": [
            {"name": "Ada Client", "email": "ada@example.com", "role": "client", "order": 1},
            {"name": "Bob Provider", "email": "bob@example.com", "role": "provider", "order": 2},
            {"name": "Cy Copy", "email": "cy@example.com", "action": "cc"}
        ],
        "variableValues": {"fee": "1,000 EUR"},
        "metadata": {"crm.id": "42"},
        "externalId": "deal-42"
    });
    if let Value::Object(extra) = extra {
        for (k, v) in extra {
            b[k] = v;
        }
    }
    b.to_string()
}

fn idem() -> String {
    format!("idem-{}", signet_core::ids::new_id("k"))
}

pub async fn create(app: &TestApp, key: &str, extra: Value) -> Answer {
    app.post(
        "/api/v1/documents",
        key,
        &[("idempotency-key", &idem())],
        &body(extra),
    )
    .await
}

async fn act(app: &TestApp, key: &str, id: &str, action: &str, body: Value) -> Answer {
    app.post(
        &format!("/api/v1/documents/{id}/{action}"),
        key,
        &[("idempotency-key", &idem())],
        &body.to_string(),
    )
    .await
}

/// A document's audit events in order, after checking that each row's `prev_hash` is the
/// hash of the row before (the first's, the genesis hash).
pub async fn audit_chain(app: &TestApp, id: &str) -> Vec<String> {
    let db = &app.ctx().db;
    let rows = db
        .conn
        .query_all_raw(db.stmt(
            "SELECT event, prev_hash, hash FROM audit_events WHERE document_id = $1 ORDER BY seq",
            [Sql::from(id)],
        ))
        .await
        .unwrap();
    let mut prev = signet_documents::trail_genesis().to_string();
    let mut events = Vec::new();
    for r in &rows {
        assert_eq!(r.try_get::<String>("", "prev_hash").unwrap(), prev);
        prev = r.try_get("", "hash").unwrap();
        events.push(r.try_get::<String>("", "event").unwrap());
    }
    events
}

/// A sent document once its render job has run (in an app without background workers):
/// its `pageCount` is there.
pub async fn rendered(app: &TestApp, key: &str, id: &str) -> Value {
    app.run_pending_jobs().await;
    let r = app.get(&format!("/api/v1/documents/{id}"), Some(key)).await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert!(r.body["pageCount"].is_i64(), "not rendered: {}", r.body);
    r.body
}

pub fn person<'a>(doc: &'a Value, seat: &str) -> &'a Value {
    doc["people"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["seat"] == seat)
        .unwrap()
}

pub async fn outbox(app: &TestApp, doc: &str) -> Vec<(String, Value, String)> {
    let db = &app.ctx().db;
    db.conn
        .query_all_raw(db.stmt(
            "SELECT kind, payload, state FROM outbox WHERE document_id = $1 ORDER BY id",
            [Sql::from(doc)],
        ))
        .await
        .unwrap()
        .iter()
        .map(|r| {
            let payload: String = r.try_get("", "payload").unwrap();
            (
                r.try_get("", "kind").unwrap(),
                serde_json::from_str(&payload).unwrap(),
                r.try_get("", "state").unwrap(),
            )
        })
        .collect()
}

fn events(jobs: &[(String, Value, String)]) -> Vec<String> {
    jobs.iter()
        .filter(|j| j.0 == "event")
        .map(|j| j.1["type"].as_str().unwrap().to_string())
        .collect()
}

/// The seats the jobs email (queued, in the mail worker's hands, or sent; not withdrawn).
pub fn emails(jobs: &[(String, Value, String)], kind: &str) -> Vec<String> {
    jobs.iter()
        .filter(|j| j.0 == "email" && j.1["kind"] == kind && j.2 != "cancelled")
        .map(|j| j.1["seat"].as_str().unwrap().to_string())
        .collect()
}

// Field names are the same field when equal but for ASCII case, everywhere: in the check,
// the stored rows and the renderer's grouping. Beyond ASCII, case makes another field, and
// the document still renders (a check and a renderer that disagreed left it unrendered).
both_quiet!(
    names_equal_but_for_case_render_as_the_check_stored_them,
    |app| {
        let (_, key) = app.owner().await;
        let tag = |name: &str| json!({"type": "fieldTag", "attrs": {"name": name, "type": "text", "role": "client"}});
        let mut src = source();
        src["content"]
        .as_array_mut()
        .unwrap()
        .insert(5, json!({"type": "paragraph", "content": [
            tag("Äpfel"), {"type": "text", "text": " and "}, tag("äpfel"),
            {"type": "text", "text": " and "}, tag("Note"), {"type": "text", "text": " and "}, tag("NOTE")
        ]}));
        let made = create(&app, &key, json!({"sendNow": true, "source": src})).await;
        assert_eq!(made.status, 201, "{}", made.body);
        let id = made.body["id"].as_str().unwrap();
        rendered(&app, &key, id).await;
        let db = &app.ctx().db;
        let names: Vec<String> = db
        .conn
        .query_all_raw(db.stmt(
            "SELECT name FROM fields WHERE document_id = $1 AND name IN ('Äpfel', 'äpfel', 'Note', 'NOTE') ORDER BY position",
            [id.into()],
        ))
        .await
        .unwrap()
        .iter()
        .map(|r| r.try_get::<String>("", "name").unwrap())
        .collect();
        assert_eq!(names, ["Äpfel", "äpfel", "Note"]);
        let areas: Option<String> = db
            .conn
            .query_one_raw(db.stmt(
                "SELECT areas FROM fields WHERE document_id = $1 AND name = 'Note'",
                [id.into()],
            ))
            .await
            .unwrap()
            .unwrap()
            .try_get("", "areas")
            .unwrap();
        assert!(
            areas.is_some_and(|a| a.contains("\"page\"")),
            "the second Note is its other place"
        );
    }
);

both_quiet!(draft_send_and_signing_order_through_to_signed, |app| {
    let (_, key) = app.owner().await;
    let made = create(
        &app,
        &key,
        json!({"send": {"signingOrder": true, "reminderDays": [3, 1], "expiryDays": 30}}),
    )
    .await;
    assert_eq!(made.status, 201, "{}", made.body);
    let doc = made.body.clone();
    let id = doc["id"].as_str().unwrap();
    assert!(id.starts_with("doc_"));
    assert_eq!(doc["state"], "draft");
    assert_eq!(doc["test"], true);
    assert_eq!(doc["externalId"], "deal-42");
    assert_eq!(doc["metadata"]["crm.id"], "42");
    assert_eq!(person(&doc, "client")["status"], "waiting");
    assert_eq!(
        person(&doc, "signer_3")["name"],
        "Cy Copy",
        "no role: seat signer_<n>"
    );

    let sent = act(&app, &key, id, "send", json!({})).await;
    assert_eq!(sent.status, 201, "{}", sent.body);
    assert_eq!(sent.body["state"], "sent");
    // The send answers at once; the file people see is rendered just after it.
    let shown = rendered(&app, &key, id).await;
    assert!(shown["pageCount"].as_i64().unwrap() >= 1);
    assert!(sent.body["expiresAt"].is_string());
    assert_eq!(
        person(&sent.body, "client")["status"],
        "invited",
        "order 1 first"
    );
    assert_eq!(
        person(&sent.body, "provider")["status"],
        "waiting",
        "order 2 waits"
    );
    assert_eq!(
        person(&sent.body, "signer_3")["status"],
        "waiting",
        "cc is never invited to sign"
    );
    let jobs = outbox(&app, id).await;
    assert_eq!(events(&jobs), ["documents.document.sent"]);
    // An email job names who and what; links and codes are minted only when the email goes.
    for (kind, payload, _) in jobs.iter().filter(|j| j.0 == "email") {
        let mut keys: Vec<&str> = payload
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        keys.sort();
        assert_eq!(
            keys,
            ["documentId", "kind", "locale", "personId", "seat", "test"],
            "{kind}"
        );
    }
    assert_eq!(emails(&jobs, "invitation"), ["client"]);
    let event = &jobs.iter().find(|j| j.0 == "event").unwrap().1;
    assert_eq!(event["data"]["document"]["metadata"]["crm.id"], "42");
    assert_eq!(event["test"], true);

    // Not their turn; then the first signs and the second is invited.
    let early = act(&app, &key, id, "test-sign", json!({"seat": "provider"})).await;
    assert_eq!(early.status, 409, "{}", early.body);
    assert!(
        early.body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("not seat 'provider''s turn")
    );
    let one = act(&app, &key, id, "test-sign", json!({"seat": "client"})).await;
    assert_eq!(one.status, 200, "{}", one.body);
    assert_eq!(one.body["state"], "signed");
    assert_eq!(person(&one.body, "client")["status"], "signed");
    assert!(person(&one.body, "client")["signedAt"].is_string());
    assert_eq!(person(&one.body, "provider")["status"], "invited");
    let again = act(&app, &key, id, "test-sign", json!({"seat": "client"})).await;
    assert_eq!(again.status, 409);
    let cc = act(&app, &key, id, "test-sign", json!({"seat": "signer_3"})).await;
    assert_eq!(cc.status, 409, "{}", cc.body);
    let nobody = act(&app, &key, id, "test-sign", json!({"seat": "nobody"})).await;
    assert_eq!(nobody.status, 400);
    assert!(
        nobody.body["error"]["message"]
            .as_str()
            .unwrap()
            .starts_with("seat: ")
    );

    let two = act(&app, &key, id, "test-sign", json!({"seat": "provider"})).await;
    assert_eq!(two.status, 200);
    assert_eq!(two.body["state"], "signed", "waits in signed until sealed");
    let jobs = outbox(&app, id).await;
    // The sealing worker may already have sealed it (tests/it/sealing.rs follows that part).
    assert_eq!(
        events(&jobs)[..3],
        [
            "documents.document.sent",
            "documents.document.signed",
            "documents.document.signed"
        ]
    );
    assert_eq!(
        jobs.iter().filter(|j| j.0 == "seal").count(),
        1,
        "sealing queued once"
    );
    assert_eq!(emails(&jobs, "invitation"), ["client", "provider"]);

    // Nobody left to remind, and a finished document cannot be voided or sent.
    let r = act(&app, &key, id, "remind", json!({})).await;
    assert_eq!(r.status, 409, "{}", r.body);
    assert_eq!(act(&app, &key, id, "send", json!({})).await.status, 409);

    // The audit trail is a hash chain.
    let db = &app.ctx().db;
    let names = audit_chain(&app, id).await;
    assert_eq!(names.first().map(String::as_str), Some("created"));
    assert!(
        names.contains(&"consented".to_string())
            && matches!(
                names.last().map(String::as_str),
                Some("all_signed" | "sealed")
            ),
        "{names:?}"
    );

    // Fields carry their page rectangles; the sender-only words never reached a signer.
    let fields = db.conn.query_all_raw(db.stmt("SELECT name, page, x, y, width, height, value FROM fields WHERE document_id = $1 ORDER BY position", [Sql::from(id)])).await.unwrap();
    let names: Vec<String> = fields
        .iter()
        .map(|r| r.try_get("", "name").unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "Start date",
            "client signature",
            "client date signed",
            "provider signature",
            "provider date signed"
        ]
    );
    for f in &fields {
        assert!(
            f.try_get::<f64>("", "width").unwrap() > 0.0
                && f.try_get::<i32>("", "page").unwrap() >= 1
        );
        assert!(
            f.try_get::<Option<String>>("", "value").unwrap().is_some(),
            "test signature fills every field"
        );
    }
    let blob: String = db
        .conn
        .query_one_raw(db.stmt(
            "SELECT pdf_blob FROM documents WHERE id = $1",
            [Sql::from(id)],
        ))
        .await
        .unwrap()
        .unwrap()
        .try_get("", "pdf_blob")
        .unwrap();
    assert!(blob.starts_with(&format!("documents/{id}/")), "{blob}");
    let pdf = app.ctx().blobs.get(&blob).await.unwrap().unwrap();
    assert!(pdf.starts_with(b"%PDF-"));
    // The words marked for the sender are not in the file people are sent.
    if let Some(text) = crate::sealing::pdf_text(&pdf) {
        assert!(text.contains("Services agreement"), "{text}");
        assert!(
            !text.contains("Margin 40%") && !text.contains("Internal"),
            "{text}"
        );
    }
});

both!(bad_sources_and_bodies_are_refused_with_their_path, |app| {
    let (_, key) = app.owner().await;
    let mut src = source();
    src["content"][5]["content"][1]["attrs"]["role"] = json!("signer_9");
    let a = create(&app, &key, json!({"source": src})).await;
    assert_eq!(a.status, 400);
    assert_eq!(a.body["error"]["kind"], "invalid");
    let msg = a.body["error"]["message"].as_str().unwrap();
    assert!(
        msg.starts_with("source.content[5].content[1].attrs.role: unknown role 'signer_9'"),
        "{msg}"
    );

    let a = create(&app, &key, json!({"variableValues": {}})).await;
    assert!(
        a.body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("'custom.fee' has no answer"),
        "{}",
        a.body
    );
    let a = create(
        &app,
        &key,
        json!({"people": [{"name": "A", "email": "not-an-email", "role": "client"}]}),
    )
    .await;
    assert_eq!(
        a.body["error"]["message"],
        "people[0].email: 'not-an-email' is not an email address"
    );
    let a = create(
        &app,
        &key,
        json!({"people": [{"name": "A", "email": "a@x.com,b@y.com", "role": "client"}]}),
    )
    .await;
    assert_eq!(
        a.body["error"]["message"],
        "people[0].email: 'a@x.com,b@y.com' is not an email address"
    );
    let a = create(
        &app,
        &key,
        json!({"title": "Line one\nBcc: evil@example.com"}),
    )
    .await;
    assert_eq!(
        a.body["error"]["message"],
        "title: must be one line, without control characters"
    );
    let a = create(
        &app,
        &key,
        json!({"people": [{"name": "A", "email": "a@x.com", "role": "sender"}]}),
    )
    .await;
    assert!(
        a.body["error"]["message"]
            .as_str()
            .unwrap()
            .starts_with("people[0].role: 'sender' names merge chips"),
        "{}",
        a.body
    );
    let a = create(&app, &key, json!({"facts": {"org": {"name": ""}}})).await;
    assert_eq!(
        a.body["error"]["message"],
        "facts.org.name: must not be empty"
    );
    let cc_only = json!({"type": "doc", "content": [{"type": "paragraph", "content": [{"type": "text", "text": "FYI"}]}]});
    let a = create(&app, &key, json!({"source": cc_only, "people": [{"name": "A", "email": "a@x.com", "action": "cc"}], "variableValues": {}})).await;
    assert!(
        a.body["error"]["message"]
            .as_str()
            .unwrap()
            .starts_with("people: nobody signs or approves"),
        "{}",
        a.body
    );
    let a = create(&app, &key, json!({"paper": "legal"})).await;
    assert_eq!(a.body["error"]["message"], "paper: must be letter or a4");
    let a = create(&app, &key, json!({"send": {"expiryDays": 0}})).await;
    assert_eq!(
        a.body["error"]["message"],
        "send.expiryDays: must be from 1 to 365"
    );
    let a = create(&app, &key, json!({"send": {"language": "xx"}})).await;
    assert!(
        a.body["error"]["message"]
            .as_str()
            .unwrap()
            .starts_with("send.language: must be one of en, es")
    );
    let a = create(&app, &key, json!({"titel": "typo"})).await;
    assert!(
        a.body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("unknown field `titel`")
    );
    let a = app
        .post("/api/v1/documents", &key, &[], &body(json!({})))
        .await;
    assert_eq!(a.status, 400, "Idempotency-Key is required: {}", a.body);
    // Nothing was half-written.
    let list = app.get("/api/v1/documents", Some(&key)).await;
    assert_eq!(
        list.body["data"].as_array().unwrap().len(),
        0,
        "{}",
        list.body
    );
});

both!(check_tells_problems_and_warnings, |app| {
    let (_, key) = app.owner().await;
    let mut src = source();
    src["content"][3]["content"] = json!([{"type": "fieldTag", "attrs": {"name": "Secret", "type": "text", "role": "client"}}]);
    src["content"][1]["content"][1]["attrs"]["name"] = json!("weather.today");
    let a = app
        .post(
            "/api/v1/documents/check",
            &key,
            &[],
            &json!({
                "source": src,
                "people": [{"name": "Ada", "email": "ada@example.com", "role": "client"}],
                "requireSignature": true
            })
            .to_string(),
        )
        .await;
    assert_eq!(a.status, 200, "{}", a.body);
    assert_eq!(a.body["ok"], false);
    let problems: Vec<String> = a.body["problems"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            format!(
                "{}: {}",
                p["path"].as_str().unwrap(),
                p["message"].as_str().unwrap()
            )
        })
        .collect();
    assert!(
        problems.iter().any(|p| p
            .starts_with("source.content[1].content[1].attrs.name: unknown chip 'weather.today'")),
        "{problems:?}"
    );
    // The provider's signature block is the eighth block; one problem for it, not one for
    // each of the two fields it stands for.
    let provider: Vec<&String> = problems
        .iter()
        .filter(|p| p.contains("unknown role 'provider'"))
        .collect();
    assert_eq!(provider.len(), 1, "{problems:?}");
    assert!(
        provider[0].starts_with("source.content[7].attrs.role: unknown role 'provider'"),
        "{problems:?}"
    );
    assert!(
        problems
            .iter()
            .any(|p| p.contains("'custom.fee' has no answer")),
        "{problems:?}"
    );
    assert!(
        a.body["warnings"][0]["message"]
            .as_str()
            .unwrap()
            .contains("sender-only section")
    );
    assert_eq!(a.body["roles"], json!(["client", "provider"]));
    assert_eq!(a.body["questions"], json!(["fee"]));

    let t = app
        .post(
            "/api/v1/documents/check",
            &key,
            &[],
            &json!({"source": source(), "forTemplate": true}).to_string(),
        )
        .await;
    assert_eq!(t.body["ok"], true, "{}", t.body);

    // A source of the wrong shape is a problem with its path; a body that is not a check
    // request is refused in the error shape, naming the field; a key without
    // documents:read, or none, gets 401.
    let shape = app
        .post(
            "/api/v1/documents/check",
            &key,
            &[],
            &json!({"source": {"type": "doc", "content": "words"}}).to_string(),
        )
        .await;
    assert_eq!(shape.status, 200, "{}", shape.body);
    assert_eq!(shape.body["problems"][0]["path"], "source.content");
    let bad = app
        .post(
            "/api/v1/documents/check",
            &key,
            &[],
            &json!({"source": source(), "colour": "red"}).to_string(),
        )
        .await;
    assert_eq!(bad.status, 400, "{}", bad.body);
    assert_eq!(bad.body["error"]["kind"], "invalid");
    assert!(
        bad.body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("colour"),
        "{}",
        bad.body
    );
    let (ws, _) = app.owner().await;
    let narrow = app.key(&ws, Mode::Test, &["account:read"]).await;
    let check = json!({"source": source()}).to_string();
    let refused = app
        .post("/api/v1/documents/check", &narrow, &[], &check)
        .await;
    assert_eq!(refused.status, 401, "{}", refused.body);
    assert_eq!(refused.body["error"]["kind"], "unauthenticated");
    let anonymous = app
        .send(
            app.client
                .post(format!("{}/api/v1/documents/check", app.base))
                .header("content-type", "application/json")
                .body(check),
        )
        .await;
    assert_eq!(anonymous.status, 401);
});

both!(lists_filter_page_and_keep_modes_apart, |app| {
    let (ws, test_key) = app.owner().await;
    let live_key = app
        .key(&ws, Mode::Live, &["documents:read", "documents:write"])
        .await;
    let mut ids = vec![];
    for i in 0..3 {
        let a = create(&app, &test_key, json!({"externalId": format!("e{i}"), "metadata": {"crm.id": format!("{}", i % 2), "team": "x"}})).await;
        ids.push(a.body["id"].as_str().unwrap().to_string());
    }
    let live = create(&app, &live_key, json!({})).await;
    assert_eq!(live.body["test"], false);
    let live_id = live.body["id"].as_str().unwrap();

    let all = app.get("/api/v1/documents?limit=2", Some(&test_key)).await;
    let got: Vec<&str> = all.body["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["id"].as_str().unwrap())
        .collect();
    assert_eq!(got, [ids[2].as_str(), ids[1].as_str()], "newest first");
    let cursor = all.body["page"]["nextCursor"].as_str().unwrap();
    let rest = app
        .get(
            &format!("/api/v1/documents?limit=2&cursor={cursor}"),
            Some(&test_key),
        )
        .await;
    assert_eq!(rest.body["data"][0]["id"], ids[0].as_str());
    assert!(rest.body["page"]["nextCursor"].is_null());

    let m = app
        .get(
            "/api/v1/documents?metadata[crm.id]=0&metadata[team]=x",
            Some(&test_key),
        )
        .await;
    assert_eq!(m.body["data"].as_array().unwrap().len(), 2, "{}", m.body);
    let e = app
        .get("/api/v1/documents?externalId=e1", Some(&test_key))
        .await;
    assert_eq!(e.body["data"][0]["id"], ids[1].as_str());
    let s = app
        .get("/api/v1/documents?state=sent", Some(&test_key))
        .await;
    assert_eq!(s.body["data"].as_array().unwrap().len(), 0);
    let bad = app
        .get("/api/v1/documents?state=nope", Some(&test_key))
        .await;
    assert_eq!(bad.status, 400);
    assert!(
        bad.body["error"]["message"]
            .as_str()
            .unwrap()
            .starts_with("state: unknown state 'nope'")
    );
    let bad = app
        .get("/api/v1/documents?color=red", Some(&test_key))
        .await;
    assert_eq!(bad.status, 400);

    // Each mode sees only its own documents; the other mode's answer 404.
    assert_eq!(
        app.get(&format!("/api/v1/documents/{live_id}"), Some(&test_key))
            .await
            .status,
        404
    );
    assert_eq!(
        app.get(&format!("/api/v1/documents/{}", ids[0]), Some(&live_key))
            .await
            .status,
        404
    );
    let lives = app.get("/api/v1/documents", Some(&live_key)).await;
    assert_eq!(lives.body["data"].as_array().unwrap().len(), 1);
    assert_eq!(
        app.get("/api/v1/documents/doc_nope", Some(&test_key))
            .await
            .status,
        404
    );
    let src = app
        .get(
            &format!("/api/v1/documents/{}/source", ids[0]),
            Some(&test_key),
        )
        .await;
    assert_eq!(src.status, 200);
    assert_eq!(src.body["source"], source());
    assert_eq!(src.body["variableValues"]["fee"], "1,000 EUR");
    assert_eq!(src.body["people"][0]["role"], "client");
});

both!(remind_void_and_revise_follow_the_state_machine, |app| {
    let (_, key) = app.owner().await;
    let draft = create(&app, &key, json!({})).await.body;
    let id = draft["id"].as_str().unwrap().to_string();
    assert_eq!(
        act(&app, &key, &id, "remind", json!({})).await.status,
        409,
        "a draft has nobody waiting"
    );
    assert_eq!(
        act(&app, &key, &id, "void", json!({})).await.status,
        409,
        "a draft is not out for signature"
    );

    // Revise: a new id, the old one gone, role words renamed.
    let mut src = source();
    let text = serde_json::to_string(&src)
        .unwrap()
        .replace("\"client\"", "\"customer\"");
    src = serde_json::from_str(&text).unwrap();
    src["content"][1]["content"][3]["attrs"]["name"] = json!("customer.name");
    let revise_body = json!({"source": src, "roleMap": {"client": "customer"}}).to_string();
    let (revise_url, revise_key) = (format!("/api/v1/documents/{id}/revise"), idem());
    let headers = [("idempotency-key", revise_key.as_str())];
    let rev = app.post(&revise_url, &key, &headers, &revise_body).await;
    assert_eq!(rev.status, 201, "{}", rev.body);
    let new_id = rev.body["id"].as_str().unwrap().to_string();
    // A retry with the same key gets the first answer, though the old draft is gone.
    let again = app.post(&revise_url, &key, &headers, &revise_body).await;
    assert_eq!(again.status, 201, "{}", again.body);
    assert_eq!(again.body, rev.body);
    // Nothing of the old draft is left behind: its people, fields and metadata went with it.
    let db = &app.ctx().db;
    for table in ["people", "fields", "document_metadata"] {
        let left = db
            .conn
            .query_all_raw(db.stmt(
                &format!("SELECT document_id FROM {table} WHERE document_id = $1"),
                [Sql::from(id.as_str())],
            ))
            .await
            .unwrap();
        assert!(
            left.is_empty(),
            "{table} rows of the revised draft are left"
        );
    }
    assert_ne!(new_id, id);
    assert!(person(&rev.body, "customer")["email"] == "ada@example.com");
    assert_eq!(rev.body["externalId"], "deal-42");
    assert_eq!(
        app.get(&format!("/api/v1/documents/{id}"), Some(&key))
            .await
            .status,
        404
    );
    let unmapped = act(&app, &key, &new_id, "revise", json!({"source": source()})).await;
    assert_eq!(
        unmapped.status, 400,
        "roles no longer match: {}",
        unmapped.body
    );

    // No signing order: everyone is invited at once; remind one seat, everyone, then void.
    let sent = act(&app, &key, &new_id, "send", json!({})).await;
    assert_eq!(sent.status, 201, "{}", sent.body);
    assert_eq!(person(&sent.body, "provider")["status"], "invited");
    // Rendered and its pages drawn (by this app's workers), so the invitations go out: they
    // wait for the pages.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while outbox(&app, &new_id)
        .await
        .iter()
        .any(|j| j.0 == "email" && j.1["kind"] == "invitation" && j.2 != "done")
    {
        assert!(
            std::time::Instant::now() < deadline,
            "the invitations did not go out"
        );
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    let r = act(&app, &key, &new_id, "remind", json!({"seat": "provider"})).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let r = app
        .post(&format!("/api/v1/documents/{new_id}/remind"), &key, &[], "")
        .await;
    assert_eq!(r.status, 200, "an empty body reminds everyone: {}", r.body);
    assert_eq!(
        act(&app, &key, &new_id, "remind", json!({"seat": "nobody"}))
            .await
            .status,
        400
    );
    assert_eq!(
        act(&app, &key, &new_id, "revise", json!({"source": src}))
            .await
            .status,
        409,
        "only drafts are revised"
    );
    let jobs = outbox(&app, &new_id).await;
    let mut reminded = emails(&jobs, "reminder");
    reminded.sort();
    // Everyone waiting, less the provider reminded a moment before: once an hour a person.
    assert_eq!(reminded, ["customer", "provider"]);

    let v = act(
        &app,
        &key,
        &new_id,
        "void",
        json!({"reason": "terms changed"}),
    )
    .await;
    assert_eq!(v.status, 200, "{}", v.body);
    assert_eq!(v.body["state"], "voided");
    assert_eq!(v.body["reason"], "terms changed");
    let again = act(&app, &key, &new_id, "void", json!({})).await;
    assert_eq!(again.status, 409);
    assert!(
        again.body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("is voided")
    );
    assert_eq!(
        act(&app, &key, &new_id, "remind", json!({})).await.status,
        409
    );
    assert_eq!(
        act(
            &app,
            &key,
            &new_id,
            "test-sign",
            json!({"seat": "customer"})
        )
        .await
        .status,
        409
    );
    let jobs = outbox(&app, &new_id).await;
    assert_eq!(
        events(&jobs),
        ["documents.document.sent", "documents.document.voided"]
    );
    assert!(
        !jobs
            .iter()
            .any(|j| j.0 == "email" && j.1["kind"] == "reminder" && j.2 == "queued"),
        "reminders not yet sent are withdrawn on void"
    );
    assert_eq!(emails(&jobs, "voided").len(), 2);
    let voided = jobs
        .iter()
        .find(|j| j.1["type"] == "documents.document.voided")
        .unwrap();
    assert_eq!(voided.1["data"]["reason"], "terms changed");
});

/// A Free workspace (100 live documents a month) and a live key on it.
async fn free_workspace(app: &TestApp) -> (String, String) {
    let ws = app.workspace(Plan::Free).await;
    let live = app
        .key(
            &ws,
            Mode::Live,
            &["documents:read", "documents:write", "account:read"],
        )
        .await;
    (ws, live)
}

/// Counts `n` live sends this month for `ws`, in the counter's row `shard`.
async fn count_sends(app: &TestApp, ws: &str, n: i64, shard: u32) {
    let db = &app.ctx().db;
    signet_accounts::usage::add(
        &db.conn,
        db,
        ws,
        signet_accounts::usage::DOCUMENTS_SENT,
        n,
        shard,
    )
    .await
    .unwrap();
}

// Sends racing for the month's last documents: exactly as many commit as the allowance has
// left, whichever shard of the counter the earlier sends were counted in; the others are
// refused with 403 and leave nothing behind.
both!(
    concurrent_sends_stop_exactly_at_the_monthly_allowance,
    |app| {
        let (ws, live) = free_workspace(&app).await;
        let db = &app.ctx().db;
        count_sends(&app, &ws, 96, 7).await;
        // On PostgreSQL the sends are held at the counter (a lock on its table) until they have
        // all written the rest of their rows, then let go together: their counts and read-backs
        // overlap as much as they can.
        use signet_storage::sea_orm::{ConnectionTrait, TransactionTrait};
        let gate = if db.backend == signet_storage::db::Backend::Postgres {
            let t = db.conn.begin().await.unwrap();
            t.execute_unprepared("LOCK TABLE usage_counters IN SHARE MODE")
                .await
                .unwrap();
            Some(t)
        } else {
            None
        };
        let release = async {
            if let Some(t) = gate {
                tokio::time::sleep(std::time::Duration::from_secs(1)).await;
                t.commit().await.unwrap();
            }
        };
        let (answers, ()) = tokio::join!(
            futures_util::future::join_all((0..40).map(|_| create(
                &app,
                &live,
                json!({"sendNow": true})
            )),),
            release
        );
        let statuses: Vec<u16> = answers.iter().map(|a| a.status.as_u16()).collect();
        assert_eq!(
            statuses.iter().filter(|s| **s == 201).count(),
            4,
            "{statuses:?}"
        );
        assert_eq!(
            statuses.iter().filter(|s| **s == 403).count(),
            36,
            "{statuses:?}"
        );
        let usage = app.get("/api/v1/usage", Some(&live)).await;
        assert_eq!(usage.body["documents"]["used"], 100, "{}", usage.body);
        let list = app.get("/api/v1/documents", Some(&live)).await;
        assert_eq!(
            list.body["data"].as_array().unwrap().len(),
            4,
            "{}",
            list.body
        );
    }
);

both!(live_keys_count_usage_and_cannot_test_sign, |app| {
    let (ws, live) = free_workspace(&app).await;
    let a = create(&app, &live, json!({"sendNow": true})).await;
    assert_eq!(a.status, 201, "{}", a.body);
    assert_eq!(a.body["state"], "sent");
    let id = a.body["id"].as_str().unwrap();
    let ts = act(&app, &live, id, "test-sign", json!({"seat": "client"})).await;
    assert_eq!(ts.status, 403, "{}", ts.body);
    let usage = app.get("/api/v1/usage", Some(&live)).await;
    assert_eq!(usage.body["documents"]["used"], 1);

    // Test sends are never counted.
    let (tws, test_key) = app.owner().await;
    create(&app, &test_key, json!({"sendNow": true})).await;
    let used = signet_accounts::usage::documents_sent(&app.ctx().db, &tws)
        .await
        .unwrap();
    assert_eq!(used, 0);

    // Past the plan's monthly allowance a live send is refused with 403, and a refused
    // sendNow leaves nothing behind; a draft can still be made, but not sent. The 99 are
    // added to another shard of the counter than the send's (as sends made under a plan with
    // no allowance are): the check and GET /usage count the sum of every shard.
    count_sends(&app, &ws, 99, 5).await;
    let usage = app.get("/api/v1/usage", Some(&live)).await;
    assert_eq!(usage.body["documents"]["used"], 100, "{}", usage.body);
    let over = create(&app, &live, json!({"sendNow": true})).await;
    assert_eq!(over.status, 403, "{}", over.body);
    assert!(
        over.body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("allowance of 100 documents")
    );
    let list = app.get("/api/v1/documents", Some(&live)).await;
    assert_eq!(
        list.body["data"].as_array().unwrap().len(),
        1,
        "{}",
        list.body
    );
    let draft = create(&app, &live, json!({})).await;
    assert_eq!(draft.status, 201);
    let id = draft.body["id"].as_str().unwrap();
    let refused = act(&app, &live, id, "send", json!({})).await;
    assert_eq!(refused.status, 403);
    let still = app
        .get(&format!("/api/v1/documents/{id}"), Some(&live))
        .await;
    assert_eq!(still.body["state"], "draft");
});

both!(
    a_payment_field_keeps_a_document_from_going_out_until_payments_are_connected,
    |app| {
        let (_, key) = app.owner().await;
        let mut src = source();
        src["content"][5]["content"]
        .as_array_mut()
        .unwrap()
        .push(json!({"type": "fieldTag", "attrs": {"name": "Deposit", "type": "payment", "role": "client", "amount": "250.00", "currency": "EUR"}}));
        let count = async || {
            app.get("/api/v1/documents?limit=100", Some(&key))
                .await
                .body["data"]
                .as_array()
                .unwrap()
                .len()
        };
        // Sent at once: refused whole, with no draft left behind.
        let before = count().await;
        let now = create(&app, &key, json!({"source": src, "sendNow": true})).await;
        assert_eq!(now.status, 403, "{}", now.body);
        assert_eq!(now.body["error"]["kind"], "forbidden");
        assert!(
            now.body["error"]["message"]
                .as_str()
                .unwrap()
                .contains("payments are not connected"),
            "{}",
            now.body
        );
        assert_eq!(
            count().await,
            before,
            "no draft is left by a refused sendNow"
        );
        // As a draft it is kept, and its send is refused until payments are connected.
        let draft = create(&app, &key, json!({"source": src})).await;
        assert_eq!(draft.status, 201, "{}", draft.body);
        let id = draft.body["id"].as_str().unwrap();
        let sent = act(&app, &key, id, "send", json!({})).await;
        assert_eq!(sent.status, 403, "{}", sent.body);
        assert!(outbox(&app, id).await.is_empty(), "nothing went out");
        let still = app
            .get(&format!("/api/v1/documents/{id}"), Some(&key))
            .await;
        assert_eq!(still.body["state"], "draft");
    }
);

both!(draft_only_sends_wait_for_an_approval, |app| {
    let ws = app.workspace(Plan::Free).await;
    let mut input = signet_accounts::keys::KeyCreateIn::new(
        &ws,
        Mode::Test,
        signet_core::actor::Scopes::parse(["documents:read", "documents:write"]).unwrap(),
    );
    input.draft_only = true;
    let key = app.key_with(input).await;
    let d = create(&app, &key, json!({})).await;
    let id = d.body["id"].as_str().unwrap();
    let s = act(&app, &key, id, "send", json!({})).await;
    assert_eq!(s.status, 202, "{}", s.body);
    assert_eq!(s.body["state"], "draft");
    let apr = s.body["approval"]["id"].as_str().unwrap().to_string();
    assert!(apr.starts_with("apr_"));
    assert!(
        outbox(&app, id).await.is_empty(),
        "nothing goes out before approval"
    );

    let (code, out, err) = app.cli(&["admin", "approvals", "list", "--workspace", &ws, "--json"]);
    assert_eq!(code, 0, "{err}");
    let list: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(list["data"][0]["id"], apr.as_str());
    assert_eq!(list["data"][0]["state"], "pending");
    let (code, out, err) = app.cli(&[
        "admin",
        "approvals",
        "approve",
        &apr,
        "--by",
        "owner@example.com",
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let decided: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(decided["state"], "approved");
    let doc = app
        .get(&format!("/api/v1/documents/{id}"), Some(&key))
        .await;
    assert_eq!(doc.body["state"], "sent");
    assert!(doc.body["approval"].is_null());
    let (code, _, err) = app.cli(&["admin", "approvals", "decline", &apr, "--by", "x", "--json"]);
    assert_ne!(code, 0);
    assert!(err.contains("already approved"), "{err}");

    // A key allowed to send may send the draft itself; the pending approval is withdrawn.
    let other = create(&app, &key, json!({})).await.body["id"]
        .as_str()
        .unwrap()
        .to_string();
    assert_eq!(act(&app, &key, &other, "send", json!({})).await.status, 202);
    let sender = app
        .key(&ws, Mode::Test, &["documents:read", "documents:write"])
        .await;
    let sent = act(&app, &sender, &other, "send", json!({})).await;
    assert_eq!(sent.status, 201, "{}", sent.body);
    assert!(sent.body["approval"].is_null());
    let (_, out, _) = app.cli(&["admin", "approvals", "list", "--workspace", &ws, "--json"]);
    let list: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(list["data"][0]["state"], "withdrawn", "{list}");

    // `sendNow` from a draft-only key: one draft with its approval, answered 202, and a
    // retry with the same key replays that answer instead of making a second draft.
    let retry_key = idem();
    let (headers, text) = (
        [("idempotency-key", retry_key.as_str())],
        body(json!({"sendNow": true})),
    );
    let send_now = || app.post("/api/v1/documents", &key, &headers, &text);
    let made = send_now().await;
    assert_eq!(made.status, 202, "{}", made.body);
    assert_eq!(made.body["state"], "draft");
    assert_eq!(made.body["approval"]["state"], "pending");
    let id = made.body["id"].as_str().unwrap();
    let apr = made.body["approval"]["id"].as_str().unwrap();
    assert!(
        outbox(&app, id).await.is_empty(),
        "nothing goes out before approval"
    );
    let again = send_now().await;
    assert_eq!(again.status, 202, "{}", again.body);
    assert_eq!(again.header("idempotent-replayed"), "true");
    assert_eq!(again.body, made.body);
    let (_, out, _) = app.cli(&["admin", "approvals", "list", "--workspace", &ws, "--json"]);
    let list: Value = serde_json::from_str(&out).unwrap();
    let filed: Vec<&Value> = list["data"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|a| a["documentId"] == id)
        .collect();
    assert_eq!(filed.len(), 1, "{list}");
    assert_eq!(filed[0]["id"], apr);
    let events = audit_chain(&app, id).await;
    assert_eq!(events, ["created", "approval_requested"]);
    // Approving it sends it.
    let (code, _, err) = app.cli(&[
        "admin",
        "approvals",
        "approve",
        apr,
        "--by",
        "o@example.com",
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let doc = app
        .get(&format!("/api/v1/documents/{id}"), Some(&key))
        .await;
    assert_eq!(doc.body["state"], "sent", "{}", doc.body);
});

both!(the_scheduler_expires_and_reminds, |app| {
    let (_, key) = app.owner().await;
    let a = create(
        &app,
        &key,
        json!({"sendNow": true, "send": {"expiryDays": 1}}),
    )
    .await;
    let b = create(
        &app,
        &key,
        json!({"sendNow": true, "send": {"expiryDays": 5, "reminderDays": [1, 2]}}),
    )
    .await;
    let (a, b) = (
        a.body["id"].as_str().unwrap().to_string(),
        b.body["id"].as_str().unwrap().to_string(),
    );
    // Nothing is due yet.
    assert_eq!(signet_documents::sweep(app.ctx()).await.unwrap(), (0, 0));
    // A day passes: a expires, b's people are reminded.
    let day = std::time::Duration::from_secs(86_400);
    app.advance(day + std::time::Duration::from_secs(60));
    // The server's own scheduler may run its pass at this very moment: each change is claimed
    // once, by whichever pass comes first, so this pass does what is left of the work and
    // the effects below are the same either way.
    let (expired, reminded) = signet_documents::sweep(app.ctx()).await.unwrap();
    assert!(expired <= 1 && reminded <= 2, "{expired} {reminded}");
    let doc = app.get(&format!("/api/v1/documents/{a}"), Some(&key)).await;
    assert_eq!(doc.body["state"], "expired");
    assert_eq!(
        events(&outbox(&app, &a).await),
        ["documents.document.sent", "documents.document.expired"]
    );
    assert_eq!(emails(&outbox(&app, &b).await, "reminder").len(), 2);
    // The next reminder is the next day of the list; a second pass does nothing now.
    assert_eq!(signet_documents::sweep(app.ctx()).await.unwrap(), (0, 0));
    // The second day: b's people are reminded again, and b is still out for signature.
    app.advance(day);
    signet_documents::sweep(app.ctx()).await.unwrap();
    assert_eq!(emails(&outbox(&app, &b).await, "reminder").len(), 4);
    let doc = app.get(&format!("/api/v1/documents/{b}"), Some(&key)).await;
    assert_eq!(doc.body["state"], "sent");
    // Past its fifth day b expires too, and is reminded no more.
    app.advance(3 * day);
    let (_, reminded) = signet_documents::sweep(app.ctx()).await.unwrap();
    assert_eq!(reminded, 0);
    let doc = app.get(&format!("/api/v1/documents/{b}"), Some(&key)).await;
    assert_eq!(doc.body["state"], "expired");
});

both!(
    every_document_route_answers_404_for_unknown_and_other_mode_documents,
    |app| {
        let (ws, test_key) = app.owner().await;
        let live_key = app
            .key(&ws, Mode::Live, &["documents:read", "documents:write"])
            .await;
        let live_doc = create(&app, &live_key, json!({})).await.body["id"]
            .as_str()
            .unwrap()
            .to_string();
        for id in ["doc_01JAAAAAAAAAAAAAAAAAAAAAAA", live_doc.as_str()] {
            for path in ["", "/source"] {
                let a = app
                    .get(&format!("/api/v1/documents/{id}{path}"), Some(&test_key))
                    .await;
                assert_eq!(a.status, 404, "GET {path}: {}", a.body);
                assert_eq!(a.body["error"]["kind"], "not_found");
            }
            for (action, body) in [
                ("send", json!({})),
                ("remind", json!({})),
                ("void", json!({})),
                ("test-sign", json!({"seat": "client"})),
                ("revise", json!({"source": source()})),
            ] {
                let a = act(&app, &test_key, id, action, body).await;
                assert_eq!(a.status, 404, "{action} on {id}: {}", a.body);
            }
        }
        // documents:read reads but cannot write; without it nothing is read.
        let reader = app.key(&ws, Mode::Live, &["documents:read"]).await;
        assert_eq!(
            app.get(&format!("/api/v1/documents/{live_doc}"), Some(&reader))
                .await
                .status,
            200
        );
        assert_eq!(create(&app, &reader, json!({})).await.status, 401);
        assert_eq!(
            act(&app, &reader, &live_doc, "send", json!({}))
                .await
                .status,
            401
        );
        let writer = app.key(&ws, Mode::Live, &["documents:write"]).await;
        assert_eq!(
            app.get("/api/v1/documents", Some(&writer)).await.status,
            401
        );
        // The live document is untouched by the test key's attempts.
        let doc = app
            .get(&format!("/api/v1/documents/{live_doc}"), Some(&live_key))
            .await;
        assert_eq!(doc.body["state"], "draft");
    }
);

both!(send_now_stores_the_same_times_as_sending_a_draft, |app| {
    let (_, key) = app.owner().await;
    let send = json!({"expiryDays": 5, "reminderDays": [1, 2]});
    let at_once = create(&app, &key, json!({"sendNow": true, "send": send})).await;
    assert_eq!(at_once.status, 201, "{}", at_once.body);
    assert_eq!(at_once.body["state"], "sent");
    assert!(at_once.body["expiresAt"].is_string(), "{}", at_once.body);
    let draft = create(&app, &key, json!({"send": send})).await;
    let later = draft.body["id"].as_str().unwrap().to_string();
    assert_eq!(act(&app, &key, &later, "send", json!({})).await.status, 201);
    let db = &app.ctx().db;
    for id in [at_once.body["id"].as_str().unwrap(), later.as_str()] {
        let row = db
            .conn
            .query_one_raw(db.stmt(
                "SELECT state, sent_at, updated_at, expires_at, next_reminder_at FROM documents WHERE id = $1",
                [Sql::from(id)],
            ))
            .await
            .unwrap()
            .unwrap();
        let state: String = row.try_get("", "state").unwrap();
        let sent: i64 = row.try_get("", "sent_at").unwrap();
        let updated: i64 = row.try_get("", "updated_at").unwrap();
        let expires: i64 = row.try_get("", "expires_at").unwrap();
        let remind: i64 = row.try_get("", "next_reminder_at").unwrap();
        const DAY: i64 = 86_400_000;
        assert_eq!(state, "sent", "{id}");
        assert_eq!(
            (updated, expires, remind),
            (sent, sent + 5 * DAY, sent + DAY),
            "{id}"
        );
        let shown = app
            .get(&format!("/api/v1/documents/{id}"), Some(&key))
            .await;
        assert_eq!(shown.body["state"], "sent");
    }
});

both!(
    remind_void_and_test_sign_store_their_answer_with_their_action,
    |app| {
        use signet_documents::{self as documents, types::*};
        let (_, key) = app.owner().await;
        let sent = create(&app, &key, json!({"sendNow": true})).await;
        assert_eq!(sent.status, 201, "{}", sent.body);
        let id = sent.body["id"].as_str().unwrap().to_string();
        let ctx = app.ctx();
        let db = ctx.db.clone();
        let actor = app.actor(&key).await;
        let client = |doc: &Value| person(doc, "client").clone();
        let reminders = || async {
            let row = db
                .conn
                .query_one_raw(db.stmt(
                    "SELECT reminders FROM people WHERE document_id = $1 AND seat = 'client'",
                    [Sql::from(id.as_str())],
                ))
                .await
                .unwrap()
                .unwrap();
            row.try_get::<i32>("", "reminders").unwrap()
        };

        // Each action whose answer cannot be stored (another answer got in first) is not done
        // at all; with a free key it is done and its answer is stored with it.
        let (_h, taken) = claim_on(&db, true).await;
        busy(documents::remind(ctx, &actor, &id, RemindIn { seat: None }, Some(&taken)).await);
        assert_eq!(reminders().await, 0, "nobody was reminded");
        let (_h, free) = claim_on(&db, false).await;
        let made = documents::remind(ctx, &actor, &id, RemindIn { seat: None }, Some(&free))
            .await
            .unwrap();
        assert_eq!(reminders().await, 1);
        let answer = replayed(ctx, &free, 200).await;
        assert_eq!(stored(&made), answer, "the stored answer is the one sent");
        assert_eq!(answer["id"], id.as_str());

        let sign = || TestSignIn {
            seat: "client".into(),
        };
        let (_h, taken) = claim_on(&db, true).await;
        busy(documents::test_sign(ctx, &actor, &id, sign(), Some(&taken)).await);
        let now = app
            .get(&format!("/api/v1/documents/{id}"), Some(&key))
            .await;
        assert_eq!(
            client(&now.body)["status"],
            "invited",
            "the seat was not signed"
        );
        let (_h, free) = claim_on(&db, false).await;
        let made = documents::test_sign(ctx, &actor, &id, sign(), Some(&free))
            .await
            .unwrap();
        let answer = replayed(ctx, &free, 200).await;
        assert_eq!(stored(&made), answer, "the stored answer is the one sent");
        assert_eq!(client(&answer)["status"], "signed");

        let void = || VoidIn {
            reason: Some("wrong fee".into()),
        };
        let (_h, taken) = claim_on(&db, true).await;
        busy(documents::void(ctx, &actor, &id, void(), Some(&taken)).await);
        let now = app
            .get(&format!("/api/v1/documents/{id}"), Some(&key))
            .await;
        assert_ne!(now.body["state"], "voided", "the document was not voided");
        let (_h, free) = claim_on(&db, false).await;
        let made = documents::void(ctx, &actor, &id, void(), Some(&free))
            .await
            .unwrap();
        let answer = replayed(ctx, &free, 200).await;
        assert_eq!(stored(&made), answer, "the stored answer is the one sent");
        assert_eq!(answer["state"], "voided");
        assert_eq!(answer["reason"], "wrong fee");
    }
);
