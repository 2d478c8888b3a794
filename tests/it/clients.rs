//! The client libraries as their users get them: both regenerated from `openapi.json` with no
//! difference from what is committed; the Python wheel built and installed into a fresh virtual
//! environment, and the JavaScript package packed and installed into a fresh folder, each then
//! running its own test suite (pytest, node's test runner) against this live server.
//!
//! A missing tool (python3's venv, openapi-python-client, node, clients/js's packages) fails
//! these tests unless the part is skipped by name (`SIGNET_TEST_SKIP=clients`).

use std::path::{Path, PathBuf};
use std::process::Command;

use signet_accounts::keys::KeyCreateIn;
use signet_core::Mode;
use signet_core::actor::Scopes;
use signet_core::plans::Plan;

use crate::harness::{Kind, TestApp};

fn checkout() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Runs `cmd`; its output, or a panic naming what failed.
fn run(what: &str, cmd: &mut Command) -> String {
    let out = cmd
        .output()
        .unwrap_or_else(|e| panic!("{what}: cannot run {cmd:?}: {e}"));
    let text = format!(
        "{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "{what} failed:\n{text}");
    text
}

fn found(program: &str) -> bool {
    Command::new(program)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// The server, a workspace, a test key with every scope and a test key with a budget of three
/// requests a minute (for the retry-after-429 tests).
async fn server() -> (TestApp, String, String) {
    let app = TestApp::start(Kind::Sqlite).await.unwrap();
    let ws = app.workspace(Plan::Free).await;
    let key = app
        .key_with(KeyCreateIn::new(&ws, Mode::Test, Scopes::all()))
        .await;
    let mut limited = KeyCreateIn::new(&ws, Mode::Test, Scopes::all());
    limited.per_minute = Some(3);
    let limited = app.key_with(limited).await;
    (app, key, limited)
}

#[test]
fn both_clients_match_openapi_json() {
    let missing = (!found("openapi-python-client"))
        .then(|| {
            "openapi-python-client is not installed (pip install openapi-python-client==0.29.1)"
                .to_string()
        })
        .or_else(|| {
            (!checkout()
                .join("clients/js/node_modules/.bin/openapi-typescript")
                .is_file())
            .then(|| "clients/js's packages are not installed (cd clients/js && npm ci)".into())
        });
    if !signet_testkit::part("clients", missing) {
        return;
    }
    run(
        "bash clients/generate --check (run bash clients/generate and commit)",
        Command::new("bash")
            .arg("clients/generate")
            .arg("--check")
            .current_dir(checkout()),
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_python_wheel_against_the_live_server() {
    let missing = (!Command::new("python3")
        .args(["-c", "import venv, ensurepip"])
        .output()
        .is_ok_and(|o| o.status.success()))
    .then(|| {
        "python3 with venv and ensurepip is not installed (apt install python3-venv)".to_string()
    });
    if !signet_testkit::part("clients", missing) {
        return;
    }
    let (app, key, limited) = server().await;
    let work = tempfile::tempdir().unwrap();
    let w = work.path();
    // Built from a copy, so the build leaves nothing in the checkout.
    let src = w.join("src");
    copy_dir(&checkout().join("clients/python"), &src);
    run(
        "building the wheel",
        Command::new("python3")
            .args([
                "-m",
                "pip",
                "wheel",
                "-q",
                "--no-deps",
                "--disable-pip-version-check",
                "-w",
            ])
            .arg(w.join("dist"))
            .arg(&src),
    );
    let wheel = std::fs::read_dir(w.join("dist"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|e| e == "whl"))
        .expect("a wheel was built");
    assert!(
        wheel
            .file_name()
            .unwrap()
            .to_string_lossy()
            .starts_with("signet_client-2026.10.7-"),
        "{wheel:?}"
    );
    let venv = w.join("venv");
    run(
        "making a virtual environment",
        Command::new("python3").args(["-m", "venv"]).arg(&venv),
    );
    run(
        "installing the wheel and pytest",
        Command::new(venv.join("bin/pip"))
            .args(["install", "-q", "--disable-pip-version-check"])
            .arg(&wheel)
            .arg("pytest>=8,<10"),
    );
    let tests = src.join("tests");
    std::fs::remove_dir_all(src.join("signet")).unwrap();
    let out = tokio::task::spawn_blocking({
        let (venv, w, base) = (venv.clone(), w.to_path_buf(), app.base.clone());
        move || {
            Command::new(venv.join("bin/pytest"))
                .args(["-q", "-p", "no:cacheprovider", "-x", "--durations=5"])
                .arg(&tests)
                .current_dir(&w)
                .env("SIGNET_BASE_URL", base)
                .env("SIGNET_API_KEY", key)
                .env("SIGNET_LIMITED_KEY", limited)
                .output()
                .unwrap()
        }
    })
    .await
    .unwrap();
    let text = format!(
        "{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    eprintln!("{text}");
    assert!(
        out.status.success(),
        "the Python client's tests failed:\n{text}"
    );
    assert!(text.contains(" passed"), "{text}");
    drop(app);
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let name = entry.file_name();
        let n = name.to_string_lossy();
        if n == "node_modules"
            || n == "__pycache__"
            || n == "dist"
            || n == "build"
            || n.ends_with(".egg-info")
        {
            continue;
        }
        let path = entry.path();
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&path, &to.join(&name));
        } else {
            std::fs::copy(&path, to.join(&name)).unwrap();
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_javascript_package_against_the_live_server() {
    let js = checkout().join("clients/js");
    let missing = (!found("npm"))
        .then(|| "node and npm are not installed".to_string())
        .or_else(|| {
            (!js.join("node_modules/.bin/tsc").is_file())
                .then(|| "clients/js's packages are not installed (cd clients/js && npm ci)".into())
        });
    if !signet_testkit::part("clients", missing) {
        return;
    }
    let (app, key, limited) = server().await;
    let browser_key = key.clone();
    let work = tempfile::tempdir().unwrap();
    let w = work.path();
    // `npm pack` compiles (prepack) into clients/js/dist, which git ignores.
    let packed = run(
        "packing the JavaScript client",
        Command::new("npm")
            .args(["pack", "--silent", "--pack-destination"])
            .arg(w)
            .current_dir(&js),
    );
    let tarball = w.join(packed.trim());
    assert!(
        tarball.is_file() && packed.trim() == "signet-client-2026.10.7.tgz",
        "{packed}"
    );
    // A fresh folder that installs the tarball (and its one dependency) as a user would.
    let user = w.join("user");
    std::fs::create_dir_all(&user).unwrap();
    std::fs::write(
        user.join("package.json"),
        r#"{"name": "a-user", "private": true, "type": "module"}"#,
    )
    .unwrap();
    run(
        "installing the packed client",
        Command::new("npm")
            .args(["install", "--no-audit", "--no-fund", "--loglevel=error"])
            .arg(&tarball)
            .current_dir(&user),
    );
    for file in ["live.test.mjs", "usage.ts", "tsconfig.json", "browser.mjs"] {
        std::fs::copy(js.join("test").join(file), user.join(file)).unwrap();
    }
    // The README's calls compile against the installed package's types.
    run(
        "type-checking the client's usage",
        Command::new(js.join("node_modules/.bin/tsc"))
            .args(["-p", "tsconfig.json"])
            .current_dir(&user),
    );
    let out = tokio::task::spawn_blocking({
        let (user, base) = (user.clone(), app.base.clone());
        move || {
            Command::new("node")
                .args(["--test", "--test-reporter=spec", "live.test.mjs"])
                .current_dir(&user)
                .env("SIGNET_BASE_URL", base)
                .env("SIGNET_API_KEY", key)
                .env("SIGNET_LIMITED_KEY", limited)
                .output()
                .unwrap()
        }
    })
    .await
    .unwrap();
    let text = format!(
        "{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    eprintln!("{text}");
    assert!(
        out.status.success(),
        "the JavaScript client's tests failed:\n{text}"
    );
    assert!(text.contains("ℹ fail 0"), "{text}");
    // The same package bundled into a page of the server's own origin, in Chromium.
    let frontend = checkout().join("frontend");
    let chromium = std::env::var("CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".into());
    let missing = (!Path::new(&chromium).is_file())
        .then(|| format!("{chromium} is not installed (apt install chromium)"))
        .or_else(|| {
            (!frontend.join("node_modules/playwright-core").is_dir()).then(|| {
                "the front end's packages are not installed (cd frontend && npm ci)".into()
            })
        });
    if signet_testkit::part("browser", missing) {
        let (user, base, key) = (user.clone(), app.base.clone(), browser_key.clone());
        let out = tokio::task::spawn_blocking(move || {
            Command::new("node")
                .arg("browser.mjs")
                .current_dir(&user)
                .env("SIGNET_BASE_URL", base)
                .env("SIGNET_API_KEY", key)
                .env("CHROMIUM", chromium)
                .env("FRONTEND", frontend)
                .output()
                .unwrap()
        })
        .await
        .unwrap();
        let text = format!(
            "{}\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(
            out.status.success() && text.contains("browser: ok"),
            "the JavaScript client in Chromium:\n{text}"
        );
    }
    drop(app);
}
