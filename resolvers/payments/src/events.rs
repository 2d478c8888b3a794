//! Stripe's events, the only word Signet takes that a payment was made, refunded or disputed
//! and that an account's readiness changed. An event is believed only with a good signature
//! made within the tolerance (`Stripe::verify`), and even then only as a hint: the objects it
//! names are read again from Stripe and what Stripe says now is kept. So an event replayed,
//! delivered out of order or late changes nothing wrong, and an event applied twice changes
//! nothing the second time (the row moves only from the status it was read in).

use sea_orm::ConnectionTrait;
use serde_json::Value;
use signet_core::{Ctx, DomainError, Mode};

use crate::accounts;
use crate::store::{self, PaymentRow};
use crate::stripe::Stripe;

/// A verified event and the mode whose endpoint secret signed it.
#[derive(Clone, Debug)]
pub struct Verified {
    pub mode: Mode,
    pub event: Value,
}

impl Verified {
    pub fn id(&self) -> &str {
        self.event["id"].as_str().unwrap_or_default()
    }

    pub fn kind(&self) -> &str {
        self.event["type"].as_str().unwrap_or_default()
    }
}

/// What an event led to when read again from Stripe.
#[derive(Clone, Debug)]
pub enum Seen {
    /// A connected account as Stripe shows it now.
    Account(Value),
    /// An account that removed Signet.
    Gone(String),
    /// One of Signet's payments, as kept and as Stripe shows it now.
    Payment {
        before: Box<PaymentRow>,
        after: Box<PaymentRow>,
    },
    /// Nothing of Signet's.
    Nothing,
}

/// A payment whose status changed.
#[derive(Clone, Debug)]
pub struct Change {
    pub before: String,
    pub payment: PaymentRow,
}

/// Checks `signature` over `body` and reads the event.
pub fn verify(ctx: &Ctx, signature: &str, body: &[u8]) -> Result<Verified, DomainError> {
    let stripe = ctx.services.get::<Stripe>();
    let mode = stripe.verify(signature, body, ctx.now() / 1000)?;
    let event: Value = serde_json::from_slice(body)
        .map_err(|_| DomainError::Invalid("the event is not JSON".into()))?;
    if event["id"]
        .as_str()
        .is_none_or(|id| id.is_empty() || id.len() > 255)
    {
        return Err(DomainError::Invalid("the event has no id".into()));
    }
    if event["livemode"].as_bool() != Some(mode == Mode::Live) {
        return Err(DomainError::Invalid(
            "the event's livemode is not the mode of the secret that signed it".into(),
        ));
    }
    Ok(Verified { mode, event })
}

/// Reads from Stripe what the event is about.
pub async fn read(ctx: &Ctx, v: &Verified) -> Result<Seen, DomainError> {
    let stripe = ctx.services.get::<Stripe>();
    let obj = &v.event["data"]["object"];
    let account = v.event["account"].as_str();
    let kind = v.kind();
    if kind == "account.application.deauthorized" {
        return Ok(account.map_or(Seen::Nothing, |a| Seen::Gone(a.to_string())));
    }
    if kind.starts_with("account.") {
        let Some(id) = account
            .or(obj["id"].as_str())
            .filter(|a| a.starts_with("acct_"))
        else {
            return Ok(Seen::Nothing);
        };
        if accounts_known(ctx, v.mode, id).await? {
            let now = stripe
                .get(v.mode, &format!("/v1/accounts/{}", plain(id)), None)
                .await?;
            return Ok(Seen::Account(now));
        }
        return Ok(Seen::Nothing);
    }
    let Some(account) = account else {
        return Ok(Seen::Nothing);
    };
    let Some(before) = payment_of(ctx, v.mode, kind, obj, account).await? else {
        return Ok(Seen::Nothing);
    };
    if before.account_id != account || before.mode != v.mode {
        tracing::warn!(payment = %before.id, "a Stripe event of another account named a payment");
        return Ok(Seen::Nothing);
    }
    let after = truth(ctx, stripe, &before).await?;
    Ok(Seen::Payment {
        before: Box::new(before),
        after: Box::new(after),
    })
}

/// Applies what was read, in the caller's transaction; a payment whose status moved is
/// answered. False `first` (the event was applied before) changes nothing.
pub async fn apply<C: sea_orm::ConnectionTrait>(
    ctx: &Ctx,
    conn: &C,
    v: &Verified,
    seen: Seen,
) -> Result<Option<Change>, DomainError> {
    if !store::first_time(ctx, conn, v.id(), v.mode).await? {
        return Ok(None);
    }
    match seen {
        Seen::Account(a) => {
            accounts::refresh(ctx, conn, v.mode, &a).await?;
            Ok(None)
        }
        Seen::Gone(id) => {
            accounts::forget(ctx, conn, v.mode, &id).await?;
            Ok(None)
        }
        Seen::Payment { before, after } => {
            let same = before.status == after.status
                && before.refunded == after.refunded
                && before.receipt_url == after.receipt_url
                && before.charge_id == after.charge_id;
            if same || !store::observe(ctx, conn, &before, &after).await? {
                return Ok(None);
            }
            Ok((before.status != after.status).then(|| Change {
                before: before.status.clone(),
                payment: *after,
            }))
        }
        Seen::Nothing => Ok(None),
    }
}

