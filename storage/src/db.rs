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
}

impl Db {
    /// Connects to `url` (`sqlite:PATH` or `postgres://...`). A SQLite file is created when
    /// missing, with its folder.
    pub async fn connect(url: &str) -> Result<Db, StorageError> {
        let (url, backend) = if let Some(rest) = url.strip_prefix("sqlite:") {
            let path = rest.trim_start_matches("//");
            let path = path.split('?').next().unwrap_or(path);
            if let Some(parent) = std::path::Path::new(path).parent()
                && !parent.as_os_str().is_empty()
            {
                std::fs::create_dir_all(parent).map_err(|e| {
                    StorageError::Corrupt(format!("cannot create {}: {e}", parent.display()))
                })?;
            }
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
            Backend::Sqlite => opts.max_connections(4).min_connections(1),
            Backend::Postgres => opts.max_connections(32).min_connections(2),
        };
        let conn = Database::connect(opts).await?;
        if backend == Backend::Sqlite {
            for pragma in [
                "PRAGMA journal_mode = WAL",
                "PRAGMA synchronous = NORMAL",
                "PRAGMA busy_timeout = 10000",
                "PRAGMA foreign_keys = ON",
            ] {
                conn.execute_unprepared(pragma).await?;
            }
        }
        Ok(Db { conn, backend })
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
