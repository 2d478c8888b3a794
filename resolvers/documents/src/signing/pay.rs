//! A person's payment field: what the page shows of it, opening Stripe's hosted Checkout for
//! it (`POST /page/v1/pay`), and what signing asks of it. The amount is worked out here when
//! the person reaches the field: the tag's amount, its formula over the document's number
//! fields (the person's own values as the page holds them, checked as signing checks them,
//! and everyone else's as signed), the processor's price, or a payment link's items. The
//! payment itself is believed only from Stripe's signed event (`crate::payments`); signing
//! waits for it, and refuses a number a formula read that changed since the payment.

use std::collections::BTreeMap;

use sea_orm::{ConnectionTrait, Value};
use serde::{Deserialize, Serialize};
use signet_core::{Ctx, DomainError, Mode};
use signet_payments::checkout::{self, Ask, Asked};
use signet_payments::store::{self as paid, PaymentRow};

use super::identity;
use super::values::{self, FieldRow, FieldView, PaymentView};
use super::visit::{Stage, consented, stage, visit};
use crate::store::{DocRow, PersonDbRow};

/// The most a formula may ask, in major units.
const MAX_MAJOR: f64 = 1e9;

#[derive(Debug, Deserialize, serde::Serialize, signet_core::rules::Validate)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PayIn {
    /// The person's values as the page holds them (by field id): only the numbers a formula
    /// reads are used, checked as signing checks them.
    #[serde(default)]
    pub values: BTreeMap<String, serde_json::Value>,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PayOut {
    /// Stripe's hosted Checkout page: the page goes there.
    pub url: String,
    pub amount: i64,
    pub currency: String,
}

fn spec(f: &FieldRow) -> &serde_json::Value {
    &f.spec["payment"]
}

/// Adds what the page shows of each payment field.
pub(crate) async fn attach(
    ctx: &Ctx,
    doc: &DocRow,
    person: &PersonDbRow,
    views: &mut [FieldView],
) -> Result<(), DomainError> {
    if !views.iter().any(|v| v.ty == "payment") {
        return Ok(());
    }
    let rows = values::rows(ctx, doc, person).await?;
    let person_id = person.id.as_str();
    for (view, row) in views.iter_mut().zip(&rows) {
        if row.ty != "payment" {
            continue;
        }
        let p = spec(row);
        let currency = p["currency"].as_str().unwrap_or("usd").to_string();
        let last = paid::of_field(ctx, &ctx.db.conn, person_id, &row.id).await?;
        let made = last.iter().find(|p| p.is_paid());
        let open = last
            .iter()
            .find(|p| p.status == "open" && p.checkout_id.is_some());
        let shown = made.or(open);
        view.value = made.map(summary);
        view.editable = false;
        view.payment = Some(PaymentView {
            amount: shown.map(|p| p.amount).or(p["amountMinor"].as_i64()),
            decimals: signet_core::currencies::decimals(&currency).unwrap_or(2),
            currency: shown.map_or(currency, |p| p.currency.clone()),
            description: p["description"].as_str().map(str::to_string),
            source: source(p).into(),
            status: match (made, open) {
                (Some(m), _) => m.status.clone(),
                (None, Some(_)) => "open".into(),
                _ => "due".into(),
            },
            receipt_url: made.and_then(|m| m.receipt_url.clone()),
        });
    }
    Ok(())
}

fn source(p: &serde_json::Value) -> &'static str {
    if p["formula"].is_string() {
        "formula"
    } else if p["price"].is_string() {
        "price"
    } else if p["link"].is_string() {
        "link"
    } else {
        "fixed"
    }
}

/// What a paid field shows and the sealed copy prints.
pub(crate) fn summary(p: &PaymentRow) -> String {
    let mut s = format!(
        "Paid {} {}",
        signet_core::currencies::shown(p.amount, &p.currency),
        p.currency.to_uppercase()
    );
    if let Some(n) = &p.receipt_number {
        s.push_str(&format!(", receipt {n}"));
    }
    s
}

