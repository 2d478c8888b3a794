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

/// A built file's name and its size gzipped at the best level.
fn gzipped(logical: &str) -> (&'static str, usize) {
    let (name, _, bytes) = signet_frontend::file(signet_frontend::built(logical).unwrap())
        .unwrap_or_else(|| panic!("{logical} is built into the binary"));
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    gz.write_all(bytes).unwrap();
    (name, gz.finish().unwrap().len())
}

#[test]
fn the_signing_page_script_stays_under_60_kb_and_the_loader_under_4_kb_gzipped() {
    for (file, budget) in [
        // The signing page and Scribe, the drafting frame.
        ("sign.js", 60 * 1024),
        ("scribe.js", 60 * 1024),
        // The loaders other websites include: a few KB.
        ("signing_embed.js", 4 * 1024),
        ("scribe_embed.js", 4 * 1024),
        ("builder_embed.js", 4 * 1024),
        // The builder frame: TipTap (ProseMirror and tables) with the builder's panels and
        // its English words; each other language is a chunk of about 2 KB loaded when used.
        ("builder.js", 150 * 1024),
        // The application's first load (its shell, with every screen so far): the aim is
        // under 150 KB gzipped for the shell and the documents list.
        ("app.js", 150 * 1024),
    ] {
        let (name, packed) = gzipped(file);
        assert!(
            packed < budget,
            "{name}: {packed} bytes gzipped, over {budget}"
        );
    }
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
