//! One connection type for both SQL backends. SQLite runs in WAL mode with a busy timeout so
//! that the API log writer and request handlers do not trip over each other; PostgreSQL gets a
//! pool sized for a server process.

use std::time::Duration;

use sea_orm::{ConnectOptions, ConnectionTrait, Database, DatabaseConnection, DbBackend};
use sea_orm_migration::MigratorTrait;

use crate::migrations::Migrator;

pub use crate::error::StorageError;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

#[derive(Clone, Debug)]
pub struct Db {
    pub conn: DatabaseConnection,
    pub backend: Backend,
    /// Hot-path point reads on SQLite (see `inline`); `None` on PostgreSQL.
    pub inline: Option<std::sync::Arc<crate::inline::InlineSqlite>>,
    /// Where this Signet reads the time; tests move it (`Clock::advance`).
    pub clock: crate::clock::Clock,
}

impl Db {
    /// The connection pool's open and idle connections (`/metrics`).
    pub fn pool_use(&self) -> (u32, usize) {
        match self.backend {
            Backend::Postgres => {
                let p = self.conn.get_postgres_connection_pool();
                (p.size(), p.num_idle())
            }
            Backend::Sqlite => {
                let p = self.conn.get_sqlite_connection_pool();
                (p.size(), p.num_idle())
            }
        }
    }
}

/// The file of a `sqlite:PATH` (or `sqlite://PATH?…`) URL; `None` for other databases.
pub fn sqlite_path(url: &str) -> Option<std::path::PathBuf> {
    let rest = url.strip_prefix("sqlite:")?;
    let path = rest.trim_start_matches("//");
    Some(std::path::PathBuf::from(
        path.split('?').next().unwrap_or(path),
    ))
}

