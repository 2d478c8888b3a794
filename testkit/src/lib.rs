//! The parts of the test suite that need programs from outside Rust (PostgreSQL and Redis,
//! pyHanko and the other verifiers, schemathesis, Chromium, an SMTP server, poppler,
//! LibreOffice, tesseract) decide here whether they run.
//!
//! A part whose programs are here runs. A part whose programs are missing **fails**, saying
//! what is missing, unless the person running the suite skipped it by name:
//! `SIGNET_TEST_SKIP=postgres,verifiers`. A skipped part is written to the file named by
//! `SIGNET_TEST_SKIPPED` (the README's test command, `scripts/test`, sets it and lists what
//! was skipped at the end), so no part is ever left out in silence.

use std::io::Write;

/// The parts, by the names `SIGNET_TEST_SKIP` takes.
pub const PARTS: [(&str, &str); 8] = [
    (
        "postgres",
        "the PostgreSQL+Redis half of the integration tests",
    ),
    (
        "verifiers",
        "pyHanko, pdfsig, qpdf and standardwebhooks judging our files and webhooks",
    ),
    ("schemathesis", "schemathesis against the OpenAPI document"),
    ("browser", "the browser tests (Chromium and node)"),
    ("mail", "the email tests (aiosmtpd as the SMTP server)"),
    ("poppler", "poppler's tools reading rendered PDFs back"),
    (
        "office",
        "templates from office files (LibreOffice, bubblewrap, python-docx)",
    ),
    ("ocr", "templates from pictures (tesseract)"),
];

/// The list of parts to skip, as given.
pub const SKIP_VAR: &str = "SIGNET_TEST_SKIP";
/// Where skipped parts are written down.
pub const SKIPPED_VAR: &str = "SIGNET_TEST_SKIPPED";

/// Whether `name` was skipped by the person running the suite.
pub fn skipped(name: &str) -> bool {
    std::env::var(SKIP_VAR)
        .is_ok_and(|v| v.split(',').map(str::trim).any(|p| p == name || p == "all"))
}

/// Whether part `name` runs: `missing` is `None` when its programs are here, else what is
/// missing. Missing and not skipped, the test fails with how to install or skip it.
pub fn part(name: &str, missing: Option<String>) -> bool {
    assert!(
        PARTS.iter().any(|(n, _)| *n == name),
        "unknown test part '{name}'"
    );
    let Some(why) = missing else {
        return true;
    };
    if !skipped(name) {
        panic!(
            "{why}. `bash scripts/test` installs what the suite needs; to run without this part, \
             skip it by name: {SKIP_VAR}={name}"
        );
    }
    eprintln!("skipped ({SKIP_VAR}={name}): {why}");
    if let Ok(path) = std::env::var(SKIPPED_VAR)
        && let Ok(mut f) = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
    {
        let _ = writeln!(f, "{name}\t{why}");
    }
    false
}

/// `part` for a program looked up on the `PATH`: whether it runs, with the program's path.
pub fn program(name: &str, part_name: &str, install: &str) -> Option<std::path::PathBuf> {
    let found = std::env::var_os("PATH").and_then(|p| {
        std::env::split_paths(&p)
            .map(|d| d.join(name))
            .find(|p| p.is_file())
    });
    let missing = found
        .is_none()
        .then(|| format!("{name} is not installed ({install})"));
    if part(part_name, missing) {
        found
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[should_panic(expected = "SIGNET_TEST_SKIP=ocr")]
    fn a_missing_part_fails_and_says_how_to_skip_it() {
        // Nothing in this test's environment skips `ocr`.
        if skipped("ocr") {
            panic!("SIGNET_TEST_SKIP=ocr (set by the caller)");
        }
        part("ocr", Some("tesseract is not installed".into()));
    }

    #[test]
    fn a_part_that_is_here_runs() {
        assert!(part("poppler", None));
    }
}
