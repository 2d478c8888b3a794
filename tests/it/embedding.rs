//! Embedded signing, server side, on both backend sets: seats sent as embedded are never
//! emailed; `embed-session` gives a one-hour link only for an embedded seat whose turn it is,
//! on a website the workspace allows, while embedding is on; the link's page is framed only
//! by that website; the link is exchanged once for a session that signs; a waiting page
//! hears of a change at once. The browser side (the loader, events, a second origin) is in
//! `frontend/tests/`.

use serde_json::{Value, json};
use signet_core::Mode;
use signet_core::plans::Plan;
use signet_storage::sea_orm::ConnectionTrait;

use crate::both_quiet;
use crate::harness::TestApp;
use crate::harness::links;
use crate::signing_page::{every_field, send};

const SITE: &str = "https://app.example.com";

async fn call(
    app: &TestApp,
    method: &str,
    path: &str,
    link: &str,
    body: Option<Value>,
) -> (u16, Value) {
    let mut r = reqwest::Client::new()
        .request(method.parse().unwrap(), format!("{}{path}", app.base))
        .header("Authorization", format!("Link {link}"));
    if let Some(b) = body {
        r = r.json(&b);
    }
    let res = r.send().await.unwrap();
    let status = res.status().as_u16();
    (status, res.json().await.unwrap_or(Value::Null))
}

async fn session(app: &TestApp, key: &str, id: &str, seat: &str, origin: &str) -> (u16, Value) {
    let r = app
        .post(
            &format!("/api/v1/documents/{id}/embed-session"),
            key,
            &[(
                "Idempotency-Key",
                &signet_core::ids::new_id("idem").to_string(),
            )],
            &json!({"seat": seat, "origin": origin}).to_string(),
        )
        .await;
    (r.status.as_u16(), r.body)
}

fn token_of(url: &str) -> String {
    url.rsplit('/').next().unwrap().to_string()
}

