//! The front end as the test suite sees it: the committed build matches its sources, the
//! signing page's JavaScript stays within its budget, and the browser tests
//! (`frontend/tests/`, Playwright driving Debian's chromium, with axe-core) pass against this
//! very binary. Node, `frontend/node_modules` (`npm ci`) and chromium are installed by
//! `.ci/run`; without them these tests fail unless the part is skipped by name
//! (`SIGNET_TEST_SKIP=browser`).

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

fn frontend() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("frontend")
}

/// Whether node, the front end's packages and chromium are here; missing, the test fails
/// unless the `browser` part is skipped by name.
fn ready() -> bool {
    let node = Command::new("node").arg("--version").output().is_ok();
    let modules = frontend().join("node_modules/playwright-core").exists();
    let chromium = Path::new("/usr/bin/chromium").exists() || std::env::var("CHROMIUM").is_ok();
    let missing = (!(node && modules && chromium)).then(|| {
        format!(
            "the browser tests need node ({node}), frontend/node_modules ({modules}; `cd frontend && npm ci`) and chromium ({chromium})"
        )
    });
    signet_testkit::part("browser", missing)
}

#[test]
fn the_committed_front_end_build_matches_its_sources() {
    if !ready() {
        return;
    }
    // The built files, and the types the pages read from the GraphQL schema.
    for script in ["build.mjs", "types.mjs"] {
        let out = Command::new("node")
            .arg(script)
            .arg("--check")
            .current_dir(frontend())
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{script}: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

#[test]
fn the_signing_page_script_stays_under_60_kb_and_the_loader_under_4_kb_gzipped() {
    let (name, _, bytes) = signet_frontend::file(signet_frontend::built("sign.js").unwrap())
        .expect("the signing page's script is built into the binary");
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    gz.write_all(bytes).unwrap();
    let packed = gz.finish().unwrap().len();
    assert!(
        packed < 60 * 1024,
        "{name}: {packed} bytes gzipped, over the 60 KB budget"
    );
    // The loader other websites include: a few KB.
    let (loader, _, bytes) =
        signet_frontend::file(signet_frontend::built("signing_embed.js").unwrap()).unwrap();
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    gz.write_all(bytes).unwrap();
    let packed = gz.finish().unwrap().len();
    assert!(packed < 4 * 1024, "{loader}: {packed} bytes gzipped");
    // The application's first load (its shell, with every screen so far): the aim is under
    // 150 KB gzipped for the shell and the documents list.
    let (app, _, bytes) = signet_frontend::file(signet_frontend::built("app.js").unwrap()).unwrap();
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    gz.write_all(bytes).unwrap();
    let packed = gz.finish().unwrap().len();
    assert!(packed < 150 * 1024, "{app}: {packed} bytes gzipped");
    let css = signet_frontend::file(signet_frontend::built("sign.css").unwrap()).unwrap();
    assert!(
        css.2.len() < 40 * 1024,
        "the style sheet: {} bytes",
        css.2.len()
    );
}

#[test]
fn a_person_signs_declines_and_reads_their_language_in_a_real_browser() {
    if !ready() {
        return;
    }
    let out = Command::new("node")
        .args(["--test", "--test-reporter=spec", "tests/"])
        .current_dir(frontend())
        .env("BROWSER_TEST_SIGNET", env!("CARGO_BIN_EXE_signet"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}
