//! `signet admin approvals`: the sends of draft-only keys waiting for a person's decision.

use clap::Subcommand;
use serde_json::json;
use signet_documents as documents;

use crate::output::out;

#[derive(Subcommand)]
pub enum ApprovalCmd {
    List {
        #[arg(long)]
        workspace: String,
        /// pending, approved or declined; all when left out.
        #[arg(long, value_parser = ["pending", "approved", "declined"])]
        state: Option<String>,
        #[arg(long)]
        json: bool,
    },
    /// Approve: the document is sent now.
    Approve {
        id: String,
        /// Who decides (an email or a name), kept in the audit trail.
        #[arg(long)]
        by: String,
        #[arg(long)]
        json: bool,
    },
    /// Decline: the document stays a draft.
    Decline {
        id: String,
        #[arg(long)]
        by: String,
        #[arg(long)]
        note: Option<String>,
        #[arg(long)]
        json: bool,
    },
}

pub async fn run(ctx: &signet_core::Ctx, cmd: ApprovalCmd) -> anyhow::Result<()> {
    match cmd {
        ApprovalCmd::List {
            workspace,
            state,
            json,
        } => {
            let list = documents::approvals_list(ctx, &workspace, state.as_deref()).await?;
            let text = list
                .iter()
                .map(|a| {
                    let of = a
                        .document_id
                        .clone()
                        .or(a.template_id.clone())
                        .unwrap_or_default();
                    format!("{}  {}  {}  {}", a.id, a.state, of, a.created_at)
                })
                .collect::<Vec<_>>()
                .join("\n");
            out(json, json!({"data": list}), text);
        }
        ApprovalCmd::Approve { id, by, json } => {
            let a = documents::approvals_decide(ctx, &id, true, &by, None).await?;
            out(
                json,
                serde_json::to_value(&a)?,
                match (&a.document_id, &a.template_id) {
                    (Some(d), _) => format!("{} approved; {d} sent", a.id),
                    (None, Some(t)) => format!("{} approved; {t} is listed for sending", a.id),
                    _ => format!("{} approved", a.id),
                },
            );
        }
        ApprovalCmd::Decline { id, by, note, json } => {
            let a = documents::approvals_decide(ctx, &id, false, &by, note).await?;
            out(
                json,
                serde_json::to_value(&a)?,
                format!("{} declined", a.id),
            );
        }
    }
    Ok(())
}
