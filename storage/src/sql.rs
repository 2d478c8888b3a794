//! `Sql`: what code that writes inside a transaction needs from a connection (run a statement,
//! read rows), so the same code runs on a sea-orm connection or transaction and on the inline
//! SQLite writer (`inline::InlineTx`). Rows read through either answer the same `try_get`.

use std::collections::BTreeMap;

use sea_orm::sea_query::ValueType;
use sea_orm::{ConnectionTrait, DbBackend, DbErr, QueryResult, Statement, TryGetable, Value};

#[async_trait::async_trait]
pub trait Sql: Sync {
    fn backend(&self) -> DbBackend;
    /// Runs a statement; answers the rows it changed.
    async fn exec(&self, stmt: Statement) -> Result<u64, DbErr>;
    async fn rows(&self, stmt: Statement) -> Result<Vec<Row>, DbErr>;
    async fn row(&self, stmt: Statement) -> Result<Option<Row>, DbErr> {
        Ok(self.rows(stmt).await?.into_iter().next())
    }
    /// Runs a writing statement whose count nobody needs. A PostgreSQL transaction of
    /// `Db::transaction` holds it and sends it with the next statement, or before COMMIT, as
    /// one (see `db::Pooled`), so an error it meets surfaces there; elsewhere it runs at once.
    ///
    /// What may be deferred: a plain `INSERT ... VALUES`, or an upsert of a table that no
    /// other deferred statement writes, with `$n` placeholders and no string literal holding
    /// `$`, no comment, no dollar quoting and no `WITH` of its own. Held statements run with
    /// one snapshot and cannot see each other's rows.
    async fn exec_deferred(&self, stmt: Statement) -> Result<(), DbErr> {
        self.exec(stmt).await.map(|_| ())
    }
}

#[async_trait::async_trait]
impl<C: ConnectionTrait> Sql for C {
    fn backend(&self) -> DbBackend {
        self.get_database_backend()
    }

    async fn exec(&self, stmt: Statement) -> Result<u64, DbErr> {
        Ok(self.execute_raw(stmt).await?.rows_affected())
    }

    async fn rows(&self, stmt: Statement) -> Result<Vec<Row>, DbErr> {
        Ok(self
            .query_all_raw(stmt)
            .await?
            .into_iter()
            .map(Row::Orm)
            .collect())
    }
}

/// A row from either kind of connection.
pub enum Row {
    Orm(QueryResult),
    /// Typed as PostgreSQL types the column (see `inline::InlineTx`).
    Values(BTreeMap<String, Value>),
}

impl Row {
    /// Same signature as `QueryResult::try_get`.
    pub fn try_get<T: TryGetable + ValueType>(&self, pre: &str, col: &str) -> Result<T, DbErr> {
        match self {
            Row::Orm(r) => r.try_get(pre, col),
            Row::Values(values) => {
                let v = values
                    .get(col)
                    .ok_or_else(|| DbErr::Custom(format!("no column {col}")))?;
                T::try_from(v.clone()).map_err(|e| DbErr::Custom(format!("column {col}: {e}")))
            }
        }
    }
}

/// Reading a column by name from either kind of row.
pub trait Cells {
    fn cell<T: TryGetable + ValueType>(&self, col: &str) -> Result<T, DbErr>;
}

impl Cells for QueryResult {
    fn cell<T: TryGetable + ValueType>(&self, col: &str) -> Result<T, DbErr> {
        self.try_get("", col)
    }
}

impl Cells for Row {
    fn cell<T: TryGetable + ValueType>(&self, col: &str) -> Result<T, DbErr> {
        self.try_get("", col)
    }
}
