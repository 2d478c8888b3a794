//! Writing many rows at once, the same way on SQLite and PostgreSQL.

use sea_orm::{DbErr, Value};

use crate::db::Db;
use crate::sql::Sql;

/// Inserts `rows` into `table (columns)` with as few statements as the databases allow: one
/// multi-row INSERT per 200 rows, so a document's people or fields cost one statement. The
/// statements are deferred (`Sql::exec_deferred`): in a PostgreSQL transaction they go with
/// the next statement, or the COMMIT, in one round trip.
pub async fn insert_rows<C: Sql>(
    conn: &C,
    db: &Db,
    table: &str,
    columns: &[&str],
    rows: Vec<Vec<Value>>,
) -> Result<(), DbErr> {
    use std::fmt::Write;
    // SQLite binds `?` marks in order without looking each one up by name.
    let sqlite = conn.backend() == sea_orm::DbBackend::Sqlite;
    let mut rows = rows.into_iter().peekable();
    while rows.peek().is_some() {
        let chunk: Vec<Vec<Value>> = rows.by_ref().take(200).collect();
        let mut sql = format!("INSERT INTO {table} ({}) VALUES ", columns.join(", "));
        let mut values = Vec::with_capacity(chunk.len() * columns.len());
        for (r, row) in chunk.into_iter().enumerate() {
            sql.push_str(if r > 0 { ", (" } else { "(" });
            for c in 1..=row.len() {
                if c > 1 {
                    sql.push_str(", ");
                }
                if sqlite {
                    sql.push('?');
                } else {
                    let _ = write!(sql, "${}", values.len() + c);
                }
            }
            sql.push(')');
            values.extend(row);
        }
        conn.exec_deferred(db.stmt(&sql, values)).await?;
    }
    Ok(())
}
