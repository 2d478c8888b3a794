//! A write transaction on the writer's connection, and the values it trades with SQLite.

use std::sync::Mutex;

use rusqlite::Connection;
use sea_orm::{DbBackend, DbErr, Statement, Value};

use crate::sql::{Row, Sql};

/// One write transaction on the writer connection (see `InlineSqlite::transaction`). Its
/// statements run on the writer thread, a few microseconds each, through `Sql`. Rows come
/// back typed as PostgreSQL would type them, from each column's declared type: `INTEGER` as `i32`,
/// `BIGINT` as `i64`, `BOOLEAN` as `bool`, `DOUBLE PRECISION` as `f64`, `TEXT` as `String`,
/// so the same `try_get` calls work on both backends; expressions without a declared type
/// come back by their storage class (integers as `i64`).
pub struct InlineTx {
    pub(super) conn: Mutex<Option<Connection>>,
}

impl std::fmt::Debug for InlineTx {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("InlineTx")
    }
}

impl InlineTx {
    pub(super) fn with<T>(
        &self,
        f: impl FnOnce(&Connection) -> Result<T, DbErr>,
    ) -> Result<T, DbErr> {
        let guard = self.conn.lock().unwrap_or_else(|p| p.into_inner());
        match guard.as_ref() {
            Some(conn) => f(conn),
            None => Err(DbErr::Custom("the SQLite transaction is over".into())),
        }
    }

    fn prepared<'c>(
        conn: &'c Connection,
        stmt: &Statement,
    ) -> Result<rusqlite::CachedStatement<'c>, DbErr> {
        let mut prepared = conn.prepare_cached(&stmt.sql).map_err(db_err)?;
        let values = stmt.values.as_ref().map(|v| v.0.as_slice()).unwrap_or(&[]);
        for i in 1..=prepared.parameter_count() {
            // `$n` binds the n-th value wherever it stands; anything else binds in order.
            let n = prepared
                .parameter_name(i)
                .and_then(|name| name.strip_prefix('$').or_else(|| name.strip_prefix('?')))
                .and_then(|n| n.parse::<usize>().ok())
                .unwrap_or(i);
            let v = values.get(n - 1).ok_or_else(|| {
                DbErr::Custom(format!(
                    "statement has no value for parameter {n}: {}",
                    stmt.sql
                ))
            })?;
            prepared.raw_bind_parameter(i, to_sql(v)?).map_err(db_err)?;
        }
        Ok(prepared)
    }
}

#[async_trait::async_trait]
impl Sql for InlineTx {
    fn backend(&self) -> DbBackend {
        DbBackend::Sqlite
    }

    async fn exec(&self, stmt: Statement) -> Result<u64, DbErr> {
        self.with(|conn| {
            let mut prepared = Self::prepared(conn, &stmt)?;
            Ok(prepared.raw_execute().map_err(db_err)? as u64)
        })
    }

    async fn rows(&self, stmt: Statement) -> Result<Vec<Row>, DbErr> {
        self.with(|conn| {
            let mut prepared = Self::prepared(conn, &stmt)?;
            let columns: Vec<(String, Option<String>)> = prepared
                .columns()
                .iter()
                .map(|c| {
                    (
                        c.name().to_string(),
                        c.decl_type().map(str::to_ascii_uppercase),
                    )
                })
                .collect();
            let mut rows = prepared.raw_query();
            let mut out = Vec::new();
            while let Some(row) = rows.next().map_err(db_err)? {
                let mut values = std::collections::BTreeMap::new();
                for (i, (name, decl)) in columns.iter().enumerate() {
                    let v = row.get_ref(i).map_err(db_err)?;
                    values.insert(name.clone(), from_sql(v, decl.as_deref())?);
                }
                out.push(Row::Values(values));
            }
            Ok(out)
        })
    }
}

pub(super) fn db_err(e: rusqlite::Error) -> DbErr {
    DbErr::Custom(format!("sqlite: {e}"))
}

/// A value as SQLite binds it; text and bytes are lent, not copied (a document's words run
/// to kilobytes).
pub(super) fn to_sql(v: &Value) -> Result<rusqlite::types::ToSqlOutput<'_>, DbErr> {
    use rusqlite::types::{ToSqlOutput as O, Value as S, ValueRef as R};
    let int = |i: Option<i64>| O::Owned(i.map(S::Integer).unwrap_or(S::Null));
    Ok(match v {
        Value::Bool(b) => int(b.map(i64::from)),
        Value::TinyInt(i) => int(i.map(i64::from)),
        Value::SmallInt(i) => int(i.map(i64::from)),
        Value::Int(i) => int(i.map(i64::from)),
        Value::BigInt(i) => int(*i),
        Value::TinyUnsigned(i) => int(i.map(i64::from)),
        Value::SmallUnsigned(i) => int(i.map(i64::from)),
        Value::Unsigned(i) => int(i.map(i64::from)),
        Value::BigUnsigned(i) => match i {
            Some(i) => {
                O::Owned(S::Integer(i64::try_from(*i).map_err(|_| {
                    DbErr::Custom(format!("{i} does not fit SQLite's integer"))
                })?))
            }
            None => O::Owned(S::Null),
        },
        Value::Float(f) => O::Owned(f.map(|f| S::Real(f64::from(f))).unwrap_or(S::Null)),
        Value::Double(f) => O::Owned(f.map(S::Real).unwrap_or(S::Null)),
        Value::String(Some(s)) => O::Borrowed(R::Text(s.as_bytes())),
        Value::Char(c) => O::Owned(c.map(|c| S::Text(c.to_string())).unwrap_or(S::Null)),
        Value::Bytes(Some(b)) => O::Borrowed(R::Blob(b)),
        Value::String(None) | Value::Bytes(None) => O::Owned(S::Null),
        other => return Err(DbErr::Custom(format!("no SQLite binding for {other:?}"))),
    })
}

pub(super) fn from_sql(
    v: rusqlite::types::ValueRef<'_>,
    decl: Option<&str>,
) -> Result<Value, DbErr> {
    use rusqlite::types::ValueRef as R;
    let decl = decl.unwrap_or("");
    let narrow = |i: i64| {
        i32::try_from(i).map_err(|_| DbErr::Custom(format!("{i} does not fit an INTEGER column")))
    };
    Ok(match (v, decl) {
        (R::Null, "INTEGER") => Value::Int(None),
        (R::Null, "BIGINT") => Value::BigInt(None),
        (R::Null, "BOOLEAN") => Value::Bool(None),
        (R::Null, "DOUBLE PRECISION" | "REAL") => Value::Double(None),
        (R::Null, "BLOB" | "BYTEA") => Value::Bytes(None),
        (R::Null, _) => Value::String(None),
        (R::Integer(i), "INTEGER") => Value::Int(Some(narrow(i)?)),
        (R::Integer(i), "BOOLEAN") => Value::Bool(Some(i != 0)),
        (R::Integer(i), "DOUBLE PRECISION" | "REAL") => Value::Double(Some(i as f64)),
        (R::Integer(i), _) => Value::BigInt(Some(i)),
        (R::Real(f), _) => Value::Double(Some(f)),
        (R::Text(t), _) => Value::String(Some(String::from_utf8_lossy(t).into_owned())),
        (R::Blob(b), _) => Value::Bytes(Some(b.to_vec())),
    })
}
