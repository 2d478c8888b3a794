//! The `payments` table: one row per Checkout session Signet opened for a person's payment
//! field, with the amount and fee it was opened for and what Stripe last said of it.

use sea_orm::{ConnectionTrait, QueryResult, Value};
use signet_core::clock::time;
use signet_core::{Ctx, DomainError, Mode};

use crate::types::PaymentOut;

/// Statuses a payment has been paid in (whatever happened after).
pub const PAID: &[&str] = &["paid", "partially_refunded", "refunded", "disputed"];

#[derive(Clone, Debug)]
pub struct PaymentRow {
    pub id: String,
    pub workspace_id: String,
    pub document_id: String,
    pub person_id: String,
    pub field_id: String,
    pub seat: String,
    pub mode: Mode,
    pub account_id: String,
    pub checkout_id: Option<String>,
    pub checkout_url: Option<String>,
    pub amount: i64,
    pub currency: String,
    pub fee: i64,
    pub description: Option<String>,
    /// The number fields' values a formula's amount was worked out from (JSON), so the person
    /// cannot change them after paying.
    pub inputs: Option<String>,
    pub status: String,
    pub payment_intent: Option<String>,
    pub charge_id: Option<String>,
    pub receipt_url: Option<String>,
    pub receipt_number: Option<String>,
    pub refunded: i64,
    pub expires_at: i64,
    pub created_at: i64,
    pub paid_at: Option<i64>,
}

impl PaymentRow {
    pub fn is_paid(&self) -> bool {
        PAID.contains(&self.status.as_str())
    }

    pub fn out(&self) -> PaymentOut {
        PaymentOut {
            id: self.id.clone(),
            amount: self.amount,
            currency: self.currency.clone(),
            fee: self.fee,
            status: self.status.clone(),
            seat: self.seat.clone(),
            description: self.description.clone(),
            refunded: self.refunded,
            receipt_url: self.receipt_url.clone(),
            receipt_number: self.receipt_number.clone(),
            created_at: time(self.created_at),
            paid_at: self.paid_at.map(time),
        }
    }
}

const COLUMNS: &str = "id, workspace_id, document_id, person_id, field_id, seat, mode, \
     account_id, checkout_id, checkout_url, amount, currency, fee, description, inputs, status, \
     payment_intent, charge_id, receipt_url, receipt_number, refunded, expires_at, created_at, \
     paid_at";

fn row(r: &QueryResult) -> Result<PaymentRow, DomainError> {
    let mode: String = r.try_get("", "mode")?;
    Ok(PaymentRow {
        id: r.try_get("", "id")?,
        workspace_id: r.try_get("", "workspace_id")?,
        document_id: r.try_get("", "document_id")?,
        person_id: r.try_get("", "person_id")?,
        field_id: r.try_get("", "field_id")?,
        seat: r.try_get("", "seat")?,
        mode: Mode::parse(&mode).unwrap_or(Mode::Test),
        account_id: r.try_get("", "account_id")?,
        checkout_id: r.try_get("", "checkout_id")?,
        checkout_url: r.try_get("", "checkout_url")?,
        amount: r.try_get("", "amount")?,
        currency: r.try_get("", "currency")?,
        fee: r.try_get("", "fee")?,
        description: r.try_get("", "description")?,
        inputs: r.try_get("", "inputs")?,
        status: r.try_get("", "status")?,
        payment_intent: r.try_get("", "payment_intent")?,
        charge_id: r.try_get("", "charge_id")?,
        receipt_url: r.try_get("", "receipt_url")?,
        receipt_number: r.try_get("", "receipt_number")?,
        refunded: r.try_get("", "refunded")?,
        expires_at: r.try_get("", "expires_at")?,
        created_at: r.try_get("", "created_at")?,
        paid_at: r.try_get("", "paid_at")?,
    })
}

/// The payment `id`.
pub async fn get<C: ConnectionTrait>(
    ctx: &Ctx,
    conn: &C,
    id: &str,
) -> Result<Option<PaymentRow>, DomainError> {
    let sql = format!("SELECT {COLUMNS} FROM payments WHERE id = $1");
    match conn
        .query_one_raw(ctx.db.stmt(&sql, [Value::from(id)]))
        .await?
    {
        Some(r) => Ok(Some(row(&r)?)),
        None => Ok(None),
    }
}

/// The payment whose Stripe payment intent is `pi` (a dispute names only that).
pub async fn by_intent(ctx: &Ctx, pi: &str) -> Result<Option<PaymentRow>, DomainError> {
    let sql = format!("SELECT {COLUMNS} FROM payments WHERE payment_intent = $1");
    match ctx
        .db
        .conn
        .query_one_raw(ctx.db.stmt(&sql, [Value::from(pi)]))
        .await?
    {
        Some(r) => Ok(Some(row(&r)?)),
        None => Ok(None),
    }
}

/// A person's payments of one field, newest first.
pub async fn of_field<C: ConnectionTrait>(
    ctx: &Ctx,
    conn: &C,
    person_id: &str,
    field_id: &str,
) -> Result<Vec<PaymentRow>, DomainError> {
    let sql = format!(
        "SELECT {COLUMNS} FROM payments WHERE person_id = $1 AND field_id = $2 \
         ORDER BY created_at DESC, id DESC LIMIT 50"
    );
    let rows = conn
        .query_all_raw(
            ctx.db
                .stmt(&sql, [Value::from(person_id), Value::from(field_id)]),
        )
        .await?;
    rows.iter().map(row).collect()
}

