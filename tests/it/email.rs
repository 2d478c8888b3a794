//! Email: every message a person receives, delivered over real SMTP (aiosmtpd, with STARTTLS
//! and AUTH) or written as `.eml` files; links that work; the log; test-mode routing; the
//! daily allowance; wording.

use reqwest::Method;
use serde_json::{Value, json};
use signet_core::Mode;
use signet_core::plans::{Plan, Plans};

use crate::documents;
use crate::harness::{Kind, Options, TestApp};
use crate::sink::{Received, Sink, SinkOptions};

const KINDS: [Kind; 2] = [Kind::Sqlite, Kind::PostgresRedis];

fn all_scopes() -> Vec<&'static str> {
    signet_core::Scope::ALL.iter().map(|s| s.as_str()).collect()
}

async fn live_owner(app: &TestApp, plan: Plan) -> (String, String) {
    let ws = app.workspace(plan).await;
    let key = app.key(&ws, Mode::Live, &all_scopes()).await;
    (ws, key)
}

/// An app whose mail goes to `sink` over SMTP, with no background workers: the test runs
/// the passes.
async fn with_sink(kind: Kind, sink: &Sink, auth: Option<&str>, extra: Options) -> Option<TestApp> {
    let tls = if sink.ca_file.is_some() {
        "?tls=starttls"
    } else {
        ""
    };
    let cred = auth.map(|a| format!("{a}@")).unwrap_or_default();
    let url = format!("smtp://{cred}127.0.0.1:{}{tls}", sink.port);
    TestApp::start_with(
        kind,
        Options {
            no_worker: true,
            smtp: Some((url, sink.ca_file.clone())),
            mail_from: Some("Signet <sign@example.org>".into()),
            ..extra
        },
    )
    .await
}

fn token_of(text: &str) -> String {
    let at = text.find("/s/").expect("a signing link");
    text[at + 3..]
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
        .collect()
}

async fn log(app: &TestApp, key: &str, query: &str) -> Vec<Value> {
    let a = app.get(&format!("/api/v1/emails{query}"), Some(key)).await;
    assert_eq!(a.status, 200, "{}", a.body);
    a.body["data"].as_array().unwrap().clone()
}

