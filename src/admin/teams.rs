//! `signet admin team`: make teams and add their members.

use clap::Subcommand;
use serde_json::json;
use signet_accounts::teams;

use crate::output::out;

#[derive(Subcommand)]
pub enum TeamCmd {
    Create {
        #[arg(long)]
        workspace: String,
        #[arg(long)]
        name: String,
        #[arg(long)]
        json: bool,
    },
    AddMember {
        #[arg(long)]
        team: String,
        #[arg(long)]
        email: String,
        #[arg(long)]
        name: String,
        #[arg(long, default_value = "member", value_parser = ["admin", "member"])]
        role: String,
        #[arg(long)]
        json: bool,
    },
    List {
        #[arg(long)]
        workspace: String,
        #[arg(long)]
        json: bool,
    },
}

pub async fn run(ctx: &signet_core::Ctx, cmd: TeamCmd) -> anyhow::Result<()> {
    match cmd {
        TeamCmd::Create {
            workspace,
            name,
            json,
        } => {
            let t = teams::create(ctx, &workspace, &name).await?;
            out(json, json!({"id": t.id, "name": t.name}), t.id);
        }
        TeamCmd::AddMember {
            team,
            email,
            name,
            role,
            json,
        } => {
            let m = teams::add_member(ctx, &team, &email, &name, &role).await?;
            out(
                json,
                serde_json::to_value(&m)?,
                format!("{} added", m.email),
            );
        }
        TeamCmd::List { workspace, json } => {
            let t = teams::list_for(ctx, &workspace).await?;
            let text = t
                .teams
                .iter()
                .map(|t| format!("{}  {} ({} members)", t.id, t.name, t.members.len()))
                .collect::<Vec<_>>()
                .join("\n");
            out(json, serde_json::to_value(&t)?, text);
        }
    }
    Ok(())
}
