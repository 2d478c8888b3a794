//! The workspace's connected Stripe account, one per mode: made by the platform and onboarded
//! on Stripe's own pages (Account Links), its readiness kept from what Stripe says of it in
//! `account.updated` events (re-read from Stripe, never taken from the event's body), and
//! forgotten when the workspace disconnects or the account removes Signet.

use sea_orm::{ConnectionTrait, Value};
use signet_core::{Actor, Ctx, DomainError, Mode, Scope};

use crate::stripe::{Stripe, params};
use crate::types::{PaymentReadiness, PaymentsConnectOut, PaymentsStatusOut};

/// A connected account as kept.
#[derive(Clone, Debug)]
pub struct Account {
    pub account_id: String,
    pub details_submitted: bool,
    pub charges_enabled: bool,
    pub due: Vec<String>,
    pub disabled_reason: Option<String>,
}

impl Account {
    pub fn readiness(&self) -> PaymentReadiness {
        if self.details_submitted && self.charges_enabled && self.due.is_empty() {
            PaymentReadiness::Connected
        } else {
            PaymentReadiness::NeedsAttention
        }
    }
}

/// The workspace's account of `mode`, if it connected one.
pub async fn of(ctx: &Ctx, workspace: &str, mode: Mode) -> Result<Option<Account>, DomainError> {
    let row = ctx
        .db
        .conn
        .query_one_raw(ctx.db.stmt(
            "SELECT account_id, details_submitted, charges_enabled, due, disabled_reason \
             FROM payment_accounts WHERE workspace_id = $1 AND mode = $2",
            [Value::from(workspace), Value::from(mode.as_str())],
        ))
        .await?;
    let Some(r) = row else { return Ok(None) };
    let due: String = r.try_get("", "due")?;
    Ok(Some(Account {
        account_id: r.try_get("", "account_id")?,
        details_submitted: r.try_get("", "details_submitted")?,
        charges_enabled: r.try_get("", "charges_enabled")?,
        due: serde_json::from_str(&due).unwrap_or_default(),
        disabled_reason: r.try_get("", "disabled_reason")?,
    }))
}

/// The readiness of the workspace's payments in `mode` (what a send with a payment asks).
pub async fn readiness(
    ctx: &Ctx,
    workspace: &str,
    mode: Mode,
) -> Result<PaymentReadiness, DomainError> {
    Ok(of(ctx, workspace, mode)
        .await?
        .map_or(PaymentReadiness::NotConnected, |a| a.readiness()))
}

/// GET /payments/status.
pub async fn status(ctx: &Ctx, actor: &Actor) -> Result<PaymentsStatusOut, DomainError> {
    actor.require(Scope::MoneyRead)?;
    status_of(ctx, actor).await
}

async fn status_of(ctx: &Ctx, actor: &Actor) -> Result<PaymentsStatusOut, DomainError> {
    let account = of(ctx, actor.workspace_id.as_str(), actor.mode).await?;
    let stripe = ctx.services.get::<Stripe>();
    Ok(PaymentsStatusOut {
        status: account
            .as_ref()
            .map_or(PaymentReadiness::NotConnected, Account::readiness),
        fee_percent: ctx.plans.limits(actor.plan).payment_fee_percent as i32,
        mode: actor.mode.as_str().into(),
        account_id: account.as_ref().map(|a| a.account_id.clone()),
        due: account.as_ref().map(|a| a.due.clone()).unwrap_or_default(),
        disabled_reason: account.and_then(|a| a.disabled_reason),
        available: stripe.keys(actor.mode).is_ok(),
    })
}

