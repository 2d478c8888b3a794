//! A job is a typed payload with the name of its kind. It is written as an `outbox` row in the
//! transaction of the state change that causes it (`enqueue`, or several at once with
//! [`Batch`]), so a job exists exactly when its change committed; after the commit the
//! writer hands what it queued to [`crate::Queue::dispatch`], which tells the workers.

use sea_orm::Value;
use serde::Serialize;
use serde::de::DeserializeOwned;
use signet_storage::{Db, Sql, StorageError, ids, now_ms};

/// A kind of background work. The payload is stored as JSON in the row; the kind names the
/// handler that takes it (`signet_core::jobs::Handler`).
pub trait Job: Serialize + DeserializeOwned + Send + Sync + 'static {
    /// The outbox's `kind` column: short, lower case, never reused for another shape.
    const KIND: &'static str;
}

/// Whose a job is: the workspace it is counted against (its fair share), the document it is
/// about, if any, and whether that is test mode.
#[derive(Clone, Copy, Debug)]
pub struct Owner<'a> {
    pub workspace_id: &'a str,
    pub document_id: Option<&'a str>,
    pub test: bool,
}

/// The `run_at` of a job held until something else happens first: a document's first
/// invitations wait for its pages to be rendered (nobody is invited to a document whose
/// pages may never exist). Never due; released by [`crate::release_held`].
pub const HELD: i64 = i64::MAX;

/// The outbox columns, in the order of the values a [`Batch`] builds.
const COLUMNS: &[&str] = &[
    "id",
    "kind",
    "workspace_id",
    "document_id",
    "test",
    "payload",
    "state",
    "attempts",
    "run_at",
    "created_at",
];

/// What a transaction queued: handed to [`crate::Queue::dispatch`] once it committed, so the
/// workers of the kinds look at once (and, with Redis, learn the jobs' ids and when each is
/// due). Dropping it loses nothing: the rows are found by the workers' own look.
#[derive(Clone, Debug, Default)]
#[must_use = "hand it to `Queue::dispatch` after the commit"]
pub struct Enqueued {
    pub(crate) jobs: Vec<Queued>,
}

/// One job written: its kind, id, and when it is due.
#[derive(Clone, Debug)]
pub(crate) struct Queued {
    pub kind: std::borrow::Cow<'static, str>,
    pub id: String,
    pub run_at: i64,
}

impl Enqueued {
    /// Nothing queued.
    pub fn none() -> Enqueued {
        Enqueued::default()
    }

    /// Adds what another write of the same transaction queued.
    pub fn and(mut self, other: Enqueued) -> Enqueued {
        self.jobs.extend(other.jobs);
        self
    }

    pub fn is_empty(&self) -> bool {
        self.jobs.is_empty()
    }

    /// Whether a job of `kind` is among them.
    pub fn has(&self, kind: &str) -> bool {
        self.jobs.iter().any(|j| j.kind == kind)
    }

    pub(crate) fn push(
        &mut self,
        kind: impl Into<std::borrow::Cow<'static, str>>,
        id: String,
        run_at: i64,
    ) {
        self.jobs.push(Queued {
            kind: kind.into(),
            id,
            run_at,
        });
    }
}

/// Jobs to write in one INSERT, in the caller's transaction.
#[derive(Default)]
pub struct Batch {
    rows: Vec<Vec<Value>>,
    enqueued: Enqueued,
}

impl Batch {
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// Adds `job`, due at `run_at` ([`HELD`]: held until released).
    pub fn add<J: Job>(&mut self, job: &J, owner: Owner<'_>, run_at: i64) -> &mut Batch {
        let id = ids::new_id("job");
        // A payload is plain data (strings, numbers, JSON values), which always serialises.
        let payload = serde_json::to_string(job).unwrap_or_else(|e| {
            tracing::error!(kind = J::KIND, error = %e, "a job's payload did not serialise");
            "{}".into()
        });
        self.rows.push(vec![
            Value::from(id.clone()),
            Value::from(J::KIND),
            Value::from(owner.workspace_id.to_string()),
            Value::from(owner.document_id.map(str::to_string)),
            Value::from(owner.test),
            Value::from(payload),
            Value::from("queued"),
            Value::from(0i32),
            Value::from(run_at),
            Value::from(now_ms()),
        ]);
        self.enqueued.push(J::KIND, id, run_at);
        self
    }

    /// Writes the jobs (one statement per 200, deferred where the connection can).
    pub async fn write<C: Sql>(self, conn: &C, db: &Db) -> Result<Enqueued, StorageError> {
        if !self.rows.is_empty() {
            signet_storage::insert_rows(conn, db, "outbox", COLUMNS, self.rows).await?;
        }
        Ok(self.enqueued)
    }
}

/// Writes one job in the caller's transaction, due now.
pub async fn enqueue<C: Sql, J: Job>(
    conn: &C,
    db: &Db,
    job: &J,
    owner: Owner<'_>,
) -> Result<Enqueued, StorageError> {
    let mut batch = Batch::default();
    batch.add(job, owner, db.clock.now_ms());
    batch.write(conn, db).await
}

/// A job of `J` read back from its row's payload.
pub fn decode<J: Job>(payload: &str) -> Result<J, serde_json::Error> {
    serde_json::from_str(payload)
}
