//! What owners and admins run in the application beside documents (issue 39): the email
//! wording and the suppression list, and the activity record of every change to them, to
//! webhook endpoints and to approvals, each with the address it came from. Through GraphQL
//! with a person's session, as the page calls it and as an attacker with a session would.

use serde_json::{Value, json};
use signet_core::actor::Role;
use signet_core::plans::Plan;
use signet_storage::sea_orm::{ConnectionTrait as _, Value as Sql};

use crate::application::{Browser, person, signed_in};
use crate::both;
use crate::graphql::{data, invalid_naming, kind};
use crate::harness::TestApp;

async fn suppress(app: &TestApp, ws: &str, address: &str) {
    let db = &app.ctx().db;
    db.conn
        .execute_raw(db.stmt(
            "INSERT INTO email_suppressions (workspace_id, address, reason, email_id, created_at) \
             VALUES ($1, $2, 'the invitation email bounced (5.1.1)', NULL, 1)",
            [Sql::from(ws), Sql::from(address)],
        ))
        .await
        .unwrap();
}

fn addresses(page: &Value) -> Vec<&str> {
    page["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["address"].as_str().unwrap())
        .collect()
}

/// A workspace with an admin and a member, each signed in: the workspace, the admin's id,
/// and their browsers.
async fn admin_and_member(app: &TestApp) -> (String, String, Browser<'_>, Browser<'_>) {
    let ws = app.workspace(Plan::Pro).await;
    let admin = person(app, &ws, "admin@example.com", "Adam", Role::Admin).await;
    let member = person(app, &ws, "member@example.com", "Mia", Role::Member).await;
    let (a, m) = (signed_in(app, &admin).await, signed_in(app, &member).await);
    (ws, admin, a, m)
}

const LIST: &str = "query($s: String, $l: Int, $c: String) { emailSuppressions(search: $s, limit: $l, cursor: $c) { data { address reason createdAt } page { nextCursor } } }";
const LIFT: &str = "mutation($a: String!) { liftEmailSuppression(address: $a) }";

both!(
    an_admin_finds_and_lifts_a_suppression_and_a_member_cannot,
    |app| {
        let (ws, admin, a, m) = admin_and_member(&app).await;
        // Their order is the same whatever the database's collation does with punctuation.
        for address in ["bob@example.org", "ann@example.com", "cy_x@example.com"] {
            suppress(&app, &ws, address).await;
        }
        let elsewhere = app.workspace(Plan::Pro).await;
        suppress(&app, &elsewhere, "zed@example.com").await;

        // Alphabetically, in pages; another workspace's list is not this one's.
        let first = a.gql(LIST, json!({"l": 2})).await;
        let first = &data(&first)["emailSuppressions"];
        assert_eq!(addresses(first), ["ann@example.com", "bob@example.org"]);
        assert_eq!(
            first["data"][0]["reason"],
            "the invitation email bounced (5.1.1)"
        );
        let cursor = first["page"]["nextCursor"].as_str().unwrap();
        let rest = a.gql(LIST, json!({"l": 2, "c": cursor})).await;
        let rest = &data(&rest)["emailSuppressions"];
        assert_eq!(addresses(rest), ["cy_x@example.com"]);
        assert!(rest["page"]["nextCursor"].is_null());
        // A search is literal text, whatever its case: `_` is not a wildcard.
        let found = a.gql(LIST, json!({"s": "_X"})).await;
        assert_eq!(
            addresses(&data(&found)["emailSuppressions"]),
            ["cy_x@example.com"]
        );
        let found = a.gql(LIST, json!({"s": "EXAMPLE.ORG"})).await;
        assert_eq!(
            addresses(&data(&found)["emailSuppressions"]),
            ["bob@example.org"]
        );
        // Bounded, and a cursor must be one it gave.
        let long = "a".repeat(255);
        assert_eq!(kind(&a.gql(LIST, json!({"s": long})).await), "invalid");
        assert_eq!(kind(&a.gql(LIST, json!({"l": 201})).await), "invalid");
        assert_eq!(kind(&a.gql(LIST, json!({"c": "nope"})).await), "invalid");

        // A member neither reads nor lifts.
        assert_eq!(kind(&m.gql(LIST, json!({})).await), "forbidden");
        assert_eq!(
            kind(&m.gql(LIFT, json!({"a": "bob@example.org"})).await),
            "forbidden"
        );
        // An admin lifts one (as typed, any case); a second lift finds nothing.
        let r = a.gql(LIFT, json!({"a": " Bob@Example.ORG "})).await;
        assert_eq!(data(&r)["liftEmailSuppression"], true);
        let r = a.gql(LIFT, json!({"a": "bob@example.org"})).await;
        assert_eq!(data(&r)["liftEmailSuppression"], false);
        // Another workspace's suppression is not lifted from here.
        let r = a.gql(LIFT, json!({"a": "zed@example.com"})).await;
        assert_eq!(data(&r)["liftEmailSuppression"], false);
        let all = a.gql(LIST, json!({})).await;
        assert_eq!(
            addresses(&data(&all)["emailSuppressions"]),
            ["ann@example.com", "cy_x@example.com"]
        );
        // A test key neither reads the live recipients' list nor changes it.
        let every: Vec<&str> = signet_core::Scope::ALL.iter().map(|s| s.as_str()).collect();
        let test = app.key(&ws, signet_core::Mode::Test, &every).await;
        for (q, vars) in [(LIST, json!({})), (LIFT, json!({"a": "ann@example.com"}))] {
            let body = json!({"query": q, "variables": vars}).to_string();
            let r = app.post("/graphql", &test, &[], &body).await;
            assert_eq!(kind(&r), "forbidden", "{}", r.body);
        }
        let lines = a
            .gql("{ activity { actor action subject clientIp } }", json!({}))
            .await;
        let lines = data(&lines)["activity"].as_array().unwrap().clone();
        assert_eq!(lines.len(), 1, "one lift, one line: {lines:?}");
        assert_eq!(lines[0]["action"], "email.unsuppressed");
        assert_eq!(lines[0]["subject"], "bob@example.org");
        assert_eq!(lines[0]["actor"], admin.as_str());
        assert_eq!(lines[0]["clientIp"], "127.0.0.1");
    }
);

both!(
    wording_and_webhook_changes_are_in_the_activity_record_from_either_switch,
    |app| {
        let ws = app.workspace(Plan::Pro).await;
        let owner = person(&app, &ws, "owner@example.com", "Olga", Role::Owner).await;
        let mut o = signed_in(&app, &owner).await;
        // Wording is the workspace's in test and live alike: a person saves it from the
        // test switch too (a test key still may not).
        o.mode = Some("test");
        let save = "mutation($i: EmailWordingInput!) { saveEmailTemplate(kind: \"reminder\", input: $i) { subject saved { subject body } } }";
        let r = o
            .gql(
                save,
                json!({"i": {"locale": "fr", "subject": "Rappel : {{document.title}}"}}),
            )
            .await;
        assert_eq!(
            data(&r)["saveEmailTemplate"]["saved"]["subject"],
            "Rappel : {{document.title}}"
        );
        let reset = "mutation { resetEmailTemplate(kind: \"reminder\", locale: \"fr\") { saved { subject } } }";
        let r = o.gql(reset, json!({})).await;
        assert!(data(&r)["resetEmailTemplate"]["saved"].is_null());
        // Resetting what is not saved changes nothing and is not recorded.
        o.gql(reset, json!({})).await;

        o.mode = None;
        let made = o
            .gql(
                "mutation { createWebhook(input: {relay: true, name: \"Ops feed\", eventTypes: [\"documents.document.executed\"]}) { id } }",
                json!({}),
            )
            .await;
        let id = data(&made)["createWebhook"]["id"]
            .as_str()
            .unwrap()
            .to_string();
        o.gql(
            "mutation($id: String!) { rotateWebhookSecret(id: $id, windowHours: 2) { id } }",
            json!({"id": id}),
        )
        .await;
        o.gql(
            "mutation($id: String!) { deleteWebhook(id: $id) { id } }",
            json!({"id": id}),
        )
        .await;

        let lines = o
            .gql("{ activity { action subject detail clientIp } }", json!({}))
            .await;
        let lines: Vec<(String, String, String)> = data(&lines)["activity"]
            .as_array()
            .unwrap()
            .iter()
            .map(|l| {
                assert_eq!(l["clientIp"], "127.0.0.1", "{l}");
                (
                    l["action"].as_str().unwrap().to_string(),
                    l["subject"].as_str().unwrap().to_string(),
                    l["detail"].as_str().unwrap().to_string(),
                )
            })
            .collect();
        let expected = [
            ("webhook.deleted", id.as_str(), "Ops feed (live)"),
            (
                "webhook.rotated",
                id.as_str(),
                "Ops feed (live); the old secret signs for 2 h",
            ),
            ("webhook.created", id.as_str(), "Ops feed (live)"),
            ("email.wording_reset", "reminder", "fr"),
            ("email.wording_saved", "reminder", "fr: subject"),
        ];
        let got: Vec<(&str, &str, &str)> = lines
            .iter()
            .map(|(a, s, d)| (a.as_str(), s.as_str(), d.as_str()))
            .collect();
        assert_eq!(got, expected);

        // A key's changes are recorded too, under the key, with its address.
        let (kws, key) = app.owner().await;
        let _ = kws;
        let body = json!({"query": "mutation { createWebhook(input: {relay: true, eventTypes: [\"documents.document.executed\"]}) { id } }"}).to_string();
        let r = app.post("/graphql", &key, &[], &body).await;
        assert!(
            r.body["data"]["createWebhook"]["id"].is_string(),
            "{}",
            r.body
        );
        // That test key may not change the wording live documents go out with.
        let body = json!({"query": save, "variables": {"i": {"subject": "Hi"}}}).to_string();
        let r = app.post("/graphql", &key, &[], &body).await;
        assert_eq!(kind(&r), "forbidden", "{}", r.body);
        let actor = app.actor(&key).await;
        let db = &app.ctx().db;
        let row = db
            .conn
            .query_one_raw(db.stmt(
                "SELECT actor, action, detail, client_ip FROM activity WHERE workspace_id = $1",
                [Sql::from(actor.workspace_id.to_string())],
            ))
            .await
            .unwrap()
            .unwrap();
        let got: (String, String, String, String) = (
            row.try_get("", "actor").unwrap(),
            row.try_get("", "action").unwrap(),
            row.try_get("", "detail").unwrap(),
            row.try_get("", "client_ip").unwrap(),
        );
        assert_eq!(
            got,
            (
                actor.id().to_string(),
                "webhook.created".into(),
                "relay (test)".into(),
                "127.0.0.1".into()
            )
        );
    }
);

const SETTINGS: &str = "{ workspaceSettings { name plan timeZone language senderName senderEmail replyTo testMode embedding embedOrigins aiDrafting aiDailyLimit } }";
const UPDATE: &str = "mutation($i: WorkspaceSettingsInput!) { updateWorkspaceSettings(input: $i) { name timeZone language senderName senderEmail replyTo testMode embedding embedOrigins aiDrafting aiDailyLimit } }";

/// The `.eml` file written to `to`: the From name and the Reply-To address.
fn sent_to(app: &TestApp, to: &str) -> Option<(String, String)> {
    for entry in std::fs::read_dir(app.dir.path().join("mail"))
        .ok()?
        .flatten()
    {
        if entry.file_name().to_string_lossy().starts_with('.') {
            continue;
        }
        let raw = std::fs::read(entry.path()).ok()?;
        let m = mail_parser::MessageParser::default().parse(&raw)?;
        let first = |a: Option<&mail_parser::Address>| {
            a.and_then(|a| a.first()).map(|a| {
                (
                    a.name().unwrap_or_default().to_string(),
                    a.address().unwrap_or_default().to_string(),
                )
            })
        };
        if first(m.to()).is_some_and(|(_, a)| a == to) {
            let from = first(m.from()).map(|(n, _)| n).unwrap_or_default();
            let reply = first(m.reply_to()).map(|(_, a)| a).unwrap_or_default();
            return Some((from, reply));
        }
    }
    None
}

both!(
    an_admin_changes_the_workspace_settings_and_a_member_cannot,
    |app| {
        let (ws, admin, a, m) = admin_and_member(&app).await;
        assert_eq!(kind(&m.gql(SETTINGS, json!({})).await), "forbidden");
        let r = m.gql(UPDATE, json!({"i": {"name": "Mine now"}})).await;
        assert_eq!(kind(&r), "forbidden");

        let r = a.gql(SETTINGS, json!({})).await;
        let before = &data(&r)["workspaceSettings"];
        assert_eq!(before["name"], "Acme");
        assert_eq!(before["plan"], "pro");
        assert_eq!(before["testMode"], false);
        assert_eq!(before["aiDrafting"], false);
        assert_eq!(before["aiDailyLimit"], 50);

        let r = a
            .gql(
                UPDATE,
                json!({"i": {
                    "name": " Acme Lettings ", "timeZone": "Europe/Paris", "language": "fr",
                    "senderName": "Acme Lettings Team", "senderEmail": "team@acme.example",
                    "replyTo": "help@acme.example", "embedding": true,
                    "embedOrigins": ["https://app.acme.example", "https://APP.acme.example/"],
                    "aiDrafting": true, "aiDailyLimit": 200
                }}),
            )
            .await;
        let after = data(&r)["updateWorkspaceSettings"].clone();
        assert_eq!(after["name"], "Acme Lettings");
        assert_eq!(after["timeZone"], "Europe/Paris");
        assert_eq!(after["language"], "fr");
        assert_eq!(after["embedOrigins"], json!(["https://app.acme.example"]));
        assert_eq!(after["aiDailyLimit"], 200);
        // Read back as it was saved.
        let r = a.gql(SETTINGS, json!({})).await;
        let mut read = data(&r)["workspaceSettings"].clone();
        read.as_object_mut().unwrap().remove("plan");
        assert_eq!(read, after);

        // Each bad value is named, and nothing of the change is kept.
        for (bad, field) in [
            (json!({"timeZone": "Mars/Olympus"}), "timeZone"),
            (json!({"language": "xx"}), "language"),
            (json!({"senderEmail": "not an address"}), "senderEmail"),
            (json!({"replyTo": "nope"}), "replyTo"),
            (json!({"name": "  "}), "name"),
            (json!({"senderName": "Acme\u{202e}mE"}), "senderName"),
            (json!({"aiDailyLimit": 0}), "aiDailyLimit"),
            (json!({"aiDailyLimit": 1001}), "aiDailyLimit"),
            (
                json!({"embedOrigins": ["http://evil.example"]}),
                "embedOrigins",
            ),
            (
                json!({"embedOrigins": (0..21).map(|i| format!("https://s{i}.example")).collect::<Vec<_>>()}),
                "embedOrigins",
            ),
        ] {
            let mut input = bad.clone();
            input["name"] = input.get("name").cloned().unwrap_or(json!("Renamed"));
            invalid_naming(&a.gql(UPDATE, json!({"i": input})).await, field, &bad);
        }
        let r = a.gql(SETTINGS, json!({})).await;
        assert_eq!(data(&r)["workspaceSettings"]["name"], "Acme Lettings");

        // A live document's emails come from the sender name, replies go to the reply-to.
        let every: Vec<&str> = signet_core::Scope::ALL.iter().map(|s| s.as_str()).collect();
        let live = app.key(&ws, signet_core::Mode::Live, &every).await;
        let doc = crate::documents::create(&app, &live, json!({"sendNow": true})).await;
        assert_eq!(doc.status, 201, "{}", doc.body);
        let live_doc = doc.body["id"].as_str().unwrap().to_string();
        app.run_pending_jobs().await;
        let sent = crate::harness::until("the invitation's file", || async {
            sent_to(&app, "ada@example.com")
        })
        .await;
        assert_eq!(
            sent,
            (
                "Acme Lettings Team".to_string(),
                "help@acme.example".to_string()
            )
        );
        // An empty text clears a setting.
        let r = a.gql(UPDATE, json!({"i": {"senderName": ""}})).await;
        assert!(data(&r)["updateWorkspaceSettings"]["senderName"].is_null());

        // Test mode for the whole workspace: every key and person works on test documents.
        let r = a.gql(UPDATE, json!({"i": {"testMode": true}})).await;
        assert_eq!(data(&r)["updateWorkspaceSettings"]["testMode"], true);
        assert_eq!(
            app.get(&format!("/api/v1/documents/{live_doc}"), Some(&live))
                .await
                .status,
            404,
            "the live key now works on test documents"
        );
        let made = crate::documents::create(&app, &live, json!({})).await;
        assert_eq!(made.body["test"], true, "{}", made.body);
        let me = a.gql("{ me { testMode } }", json!({})).await;
        assert_eq!(data(&me)["me"]["testMode"], true);
        let listed = a.gql("{ documents { data { id test } } }", json!({})).await;
        let listed = &data(&listed)["documents"]["data"];
        assert_eq!(listed.as_array().unwrap().len(), 1, "{listed}");
        assert_eq!(listed[0]["test"], true);
        // A test key may not change settings, even now that every key works in test mode.
        let test = app.key(&ws, signet_core::Mode::Test, &every).await;
        let off = json!({"query": UPDATE, "variables": {"i": {"testMode": false}}}).to_string();
        let r = app.post("/graphql", &test, &[], &off).await;
        assert_eq!(kind(&r), "forbidden", "{}", r.body);
        // The live key (pinned to test) may still turn it off; a draft-only key may not.
        let draft_only = app
            .key_with(signet_accounts::keys::KeyCreateIn {
                draft_only: true,
                ..signet_accounts::keys::KeyCreateIn::new(
                    &ws,
                    signet_core::Mode::Live,
                    signet_core::actor::Scopes::all(),
                )
            })
            .await;
        let r = app.post("/graphql", &draft_only, &[], &off).await;
        assert_eq!(kind(&r), "forbidden", "{}", r.body);
        let r = app.post("/graphql", &live, &[], &off).await;
        assert_eq!(
            r.body["data"]["updateWorkspaceSettings"]["testMode"], false,
            "{}",
            r.body
        );
        assert_eq!(
            app.get(&format!("/api/v1/documents/{live_doc}"), Some(&live))
                .await
                .status,
            200
        );
        // A test key reads the settings but does not change them; no key sets the address
        // test documents are mailed to.
        let read = json!({"query": SETTINGS}).to_string();
        let r = app.post("/graphql", &test, &[], &read).await;
        assert_eq!(
            r.body["data"]["workspaceSettings"]["testMode"], false,
            "{}",
            r.body
        );
        let r = app.post("/graphql", &test, &[], &off).await;
        assert_eq!(kind(&r), "forbidden", "{}", r.body);
        let to =
            json!({"query": UPDATE, "variables": {"i": {"senderEmail": "me@elsewhere.example"}}})
                .to_string();
        let r = app.post("/graphql", &live, &[], &to).await;
        assert_eq!(kind(&r), "forbidden", "{}", r.body);

        let lines = a
            .gql("{ activity { actor action detail } }", json!({}))
            .await;
        let lines: Vec<(String, String)> = data(&lines)["activity"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|l| l["action"] == "settings.changed")
            .map(|l| {
                (
                    l["actor"].as_str().unwrap().to_string(),
                    l["detail"].as_str().unwrap().to_string(),
                )
            })
            .collect();
        let key_id = app.actor(&live).await.id().to_string();
        assert_eq!(
            lines,
            [
                (key_id, "testMode (test mode off)".to_string()),
                (admin.clone(), "testMode (test mode on)".to_string()),
                (admin.clone(), "senderName".to_string()),
                (
                    admin.clone(),
                    "name, timeZone, senderEmail, senderName, replyTo, language, embedOrigins, \
                     embedding, aiDrafting, aiDailyLimit"
                        .to_string()
                ),
            ]
        );
    }
);

both!(
    an_admin_makes_teams_within_bounds_and_a_member_cannot,
    |app| {
        let (ws, _, a, m) = admin_and_member(&app).await;
        let create = "mutation($n: String!) { createTeam(name: $n) { id name } }";
        let add = "mutation($t: String!, $e: String!, $n: String!, $r: String!) { addTeamMember(teamId: $t, email: $e, name: $n, role: $r) { email role } }";
        let remove =
            "mutation($t: String!, $e: String!) { removeTeamMember(teamId: $t, email: $e) }";
        let delete = "mutation($t: String!) { deleteTeam(id: $t) }";
        assert_eq!(
            kind(&m.gql(create, json!({"n": "Sales"})).await),
            "forbidden"
        );
        let r = a.gql(create, json!({"n": " Sales "})).await;
        let team = data(&r)["createTeam"]["id"].as_str().unwrap().to_string();
        assert_eq!(data(&r)["createTeam"]["name"], "Sales");
        let r = a
            .gql(
                add,
                json!({"t": team, "e": "Sam@Example.com", "n": "Sam", "r": "member"}),
            )
            .await;
        assert_eq!(data(&r)["addTeamMember"]["email"], "sam@example.com");
        for (vars, field) in [
            (
                json!({"t": team, "e": "not-an-address", "n": "X", "r": "member"}),
                "email",
            ),
            (
                json!({"t": team, "e": "x@example.com", "n": "X", "r": "owner"}),
                "role",
            ),
            (
                json!({"t": team, "e": "x@example.com", "n": "X\u{202e}", "r": "member"}),
                "name",
            ),
        ] {
            invalid_naming(&a.gql(add, vars.clone()).await, field, &vars);
        }
        let r = a
            .gql(
                add,
                json!({"t": team, "e": "sam@example.com", "n": "Sam", "r": "member"}),
            )
            .await;
        assert_eq!(kind(&r), "conflict", "{}", r.body);
        let r = m
            .gql(
                add,
                json!({"t": team, "e": "mia@example.com", "n": "Mia", "r": "member"}),
            )
            .await;
        assert_eq!(kind(&r), "forbidden");

        // Another workspace's team is not found from here, whatever is asked of it.
        let other = app.workspace(Plan::Pro).await;
        let theirs = signet_accounts::teams::create(app.ctx(), &other, "Theirs")
            .await
            .unwrap()
            .id;
        for (q, vars) in [
            (
                add,
                json!({"t": theirs, "e": "x@example.com", "n": "X", "r": "member"}),
            ),
            (remove, json!({"t": theirs, "e": "x@example.com"})),
            (delete, json!({"t": theirs})),
        ] {
            assert_eq!(kind(&a.gql(q, vars).await), "not_found");
        }
        let listed = a.gql("{ teams { teams { name } } }", json!({})).await;
        assert_eq!(data(&listed)["teams"]["teams"], json!([{"name": "Sales"}]));

        let r = a
            .gql(remove, json!({"t": team, "e": "SAM@example.com"}))
            .await;
        assert_eq!(data(&r)["removeTeamMember"], true);
        let r = a
            .gql(remove, json!({"t": team, "e": "sam@example.com"}))
            .await;
        assert_eq!(data(&r)["removeTeamMember"], false);
        let r = a.gql(delete, json!({"t": team})).await;
        assert_eq!(data(&r)["deleteTeam"], true);
        assert_eq!(kind(&a.gql(delete, json!({"t": team})).await), "not_found");

        // At most a hundred teams.
        for i in 0..100 {
            signet_accounts::teams::create(app.ctx(), &ws, &format!("Team {i}"))
                .await
                .unwrap();
        }
        let r = a.gql(create, json!({"n": "One too many"})).await;
        assert_eq!(kind(&r), "forbidden", "{}", r.body);
        assert!(
            r.body["errors"][0]["message"]
                .as_str()
                .unwrap()
                .contains("at most 100 teams")
        );

        let lines = a.gql("{ activity { action detail } }", json!({})).await;
        let actions: Vec<&str> = data(&lines)["activity"]
            .as_array()
            .unwrap()
            .iter()
            .map(|l| l["action"].as_str().unwrap())
            .collect();
        assert_eq!(
            actions,
            [
                "team.deleted",
                "team.member_removed",
                "team.member_added",
                "team.created"
            ]
        );
    }
);
