//! The administration commands, run as a user runs them.

use serde_json::Value;

use crate::harness::{Kind, TestApp};

fn json(out: &str) -> Value {
    serde_json::from_str(out.trim()).unwrap_or_else(|e| panic!("not JSON ({e}): {out}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn workspace_and_key_lifecycle_from_the_command_line() {
    let app = TestApp::start(Kind::Sqlite).await.unwrap();
    let (code, out, err) = app.cli(&[
        "admin",
        "workspace",
        "create",
        "--name",
        "Acme",
        "--plan",
        "pro",
        "--time-zone",
        "Europe/Paris",
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let ws = json(&out)["id"].as_str().unwrap().to_string();
    assert!(ws.starts_with("wsp_"));

    let (code, out, err) = app.cli(&[
        "admin",
        "key",
        "create",
        "--workspace",
        &ws,
        "--mode",
        "live",
        "--scopes",
        "account:read,people:read",
        "--per-minute",
        "50",
        "--allow",
        "127.0.0.1/32",
        "--expires-in",
        "30d",
        "--name",
        "ci",
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let created = json(&out);
    let key = created["key"].as_str().unwrap().to_string();
    let id = created["id"].as_str().unwrap().to_string();
    assert!(key.starts_with("svc_live_") && key.len() == 41, "{key}");

    let a = app.get("/api/v1/usage", Some(&key)).await;
    assert_eq!(a.status, 200);
    assert_eq!(a.body["plan"], "pro");
    assert_eq!(a.header("ratelimit-limit"), "50");

    let (code, out, _) = app.cli(&["admin", "key", "list", "--workspace", &ws, "--json"]);
    assert_eq!(code, 0);
    let listed = json(&out);
    assert_eq!(listed["data"][0]["id"], id.as_str());
    assert_eq!(
        listed["data"][0]["scopes"],
        serde_json::json!(["people:read", "account:read"])
    );
    assert!(!out.contains(&key), "the key is never shown again");

    let (code, _, err) = app.cli(&["admin", "key", "revoke", &id, "--json"]);
    assert_eq!(code, 0, "{err}");
    // The server caches authenticated keys; a revocation from another process reaches it
    // through the auth epoch, which it polls every second.
    let revoked_at = std::time::Instant::now();
    loop {
        let status = app.get("/api/v1/usage", Some(&key)).await.status;
        if status == 401 {
            break;
        }
        assert_eq!(status, 200);
        // The poll is every second; a loaded machine may take a few.
        assert!(
            revoked_at.elapsed().as_secs() < 30,
            "the revocation never reached the running server"
        );
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_input_and_bad_settings_are_named() {
    let app = TestApp::start(Kind::Sqlite).await.unwrap();
    let (code, _, err) = app.cli(&[
        "admin",
        "workspace",
        "create",
        "--name",
        "A",
        "--time-zone",
        "Mars/Olympus",
        "--json",
    ]);
    assert_eq!(code, 1);
    assert!(err.contains("timeZone"), "{err}");

    let (_, out, _) = app.cli(&["admin", "workspace", "create", "--name", "A", "--json"]);
    let ws = json(&out)["id"].as_str().unwrap().to_string();
    let (code, _, err) = app.cli(&[
        "admin",
        "key",
        "create",
        "--workspace",
        &ws,
        "--mode",
        "test",
        "--scopes",
        "documents:raed",
    ]);
    assert_eq!(code, 1);
    assert!(err.contains("unknown scope 'documents:raed'"), "{err}");

    let run = |var: &str, value: &str| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_signet"))
            .args(["admin", "key", "list", "--workspace", &ws])
            .envs(app.env())
            .env(var, value)
            .current_dir(app.dir.path())
            .output()
            .unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let (code, err) = run("SIGNET_LISTEN", "not-an-address");
    assert_eq!(code, Some(2));
    assert!(err.contains("listen"), "{err}");
    let (code, err) = run("SIGNET_ANONYMOUS_PER_MINUTE", "many");
    assert_eq!(code, Some(2));
    assert!(err.contains("anonymous_per_minute"), "{err}");
    let (code, err) = run("DATABASE_URL", "mysql://x");
    assert_eq!(code, Some(2));
    assert!(err.contains("DATABASE_URL"), "{err}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn settings_come_from_signet_toml_and_the_environment() {
    let app = TestApp::start(Kind::Sqlite).await.unwrap();
    let toml = app.dir.path().join("signet.toml");
    let run = |extra: &[(&str, &str)]| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_signet"))
            .args(["admin", "workspace", "create", "--name", "T", "--json"])
            .envs(app.env())
            .envs(extra.iter().copied())
            .current_dir(app.dir.path())
            .output()
            .unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    // A typo in the file is named, with where it came from.
    std::fs::write(&toml, "anonymus_per_minute = 5\n").unwrap();
    let (code, err) = run(&[]);
    assert_eq!(code, Some(2));
    assert!(
        err.contains("anonymus_per_minute") && err.contains("TOML"),
        "{err}"
    );
    // A valid file is read; the environment wins over it.
    std::fs::write(&toml, "log_format = \"yaml\"\n").unwrap();
    let (code, err) = run(&[]);
    assert_eq!(code, Some(2));
    assert!(err.contains("log_format"), "{err}");
    assert_eq!(run(&[("SIGNET_LOG_FORMAT", "json")]).0, Some(0));
    std::fs::remove_file(&toml).unwrap();
    // A data folder Signet creates is private to its user; the secret in it too.
    let fresh = app.dir.path().join("fresh-data");
    let status = std::process::Command::new(env!("CARGO_BIN_EXE_signet"))
        .args(["admin", "workspace", "create", "--name", "T"])
        .env("SIGNET_DATA_DIR", &fresh)
        .env_remove("DATABASE_URL")
        .env_remove("REDIS_URL")
        .env_remove("SIGNET_SECRET_KEY")
        .current_dir(app.dir.path())
        .output()
        .unwrap();
    assert!(
        status.status.success(),
        "{}",
        String::from_utf8_lossy(&status.stderr)
    );
    use std::os::unix::fs::PermissionsExt;
    let mode = |p: &std::path::Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(&fresh), 0o700);
    assert_eq!(mode(&fresh.join("secret.key")), 0o600);
    assert!(fresh.join("signet.db").exists());
    // Trusted proxies: a list or a comma-separated string; a bad entry is named.
    assert_eq!(
        run(&[("SIGNET_TRUSTED_PROXIES", "10.0.0.0/8, 192.168.1.1")]).0,
        Some(0)
    );
    assert_eq!(
        run(&[("SIGNET_TRUSTED_PROXIES", "[\"10.0.0.0/8\"]")]).0,
        Some(0)
    );
    let (code, err) = run(&[("SIGNET_TRUSTED_PROXIES", "10.0.0.0/8,proxy.local")]);
    assert_eq!(code, Some(2));
    assert!(
        err.contains("trusted_proxies") && err.contains("proxy.local"),
        "{err}"
    );
}

/// The embedded default is served by one process: a second `signet serve` on the same
/// database stops at once with a message, and the first keeps serving.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_second_serve_on_the_same_sqlite_file_is_refused() {
    let app = TestApp::start(Kind::Sqlite).await.unwrap();
    let mut second = std::process::Command::new(env!("CARGO_BIN_EXE_signet"))
        .arg("serve")
        .envs(app.env())
        .env_remove("REDIS_URL")
        .env("SIGNET_LISTEN", "127.0.0.1:0")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("signet runs");
    let started = std::time::Instant::now();
    let status = loop {
        if let Some(status) = second.try_wait().expect("wait") {
            break status;
        }
        if started.elapsed() > std::time::Duration::from_secs(30) {
            let _ = second.kill();
            panic!("a second `signet serve` on the same SQLite file kept running");
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    };
    let out = second.wait_with_output().expect("output");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!status.success());
    assert!(
        err.contains("another `signet serve` is already serving"),
        "{err}"
    );
    let (_, key) = app.owner().await;
    let a = app.get("/api/v1/usage", Some(&key)).await;
    assert_eq!(a.status, 200, "the first still serves");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn serve_takes_a_role_and_names_the_roles_it_takes() {
    let app = TestApp::start_without_workers(Kind::Sqlite).await.unwrap();
    let (code, _, err) = app.cli(&["serve", "--role", "everything"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("possible values: all, api"), "{err}");
    let (code, out, _) = app.cli(&["serve", "--help"]);
    assert_eq!(code, 0);
    assert!(
        out.contains("--role <ROLE>") && out.contains("The API only"),
        "{out}"
    );
}
