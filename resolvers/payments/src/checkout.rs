//! Opening Stripe's hosted Checkout for a person's payment field: a direct charge on the
//! workspace's connected account with the service's fee as `application_fee_amount`. The
//! amount is the one worked out here when the person reached the field (a fixed amount, a
//! formula the documents crate evaluated, the processor's price, or a payment link's items),
//! never one from the page. One open Checkout per person and field: asked again with the same
//! amount, the same page is given back; with another amount (the person changed a number a
//! formula reads), the old one is expired at Stripe first, so nobody can pay both.

use signet_core::{Ctx, DomainError, Mode};
use signet_storage::ids;

use crate::accounts;
use crate::store::{self, PaymentRow};
use crate::stripe::{Stripe, params};
use crate::types::PaymentReadiness;

/// How long a Checkout stays open (Stripe's shortest is 30 minutes).
const OPEN_MS: i64 = 60 * 60 * 1000;
/// An open Checkout closer than this to its end is replaced rather than given again.
const FRESH_MS: i64 = 10 * 60 * 1000;
/// The most line items a payment link may bring.
const MAX_ITEMS: usize = 20;

/// How the payment's amount is asked.
#[derive(Clone, Debug)]
pub enum Asked {
    /// In the currency's minor unit (a fixed amount, or a formula already worked out).
    Fixed(i64),
    /// A price of the connected account (`price_…`).
    Price(String),
    /// A payment link of the connected account (`https://buy.stripe.com/…`).
    Link(String),
}

pub struct Ask {
    pub workspace_id: String,
    pub mode: Mode,
    pub fee_percent: u32,
    pub document_id: String,
    pub title: String,
    pub person_id: String,
    pub email: String,
    pub field_id: String,
    pub seat: String,
    pub asked: Asked,
    pub currency: String,
    pub description: Option<String>,
    pub inputs: Option<String>,
    /// The signing page the person comes back to.
    pub return_url: String,
}

/// What Stripe is asked to charge: one or more line items in one currency.
struct Items {
    lines: Vec<(String, String)>,
    amount: i64,
    currency: String,
}