/// POST /payments/connect: the processor's onboarding page for the workspace's account of the
/// actor's mode, making the account first when there is none.
pub async fn connect(ctx: &Ctx, actor: &Actor) -> Result<PaymentsConnectOut, DomainError> {
    actor.require(Scope::MoneyWrite)?;
    let stripe = ctx.services.get::<Stripe>();
    let mode = actor.mode;
    stripe.keys(mode)?;
    let workspace = actor.workspace_id.as_str();
    let account_id = match of(ctx, workspace, mode).await? {
        Some(a) => a.account_id,
        None => {
            // Once per workspace, mode and minute: a second click does not make a second
            // account (Stripe answers the first again).
            let idem = format!(
                "signet-account-{workspace}-{}-{}",
                mode.as_str(),
                ctx.now() / 60_000
            );
            let made = stripe
                .post(
                    mode,
                    "/v1/accounts",
                    &params([
                        ("type", "standard".into()),
                        ("metadata[signet_workspace]", workspace.into()),
                    ]),
                    None,
                    Some(&idem),
                )
                .await?;
            let id = made["id"]
                .as_str()
                .ok_or_else(|| {
                    DomainError::Internal("Stripe made an account without an id".into())
                })?
                .to_string();
            let now = ctx.now();
            ctx.db
                .conn
                .execute_raw(ctx.db.stmt(
                    "INSERT INTO payment_accounts (workspace_id, mode, account_id, \
                     details_submitted, charges_enabled, due, created_at, updated_at) \
                     VALUES ($1, $2, $3, FALSE, FALSE, '[]', $4, $4) \
                     ON CONFLICT (workspace_id, mode) DO NOTHING",
                    [
                        Value::from(workspace),
                        Value::from(mode.as_str()),
                        Value::from(id.clone()),
                        Value::from(now),
                    ],
                ))
                .await?;
            // Two connects at once: the first kept is the account.
            match of(ctx, workspace, mode).await? {
                Some(a) => a.account_id,
                None => id,
            }
        }
    };
    let back = format!("{}/app/settings?payments=back", ctx.public_url);
    let again = format!("{}/app/settings?payments=again", ctx.public_url);
    let link = stripe
        .post(
            mode,
            "/v1/account_links",
            &params([
                ("account", account_id.clone()),
                ("refresh_url", again),
                ("return_url", back),
                ("type", "account_onboarding".into()),
            ]),
            None,
            None,
        )
        .await?;
    let url = link["url"]
        .as_str()
        .ok_or_else(|| DomainError::Internal("Stripe made an account link without a URL".into()))?;
    Ok(PaymentsConnectOut {
        url: url.to_string(),
        account_id,
    })
}

/// DELETE /payments/connect: the workspace forgets its account of the actor's mode. The
/// account stays the workspace's own at Stripe, with everything paid into it; documents out
/// for signature that ask for a payment cannot be paid until an account is connected again.
pub async fn disconnect(ctx: &Ctx, actor: &Actor) -> Result<PaymentsStatusOut, DomainError> {
    actor.require(Scope::MoneyWrite)?;
    ctx.db
        .conn
        .execute_raw(ctx.db.stmt(
            "DELETE FROM payment_accounts WHERE workspace_id = $1 AND mode = $2",
            [
                Value::from(actor.workspace_id.as_str()),
                Value::from(actor.mode.as_str()),
            ],
        ))
        .await?;
    status_of(ctx, actor).await
}

/// What Stripe says of `account_id` now, kept for every workspace connected to it in `mode`.
pub async fn refresh<C: ConnectionTrait>(
    ctx: &Ctx,
    conn: &C,
    mode: Mode,
    account: &serde_json::Value,
) -> Result<bool, DomainError> {
    let Some(id) = account["id"].as_str() else {
        return Ok(false);
    };
    let req = &account["requirements"];
    let mut due: Vec<String> = Vec::new();
    for list in ["past_due", "currently_due"] {
        for item in req[list].as_array().into_iter().flatten() {
            if let Some(s) = item.as_str()
                && !due.iter().any(|d| d == s)
                && due.len() < 50
            {
                due.push(s.chars().take(200).collect());
            }
        }
    }
    let changed = conn
        .execute_raw(ctx.db.stmt(
            "UPDATE payment_accounts SET details_submitted = $3, charges_enabled = $4, due = $5, \
             disabled_reason = $6, updated_at = $7 WHERE account_id = $1 AND mode = $2",
            [
                Value::from(id),
                Value::from(mode.as_str()),
                Value::from(account["details_submitted"].as_bool().unwrap_or(false)),
                Value::from(account["charges_enabled"].as_bool().unwrap_or(false)),
                Value::from(serde_json::to_string(&due).unwrap_or_else(|_| "[]".into())),
                Value::from(
                    req["disabled_reason"]
                        .as_str()
                        .map(|s| s.chars().take(200).collect::<String>()),
                ),
                Value::from(ctx.now()),
            ],
        ))
        .await?;
    Ok(changed.rows_affected() > 0)
}

/// The account removed Signet from its connected applications: every workspace forgets it.
pub async fn forget<C: ConnectionTrait>(
    ctx: &Ctx,
    conn: &C,
    mode: Mode,
    account_id: &str,
) -> Result<(), DomainError> {
    conn.execute_raw(ctx.db.stmt(
        "DELETE FROM payment_accounts WHERE account_id = $1 AND mode = $2",
        [Value::from(account_id), Value::from(mode.as_str())],
    ))
    .await?;
    Ok(())
}