impl Db {
    /// Connects to `url` (`sqlite:PATH` or `postgres://...`). A SQLite file is created when
    /// missing, with its folder.
    pub async fn connect(url: &str) -> Result<Db, StorageError> {
        let mut file = None;
        let (url, backend) = if let Some(path) = sqlite_path(url) {
            let path = path.to_string_lossy().into_owned();
            if let Some(parent) = std::path::Path::new(&path).parent()
                && !parent.as_os_str().is_empty()
            {
                std::fs::create_dir_all(parent).map_err(|e| {
                    StorageError::Corrupt(format!("cannot create {}: {e}", parent.display()))
                })?;
            }
            file = Some(std::path::PathBuf::from(&path));
            (format!("sqlite://{path}?mode=rwc"), Backend::Sqlite)
        } else if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            (url.to_string(), Backend::Postgres)
        } else {
            return Err(StorageError::Corrupt(format!(
                "unsupported database URL scheme in {url:?}: use sqlite:PATH or postgres://"
            )));
        };
        let mut opts = ConnectOptions::new(url);
        opts.sqlx_logging(false)
            .connect_timeout(Duration::from_secs(10))
            .acquire_timeout(Duration::from_secs(10));
        // sqlx runs each SQLite connection on its own thread; more than four on a 2-core
        // machine costs more in context switches than it gains (bench/RESULTS.md).
        match backend {
            Backend::Sqlite => opts
                .max_connections(4)
                .min_connections(1)
                // Per-connection settings must reach every pooled connection, not just one.
                .map_sqlx_sqlite_opts(|o| {
                    o.journal_mode(sqlx::sqlite::SqliteJournalMode::Wal)
                        .synchronous(sqlx::sqlite::SqliteSynchronous::Normal)
                        .busy_timeout(Duration::from_secs(10))
                        .foreign_keys(true)
                }),
            Backend::Postgres => opts.max_connections(32).min_connections(2),
        };
        let conn = Database::connect(opts).await?;
        let inline = file.map(|f| std::sync::Arc::new(crate::inline::InlineSqlite::new(f)));
        Ok(Db {
            conn,
            backend,
            inline,
            clock: crate::clock::Clock::default(),
        })
    }

    /// The counts of `(metric, period)` pairs of one workspace's usage counters, in order;
    /// zero where no row exists. Inline on SQLite: this sits on the path of GET /usage.
    pub async fn usage_counts(
        &self,
        workspace_id: &str,
        keys: &[(&str, &str)],
    ) -> Result<Vec<i64>, StorageError> {
        // A counter is the sum of its shards (m0006). One statement for all the counters, on
        // either database: one snapshot, one round trip, and on SQLite the log's read lock
        // taken once with no BEGIN and COMMIT to parse (an explicit transaction around three
        // queries cost a fifth of the read).
        let mark = if self.inline.is_some() { '?' } else { '$' };
        let mut sql = String::from("SELECT ");
        for i in 0..keys.len() {
            if i > 0 {
                sql.push_str(", ");
            }
            sql.push_str(&format!(
                "(SELECT CAST(COALESCE(SUM(count), 0) AS BIGINT) FROM usage_counters \
                 WHERE workspace_id = {mark}1 AND metric = {mark}{} AND period = {mark}{}) AS c{i}",
                2 * i + 2,
                2 * i + 3
            ));
        }
        let mut out = Vec::with_capacity(keys.len());
        if let Some(reader) = &self.inline {
            let mut params: Vec<&str> = Vec::with_capacity(1 + 2 * keys.len());
            params.push(workspace_id);
            for (metric, period) in keys {
                params.extend([*metric, *period]);
            }
            reader.read(|c| {
                let mut stmt = c.prepare_cached(&sql)?;
                stmt.query_row(rusqlite::params_from_iter(params.iter()), |r| {
                    (0..keys.len()).try_for_each(|i| {
                        out.push(r.get(i)?);
                        Ok(())
                    })
                })
            })?;
            return Ok(out);
        }
        let mut values = vec![sea_orm::Value::from(workspace_id)];
        for (metric, period) in keys {
            values.extend([sea_orm::Value::from(*metric), sea_orm::Value::from(*period)]);
        }
        let row = self.conn.query_one_raw(self.stmt(&sql, values)).await?;
        for i in 0..keys.len() {
            out.push(match &row {
                Some(r) => r.try_get("", &format!("c{i}"))?,
                None => 0,
            });
        }
        Ok(out)
    }

    /// Appends rows to the API log.
    pub async fn append_api_log(
        &self,
        rows: Vec<crate::entities::api_log::Model>,
    ) -> Result<(), StorageError> {
        use sea_orm::{EntityTrait, IntoActiveModel};
        if let Some(inline) = &self.inline {
            return inline.append_api_log(rows).await;
        }
        crate::entities::api_log::Entity::insert_many(
            rows.into_iter().map(|r| r.into_active_model()),
        )
        .on_conflict_do_nothing()
        .exec(&self.conn)
        .await?;
        Ok(())
    }

    /// Runs one writing statement: on SQLite through the inline writer, on PostgreSQL through
    /// the pool. Answers the rows it changed.
    pub async fn write(&self, stmt: sea_orm::Statement) -> Result<u64, StorageError> {
        use crate::sql::Sql;
        if self.inline.is_some() {
            return self
                .transaction(move |t| async move { Ok::<_, StorageError>(t.exec(stmt).await?) })
                .await;
        }
        Ok(self.conn.execute_raw(stmt).await?.rows_affected())
    }

    /// Runs `body` in one write transaction, committed when it answers `Ok` and rolled back
    /// otherwise. On SQLite the whole body runs on one blocking thread with the writer
    /// connection, its statements inline (see `inline`); on PostgreSQL it is a pooled
    /// transaction. The body must write only through the `Txn` it is given.
    pub async fn transaction<T, E, Fut>(
        &self,
        body: impl FnOnce(std::sync::Arc<Txn>) -> Fut + Send + 'static,
    ) -> Result<T, E>
    where
        T: Send + 'static,
        E: From<StorageError> + From<sea_orm::DbErr> + Send + 'static,
        Fut: std::future::Future<Output = Result<T, E>> + Send + 'static,
    {
        if let Some(inline) = &self.inline {
            return inline
                .transaction(move |tx| body(std::sync::Arc::new(Txn::Inline(tx))))
                .await;
        }
        let txn = std::sync::Arc::new(Txn::Pooled(Pooled {
            pool: self.conn.clone(),
            txn: tokio::sync::OnceCell::new(),
            held: std::sync::Mutex::new(Vec::new()),
            failed: std::sync::atomic::AtomicBool::new(false),
        }));
        let out = body(txn.clone()).await;
        let Ok(Txn::Pooled(txn)) = std::sync::Arc::try_unwrap(txn) else {
            return Err(E::from(StorageError::Corrupt(
                "a transaction outlived its body".into(),
            )));
        };
        match out {
            Ok(v) => txn.commit().await.map(|()| v).map_err(E::from),
            Err(e) => {
                // The body's error is what the caller is told.
                if let Err(r) = txn.rollback().await {
                    tracing::warn!(error = %r, "rolling back after the body's error failed");
                }
                Err(e)
            }
        }
    }

    pub async fn migrate(&self) -> Result<(), StorageError> {
        Migrator::up(&self.conn, None).await?;
        Ok(())
    }

    pub fn db_backend(&self) -> DbBackend {
        match self.backend {
            Backend::Sqlite => DbBackend::Sqlite,
            Backend::Postgres => DbBackend::Postgres,
        }
    }

    /// A statement written with `$1..$n` placeholders, numbered in order of first use; both
    /// SQLite and PostgreSQL accept that form.
    pub fn stmt(
        &self,
        sql: &str,
        values: impl IntoIterator<Item = sea_orm::Value>,
    ) -> sea_orm::Statement {
        sea_orm::Statement::from_sql_and_values(self.db_backend(), sql, values)
    }
}

