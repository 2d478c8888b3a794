//! The tool server for AI assistants, driven by the official MCP Python client (`mcp` 2.x,
//! tests/it/mcp/client.py) on both transports: streamable HTTP at `/mcp` of the live server
//! and `signet mcp --stdio` on the same database. A missing `mcp` package fails the test
//! unless the part is skipped by name (`SIGNET_TEST_SKIP=clients`).

use serde_json::json;
use signet_core::Mode;
use signet_core::plans::Plan;

use crate::harness::{Kind, TestApp};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_official_mcp_client_on_both_transports() {
    let found = std::process::Command::new("python3")
        .args(["-c", "import mcp, mcp_types"])
        .output()
        .is_ok_and(|o| o.status.success());
    let missing = (!found)
        .then(|| "the mcp package is not installed (pip install 'mcp>=2.3,<3')".to_string());
    if !signet_testkit::part("clients", missing) {
        return;
    }
    let app = TestApp::start(Kind::Sqlite).await.unwrap();
    let ws = app.workspace(Plan::Pro).await;
    let all: Vec<&str> = signet_core::Scope::ALL.iter().map(|s| s.as_str()).collect();
    let full = app.key(&ws, Mode::Test, &all).await;
    let read = app.key(&ws, Mode::Test, &["documents:read"]).await;
    // A play of the workspace's: `pet`, then `walks` for a dog.
    let play = format!("pets-{}", signet_core::ids::new_id("p").to_lowercase());
    let made = app
        .post(
            "/api/v1/plays",
            &full,
            &[],
            &json!({"source": crate::plays::small_play(&play, "Kept.")}).to_string(),
        )
        .await;
    assert_eq!(made.status, 201, "{}", made.body);
    let published = app
        .post(
            &format!("/api/v1/plays/{play}/publish"),
            &full,
            &[],
            &json!({"version": 1}).to_string(),
        )
        .await;
    assert_eq!(published.status, 200, "{}", published.body);
    let stdio_env: serde_json::Map<String, serde_json::Value> = app
        .env()
        .into_iter()
        .map(|(k, v)| (k.to_string(), json!(v)))
        .collect();
    let script = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/it/mcp/client.py");
    let out = tokio::process::Command::new("python3")
        .arg(script)
        .current_dir(app.dir.path())
        .env("SIGNET_BASE_URL", &app.base)
        .env("SIGNET_FULL_KEY", &full)
        .env("SIGNET_READ_KEY", &read)
        .env("SIGNET_PLAY", &play)
        .env("SIGNET_BIN", env!("CARGO_BIN_EXE_signet"))
        .env(
            "SIGNET_STDIO_ENV",
            serde_json::Value::Object(stdio_env).to_string(),
        )
        .env("SIGNET_LOG", "warn")
        .output()
        .await
        .expect("python3 runs");
    let report = format!(
        "{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    eprintln!("{report}");
    assert!(
        out.status.success(),
        "the MCP client's checks failed:\n{report}"
    );
    assert!(
        report.contains("ok - no tool answer carries a signing link"),
        "{report}"
    );
}

/// Every tool does a REST operation of the route table and asks what its route asks of a key.
#[test]
fn each_tool_takes_the_scope_of_its_rest_operation() {
    use signet_mcp::Need;
    use signet_rest::routes::row::Access;
    let mut names = std::collections::HashSet::new();
    for tool in signet_mcp::TOOLS {
        assert!(names.insert(tool.name), "{} is listed twice", tool.name);
        let route = signet_rest::routes::ROUTES
            .iter()
            .find(|r| r.operation_id == tool.operation)
            .unwrap_or_else(|| panic!("{}: no route {}", tool.name, tool.operation));
        let same = match (route.access, tool.need) {
            (Access::Scope(a), Need::Scope(b)) | (Access::Pro(a), Need::Pro(b)) => a == b,
            (Access::Either(a, b), Need::Either(c, d)) => (a, b) == (c, d),
            _ => false,
        };
        assert!(
            same,
            "{}: {:?} but its route asks {:?}",
            tool.name, tool.need, route.access
        );
        assert!(
            !(tool.read_only && tool.destructive),
            "{} cannot both only read and destroy",
            tool.name
        );
        // GET routes only read; a tool that only reads never does a route that writes
        // (checking words is a POST that changes nothing).
        if tool.read_only && route.method != axum::http::Method::GET {
            assert_eq!(tool.operation, "v1.documents.check", "{}", tool.name);
        }
        let schema = (tool.input)();
        assert_eq!(schema["type"], "object", "{}", tool.name);
        assert!(
            tool.description.len() > 40,
            "{} says what it does",
            tool.name
        );
    }
    // Routes that sign or hand out a signing link are never tools.
    for op in ["v1.documents.embedSession", "v1.documents.signedPdf"] {
        assert!(
            signet_mcp::TOOLS.iter().all(|t| t.operation != op),
            "{op} is not a tool"
        );
    }
}
