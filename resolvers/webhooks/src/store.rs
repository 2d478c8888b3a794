//! Rows of the webhook tables, and the one lock under which messages are numbered.

use sea_orm::{ConnectionTrait, Value};
use signet_storage::ids::{EndpointId, WorkspaceId};
use signet_storage::{Backend, Db};
use signet_storage::{Cells, Sql};

use super::types::{DeliveryOut, WebhookOut};
use signet_core::clock::time;
use signet_core::{Actor, Ctx, DomainError, Mode};

#[derive(Clone, Debug)]
pub struct EndpointRow {
    pub id: EndpointId,
    pub workspace_id: WorkspaceId,
    pub test: bool,
    pub name: Option<String>,
    pub url: Option<String>,
    pub relay: bool,
    pub event_types: Vec<String>,
    pub secret: String,
    pub previous_secret: Option<String>,
    pub previous_until: Option<i64>,
    pub state: EndpointState,
    pub disabled_reason: Option<String>,
    pub created_at: i64,
}

/// Where an endpoint stands: `enabled`; `disabled` (after a 410 or five days of unbroken
/// failure), which delivers nothing until it is enabled again; `deleted`, kept for its log.
/// Stored by name in `webhook_endpoints.state`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndpointState {
    Enabled,
    Disabled,
    Deleted,
}

impl EndpointState {
    pub fn parse(s: &str) -> Option<EndpointState> {
        Some(match s {
            "enabled" => EndpointState::Enabled,
            "disabled" => EndpointState::Disabled,
            "deleted" => EndpointState::Deleted,
            _ => return None,
        })
    }

    pub fn as_str(self) -> &'static str {
        match self {
            EndpointState::Enabled => "enabled",
            EndpointState::Disabled => "disabled",
            EndpointState::Deleted => "deleted",
        }
    }
}

pub const ENDPOINT_COLUMNS: &str = "id, workspace_id, test, name, url, relay, event_types, secret, \
    previous_secret, previous_until, state, disabled_reason, created_at";

fn get<T: sea_orm::TryGetable + sea_orm::sea_query::ValueType>(
    r: &impl Cells,
    col: &str,
) -> Result<T, DomainError> {
    r.cell(col).map_err(DomainError::from)
}

impl EndpointRow {
    pub fn from_row(r: &impl Cells) -> Result<EndpointRow, DomainError> {
        let types: String = get(r, "event_types")?;
        Ok(EndpointRow {
            id: get::<String>(r, "id")?.into(),
            workspace_id: get::<String>(r, "workspace_id")?.into(),
            test: get(r, "test")?,
            name: get(r, "name")?,
            url: get(r, "url")?,
            relay: get(r, "relay")?,
            event_types: serde_json::from_str(&types).unwrap_or_default(),
            secret: get(r, "secret")?,
            previous_secret: get(r, "previous_secret")?,
            previous_until: get(r, "previous_until")?,
            state: {
                let s: String = get(r, "state")?;
                EndpointState::parse(&s).ok_or_else(|| {
                    DomainError::Internal(format!("an endpoint's stored state '{s}' is unknown"))
                })?
            },
            disabled_reason: get(r, "disabled_reason")?,
            created_at: get(r, "created_at")?,
        })
    }

    /// The endpoint as callers see it at `now` (a rotation's window shown while open).
    pub fn to_out(&self, secret: Option<String>, now: i64) -> WebhookOut {
        WebhookOut {
            id: self.id.to_string(),
            url: self.url.clone(),
            relay: self.relay,
            name: self.name.clone(),
            event_types: self.event_types.clone(),
            state: self.state.as_str().to_string(),
            disabled_reason: self.disabled_reason.clone(),
            test: self.test,
            created_at: time(self.created_at),
            secret,
            previous_secret_expires_at: self.previous_until.filter(|t| *t > now).map(time),
        }
    }

    /// The secrets that sign now: the current one, and the previous one during its window.
    pub fn signing_secrets(&self, ctx: &Ctx) -> Result<Vec<String>, DomainError> {
        let mut out = vec![ctx.secrets.open(&self.secret)?];
        if let (Some(prev), Some(until)) = (&self.previous_secret, self.previous_until)
            && until > ctx.now()
        {
            out.push(ctx.secrets.open(prev)?);
        }
        Ok(out)
    }
}

