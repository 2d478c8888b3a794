//! Schema migrations. Each migration is plain SQL that both SQLite and PostgreSQL accept
//! (TEXT, BIGINT, INTEGER, BOOLEAN; times are BIGINT milliseconds since the epoch), so one
//! file describes one change for both backends.

use sea_orm_migration::prelude::*;

mod m0001_foundation;
mod m0002_documents;
mod m0003_webhooks;
mod m0004_sealing;
mod m0005_partial_indexes;

pub struct Migrator;

#[async_trait::async_trait]
impl MigratorTrait for Migrator {
    fn migrations() -> Vec<Box<dyn MigrationTrait>> {
        vec![
            Box::new(m0001_foundation::Migration),
            Box::new(m0002_documents::Migration),
            Box::new(m0003_webhooks::Migration),
            Box::new(m0004_sealing::Migration),
            Box::new(m0005_partial_indexes::Migration),
        ]
    }
}

/// Runs each `;`-separated statement of `sql` in order.
pub(crate) async fn run_sql(manager: &SchemaManager<'_>, sql: &str) -> Result<(), DbErr> {
    let conn = manager.get_connection();
    for stmt in sql.split(';').map(str::trim).filter(|s| !s.is_empty()) {
        conn.execute_unprepared(stmt).await?;
    }
    Ok(())
}
