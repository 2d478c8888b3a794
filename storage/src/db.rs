//! One connection type for both SQL backends. SQLite runs in WAL mode with a busy timeout so
//! that the API log writer and request handlers do not trip over each other; PostgreSQL gets a
//! pool sized for a server process.

use std::time::Duration;

use sea_orm::{ConnectOptions, ConnectionTrait, Database, DatabaseConnection, DbBackend};
use sea_orm_migration::MigratorTrait;

use crate::migrations::Migrator;

#[derive(Debug, thiserror::Error)]
pub enum StorageError {
    #[error("database: {0}")]
    Db(#[from] sea_orm::DbErr),
    #[error("redis: {0}")]
    Redis(#[from] redis::RedisError),
    #[error("stored data is not readable: {0}")]
    Corrupt(String),
}

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
        })
    }

    /// The counts of `(metric, period)` pairs of one workspace's usage counters, in order;
    /// zero where no row exists. Inline on SQLite: this sits on the path of GET /usage.
    pub async fn usage_counts(
        &self,
        workspace_id: &str,
        keys: &[(&str, &str)],
    ) -> Result<Vec<i64>, StorageError> {
        // A counter is the sum of its shards (m0006).
        const SQL: &str = "SELECT COALESCE(SUM(count), 0) FROM usage_counters WHERE workspace_id = $1 AND metric = $2 AND period = $3";
        let mut out = Vec::with_capacity(keys.len());
        if let Some(reader) = &self.inline {
            reader.read(|c| {
                let mut stmt = c.prepare_cached(SQL)?;
                for (metric, period) in keys {
                    out.push(stmt.query_row((workspace_id, metric, period), |r| r.get(0))?);
                }
                Ok(())
            })?;
            return Ok(out);
        }
        // One round trip for all pairs: `(metric = $2 AND period = $3) OR ...`.
        let mut sql = String::from(
            "SELECT metric, period, CAST(SUM(count) AS BIGINT) AS count FROM usage_counters WHERE workspace_id = $1 AND (",
        );
        let mut values = vec![sea_orm::Value::from(workspace_id)];
        for (i, (metric, period)) in keys.iter().enumerate() {
            if i > 0 {
                sql.push_str(" OR ");
            }
            sql.push_str(&format!(
                "(metric = ${} AND period = ${})",
                2 * i + 2,
                2 * i + 3
            ));
            values.push(sea_orm::Value::from(*metric));
            values.push(sea_orm::Value::from(*period));
        }
        sql.push_str(") GROUP BY metric, period");
        let rows = self.conn.query_all_raw(self.stmt(&sql, values)).await?;
        out.resize(keys.len(), 0);
        for row in rows {
            let metric: String = row.try_get("", "metric")?;
            let period: String = row.try_get("", "period")?;
            if let Some(i) = keys.iter().position(|(m, p)| *m == metric && *p == period) {
                out[i] = row.try_get("", "count")?;
            }
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
        use sea_orm::TransactionTrait;
        if let Some(inline) = &self.inline {
            return inline
                .transaction(move |tx| body(std::sync::Arc::new(Txn::Inline(tx))))
                .await;
        }
        let txn = std::sync::Arc::new(Txn::Pooled(self.conn.begin().await?));
        let out = body(txn.clone()).await;
        let Ok(Txn::Pooled(txn)) = std::sync::Arc::try_unwrap(txn) else {
            return Err(E::from(StorageError::Corrupt(
                "a transaction outlived its body".into(),
            )));
        };
        match out {
            Ok(v) => {
                txn.commit().await?;
                Ok(v)
            }
            Err(e) => {
                txn.rollback().await?;
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
    Pooled(sea_orm::DatabaseTransaction),
}

#[async_trait::async_trait]
impl crate::sql::Sql for Txn {
    fn backend(&self) -> DbBackend {
        match self {
            Txn::Inline(t) => t.backend(),
            Txn::Pooled(t) => t.backend(),
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
}
