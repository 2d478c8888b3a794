//! The builder and Scribe frames' sessions, server side, on both backend sets: a one-hour
//! link only for a website the workspace allows while embedding is on; exchanged once for the
//! frame's own key, which does only what its frame needs (the builder: templates; Scribe:
//! plays and drafts, 50 a day, never a send), is not listed with the workspace's keys, and
//! ends with the link.

use std::time::Duration;

use serde_json::{Value, json};
use signet_accounts::frames::{self, Frame, FrameSessionIn};
use signet_core::Mode;
use signet_core::plans::Plan;

use crate::both_quiet;
use crate::harness::TestApp;

const SITE: &str = "https://app.example.com";

async fn embedding(app: &TestApp, ws: &str, on: bool, origins: &[&str]) {
    signet_accounts::workspaces::update(
        app.ctx(),
        ws,
        signet_accounts::workspaces::WorkspacePatch {
            embedding: Some(on),
            embed_origins: Some(origins.iter().map(|o| o.to_string()).collect()),
            ..Default::default()
        },
    )
    .await
    .unwrap();
}

async fn session(
    app: &TestApp,
    key: &str,
    frame: Frame,
    origin: &str,
) -> Result<frames::FrameSessionOut, signet_core::DomainError> {
    let actor = app.actor(key).await;
    frames::session(
        app.ctx(),
        &actor,
        frame,
        FrameSessionIn {
            origin: origin.into(),
            name: Some("Consulting".into()),
        },
        None,
    )
    .await
    .map(|m| m.out)
}

fn token(url: &str) -> &str {
    url.rsplit('/').next().unwrap()
}

async fn status(app: &TestApp, key: &str, method: &str, path: &str, body: Option<Value>) -> u16 {
    app.api(key, method, path, body).await.0
}

/// A builder session asked for over REST and opened as its page does: the frame's key.
async fn builder_key(app: &TestApp, key: &str) -> String {
    let (st, s, _) = app
        .api(
            key,
            "POST",
            "/embedded/builder-session",
            Some(json!({"origin": SITE, "name": "Consulting"})),
        )
        .await;
    assert_eq!(st, 200, "{s}");
    let url = s["url"].as_str().unwrap();
    assert!(url.contains("/builder/"), "{url}");
    let (st, started) = crate::harness::page_call(
        &app.base,
        "POST",
        "/page/v1/frame/start",
        token(url),
        None,
        "test",
        Some(json!({"frame": "builder"})),
    )
    .await;
    assert_eq!(st, 200, "{started}");
    assert_eq!(started["name"], "Consulting");
    started["key"].as_str().unwrap().to_string()
}

/// `POST /templates/{id}/versions` of `source`, written from `version`.
async fn save_version(
    app: &TestApp,
    key: &str,
    id: &str,
    version: i64,
    source: &Value,
) -> (u16, Value) {
    let (st, body, _) = app
        .api(
            key,
            "POST",
            &format!("/templates/{id}/versions"),
            Some(json!({"version": version, "source": source})),
        )
        .await;
    (st, body)
}