/// POST /page/v1/pay: Stripe's Checkout for the person's payment, opened (or the open one
/// given again) for the amount worked out now.
pub async fn pay(
    ctx: &Ctx,
    token: &str,
    pass: Option<&str>,
    body: PayIn,
) -> Result<PayOut, DomainError> {
    let v = visit(ctx, token).await?;
    identity::require(ctx, &v, pass)?;
    if stage(&v.doc, &v.person) != Stage::Sign || !v.person.participates() {
        return Err(DomainError::conflict(
            "you cannot pay: it is not your turn to sign",
        ));
    }
    if !consented(ctx, &v.doc, &v.person).await? {
        return Err(DomainError::conflict(
            "accept the electronic records disclosure before paying",
        ));
    }
    if body.values.len() > 500 {
        return Err(DomainError::invalid("values", "at most 500 values"));
    }
    let rows = values::rows(ctx, &v.doc, &v.person).await?;
    let Some(field) = rows.iter().find(|f| f.ty == "payment") else {
        return Err(DomainError::conflict("you have nothing to pay"));
    };
    let p = spec(field);
    let currency = p["currency"].as_str().unwrap_or("usd").to_string();
    let (asked, inputs) = if let Some(formula) = p["formula"].as_str() {
        let (minor, inputs) = work_out(
            ctx,
            &v.doc.id,
            &rows,
            &v.person,
            &body.values,
            formula,
            &currency,
        )
        .await?;
        (Asked::Fixed(minor), Some(inputs))
    } else if let Some(price) = p["price"].as_str() {
        (Asked::Price(price.into()), None)
    } else if let Some(link) = p["link"].as_str() {
        (Asked::Link(link.into()), None)
    } else if let Some(minor) = p["amountMinor"].as_i64() {
        (Asked::Fixed(minor), None)
    } else {
        return Err(DomainError::conflict("the payment has no amount"));
    };
    let plan = signet_accounts::workspaces::get(ctx, &v.doc.workspace_id)
        .await?
        .plan;
    let opened = checkout::open(
        ctx,
        Ask {
            workspace_id: v.doc.workspace_id.to_string(),
            mode: if v.doc.test { Mode::Test } else { Mode::Live },
            fee_percent: ctx.plans.limits(plan).payment_fee_percent,
            document_id: v.doc.id.to_string(),
            title: v.doc.title.clone(),
            person_id: v.person.id.to_string(),
            email: v.person.email.clone(),
            field_id: field.id.clone(),
            seat: v.person.seat.clone(),
            asked,
            currency,
            description: p["description"].as_str().map(str::to_string),
            inputs,
            // Never the signing link itself: the processor's account is the sender's. The page
            // keeps its link in the tab and finds it again at `/s/back`.
            return_url: format!("{}/s/back", ctx.public_url),
        },
    )
    .await?;
    Ok(PayOut {
        url: opened.checkout_url.clone().unwrap_or_default(),
        amount: opened.amount,
        currency: opened.currency,
    })
}

