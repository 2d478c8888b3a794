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
    let out = tokio::process::Command::new("schemathesis")
        .args([
            "run",
            &url,
            "--checks",
            "all",
            // Semantic rules (a source's roles and chips, email addresses, an Idempotency-Key
            // reused with another body) cannot be written in JSON Schema, so a schema-valid
            // request may rightly be refused; every other check runs. See docs/decisions/the-safety-net.md.
            "--exclude-checks",
            "positive_data_acceptance",
            "--max-examples",
            "25",
            "--no-color",
        ])
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
