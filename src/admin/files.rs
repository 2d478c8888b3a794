//! `signet admin backup` and `restore`: a consistent copy of the embedded default (database,
//! files, authority), made while it serves, and brought back into an installation without a
//! database. Files only: no database connection, no migration (a restore has no database).

use std::path::Path;

use signet::Config;
use signet_storage::backup::{self, Parts};

use crate::output::{Failure, OrFail};

pub fn backup(config: &Config, to: &Path, json: bool) -> Result<(), Failure> {
    with_parts(config, json, |parts| {
        let m = backup::backup(parts, to).or_fail(json)?;
        if json {
            println!("{}", serde_json::json!({"to": to, "manifest": m}));
            return Ok(());
        }
        eprintln!(
            "signet: backed up {} documents and {} files into {}",
            m.documents,
            m.files,
            to.display()
        );
        if !m.missing.is_empty() {
            eprintln!(
                "signet: {} files the database names are not in the copy (removed while \
                 copying, or missing before): {}",
                m.missing.len(),
                m.missing.join(", ")
            );
        }
        Ok(())
    })
}

pub fn restore(config: &Config, from: &Path, json: bool) -> Result<(), Failure> {
    with_parts(config, json, |parts| {
        let m = backup::restore(from, parts).or_fail(json)?;
        if json {
            println!("{}", serde_json::json!({"from": from, "manifest": m}));
            return Ok(());
        }
        eprintln!(
            "signet: restored {} documents and {} files from {}",
            m.documents,
            m.files,
            from.display()
        );
        Ok(())
    })
}

/// What a backup copies, or refuses with why when the installation keeps it elsewhere.
fn with_parts(
    config: &Config,
    json: bool,
    f: impl FnOnce(&Parts<'_>) -> Result<(), Failure>,
) -> Result<(), Failure> {
    let refuse = |message: &str| Failure {
        message: message.into(),
        json,
        code: 1,
    };
    let Some(database) = signet_storage::db::sqlite_path(&config.database_url()) else {
        return Err(refuse(
            "backup and restore are for the embedded default; back up PostgreSQL with pg_dump \
             and the files with them (docs/deploy.md)",
        ));
    };
    if config.blob_url.is_some() {
        return Err(refuse(
            "backup and restore copy the files of <data_dir>/blobs; with blob_url the files are \
             in the bucket: back it up with its own tools (docs/deploy.md)",
        ));
    }
    let blobs = config.data_dir.join("blobs");
    let ca_dir = config.ca_dir();
    let secret = config.data_dir.join("secret.key");
    f(&Parts {
        database: &database,
        blobs: &blobs,
        ca_dir: &ca_dir,
        secret_key: config.secret_key.is_none().then_some(secret.as_path()),
    })
}
