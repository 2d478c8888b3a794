//! The embedded database's own upkeep: what a long-running `signet serve` relies on without
//! seeing it.

use signet_storage::db::Db;
use signet_storage::sea_orm::ConnectionTrait;

/// The writer connection runs its own checkpoints (SQLite's are off on it): the write-ahead
/// log must still be copied into the database and start over, or it would grow without end
/// under a steady stream of commits, and every read would search a longer log.
#[tokio::test]
async fn the_write_ahead_log_is_checkpointed_and_starts_over_under_steady_writes() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("w.db");
    let url = format!("sqlite:{}", file.display());
    let db = Db::connect(&url).await.unwrap();
    db.write(db.stmt(
        "CREATE TABLE t (id INTEGER PRIMARY KEY, b BLOB NOT NULL)",
        [],
    ))
    .await
    .unwrap();
    // Each commit writes three 4 KB pages (the row's, the root's, the header's): 8,000
    // commits would leave 24,000 frames, about 100 MB, in a log never checkpointed. A
    // checkpoint comes 10 ms after the last at the soonest (100 ms when the next write is
    // already queued), so the log may run to a few thousand frames before it starts over.
    const ROWS: i64 = 8_000;
    for i in 0..ROWS {
        db.write(db.stmt(
            "INSERT INTO t (id, b) VALUES ($1, randomblob(3000))",
            [i.into()],
        ))
        .await
        .unwrap();
    }
    let wal = std::fs::metadata(dir.path().join("w.db-wal"))
        .unwrap()
        .len();
    let frame = 4096 + 24;
    assert!(
        wal < 6_000 * frame,
        "the log holds {} frames' worth after {ROWS} commits: it is not starting over",
        wal / frame
    );
    let main = std::fs::metadata(&file).unwrap().len();
    assert!(
        main > 16_000_000,
        "only {main} bytes reached the database file: checkpoints are not copying the log"
    );
    drop(db);
    // Everything committed is there for the next process.
    let db = Db::connect(&url).await.unwrap();
    let row = db
        .conn
        .query_one_raw(db.stmt("SELECT count(*) AS n FROM t", []))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(row.try_get::<i64>("", "n").unwrap(), ROWS);
}

/// The documents table's sweep and lookup indexes hold only the rows they are read for
/// (signed documents, set external ids, set expiry and reminder times), and the queries that
/// read them still use them. SQLite plans without statistics: a partial index is used only
/// when the query's own conditions imply the index's.
#[tokio::test]
async fn partial_document_indexes_still_serve_their_queries() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite:{}", dir.path().join("p.db").display());
    Db::connect(&url).await.unwrap().migrate().await.unwrap();
    // A fresh pool: EXPLAIN compiles against a connection's cached schema without checking
    // it, and a pooled connection that ran an earlier migration step may hold an old one.
    let db = Db::connect(&url).await.unwrap();
    let plan = |sql: &'static str, n: usize| {
        let db = &db;
        async move {
            let values: Vec<signet_storage::sea_orm::Value> =
                (0..n).map(|i| (i as i64).into()).collect();
            db.conn
                .query_all_raw(db.stmt(&format!("EXPLAIN QUERY PLAN {sql}"), values))
                .await
                .unwrap()
                .iter()
                .map(|r| r.try_get::<String>("", "detail").unwrap())
                .collect::<Vec<_>>()
                .join("; ")
        }
    };
    for (sql, n, index) in [
        // The sealing sweep (resolvers/src/documents/seal.rs).
        (
            "SELECT d.id FROM documents d WHERE d.state = 'signed' AND d.updated_at < $1 \
             AND NOT EXISTS (SELECT 1 FROM people p WHERE p.document_id = d.id AND p.action <> 'cc' AND p.status <> 'signed') \
             AND NOT EXISTS (SELECT 1 FROM outbox o WHERE o.document_id = d.id AND o.kind = 'seal' AND o.state IN ('queued', 'running', 'failed')) \
             LIMIT 100",
            1,
            "documents_signed_at",
        ),
        // The scheduler (resolvers/src/documents/ending.rs).
        (
            "SELECT id FROM documents WHERE expires_at <= $1 AND state IN ('sent', 'opened', 'signed') LIMIT 200",
            1,
            "documents_expiring",
        ),
        (
            "SELECT id FROM documents WHERE next_reminder_at <= $1 AND state IN ('sent', 'opened', 'signed') LIMIT 200",
            1,
            "documents_reminding",
        ),
        // GET /documents?externalId= (resolvers/src/documents/mod.rs).
        (
            "SELECT id FROM documents WHERE workspace_id = $1 AND test = $2 AND external_id = $3",
            3,
            "documents_external_id",
        ),
    ] {
        let steps = plan(sql, n).await;
        assert!(steps.contains(index), "{sql}: {steps}");
    }
    let indexes: Vec<(String, String)> = db
        .conn
        .query_all_raw(db.stmt(
            "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'documents' AND sql IS NOT NULL ORDER BY name",
            [],
        ))
        .await
        .unwrap()
        .iter()
        .map(|r| (r.try_get("", "name").unwrap(), r.try_get("", "sql").unwrap()))
        .collect();
    let partial: Vec<&str> = indexes
        .iter()
        .filter(|(_, sql)| sql.contains(" WHERE "))
        .map(|(name, _)| name.as_str())
        .collect();
    assert_eq!(
        partial,
        [
            "documents_expiring",
            "documents_external_id",
            "documents_reminding",
            "documents_signed_at"
        ]
    );
    // The whole-table indexes they replace are gone.
    for old in [
        "documents_signed",
        "documents_external",
        "documents_expiry",
        "documents_reminders",
    ] {
        assert!(indexes.iter().all(|(name, _)| name != old), "{indexes:?}");
    }
}