both_quiet!(an_embedded_seat_signs_inside_the_allowed_site_only, |app| {
    let ws = app.workspace(Plan::Pro).await;
    let key = app
        .key(
            &ws,
            Mode::Live,
            &["documents:read", "documents:write", "embedded:write"],
        )
        .await;
    let (code, _, err) = app.cli(&[
        "admin",
        "workspace",
        "update",
        &ws,
        "--embed-origin",
        "http://app.example.com",
    ]);
    assert_ne!(code, 0, "http only for this machine");
    assert!(err.contains("must be https"), "{err}");
    let (code, _, err) = app.cli(&[
        "admin",
        "workspace",
        "update",
        &ws,
        "--embed-origin",
        "https://*.example.com",
    ]);
    assert_ne!(code, 0, "a plain host only");
    assert!(
        err.contains("https://*.example.com") && err.contains("not a plain name"),
        "{err}"
    );
    let (code, out, err) = app.cli(&[
        "admin",
        "workspace",
        "update",
        &ws,
        "--embed-origin",
        "https://APP.example.com/",
        "--embed-origin",
        "http://127.0.0.1:9",
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let out: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(out["embedOrigins"], json!([SITE, "http://127.0.0.1:9"]));
    assert_eq!(out["embedding"], true);

    // Seats named in `embedded` must be people who sign, never asked for an emailed code.
    let people = |extra: Value| {
        let mut ada =
            json!({"name": "Ada Tenant", "email": "ada@example.com", "role": "client", "order": 1});
        if let (Some(a), Value::Object(e)) = (ada.as_object_mut(), extra) {
            a.extend(e);
        }
        json!([ada, {"name": "Bob Landlord", "email": "bob@example.com", "role": "landlord", "order": 2}])
    };
    for (embedded, extra, field) in [
        (json!(["nobody"]), json!({}), "embedded[0]"),
        (json!(["client"]), json!({"emailCode": true}), "embedded[0]"),
    ] {
        let r = app
            .post(
                "/api/v1/documents",
                &key,
                &[("Idempotency-Key", &signet_core::ids::new_id("idem").to_string())],
                &json!({"title": "Lease", "source": every_field(), "people": people(extra), "embedded": embedded})
                    .to_string(),
            )
            .await;
        assert_eq!(r.status, 400, "{}", r.body);
        assert!(
            r.body["error"]["message"].as_str().unwrap().contains(field),
            "{}",
            r.body
        );
    }
    let id = send(
        &app,
        &key,
        json!({"people": people(json!({})), "embedded": ["client"], "send": {"signingOrder": true}}),
    )
    .await;
    app.run_pending_jobs().await;
    let doc = app
        .get(&format!("/api/v1/documents/{id}"), Some(&key))
        .await
        .body;
    assert_eq!(doc["people"][0]["embedded"], true);
    assert_eq!(doc["people"][0]["status"], "invited");
    assert!(
        links(&app).iter().all(|(to, _)| to != "ada@example.com"),
        "nobody emails an embedded seat"
    );
    let remind = app
        .post(&format!("/api/v1/documents/{id}/remind"), &key, &[], "{}")
        .await;
    assert_eq!(remind.status, 409, "nobody to remind: {}", remind.body);

    // The refusals: no key scope, no idempotency key, not embedded, not allowed, not its turn.
    let plain = app
        .key(&ws, Mode::Live, &["documents:read", "documents:write"])
        .await;
    assert_eq!(session(&app, &plain, &id, "client", SITE).await.0, 401);
    let bare = app
        .post(
            &format!("/api/v1/documents/{id}/embed-session"),
            &key,
            &[],
            &json!({"seat": "client", "origin": SITE}).to_string(),
        )
        .await;
    assert_eq!(bare.status, 400, "{}", bare.body);
    let (status, e) = session(&app, &key, &id, "landlord", SITE).await;
    assert_eq!(status, 409, "{e}");
    assert!(
        e["error"]["message"]
            .as_str()
            .unwrap()
            .contains("not sent as embedded")
    );
    let (status, e) = session(&app, &key, &id, "client", "https://evil.example.com").await;
    assert_eq!(status, 409, "{e}");
    let (status, _) = session(&app, &key, &id, "client", "https://app.example.com/path").await;
    assert_eq!(status, 400);
    let (status, _) = session(&app, &key, &id, "nobody", SITE).await;
    assert_eq!(status, 400);

    // The link: one hour, framed only by the site it was made for.
    let (status, s) = session(&app, &key, &id, "client", SITE).await;
    assert_eq!(status, 200, "{s}");
    let url = s["url"].as_str().unwrap();
    assert!(url.contains("/e/"), "{url}");
    let expires = chrono::DateTime::parse_from_rfc3339(s["expiresAt"].as_str().unwrap()).unwrap();
    let minutes = (expires.timestamp_millis() - signet_storage::now_ms()) / 60_000;
    assert!((58..=60).contains(&minutes), "{minutes}");
    let link = token_of(url);
    let res = reqwest::get(format!("{}/e/{link}", app.base))
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    let csp = res.headers()["content-security-policy"]
        .to_str()
        .unwrap()
        .to_string();
    assert!(csp.contains(&format!("frame-ancestors {SITE}")), "{csp}");
    assert!(!csp.contains("frame-ancestors 'none'"), "{csp}");
    assert!(res.headers().get("x-frame-options").is_none());
    assert_eq!(res.headers()["referrer-policy"], "no-referrer");
    let html = res.text().await.unwrap();
    assert!(html.contains(&format!("content=\"{SITE}\"")), "{html}");
    assert!(!html.contains(&link));
    // The link alone is not a signing credential: it opens nothing until exchanged.
    assert_eq!(call(&app, "GET", "/page/v1/view", &link, None).await.0, 404);
    let unknown = reqwest::get(format!("{}/e/{}", app.base, "A".repeat(43)))
        .await
        .unwrap();
    assert_eq!(unknown.status(), 404);
    assert!(
        unknown.headers()["content-security-policy"]
            .to_str()
            .unwrap()
            .contains("frame-ancestors 'none'")
    );

    // Exchanged once for a session, which signs.
    let (status, started) =
        call(&app, "POST", "/page/v1/embed/start", &link, Some(json!({}))).await;
    assert_eq!(status, 200, "{started}");
    assert_eq!(started["origin"], SITE);
    let sess = started["session"].as_str().unwrap().to_string();
    assert_eq!(
        call(&app, "POST", "/page/v1/embed/start", &link, Some(json!({})))
            .await
            .0,
        404,
        "once"
    );
    let (status, v) = call(&app, "GET", "/page/v1/view", &sess, None).await;
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["stage"], "sign");
    call(
        &app,
        "POST",
        "/page/v1/consent",
        &sess,
        Some(json!({"version": v["consent"]["version"], "sha256": v["consent"]["sha256"]})),
    )
    .await;
    let (_, v) = call(&app, "GET", "/page/v1/view", &sess, None).await;
    let values = crate::harness::values_for(&v["fields"]);
    let (status, signed) = call(
        &app,
        "POST",
        "/page/v1/sign",
        &sess,
        Some(json!({"values": values})),
    )
    .await;
    assert_eq!(status, 200, "{signed}");
    assert_eq!(signed["stage"], "signed");
    let (status, e) = session(&app, &key, &id, "client", SITE).await;
    assert_eq!(status, 409, "signed already: {e}");
    // The trail says the signature came through a frame on the caller's site.
    let ctx = app.ctx();
    let trail: Vec<(String, Value)> = crate::signing_page::audit_events(&app, &id)
        .await
        .into_iter()
        .map(|(event, _, detail)| (event, detail))
        .collect();
    for event in ["embed_session", "embed_started", "consented", "signed"] {
        let (_, d) = trail
            .iter()
            .find(|(e, _)| e == event)
            .unwrap_or_else(|| panic!("{event} in {trail:?}"));
        assert_eq!(d["origin"], SITE, "{event}: {d}");
    }
    let signed_row = &trail.iter().find(|(e, _)| e == "signed").unwrap().1;
    assert_eq!(signed_row["via"], "embedded");

    // A page that waits hears of the next signature at once, not at its wait's end.
    app.run_pending_jobs().await;
    let bob = crate::harness::link_of(&app, "bob@example.com");
    let version = signed["version"].as_str().unwrap().to_string();
    let (base, s2) = (app.base.clone(), sess.clone());
    let waiting = tokio::spawn(async move {
        let t = std::time::Instant::now();
        let r = reqwest::Client::new()
            .get(format!("{base}/page/v1/view?wait=20&version={version}"))
            .header("Authorization", format!("Link {s2}"))
            .send()
            .await
            .unwrap();
        (t.elapsed(), r.json::<Value>().await.unwrap())
    });
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    let (_, bv) = call(&app, "GET", "/page/v1/view", &bob, None).await;
    call(
        &app,
        "POST",
        "/page/v1/consent",
        &bob,
        Some(json!({"version": bv["consent"]["version"], "sha256": bv["consent"]["sha256"]})),
    )
    .await;
    let (_, bv) = call(&app, "GET", "/page/v1/view", &bob, None).await;
    let mut bob_values = serde_json::Map::new();
    for f in bv["fields"].as_array().unwrap() {
        if f["editable"].as_bool().unwrap() {
            bob_values.insert(
                f["id"].as_str().unwrap().to_string(),
                json!({"kind": "typed", "text": "Bob"}),
            );
        }
    }
    let (status, e) = call(
        &app,
        "POST",
        "/page/v1/sign",
        &bob,
        Some(json!({"values": bob_values})),
    )
    .await;
    assert_eq!(status, 200, "{e}");
    let (took, changed) = waiting.await.unwrap();
    assert!(took < std::time::Duration::from_secs(15), "{took:?}");
    assert_ne!(changed["version"], signed["version"], "{changed}");

    // Embedding off: no more sessions. A session past its hour opens nothing.
    let id2 = send(
        &app,
        &key,
        json!({"people": people(json!({})), "embedded": ["client"]}),
    )
    .await;
    let (status, _) = session(&app, &key, &id2, "client", SITE).await;
    assert_eq!(status, 200);
    let (code, _, err) = app.cli(&["admin", "workspace", "update", &ws, "--embedding", "off"]);
    assert_eq!(code, 0, "{err}");
    let (status, e) = session(&app, &key, &id2, "client", SITE).await;
    assert_eq!(status, 409, "{e}");
    assert!(
        e["error"]["message"]
            .as_str()
            .unwrap()
            .contains("embedding is off")
    );
    // A link made before the website left the list no longer starts.
    let id3 = send(
        &app,
        &key,
        json!({"people": people(json!({})), "embedded": ["client"]}),
    )
    .await;
    let (code, _, err) = app.cli(&["admin", "workspace", "update", &ws, "--embedding", "on"]);
    assert_eq!(code, 0, "{err}");
    let (status, s3) = session(&app, &key, &id3, "client", SITE).await;
    assert_eq!(status, 200, "{s3}");
    let (code, _, err) = app.cli(&[
        "admin",
        "workspace",
        "update",
        &ws,
        "--embed-origin",
        "http://127.0.0.1:9",
    ]);
    assert_eq!(code, 0, "{err}");
    let link3 = token_of(s3["url"].as_str().unwrap());
    assert_eq!(
        call(
            &app,
            "POST",
            "/page/v1/embed/start",
            &link3,
            Some(json!({}))
        )
        .await
        .0,
        409
    );
    // A session works for an hour.
    app.advance(std::time::Duration::from_secs(3_601));
    assert_eq!(call(&app, "GET", "/page/v1/view", &sess, None).await.0, 404);

    // Only keyed hashes are stored; the API log never holds a link.
    let rows = ctx
        .db
        .conn
        .query_all_raw(ctx.db.stmt("SELECT hash FROM signing_links", []))
        .await
        .unwrap();
    for r in rows {
        let h: String = r.try_get("", "hash").unwrap();
        assert!(h != link && h != sess);
    }
    ctx.api_log.flush().await;
    let mut kept = String::new();
    for (table, column) in [
        ("api_log", "route"),
        ("idempotency", "body"),
        ("audit_events", "detail"),
    ] {
        let rows = ctx
            .db
            .conn
            .query_all_raw(
                ctx.db
                    .stmt(&format!("SELECT {column} AS v FROM {table}"), []),
            )
            .await
            .unwrap();
        // Idempotency answers live in Redis on the scale-out set; sealed either way.
        assert!(table == "idempotency" || !rows.is_empty(), "{table}");
        for r in rows {
            kept.push_str(
                &r.try_get::<Option<String>>("", "v")
                    .unwrap()
                    .unwrap_or_default(),
            );
        }
    }
    assert!(
        kept.contains("/e/") || kept.contains("embed"),
        "the routes are logged"
    );
    assert!(
        !kept.contains(&link) && !kept.contains(&sess),
        "no link or session is kept"
    );
});

both_quiet!(
    turning_embedding_off_or_removing_the_site_ends_open_sessions,
    |app| {
        let ws = app.workspace(Plan::Pro).await;
        let key = app
            .key(
                &ws,
                Mode::Live,
                &["documents:read", "documents:write", "embedded:write"],
            )
            .await;
        let (code, _, err) = app.cli(&[
            "admin",
            "workspace",
            "update",
            &ws,
            "--embed-origin",
            SITE,
            "--embed-origin",
            "http://127.0.0.1:9",
        ]);
        assert_eq!(code, 0, "{err}");
        let people = json!([
            {"name": "Ada Tenant", "email": "ada@example.com", "role": "client", "order": 1},
            {"name": "Bob Landlord", "email": "bob@example.com", "role": "landlord", "order": 2}
        ]);
        // A session exchanged and working, on each of the two websites.
        let open = |origin: &'static str| {
            let (app, key, people) = (&app, key.clone(), people.clone());
            async move {
                let id = send(app, &key, json!({"people": people, "embedded": ["client"]})).await;
                let (status, s) = session(app, &key, &id, "client", origin).await;
                assert_eq!(status, 200, "{s}");
                let link = token_of(s["url"].as_str().unwrap());
                let (status, started) =
                    call(app, "POST", "/page/v1/embed/start", &link, Some(json!({}))).await;
                assert_eq!(status, 200, "{started}");
                let sess = started["session"].as_str().unwrap().to_string();
                assert_eq!(call(app, "GET", "/page/v1/view", &sess, None).await.0, 200);
                sess
            }
        };
        let on_site = open(SITE).await;
        let on_local = open("http://127.0.0.1:9").await;

        // Off: every open session ends at its next call.
        let (code, _, err) = app.cli(&["admin", "workspace", "update", &ws, "--embedding", "off"]);
        assert_eq!(code, 0, "{err}");
        for sess in [&on_site, &on_local] {
            let (status, e) = call(&app, "GET", "/page/v1/view", sess, None).await;
            assert_eq!(status, 404, "{e}");
            let (status, _) = call(&app, "POST", "/page/v1/opened", sess, Some(json!({}))).await;
            assert_eq!(status, 404);
        }
        // On again, with only the local site listed: the session on the removed site stays ended.
        let (code, _, err) = app.cli(&[
            "admin",
            "workspace",
            "update",
            &ws,
            "--embedding",
            "on",
            "--embed-origin",
            "http://127.0.0.1:9",
        ]);
        assert_eq!(code, 0, "{err}");
        assert_eq!(
            call(&app, "GET", "/page/v1/view", &on_site, None).await.0,
            404
        );
        assert_eq!(
            call(&app, "GET", "/page/v1/view", &on_local, None).await.0,
            200
        );
    }
);