/// The payments of these documents, oldest first, without the ones replaced by another
/// Checkout before anything was paid.
pub async fn of_documents(ctx: &Ctx, ids: &[String]) -> Result<Vec<PaymentRow>, DomainError> {
    if ids.is_empty() {
        return Ok(vec![]);
    }
    let marks: Vec<String> = (1..=ids.len()).map(|i| format!("${i}")).collect();
    let sql = format!(
        "SELECT {COLUMNS} FROM payments WHERE document_id IN ({}) AND status <> 'replaced' \
         ORDER BY created_at, id",
        marks.join(", ")
    );
    let rows = ctx
        .db
        .conn
        .query_all_raw(
            ctx.db
                .stmt(&sql, ids.iter().map(|i| Value::from(i.as_str()))),
        )
        .await?;
    rows.iter().map(row).collect()
}

pub async fn insert<C: ConnectionTrait>(
    ctx: &Ctx,
    conn: &C,
    p: &PaymentRow,
) -> Result<(), DomainError> {
    let sql = format!(
        "INSERT INTO payments ({COLUMNS}, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, \
         $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24, $23)"
    );
    conn.execute_raw(ctx.db.stmt(
        &sql,
        [
            Value::from(p.id.clone()),
            Value::from(p.workspace_id.clone()),
            Value::from(p.document_id.clone()),
            Value::from(p.person_id.clone()),
            Value::from(p.field_id.clone()),
            Value::from(p.seat.clone()),
            Value::from(p.mode.as_str()),
            Value::from(p.account_id.clone()),
            Value::from(p.checkout_id.clone()),
            Value::from(p.checkout_url.clone()),
            Value::from(p.amount),
            Value::from(p.currency.clone()),
            Value::from(p.fee),
            Value::from(p.description.clone()),
            Value::from(p.inputs.clone()),
            Value::from(p.status.clone()),
            Value::from(p.payment_intent.clone()),
            Value::from(p.charge_id.clone()),
            Value::from(p.receipt_url.clone()),
            Value::from(p.receipt_number.clone()),
            Value::from(p.refunded),
            Value::from(p.expires_at),
            Value::from(p.created_at),
            Value::from(p.paid_at),
        ],
    ))
    .await?;
    Ok(())
}

/// The Checkout session Stripe opened for payment `id`.
pub async fn opened(
    ctx: &Ctx,
    id: &str,
    checkout_id: &str,
    url: &str,
    expires_at: i64,
) -> Result<(), DomainError> {
    ctx.db
        .conn
        .execute_raw(ctx.db.stmt(
            "UPDATE payments SET checkout_id = $2, checkout_url = $3, expires_at = $4, \
             updated_at = $5 WHERE id = $1",
            [
                Value::from(id),
                Value::from(checkout_id),
                Value::from(url),
                Value::from(expires_at),
                Value::from(ctx.now()),
            ],
        ))
        .await?;
    Ok(())
}

/// An open payment given up for another (its amount changed) or whose opening failed.
pub async fn set_status_if(ctx: &Ctx, id: &str, from: &str, to: &str) -> Result<bool, DomainError> {
    let done = ctx
        .db
        .conn
        .execute_raw(ctx.db.stmt(
            "UPDATE payments SET status = $3, updated_at = $4 WHERE id = $1 AND status = $2",
            [
                Value::from(id),
                Value::from(from),
                Value::from(to),
                Value::from(ctx.now()),
            ],
        ))
        .await?;
    Ok(done.rows_affected() > 0)
}

/// What Stripe says of a payment now, written when it differs from what was kept: `before` is
/// the row as read, and the update only lands on that same status (two events at once do not
/// both think they moved it).
pub async fn observe<C: ConnectionTrait>(
    ctx: &Ctx,
    conn: &C,
    before: &PaymentRow,
    after: &PaymentRow,
) -> Result<bool, DomainError> {
    let done = conn
        .execute_raw(ctx.db.stmt(
            "UPDATE payments SET status = $3, payment_intent = $4, charge_id = $5, \
             receipt_url = $6, receipt_number = $7, refunded = $8, paid_at = $9, updated_at = $10 \
             WHERE id = $1 AND status = $2",
            [
                Value::from(before.id.clone()),
                Value::from(before.status.clone()),
                Value::from(after.status.clone()),
                Value::from(after.payment_intent.clone()),
                Value::from(after.charge_id.clone()),
                Value::from(after.receipt_url.clone()),
                Value::from(after.receipt_number.clone()),
                Value::from(after.refunded),
                Value::from(after.paid_at),
                Value::from(ctx.now()),
            ],
        ))
        .await?;
    Ok(done.rows_affected() > 0)
}

/// Records Stripe's event `id` as applied; false when it already was.
pub async fn first_time<C: ConnectionTrait>(
    ctx: &Ctx,
    conn: &C,
    id: &str,
    mode: Mode,
) -> Result<bool, DomainError> {
    let done = conn
        .execute_raw(ctx.db.stmt(
            "INSERT INTO stripe_events (id, mode, received_at) VALUES ($1, $2, $3) \
             ON CONFLICT (id, mode) DO NOTHING",
            [
                Value::from(id),
                Value::from(mode.as_str()),
                Value::from(ctx.now()),
            ],
        ))
        .await?;
    Ok(done.rows_affected() > 0)
}
