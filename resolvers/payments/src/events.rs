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
        truth: Box<Truth>,
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
    let truth = truth(stripe, &before).await?;
    Ok(Seen::Payment {
        before: Box::new(before),
        truth: Box::new(truth),
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
        Seen::Payment { before, truth } => {
            // Read again under the document's lock: what changed since the event was read
            // (another event, a Checkout replaced) is what Stripe's word is laid onto.
            let Some(now) = store::get(ctx, conn, &before.id).await? else {
                return Ok(None);
            };
            let after = truth.onto(&now, ctx.now());
            let same = now.status == after.status
                && now.refunded == after.refunded
                && now.receipt_url == after.receipt_url
                && now.charge_id == after.charge_id;
            if same {
                return Ok(None);
            }
            if !store::observe(ctx, conn, &now, &after).await? {
                // Moved by a request between the read and the write: Stripe sends it again.
                return Err(DomainError::Conflict {
                    message: "the payment changed while its event was applied; send it again"
                        .into(),
                    retryable: true,
                });
            }
            // A status moved, or another part of it was refunded.
            let told = now.status != after.status || now.refunded != after.refunded;
            Ok(told.then(|| Change {
                before: now.status.clone(),
                payment: after,
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
#[derive(Clone, Debug, Default)]
pub struct Truth {
    session_expired: bool,
    payment_intent: Option<String>,
    /// The charge, when one succeeded.
    paid: Option<Paid>,
}

#[derive(Clone, Debug)]
struct Paid {
    /// Charged as the Checkout was opened (amount and currency).
    right: bool,
    refunded: i64,
    fully_refunded: bool,
    disputed: bool,
    charge_id: Option<String>,
    receipt_url: Option<String>,
    receipt_number: Option<String>,
    created: Option<i64>,
}

impl Truth {
    /// The payment `p` as Stripe's word makes it. Stripe never takes a payment back into
    /// unpaid, and a Checkout Signet replaced stays replaced unless it was paid.
    pub fn onto(&self, p: &PaymentRow, now: i64) -> PaymentRow {
        let mut after = p.clone();
        if self.payment_intent.is_some() {
            after.payment_intent = self.payment_intent.clone();
        }
        let Some(paid) = &self.paid else {
            if p.status == "open" && self.session_expired {
                after.status = "expired".into();
            }
            return after;
        };
        after.refunded = paid.refunded;
        after.charge_id = paid.charge_id.clone();
        after.receipt_url = paid.receipt_url.clone();
        after.receipt_number = paid.receipt_number.clone();
        after.paid_at = p.paid_at.or(paid.created).or(Some(now));
        after.status = if !paid.right {
            "mismatch"
        } else if paid.disputed {
            "disputed"
        } else if paid.fully_refunded {
            "refunded"
        } else if paid.refunded > 0 {
            "partially_refunded"
        } else {
            "paid"
        }
        .into();
        after
    }
}

async fn truth(stripe: &Stripe, p: &PaymentRow) -> Result<Truth, DomainError> {
    let mut out = Truth::default();
    let Some(cs) = &p.checkout_id else {
        return Ok(out);
    };
    let account = Some(p.account_id.as_str());
    let session = stripe
        .get(
            p.mode,
            &format!("/v1/checkout/sessions/{}", plain(cs)),
            account,
        )
        .await?;
    out.session_expired = session["status"] == "expired";
    let Some(pi) = session["payment_intent"].as_str() else {
        return Ok(out);
    };
    out.payment_intent = Some(plain(pi));
    let intent = stripe
        .get(
            p.mode,
            &format!("/v1/payment_intents/{}", plain(pi)),
            account,
        )
        .await?;
    let Some(ch) = intent["latest_charge"].as_str() else {
        return Ok(out);
    };
    let charge = stripe
        .get(p.mode, &format!("/v1/charges/{}", plain(ch)), account)
        .await?;
    if !(charge["paid"].as_bool() == Some(true) && charge["status"] == "succeeded") {
        return Ok(out);
    }
    let right = session["amount_total"].as_i64() == Some(p.amount)
        && session["currency"].as_str() == Some(p.currency.as_str())
        && charge["amount"].as_i64() == Some(p.amount);
    if !right {
        tracing::error!(payment = %p.id, "a Checkout was paid with another amount than opened");
    }
    let text = |k: &str, most: usize| charge[k].as_str().map(|s| s.chars().take(most).collect());
    out.paid = Some(Paid {
        right,
        refunded: charge["amount_refunded"].as_i64().unwrap_or(0).max(0),
        fully_refunded: charge["refunded"].as_bool() == Some(true),
        disputed: charge["disputed"].as_bool() == Some(true),
        charge_id: text("id", 255),
        receipt_url: text("receipt_url", 500),
        receipt_number: text("receipt_number", 100),
        created: charge["created"].as_i64().map(|s| s * 1000),
    });
    Ok(out)
}

/// An id of Stripe's put into a path.
fn plain(id: &str) -> String {
    id.chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '_')
        .take(255)
        .collect()
}
