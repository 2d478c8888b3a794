//! `signet admin ca export`: the root certificate (PEM) for verifiers and PDF readers to
//! trust. The embedded default needs only the authority's folder; with PostgreSQL the
//! authority is in the database.

use clap::Subcommand;
use signet::Config;

use crate::output::{Failure, OrFail};

#[derive(Subcommand)]
pub enum CaCmd {
    /// Print the root certificate (PEM) for verifiers and PDF readers to trust. It issued the
    /// live sealing and time-stamping certificates; test seals chain to a root of their own.
    Export {
        /// The test root instead: trust it only to check test documents.
        #[arg(long)]
        test: bool,
    },
}

pub async fn run(config: &Config, cmd: CaCmd) -> Result<(), Failure> {
    let CaCmd::Export { test } = cmd;
    let authority = if config.is_postgres() {
        let db = signet_storage::Db::connect(&config.database_url())
            .await
            .map_err(anyhow::Error::from)
            .or_fail(false)?;
        let secret = config.secret().or_fail(false)?;
        signet::authority::load(config, &db, &secret)
            .await
            .or_fail(false)?
    } else {
        signet::authority(config).or_fail(false)?
    };
    print!(
        "{}",
        if test {
            authority.test_root_pem()
        } else {
            authority.root_pem()
        }
    );
    Ok(())
}