/// The Checkout to open for `ask`'s person, opened when none fits.
pub async fn open(ctx: &Ctx, ask: Ask) -> Result<PaymentRow, DomainError> {
    let stripe = ctx.services.get::<Stripe>();
    let account = accounts::of(ctx, &ask.workspace_id, ask.mode)
        .await?
        .filter(|a| a.readiness() == PaymentReadiness::Connected)
        .ok_or_else(|| {
            DomainError::conflict(
                "payments are not connected for this document's sender just now; ask them to \
                 connect their payment account, then come back",
            )
        })?;
    let items = items(stripe, ask.mode, &account.account_id, &ask).await?;
    let now = ctx.now();
    let mut reuse: Option<PaymentRow> = None;
    for p in store::of_field(ctx, &ctx.db.conn, &ask.person_id, &ask.field_id).await? {
        if p.is_paid() {
            return Err(DomainError::conflict("this payment is made already"));
        }
        if p.status == "mismatch" {
            return Err(DomainError::conflict(
                "a payment of another amount was made for this field; the sender looks into it \
                 with the processor before anything more is paid",
            ));
        }
        if p.status != "open" {
            continue;
        }
        let same = p.amount == items.amount
            && p.currency == items.currency
            && p.inputs == ask.inputs
            && p.account_id == account.account_id;
        match &p.checkout_id {
            Some(_) if same && p.expires_at > now + FRESH_MS => return Ok(p),
            // Opened before, its answer lost: the same row, sent again with the same
            // parameters and key, gets the same Checkout back from Stripe.
            None if same && p.expires_at > now + FRESH_MS => reuse = Some(p),
            Some(cs) => {
                // Marked first: the expiry's own event then finds it replaced, not expired.
                // Were it paid meanwhile, Stripe's events still make it paid.
                store::set_status_if(ctx, &p.id, "open", "replaced").await?;
                if let Err(e) = expire(ctx, stripe, &p, cs).await {
                    // Still open at Stripe: kept open, so no second Checkout is opened beside it.
                    store::set_status_if(ctx, &p.id, "replaced", "open").await?;
                    return Err(e);
                }
            }
            None => {
                store::set_status_if(ctx, &p.id, "open", "replaced").await?;
            }
        }
    }
    // Three-decimal currencies are charged in tens of their smallest unit (Stripe's rule).
    let tens = signet_core::currencies::decimals(&items.currency) == Some(3);
    if tens && items.amount % 10 != 0 {
        return Err(DomainError::conflict(format!(
            "amounts in {} must end in 0 in their last decimal for the processor",
            items.currency.to_uppercase()
        )));
    }
    let fee = match crate::fee_of(items.amount, ask.fee_percent) {
        f if tens => (f + 5) / 10 * 10,
        f => f,
    };
    let row = match reuse {
        Some(p) => p,
        None => {
            let row = PaymentRow {
                id: ids::new_id("pay"),
                workspace_id: ask.workspace_id.clone(),
                document_id: ask.document_id.clone(),
                person_id: ask.person_id.clone(),
                field_id: ask.field_id.clone(),
                seat: ask.seat.clone(),
                mode: ask.mode,
                account_id: account.account_id.clone(),
                checkout_id: None,
                checkout_url: None,
                amount: items.amount,
                currency: items.currency.clone(),
                fee,
                description: ask.description.clone(),
                inputs: ask.inputs.clone(),
                status: "open".into(),
                payment_intent: None,
                charge_id: None,
                receipt_url: None,
                receipt_number: None,
                refunded: 0,
                expires_at: now + OPEN_MS,
                created_at: now,
                paid_at: None,
            };
            // One open payment per person and field (a unique index): a second page asking
            // at the same moment is told to try again, and never opens a second Checkout.
            if store::insert(ctx, &ctx.db.conn, &row).await.is_err() {
                return Err(DomainError::Conflict {
                    message: "a payment page is being opened for you; try again in a moment".into(),
                    retryable: true,
                });
            }
            row
        }
    };
    let mut form = items.lines;
    let expires = row.expires_at / 1000;
    form.extend(params([
        ("mode", "payment".into()),
        ("client_reference_id", row.id.clone()),
        ("customer_email", ask.email.clone()),
        ("metadata[signet_payment]", row.id.clone()),
        ("metadata[signet_document]", ask.document_id.clone()),
        (
            "payment_intent_data[metadata][signet_payment]",
            row.id.clone(),
        ),
        (
            "payment_intent_data[metadata][signet_document]",
            ask.document_id.clone(),
        ),
        ("success_url", with_query(&ask.return_url, "payment=done")),
        (
            "cancel_url",
            with_query(&ask.return_url, "payment=cancelled"),
        ),
        ("expires_at", expires.to_string()),
    ]));
    if row.fee > 0 {
        form.push((
            "payment_intent_data[application_fee_amount]".into(),
            row.fee.to_string(),
        ));
    }
    if let Some(d) = &ask.description {
        form.push((
            "payment_intent_data[description]".into(),
            d.chars().take(200).collect(),
        ));
    }
    // The payment's own id: a repeat after a lost answer gets the same Checkout back.
    let made = stripe
        .post(
            ask.mode,
            "/v1/checkout/sessions",
            &form,
            Some(&account.account_id),
            Some(&row.id),
        )
        .await;
    let made = match made {
        Ok(m) => m,
        Err(e) => {
            // Unreachable: kept open without a Checkout, so the next try sends the same key.
            if !e.retryable() {
                store::set_status_if(ctx, &row.id, "open", "replaced").await?;
            }
            return Err(e);
        }
    };
    let (Some(cs), Some(url)) = (made["id"].as_str(), made["url"].as_str()) else {
        return Err(DomainError::Internal(
            "Stripe opened a Checkout without an id or URL".into(),
        ));
    };
    let ends = made["expires_at"]
        .as_i64()
        .map_or(now + OPEN_MS, |s| s * 1000);
    store::opened(ctx, &row.id, cs, url, ends).await?;
    Ok(PaymentRow {
        checkout_id: Some(cs.into()),
        checkout_url: Some(url.into()),
        expires_at: ends,
        ..row
    })
}

/// Ends an open Checkout at Stripe; one already paid is said to be being confirmed. Stripe is
/// asked in every case: a Checkout past its time may still have been paid just before.
async fn expire(ctx: &Ctx, stripe: &Stripe, p: &PaymentRow, cs: &str) -> Result<(), DomainError> {
    let account = Some(p.account_id.as_str());
    if p.expires_at > ctx.now() {
        let path = format!("/v1/checkout/sessions/{cs}/expire");
        match stripe.post(p.mode, &path, &[], account, None).await {
            Ok(_) => return Ok(()),
            Err(e) if e.retryable() => return Err(e),
            Err(_) => {}
        }
    }
    let now = stripe
        .get(p.mode, &format!("/v1/checkout/sessions/{cs}"), account)
        .await?;
    match now["status"].as_str() {
        Some("expired") => Ok(()),
        Some("complete") => Err(DomainError::Conflict {
            message: "your payment is being confirmed; this page updates when it is".into(),
            retryable: true,
        }),
        _ => Err(DomainError::Conflict {
            message:
                "your earlier payment page is still open at the processor; try again in a moment"
                    .into(),
            retryable: true,
        }),
    }
}