both_quiet!(
    a_builder_session_is_one_website_one_hour_and_templates_only,
    |app| {
        let ws = app.workspace(Plan::Pro).await;
        let key = app
            .key(&ws, Mode::Test, &["embedded:write", "templates:read"])
            .await;
        // Refused while embedding is off, and for a website not on the list: 409 saying so.
        embedding(&app, &ws, false, &[SITE]).await;
        let e = session(&app, &key, Frame::Builder, SITE).await.unwrap_err();
        assert!(
            matches!(e, signet_core::DomainError::Conflict { .. }),
            "{e}"
        );
        assert!(e.to_string().contains("embedding is off"), "{e}");
        embedding(&app, &ws, true, &[SITE]).await;
        let e = session(&app, &key, Frame::Builder, "https://other.example.com")
            .await
            .unwrap_err();
        assert!(
            e.to_string().contains("not on this workspace's list"),
            "{e}"
        );
        // A key without embedded:write cannot open one.
        let reader = app.key(&ws, Mode::Test, &["templates:read"]).await;
        assert!(session(&app, &reader, Frame::Builder, SITE).await.is_err());

        let s = session(&app, &key, Frame::Builder, SITE).await.unwrap();
        assert!(s.url.contains("/builder/"), "{}", s.url);
        assert_eq!(s.frame, "builder");
        assert_eq!(s.origin, SITE);
        assert_eq!(s.name.as_deref(), Some("Consulting"));
        let t = token(&s.url).to_string();
        assert_eq!(
            frames::origin_of(app.ctx(), Frame::Builder, &t)
                .await
                .unwrap(),
            Some(SITE.to_string())
        );
        // A builder link is not a Scribe link.
        assert!(frames::start(app.ctx(), Frame::Scribe, &t).await.is_err());
        let started = frames::start(app.ctx(), Frame::Builder, &t).await.unwrap();
        assert_eq!(started.origin, SITE);
        assert_eq!(started.mode, "test");
        // Once only.
        let again = frames::start(app.ctx(), Frame::Builder, &t)
            .await
            .unwrap_err();
        assert!(
            matches!(again, signet_core::DomainError::NotFound(_)),
            "{again}"
        );

        // The frame's key reads and writes templates, and nothing else.
        let k = &started.key;
        assert_eq!(
            status(&app, k, "GET", "/documents/templates", None).await,
            200
        );
        assert_eq!(status(&app, k, "GET", "/documents", None).await, 401);
        let doc = json!({"title": "T", "source": {"type": "doc", "content": []}, "people": []});
        assert_eq!(status(&app, k, "POST", "/documents", Some(doc)).await, 401);
        assert_eq!(status(&app, k, "GET", "/webhooks", None).await, 401);
        assert_eq!(status(&app, k, "GET", "/usage", None).await, 401);
        // Not one of the workspace's keys.
        let listed = signet_accounts::keys::list(app.ctx(), &ws).await.unwrap();
        assert!(
            listed
                .iter()
                .all(|k| !k.name.as_deref().unwrap_or("").contains("session"))
        );
        // It ends with the link.
        app.advance(Duration::from_secs(3_601));
        assert_eq!(
            status(&app, k, "GET", "/documents/templates", None).await,
            401
        );
        assert_eq!(
            frames::origin_of(app.ctx(), Frame::Builder, &t)
                .await
                .unwrap(),
            None
        );
    }
);

both_quiet!(
    a_link_is_refused_once_its_website_is_no_longer_allowed,
    |app| {
        let ws = app.workspace(Plan::Pro).await;
        let key = app.key(&ws, Mode::Live, &["embedded:write"]).await;
        embedding(&app, &ws, true, &[SITE]).await;
        let s = session(&app, &key, Frame::Scribe, SITE).await.unwrap();
        embedding(&app, &ws, true, &["https://elsewhere.example.com"]).await;
        let e = frames::start(app.ctx(), Frame::Scribe, token(&s.url))
            .await
            .unwrap_err();
        assert!(
            e.to_string().contains("not on this workspace's list"),
            "{e}"
        );
        // A link run out is the same 404 as one never made.
        let s = session(&app, &key, Frame::Scribe, "https://elsewhere.example.com")
            .await
            .unwrap();
        app.advance(Duration::from_secs(3_601));
        let e = frames::start(app.ctx(), Frame::Scribe, token(&s.url))
            .await
            .unwrap_err();
        assert!(matches!(e, signet_core::DomainError::NotFound(_)), "{e}");
        let e = frames::start(app.ctx(), Frame::Scribe, &"x".repeat(43))
            .await
            .unwrap_err();
        assert!(matches!(e, signet_core::DomainError::NotFound(_)), "{e}");
    }
);

