//! The endpoint routes: create, list, delete, rotate, test, the delivery log and replay.

use sea_orm::{ConnectionTrait, TransactionTrait, Value};
use serde_json::json;
use signet_storage::Sql;

use super::store::{self, EndpointRow, EndpointState, NewMessage, visible};
use super::topics::TOPICS;
use super::types::*;
use super::{guard, send};
use signet_accounts::activity;
use signet_core::answer::{Claim, Made, Ready};
use signet_core::clock::time;
use signet_core::page::PageRequest;
use signet_core::rules;
use signet_core::{Actor, Ctx, DomainError, Mode, Scope, ids};
use signet_storage::ids::EndpointId;

const LOG_SIZE: i64 = 50;

/// POST /webhooks. Given the request's idempotency `claim`, the answer (with the secret,
/// shown this once) is stored in the transaction that makes the endpoint, so a retry after a
/// stop between the two replays it rather than making a second endpoint.
/// Endpoints a workspace may have in each mode. Each event is written once per subscribed
/// endpoint, so this bounds what one event costs.
pub const MAX_ENDPOINTS: usize = 20;

pub async fn create(
    ctx: &Ctx,
    actor: &Actor,
    input: WebhookCreateIn,
    claim: Option<&Claim>,
) -> Result<Made<WebhookOut>, DomainError> {
    actor.require(Scope::WebhooksWrite)?;
    rules::check(&input)?;
    let mut types: Vec<String> = Vec::new();
    for t in &input.event_types {
        if !types.contains(t) {
            types.push(t.clone());
        }
    }
    let relay = input.relay.unwrap_or(false);
    let name = match input.name.as_deref().map(str::trim) {
        Some("") | None => None,
        Some(n) => Some(n.to_string()),
    };
    let url = match (&input.url, relay) {
        (Some(_), true) => {
            return Err(DomainError::invalid(
                "url",
                "leave it out for a relay endpoint (relay: true)",
            ));
        }
        (None, false) => {
            return Err(DomainError::invalid(
                "url",
                "is required: a public https address, or set relay: true",
            ));
        }
        (None, true) => None,
        (Some(raw), false) => {
            let policy = crate::send::hooks(ctx).policy;
            let url = guard::check_form(raw, policy).map_err(|e| DomainError::invalid("url", e))?;
            guard::check_reachable(&url, policy)
                .await
                .map_err(|e| DomainError::invalid("url", e))?;
            Some(raw.clone())
        }
    };
    let secret = super::secret::generate();
    let now = ctx.now();
    let row = EndpointRow {
        id: EndpointId::new(),
        workspace_id: actor.workspace_id.clone(),
        test: actor.mode == Mode::Test,
        name,
        url,
        relay,
        event_types: types,
        secret: ctx.secrets.seal(&secret),
        previous_secret: None,
        previous_until: None,
        state: EndpointState::Enabled,
        disabled_reason: None,
        created_at: now,
    };
    // The count and the insert are one statement, after the workspace's row is locked
    // (PostgreSQL), so racing creates cannot pass the cap together.
    let lock = signet_accounts::workspaces::lock(&ctx.db, &row.workspace_id);
    let insert = ctx.db.stmt(
        &format!("INSERT INTO webhook_endpoints ({}, updated_at) SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $13 \
                  WHERE (SELECT COUNT(*) FROM webhook_endpoints WHERE workspace_id = $2 AND test = $3 AND state <> 'deleted') < {MAX_ENDPOINTS}", store::ENDPOINT_COLUMNS),
        [
            Value::from(row.id.clone()),
            Value::from(row.workspace_id.clone()),
            Value::from(row.test),
            Value::from(row.name.clone()),
            Value::from(row.url.clone()),
            Value::from(row.relay),
            Value::from(serde_json::to_string(&row.event_types).unwrap_or_default()),
            Value::from(row.secret.clone()),
            Value::from(None::<String>),
            Value::from(None::<i64>),
            Value::from(row.state.as_str()),
            Value::from(None::<String>),
            Value::from(now),
        ],
    );
    let ready = Ready::secret(201, row.to_out(Some(secret), now))?;
    let noted = (row.id.to_string(), described(&row));
    let (c, claim, actor) = (ctx.clone(), claim.cloned(), actor.clone());
    ctx.db
        .transaction(move |txn| async move {
            txn.exec(lock).await?;
            if txn.exec(insert).await? == 0 {
                return Err(DomainError::Forbidden(format!(
                    "a workspace has at most {MAX_ENDPOINTS} webhook endpoints in each mode; \
                     delete one before adding another"
                )));
            }
            activity::record(
                &*txn,
                &c,
                &actor,
                None,
                "webhook.created",
                &noted.0,
                &noted.1,
            )
            .await?;
            ready.store(&*txn, &c, claim.as_ref()).await
        })
        .await
}

