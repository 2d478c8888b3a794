//! `signet admin workspace`: make a workspace, change its settings.

use clap::Subcommand;
use serde_json::json;
use signet_accounts::workspaces::{self, WorkspaceIn};
use signet_core::plans::Plan;

use crate::output::out;

// Parsed once per command: the size of the update's many options does not matter.
#[allow(clippy::large_enum_variant)]
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
        /// The IANA time zone its days begin and end in (Europe/Paris).
        #[arg(long)]
        time_zone: Option<String>,
        /// The name emails come from when a document names none.
        #[arg(long)]
        sender_name: Option<String>,
        /// Where replies go when a document names no address.
        #[arg(long)]
        reply_to: Option<String>,
        /// Test mode for the whole workspace: every key and person works on test documents.
        #[arg(long, value_parser = ["on", "off"])]
        test_mode: Option<String>,
        /// AI drafting on or off (it also needs the operator's provider).
        #[arg(long, value_parser = ["on", "off"])]
        ai: Option<String>,
        /// AI drafting jobs a day (1 to 1000).
        #[arg(long)]
        ai_daily_limit: Option<i64>,
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
            time_zone,
            sender_name,
            reply_to,
            test_mode,
            ai,
            ai_daily_limit,
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
                    time_zone,
                    sender_name,
                    reply_to,
                    test_mode: test_mode.map(|e| e == "on"),
                    ai_drafting: ai.map(|e| e == "on"),
                    ai_daily_limit,
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
            ) + &format!(
                ", time zone {}, test mode {}, AI drafting {} ({} a day)",
                w.workspace.time_zone,
                if w.test_mode { "on" } else { "off" },
                if w.ai_drafting { "on" } else { "off" },
                w.ai_daily_limit
            );
            out(json, serde_json::to_value(&w)?, text);
        }
    }
    Ok(())
}
