//! `signet admin workspace`: make a workspace, change its settings.

use clap::Subcommand;
use serde_json::json;
use signet_accounts::workspaces::{self, WorkspaceIn};
use signet_core::plans::Plan;

use crate::output::out;

#[derive(Subcommand)]
pub enum WorkspaceCmd {
    Create {
        #[arg(long)]
        name: String,
        #[arg(long, default_value = "free", value_parser = ["free", "pro"])]
        plan: String,
        #[arg(long, default_value = "UTC")]
        time_zone: String,
        #[arg(long)]
        json: bool,
    },
    /// Change a workspace's settings; an empty --sender-email or --locale clears it.
    Update {
        id: String,
        #[arg(long)]
        name: Option<String>,
        #[arg(long, value_parser = ["free", "pro"])]
        plan: Option<String>,
        /// Where a test document's emails go when the document names no sender address.
        #[arg(long)]
        sender_email: Option<String>,
        /// The language of emails whose person and document name none (en, es, fr, ...).
        #[arg(long)]
        locale: Option<String>,
        /// A website allowed to show embedded signing (https://app.example.com); repeat for
        /// several. The list given replaces the list; `--embed-origin ''` clears it.
        #[arg(long = "embed-origin")]
        embed_origins: Vec<String>,
        /// Embedded signing on or off.
        #[arg(long, value_parser = ["on", "off"])]
        embedding: Option<String>,
        #[arg(long)]
        json: bool,
    },
}

pub async fn run(ctx: &signet_core::Ctx, cmd: WorkspaceCmd) -> anyhow::Result<()> {
    match cmd {
        WorkspaceCmd::Create {
            name,
            plan,
            time_zone,
            json,
        } => {
            let plan = Plan::parse(&plan).unwrap_or(Plan::Free);
            let w = workspaces::create(
                ctx,
                WorkspaceIn {
                    name,
                    plan,
                    time_zone,
                },
            )
            .await?;
            out(
                json,
                json!({"id": w.id, "name": w.name, "plan": w.plan, "timeZone": w.time_zone}),
                w.id,
            );
        }
        WorkspaceCmd::Update {
            id,
            name,
            plan,
            sender_email,
            locale,
            embed_origins,
            embedding,
            json,
        } => {
            let w = workspaces::update(
                ctx,
                &id,
                workspaces::WorkspacePatch {
                    name,
                    plan: plan.as_deref().and_then(Plan::parse),
                    sender_email,
                    locale,
                    embed_origins: (!embed_origins.is_empty()).then_some(embed_origins),
                    embedding: embedding.map(|e| e == "on"),
                },
            )
            .await?;
            let text = format!(
                "{} ({}): sender email {}, language {}, embedding {} for {}",
                w.workspace.id,
                w.workspace.name,
                w.sender_email.as_deref().unwrap_or("none"),
                w.locale.as_deref().unwrap_or("none"),
                if w.embedding { "on" } else { "off" },
                if w.embed_origins.is_empty() {
                    "no website".to_string()
                } else {
                    w.embed_origins.join(", ")
                }
            );
            out(json, serde_json::to_value(&w)?, text);
        }
    }
    Ok(())
}
