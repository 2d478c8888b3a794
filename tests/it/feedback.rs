//! Delivery feedback: real-world shapes of bounces, delivery reports and abuse reports
//! (`tests/it/mail/feedback/`, described in its README) posted to `/hooks/email` or piped to
//! `signet admin email feedback`, matched by the returned Message-ID.

use serde_json::{Value, json};
use signet_core::Mode;
use signet_core::plans::Plan;

use crate::documents;
use crate::harness::{Answer, Kind, Options, TestApp};

const SECRET: &str = "feedback-secret-0123456789abcdef";

/// A sample whose returned original carries `local` as its Message-ID's local part.
fn sample(name: &str, local: &str) -> Vec<u8> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/it/mail/feedback")
        .join(name);
    String::from_utf8(std::fs::read(path).unwrap())
        .unwrap()
        .replace("eml_PLACEHOLDER", local)
        .into_bytes()
}

async fn post(app: &TestApp, secret: &str, content_type: &str, body: Vec<u8>) -> Answer {
    let req = app
        .client
        .post(format!("{}/hooks/email", app.base))
        .bearer_auth(secret)
        .header("content-type", content_type)
        .body(body);
    app.send(req).await
}

/// A live document to one signer at `to`; the id of its invitation, once sent.
async fn invitation(app: &TestApp, key: &str, to: &str) -> (String, String) {
    let doc = documents::create(
        app,
        key,
        json!({"sendNow": true, "people": [
            {"name": "Ada Client", "email": to, "role": "client"},
            {"name": "Bob Provider", "email": "bob@example.com", "role": "provider"}
        ]}),
    )
    .await;
    assert_eq!(doc.status, 201, "{}", doc.body);
    let id = doc.body["id"].as_str().unwrap().to_string();
    app.run_pending_jobs().await;
    let log = app
        .get(
            &format!("/api/v1/emails?documentId={id}&to={to}"),
            Some(key),
        )
        .await;
    let email = log.body["data"][0]["id"].as_str().unwrap().to_string();
    (id, email)
}

/// The local part of the Message-ID Signet wrote for an email.
fn tagged(app: &TestApp, email: &str) -> String {
    signet_email::send::message_local(app.ctx(), email)
}

