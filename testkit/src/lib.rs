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
pub const PARTS: [(&str, &str); 11] = [
    (
        "postgres",
        "the PostgreSQL+Redis half of the integration tests",
    ),
    (
        "verifiers",
        "pyHanko, pdfsig, qpdf and standardwebhooks judging our files and webhooks",
    ),
    (
        "stripe",
        "the official stripe library checking the Stripe stand-in speaks Stripe's wire format",
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
    (
        "llm",
        "AI drafting against a small model served by llama.cpp (xllamacpp, SmolLM2)",
    ),
    (
        "clients",
        "the Python and JavaScript clients regenerated, built, installed and run against the server",
    ),
];

/// The list of parts to skip, as given.
pub const SKIP_VAR: &str = "SIGNET_TEST_SKIP";
/// Where skipped parts are written down.
pub const SKIPPED_VAR: &str = "SIGNET_TEST_SKIPPED";

/// Whether `name` was skipped by the person running the suite.
pub fn skipped(name: &str) -> bool {
    skipped_in(std::env::var(SKIP_VAR).ok().as_deref(), name)
}

/// Whether `name` is in the list `skip` (as `SIGNET_TEST_SKIP` gives it).
fn skipped_in(skip: Option<&str>, name: &str) -> bool {
    skip.is_some_and(|v| v.split(',').map(str::trim).any(|p| p == name || p == "all"))
}

/// What `part` decides for `name`, given what is missing and the list of skipped parts:
/// whether it runs, or the failure that says how to install or skip it.
fn decide(name: &str, missing: Option<&str>, skip: Option<&str>) -> Result<bool, String> {
    assert!(
        PARTS.iter().any(|(n, _)| *n == name),
        "unknown test part '{name}'"
    );
    match missing {
        None => Ok(true),
        Some(_) if skipped_in(skip, name) => Ok(false),
        Some(why) => Err(format!(
            "{why}. `bash scripts/test` installs what the suite needs; to run without this part, \
             skip it by name: {SKIP_VAR}={name}"
        )),
    }
}

/// Whether part `name` runs: `missing` is `None` when its programs are here, else what is
/// missing. Missing and not skipped, the test fails with how to install or skip it.
pub fn part(name: &str, missing: Option<String>) -> bool {
    let skip = std::env::var(SKIP_VAR).ok();
    match decide(name, missing.as_deref(), skip.as_deref()) {
        Ok(true) => return true,
        Ok(false) => {}
        Err(failure) => panic!("{failure}"),
    }
    let why = missing.unwrap_or_default();
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
    fn a_missing_part_fails_and_says_how_to_skip_it() {
        // Decided apart from this process's environment, so a caller's skip list cannot make
        // the test pass by itself.
        let failure = decide("ocr", Some("tesseract is not installed"), None).unwrap_err();
        assert!(
            failure.starts_with("tesseract is not installed"),
            "{failure}"
        );
        assert!(failure.contains("SIGNET_TEST_SKIP=ocr"), "{failure}");
        let other = decide(
            "ocr",
            Some("tesseract is not installed"),
            Some("mail, browser"),
        );
        assert!(
            other.is_err(),
            "skipping other parts does not skip this one"
        );
        assert_eq!(decide("ocr", Some("missing"), Some("mail, ocr")), Ok(false));
        assert_eq!(decide("ocr", Some("missing"), Some("all")), Ok(false));
        assert_eq!(decide("ocr", None, None), Ok(true));
    }

    #[test]
    fn a_part_that_is_here_runs() {
        assert!(part("poppler", None));
    }
}