/// The transaction `Db::transaction` hands its body.
#[derive(Debug)]
pub enum Txn {
    /// SQLite: statements inline on the writer connection.
    Inline(std::sync::Arc<crate::inline::InlineTx>),
    /// PostgreSQL: a pooled transaction.
    Pooled(Pooled),
}

/// A pooled PostgreSQL transaction that holds deferred statements (`Sql::exec_deferred`)
/// and sends them together, as one statement of data-modifying `WITH` clauses, before the
/// next statement it runs or its COMMIT. A create+send's seven INSERTs then take one round
/// trip instead of seven; a `pgbench` sketch of that shape ran about 30% more transactions a
/// second on the 2-core bench machine (bench/RESULTS.md). PostgreSQL runs the
/// clauses with one snapshot and checks foreign keys at the end of the statement, so rows may
/// reference rows of a sibling clause; no clause sees another's rows otherwise, so a
/// statement whose text is already held (say a second upsert of the same counter row) sends
/// the held ones first.
///
/// BEGIN is sent with the first statement that cannot wait. A body that only defers (a
/// create+send does) ends as that one statement alone, which PostgreSQL runs as its own
/// transaction: all of it or nothing, without the BEGIN and COMMIT round trips.
#[derive(Debug)]
pub struct Pooled {
    pool: DatabaseConnection,
    txn: tokio::sync::OnceCell<sea_orm::DatabaseTransaction>,
    held: std::sync::Mutex<Vec<sea_orm::Statement>>,
    /// A statement failed. PostgreSQL then answers COMMIT with a rollback and no error, so a
    /// body that went on after the error must not be told its writes committed.
    failed: std::sync::atomic::AtomicBool,
}

/// Parameters held at most before they are sent: well under PostgreSQL's 65,535 a statement.
const HELD_PARAMETERS: usize = 30_000;

fn parameters(stmt: &sea_orm::Statement) -> usize {
    stmt.values.as_ref().map_or(0, |v| v.0.len())
}

impl Pooled {
    fn take(&self) -> Vec<sea_orm::Statement> {
        std::mem::take(&mut *self.held.lock().unwrap_or_else(|p| p.into_inner()))
    }

    /// The transaction, begun on first use.
    async fn begun(&self) -> Result<&sea_orm::DatabaseTransaction, sea_orm::DbErr> {
        use sea_orm::TransactionTrait;
        self.txn.get_or_try_init(|| self.pool.begin()).await
    }