/// m0006 rebuilds five tables as WITHOUT ROWID tables on an existing database: every row
/// comes through, the indexes are made again, and going back down restores rowid tables with
/// the same rows.
#[tokio::test]
async fn the_rebuilt_tables_keep_every_row_both_ways() {
    use signet_storage::migrations::Migrator;
    use signet_storage::sea_orm_migration::MigratorTrait;

    const TABLES: [&str; 5] = [
        "people",
        "fields",
        "audit_events",
        "outbox",
        "document_metadata",
    ];
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite:{}", dir.path().join("m.db").display());
    let db = Db::connect(&url).await.unwrap();
    Migrator::up(&db.conn, Some(5)).await.unwrap();
    for sql in [
        "INSERT INTO workspaces (id, name, plan, time_zone, created_at) VALUES ('ws_1', 'W', 'pro', 'UTC', 1)",
        "INSERT INTO documents (id, workspace_id, test, state, title, metadata, source, facts, variable_values, \
         paper, profile, email_options, send_options, created_by, created_at, updated_at) \
         VALUES ('doc_1', 'ws_1', FALSE, 'sent', 'T', '{}', '{}', '{}', '{}', 'a4', 'contract', '{}', '{}', 'key_1', 1, 1)",
        "INSERT INTO people (id, document_id, position, seat, name, email, metadata, action, sign_order, status, invited_at, reminders) \
         VALUES ('per_1', 'doc_1', 0, 'client', 'Ada', 'ada@example.com', '{}', 'sign', 1, 'invited', 5, 0), \
                ('per_2', 'doc_1', 1, 'provider', 'Bob', 'bob@example.com', '{}', 'sign', 1, 'waiting', NULL, 0)",
        "INSERT INTO fields (id, document_id, position, seat, name, field_type, required, spec, page, x, y, width, height, value) \
         VALUES ('fld_1', 'doc_1', 0, 'client', 'Signature', 'signature', TRUE, '{}', 1, 72.5, 100, 200, 40, NULL)",
        "INSERT INTO audit_events (document_id, seq, at, event, description, actor, detail, prev_hash, hash) \
         VALUES ('doc_1', 1, 1, 'created', 'd', 'key_1', '{}', 'p', 'h1'), ('doc_1', 2, 2, 'sent', 'd', 'key_1', '{}', 'h1', 'h2')",
        "INSERT INTO outbox (id, kind, workspace_id, document_id, test, payload, state, attempts, run_at, created_at) \
         VALUES ('job_1', 'email', 'ws_1', 'doc_1', FALSE, '{\"kind\":\"invitation\"}', 'queued', 0, 3, 1)",
        "INSERT INTO document_metadata (document_id, mkey, mvalue) VALUES ('doc_1', 'crm.deal', '42')",
    ] {
        db.conn.execute_unprepared(sql).await.unwrap();
    }
    let snapshot = |db: Db| async move {
        let mut all = Vec::new();
        for table in TABLES {
            let rows = db
                .conn
                .query_all_raw(db.stmt(
                    &format!("SELECT json_group_array(json(j)) AS a FROM (SELECT json_array({}) AS j FROM {table} ORDER BY 1)",
                        columns(&db, table).await.join(", ")),
                    [],
                ))
                .await
                .unwrap();
            all.push(rows[0].try_get::<String>("", "a").unwrap());
        }
        let schema: Vec<String> = db
            .conn
            .query_all_raw(db.stmt(
                "SELECT sql FROM sqlite_master WHERE tbl_name IN ('people', 'fields', 'audit_events', 'outbox', 'document_metadata') \
                 AND sql IS NOT NULL ORDER BY name",
                [],
            ))
            .await
            .unwrap()
            .iter()
            .map(|r| r.try_get("", "sql").unwrap())
            .collect();
        (all, schema)
    };
    let (before, old_schema) = snapshot(Db::connect(&url).await.unwrap()).await;
    assert!(before.iter().all(|rows| rows != "[]"), "{before:?}");
    Migrator::up(&db.conn, None).await.unwrap();
    // A fresh pool each time: a pooled connection may hold the schema from before.
    let (after, new_schema) = snapshot(Db::connect(&url).await.unwrap()).await;
    assert_eq!(after, before);
    for table in TABLES {
        let made = new_schema
            .iter()
            .find(|sql| {
                sql.starts_with(&format!("CREATE TABLE {table} "))
                    || sql.starts_with(&format!("CREATE TABLE \"{table}\""))
            })
            .unwrap_or_else(|| panic!("{table}: {new_schema:?}"));
        assert!(made.ends_with("WITHOUT ROWID"), "{made}");
    }
    for index in [
        "fields_document",
        "outbox_due",
        "outbox_document",
        "document_metadata_pair",
    ] {
        assert!(
            new_schema
                .iter()
                .any(|sql| sql.starts_with(&format!("CREATE INDEX {index} "))),
            "{index}: {new_schema:?}"
        );
    }
    // The foreign keys still hold: a document's people go with it.
    let fresh = Db::connect(&url).await.unwrap();
    fresh
        .conn
        .execute_unprepared("INSERT INTO documents (id, workspace_id, test, state, title, metadata, source, facts, variable_values, \
         paper, profile, email_options, send_options, created_by, created_at, updated_at) \
         VALUES ('doc_2', 'ws_1', FALSE, 'draft', 'T', '{}', '{}', '{}', '{}', 'a4', 'contract', '{}', '{}', 'key_1', 1, 1)")
        .await
        .unwrap();
    let orphan = fresh
        .conn
        .execute_unprepared("INSERT INTO people (id, document_id, position, seat, name, email, metadata, action, sign_order, status, reminders) \
         VALUES ('per_9', 'doc_nope', 0, 'x', 'X', 'x@example.com', '{}', 'sign', 1, 'waiting', 0)")
        .await;
    assert!(orphan.is_err(), "a person of no document was stored");
    fresh
        .conn
        .execute_unprepared("INSERT INTO people (id, document_id, position, seat, name, email, metadata, action, sign_order, status, reminders) \
         VALUES ('per_3', 'doc_2', 0, 'x', 'X', 'x@example.com', '{}', 'sign', 1, 'waiting', 0)")
        .await
        .unwrap();
    fresh
        .conn
        .execute_unprepared("DELETE FROM documents WHERE id = 'doc_2'")
        .await
        .unwrap();
    Migrator::down(&fresh.conn, Some(1)).await.unwrap();
    let (back, back_schema) = snapshot(Db::connect(&url).await.unwrap()).await;
    assert_eq!(
        back, before,
        "per_3 went with its document; the rest came back down"
    );
    assert_eq!(back_schema.len(), old_schema.len(), "{back_schema:?}");
    assert!(
        back_schema.iter().all(|sql| !sql.contains("WITHOUT ROWID")),
        "{back_schema:?}"
    );
}

/// A table's column names, in order.
async fn columns(db: &Db, table: &str) -> Vec<String> {
    db.conn
        .query_all_raw(db.stmt(
            &format!("SELECT name FROM pragma_table_info('{table}') ORDER BY cid"),
            [],
        ))
        .await
        .unwrap()
        .iter()
        .map(|r| r.try_get("", "name").unwrap())
        .collect()
}