/// An endpoint as the activity record names it: its name or address, and its mode.
fn described(row: &EndpointRow) -> String {
    // An address only by its host: a hook's path often carries a token, and the record is
    // kept after the endpoint goes.
    let place = match (&row.name, &row.url) {
        (Some(n), _) => n.clone(),
        (None, Some(u)) => url::Url::parse(u)
            .ok()
            .and_then(|u| u.host_str().map(str::to_string))
            .unwrap_or_default(),
        (None, None) => "relay".into(),
    };
    format!("{place} ({})", if row.test { "test" } else { "live" })
}

/// GET /webhooks: endpoints of the key's mode, newest first (deleted ones are not listed).
pub async fn list(
    ctx: &Ctx,
    actor: &Actor,
    limit: Option<i64>,
    cursor: Option<String>,
) -> Result<WebhookPageOut, DomainError> {
    actor.require(Scope::WebhooksRead)?;
    let page = PageRequest::parse(limit, cursor.as_deref())?;
    let mut values = vec![
        Value::from(actor.workspace_id.clone()),
        Value::from(actor.mode == Mode::Test),
        Value::from(page.limit as i64 + 1),
    ];
    let before = match &page.before_id {
        Some(b) => {
            values.push(Value::from(b.clone()));
            " AND id < $4"
        }
        None => "",
    };
    let rows = ctx
        .db
        .conn
        .query_all_raw(ctx.db.stmt(
            &format!("SELECT {} FROM webhook_endpoints WHERE workspace_id = $1 AND test = $2 AND state <> 'deleted'{before} ORDER BY id DESC LIMIT $3", store::ENDPOINT_COLUMNS),
            values,
        ))
        .await?;
    let rows = rows
        .iter()
        .map(EndpointRow::from_row)
        .collect::<Result<Vec<_>, _>>()?;
    let p = page.finish(rows, |r| &r.id);
    Ok(WebhookPageOut {
        data: p.data.iter().map(|r| r.to_out(None, ctx.now())).collect(),
        page: p.page,
    })
}

/// DELETE /webhooks/{id}: nothing more is delivered; the delivery log stays.
pub async fn delete(ctx: &Ctx, actor: &Actor, id: &str) -> Result<WebhookOut, DomainError> {
    actor.require(Scope::WebhooksWrite)?;
    let mut row = visible(&ctx.db.conn, ctx, actor, id, false).await?;
    let txn = ctx.db.conn.begin().await?;
    let now = ctx.now();
    txn.execute_raw(ctx.db.stmt(
        "UPDATE webhook_endpoints SET state = 'deleted', updated_at = $2 WHERE id = $1",
        [Value::from(id), Value::from(now)],
    ))
    .await?;
    txn.execute_raw(ctx.db.stmt(
        "UPDATE webhook_messages SET state = 'cancelled', finished_at = $2 WHERE endpoint_id = $1 AND state IN ('pending', 'sending', 'stored')",
        [Value::from(id), Value::from(now)],
    ))
    .await?;
    activity::record(
        &txn,
        ctx,
        actor,
        None,
        "webhook.deleted",
        id,
        &described(&row),
    )
    .await?;
    txn.commit().await?;
    row.state = EndpointState::Deleted;
    Ok(row.to_out(None, ctx.now()))
}

