//! Fan-out: queued `event` jobs become one message per subscribed endpoint of the event's
//! workspace and mode, in the transaction that ends the jobs. An event is either still
//! queued or fully fanned out; never half.

use std::collections::BTreeSet;

use sea_orm::Value;
use signet_core::events::Event;
use signet_core::{Ctx, DomainError};
use signet_queue::Job as _;
use signet_storage::Sql;

use super::due::{BATCH, DELIVERIES, any_due, marks};
use crate::store::{self, ENDPOINT_COLUMNS, EndpointRow, NewMessage};

/// Messages one fan-out transaction writes at most (an event's whole fan-out is never split:
/// at most `endpoints::MAX_ENDPOINTS` messages).
pub const MAX_FANOUT_MESSAGES: usize = 2_000;

/// Fans out up to `BATCH` queued events. Returns how many events it took.
pub async fn fan_out(ctx: &Ctx) -> Result<usize, DomainError> {
    // A plain read first: an idle worker never takes the write lock.
    // Whether any event waits for fan-out (the probe keeps to the queue's index).
    let probe = ctx.db.stmt(&signet_queue::queued_probe(Event::KIND), []);
    if !any_due(ctx, Event::KIND, ctx.now(), probe).await? {
        return Ok(0);
    }
    let c = ctx.clone();
    let (n, relayed, taken, queued) = ctx
        .db
        .transaction(move |txn| async move {
            let ctx = &c;
            store::lock_messages(&*txn, &ctx.db).await?;
            let events = txn
                .rows(ctx.db.stmt(
                    &signet_queue::queued_sql(Event::KIND),
                    [Value::from(BATCH as i64)],
                ))
                .await?;
            if events.is_empty() {
                return Ok::<_, DomainError>((0, false, Vec::new(), Vec::new()));
            }
            let mut ids_: Vec<String> = Vec::with_capacity(events.len());
            let mut workspaces = BTreeSet::new();
            let mut parsed = Vec::with_capacity(events.len());
            for r in &events {
                let id: String = r.try_get("", "id")?;
                let ws: String = r.try_get("", "workspace_id")?;
                let test: bool = r.try_get("", "test")?;
                let payload: String = r.try_get("", "payload")?;
                #[derive(serde::Deserialize)]
                struct Head {
                    id: String,
                    #[serde(rename = "type")]
                    topic: String,
                }
                let head: Head = serde_json::from_str(&payload)
                    .map_err(|e| DomainError::Internal(format!("outbox event {id}: {e}")))?;
                ids_.push(id);
                workspaces.insert(ws.clone());
                parsed.push((ws, test, head.id, head.topic, payload));
            }
            let ws: Vec<Value> = workspaces.iter().cloned().map(Value::from).collect();
            let endpoints = txn
                .rows(ctx.db.stmt(
                    &format!("SELECT {ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE state = 'enabled' AND workspace_id IN ({})", marks(1, ws.len())),
                    ws,
                ))
                .await?
                .iter()
                .map(EndpointRow::from_row)
                .collect::<Result<Vec<_>, _>>()?;
            let mut messages = Vec::new();
            let mut relayed = false;
            let mut taken: Vec<String> = Vec::with_capacity(parsed.len());
            for ((ws, test, event_id, topic, payload), id) in parsed.into_iter().zip(ids_) {
                let mine: Vec<&EndpointRow> = endpoints
                    .iter()
                    .filter(|e| e.workspace_id == ws && e.test == test && e.event_types.contains(&topic))
                    .collect();
                // One transaction writes a bounded number of rows; the rest wait for the next.
                if !taken.is_empty() && messages.len() + mine.len() > MAX_FANOUT_MESSAGES {
                    break;
                }
                taken.push(id);
                for e in mine {
                    relayed |= e.relay;
                    messages.push(NewMessage {
                        endpoint_id: e.id.to_string(),
                        relay: e.relay,
                        event_id: event_id.clone(),
                        topic: topic.clone(),
                        payload: payload.clone(),
                        replay: false,
                    });
                }
            }
            let n = taken.len();
            // By id alone: the lock above already keeps fan-outs apart.
            signet_queue::finish_all(&ctx.db, &*txn, &taken).await?;
            let queued: Vec<String> = store::insert_messages(&*txn, &ctx.db, messages)
                .await?
                .into_iter()
                .filter(|m| m.state == "pending")
                .map(|m| m.id)
                .collect();
            Ok((n, relayed, taken, queued))
        })
        .await?;
    if relayed {
        crate::send::hooks(ctx).relay_wake.notify_waiters();
    }
    ctx.queue.forget(Event::KIND, taken).await;
    if !queued.is_empty() {
        let now = ctx.now();
        ctx.queue
            .file(DELIVERIES, queued.into_iter().map(|id| (id, now)))
            .await;
        ctx.queue.wake(Event::KIND);
    }
    Ok(n)
}
