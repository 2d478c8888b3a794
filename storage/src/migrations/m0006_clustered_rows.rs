// On SQLite, five tables a create+send writes become WITHOUT ROWID tables, stored in their
// primary key's order. A rowid table with a TEXT primary key is two b-trees, the rows by
// rowid and a separate index from key to rowid, so each insert wrote both; now the key's
// b-tree holds the row. A create+send inserts 12 rows into these tables (two people, five
// fields, five audit rows, four outbox jobs, a metadata pair in the bench), and each commit
// of the one writer thread writes a page fewer per table (bench/RESULTS.md, session 9).
// Every row here is small (at most about a kilobyte), which is where SQLite's guidance has
// WITHOUT ROWID pay off.
//
// SQLite cannot change a table's storage in place: each table is rebuilt, rows copied, the
// old one dropped and the new one renamed, and its indexes made again. All of it runs in one
// transaction on one connection, so a failure leaves the old tables as they were, and no
// statement meets another pooled connection's cached schema (see m0005). PostgreSQL has no
// rowid: nothing changes there.
use sea_orm_migration::prelude::*;

pub struct Migration;

impl MigrationName for Migration {
    fn name(&self) -> &str {
        "m0006_clustered_rows"
    }
}

/// Each table: its name, its columns and constraints as made before (m0002, m0004), and its
/// indexes besides the primary key.
const TABLES: &[(&str, &str, &[&str])] = &[
    (
        "people",
        "id TEXT NOT NULL PRIMARY KEY,
    document_id TEXT NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    seat TEXT NOT NULL,
    name TEXT NOT NULL,
    email TEXT NOT NULL,
    external_id TEXT,
    metadata TEXT NOT NULL,
    action TEXT NOT NULL,
    sign_order INTEGER NOT NULL,
    status TEXT NOT NULL,
    invited_at BIGINT,
    opened_at BIGINT,
    completed_at BIGINT,
    declined_at BIGINT,
    decline_reason TEXT,
    last_reminded_at BIGINT,
    reminders INTEGER NOT NULL,
    UNIQUE (document_id, seat)",
        &[],
    ),
    (
        "fields",
        "id TEXT NOT NULL PRIMARY KEY,
    document_id TEXT NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    seat TEXT NOT NULL,
    name TEXT NOT NULL,
    field_type TEXT NOT NULL,
    required BOOLEAN NOT NULL,
    spec TEXT NOT NULL,
    page INTEGER NOT NULL,
    x DOUBLE PRECISION NOT NULL,
    y DOUBLE PRECISION NOT NULL,
    width DOUBLE PRECISION NOT NULL,
    height DOUBLE PRECISION NOT NULL,
    value TEXT",
        &["CREATE INDEX fields_document ON fields (document_id, position)"],
    ),
    (
        "audit_events",
        "document_id TEXT NOT NULL,
    seq BIGINT NOT NULL,
    at BIGINT NOT NULL,
    event TEXT NOT NULL,
    description TEXT NOT NULL,
    seat TEXT,
    actor TEXT NOT NULL,
    detail TEXT NOT NULL,
    prev_hash TEXT NOT NULL,
    hash TEXT NOT NULL,
    PRIMARY KEY (document_id, seq)",
        &[],
    ),
    (
        "outbox",
        "id TEXT NOT NULL PRIMARY KEY,
    kind TEXT NOT NULL,
    workspace_id TEXT NOT NULL,
    document_id TEXT,
    test BOOLEAN NOT NULL,
    payload TEXT NOT NULL,
    state TEXT NOT NULL,
    attempts INTEGER NOT NULL,
    run_at BIGINT NOT NULL,
    created_at BIGINT NOT NULL",
        &[
            "CREATE INDEX outbox_due ON outbox (state, kind, run_at)",
            "CREATE INDEX outbox_document ON outbox (document_id)",
        ],
    ),
    (
        "document_metadata",
        "document_id TEXT NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
    mkey TEXT NOT NULL,
    mvalue TEXT NOT NULL,
    PRIMARY KEY (document_id, mkey)",
        &["CREATE INDEX document_metadata_pair ON document_metadata (mkey, mvalue)"],
    ),
];

/// Rebuilds every table of `TABLES`, as WITHOUT ROWID tables (`clustered`) or back as rowid
/// tables, inside the migration's transaction.
async fn rebuild(manager: &SchemaManager<'_>, clustered: bool) -> Result<(), DbErr> {
    if manager.get_database_backend() != sea_orm::DbBackend::Sqlite {
        return Ok(());
    }
    let conn = manager.get_connection();
    let storage = if clustered { " WITHOUT ROWID" } else { "" };
    for (table, columns, indexes) in TABLES {
        // A table keeps its columns' names and order, so `SELECT *` copies it.
        for sql in [
            format!("CREATE TABLE {table}_rebuilt (\n    {columns}\n){storage}"),
            format!("INSERT INTO {table}_rebuilt SELECT * FROM {table}"),
            format!("DROP TABLE {table}"),
            format!("ALTER TABLE {table}_rebuilt RENAME TO {table}"),
        ] {
            conn.execute_unprepared(&sql).await?;
        }
        for index in *indexes {
            conn.execute_unprepared(index).await?;
        }
    }
    Ok(())
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    /// The rebuild is one transaction on SQLite too (sea-orm's default there is none).
    fn use_transaction(&self) -> Option<bool> {
        Some(true)
    }

    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        rebuild(manager, true).await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        rebuild(manager, false).await
    }
}