both_quiet!(a_scribe_key_drafts_fifty_a_day_and_never_sends, |app| {
    // Plays are Pro: a Free workspace is told so.
    let free = app.workspace(Plan::Free).await;
    embedding(&app, &free, true, &[SITE]).await;
    let free_key = app.key(&free, Mode::Test, &["embedded:write"]).await;
    let e = session(&app, &free_key, Frame::Scribe, SITE)
        .await
        .unwrap_err();
    assert!(matches!(e, signet_core::DomainError::Forbidden(_)), "{e}");
    assert!(e.to_string().contains("Pro plan"), "{e}");
    let ws = app.workspace(Plan::Pro).await;
    let key = app.key(&ws, Mode::Test, &["embedded:write"]).await;
    embedding(&app, &ws, true, &[SITE]).await;
    let s = session(&app, &key, Frame::Scribe, SITE).await.unwrap();
    assert!(s.url.contains("/scribe/"), "{}", s.url);
    let started = frames::start(app.ctx(), Frame::Scribe, token(&s.url))
        .await
        .unwrap();
    let k = &started.key;
    // It lists plays and playbooks, and drafts.
    assert_eq!(status(&app, k, "GET", "/plays", None).await, 200);
    assert_eq!(status(&app, k, "GET", "/playbooks", None).await, 200);
    let people = json!([
        {"name": "Ada", "email": "ada@example.com", "role": "first"},
        {"name": "Bo", "email": "bo@example.com", "role": "second"},
    ]);
    let draft = json!({"play": "mutual-nda", "people": people, "useDefaults": true});
    let (s1, made, _) = app.api(k, "POST", "/drafts", Some(draft.clone())).await;
    assert_eq!(s1, 200, "{made}");
    let doc = made["documentId"].as_str().unwrap().to_string();
    // It never sends, and reads no document, the draft it made included.
    let (s2, sent, _) = app
        .api(k, "POST", &format!("/documents/{doc}/send"), None)
        .await;
    assert_eq!(s2, 401, "{sent}");
    assert_eq!(
        status(&app, k, "GET", &format!("/documents/{doc}"), None).await,
        401
    );
    assert_eq!(status(&app, k, "GET", "/documents", None).await, 401);
    assert_eq!(
        status(&app, k, "GET", "/documents/templates", None).await,
        401
    );
    // It sees the draft's pages, laid out with the people's names as a send would.
    let reference = made["draftRef"].as_str().unwrap();
    let (st, pages, _) = app
        .api(k, "GET", &format!("/drafts/{reference}/pages"), None)
        .await;
    assert_eq!(st, 200, "{pages}");
    assert!(
        pages["pages"][0]["image"]
            .as_str()
            .unwrap()
            .starts_with("data:image/png;base64,")
    );
    let roles: std::collections::BTreeSet<&str> = pages["fields"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["role"].as_str().unwrap())
        .collect();
    assert!(roles.len() >= 2, "{roles:?}");
    // A draft still asking questions has no pages yet; another workspace's is not found.
    let asking = json!({"play": "mutual-nda", "people": people});
    let (_, open, _) = app.api(k, "POST", "/drafts", Some(asking)).await;
    assert_eq!(open["status"], "needs_input", "{open}");
    let (st, _, _) = app
        .api(
            k,
            "GET",
            &format!("/drafts/{}/pages", open["draftRef"].as_str().unwrap()),
            None,
        )
        .await;
    assert_eq!(st, 409);
    let other = app.workspace(Plan::Pro).await;
    let stranger = app.key(&other, Mode::Test, &["drafts:write"]).await;
    let (st, _, _) = app
        .api(
            &stranger,
            "GET",
            &format!("/drafts/{reference}/pages"),
            None,
        )
        .await;
    assert_eq!(st, 404);
    // 50 drafts a day (a draft still asking questions is not one): the 51st is refused, saying when more are allowed.
    for i in 1..50 {
        let (s, b, _) = app.api(k, "POST", "/drafts", Some(draft.clone())).await;
        assert_eq!(s, 200, "draft {i}: {b}");
    }
    let (s, e, h) = app.api(k, "POST", "/drafts", Some(draft.clone())).await;
    assert_eq!(s, 429, "{e}");
    assert!(
        e["error"]["message"]
            .as_str()
            .unwrap()
            .contains("midnight UTC"),
        "{e}"
    );
    assert!(h.get("retry-after").is_some());
    // Starts are bounded too, four for each draft the key may make (those above included),
    // so starts left unanswered never spend the workspace's 1,000 a day.
    let asking = json!({"play": "mutual-nda", "people": people});
    let mut refused = None;
    for _ in 0..250 {
        let (s, b, _) = app.api(k, "POST", "/drafts", Some(asking.clone())).await;
        if s != 200 {
            refused = Some((s, b));
            break;
        }
    }
    let (s, e) = refused.expect("a key's starts are bounded");
    assert_eq!(s, 429, "{e}");
    assert!(
        e["error"]["message"]
            .as_str()
            .unwrap()
            .contains("started 200 drafts"),
        "{e}"
    );
});

