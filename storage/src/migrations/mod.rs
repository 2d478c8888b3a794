//! Schema migrations. Each migration is plain SQL that both SQLite and PostgreSQL accept
//! (TEXT, BIGINT, INTEGER, BOOLEAN; times are BIGINT milliseconds since the epoch), so one
//! file describes one change for both backends.

use sea_orm_migration::prelude::*;

/// A migration that is plain SQL both ways: `$up` applies it, `$down` undoes it. With
/// `in_one_transaction` it runs in one transaction on SQLite too (PostgreSQL always does),
/// which a table made again needs.
macro_rules! plain_sql {
    ($name:literal, $up:expr, $down:expr, in_one_transaction) => {
        plain_sql!(@define $name, $up, $down, Some(true));
    };
    ($name:literal, $up:expr, $down:expr) => {
        plain_sql!(@define $name, $up, $down, None);
    };
    (@define $name:literal, $up:expr, $down:expr, $transaction:expr) => {
        pub struct Migration;

        impl sea_orm_migration::prelude::MigrationName for Migration {
            fn name(&self) -> &str {
                $name
            }
        }

        #[async_trait::async_trait]
        impl sea_orm_migration::prelude::MigrationTrait for Migration {
            async fn up(
                &self,
                manager: &sea_orm_migration::prelude::SchemaManager,
            ) -> Result<(), sea_orm_migration::prelude::DbErr> {
                $crate::migrations::run_sql(manager, $up).await
            }

            async fn down(
                &self,
                manager: &sea_orm_migration::prelude::SchemaManager,
            ) -> Result<(), sea_orm_migration::prelude::DbErr> {
                $crate::migrations::run_sql(manager, $down).await
            }

            fn use_transaction(&self) -> Option<bool> {
                $transaction
            }
        }
    };
}

mod m0001_foundation;
mod m0002_documents;
mod m0003_webhooks;
mod m0004_sealing;
mod m0005_partial_indexes;
mod m0006_usage_shards;
mod m0007_purge_indexes;
mod m0008_email;
mod m0009_identity;
mod m0010_embedding;
mod m0011_templates;
mod m0012_template_pages;
mod m0013_field_areas;
mod m0014_outbox_purge;
mod m0015_live_deliveries;
mod m0016_people;
mod m0017_people_passkeys;
mod m0018_workspace_settings;
mod m0019_plays;
mod m0020_ai_jobs;
mod m0021_play_tailoring;
mod m0022_frame_sessions;
mod m0023_payments;

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
            Box::new(m0006_usage_shards::Migration),
            Box::new(m0007_purge_indexes::Migration),
            Box::new(m0008_email::Migration),
            Box::new(m0009_identity::Migration),
            Box::new(m0010_embedding::Migration),
            Box::new(m0011_templates::Migration),
            Box::new(m0012_template_pages::Migration),
            Box::new(m0013_field_areas::Migration),
            Box::new(m0014_outbox_purge::Migration),
            Box::new(m0015_live_deliveries::Migration),
            Box::new(m0016_people::Migration),
            Box::new(m0017_people_passkeys::Migration),
            Box::new(m0018_workspace_settings::Migration),
            Box::new(m0019_plays::Migration),
            Box::new(m0020_ai_jobs::Migration),
            Box::new(m0021_play_tailoring::Migration),
            Box::new(m0022_frame_sessions::Migration),
            Box::new(m0023_payments::Migration),
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