async fn status(app: &TestApp, key: &str, email: &str) -> Value {
    let log = app.get("/api/v1/emails?limit=200", Some(key)).await;
    log.body["data"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["id"] == email)
        .cloned()
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bounces_delivery_reports_and_complaints_of_real_mail_systems_are_read_and_matched() {
    for kind in [Kind::Sqlite, Kind::PostgresRedis] {
        let opts = Options {
            no_worker: true,
            email_feedback_secret: Some(SECRET.into()),
            ..Default::default()
        };
        let Some(app) = TestApp::start_with(kind, opts).await else {
            continue;
        };
        let ws = app.workspace(Plan::Pro).await;
        let all: Vec<&str> = signet_core::Scope::ALL.iter().map(|s| s.as_str()).collect();
        let key = app.key(&ws, Mode::Live, &all).await;

        for (file, outcome, status_after, suppressed, detail) in [
            (
                "postfix-delivered.eml",
                "delivered",
                "delivered",
                false,
                "delivered to maildir",
            ),
            ("delayed.eml", "delayed", "sent", false, "4.2.2"),
            (
                "postfix-hard-bounce.eml",
                "bounced",
                "bounced",
                true,
                "550 5.1.1",
            ),
            ("exim-hard-bounce.eml", "bounced", "bounced", true, "5.1.1"),
            (
                "exim-legacy-text-bounce.eml",
                "bounced",
                "bounced",
                true,
                "550",
            ),
            ("exchange-ndr.eml", "bounced", "bounced", true, "5.1.10"),
            ("gmail-bounce.eml", "bounced", "bounced", true, "550 5.1.1"),
            ("arf-abuse.eml", "complained", "complained", true, "abuse"),
            (
                "arf-abuse-headers-only.eml",
                "complained",
                "complained",
                true,
                "abuse",
            ),
        ] {
            let to = format!("{}@example.com", file.trim_end_matches(".eml"));
            let (doc, email) = invitation(&app, &key, &to).await;
            let a = post(
                &app,
                SECRET,
                "message/rfc822",
                sample(file, &tagged(&app, &email)),
            )
            .await;
            assert_eq!(a.status, 200, "{file}: {}", a.body);
            assert_eq!(a.body["outcome"], outcome, "{file}: {}", a.body);
            assert_eq!(a.body["suppressed"], suppressed, "{file}");
            assert!(
                a.body["detail"].as_str().unwrap().contains(detail),
                "{file}: {}",
                a.body
            );
            let e = status(&app, &key, &email).await;
            assert_eq!(e["status"], status_after, "{file}: {e}");
            let trail = documents::audit_chain(&app, &doc).await;
            assert_eq!(
                trail.iter().any(|ev| ev == &format!("email_{outcome}")),
                suppressed,
                "{file}: the trail says so when the address is suppressed: {trail:?}"
            );
            if suppressed {
                // Later emails to the address fail with the reason, and the trail says so.
                let (later, email) = invitation(&app, &key, &to).await;
                let e = status(&app, &key, &email).await;
                assert_eq!(e["status"], "failed", "{file}: {e}");
                assert!(e["reason"].as_str().unwrap().contains("suppressed"), "{e}");
                let trail = documents::audit_chain(&app, &later).await;
                assert!(trail.contains(&"email_suppressed".to_string()), "{trail:?}");
            }
        }

        // Refused, changing nothing, each saying why.
        let (_, email) = invitation(&app, &key, "carol@example.com").await;
        for (file, status, says) in [
            (
                "not-a-report.eml",
                400,
                "not a delivery status notification",
            ),
            ("unmatched-bounce.eml", 400, "not one Signet wrote"),
        ] {
            let a = post(
                &app,
                SECRET,
                "message/rfc822",
                sample(file, &tagged(&app, &email)),
            )
            .await;
            assert_eq!(a.status, status, "{file}: {}", a.body);
            assert!(
                a.body["error"]["message"].as_str().unwrap().contains(says),
                "{file}: {}",
                a.body
            );
        }
        let a = post(
            &app,
            SECRET,
            "message/rfc822",
            sample(
                "postfix-hard-bounce.eml",
                &tagged(&app, "eml_01NOSUCHEMAIL"),
            ),
        )
        .await;
        assert_eq!(a.status, 404, "{}", a.body);
        assert!(
            a.body["error"]["message"]
                .as_str()
                .unwrap()
                .contains("nothing changed")
        );
        assert_eq!(status(&app, &key, &email).await["status"], "sent");
        // A report naming another email with a made-up tag (ids made in one millisecond are
        // neighbours; the tag is keyed) is refused.
        let forged = format!("{email}.0123456789abcdef");
        let a = post(
            &app,
            SECRET,
            "message/rfc822",
            sample("arf-abuse.eml", &forged),
        )
        .await;
        assert_eq!(a.status, 400, "{}", a.body);
        assert!(
            a.body["error"]["message"].as_str().unwrap().contains("tag"),
            "{}",
            a.body
        );
        assert_eq!(status(&app, &key, &email).await["status"], "sent");

        // The door: the secret, and the message whole.
        let body = sample("postfix-hard-bounce.eml", &tagged(&app, &email));
        assert_eq!(
            post(
                &app,
                "wrong-secret-wrong-secret-00",
                "message/rfc822",
                body.clone()
            )
            .await
            .status,
            401
        );
        assert_eq!(
            post(&app, SECRET, "application/json", body).await.status,
            400
        );
        assert_eq!(status(&app, &key, &email).await["status"], "sent");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_mta_pipes_reports_to_the_command_and_the_route_is_off_without_a_secret() {
    let app = TestApp::start_without_workers(Kind::Sqlite).await.unwrap();
    let ws = app.workspace(Plan::Pro).await;
    let key = app
        .key(
            &ws,
            Mode::Live,
            &["documents:write", "documents:read", "notifications:read"],
        )
        .await;
    let (_, email) = invitation(&app, &key, "ada@example.com").await;
    let (code, out, err) = app.cli_with_input(
        &["admin", "email", "feedback", "--json"],
        &sample("gmail-bounce.eml", &tagged(&app, &email)),
    );
    assert_eq!(code, 0, "{err}");
    let out: Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(out["outcome"], "bounced");
    assert_eq!(out["suppressed"], true);
    assert_eq!(status(&app, &key, &email).await["status"], "bounced");
    let (code, _, err) = app.cli_with_input(
        &["admin", "email", "feedback"],
        &sample("not-a-report.eml", &tagged(&app, &email)),
    );
    assert_ne!(code, 0);
    assert!(err.contains("not a delivery status notification"), "{err}");

    let a = post(
        &app,
        SECRET,
        "message/rfc822",
        sample("gmail-bounce.eml", &tagged(&app, &email)),
    )
    .await;
    assert_eq!(a.status, 404);
    assert!(
        a.body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("email_feedback_secret")
    );
}