    /// Notes a failed statement (see `failed`).
    fn noting<T>(&self, r: Result<T, sea_orm::DbErr>) -> Result<T, sea_orm::DbErr> {
        if r.is_err() {
            self.failed
                .store(true, std::sync::atomic::Ordering::Relaxed);
        }
        r
    }

    async fn flush(&self) -> Result<(), sea_orm::DbErr> {
        use sea_orm::ConnectionTrait;
        if self
            .held
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .is_empty()
        {
            return Ok(());
        }
        // Begun first, then taken and sent in one go: a statement of another future on this
        // transaction cannot slip in between (it would wait for BEGIN as this one did).
        let txn = self.noting(self.begun().await)?;
        let Some(stmt) = as_one(self.take()) else {
            return Ok(());
        };
        let r = txn.execute_raw(stmt).await.map(|_| ());
        self.noting(r)
    }

    async fn exec(&self, stmt: sea_orm::Statement) -> Result<u64, sea_orm::DbErr> {
        use crate::sql::Sql;
        self.flush().await?;
        let txn = self.noting(self.begun().await)?;
        self.noting(txn.exec(stmt).await)
    }

    async fn rows(&self, stmt: sea_orm::Statement) -> Result<Vec<crate::sql::Row>, sea_orm::DbErr> {
        use crate::sql::Sql;
        self.flush().await?;
        let txn = self.noting(self.begun().await)?;
        self.noting(txn.rows(stmt).await)
    }

    /// Sends what is held and commits. Never begun, what is held runs as one statement in a
    /// transaction of its own.
    async fn commit(self) -> Result<(), sea_orm::DbErr> {
        use sea_orm::ConnectionTrait;
        if self.txn.initialized()
            && let Err(e) = self.flush().await
        {
            self.rollback_after(&e).await;
            return Err(e);
        }
        if self.failed.load(std::sync::atomic::Ordering::Relaxed) {
            let e = sea_orm::DbErr::Custom(
                "a statement of this transaction failed; nothing of it was committed".into(),
            );
            self.rollback_after(&e).await;
            return Err(e);
        }
        match self.txn.into_inner() {
            Some(txn) => txn.commit().await,
            None => match as_one(self.held.into_inner().unwrap_or_else(|p| p.into_inner())) {
                Some(stmt) => self.pool.execute_raw(stmt).await.map(|_| ()),
                None => Ok(()),
            },
        }
    }

    /// Rolls back after `e`, which is what the caller is told.
    async fn rollback_after(self, e: &sea_orm::DbErr) {
        if let Err(r) = self.rollback().await {
            tracing::warn!(error = %r, after = %e, "rolling back after a failed statement failed");
        }
    }

    async fn rollback(self) -> Result<(), sea_orm::DbErr> {
        match self.txn.into_inner() {
            Some(txn) => txn.rollback().await,
            None => Ok(()),
        }
    }

    async fn hold(&self, stmt: sea_orm::Statement) -> Result<(), sea_orm::DbErr> {
        let full = {
            let held = self.held.lock().unwrap_or_else(|p| p.into_inner());
            held.iter().any(|h| h.sql == stmt.sql)
                || held.iter().map(parameters).sum::<usize>() + parameters(&stmt) > HELD_PARAMETERS
        };
        if full {
            self.flush().await?;
        }
        self.held
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .push(stmt);
        Ok(())
    }
}

/// Held statements as one; `None` when nothing is held.
fn as_one(mut held: Vec<sea_orm::Statement>) -> Option<sea_orm::Statement> {
    match held.len() {
        0 => None,
        1 => Some(held.remove(0)),
        _ => Some(combine(held)),
    }
}

