//! `signet admin email`: delivery feedback piped in by the mail server, and lifting a
//! suppression.

use clap::Subcommand;
use serde_json::json;
use signet_core::DomainError;

use crate::output::{TryLater, out};

#[derive(Subcommand)]
pub enum EmailCmd {
    /// Read one delivery status notification (RFC 3464) or abuse feedback report (RFC 5965)
    /// on standard input, as an MTA's pipe gives it, and record what it says about the email
    /// it returns. A report that cannot be read or matched changes nothing and exits non-zero.
    Feedback {
        #[arg(long)]
        json: bool,
    },
    /// Let emails go to an address a bounce or a complaint suppressed in a workspace.
    Unsuppress {
        #[arg(long)]
        workspace: String,
        address: String,
        #[arg(long)]
        json: bool,
    },
}

pub async fn run(ctx: &signet_core::Ctx, cmd: EmailCmd) -> anyhow::Result<()> {
    match cmd {
        EmailCmd::Feedback { json } => {
            use signet_email::feedback;
            use std::io::Read as _;
            let mut raw = Vec::new();
            std::io::stdin()
                .take(feedback::MAX_REPORT_BYTES as u64 + 1)
                .read_to_end(&mut raw)?;
            let f = match feedback::apply(ctx, &raw).await {
                Ok(f) => f,
                // The report is wrong: refusing it for good is right.
                Err(e @ (DomainError::Invalid(_) | DomainError::NotFound(_))) => {
                    return Err(e.into());
                }
                // Signet could not record it (the database is away): the MTA keeps it.
                Err(e) => return Err(TryLater(format!("try again later: {e}")).into()),
            };
            let text = format!(
                "{}: {} (status {}{}): {}",
                f.email_id,
                f.outcome,
                f.status,
                if f.suppressed {
                    ", address suppressed"
                } else {
                    ""
                },
                f.detail
            );
            out(json, serde_json::to_value(&f)?, text);
        }
        EmailCmd::Unsuppress {
            workspace,
            address,
            json,
        } => {
            let lifted = signet_email::feedback::unsuppress(ctx, &workspace, &address).await?;
            let text = if lifted {
                format!("{address} may receive email again in {workspace}")
            } else {
                format!("{address} was not suppressed in {workspace}")
            };
            out(json, json!({"address": address, "lifted": lifted}), text);
        }
    }
    Ok(())
}