both_quiet!(
    a_builder_key_checks_previews_saves_and_saves_again_over_http,
    |app| {
        let ws = app.workspace(Plan::Free).await;
        embedding(&app, &ws, true, &[SITE]).await;
        let key = app.key(&ws, Mode::Test, &["embedded:write"]).await;
        // The session over REST (Idempotency-Key required), opened as its page does.
        let k = &builder_key(&app, &key).await;
        let source = crate::documents::source();

        // It checks a template's words (and only a template's: other checks take
        // documents:read).
        let (st, check, _) = app
            .api(
                k,
                "POST",
                "/documents/check",
                Some(json!({"source": source, "forTemplate": true})),
            )
            .await;
        assert_eq!(st, 200, "{check}");
        assert_eq!(check["ok"], true, "{check}");
        assert_eq!(check["questions"], json!(["fee"]));
        let (st, _, _) = app
            .api(
                k,
                "POST",
                "/documents/check",
                Some(json!({"source": source})),
            )
            .await;
        assert_eq!(st, 401);

        // A preview: every page drawn, each field's box on its page.
        let (st, preview, _) = app
            .api(
                k,
                "POST",
                "/templates/preview",
                Some(json!({"source": source, "paper": "a4"})),
            )
            .await;
        assert_eq!(st, 200, "{preview}");
        let pages = preview["pages"].as_array().unwrap();
        assert!(!pages.is_empty());
        assert!(
            (pages[0]["width"].as_f64().unwrap() - 595.3).abs() < 1.0,
            "{}",
            pages[0]["width"]
        );
        assert!(
            pages[0]["image"]
                .as_str()
                .unwrap()
                .starts_with("data:image/png;base64,")
        );
        let fields = preview["fields"].as_array().unwrap();
        let roles: std::collections::BTreeSet<&str> =
            fields.iter().map(|f| f["role"].as_str().unwrap()).collect();
        assert_eq!(roles, ["client", "provider"].into_iter().collect());
        assert!(
            fields
                .iter()
                .all(|f| f["page"].as_i64().unwrap() >= 1 && f["width"].as_f64().unwrap() > 0.0)
        );
        // Words with a problem are not drawn: the problem is said, at its place.
        let mut broken = source.clone();
        broken["content"][5]["content"][1]["attrs"]["type"] = json!("hologram");
        let (st, e, _) = app
            .api(
                k,
                "POST",
                "/templates/preview",
                Some(json!({"source": broken})),
            )
            .await;
        assert_eq!(st, 400, "{e}");
        assert!(
            e["error"]["message"]
                .as_str()
                .unwrap()
                .contains("source.content[5]"),
            "{e}"
        );

        // Saved, read back, saved again as version 2.
        let (st, made, _) = app
            .api(
                k,
                "POST",
                "/templates/source",
                Some(json!({"name": "Consulting", "source": source})),
            )
            .await;
        assert_eq!(st, 201, "{made}");
        let id = made["id"].as_str().unwrap();
        assert_eq!(made["seats"], json!(["client", "provider"]));
        let (st, read, _) = app
            .api(k, "GET", &format!("/templates/{id}/source"), None)
            .await;
        assert_eq!(st, 200, "{read}");
        assert_eq!(read["version"], 1);
        assert_eq!(read["source"], source);
        let mut edited = source.clone();
        edited["content"]
            .as_array_mut()
            .unwrap()
            .push(json!({"type": "signatureBlock", "attrs": {"role": "witness"}}));
        let (st, v2, _) = app
            .api(
                k,
                "POST",
                &format!("/templates/{id}/versions"),
                Some(json!({"version": 1, "source": edited, "name": "Consulting v2"})),
            )
            .await;
        assert_eq!(st, 201, "{v2}");
        assert_eq!(v2["version"], 2);
        assert_eq!(v2["name"], "Consulting v2");
        assert_eq!(v2["seats"], json!(["client", "provider", "witness"]));
        // A save from the old version is refused, naming what to do; nothing changed.
        let (st, e) = save_version(&app, k, id, 1, &source).await;
        assert_eq!(st, 409, "{e}");
        assert!(
            e["error"]["message"]
                .as_str()
                .unwrap()
                .contains("read it again"),
            "{e}"
        );
        let (_, now, _) = app.api(k, "GET", &format!("/templates/{id}"), None).await;
        assert_eq!(now["version"], 2);
        // Bad words are a 400 and no version.
        let (st, _) = save_version(&app, k, id, 2, &broken).await;
        assert_eq!(st, 400);
        let (_, now, _) = app.api(k, "GET", &format!("/templates/{id}"), None).await;
        assert_eq!(now["version"], 2);
        // Another frame of the same workspace reads and changes only the templates it made.
        let k2 = &builder_key(&app, &key).await;
        let (st, _, _) = app
            .api(k2, "GET", &format!("/templates/{id}/source"), None)
            .await;
        assert_eq!(st, 404);
        let (st, _) = save_version(&app, k2, id, 2, &source).await;
        assert_eq!(st, 404);
        // A version number that is not one is a 400.
        let (st, _) = save_version(&app, k, id, 0, &source).await;
        assert_eq!(st, 400);
        // A template of another workspace is a 404.
        let other = app.workspace(Plan::Free).await;
        let stranger = app
            .key(&other, Mode::Test, &["templates:write", "templates:read"])
            .await;
        let (st, _, _) = app
            .api(&stranger, "GET", &format!("/templates/{id}/source"), None)
            .await;
        assert_eq!(st, 404);
        // The builder's key still cannot make or read documents from it.
        let (st, _, _) = app
            .api(
                k,
                "POST",
                &format!("/templates/{id}/documents"),
                Some(json!({"people": []})),
            )
            .await;
        assert_eq!(st, 401);
    }
);

