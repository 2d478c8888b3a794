//! Plays, playbooks and drafts on both backend sets: immutable versions that a published one
//! drafts from, archived and duplicated plays, playbooks, the dry run's report of every
//! mistake at once, drafts that ask in rounds, every built-in play drafted, sent, signed and
//! sealed, words that depend on answers read back from the sealed PDF, the plan and scopes'
//! 403s, and the bounds of every input.

use serde_json::{Value, json};
use signet_core::Mode;
use signet_core::plans::Plan;

use crate::both_quiet;
use crate::harness::TestApp;

async fn call(
    app: &TestApp,
    key: &str,
    method: &str,
    path: &str,
    body: Option<Value>,
) -> (u16, Value) {
    let (s, b, _) = app.api(key, method, path, body).await;
    (s, b)
}

async fn post(app: &TestApp, key: &str, path: &str, body: Value) -> (u16, Value) {
    call(app, key, "POST", path, Some(body)).await
}

async fn get(app: &TestApp, key: &str, path: &str) -> (u16, Value) {
    call(app, key, "GET", path, None).await
}

/// What the server answers a POST to `path` announcing a body of `length` bytes, of which
/// none is sent: the status line, headers and body as text.
async fn over_limit(app: &TestApp, key: &str, path: &str, length: usize) -> String {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut s = tokio::net::TcpStream::connect(app.base.trim_start_matches("http://"))
        .await
        .unwrap();
    let head = format!(
        "POST {path} HTTP/1.1\r\nhost: signet\r\nauthorization: Bearer {key}\r\n\
         content-type: application/json\r\ncontent-length: {length}\r\nconnection: close\r\n\r\n"
    );
    s.write_all(head.as_bytes()).await.unwrap();
    let mut out = Vec::new();
    let read = tokio::time::timeout(std::time::Duration::from_secs(20), s.read_to_end(&mut out));
    read.await
        .expect("answered without waiting for the body")
        .unwrap();
    String::from_utf8_lossy(&out).into_owned()
}

/// A test key of a new Pro workspace holding every scope, and the workspace.
async fn pro(app: &TestApp) -> (String, String) {
    let ws = app.workspace(Plan::Pro).await;
    let all: Vec<&str> = signet_core::Scope::ALL.iter().map(|s| s.as_str()).collect();
    let key = app.key(&ws, Mode::Test, &all).await;
    (ws, key)
}

/// A small play of the workspace: `words` is the paragraph that changes between versions.
pub(crate) fn small_play(name: &str, words: &str) -> String {
    format!(
        "---
name: {name}
title: Pet sitting
description: Someone looks after a pet while its owner is away.
kind: document
category: services
language: en
seats:
  - role: owner
    label: Pet owner
  - role: sitter
    label: Sitter
questions:
  - id: pet
    ask: Which pet?
    options:
      - value: cat
        label: the cat
      - value: dog
        label: the dog
  - id: walks
    ask: How many walks a day?
    when:
      pet: dog
    options:
      - value: one
        label: one walk
      - value: two
        label: two walks
    default: two
---
# Pet sitting

{words} The sitter looks after {{{{custom.pet}}}} for {{{{owner.name}}}}.

::: when pet = dog
The sitter takes the dog out for {{{{custom.walks}}}} a day.
:::
::: when pet = cat
The sitter cleans the litter box every day.
:::

::: signatures
"
    )
}

pub(crate) fn people() -> Value {
    json!([
        {"name": "Olive Owner", "email": "olive@example.com", "role": "owner"},
        {"name": "Sam Sitter", "email": "sam@example.com", "role": "sitter"}
    ])
}

/// The plain words of a draft document's source.
async fn words_of(app: &TestApp, key: &str, id: &str) -> String {
    let (s, src) = get(app, key, &format!("/documents/{id}/source")).await;
    assert_eq!(s, 200, "{src}");
    fn walk(v: &Value, out: &mut String) {
        if let Some(t) = v.get("text").and_then(Value::as_str) {
            out.push_str(t);
        }
        if let Some(n) = v.pointer("/attrs/name").and_then(Value::as_str) {
            out.push_str(&format!("{{{n}}}"));
        }
        if let Some(c) = v.get("content").and_then(Value::as_array) {
            for x in c {
                walk(x, out);
            }
            out.push('\n');
        }
    }
    let mut out = String::new();
    walk(&src["source"], &mut out);
    out
}

