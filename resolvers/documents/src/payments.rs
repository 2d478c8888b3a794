//! Stripe's events applied to documents: `signet_payments` verifies an event and reads again
//! from Stripe what it names; here, in one transaction with the payment's change, the audit
//! trail records it, `documents.payment.updated` tells the caller's system, and the payer gets
//! the `receipt` email. An event that changes nothing writes nothing.

use sea_orm::TransactionTrait;
use serde_json::json;
use signet_core::{Ctx, DomainError};
use signet_payments::events::{self, Seen};

use crate::lifecycle::locale;
use crate::store;
use crate::trail::Trail;

/// POST /webhooks/stripe: one event, with its `Stripe-Signature`.
pub async fn receive(ctx: &Ctx, signature: &str, body: &[u8]) -> Result<(), DomainError> {
    let verified = events::verify(ctx, signature, body)?;
    let seen = events::read(ctx, &verified).await?;
    let doc_id = match &seen {
        Seen::Payment { before, .. } => Some(before.document_id.clone()),
        _ => None,
    };
    let txn = ctx.db.conn.begin().await?;
    if let Some(id) = &doc_id {
        store::lock_row(&txn, &ctx.db, id).await?;
    }
    let Some(change) = events::apply(ctx, &txn, &verified, seen).await? else {
        txn.commit().await?;
        return Ok(());
    };
    let p = &change.payment;
    let Some(doc) = store::load(&txn, &ctx.db, &p.document_id).await? else {
        txn.commit().await?;
        return Ok(());
    };
    let people = store::people(&txn, &ctx.db, &[&doc.id]).await?;
    let person = people.iter().find(|x| x.id == p.person_id.as_str());
    let who = person.map_or_else(
        || format!("seat {}", p.seat),
        |x| format!("{} ({})", x.name, x.email),
    );
    let amount = format!(
        "{} {}",
        signet_core::currencies::shown(p.amount, &p.currency),
        p.currency.to_uppercase()
    );
    let refunded = signet_core::currencies::shown(p.refunded, &p.currency);
    let description = match p.status.as_str() {
        "paid" => format!("{who} paid {amount}"),
        "partially_refunded" => format!("{refunded} of {who}'s payment of {amount} was refunded"),
        "refunded" => format!("{who}'s payment of {amount} was refunded"),
        "disputed" => format!("{who}'s payment of {amount} is disputed with the card issuer"),
        "expired" => format!("{who}'s payment page for {amount} expired unpaid"),
        "mismatch" => format!(
            "{who} paid another amount than the {amount} asked; look into it with the processor"
        ),
        other => format!("{who}'s payment of {amount} is {other}"),
    };
    let paid = signet_payments::store::PAID;
    let first_paid = p.is_paid() && !paid.contains(&change.before.as_str());
    let mut trail = Trail::new(&doc.id, ctx.now());
    if first_paid && p.status != "paid" {
        // Its payment's own events came later than the refund's or dispute's.
        trail.audit("payment_paid", &format!("{who} paid {amount}"), Some(&p.seat), "stripe", json!({"payment": p.id, "amount": p.amount, "currency": p.currency, "fee": p.fee, "processor": "stripe"}));
    }
    trail.audit(
        &format!("payment_{}", p.status),
        &description,
        Some(&p.seat),
        "stripe",
        json!({
            "payment": p.id,
            "amount": p.amount,
            "currency": p.currency,
            "fee": p.fee,
            "refunded": p.refunded,
            "status": p.status,
            "was": change.before,
            "receiptNumber": p.receipt_number,
            "charge": p.charge_id,
            "processor": "stripe",
        }),
    );
    if p.is_paid() {
        let out = serde_json::to_value(p.out()).unwrap_or_default();
        trail.payment_event(&doc, person, out);
    }
    if first_paid && let Some(x) = person {
        trail.receipt(&doc, x, &locale(&doc), &p.id);
    }
    let queued = trail.write(&txn, &ctx.db).await?;
    txn.commit().await?;
    ctx.committed(&doc.id, queued).await;
    Ok(())
}