both_quiet!(
    fields_are_placed_on_a_file_without_tags_and_only_its_fields_change,
    |app| {
        use base64::Engine;
        let ws = app.workspace(Plan::Free).await;
        let k = app
            .key(&ws, Mode::Test, &["templates:read", "templates:write"])
            .await;
        let plain = crate::forged::pdf(&[
            b"BT /F1 14 Tf 72 700 Td (Lease of the blue bike.) Tj ET\n".to_vec(),
        ]);
        let file = base64::engine::general_purpose::STANDARD.encode(&plain);
        // Without tags a file is refused, unless its fields are to be placed.
        let body = json!({"name": "Bike lease", "fileName": "lease.pdf", "file": file});
        let (st, e, _) = app
            .api(&k, "POST", "/templates/file", Some(body.clone()))
            .await;
        assert_eq!(st, 400, "{e}");
        let mut later = body.clone();
        later["placeFields"] = json!(true);
        let (st, made, _) = app.api(&k, "POST", "/templates/file", Some(later)).await;
        assert_eq!(st, 201, "{made}");
        let id = made["id"].as_str().unwrap().to_string();
        assert_eq!(made["seats"], json!([]));
        // Not offered for sending while it has no seat.
        let (_, listed, _) = app.api(&k, "GET", "/documents/templates", None).await;
        assert!(
            listed["data"]
                .as_array()
                .unwrap()
                .iter()
                .all(|t| t["id"] != id.as_str())
        );

        // Its page, to place fields on.
        let (st, page, _) = app
            .api(&k, "GET", &format!("/templates/{id}/pages/1"), None)
            .await;
        assert_eq!(st, 200, "{page}");
        assert_eq!(page["width"], 612.0);
        assert!(
            page["image"]
                .as_str()
                .unwrap()
                .starts_with("data:image/png;base64,")
        );
        let (st, _, _) = app
            .api(&k, "GET", &format!("/templates/{id}/pages/2"), None)
            .await;
        assert_eq!(st, 404);
        let (st, _, _) = app
            .api(&k, "GET", &format!("/templates/{id}/pages/0"), None)
            .await;
        assert_eq!(st, 404);

        // Fields placed: a new version; the file and its pages stay the stored ones, whatever
        // the request says of them.
        let (_, read, _) = app
            .api(&k, "GET", &format!("/templates/{id}/source"), None)
            .await;
        let blob = read["source"]["file"]["blob"].clone();
        let placed = json!({"type": "doc", "file": {
            "blob": "templates/someone-else/v1.pdf",
            "pages": [[10, 10]],
            "fields": [
                {"name": "Rider signature", "type": "signature", "role": "rider",
                 "page": 1, "x": 72, "y": 600, "width": 180, "height": 36},
                {"name": "Start", "type": "date", "role": "rider",
                 "page": 1, "x": 300, "y": 600, "width": 120, "height": 20}
            ]
        }});
        let (st, v2) = save_version(&app, &k, &id, 1, &placed).await;
        assert_eq!(st, 201, "{v2}");
        assert_eq!(v2["version"], 2);
        assert_eq!(v2["seats"], json!(["rider"]));
        assert_eq!(v2["pages"], 1);
        let areas = &v2["fields"].as_array().unwrap()[0]["areas"];
        assert_eq!(areas[0]["x"], 72.0, "{v2}");
        let (_, read, _) = app
            .api(&k, "GET", &format!("/templates/{id}/source"), None)
            .await;
        assert_eq!(read["source"]["file"]["blob"], blob);
        assert_eq!(read["source"]["file"]["pages"], json!([[612.0, 792.0]]));
        let (_, listed, _) = app.api(&k, "GET", "/documents/templates", None).await;
        assert!(
            listed["data"]
                .as_array()
                .unwrap()
                .iter()
                .any(|t| t["id"] == id.as_str())
        );
        // Documents are made from version 2, on the file kept since version 1.
        let sender = app.key(&ws, Mode::Test, &["documents:write"]).await;
        let (st, doc, _) = app
            .api(
                &sender,
                "POST",
                &format!("/templates/{id}/documents"),
                Some(json!({"people": [{"name": "Rae Rider", "email": "rae@example.com", "role": "rider"}]})),
            )
            .await;
        assert_eq!(st, 201, "{doc}");
        assert_eq!(doc["templateVersion"], 2);

        // Words may not name a file: not in a template from words, or a preview (another
        // workspace's file would be one request away).
        let foreign = json!({"type": "doc", "file": {"blob": blob, "pages": [[612, 792]]}});
        let (st, e, _) = app
            .api(
                &k,
                "POST",
                "/templates/source",
                Some(json!({"name": "Sneaky", "source": foreign})),
            )
            .await;
        assert_eq!(st, 400, "{e}");
        assert!(
            e["error"]["message"]
                .as_str()
                .unwrap()
                .contains("source.file"),
            "{e}"
        );
        let (st, _, _) = app
            .api(
                &k,
                "POST",
                "/templates/preview",
                Some(json!({"source": foreign})),
            )
            .await;
        assert_eq!(st, 400);

        // A field off its page is a 400 naming it; nothing is saved.
        let off = json!({"type": "doc", "file": {"fields": [
            {"name": "Rider signature", "type": "signature", "role": "rider",
             "page": 1, "x": 600, "y": 780, "width": 180, "height": 36}
        ]}});
        let (st, e) = save_version(&app, &k, &id, 2, &off).await;
        assert_eq!(st, 400, "{e}");
        assert!(
            e["error"]["message"]
                .as_str()
                .unwrap()
                .contains("source.file.fields[0]"),
            "{e}"
        );
        let (_, now, _) = app.api(&k, "GET", &format!("/templates/{id}"), None).await;
        assert_eq!(now["version"], 2);
    }
);

