//! The API log: one row per request (request id, key, method, route, status, error kind,
//! duration). Handlers hand entries to a channel and a single writer inserts them in batches,
//! so logging never adds a database round trip to a request. When the channel is full an entry
//! is dropped and counted rather than slowing the API down.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use sea_orm::EntityTrait;
use serde::Serialize;
use signet_storage::Db;
use signet_storage::entities::api_log;
use tokio::sync::mpsc;

use crate::DomainError;

/// A line of the API log.
#[derive(Clone, Debug, Serialize, async_graphql::SimpleObject)]
#[serde(rename_all = "camelCase")]
#[graphql(name = "ApiLogLine")]
pub struct ApiLogEntry {
    pub request_id: String,
    /// The key that asked; none for a person's session or a request without a key.
    pub key_id: Option<String>,
    #[graphql(skip)]
    pub workspace_id: Option<String>,
    pub method: String,
    /// The operation id (`v1.documents.create`), never the path.
    pub route: String,
    pub status: u16,
    pub error_kind: Option<String>,
    pub duration_us: u64,
    pub client_ip: String,
    pub created_at: i64,
}

/// The writer task; `stop` writes what is queued and waits for it.
pub struct ApiLogWriter {
    handle: tokio::task::JoinHandle<()>,
    stop: tokio::sync::oneshot::Sender<()>,
}

impl ApiLogWriter {
    pub async fn stop(self) {
        let _ = self.stop.send(());
        let _ = self.handle.await;
    }
}

/// What the writer is handed: an entry, or a wish to know when everything before it is
/// written.
enum Msg {
    Entry(ApiLogEntry),
    Flushed(tokio::sync::oneshot::Sender<()>),
}

#[derive(Clone)]
pub struct ApiLogSink {
    tx: mpsc::Sender<Msg>,
    dropped: Arc<AtomicU64>,
}

const BATCH: usize = 512;

/// How long the writer gathers entries after the first before it writes them.
const GATHER: std::time::Duration = std::time::Duration::from_millis(20);

impl ApiLogSink {
    /// Starts the writer. It ends, after writing what it holds, when `ApiLogWriter::stop` is
    /// called or every sink is dropped.
    pub fn spawn(db: Db) -> (ApiLogSink, ApiLogWriter) {
        let (tx, mut rx) = mpsc::channel::<Msg>(65_536);
        let (stop_tx, mut stop_rx) = tokio::sync::oneshot::channel::<()>();
        let handle = tokio::spawn(async move {
            let mut batch = Vec::with_capacity(BATCH);
            let mut stopping = false;
            loop {
                if stopping {
                    while batch.len() < BATCH {
                        match rx.try_recv() {
                            Ok(e) => batch.push(e),
                            Err(_) => break,
                        }
                    }
                } else {
                    tokio::select! {
                        n = rx.recv_many(&mut batch, BATCH) => if n == 0 { break },
                        _ = &mut stop_rx => { stopping = true; continue; }
                    }
                    // Under load, gather for a moment before writing: one commit for many
                    // rows rather than one for the few that arrived since the last write (at
                    // 26,000 reads a second the commits took a third of the writer thread).
                    // A wish to know when everything is written ends the wait at once.
                    let until = tokio::time::Instant::now() + GATHER;
                    while batch.len() < BATCH && !batch.iter().any(|m| matches!(m, Msg::Flushed(_)))
                    {
                        let room = BATCH - batch.len();
                        tokio::select! {
                            n = rx.recv_many(&mut batch, room) => if n == 0 { break },
                            _ = tokio::time::sleep_until(until) => break,
                            _ = &mut stop_rx => { stopping = true; break; }
                        }
                    }
                }
                if batch.is_empty() {
                    break;
                }
                let mut flushed = Vec::new();
                let rows = batch
                    .drain(..)
                    .filter_map(|m| match m {
                        Msg::Entry(e) => Some(e),
                        Msg::Flushed(t) => {
                            flushed.push(t);
                            None
                        }
                    })
                    .map(|e| api_log::Model {
                        id: e.request_id,
                        key_id: e.key_id,
                        workspace_id: e.workspace_id,
                        method: e.method,
                        route: e.route,
                        status: e.status as i32,
                        error_kind: e.error_kind,
                        duration_us: e.duration_us as i64,
                        client_ip: e.client_ip,
                        created_at: e.created_at,
                    })
                    .collect::<Vec<_>>();
                if rows.is_empty() {
                } else if let Err(e) = db.append_api_log(rows).await {
                    tracing::error!(error = %e, "writing the API log failed");
                }
                for t in flushed {
                    let _ = t.send(());
                }
            }
        });
        (
            ApiLogSink {
                tx,
                dropped: Arc::default(),
            },
            ApiLogWriter {
                handle,
                stop: stop_tx,
            },
        )
    }

