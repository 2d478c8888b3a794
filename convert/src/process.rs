//! The outside programs a conversion runs (LibreOffice, tesseract): found on `PATH`, and
//! waited for until a deadline, then killed.

use std::path::PathBuf;
use std::time::{Duration, Instant};

/// Waits for a child until `limit` after `started`, then kills it: the error is `None` at the
/// deadline, or what waiting failed with.
pub(crate) fn wait_for(
    child: &mut std::process::Child,
    started: Instant,
    limit: Duration,
) -> Result<std::process::ExitStatus, Option<std::io::Error>> {
    loop {
        match child.try_wait() {
            Ok(Some(status)) => return Ok(status),
            Ok(None) if started.elapsed() >= limit => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(None);
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(20)),
            Err(e) => {
                let _ = child.kill();
                return Err(Some(e));
            }
        }
    }
}

/// The first of `names` found in a folder of `PATH`.
pub(crate) fn find_program(names: &[&str]) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    names.iter().find_map(|n| {
        std::env::split_paths(&path)
            .map(|d| d.join(n))
            .find(|p| p.is_file())
    })
}