both_quiet!(
    a_frame_s_key_ends_when_its_website_may_no_longer_show_it,
    |app| {
        let ws = app.workspace(Plan::Pro).await;
        let key = app.key(&ws, Mode::Test, &["embedded:write"]).await;
        embedding(&app, &ws, true, &[SITE, "https://other.example.com"]).await;
        let builder = session(&app, &key, Frame::Builder, SITE).await.unwrap();
        let b = frames::start(app.ctx(), Frame::Builder, token(&builder.url))
            .await
            .unwrap()
            .key;
        let other = session(&app, &key, Frame::Scribe, "https://other.example.com")
            .await
            .unwrap();
        let o = frames::start(app.ctx(), Frame::Scribe, token(&other.url))
            .await
            .unwrap()
            .key;
        assert_eq!(
            status(&app, &b, "GET", "/documents/templates", None).await,
            200
        );
        assert_eq!(status(&app, &o, "GET", "/plays", None).await, 200);
        // The other website taken off the list: its frame's key ends at once; this one's not.
        embedding(&app, &ws, true, &[SITE]).await;
        assert_eq!(status(&app, &o, "GET", "/plays", None).await, 401);
        assert_eq!(
            status(&app, &b, "GET", "/documents/templates", None).await,
            200
        );
        // Embedding turned off: every frame's key ends.
        embedding(&app, &ws, false, &[SITE]).await;
        assert_eq!(
            status(&app, &b, "GET", "/documents/templates", None).await,
            401
        );
    }
);