async fn accounts_known(ctx: &Ctx, mode: Mode, id: &str) -> Result<bool, DomainError> {
    let row = ctx
        .db
        .conn
        .query_one_raw(ctx.db.stmt(
            "SELECT 1 AS one FROM payment_accounts WHERE account_id = $1 AND mode = $2",
            [
                sea_orm::Value::from(id),
                sea_orm::Value::from(mode.as_str()),
            ],
        ))
        .await?;
    Ok(row.is_some())
}

/// The payment an event's object is about: Signet's id in its metadata (sessions, payment
/// intents and charges carry it), else the payment intent it names (disputes).
async fn payment_of(
    ctx: &Ctx,
    mode: Mode,
    kind: &str,
    obj: &Value,
    account: &str,
) -> Result<Option<PaymentRow>, DomainError> {
    let id = obj["metadata"]["signet_payment"]
        .as_str()
        .or(obj["client_reference_id"].as_str());
    if let Some(id) = id.filter(|i| i.starts_with("pay_")) {
        return store::get(ctx, &ctx.db.conn, id).await;
    }
    let pi = obj["payment_intent"].as_str();
    if let Some(pi) = pi
        && let Some(p) = store::by_intent(ctx, pi).await?
    {
        return Ok(Some(p));
    }
    // A dispute before the payment's own events: its payment intent says whose it is.
    if kind.starts_with("charge.dispute.")
        && let Some(pi) = pi
    {
        let stripe = ctx.services.get::<Stripe>();
        let intent = stripe
            .get(
                mode,
                &format!("/v1/payment_intents/{}", plain(pi)),
                Some(account),
            )
            .await?;
        if let Some(id) = intent["metadata"]["signet_payment"].as_str() {
            return store::get(ctx, &ctx.db.conn, id).await;
        }
    }
    Ok(None)
}

/// What Stripe says of a payment now: its Checkout, its payment intent and its charge.
async fn truth(ctx: &Ctx, stripe: &Stripe, p: &PaymentRow) -> Result<PaymentRow, DomainError> {
    let mut after = p.clone();
    let Some(cs) = &p.checkout_id else {
        return Ok(after);
    };
    let account = Some(p.account_id.as_str());
    let session = stripe
        .get(
            p.mode,
            &format!("/v1/checkout/sessions/{}", plain(cs)),
            account,
        )
        .await?;
    let pi = session["payment_intent"].as_str().map(str::to_string);
    let mut charge = Value::Null;
    if let Some(pi) = &pi {
        let intent = stripe
            .get(
                p.mode,
                &format!("/v1/payment_intents/{}", plain(pi)),
                account,
            )
            .await?;
        if let Some(ch) = intent["latest_charge"].as_str() {
            charge = stripe
                .get(p.mode, &format!("/v1/charges/{}", plain(ch)), account)
                .await?;
        }
        after.payment_intent = Some(pi.clone());
    }
    let paid = charge["paid"].as_bool() == Some(true) && charge["status"] == "succeeded";
    let right = session["amount_total"].as_i64() == Some(p.amount)
        && session["currency"].as_str() == Some(p.currency.as_str());
    if paid && !right {
        tracing::error!(payment = %p.id, "a Checkout was paid with another amount than opened");
    }
    after.status = if paid {
        let refunded = charge["amount_refunded"].as_i64().unwrap_or(0);
        after.refunded = refunded;
        after.charge_id = charge["id"].as_str().map(str::to_string);
        after.receipt_url = charge["receipt_url"]
            .as_str()
            .map(|s| s.chars().take(500).collect());
        after.receipt_number = charge["receipt_number"]
            .as_str()
            .map(|s| s.chars().take(100).collect());
        after.paid_at = p
            .paid_at
            .or(charge["created"].as_i64().map(|s| s * 1000))
            .or(Some(ctx.now()));
        if charge["disputed"].as_bool() == Some(true) {
            "disputed"
        } else if charge["refunded"].as_bool() == Some(true) {
            "refunded"
        } else if refunded > 0 {
            "partially_refunded"
        } else {
            "paid"
        }
    } else if p.is_paid() {
        // Stripe never takes a payment back into unpaid; keep what was kept.
        p.status.as_str()
    } else if p.status == "open" && session["status"] == "expired" {
        // (A Checkout Signet replaced stays `replaced`: it ended because Signet ended it.)
        "expired"
    } else {
        p.status.as_str()
    }
    .to_string();
    Ok(after)
}

/// An id of Stripe's put into a path.
fn plain(id: &str) -> String {
    id.chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '_')
        .take(255)
        .collect()
}