/// POST /webhooks/{id}/rotate: a new secret; the old one keeps signing for the window.
pub async fn rotate(
    ctx: &Ctx,
    actor: &Actor,
    id: &str,
    input: WebhookRotateIn,
    claim: Option<&Claim>,
) -> Result<Made<WebhookOut>, DomainError> {
    actor.require(Scope::WebhooksWrite)?;
    rules::check(&input)?;
    let hours = input.window_hours.unwrap_or(24);
    let mut row = visible(&ctx.db.conn, ctx, actor, id, false).await?;
    let secret = super::secret::generate();
    let now = ctx.now();
    let until = (hours > 0).then(|| now + hours * 3_600_000);
    let sealed = ctx.secrets.seal(&secret);
    row.previous_secret = until.map(|_| row.secret.clone());
    row.previous_until = until;
    let read = std::mem::replace(&mut row.secret, sealed);
    let ready = Ready::secret(200, row.to_out(Some(secret), now))?;
    // Conditional on the secret read, so two rotations at once cannot both keep a window.
    let update = ctx.db.stmt(
        "UPDATE webhook_endpoints SET secret = $2, previous_secret = $3, previous_until = $4, updated_at = $5 WHERE id = $1 AND secret = $6",
        [
            Value::from(id),
            Value::from(row.secret.clone()),
            Value::from(row.previous_secret.clone()),
            Value::from(until),
            Value::from(now),
            Value::from(read),
        ],
    );
    let detail = format!("{}; the old secret signs for {hours} h", described(&row));
    let (c, claim, id, actor) = (ctx.clone(), claim.cloned(), id.to_string(), actor.clone());
    ctx.db
        .transaction(move |txn| async move {
            if txn.exec(update).await? != 1 {
                return Err(DomainError::Conflict {
                    message: format!("endpoint {id} was rotated at the same moment; try again"),
                    retryable: true,
                });
            }
            activity::record(&*txn, &c, &actor, None, "webhook.rotated", &id, &detail).await?;
            ready.store(&*txn, &c, claim.as_ref()).await
        })
        .await
}

/// POST /webhooks/{id}/test: a signed sample event with `test: true`, sent at once; nothing
/// is stored and the endpoint's health is untouched. A relay endpoint gets it in its feed.
pub async fn test_send(
    ctx: &Ctx,
    actor: &Actor,
    id: &str,
    input: WebhookTestIn,
) -> Result<WebhookTestOut, DomainError> {
    actor.require(Scope::WebhooksWrite)?;
    rules::check(&input)?;
    let row = visible(&ctx.db.conn, ctx, actor, id, false).await?;
    let topic = match input.topic {
        Some(t) => t,
        None => row
            .event_types
            .first()
            .cloned()
            .unwrap_or_else(|| TOPICS[0].0.to_string()),
    };
    let event_id = ids::new_id("evt");
    // Each topic's last word is the document state it reports.
    let state = topic.rsplit('.').next().unwrap_or("sent").to_string();
    let body = json!({
        "id": event_id,
        "type": topic,
        "createdAt": time(ctx.now()),
        "test": true,
        "data": {"document": {
            "id": "doc_sample", "state": state, "title": "Sample document", "test": true,
            "externalId": null, "metadata": {}
        }}
    })
    .to_string();
    if row.relay {
        let txn = ctx.db.conn.begin().await?;
        store::lock_messages(&txn, &ctx.db).await?;
        store::insert_messages(
            &txn,
            &ctx.db,
            vec![NewMessage {
                endpoint_id: row.id.to_string(),
                relay: true,
                event_id: event_id.clone(),
                topic,
                payload: body,
                replay: false,
            }],
        )
        .await?;
        txn.commit().await?;
        crate::send::hooks(ctx).relay_wake.notify_waiters();
        return Ok(WebhookTestOut {
            delivered: false,
            relayed: true,
            response_status: None,
            result: "put in the relay feed for signet listen".into(),
            duration_ms: 0,
            webhook_id: event_id,
        });
    }
    let headers = send::signed_headers(
        &row.signing_secrets(ctx)?,
        &event_id,
        signet_storage::now_ms() / 1000,
        body.as_bytes(),
    )?;
    let url = row.url.clone().unwrap_or_default();
    let o = send::post(crate::send::hooks(ctx), &url, &headers, body).await;
    Ok(WebhookTestOut {
        delivered: o.succeeded,
        relayed: false,
        response_status: o.status.map(i32::from),
        result: o.result,
        duration_ms: o.duration_ms,
        webhook_id: event_id,
    })
}

