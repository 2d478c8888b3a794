//! `signet admin key`: make, list and revoke API keys.

use clap::{Args, Subcommand};
use ipnet::IpNet;
use serde_json::json;
use signet_accounts::keys::{self, KeyCreateIn};
use signet_core::actor::Scopes;
use signet_core::{DomainError, Mode};

use crate::output::out;

#[derive(Subcommand)]
pub enum KeyCmd {
    /// Make a key. It is printed once and never again.
    Create(KeyCreateArgs),
    List {
        #[arg(long)]
        workspace: String,
        #[arg(long)]
        json: bool,
    },
    Revoke {
        id: String,
        #[arg(long)]
        json: bool,
    },
}

#[derive(Args)]
pub struct KeyCreateArgs {
    #[arg(long)]
    pub workspace: String,
    #[arg(long, value_parser = ["test", "live"])]
    pub mode: String,
    /// Comma-separated scope names.
    #[arg(long, conflicts_with = "all_scopes")]
    pub scopes: Option<String>,
    #[arg(long)]
    pub all_scopes: bool,
    /// Drafts only: sends file an approval instead.
    #[arg(long)]
    pub draft_only: bool,
    /// Drafts and sends a day (UTC).
    #[arg(long)]
    pub daily_limit: Option<u64>,
    /// Requests a minute (default: the plan's budget).
    #[arg(long)]
    pub per_minute: Option<u64>,
    /// Allowed client addresses (CIDR); repeat for several.
    #[arg(long = "allow")]
    pub allow: Vec<String>,
    /// Lifetime such as 90d, 12h, 30m.
    #[arg(long)]
    pub expires_in: Option<String>,
    #[arg(long)]
    pub name: Option<String>,
    #[arg(long)]
    pub json: bool,
}

pub async fn run(ctx: &signet_core::Ctx, cmd: KeyCmd) -> anyhow::Result<()> {
    match cmd {
        KeyCmd::Create(a) => create(ctx, a).await?,
        KeyCmd::List { workspace, json } => {
            let list = keys::list(ctx, &workspace).await?;
            let text = list
                .iter()
                .map(|k| {
                    let state = if k.revoked_at.is_some() {
                        "revoked"
                    } else {
                        "active"
                    };
                    format!(
                        "{}  {}  …{}  {}  {}",
                        k.id,
                        k.mode.as_str(),
                        k.hint,
                        state,
                        k.name.as_deref().unwrap_or("")
                    )
                })
                .collect::<Vec<_>>()
                .join("\n");
            out(json, json!({"data": list}), text);
        }
        KeyCmd::Revoke { id, json } => {
            let k = keys::revoke(ctx, &id).await?;
            out(json, serde_json::to_value(&k)?, format!("{} revoked", k.id));
        }
    }
    Ok(())
}

async fn create(ctx: &signet_core::Ctx, a: KeyCreateArgs) -> anyhow::Result<()> {
    let scopes = match (&a.scopes, a.all_scopes) {
        (_, true) => Scopes::all(),
        (Some(list), false) => {
            Scopes::parse(list.split(',')).map_err(|e| DomainError::invalid("scopes", e))?
        }
        (None, false) => {
            return Err(
                DomainError::invalid("scopes", "give --scopes a,b,... or --all-scopes").into(),
            );
        }
    };
    let allow = a
        .allow
        .iter()
        .map(|c| {
            c.parse::<IpNet>()
                .or_else(|_| c.parse::<std::net::IpAddr>().map(IpNet::from))
                .map_err(|_| {
                    DomainError::invalid("allow", format!("'{c}' is not an address or CIDR range"))
                })
        })
        .collect::<Result<Vec<_>, _>>()?;
    let expires_at = a
        .expires_in
        .as_deref()
        .map(parse_duration)
        .transpose()?
        .map(|ms| signet_storage::now_ms() + ms);
    let mode = Mode::parse(&a.mode).unwrap_or(Mode::Test);
    let (k, token) = keys::create(
        ctx,
        KeyCreateIn {
            draft_only: a.draft_only,
            daily_limit: a.daily_limit,
            per_minute: a.per_minute,
            allow,
            expires_at,
            name: a.name,
            ..KeyCreateIn::new(&a.workspace, mode, scopes)
        },
    )
    .await?;
    let mut value = serde_json::to_value(&k)?;
    value["key"] = json!(token);
    out(
        a.json,
        value,
        format!("{}\n{token}\n(the key is shown only now)", k.id),
    );

    Ok(())
}

/// `90d`, `12h`, `30m`, `45s` as milliseconds.
fn parse_duration(s: &str) -> Result<i64, DomainError> {
    let bad = || {
        DomainError::invalid(
            "expires-in",
            format!("'{s}' is not a duration such as 90d, 12h or 30m"),
        )
    };
    let (num, unit) = s.split_at(s.find(|c: char| !c.is_ascii_digit()).ok_or_else(bad)?);
    let n: i64 = num.parse().map_err(|_| bad())?;
    let unit_ms = match unit {
        "s" => 1_000,
        "m" => 60_000,
        "h" => 3_600_000,
        "d" => 86_400_000,
        _ => return Err(bad()),
    };
    n.checked_mul(unit_ms).filter(|ms| *ms > 0).ok_or_else(bad)
}

#[cfg(test)]
mod tests {
    use super::parse_duration;

    #[test]
    fn durations() {
        assert_eq!(parse_duration("90d").unwrap(), 90 * 86_400_000);
        assert_eq!(parse_duration("30m").unwrap(), 1_800_000);
        for bad in ["", "d", "10", "10w", "0h", "-5m"] {
            assert!(parse_duration(bad).is_err(), "{bad}");
        }
    }
}
