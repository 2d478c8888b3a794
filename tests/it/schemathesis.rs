//! schemathesis (from PyPI) checks the live server against the OpenAPI document it serves:
//! documented statuses, headers and response schemas, authentication that is not ignored,
//! and methods the document does not list. A missing schemathesis fails the test unless the
//! part is skipped by name (`SIGNET_TEST_SKIP=schemathesis`).

use crate::harness::{Kind, Options, TestApp};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn live_server_conforms_to_its_openapi_document() {
    let found = std::process::Command::new("schemathesis")
        .arg("--version")
        .output()
        .is_ok();
    let missing =
        (!found).then(|| "schemathesis is not installed (pip install schemathesis)".to_string());
    if !signet_testkit::part("schemathesis", missing) {
        return;
    }
    // Unauthenticated probes of every operation must not run out the per-address budget.
    let app = TestApp::start_with(
        Kind::Sqlite,
        Options {
            anonymous_per_minute: Some(1_000_000),
            ..Options::default()
        },
    )
    .await
    .unwrap();
    // A budget schemathesis does not exhaust, so the logic behind each route is reached.
    let ws = app.workspace(signet_core::plans::Plan::Free).await;
    let mut input = signet_accounts::keys::KeyCreateIn::new(
        &ws,
        signet_core::Mode::Test,
        signet_core::actor::Scopes::all(),
    );
    input.per_minute = Some(1_000_000);
    let key = app.key_with(input).await;
    let url = format!("{}/api/openapi.json", app.base);
    // Every check runs (schemathesis's default) but two:
    // - positive_data_acceptance: semantic rules (a source's roles and chips, email addresses,
    //   an Idempotency-Key reused with another body) cannot be written in JSON Schema, so a
    //   schema-valid request may rightly be refused (docs/decisions/the-safety-net.md);
    // - negative_data_rejection for `GET /documents` alone: its `metadata` map of strings is
    //   written in the query, where every value is a string, so a "boolean" `true` schemathesis
    //   sends as not-a-string arrives as the string "true" and is rightly taken.
    std::fs::write(
        app.dir.path().join("schemathesis.toml"),
        "[checks.positive_data_acceptance]\nenabled = false\n\n\
         [[operations]]\ninclude-operation-id = \"documentsList\"\n\
         checks.negative_data_rejection.enabled = false\n",
    )
    .unwrap();
    let out = tokio::process::Command::new("schemathesis")
        .args(["run", &url, "--max-examples", "25", "--no-color"])
        .args(["--header", &format!("Authorization: Bearer {key}")])
        .env("SCHEMATHESIS_HOOKS", "")
        .current_dir(app.dir.path())
        .output()
        .await
        .expect("schemathesis runs");
    let report = format!(
        "{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    eprintln!("{report}");
    assert!(
        out.status.success(),
        "schemathesis found problems:\n{report}"
    );
}