    pub fn record(&self, entry: ApiLogEntry) {
        if self.tx.try_send(Msg::Entry(entry)).is_err() {
            let n = self.dropped.fetch_add(1, Ordering::Relaxed) + 1;
            if n.is_power_of_two() {
                tracing::warn!(dropped = n, "API log writer is behind; entries dropped");
            }
        }
    }

    /// Waits until every entry recorded before the call is written (or dropped, when the
    /// writer was behind). For tests and tools.
    pub async fn flush(&self) {
        let (tx, rx) = tokio::sync::oneshot::channel();
        if self.tx.send(Msg::Flushed(tx)).await.is_ok() {
            let _ = rx.await;
        }
    }
}

impl From<api_log::Model> for ApiLogEntry {
    fn from(m: api_log::Model) -> ApiLogEntry {
        ApiLogEntry {
            request_id: m.id,
            key_id: m.key_id,
            workspace_id: m.workspace_id,
            method: m.method,
            route: m.route,
            status: m.status as u16,
            error_kind: m.error_kind,
            duration_us: m.duration_us as u64,
            client_ip: m.client_ip,
            created_at: m.created_at,
        }
    }
}

pub async fn find(db: &signet_storage::Db, request_id: &str) -> Result<ApiLogEntry, DomainError> {
    let m = api_log::Entity::find_by_id(request_id)
        .one(&db.conn)
        .await?
        .ok_or_else(|| DomainError::NotFound(format!("no request {request_id} in the API log")))?;
    Ok(m.into())
}

/// What to look for in a workspace's API log; every filter is optional.
#[derive(Clone, Debug, Default, serde::Deserialize, async_graphql::InputObject)]
#[serde(rename_all = "camelCase")]
#[graphql(name = "ApiLogSearch")]
pub struct Search {
    /// The `requestId` of an answer: finds its line.
    pub request_id: Option<String>,
    pub key_id: Option<String>,
    /// An operation id, such as `v1.documents.create`.
    pub route: Option<String>,
    pub status: Option<i32>,
    /// Lines older than this (ms), to page back.
    pub before: Option<i64>,
    /// Lines from this moment on (ms).
    pub since: Option<i64>,
    /// 1 to 100; 50 when not given.
    pub limit: Option<i64>,
}

/// Lines one search answers at most.
pub const MAX_SEARCHED: i64 = 100;

/// A workspace's lines matching `q`, newest first (the index on workspace and time).
pub async fn search(
    db: &signet_storage::Db,
    workspace_id: &str,
    q: Search,
) -> Result<Vec<ApiLogEntry>, DomainError> {
    use sea_orm::{ColumnTrait, QueryFilter, QueryOrder, QuerySelect};
    let mut find = api_log::Entity::find().filter(api_log::Column::WorkspaceId.eq(workspace_id));
    if let Some(v) = q.request_id {
        find = find.filter(api_log::Column::Id.eq(v));
    }
    if let Some(v) = q.key_id {
        find = find.filter(api_log::Column::KeyId.eq(v));
    }
    if let Some(v) = q.route {
        find = find.filter(api_log::Column::Route.eq(v));
    }
    if let Some(v) = q.status {
        find = find.filter(api_log::Column::Status.eq(v));
    }
    if let Some(v) = q.before {
        find = find.filter(api_log::Column::CreatedAt.lt(v));
    }
    if let Some(v) = q.since {
        find = find.filter(api_log::Column::CreatedAt.gte(v));
    }
    Ok(find
        .order_by_desc(api_log::Column::CreatedAt)
        .order_by_desc(api_log::Column::Id)
        .limit(q.limit.unwrap_or(50).clamp(1, MAX_SEARCHED) as u64)
        .all(&db.conn)
        .await?
        .into_iter()
        .map(ApiLogEntry::from)
        .collect())
}