pub fn not_found(id: &str) -> DomainError {
    DomainError::NotFound(format!("no webhook endpoint {id}"))
}

/// The endpoint, if it belongs to the key's workspace and mode. Deleted ones are found only
/// when `with_deleted` (their delivery log stays readable).
pub async fn visible<C: ConnectionTrait>(
    conn: &C,
    ctx: &Ctx,
    actor: &Actor,
    id: &str,
    with_deleted: bool,
) -> Result<EndpointRow, DomainError> {
    if !id.starts_with("wh_") || id.len() > 64 {
        return Err(not_found(id));
    }
    let row = conn
        .query_one_raw(ctx.db.stmt(
            &format!("SELECT {ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE id = $1"),
            [Value::from(id)],
        ))
        .await?;
    match row.map(|r| EndpointRow::from_row(&r)).transpose()? {
        Some(e)
            if e.workspace_id == actor.workspace_id
                && e.test == (actor.mode == Mode::Test)
                && (with_deleted || e.state != EndpointState::Deleted) =>
        {
            Ok(e)
        }
        _ => Err(not_found(id)),
    }
}

/// A message about to be stored: one event for one endpoint.
pub struct NewMessage {
    pub endpoint_id: String,
    pub relay: bool,
    pub event_id: String,
    pub topic: String,
    pub payload: String,
    pub replay: bool,
}

/// Takes the message lock for the rest of `txn`. Messages are numbered under it, so their
/// `seq` follows commit order and a relay reader's cursor never passes one still uncommitted.
/// PostgreSQL takes an advisory lock; SQLite takes its write lock with a write that changes
/// nothing.
pub async fn lock_messages<C: Sql>(txn: &C, db: &Db) -> Result<(), DomainError> {
    let sql = match db.backend {
        Backend::Postgres => "SELECT pg_advisory_xact_lock(727001)",
        Backend::Sqlite => "UPDATE webhook_messages SET seq = seq WHERE 1 = 0",
    };
    txn.exec(db.stmt(sql, [])).await?;
    Ok(())
}

/// Stores messages; call [`lock_messages`] first in the same transaction.
pub async fn insert_messages<C: Sql>(
    txn: &C,
    db: &Db,
    messages: Vec<NewMessage>,
) -> Result<Vec<DeliveryOut>, DomainError> {
    if messages.is_empty() {
        return Ok(Vec::new());
    }
    let top = txn
        .row(db.stmt(
            "SELECT COALESCE(MAX(seq), 0) AS top FROM webhook_messages",
            [],
        ))
        .await?;
    let mut seq: i64 = match top {
        Some(r) => get(&r, "top")?,
        None => 0,
    };
    let now = db.clock.now_ms();
    let mut rows = Vec::with_capacity(messages.len());
    let mut out = Vec::with_capacity(messages.len());
    for m in messages {
        seq += 1;
        let id = signet_core::ids::new_id("msg");
        let state = if m.relay { "stored" } else { "pending" };
        out.push(DeliveryOut {
            id: id.clone(),
            webhook_id: m.event_id.clone(),
            event_type: m.topic.clone(),
            state: state.into(),
            replay: m.replay,
            created_at: time(now),
        });
        rows.push(vec![
            Value::from(id),
            Value::from(seq),
            Value::from(m.endpoint_id),
            Value::from(m.event_id),
            Value::from(m.topic),
            Value::from(m.payload),
            Value::from(state),
            Value::from(0i32),
            Value::from(now),
            Value::from(m.replay),
            Value::from(now),
        ]);
    }
    signet_storage::insert_rows(
        txn,
        db,
        "webhook_messages",
        &[
            "id",
            "seq",
            "endpoint_id",
            "event_id",
            "topic",
            "payload",
            "state",
            "attempts",
            "next_attempt_at",
            "replay",
            "created_at",
        ],
        rows,
    )
    .await?;
    Ok(out)
}
