//! Where leased messages go: their endpoints (a message whose endpoint no longer takes
//! deliveries is cancelled), and one signed post.

use std::collections::{BTreeMap, BTreeSet};

use sea_orm::{ConnectionTrait, Value};
use signet_core::{Ctx, DomainError};

use super::due::{DELIVERIES, marks};
use super::lease::Claimed;
use crate::send::{self, Outcome};
use crate::store::{ENDPOINT_COLUMNS, EndpointRow};

/// Loads the endpoints of claimed messages; messages whose endpoint no longer takes deliveries
/// are cancelled and left out.
pub async fn endpoints_of(
    ctx: &Ctx,
    claimed: &mut Vec<Claimed>,
) -> Result<BTreeMap<String, Target>, DomainError> {
    let ids: BTreeSet<String> = claimed.iter().map(|c| c.endpoint_id.clone()).collect();
    if ids.is_empty() {
        return Ok(BTreeMap::new());
    }
    let rows = ctx
        .db
        .conn
        .query_all_raw(ctx.db.stmt(
            &format!(
                "SELECT {ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE id IN ({})",
                marks(1, ids.len())
            ),
            ids.iter().cloned().map(Value::from),
        ))
        .await?;
    let mut out = BTreeMap::new();
    for r in &rows {
        let e = EndpointRow::from_row(r)?;
        if e.state == crate::store::EndpointState::Enabled && !e.relay {
            out.insert(
                e.id.to_string(),
                Target {
                    url: e.url.clone().unwrap_or_default(),
                    secrets: e.signing_secrets(ctx)?,
                    workspace: e.workspace_id.to_string(),
                },
            );
        }
    }
    let (keep, drop): (Vec<_>, Vec<_>) = std::mem::take(claimed)
        .into_iter()
        .partition(|c| out.contains_key(&c.endpoint_id));
    *claimed = keep;
    ctx.queue
        .forget(DELIVERIES, drop.iter().map(|c| c.id.clone()))
        .await;
    if !drop.is_empty() {
        let now = ctx.now();
        let mut v = vec![Value::from(now)];
        v.extend(drop.iter().map(|c| Value::from(c.id.clone())));
        ctx.db
            .conn
            .execute_raw(ctx.db.stmt(
                &format!("UPDATE webhook_messages SET state = 'cancelled', finished_at = $1 WHERE id IN ({})", marks(2, drop.len())),
                v,
            ))
            .await?;
    }
    Ok(out)
}

/// Where a claimed message goes.
#[derive(Clone, Debug)]
pub struct Target {
    pub url: String,
    pub secrets: Vec<String>,
    pub workspace: String,
}

/// Deliveries one endpoint may have in flight in a worker.
pub const PER_ENDPOINT: usize = 16;

/// Signs and posts one leased message.
pub async fn post_one(hooks: &crate::Hooks, url: &str, secrets: &[String], m: &Claimed) -> Outcome {
    match send::signed_headers(
        secrets,
        &m.event_id,
        signet_storage::now_ms() / 1000,
        m.payload.as_bytes(),
    ) {
        Ok(h) => send::post(hooks, url, &h, m.payload.clone()).await,
        Err(e) => Outcome {
            succeeded: false,
            status: None,
            result: format!("not sent: {e}"),
            duration_ms: 0,
            retry_after: None,
        },
    }
}