/// A formula's amount in minor units, and the numbers it read (as JSON, by field name).
async fn work_out(
    ctx: &Ctx,
    doc_id: &str,
    own: &[FieldRow],
    person: &PersonDbRow,
    given: &BTreeMap<String, serde_json::Value>,
    formula: &str,
    currency: &str,
) -> Result<(i64, String), DomainError> {
    let expr = signet_source::formula::parse(formula).map_err(|why| {
        DomainError::conflict(format!("the payment's formula cannot be read: {why}"))
    })?;
    let numbers = numbers(ctx, doc_id).await?;
    let mut read = BTreeMap::new();
    for name in expr.names() {
        let mine = own
            .iter()
            .find(|f| f.ty == "number" && f.name.eq_ignore_ascii_case(name));
        let value = match mine {
            Some(f) if values::fixed_value(f, person, &values::today()).is_some() => {
                values::fixed_value(f, person, &values::today())
                    .flatten()
                    .ok_or_else(|| {
                        DomainError::conflict(format!(
                            "the payment needs '{name}', which has no value"
                        ))
                    })?
            }
            Some(f) => {
                let field = format!("values.{}", f.name);
                let sent = given.get(&f.id).ok_or_else(|| {
                    DomainError::invalid(&field, "is needed to work out the payment")
                })?;
                values::one_value(f, sent).map_err(|why| DomainError::invalid(&field, why))?
            }
            None => numbers
                .iter()
                .find(|(n, _)| n.eq_ignore_ascii_case(name))
                .and_then(|(_, v)| v.clone())
                .ok_or_else(|| {
                    DomainError::conflict(format!(
                        "the payment needs '{name}', which nobody has filled in yet"
                    ))
                })?,
        };
        read.insert(name.to_ascii_lowercase(), value);
    }
    let major = expr
        .eval(&|n| {
            read.get(&n.to_ascii_lowercase())
                .and_then(|v| v.parse::<f64>().ok())
        })
        .map_err(|why| DomainError::conflict(format!("the payment cannot be worked out: {why}")))?;
    let digits = signet_core::currencies::decimals(currency).unwrap_or(2) as i32;
    let mut minor = (major * 10f64.powi(digits)).round();
    if digits == 3 {
        // Charged in tens of the smallest unit (the processor's rule for three decimals).
        minor = (minor / 10.0).round() * 10.0;
    }
    if !(minor.is_finite() && minor >= 1.0 && major <= MAX_MAJOR) {
        return Err(DomainError::conflict(format!(
            "the payment works out at {major}, which is not an amount that can be paid"
        )));
    }
    Ok((
        minor as i64,
        serde_json::to_string(&read).unwrap_or_default(),
    ))
}

/// Every number field of the document with its value, as signed so far.
async fn numbers(ctx: &Ctx, doc_id: &str) -> Result<Vec<(String, Option<String>)>, DomainError> {
    let rows = ctx
        .db
        .conn
        .query_all_raw(ctx.db.stmt(
            "SELECT name, value FROM fields WHERE document_id = $1 AND field_type = 'number'",
            [Value::from(doc_id)],
        ))
        .await?;
    rows.iter()
        .map(|r| Ok((r.try_get("", "name")?, r.try_get("", "value")?)))
        .collect()
}

/// Signing's word on the person's payment fields: each must be paid, with the numbers its
/// formula read unchanged; the field's value becomes what was paid.
pub(crate) async fn settle(
    ctx: &Ctx,
    rows: &[FieldRow],
    person_id: &str,
    checked: &mut [(String, Option<String>)],
) -> Result<(), DomainError> {
    for i in 0..rows.len().min(checked.len()) {
        let row = &rows[i];
        if row.ty != "payment" {
            continue;
        }
        let made = paid::of_field(ctx, &ctx.db.conn, person_id, &row.id)
            .await?
            .into_iter()
            .find(PaymentRow::is_paid);
        let Some(made) = made else {
            return Err(DomainError::conflict(
                "pay first: signing finishes once the payment is confirmed",
            ));
        };
        if let Some(inputs) = &made.inputs {
            let read: BTreeMap<String, String> = serde_json::from_str(inputs).unwrap_or_default();
            for f in rows.iter().filter(|f| f.ty == "number") {
                let key = f.name.to_ascii_lowercase();
                let Some(was) = read.get(&key) else { continue };
                let now = checked_value(rows, checked, &f.id);
                if now.as_deref().and_then(|v| v.parse::<f64>().ok()) != was.parse::<f64>().ok() {
                    return Err(DomainError::invalid(
                        &format!("values.{}", f.name),
                        format!("was {was} when you paid; it cannot change after the payment"),
                    ));
                }
            }
        }
        checked[i].1 = Some(summary(&made));
    }
    Ok(())
}

fn checked_value(
    rows: &[FieldRow],
    checked: &[(String, Option<String>)],
    id: &str,
) -> Option<String> {
    rows.iter()
        .zip(checked)
        .find(|(r, _)| r.id == id)
        .and_then(|(_, (_, v))| v.clone())
}