/// The line items, amount and currency `ask` charges, read from Stripe for a price or link.
async fn items(
    stripe: &Stripe,
    mode: Mode,
    account: &str,
    ask: &Ask,
) -> Result<Items, DomainError> {
    let name = ask
        .description
        .clone()
        .unwrap_or_else(|| ask.title.clone())
        .chars()
        .take(200)
        .collect::<String>();
    match &ask.asked {
        Asked::Fixed(amount) => Ok(Items {
            lines: params([
                ("line_items[0][quantity]", "1".into()),
                ("line_items[0][price_data][currency]", ask.currency.clone()),
                ("line_items[0][price_data][unit_amount]", amount.to_string()),
                ("line_items[0][price_data][product_data][name]", name),
            ]),
            amount: *amount,
            currency: ask.currency.clone(),
        }),
        Asked::Price(id) => {
            let price = stripe
                .get(
                    mode,
                    &format!("/v1/prices/{}", path_part(id)?),
                    Some(account),
                )
                .await?;
            let (amount, currency) = one_time(&price)?;
            Ok(Items {
                lines: params([
                    ("line_items[0][price]", id.clone()),
                    ("line_items[0][quantity]", "1".into()),
                ]),
                amount,
                currency,
            })
        }
        Asked::Link(url) => {
            let links = stripe
                .get(
                    mode,
                    "/v1/payment_links?limit=100&active=true",
                    Some(account),
                )
                .await?;
            let Some(link) = links["data"]
                .as_array()
                .into_iter()
                .flatten()
                .find(|l| l["url"].as_str() == Some(url.as_str()))
            else {
                return Err(DomainError::conflict(
                    "the document's payment link is not an active payment link of the sender's \
                     payment account",
                ));
            };
            let id = path_part(link["id"].as_str().unwrap_or_default())?;
            let lines = stripe
                .get(
                    mode,
                    &format!("/v1/payment_links/{id}/line_items?limit={MAX_ITEMS}"),
                    Some(account),
                )
                .await?;
            let mut out = Items {
                lines: vec![],
                amount: 0,
                currency: String::new(),
            };
            for (i, line) in lines["data"]
                .as_array()
                .into_iter()
                .flatten()
                .enumerate()
                .take(MAX_ITEMS)
            {
                let (each, currency) = one_time(&line["price"])?;
                let qty = line["quantity"].as_i64().unwrap_or(1).clamp(1, 1000);
                if !out.currency.is_empty() && out.currency != currency {
                    return Err(DomainError::conflict("the payment link mixes currencies"));
                }
                out.currency = currency;
                out.amount = each
                    .checked_mul(qty)
                    .and_then(|a| a.checked_add(out.amount))
                    .ok_or_else(|| {
                        DomainError::conflict("the payment link's total is too large")
                    })?;
                let price = line["price"]["id"].as_str().unwrap_or_default().to_string();
                out.lines.push((format!("line_items[{i}][price]"), price));
                out.lines
                    .push((format!("line_items[{i}][quantity]"), qty.to_string()));
            }
            if out.lines.is_empty() {
                return Err(DomainError::conflict("the payment link has nothing to pay"));
            }
            Ok(out)
        }
    }
}

/// A price's one-time amount and currency.
fn one_time(price: &serde_json::Value) -> Result<(i64, String), DomainError> {
    match (
        price["unit_amount"].as_i64(),
        price["currency"].as_str(),
        price["active"].as_bool(),
    ) {
        (Some(a), Some(c), Some(true)) if a > 0 && price["type"] != "recurring" => {
            Ok((a, c.to_ascii_lowercase()))
        }
        _ => Err(DomainError::conflict(
            "the document's price is not an active one-time price of the sender's payment account",
        )),
    }
}

/// An id put into a path: letters, digits and `_` only.
fn path_part(id: &str) -> Result<&str, DomainError> {
    if !id.is_empty()
        && id.len() <= 100
        && id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
    {
        Ok(id)
    } else {
        Err(DomainError::conflict(
            "the document's price or link is not one the processor knows",
        ))
    }
}

fn with_query(url: &str, q: &str) -> String {
    if url.contains('?') {
        format!("{url}&{q}")
    } else {
        format!("{url}?{q}")
    }
}