/// PostgreSQL statements as one: `WITH w0 AS (s0), w1 AS (s1) s2`, each statement's `$n`
/// placeholders moved past those of the statements before it.
fn combine(stmts: Vec<sea_orm::Statement>) -> sea_orm::Statement {
    debug_assert!(stmts.len() >= 2, "only two or more statements are combined");
    let last = stmts.len() - 1;
    let mut sql = String::from("WITH ");
    let mut values: Vec<sea_orm::Value> = Vec::new();
    for (i, s) in stmts.into_iter().enumerate() {
        let shifted = shift_placeholders(&s.sql, values.len());
        if i < last {
            sql.push_str(&format!("w{i} AS ({shifted}), "));
        } else {
            sql.truncate(sql.len() - 2);
            sql.push(' ');
            sql.push_str(&shifted);
        }
        values.extend(s.values.map(|v| v.0).unwrap_or_default());
    }
    sea_orm::Statement::from_sql_and_values(DbBackend::Postgres, sql, values)
}

/// `sql` with every `$n` placeholder outside quotes made `$(n + by)`.
fn shift_placeholders(sql: &str, by: usize) -> String {
    let mut out = String::with_capacity(sql.len() + 16);
    let mut quote: Option<char> = None;
    let mut chars = sql.chars().peekable();
    while let Some(c) = chars.next() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (None, '\'' | '"') => quote = Some(c),
            (None, '$') if chars.peek().is_some_and(char::is_ascii_digit) => {
                let mut n = 0usize;
                while let Some(d) = chars.peek().and_then(|d| d.to_digit(10)) {
                    n = n * 10 + d as usize;
                    chars.next();
                }
                out.push('$');
                out.push_str(&(n + by).to_string());
                continue;
            }
            _ => {}
        }
        out.push(c);
    }
    out
}

#[async_trait::async_trait]
impl crate::sql::Sql for Txn {
    fn backend(&self) -> DbBackend {
        match self {
            Txn::Inline(t) => t.backend(),
            Txn::Pooled(_) => DbBackend::Postgres,
        }
    }

    async fn exec(&self, stmt: sea_orm::Statement) -> Result<u64, sea_orm::DbErr> {
        match self {
            Txn::Inline(t) => t.exec(stmt).await,
            Txn::Pooled(t) => t.exec(stmt).await,
        }
    }

    async fn rows(&self, stmt: sea_orm::Statement) -> Result<Vec<crate::sql::Row>, sea_orm::DbErr> {
        match self {
            Txn::Inline(t) => t.rows(stmt).await,
            Txn::Pooled(t) => t.rows(stmt).await,
        }
    }

    async fn exec_deferred(&self, stmt: sea_orm::Statement) -> Result<(), sea_orm::DbErr> {
        match self {
            Txn::Inline(t) => t.exec(stmt).await.map(|_| ()),
            Txn::Pooled(t) => t.hold(stmt).await,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn held_statements_combine_with_their_placeholders_moved() {
        let s = |sql: &str, n: i32| {
            sea_orm::Statement::from_sql_and_values(
                DbBackend::Postgres,
                sql,
                (0..n).map(sea_orm::Value::from),
            )
        };
        let one = combine(vec![
            s("INSERT INTO a (x, y) VALUES ($1, $2), ($3, $4)", 4),
            s(
                "INSERT INTO b (x, note) VALUES ($1, 'costs $1'), ($2, \"$3\")",
                2,
            ),
            s(
                "INSERT INTO c (k, n) VALUES ($1, $2) ON CONFLICT (k) DO UPDATE SET n = c.n + $2",
                2,
            ),
        ]);
        assert_eq!(
            one.sql,
            "WITH w0 AS (INSERT INTO a (x, y) VALUES ($1, $2), ($3, $4)), \
             w1 AS (INSERT INTO b (x, note) VALUES ($5, 'costs $1'), ($6, \"$3\")) \
             INSERT INTO c (k, n) VALUES ($7, $8) ON CONFLICT (k) DO UPDATE SET n = c.n + $8"
        );
        let values: Vec<sea_orm::Value> = [0, 1, 2, 3, 0, 1, 0, 1]
            .into_iter()
            .map(sea_orm::Value::from)
            .collect();
        assert_eq!(one.values.unwrap().0, values);
        assert_eq!(shift_placeholders("$10 + $9", 100), "$110 + $109");
    }
}