both_quiet!(
    plays_keep_immutable_versions_and_drafts_use_the_published_one,
    |app| {
        let (_, key) = pro(&app).await;
        // The built-in plays, filtered.
        let (s, list) = get(&app, &key, "/plays").await;
        assert_eq!(s, 200, "{list}");
        let built: Vec<&str> = list["data"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|p| p["builtIn"] == true)
            .map(|p| p["name"].as_str().unwrap())
            .collect();
        assert!(built.len() >= 8, "{built:?}");
        let (_, nda) = get(&app, &key, "/plays?kind=document&category=confidentiality").await;
        let names: Vec<&str> = nda["data"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["name"].as_str().unwrap())
            .collect();
        assert_eq!(names, ["mutual-nda", "one-way-nda"], "{nda}");
        assert_eq!(get(&app, &key, "/plays?kind=letter").await.0, 400);

        // Version 1, then version 2; neither listed until published.
        let (s, v1) = post(
            &app,
            &key,
            "/plays",
            json!({"source": small_play("pets", "First words.")}),
        )
        .await;
        assert_eq!(s, 201, "{v1}");
        assert_eq!(
            (v1["version"].as_i64(), v1["published"].is_null()),
            (Some(1), true)
        );
        let (s, v2) = post(
            &app,
            &key,
            "/plays",
            json!({"source": small_play("pets", "Second words.")}),
        )
        .await;
        assert_eq!(s, 201, "{v2}");
        assert_eq!(v2["version"], 2);
        let (_, one) = get(&app, &key, "/plays/pets").await;
        let versions: Vec<i64> = one["versions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v["version"].as_i64().unwrap())
            .collect();
        assert_eq!(versions, [2, 1]);
        assert!(one["source"].as_str().unwrap().contains("Second words."));
        let (_, list) = get(&app, &key, "/plays").await;
        assert!(
            !list.to_string().contains("\"pets\""),
            "unpublished plays are not listed"
        );
        // Not published: drafts are refused.
        let (s, e) = post(
            &app,
            &key,
            "/drafts",
            json!({"play": "pets", "people": people()}),
        )
        .await;
        assert_eq!(s, 409, "{e}");

        // Version 1 published: drafts use its words, not version 2's.
        let (s, p) = post(&app, &key, "/plays/pets/publish", json!({"version": 1})).await;
        assert_eq!(s, 200, "{p}");
        assert_eq!(p["published"], 1);
        let (_, list) = get(&app, &key, "/plays?category=services").await;
        let mine = list["data"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["name"] == "pets")
            .unwrap()
            .clone();
        assert_eq!(
            (mine["builtIn"].as_bool(), mine["version"].as_i64()),
            (Some(false), Some(1))
        );
        let (s, d) = post(
            &app,
            &key,
            "/drafts",
            json!({"play": "pets", "people": people(), "answers": {"pet": "cat"}}),
        )
        .await;
        assert_eq!(s, 200, "{d}");
        assert_eq!(d["status"], "draft", "{d}");
        let doc = d["documentId"].as_str().unwrap().to_string();
        assert_eq!(d["document"]["state"], "draft");
        assert_eq!(
            d["document"]["test"], true,
            "a test key's draft is a test document"
        );
        assert_eq!(d["document"]["metadata"]["play"], "pets");
        let words = words_of(&app, &key, &doc).await;
        assert!(words.contains("First words."), "{words}");
        assert!(
            words.contains("litter box") && !words.contains("walk"),
            "{words}"
        );
        // The chip's answer is the option's label.
        let (_, src) = get(&app, &key, &format!("/documents/{doc}/source")).await;
        assert_eq!(src["variableValues"]["pet"], "the cat", "{src}");

        // Publishing what does not exist, or a built-in play; saving under a built-in name.
        assert_eq!(
            post(&app, &key, "/plays/pets/publish", json!({"version": 3}))
                .await
                .0,
            400
        );
        assert_eq!(
            post(
                &app,
                &key,
                "/plays/mutual-nda/publish",
                json!({"version": 1})
            )
            .await
            .0,
            400
        );
        let (s, e) = post(
            &app,
            &key,
            "/plays",
            json!({"source": small_play("mutual-nda", "x")}),
        )
        .await;
        assert_eq!(s, 400, "{e}");
        assert!(
            e["error"]["message"].as_str().unwrap().contains("built-in"),
            "{e}"
        );

        // A built-in play duplicated is the workspace's, version 1, unpublished; the name is new.
        let (s, dup) = post(
            &app,
            &key,
            "/plays/mutual-nda/duplicate",
            json!({"as": "our-nda"}),
        )
        .await;
        assert_eq!(s, 201, "{dup}");
        assert_eq!(
            (dup["builtIn"].as_bool(), dup["version"].as_i64()),
            (Some(false), Some(1))
        );
        assert!(dup["published"].is_null());
        assert!(
            dup["source"]
                .as_str()
                .unwrap()
                .starts_with("---\nname: our-nda\n")
        );
        assert_eq!(
            post(
                &app,
                &key,
                "/plays/mutual-nda/duplicate",
                json!({"as": "our-nda"})
            )
            .await
            .0,
            409
        );
        assert_eq!(
            post(
                &app,
                &key,
                "/plays/pets/duplicate",
                json!({"as": "Not A Slug"})
            )
            .await
            .0,
            400
        );
        assert_eq!(
            post(
                &app,
                &key,
                "/plays/nothing-here/duplicate",
                json!({"as": "x-y"})
            )
            .await
            .0,
            404
        );

        // Playbooks name plays that exist, in order.
        let (s, book) = post(
        &app,
        &key,
        "/playbooks",
        json!({"name": "hiring", "title": "Hiring", "plays": ["offer-letter", "our-nda", "pets"]}),
    )
    .await;
        assert_eq!(s, 201, "{book}");
        let (s, e) = post(
            &app,
            &key,
            "/playbooks",
            json!({"name": "broken", "title": "Broken", "plays": ["offer-letter", "no-such-play"]}),
        )
        .await;
        assert_eq!(s, 400, "{e}");
        assert!(
            e["error"]["message"].as_str().unwrap().contains("plays[1]"),
            "{e}"
        );
        let (_, books) = get(&app, &key, "/playbooks").await;
        assert_eq!(
            books["data"][0]["plays"],
            json!(["offer-letter", "our-nda", "pets"])
        );

        // Archived: gone from the list, not drafted from, the draft made keeps its words.
        let (s, a) = call(&app, &key, "DELETE", "/plays/pets", None).await;
        assert_eq!((s, a["archived"].as_bool()), (200, Some(true)), "{a}");
        let (_, list) = get(&app, &key, "/plays").await;
        assert!(!list.to_string().contains("\"pets\""));
        assert_eq!(
            post(
                &app,
                &key,
                "/drafts",
                json!({"play": "pets", "people": people()})
            )
            .await
            .0,
            404
        );
        assert!(words_of(&app, &key, &doc).await.contains("First words."));
        assert_eq!(
            call(&app, &key, "DELETE", "/plays/mutual-nda", None)
                .await
                .0,
            400
        );
        // A new save brings it back, as version 3.
        let (s, v3) = post(
            &app,
            &key,
            "/plays",
            json!({"source": small_play("pets", "Third.")}),
        )
        .await;
        assert_eq!(
            (s, v3["version"].as_i64(), v3["archived"].as_bool()),
            (201, Some(3), Some(false))
        );

        // The same through GraphQL.
        let q = json!({"query": "{ play(name: \"pets\") { name latest published versions { version } } plays(category: \"confidentiality\") { data { name } } }"});
        let g = app.post("/graphql", &key, &[], &q.to_string()).await;
        assert_eq!(g.body["data"]["play"]["latest"], 3, "{}", g.body);
        assert_eq!(g.body["data"]["plays"]["data"].as_array().unwrap().len(), 2);
    }
);

both_quiet!(
    drafts_ask_in_rounds_and_refuse_what_the_play_does_not_ask,
    |app| {
        let (_, key) = pro(&app).await;
        // The lease asks five questions: four, then the pet deposit once pets are allowed.
        let (s, r1) = post(
            &app,
            &key,
            "/drafts",
            json!({
                "play": "residential-lease",
                "people": [
                    {"name": "Lana Landlord", "email": "lana@example.com", "role": "landlord"},
                    {"name": "Tim Tenant", "email": "tim@example.com", "role": "tenant"}
                ],
                "title": "Lease of 4B"
            }),
        )
        .await;
        assert_eq!(s, 200, "{r1}");
        assert_eq!(r1["status"], "needs_input");
        let ids: Vec<&str> = r1["questions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|q| q["id"].as_str().unwrap())
            .collect();
        assert_eq!(ids, ["term", "utilities", "pets", "smoking"]);
        for q in r1["questions"].as_array().unwrap() {
            let n = q["options"].as_array().unwrap().len();
            assert!((2..=4).contains(&n), "{q}");
        }
        let dref = r1["draftRef"].as_str().unwrap().to_string();
        assert!(dref.starts_with("drf_"));
        let path = format!("/drafts/{dref}/answers");
        // An unknown option, a question not asked, a question the play does not have.
        for (answers, names) in [
            (json!({"term": "forever"}), "answers.term"),
            (json!({"pet-deposit": "yes"}), "answers.pet-deposit"),
            (json!({"colour": "red"}), "answers.colour"),
            (json!({"term": 12}), "answers.term"),
        ] {
            let (s, e) = post(&app, &key, &path, json!({"answers": answers})).await;
            assert_eq!(s, 400, "{answers}: {e}");
            assert!(
                e["error"]["message"].as_str().unwrap().contains(names),
                "{e}"
            );
        }
        let (s, r2) = post(
            &app,
            &key,
            &path,
            json!({"answers": {
        "term": "six-months", "utilities": "shared", "pets": "cats", "smoking": "outside"}}),
        )
        .await;
        assert_eq!(s, 200, "{r2}");
        assert_eq!(r2["status"], "needs_input");
        assert_eq!(r2["questions"][0]["id"], "pet-deposit");
        assert_eq!(r2["questions"].as_array().unwrap().len(), 1);
        // An answer already given cannot change.
        let (s, e) = post(
            &app,
            &key,
            &path,
            json!({"answers": {"term": "twelve-months"}}),
        )
        .await;
        assert_eq!(s, 400, "{e}");
        let (s, r3) = post(
            &app,
            &key,
            &path,
            json!({"answers": {"pet-deposit": "yes"}}),
        )
        .await;
        assert_eq!(s, 200, "{r3}");
        assert_eq!(r3["status"], "draft", "{r3}");
        let doc = r3["documentId"].as_str().unwrap().to_string();
        assert_eq!(r3["document"]["title"], "Lease of 4B");
        let words = words_of(&app, &key, &doc).await;
        assert!(
            words.contains("{custom.pets}") && words.contains("{Pet deposit}"),
            "{words}"
        );
        assert!(words.contains("Smoking is allowed only outside"), "{words}");
        assert!(!words.contains("No animals"), "{words}");
        // Told again, the same draft; other answers now, a conflict.
        let (s, again) = post(&app, &key, &path, json!({"answers": {"pets": "cats"}})).await;
        assert_eq!(
            (s, again["documentId"].as_str()),
            (200, Some(doc.as_str())),
            "{again}"
        );
        assert_eq!(
            post(&app, &key, &path, json!({"answers": {"pets": "any"}}))
                .await
                .0,
            409
        );

        // Defaults answer what has one; the rest is still asked.
        let (s, d) = post(
            &app,
            &key,
            "/drafts",
            json!({
                "play": "mutual-nda",
                "people": [
                    {"name": "Ann First", "email": "ann@example.com", "role": "first"},
                    {"name": "Ben Second", "email": "ben@example.com", "role": "second"}
                ],
                "answers": {"nonsolicit": "no"},
                "useDefaults": true
            }),
        )
        .await;
        assert_eq!((s, d["status"].as_str()), (200, Some("draft")), "{d}");
        assert_eq!(d["answers"]["nonsolicit-months"], "twelve");

        // People: a role the play does not have, a seat nobody takes, an access code.
        let nda = |people: Value| json!({"play": "one-way-nda", "people": people});
        for (people, names) in [
            (
                json!([{"name": "A", "email": "a@example.com", "role": "boss"}]),
                "people[0].role",
            ),
            (
                json!([{"name": "A", "email": "a@example.com", "role": "discloser"}]),
                "recipient",
            ),
            (
                json!([{"name": "A", "email": "a@example.com", "role": "discloser", "accessCode": "123456"},
                   {"name": "B", "email": "b@example.com", "role": "recipient"}]),
                "people[0].accessCode",
            ),
        ] {
            let (s, e) = post(&app, &key, "/drafts", nda(people)).await;
            assert_eq!(s, 400, "{e}");
            assert!(
                e["error"]["message"].as_str().unwrap().contains(names),
                "{names}: {e}"
            );
        }

        // Another workspace's reference is not found; so is the other mode's.
        let (_, stranger) = pro(&app).await;
        assert_eq!(
            post(&app, &stranger, &path, json!({"answers": {}})).await.0,
            404
        );
        let (s, e) = post(
            &app,
            &key,
            "/drafts/drf_01JD0000000000000000000000/answers",
            json!({"answers": {}}),
        )
        .await;
        assert_eq!(s, 404, "{e}");
    }
);

both_quiet!(
    the_dry_run_reports_every_mistake_at_once_and_saves_nothing,
    |app| {
        let (_, key) = pro(&app).await;
        let bad = "---
name: broken-play
title: Broken
description: Several mistakes.
kind: contract
category: general
language: en
colour: blue
seats:
  - role: client
    label: Client
questions:
  - id: term
    ask: Which term?
    options:
      - value: short
        label: Short
---
# Broken

See [our site](https://evil.example) and {{weather.today}}.

::: when term = long
Never.
:::

<iframe src=\"https://evil.example\"></iframe>
";
        let (s, t) = post(&app, &key, "/plays/test", json!({"source": bad})).await;
        assert_eq!(s, 200, "{t}");
        assert_eq!(t["ok"], false);
        let problems = t["problems"].as_array().unwrap();
        let at = |key: &str, line: i64| {
            problems
                .iter()
                .find(|p| p["key"] == key && p["line"] == line)
                .unwrap_or_else(|| panic!("no problem at {key} line {line}: {t}"))
                .clone()
        };
        assert!(
            at("kind", 5)["message"]
                .as_str()
                .unwrap()
                .contains("contract")
        );
        assert!(
            problems
                .iter()
                .any(|p| p["line"] == 8 && p["message"].as_str().unwrap().contains("colour")),
            "{t}"
        );
        assert!(
            problems.iter().any(|p| p["key"]
                .as_str()
                .unwrap()
                .starts_with("questions[0].options")),
            "{t}"
        );
        let link = at("body", 21);
        assert!(
            link["message"].as_str().unwrap().contains("links"),
            "{link}"
        );
        assert_eq!(link["column"], 5);
        assert!(
            problems.iter().any(
                |p| p["line"] == 21 && p["message"].as_str().unwrap().contains("weather.today")
            )
        );
        at("body", 23);
        assert!(at("body", 27)["message"].as_str().unwrap().contains("HTML"));
        assert!(
            problems
                .iter()
                .all(|p| !p["hint"].as_str().unwrap().is_empty()),
            "{t}"
        );
        // Nothing was made.
        assert_eq!(get(&app, &key, "/plays/broken-play").await.0, 404);
        // Saving it is a 400 naming the first problem and how many more.
        let (s, e) = post(&app, &key, "/plays", json!({"source": bad})).await;
        assert_eq!(s, 400, "{e}");
        assert!(
            e["error"]["message"].as_str().unwrap().contains("line 5"),
            "{e}"
        );

        // A readable play is checked as a document would be: no signatures is a problem.
        let unsigned = small_play("unsigned", "Words.").replace("::: signatures\n", "");
        let (_, t) = post(&app, &key, "/plays/test", json!({"source": unsigned})).await;
        assert_eq!(t["ok"], false, "{t}");
        assert!(
            t["problems"]
                .as_array()
                .unwrap()
                .iter()
                .any(|p| p["key"] == "words"),
            "{t}"
        );
        // A good play: its rounds with every default and its words.
        let (_, t) = post(
            &app,
            &key,
            "/plays/test",
            json!({"source": small_play("good", "Words.")}),
        )
        .await;
        assert_eq!(t["ok"], true, "{t}");
        assert_eq!(
            t["rounds"].as_array().unwrap().len(),
            1,
            "the cat asks no walks: {t}"
        );
        assert_eq!(t["answers"]["pet"], "cat");
        assert_eq!(t["preview"]["type"], "doc");
        assert_eq!(get(&app, &key, "/plays/good").await.0, 404);
    }
);

both_quiet!(plays_are_pro_and_name_the_scope_a_key_lacks, |app| {
    // Free: 403 naming the plan, on every route of the family.
    let (_, free) = app.owner().await;
    for (m, p, body) in [
        ("GET", "/plays", None),
        ("GET", "/playbooks", None),
        (
            "POST",
            "/drafts",
            Some(json!({"play": "mutual-nda", "people": people()})),
        ),
        (
            "POST",
            "/plays/test",
            Some(json!({"source": small_play("free", "x")})),
        ),
    ] {
        let (s, e) = call(&app, &free, m, p, body).await;
        assert_eq!(s, 403, "{p}: {e}");
        assert!(
            e["error"]["message"].as_str().unwrap().contains("Pro"),
            "{e}"
        );
    }
    // Pro, a key without the scope: 403 naming it; elsewhere an under-scoped key is a 401.
    let ws = app.workspace(Plan::Pro).await;
    let reader = app.key(&ws, Mode::Test, &["plays:read"]).await;
    let (s, e) = post(
        &app,
        &reader,
        "/plays",
        json!({"source": small_play("p1", "x")}),
    )
    .await;
    assert_eq!(s, 403, "{e}");
    assert!(
        e["error"]["message"]
            .as_str()
            .unwrap()
            .contains("plays:write"),
        "{e}"
    );
    let (s, e) = post(
        &app,
        &reader,
        "/drafts",
        json!({"play": "mutual-nda", "people": []}),
    )
    .await;
    assert_eq!(s, 403, "{e}");
    assert!(
        e["error"]["message"]
            .as_str()
            .unwrap()
            .contains("drafts:write"),
        "{e}"
    );
    assert_eq!(get(&app, &reader, "/plays").await.0, 200);
    assert_eq!(get(&app, &reader, "/documents").await.0, 401);
    // A drafting key makes drafts, and only drafts: it reads no other document.
    let drafter = app.key(&ws, Mode::Test, &["drafts:write"]).await;
    let (s, d) = post(
        &app,
        &drafter,
        "/drafts",
        json!({
            "play": "photo-release",
            "people": [{"name": "Pat Subject", "email": "pat@example.com", "role": "subject"}],
            "useDefaults": true
        }),
    )
    .await;
    assert_eq!((s, d["status"].as_str()), (200, Some("draft")), "{d}");
    assert_eq!(get(&app, &drafter, "/documents").await.0, 401);
    assert_eq!(get(&app, &drafter, "/plays").await.0, 403);
});

both_quiet!(
    every_input_of_plays_has_a_bound_and_hostile_files_do_no_work,
    |app| {
        let (ws, key) = pro(&app).await;
        // A YAML bomb of anchors and aliases, deep nesting, a huge file, a huge line, bidi
        // controls in a title, a play that tries to include a file or a URL.
        let bomb = "---\nname: bomb\na: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: [*c,*c,*c,*c,*c,*c,*c,*c,*c]\n---\nx\n".to_string();
        let deep = format!(
            "---\nname: deep\nseats: {}{}\n---\nx\n",
            "[".repeat(50),
            "]".repeat(50)
        );
        let huge = format!("{}{}", small_play("huge", "x"), "word ".repeat(60_000));
        let long_line = small_play("long", &"x".repeat(3_000));
        let bidi =
            small_play("bidi", "x").replace("title: Pet sitting", "title: Pet \u{202e}gnittis");
        let include = small_play(
            "include",
            "{{include:/etc/passwd}} ![x](https://evil.example/a.png)",
        );
        for (what, file, needle) in [
            ("bomb", bomb, "anchor"),
            ("deep", deep, "levels"),
            ("huge", huge, "bytes"),
            ("long line", long_line, "2000"),
            ("bidi", bidi, "title"),
            ("include", include, "include"),
        ] {
            let (s, e) = post(&app, &key, "/plays", json!({"source": file})).await;
            assert_eq!(s, 400, "{what}: {e}");
            let m = e["error"]["message"].as_str().unwrap();
            assert!(m.contains(needle), "{what}: {m}");
        }
        // The body past its limit is refused before it is read: only its length is sent
        // (a client still writing 2 MB would meet the closed connection instead).
        let answer = over_limit(&app, &key, "/api/v1/plays/test", 2_000_000).await;
        assert!(answer.starts_with("HTTP/1.1 400"), "{answer}");
        assert!(answer.contains(r#""message":"body"#), "{answer}");

        // 100 versions a play, then refused.
        let first = post(
            &app,
            &key,
            "/plays",
            json!({"source": small_play("many", "v")}),
        )
        .await;
        assert_eq!(first.0, 201, "{}", first.1);
        for i in 2..=signet_plays::library::MAX_VERSIONS {
            let (s, e) = post(
                &app,
                &key,
                "/plays",
                json!({"source": small_play("many", &format!("v{i}"))}),
            )
            .await;
            assert_eq!(s, 201, "{i}: {e}");
        }
        let (s, e) = post(
            &app,
            &key,
            "/plays",
            json!({"source": small_play("many", "one more")}),
        )
        .await;
        assert_eq!(s, 403, "{e}");
        assert!(
            e["error"]["message"]
                .as_str()
                .unwrap()
                .contains("100 versions"),
            "{e}"
        );

        // 200 plays a workspace: filled straight in the table, then the next save is refused.
        let now = signet_storage::now_ms();
        for i in 0..signet_plays::library::MAX_PLAYS {
            app.ctx()
            .db
            .write(app.ctx().db.stmt(
                "INSERT INTO plays (workspace_id, name, latest, published, archived, kind, category, \
                 created_at, updated_at) VALUES ($1, $2, 1, NULL, FALSE, 'document', 'x', $3, $3)",
                [ws.clone().into(), format!("filler-{i}").into(), now.into()],
            ))
            .await
            .unwrap();
        }
        let (s, e) = post(
            &app,
            &key,
            "/plays",
            json!({"source": small_play("one-too-many", "x")}),
        )
        .await;
        assert_eq!(s, 403, "{e}");
        assert!(
            e["error"]["message"]
                .as_str()
                .unwrap()
                .contains("200 plays"),
            "{e}"
        );

        // Playbooks: at most 20 plays each.
        let plays: Vec<String> = (0..21).map(|i| format!("filler-{i}")).collect();
        let (s, e) = post(
            &app,
            &key,
            "/playbooks",
            json!({"name": "big", "title": "Big", "plays": plays}),
        )
        .await;
        assert_eq!(s, 400, "{e}");
        // Drafts: more people than a draft takes; answers that are not an object.
        let many: Vec<Value> = (0..51)
        .map(|i| json!({"name": format!("P{i}"), "email": format!("p{i}@example.com"), "role": "first"}))
        .collect();
        let (s, e) = post(
            &app,
            &key,
            "/drafts",
            json!({"play": "mutual-nda", "people": many}),
        )
        .await;
        assert_eq!(s, 400, "{e}");
        let two = json!([
            {"name": "Ann First", "email": "ann@example.com", "role": "first"},
            {"name": "Ben Second", "email": "ben@example.com", "role": "second"}
        ]);
        let (s, e) = post(
            &app,
            &key,
            "/drafts",
            json!({"play": "mutual-nda", "people": two, "answers": [1, 2]}),
        )
        .await;
        assert_eq!(s, 400, "{e}");
        // A key's daily limit counts drafts made.
        let limited = app
            .key_with({
                let mut k = signet_accounts::keys::KeyCreateIn::new(
                    &ws,
                    Mode::Test,
                    signet_core::actor::Scopes::parse(["drafts:write"]).unwrap(),
                );
                k.daily_limit = Some(1);
                k
            })
            .await;
        let release = |n: &str| {
            json!({
                "play": "photo-release",
                "people": [{"name": n, "email": "pat@example.com", "role": "subject"}],
                "useDefaults": true
            })
        };
        assert_eq!(post(&app, &limited, "/drafts", release("One")).await.0, 200);
        let (s, e) = post(&app, &limited, "/drafts", release("Two")).await;
        assert_eq!(s, 429, "{e}");
    }
);

/// Each built-in play drafted with two answer sets (every default; the last option of every
/// question), the second sent, signed by each seat in order and sealed to a valid seal.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_built_in_play_is_drafted_sent_signed_and_sealed() {
    let app = TestApp::start_without_workers(crate::harness::Kind::Sqlite)
        .await
        .unwrap();
    let (_, key) = pro(&app).await;
    let (_, list) = get(&app, &key, "/plays").await;
    let names: Vec<String> = list["data"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["builtIn"] == true)
        .map(|p| p["name"].as_str().unwrap().to_string())
        .collect();
    assert!(names.len() >= 8);
    for name in names {
        let (_, play) = get(&app, &key, &format!("/plays/{name}")).await;
        let mut seats: Vec<(i64, String)> = play["seats"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| {
                (
                    s["order"].as_i64().unwrap_or(0),
                    s["role"].as_str().unwrap().to_string(),
                )
            })
            .collect();
        seats.sort();
        let people: Vec<Value> = seats
            .iter()
            .map(|(_, r)| json!({"name": format!("The {r}"), "email": format!("{r}@example.com"), "role": r}))
            .collect();
        // Every default.
        let (s, d) = post(
            &app,
            &key,
            "/drafts",
            json!({"play": name, "people": people, "useDefaults": true}),
        )
        .await;
        assert_eq!(s, 200, "{name}: {d}");
        let mut answers = d["answers"].as_object().unwrap().clone();
        let mut r = d;
        while r["status"] == "needs_input" {
            let more: serde_json::Map<String, Value> = r["questions"]
                .as_array()
                .unwrap()
                .iter()
                .map(|q| {
                    (
                        q["id"].as_str().unwrap().to_string(),
                        q["options"][0]["value"].clone(),
                    )
                })
                .collect();
            let path = format!("/drafts/{}/answers", r["draftRef"].as_str().unwrap());
            let (s, next) = post(&app, &key, &path, json!({"answers": more})).await;
            assert_eq!(s, 200, "{name}: {next}");
            r = next;
        }
        assert_eq!(r["status"], "draft", "{name}: {r}");
        answers.clear();
        // The last option of every question, round by round.
        let (_, mut r) = post(
            &app,
            &key,
            "/drafts",
            json!({"play": name, "people": people}),
        )
        .await;
        let mut rounds = 0;
        while r["status"] == "needs_input" {
            rounds += 1;
            let more: serde_json::Map<String, Value> = r["questions"]
                .as_array()
                .unwrap()
                .iter()
                .map(|q| {
                    let o = q["options"].as_array().unwrap();
                    (
                        q["id"].as_str().unwrap().to_string(),
                        o[o.len() - 1]["value"].clone(),
                    )
                })
                .collect();
            let path = format!("/drafts/{}/answers", r["draftRef"].as_str().unwrap());
            let (s, next) = post(&app, &key, &path, json!({"answers": more})).await;
            assert_eq!(s, 200, "{name}: {next}");
            r = next;
        }
        assert!(rounds >= 1, "{name} asks questions");
        let id = r["documentId"].as_str().unwrap().to_string();
        let (s, sent) = post(&app, &key, &format!("/documents/{id}/send"), json!({})).await;
        assert_eq!(s, 201, "{name}: {sent}");
        app.run_pending_jobs().await;
        let order: Vec<&str> = seats.iter().map(|(_, r)| r.as_str()).collect();
        crate::harness::test_sign(&app, &key, &id, &order).await;
        let pdf = crate::harness::signed_pdf(&app, &key, &id).await;
        let text = crate::templates::sealed_and_valid(&app, &pdf, &name);
        if let Some(text) = text {
            let first = format!("The {}", seats[0].1);
            assert!(text.contains(&first), "{name}: {text}");
        }
    }
}

/// A play's words that depend on answers print exactly as answered in the sealed PDF.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn words_that_depend_on_answers_print_as_answered() {
    let app = TestApp::start_without_workers(crate::harness::Kind::Sqlite)
        .await
        .unwrap();
    let (_, key) = pro(&app).await;
    assert_eq!(
        post(
            &app,
            &key,
            "/plays",
            json!({"source": small_play("pets", "Agreed.")})
        )
        .await
        .0,
        201
    );
    assert_eq!(
        post(&app, &key, "/plays/pets/publish", json!({"version": 1}))
            .await
            .0,
        200
    );
    for (answers, present, absent) in [
        (
            json!({"pet": "dog", "walks": "one"}),
            "takes the dog out for one walk a day",
            "litter box",
        ),
        (
            json!({"pet": "cat"}),
            "cleans the litter box every day",
            "walk",
        ),
    ] {
        let (s, d) = post(
            &app,
            &key,
            "/drafts",
            json!({"play": "pets", "people": people(), "answers": answers}),
        )
        .await;
        assert_eq!((s, d["status"].as_str()), (200, Some("draft")), "{d}");
        let id = d["documentId"].as_str().unwrap().to_string();
        assert_eq!(
            post(&app, &key, &format!("/documents/{id}/send"), json!({}))
                .await
                .0,
            201
        );
        app.run_pending_jobs().await;
        crate::harness::test_sign(&app, &key, &id, &["owner", "sitter"]).await;
        let pdf = crate::harness::signed_pdf(&app, &key, &id).await;
        let Some(text) = crate::sealing::pdf_text(&pdf) else {
            continue;
        };
        let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(flat.contains(present), "{flat}");
        assert!(!flat.contains(absent), "{flat}");
        assert!(flat.contains("looks after the"), "{flat}");
    }
}
