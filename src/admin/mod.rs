//! `signet admin`: the operator's commands, one file per resource. Each prints text for
//! people, or JSON with `--json`; a failure exits non-zero with its message.

mod approvals;
mod ca;
mod email;
mod files;
mod keys;
mod people;
mod teams;
mod workspaces;

use clap::Subcommand;
use signet::{Config, Services};
use signet_core::api_log;

use crate::output::{Failure, TryLater, out};
use approvals::ApprovalCmd;
use ca::CaCmd;
use email::EmailCmd;
use keys::{KeyCmd, KeyCreateArgs};
use people::PersonCmd;
use teams::TeamCmd;
use workspaces::WorkspaceCmd;

#[derive(Subcommand)]
pub enum Admin {
    #[command(subcommand)]
    Workspace(WorkspaceCmd),
    #[command(subcommand)]
    Key(KeyCmd),
    /// The people of a workspace and their roles in the application.
    #[command(subcommand)]
    Person(PersonCmd),
    #[command(subcommand)]
    Team(TeamCmd),
    /// Sends of draft-only keys waiting for a person's decision.
    #[command(subcommand)]
    Approvals(ApprovalCmd),
    /// The certificate authority that seals documents.
    #[command(subcommand)]
    Ca(CaCmd),
    /// A consistent copy of the embedded default (database, files, authority) while it
    /// serves, into a new or empty folder. PostgreSQL: see docs/deploy.md.
    Backup {
        /// The folder to write the backup into.
        #[arg(long)]
        to: std::path::PathBuf,
        #[arg(long)]
        json: bool,
    },
    /// Brings a backup back into an installation without a database yet.
    Restore {
        /// The folder a backup was written into.
        #[arg(long)]
        from: std::path::PathBuf,
        #[arg(long)]
        json: bool,
    },
    /// Email: delivery feedback from the mail server.
    #[command(subcommand)]
    Email(EmailCmd),
    /// Find a request in the API log by its id.
    ApiLog {
        #[arg(long)]
        request_id: String,
        #[arg(long)]
        json: bool,
    },
}

impl Admin {
    /// Whether the command answers in JSON.
    fn json(&self) -> bool {
        match self {
            Admin::Workspace(WorkspaceCmd::Create { json, .. })
            | Admin::Workspace(WorkspaceCmd::Update { json, .. })
            | Admin::Key(KeyCmd::Create(KeyCreateArgs { json, .. }))
            | Admin::Key(KeyCmd::List { json, .. })
            | Admin::Key(KeyCmd::Revoke { json, .. })
            | Admin::Team(TeamCmd::Create { json, .. })
            | Admin::Team(TeamCmd::AddMember { json, .. })
            | Admin::Team(TeamCmd::List { json, .. })
            | Admin::Approvals(ApprovalCmd::List { json, .. })
            | Admin::Approvals(ApprovalCmd::Approve { json, .. })
            | Admin::Approvals(ApprovalCmd::Decline { json, .. })
            | Admin::ApiLog { json, .. }
            | Admin::Email(EmailCmd::Feedback { json })
            | Admin::Email(EmailCmd::Unsuppress { json, .. })
            | Admin::Backup { json, .. }
            | Admin::Restore { json, .. } => *json,
            Admin::Person(c) => c.json(),
            Admin::Ca(_) => false,
        }
    }
}

pub async fn run(cmd: Admin, config: &Config) -> Result<(), Failure> {
    match cmd {
        Admin::Backup { to, json } => files::backup(config, &to, json),
        Admin::Restore { from, json } => files::restore(config, &from, json),
        Admin::Ca(cmd) => ca::run(config, cmd).await,
        cmd => with_services(cmd, config).await,
    }
}

/// Runs a command that needs the database and the rest of the services.
async fn with_services(cmd: Admin, config: &Config) -> Result<(), Failure> {
    let json = cmd.json();
    // An MTA's pipe keeps a report when the database is away, rather than dropping it.
    let later = matches!(cmd, Admin::Email(EmailCmd::Feedback { .. }));
    let Services { ctx, log_writer } = signet::services(config).await.map_err(|e| Failure {
        message: format!("{e:#}"),
        json,
        code: if later { 75 } else { 1 },
    })?;
    let result = on(&ctx, cmd).await.map_err(|e| Failure {
        code: if e.downcast_ref::<TryLater>().is_some() {
            75
        } else {
            1
        },
        message: format!("{e:#}"),
        json,
    });
    log_writer.stop().await;
    result
}

async fn on(ctx: &signet_core::Ctx, cmd: Admin) -> anyhow::Result<()> {
    match cmd {
        Admin::Workspace(c) => workspaces::run(ctx, c).await,
        Admin::Key(c) => keys::run(ctx, c).await,
        Admin::Person(c) => people::run(ctx, c).await,
        Admin::Team(c) => teams::run(ctx, c).await,
        Admin::Approvals(c) => approvals::run(ctx, c).await,
        Admin::Email(c) => email::run(ctx, c).await,
        Admin::ApiLog { request_id, json } => {
            let e = api_log::find(&ctx.db, &request_id).await?;
            let text = format!(
                "{} {} {} -> {} {} ({} µs, key {})",
                e.request_id,
                e.method,
                e.route,
                e.status,
                e.error_kind.as_deref().unwrap_or(""),
                e.duration_us,
                e.key_id.as_deref().unwrap_or("none")
            );
            out(json, serde_json::to_value(&e)?, text);
            Ok(())
        }
        // Handled before any database is opened.
        Admin::Ca(_) | Admin::Backup { .. } | Admin::Restore { .. } => Ok(()),
    }
}