fn by_to<'a>(got: &'a [Received], to: &str) -> Vec<&'a Received> {
    got.iter().filter(|r| r.to() == to).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn invitations_go_over_smtp_with_starttls_and_auth_and_a_4xx_is_tried_again() {
    for kind in KINDS {
        let Some(sink) = Sink::start(SinkOptions {
            tls: true,
            auth: Some(("mailer".into(), "s3cret pass".into())),
            fail_first: 1,
            ..Default::default()
        }) else {
            return;
        };
        let Some(app) = with_sink(
            kind,
            &sink,
            Some("mailer:s3cret%20pass"),
            Options::default(),
        )
        .await
        else {
            continue;
        };
        let (_, key) = live_owner(&app, Plan::Pro).await;
        let doc = documents::create(
            &app,
            &key,
            json!({"sendNow": true, "send": {"message": "Please sign <b>today</b>."}}),
        )
        .await;
        assert_eq!(doc.status, 201, "{}", doc.body);
        let id = doc.body["id"].as_str().unwrap().to_string();

        // The first message is answered 451: both wait, the log says why, nothing is lost.
        app.run_pending_jobs().await;
        let first = sink.received().len();
        assert!(first < 2, "one of the two was answered 451");
        let waiting: Vec<Value> = log(&app, &key, "?status=paused").await;
        assert_eq!(waiting.len(), 2 - first, "{waiting:?}");
        assert!(
            waiting[0]["reason"].as_str().unwrap().contains("451"),
            "{waiting:?}"
        );
        app.make_due("email").await;
        app.run_pending_jobs().await;

        let got = sink.received();
        assert_eq!(got.len(), 2, "an invitation to each signer, none to the cc");
        let entries = log(&app, &key, &format!("?documentId={id}")).await;
        assert_eq!(entries.len(), 2);
        for who in ["ada@example.com", "bob@example.com"] {
            let mails = by_to(&got, who);
            assert_eq!(mails.len(), 1, "{who}");
            let m = mails[0];
            assert_eq!(m.meta["tls"], true);
            assert_eq!(m.meta["authenticated"], true);
            assert_eq!(m.meta["mailFrom"], "sign@example.org");
            assert_eq!(m.subject(), "Acme sent you “Services agreement” to sign");
            assert!(
                m.header("From").contains("sign@example.org"),
                "{}",
                m.header("From")
            );
            assert_eq!(m.header("Auto-Submitted"), "auto-generated");
            let text = m.text();
            assert!(text.contains("Please sign <b>today</b>."), "{text}");
            assert!(
                !m.html().contains("<b>today</b>"),
                "the message is escaped in HTML"
            );
            // The link is the person's own, and the API can tell whose by its hash alone.
            let token = token_of(&text);
            assert_eq!(token.len(), 43);
            assert!(text.contains(&format!("{}/s/{token}", app.ctx().public_url)));
            let holder = signet_documents::signing::links::check(app.ctx(), &token)
                .await
                .unwrap()
                .expect("the link is known");
            assert_eq!(holder.document_id, id);
            let entry = entries.iter().find(|e| e["to"] == who).unwrap();
            assert_eq!(entry["status"], "sent");
            assert_eq!(entry["kind"], "invitation");
            assert_eq!(entry["subject"], m.subject());
            let mid = m.header("Message-ID");
            let local = signet_email::send::message_local(app.ctx(), entry["id"].as_str().unwrap());
            assert_eq!(mid, format!("<{local}@example.org>"));
            // Never a link or a body in the log.
            assert!(!entry.to_string().contains(&token));
        }
        // A made-up token, and one of another length, are nobody's.
        let ctx = app.ctx();
        assert!(
            signet_documents::signing::links::check(ctx, &"A".repeat(43))
                .await
                .unwrap()
                .is_none()
        );
        assert!(
            signet_documents::signing::links::check(ctx, "short")
                .await
                .unwrap()
                .is_none()
        );

        // The emails counted toward today's usage.
        let usage = app.get("/api/v1/usage", Some(&key)).await;
        assert_eq!(usage.body["emails"]["used"], 2, "{}", usage.body);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reminder_carries_a_fresh_link_and_the_earlier_one_keeps_working_until_the_end() {
    for kind in KINDS {
        let Some(sink) = Sink::start(SinkOptions::default()) else {
            return;
        };
        let Some(app) = with_sink(kind, &sink, None, Options::default()).await else {
            continue;
        };
        let (_, key) = live_owner(&app, Plan::Pro).await;
        let doc = documents::create(&app, &key, json!({"sendNow": true})).await;
        let id = doc.body["id"].as_str().unwrap().to_string();
        app.run_pending_jobs().await;
        let r = app
            .post(
                &format!("/api/v1/documents/{id}/remind"),
                &key,
                &[],
                r#"{"seat":"client"}"#,
            )
            .await;
        assert_eq!(r.status, 200, "{}", r.body);
        app.run_pending_jobs().await;
        let got = sink.received();
        let ada = by_to(&got, "ada@example.com");
        assert_eq!(ada.len(), 2);
        assert!(
            ada[1].subject().starts_with("Reminder: "),
            "{}",
            ada[1].subject()
        );
        let (first, second) = (token_of(&ada[0].text()), token_of(&ada[1].text()));
        assert_ne!(first, second);
        let ctx = app.ctx();
        for t in [&first, &second] {
            assert!(
                signet_documents::signing::links::check(ctx, t)
                    .await
                    .unwrap()
                    .is_some()
            );
        }
        let v = app
            .post(
                &format!("/api/v1/documents/{id}/void"),
                &key,
                &[],
                r#"{"reason":"Replaced by v2"}"#,
            )
            .await;
        assert_eq!(v.status, 200, "{}", v.body);
        for t in [&first, &second] {
            assert!(
                signet_documents::signing::links::check(ctx, t)
                    .await
                    .unwrap()
                    .is_none(),
                "a link ends with its document"
            );
        }
        // Everyone invited hears that it was voided, with the reason.
        app.run_pending_jobs().await;
        let got = sink.received();
        let voided: Vec<&Received> = got
            .iter()
            .filter(|m| m.subject().starts_with("Cancelled"))
            .collect();
        assert_eq!(voided.len(), 2);
        assert!(voided[0].text().contains("Replaced by v2"));
        assert!(
            !voided[0].text().contains("/s/"),
            "no link in a voided email"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_5xx_fails_for_good_and_is_not_tried_again() {
    for kind in KINDS {
        let Some(sink) = Sink::start(SinkOptions {
            reject: vec!["bob@example.com".into()],
            ..Default::default()
        }) else {
            return;
        };
        let Some(app) = with_sink(kind, &sink, None, Options::default()).await else {
            continue;
        };
        let (_, key) = live_owner(&app, Plan::Pro).await;
        documents::create(&app, &key, json!({"sendNow": true})).await;
        app.run_pending_jobs().await;
        app.make_due("email").await;
        app.run_pending_jobs().await;
        assert_eq!(sink.received().len(), 1);
        let failed = log(&app, &key, "?status=failed").await;
        assert_eq!(failed.len(), 1, "{failed:?}");
        assert_eq!(failed[0]["to"], "bob@example.com");
        assert!(
            failed[0]["reason"].as_str().unwrap().contains("550"),
            "{failed:?}"
        );
        let sent = log(&app, &key, "?status=sent&to=ADA@example.com").await;
        assert_eq!(sent.len(), 1, "the address filter ignores case");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_smtp_each_email_is_an_eml_file_and_a_repeat_keeps_its_message_id() {
    for kind in KINDS {
        let Some(app) = TestApp::start_with(
            kind,
            Options {
                no_worker: true,
                ..Default::default()
            },
        )
        .await
        else {
            continue;
        };
        let (_, key) = live_owner(&app, Plan::Pro).await;
        let doc = documents::create(
            &app,
            &key,
            json!({"sendNow": true, "people": [
                {"name": "Ada Client", "email": "ada@example.com", "role": "client"},
                {"name": "Bob Provider", "email": "bob@example.com", "role": "provider"}
            ]}),
        )
        .await;
        assert_eq!(doc.status, 201, "{}", doc.body);
        app.run_pending_jobs().await;
        let folder = app.dir.path().join("mail");
        let files = eml_files(&folder);
        assert_eq!(files.len(), 2, "{files:?}");
        let entries = log(&app, &key, "").await;
        for e in &entries {
            let raw =
                std::fs::read(folder.join(format!("{}.eml", e["id"].as_str().unwrap()))).unwrap();
            let m = mail_parser::MessageParser::default().parse(&raw).unwrap();
            let local = signet_email::send::message_local(app.ctx(), e["id"].as_str().unwrap());
            assert_eq!(
                m.message_id().unwrap(),
                format!("{local}@localhost.localdomain")
            );
            assert!(m.body_text(0).unwrap().contains("/s/"));
        }
        // A worker that died after handing a message over and before recording it: the job
        // comes back, the same email goes again under the same Message-ID, one log row.
        let db = &app.ctx().db;
        db.write(db.stmt(
            "UPDATE outbox SET state = 'queued', run_at = 0 WHERE kind = 'email'",
            Vec::<signet_storage::sea_orm::Value>::new(),
        ))
        .await
        .unwrap();
        // With Redis, its sweep files the rows changed behind it (as after a lease ran out).
        app.ctx().queue.sweep("email").await.unwrap();
        db.write(db.stmt(
            "UPDATE emails SET status = 'queued'",
            Vec::<signet_storage::sea_orm::Value>::new(),
        ))
        .await
        .unwrap();
        app.run_pending_jobs().await;
        assert_eq!(eml_files(&folder), files);
        let again = log(&app, &key, "").await;
        assert_eq!(again.len(), 2);
        assert!(again.iter().all(|e| e["status"] == "sent"));
        let usage = app.get("/api/v1/usage", Some(&key)).await;
        assert_eq!(
            usage.body["emails"]["used"], 2,
            "a repeat is not counted again"
        );
    }
}

fn eml_files(dir: &std::path::Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .map(|d| {
            d.filter_map(|e| e.ok())
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    v.retain(|n| n.ends_with(".eml"));
    v.sort();
    v
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn test_mode_emails_go_only_to_the_sender_marked_test_and_never_counted() {
    for kind in KINDS {
        let Some(sink) = Sink::start(SinkOptions::default()) else {
            return;
        };
        let Some(app) = with_sink(kind, &sink, None, Options::default()).await else {
            continue;
        };
        let (ws, key) = app.owner().await;
        // No sender address anywhere: failed, saying how to set one.
        documents::create(&app, &key, json!({"sendNow": true})).await;
        app.run_pending_jobs().await;
        assert!(sink.received().is_empty());
        let failed = log(&app, &key, "?status=failed").await;
        assert_eq!(failed.len(), 2);
        assert!(
            failed[0]["reason"]
                .as_str()
                .unwrap()
                .contains("--sender-email"),
            "{failed:?}"
        );
        assert_eq!(failed[0]["test"], true);

        // Not to an address the request names: the sender.email fact and replyTo are the
        // caller's words, and a test key must not mail strangers.
        documents::create(
            &app,
            &key,
            json!({"sendNow": true,
            "facts": {"sender": {"email": "owner@example.net"}},
            "send": {"replyTo": "desk@example.net"}}),
        )
        .await;
        app.run_pending_jobs().await;
        assert!(sink.received().is_empty());
        // Only the workspace's own sender address, set by the operator or a person: each
        // kind of email once per document, however many people it has.
        signet_accounts::workspaces::update(
            app.ctx(),
            &ws,
            signet_accounts::workspaces::WorkspacePatch {
                sender_email: Some("team@example.net".into()),
                ..Default::default()
            },
        )
        .await
        .unwrap();
        let doc = documents::create(
            &app,
            &key,
            json!({"sendNow": true, "send": {"replyTo": "desk@example.net"}}),
        )
        .await;
        assert_eq!(doc.status, 201, "{}", doc.body);
        app.run_pending_jobs().await;
        let got = sink.received();
        assert_eq!(got.len(), 1, "one invitation for the two people");
        for m in &got {
            assert_eq!(m.to(), "team@example.net");
            assert!(m.subject().starts_with("[TEST] "), "{}", m.subject());
            assert!(m.text().contains("This is a test email."));
            assert!(m.header("Reply-To").contains("desk@example.net"));
        }
        let usage = app.get("/api/v1/usage", Some(&key)).await;
        assert_eq!(
            usage.body["emails"]["used"], 0,
            "test emails are never counted as live ones"
        );
        assert_eq!(usage.body["testEmails"]["used"], 1, "{}", usage.body);
        // A live key sees none of the test emails.
        let live = app.key(&ws, Mode::Live, &all_scopes()).await;
        assert!(log(&app, &live, "").await.is_empty());
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn past_the_daily_allowance_emails_wait_paused_and_go_oldest_first_after_midnight() {
    for kind in KINDS {
        let Some(sink) = Sink::start(SinkOptions::default()) else {
            return;
        };
        let mut plans = Plans::default();
        plans.free.emails_per_day = Some(2);
        let Some(app) = with_sink(
            kind,
            &sink,
            None,
            Options {
                plans: Some(plans),
                ..Default::default()
            },
        )
        .await
        else {
            continue;
        };
        let (ws, key) = live_owner(&app, Plan::Free).await;
        let people = json!([
            {"name": "A One", "email": "a1@example.com", "role": "client"},
            {"name": "A Two", "email": "a2@example.com", "role": "provider"}
        ]);
        documents::create(&app, &key, json!({"sendNow": true, "people": people})).await;
        let people = json!([
            {"name": "B One", "email": "b1@example.com", "role": "client"},
            {"name": "B Two", "email": "b2@example.com", "role": "provider"}
        ]);
        documents::create(&app, &key, json!({"sendNow": true, "people": people})).await;
        app.run_pending_jobs().await;
        assert_eq!(sink.received().len(), 2);
        let paused = log(&app, &key, "?status=paused").await;
        assert_eq!(paused.len(), 2, "nothing is dropped");
        assert!(
            paused[0]["reason"]
                .as_str()
                .unwrap()
                .contains("allowance of 2"),
            "{paused:?}"
        );
        let usage = app.get("/api/v1/usage", Some(&key)).await;
        assert_eq!(usage.body["emails"]["used"], 2);
        assert_eq!(usage.body["emails"]["limit"], 2);
        // They wait until midnight UTC: a pass before then sends nothing.
        app.run_pending_jobs().await;
        assert_eq!(sink.received().len(), 2);

        // Midnight: a new day's allowance, of which one is left; the oldest goes first.
        let db = &app.ctx().db;
        db.write(db.stmt(
            "UPDATE usage_counters SET count = 1 WHERE workspace_id = $1 AND metric = 'emails_sent'",
            [signet_storage::sea_orm::Value::from(ws.clone())],
        ))
        .await
        .unwrap();
        app.make_due("email").await;
        app.run_pending_jobs().await;
        let got = sink.received();
        assert_eq!(got.len(), 3);
        let first_paused = paused
            .iter()
            .map(|p| p["id"].as_str().unwrap())
            .min()
            .unwrap();
        let sent_now = got[2].header("Message-ID");
        assert!(sent_now.contains(first_paused), "{sent_now} {first_paused}");
        assert_eq!(log(&app, &key, "?status=paused").await.len(), 1);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_person_reads_their_own_language_else_the_documents() {
    for kind in KINDS {
        let Some(sink) = Sink::start(SinkOptions::default()) else {
            return;
        };
        let Some(app) = with_sink(kind, &sink, None, Options::default()).await else {
            continue;
        };
        let (ws, key) = live_owner(&app, Plan::Pro).await;
        let doc = documents::create(&app, &key, json!({"sendNow": true, "send": {"language": "fr"}, "people": [
            {"name": "Ada Client", "email": "ada@example.com", "role": "client", "locale": "de"},
            {"name": "Bob Provider", "email": "bob@example.com", "role": "provider"}
        ]}))
        .await;
        assert_eq!(doc.status, 201, "{}", doc.body);
        assert_eq!(documents::person(&doc.body, "client")["locale"], "de");
        app.run_pending_jobs().await;
        let got = sink.received();
        let (ada, bob) = (
            by_to(&got, "ada@example.com")[0],
            by_to(&got, "bob@example.com")[0],
        );
        assert!(
            ada.subject().contains("„Services agreement“"),
            "{}",
            ada.subject()
        );
        assert_eq!(ada.header("Content-Language"), "de");
        assert!(
            bob.subject().contains("«\u{a0}Services agreement\u{a0}»"),
            "{}",
            bob.subject()
        );
        // A bad language is refused, naming the person.
        let bad = documents::create(
            &app,
            &key,
            json!({"people": [
                {"name": "Ada Client", "email": "ada@example.com", "role": "client", "locale": "xx"}
            ]}),
        )
        .await;
        assert_eq!(bad.status, 400);
        assert!(
            bad.body["error"]["message"]
                .as_str()
                .unwrap()
                .contains("people[0].locale"),
            "{}",
            bad.body
        );
        // The workspace's language, when neither names one; Arabic is laid out right to left.
        signet_accounts::workspaces::update(
            app.ctx(),
            &ws,
            signet_accounts::workspaces::WorkspacePatch {
                locale: Some("ar".into()),
                ..Default::default()
            },
        )
        .await
        .unwrap();
        documents::create(&app, &key, json!({"sendNow": true})).await;
        app.run_pending_jobs().await;
        let got = sink.received();
        let last = got.last().unwrap();
        assert_eq!(last.header("Content-Language"), "ar");
        assert!(last.html().contains("dir=\"rtl\""));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn saved_wording_is_checked_previewed_used_and_forgotten() {
    for kind in KINDS {
        let Some(sink) = Sink::start(SinkOptions::default()) else {
            return;
        };
        let Some(app) = with_sink(kind, &sink, None, Options::default()).await else {
            continue;
        };
        let (_, key) = live_owner(&app, Plan::Pro).await;
        // A variable of another kind, or of none, is refused naming it and the field.
        for (body, field, var) in [
            (
                json!({"body": "Your code {{code.value}}"}),
                "body",
                "{{code.value}}",
            ),
            (
                json!({"subject": "{{document.titel}}"}),
                "subject",
                "{{document.titel}}",
            ),
        ] {
            let a = app
                .call(
                    Method::PUT,
                    "/api/v1/email-templates/invitation",
                    &key,
                    Some(&body),
                )
                .await;
            assert_eq!(a.status, 400, "{}", a.body);
            let m = a.body["error"]["message"].as_str().unwrap();
            assert!(m.starts_with(field) && m.contains(var), "{m}");
        }
        let a = app
            .call(
                Method::PUT,
                "/api/v1/email-templates/invitation",
                &key,
                Some(&json!({"subject": "Sign at {{action.url}}"})),
            )
            .await;
        assert_eq!(a.status, 400, "{}", a.body);
        assert!(
            a.body["error"]["message"]
                .as_str()
                .unwrap()
                .contains("email log")
        );
        let (_, test_key) = app.owner().await;
        let a = app
            .call(
                Method::PUT,
                "/api/v1/email-templates/invitation",
                &test_key,
                Some(&json!({"subject": "x"})),
            )
            .await;
        assert_eq!(
            a.status, 403,
            "a test key cannot change what live documents send: {}",
            a.body
        );
        let bad_kind = app
            .call(
                Method::PUT,
                "/api/v1/email-templates/welcome",
                &key,
                Some(&json!({})),
            )
            .await;
        assert_eq!(bad_kind.status, 400);

        let saved = app
            .call(Method::PUT, "/api/v1/email-templates/invitation", &key, Some(&json!({
                "locale": "en",
                "subject": "Signature needed: {{document.title}}",
                "body": "Dear {{person.name}},\n\nPlease sign {{document.title}} for {{workspace.name}}.",
                "footer": null
            })))
            .await;
        assert_eq!(saved.status, 200, "{}", saved.body);
        assert_eq!(
            saved.body["subject"],
            "Signature needed: {{document.title}}"
        );
        assert_eq!(saved.body["saved"]["footer"], Value::Null);
        assert_eq!(saved.body["footer"], saved.body["standard"]["footer"]);

        let list = app
            .get("/api/v1/email-templates?locale=en", Some(&key))
            .await;
        assert_eq!(list.status, 200);
        let kinds: Vec<&str> = list.body["data"]
            .as_array()
            .unwrap()
            .iter()
            .map(|k| k["kind"].as_str().unwrap())
            .collect();
        assert_eq!(
            kinds,
            [
                "invitation",
                "reminder",
                "completed",
                "declined",
                "voided",
                "expired",
                "code",
                "receipt"
            ]
        );
        let code = &list.body["data"][6];
        assert!(
            code["variables"]
                .as_array()
                .unwrap()
                .iter()
                .any(|v| v["name"] == "code.value")
        );
        assert_eq!(code["saved"], Value::Null);

        // The preview: made-up names, escaped, the link appended to a body that leaves it out.
        let p = app
            .post(
                "/api/v1/email-templates/invitation/preview",
                &key,
                &[],
                &json!({"subject": "<i>{{person.name}}</i>"}).to_string(),
            )
            .await;
        assert_eq!(p.status, 200, "{}", p.body);
        assert_eq!(p.body["subject"], "<i>Ada Lovelace</i>");
        assert!(
            p.body["body"]
                .as_str()
                .unwrap()
                .contains("Please sign Consulting Agreement for Analytical Engines Ltd.")
        );
        assert!(
            p.body["body"]
                .as_str()
                .unwrap()
                .contains("Review and sign:\nhttps://")
        );
        assert!(
            p.body["html"]
                .as_str()
                .unwrap()
                .contains("&lt;i&gt;Ada Lovelace&lt;/i&gt;")
        );

        // The saved wording goes out; a document's own subject wins over it.
        documents::create(&app, &key, json!({"sendNow": true})).await;
        documents::create(
            &app,
            &key,
            json!({"sendNow": true, "email": {"subject": "Our {{contract}}"}}),
        )
        .await;
        app.run_pending_jobs().await;
        let got = sink.received();
        assert_eq!(got.len(), 4);
        assert_eq!(
            got.iter()
                .filter(|m| m.subject() == "Signature needed: Services agreement")
                .count(),
            2
        );
        assert_eq!(
            got.iter()
                .filter(|m| m.subject() == "Our {{contract}}")
                .count(),
            2
        );
        assert!(got[0].text().contains("Dear "));

        // GraphQL reads and writes through the same resolvers.
        let q = json!({"query": "mutation { resetEmailTemplate(kind: \"invitation\", locale: \"en\") { subject saved { subject } } }"});
        let r = app.post("/graphql", &key, &[], &q.to_string()).await;
        assert_eq!(
            r.body["data"]["resetEmailTemplate"]["saved"],
            Value::Null,
            "{}",
            r.body
        );
        let q = json!({"query": "{ emailTemplates(locale: \"de\") { locale data { kind subject } } emails(limit: 2) { data { kind status to } page { nextCursor } } }"});
        let r = app.post("/graphql", &key, &[], &q.to_string()).await;
        assert_eq!(
            r.body["data"]["emailTemplates"]["data"][0]["subject"],
            "{{sender.name}} hat Ihnen „{{document.title}}“ zur Unterschrift gesendet",
            "{}",
            r.body
        );
        assert_eq!(
            r.body["data"]["emails"]["data"].as_array().unwrap().len(),
            2
        );
        assert!(r.body["data"]["emails"]["page"]["nextCursor"].is_string());
    }
}

/// Everyone of a live document signed, as the signing transition writes it, and its seal job
/// queued: nobody can sign a live document before the signing page exists.
async fn signed_live(app: &TestApp, ws: &str, id: &str) {
    use signet_storage::sea_orm::Value as V;
    let db = &app.ctx().db;
    for sql in [
        "UPDATE people SET status = 'signed', completed_at = 1 WHERE document_id = $1 AND action <> 'cc'",
        "UPDATE documents SET state = 'signed' WHERE id = $1",
    ] {
        db.write(db.stmt(sql, [V::from(id)])).await.unwrap();
    }
    // The sealing job the last signature would have queued.
    let job = signet_documents::jobs::SealJob {
        document_id: id.to_string(),
    };
    let owner = signet_queue::Owner {
        workspace_id: ws,
        document_id: Some(id),
        test: false,
    };
    let queued = signet_queue::enqueue(&db.conn, db, &job, owner)
        .await
        .unwrap();
    app.ctx().queued(queued).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn completed_goes_to_everyone_and_the_sender_with_the_sealed_copy_attached() {
    for kind in KINDS {
        let Some(sink) = Sink::start(SinkOptions::default()) else {
            return;
        };
        let Some(app) = with_sink(kind, &sink, None, Options::default()).await else {
            continue;
        };
        let (ws, key) = app.owner().await;
        // A test document's emails go to the workspace's own sender address.
        signet_accounts::workspaces::update(
            app.ctx(),
            &ws,
            signet_accounts::workspaces::WorkspacePatch {
                sender_email: Some("owner@example.net".into()),
                ..Default::default()
            },
        )
        .await
        .unwrap();
        let doc = documents::create(&app, &key, json!({"sendNow": true})).await;
        let id = doc.body["id"].as_str().unwrap().to_string();
        app.run_pending_jobs().await;
        crate::harness::test_sign(&app, &key, &id, &["client", "provider"]).await;
        app.run_pending_jobs().await;
        let state = app
            .get(&format!("/api/v1/documents/{id}"), Some(&key))
            .await;
        assert_eq!(state.body["state"], "executed", "{}", state.body);
        let signed = app
            .client
            .get(format!("{}/api/v1/documents/{id}/signed.pdf", app.base))
            .bearer_auth(&key)
            .send()
            .await
            .unwrap()
            .bytes()
            .await
            .unwrap();
        let done: Vec<Received> = sink
            .received()
            .into_iter()
            .filter(|m| m.subject().starts_with("[TEST] Completed"))
            .collect();
        // In test mode every email goes to the sender: one copy is enough.
        assert_eq!(done.len(), 1);
        for m in &done {
            assert_eq!(m.to(), "owner@example.net");
            use mail_parser::MimeHeaders as _;
            let parsed = m.parsed();
            let pdf = parsed.attachment(0).expect("the sealed copy is attached");
            assert_eq!(pdf.attachment_name(), Some("Services agreement.pdf"));
            assert_eq!(
                pdf.contents(),
                &signed[..],
                "the attachment is the sealed copy"
            );
        }
        let log = log(&app, &key, "?kind=completed").await;
        assert_eq!(log.len(), 1);
        assert!(log[0]["personId"].is_null(), "the sender's copy");

        // A live document: everyone named, copies included, and the sender, once.
        let ws = app.workspace(Plan::Pro).await;
        let live = app.key(&ws, Mode::Live, &all_scopes()).await;
        let doc = documents::create(
            &app,
            &live,
            json!({"sendNow": true,
            "facts": {"sender": {"email": "owner@example.net"}}}),
        )
        .await;
        let id = doc.body["id"].as_str().unwrap().to_string();
        app.run_pending_jobs().await;
        signed_live(&app, &ws, &id).await;
        app.run_pending_jobs().await;
        let got = sink.received();
        let done: Vec<&Received> = got
            .iter()
            .filter(|m| m.subject().starts_with("Completed"))
            .collect();
        let mut to: Vec<String> = done.iter().map(|m| m.to()).collect();
        to.sort();
        assert_eq!(
            to,
            [
                "ada@example.com",
                "bob@example.com",
                "cy@example.com",
                "owner@example.net"
            ]
        );
        // The sender who is also one of the people is not sent a second copy.
        let doc = documents::create(
            &app,
            &live,
            json!({"sendNow": true,
            "facts": {"sender": {"email": "ada@example.com"}}}),
        )
        .await;
        let id = doc.body["id"].as_str().unwrap().to_string();
        let before = sink.received().len();
        app.run_pending_jobs().await;
        signed_live(&app, &ws, &id).await;
        app.run_pending_jobs().await;
        let completed = sink.received()[before..]
            .iter()
            .filter(|m| m.subject().starts_with("Completed"))
            .count();
        assert_eq!(completed, 3, "ada, bob and cy; ada is the sender too");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_download_link_opens_the_sealed_copy_for_thirty_days_and_nothing_else() {
    use signet_documents::signing::links;
    let app = TestApp::start_without_workers(Kind::Sqlite).await.unwrap();
    let (_, key) = app.owner().await;
    let doc = documents::create(&app, &key, json!({"sendNow": true})).await;
    let id = doc.body["id"].as_str().unwrap().to_string();
    app.run_pending_jobs().await;
    let ctx = app.ctx();
    let id_ref = &id;
    let store = |expires: i64| async move {
        let minted = links::mint(ctx).unwrap();
        let to = links::LinkFor {
            purpose: "download",
            document_id: id_ref,
            person_id: None,
            email_id: "eml_test",
            expires_at: Some(expires),
        };
        links::store(ctx, &ctx.db.conn, &minted, &to).await.unwrap();
        minted.token
    };
    // Stored as the completed email stores one: for thirty days from now.
    let now = signet_storage::now_ms();
    let until = signet_email::send::download_expires_at(now);
    assert_eq!(until - now, 30 * 86_400_000);
    let (fresh, old) = (store(until).await, store(now - 1).await);
    // Not sealed yet: nothing to download.
    let a = app.get(&format!("/d/{fresh}"), None).await;
    assert_eq!(a.status, 404, "{}", a.body);
    crate::harness::test_sign(&app, &key, &id, &["client", "provider"]).await;
    app.run_pending_jobs().await;
    let res = app
        .client
        .get(format!("{}/d/{fresh}", app.base))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    assert_eq!(res.headers()["cache-control"], "no-store");
    assert_eq!(res.headers()["content-type"], "application/pdf");
    assert!(res.bytes().await.unwrap().starts_with(b"%PDF"));
    for token in [old, "A".repeat(43), "short".into()] {
        let a = app.get(&format!("/d/{token}"), None).await;
        assert_eq!(a.status, 404, "{token}");
        assert_eq!(a.body["error"]["kind"], "not_found");
    }
    // A signing link is not a download link.
    let minted = links::mint(ctx).unwrap();
    let sign = links::LinkFor {
        purpose: "sign",
        document_id: doc.body["id"].as_str().unwrap(),
        person_id: None,
        email_id: "eml_x",
        expires_at: None,
    };
    links::store(ctx, &ctx.db.conn, &minted, &sign)
        .await
        .unwrap();
    assert_eq!(
        app.get(&format!("/d/{}", minted.token), None).await.status,
        404
    );
}

/// The real `signet worker` sending to the sink, killed with SIGKILL mid-batch; after a
/// restart every email arrives at least once, and a repeat carries the same Message-ID.
async fn no_email_lost(kind: Kind) {
    use std::process::{Command, Stdio};
    let Some(sink) = Sink::start(SinkOptions {
        delay_ms: 300,
        ..Default::default()
    }) else {
        return;
    };
    let Some(app) = TestApp::start_without_workers(kind).await else {
        return;
    };
    let (_, key) = live_owner(&app, Plan::Pro).await;
    for i in 0..20 {
        let d = documents::create(
            &app,
            &key,
            json!({"sendNow": true, "people": [
                {"name": "Ada Client", "email": format!("ada{i}@example.com"), "role": "client"},
                {"name": "Bob Provider", "email": format!("bob{i}@example.com"), "role": "provider"}
            ]}),
        )
        .await;
        assert_eq!(d.status, 201, "{}", d.body);
        // Rendered and drawn here, so the invitations (which wait for the pages) are due
        // before the worker starts: the kill below tests emails, not renders.
        let id = d.body["id"].as_str().unwrap();
        signet_documents::rendering::render_document(app.ctx(), id, None)
            .await
            .unwrap();
        signet_documents::pictures::make_pictures(app.ctx(), id, None)
            .await
            .unwrap();
    }
    let db = &app.ctx().db;
    use signet_storage::sea_orm::ConnectionTrait as _;
    let jobs = db
        .conn
        .query_all_raw(db.stmt(
            "SELECT id FROM outbox WHERE kind = 'email'",
            Vec::<signet_storage::sea_orm::Value>::new(),
        ))
        .await
        .unwrap();
    let expected: std::collections::BTreeSet<String> = jobs
        .iter()
        .map(|r| {
            let job: String = r.try_get("", "id").unwrap();
            let id = signet_email::send::email_id(&job);
            format!(
                "<{}@example.org>",
                signet_email::send::message_local(app.ctx(), &id)
            )
        })
        .collect();
    assert_eq!(expected.len(), 40);
    let worker = || {
        crate::harness::Process(
            Command::new(env!("CARGO_BIN_EXE_signet"))
                .arg("worker")
                .envs(app.env())
                .env("SIGNET_SMTP_URL", format!("smtp://127.0.0.1:{}", sink.port))
                .env("SIGNET_MAIL_FROM", "Signet <sign@example.org>")
                .current_dir(app.dir.path())
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .expect("signet worker starts"),
        )
    };
    let w = worker();
    sink.wait_for("the first emails", 30, |r| !r.is_empty())
        .await;
    drop(w);
    let before = sink.received().len();
    assert!(before < 40, "the kill came too late to test anything");

    let (_w1, _w2) = (worker(), worker());
    let ids = |r: &[Received]| -> std::collections::BTreeSet<String> {
        r.iter().map(|m| m.header("Message-ID")).collect()
    };
    let got = sink
        .wait_for("every email", 120, |r| ids(r) == expected)
        .await;
    // A repeat is the same email: the same Message-ID to the same person.
    for m in &got {
        let twins: Vec<&Received> = got
            .iter()
            .filter(|o| o.header("Message-ID") == m.header("Message-ID"))
            .collect();
        assert!(
            twins
                .iter()
                .all(|t| t.to() == m.to() && t.subject() == m.subject())
        );
    }
    let log = app.get("/api/v1/emails?limit=200", Some(&key)).await;
    let rows = log.body["data"].as_array().unwrap();
    assert_eq!(rows.len(), 40, "one log row per email, repeats included");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_email_is_lost_when_the_worker_is_killed_sqlite() {
    no_email_lost(Kind::Sqlite).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_email_is_lost_when_the_worker_is_killed_postgres_redis() {
    no_email_lost(Kind::PostgresRedis).await;
}
