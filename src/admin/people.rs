//! `signet admin person`: the people of a workspace (docs/decisions/the-application.md): add
//! one with a role (the first owner of a new installation comes from here), list them, take
//! one out (their sessions in the workspace end at once; the last owner stays), and print a
//! one-time sign-in link (for the embedded default without SMTP).

use clap::Subcommand;
use serde_json::json;
use signet_accounts::people::{links, members};

use crate::output::out;

#[derive(Subcommand)]
pub enum PersonCmd {
    /// Adds a person to a workspace with a role, or changes their role there.
    Add {
        #[arg(long)]
        workspace: String,
        #[arg(long)]
        email: String,
        #[arg(long)]
        name: String,
        #[arg(long, value_parser = ["owner", "admin", "member", "viewer"])]
        role: String,
        /// The person's language for the emails they receive.
        #[arg(long, default_value = "en")]
        language: String,
        #[arg(long)]
        json: bool,
    },
    List {
        #[arg(long)]
        workspace: String,
        #[arg(long)]
        json: bool,
    },
    /// Prints a one-time sign-in link for a person (the first owner of a new installation,
    /// or someone without email): good once, for 15 minutes; it voids their older links.
    SignInLink {
        #[arg(long)]
        email: String,
        #[arg(long)]
        json: bool,
    },
    /// Takes a person out of a workspace; their sessions there end at once.
    Remove {
        #[arg(long)]
        workspace: String,
        #[arg(long)]
        email: String,
        #[arg(long)]
        json: bool,
    },
}

impl PersonCmd {
    pub fn json(&self) -> bool {
        match self {
            PersonCmd::Add { json, .. }
            | PersonCmd::List { json, .. }
            | PersonCmd::SignInLink { json, .. }
            | PersonCmd::Remove { json, .. } => *json,
        }
    }
}

pub async fn run(ctx: &signet_core::Ctx, cmd: PersonCmd) -> anyhow::Result<()> {
    match cmd {
        PersonCmd::Add {
            workspace,
            email,
            name,
            role,
            language,
            json,
        } => {
            let role = members::parse_role(&role)
                .ok_or_else(|| anyhow::anyhow!("role: {role} is not a role"))?;
            let id = members::ensure_person(ctx, &email, &name, &language).await?;
            members::set_member(ctx, &workspace, &id, role, Some("operator")).await?;
            out(
                json,
                json!({"userId": id, "workspaceId": workspace, "role": role.as_str()}),
                format!("{id} is {} of {workspace}", role.as_str()),
            );
        }
        PersonCmd::List { workspace, json } => {
            let list = members::list(ctx, &workspace).await?;
            let text = list
                .iter()
                .map(|m| format!("{}  {}  {}  {}", m.user_id, m.role, m.email, m.name))
                .collect::<Vec<_>>()
                .join("\n");
            out(json, serde_json::to_value(&list)?, text);
        }
        PersonCmd::SignInLink { email, json } => {
            let id = members::person_by_email(ctx, &email)
                .await?
                .ok_or_else(|| anyhow::anyhow!("nobody has the address {email}"))?;
            let issued = links::issue_for_operator(ctx, &id).await?;
            let url = signet_email::people::sign_in_url(ctx, &issued.token);
            out(
                json,
                json!({
                    "userId": id,
                    "url": url,
                    "expiresAt": signet_core::clock::time(issued.expires_at),
                }),
                format!(
                    "{url}\n(for {email}; works once, until {})",
                    signet_core::clock::time(issued.expires_at)
                ),
            );
        }
        PersonCmd::Remove {
            workspace,
            email,
            json,
        } => {
            let id = members::person_by_email(ctx, &email)
                .await?
                .ok_or_else(|| anyhow::anyhow!("nobody has the address {email}"))?;
            members::remove(ctx, &workspace, &id).await?;
            out(
                json,
                json!({"userId": id, "workspaceId": workspace, "removed": true}),
                format!("{id} removed from {workspace}"),
            );
        }
    }
    Ok(())
}