/// GET /webhooks/{id}/deliveries: the last 50 attempts, newest first. Readable after delete.
pub async fn deliveries(
    ctx: &Ctx,
    actor: &Actor,
    id: &str,
) -> Result<DeliveryAttemptsOut, DomainError> {
    actor.require(Scope::WebhooksRead)?;
    visible(&ctx.db.conn, ctx, actor, id, true).await?;
    let rows = ctx
        .db
        .conn
        .query_all_raw(ctx.db.stmt(
            "SELECT id, message_id, event_id, topic, try_number, succeeded, response_status, result, duration_ms, created_at \
             FROM webhook_attempts WHERE endpoint_id = $1 ORDER BY id DESC LIMIT $2",
            [Value::from(id), Value::from(LOG_SIZE)],
        ))
        .await?;
    let mut data = Vec::with_capacity(rows.len());
    for r in &rows {
        let g = |c: &str| r.try_get::<String>("", c).map_err(DomainError::from);
        let created: i64 = r.try_get("", "created_at")?;
        data.push(DeliveryAttemptOut {
            id: g("id")?,
            delivery_id: g("message_id")?,
            webhook_id: g("event_id")?,
            event_type: g("topic")?,
            try_number: r.try_get("", "try_number")?,
            succeeded: r.try_get("", "succeeded")?,
            response_status: r.try_get("", "response_status")?,
            result: g("result")?,
            duration_ms: r.try_get("", "duration_ms")?,
            created_at: time(created),
        });
    }
    Ok(DeliveryAttemptsOut { data })
}

/// POST /webhooks/{id}/deliveries/{deliveryId}/replay: the same event, with the same
/// `webhook-id` and body, queued again for this endpoint (or put in its relay feed again).
pub async fn replay(
    ctx: &Ctx,
    actor: &Actor,
    id: &str,
    delivery_id: &str,
) -> Result<DeliveryOut, DomainError> {
    actor.require(Scope::WebhooksWrite)?;
    let row = visible(&ctx.db.conn, ctx, actor, id, false).await?;
    if row.state != EndpointState::Enabled {
        return Err(DomainError::conflict(format!(
            "endpoint {id} is {}: {}",
            row.state.as_str(),
            row.disabled_reason
                .as_deref()
                .unwrap_or("it receives nothing")
        )));
    }
    let original = ctx
        .db
        .conn
        .query_one_raw(ctx.db.stmt(
            "SELECT event_id, topic, payload FROM webhook_messages WHERE id = $1 AND endpoint_id = $2",
            [Value::from(delivery_id), Value::from(id)],
        ))
        .await?
        .ok_or_else(|| DomainError::NotFound(format!("no delivery {delivery_id} of endpoint {id}")))?;
    let txn = ctx.db.conn.begin().await?;
    store::lock_messages(&txn, &ctx.db).await?;
    let mut made = store::insert_messages(
        &txn,
        &ctx.db,
        vec![NewMessage {
            endpoint_id: row.id.to_string(),
            relay: row.relay,
            event_id: original.try_get("", "event_id")?,
            topic: original.try_get("", "topic")?,
            payload: original.try_get("", "payload")?,
            replay: true,
        }],
    )
    .await?;
    txn.commit().await?;
    if row.relay {
        crate::send::hooks(ctx).relay_wake.notify_waiters();
    } else {
        let now = ctx.now();
        ctx.queue
            .file(
                crate::deliver::DELIVERIES,
                made.iter().map(|m| (m.id.clone(), now)),
            )
            .await;
        ctx.queue
            .wake(<signet_core::events::Event as signet_queue::Job>::KIND);
    }
    made.pop()
        .ok_or_else(|| DomainError::Internal("replay stored nothing".into()))
}
