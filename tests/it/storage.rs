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
        // The sealing sweep (resolvers/documents/src/seal.rs).
        (
            "SELECT d.id FROM documents d WHERE d.state = 'signed' AND d.updated_at < $1 \
             AND NOT EXISTS (SELECT 1 FROM people p WHERE p.document_id = d.id AND p.action <> 'cc' AND p.status <> 'signed') \
             AND NOT EXISTS (SELECT 1 FROM outbox o WHERE o.document_id = d.id AND o.kind = 'seal' AND o.state IN ('queued', 'running', 'failed')) \
             LIMIT 100",
            1,
            "documents_signed_at",
        ),
        // The scheduler (resolvers/documents/src/ending.rs).
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
        // GET /documents?externalId= (resolvers/documents/src/lib.rs).
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

/// A blob is written whole under its key, in folders it makes, and leaves no temporary file
/// behind; a second write of the key replaces it; a key that would leave the store, or a
/// folder that cannot be made, is refused without writing anything.
#[tokio::test]
async fn blobs_are_written_whole_and_leave_nothing_behind() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("blobs");
    let blobs = signet_storage::Blobs::local(root.clone());
    let pdf = b"%PDF-1.7 a rendered document".repeat(1000);
    blobs
        .put("documents/doc_1/a.pdf", pdf.clone())
        .await
        .unwrap();
    assert_eq!(
        blobs.get("documents/doc_1/a.pdf").await.unwrap().unwrap(),
        pdf
    );
    blobs.put_sync("documents/doc_1/a.pdf", b"second").unwrap();
    assert_eq!(
        blobs.get("documents/doc_1/a.pdf").await.unwrap().unwrap(),
        b"second"
    );
    let names: Vec<_> = std::fs::read_dir(root.join("documents/doc_1"))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert_eq!(names, ["a.pdf"]);

    for bad in ["../escape.pdf", "/abs.pdf", "documents//x.pdf", ""] {
        assert!(
            blobs.put(bad, b"x".to_vec()).await.is_err(),
            "{bad:?} was accepted"
        );
    }
    assert!(!dir.path().join("escape.pdf").exists());
    // A file where a folder should be: the write fails and leaves nothing.
    std::fs::write(root.join("documents/plain"), b"not a folder").unwrap();
    let err = blobs
        .put("documents/plain/b.pdf", b"x".to_vec())
        .await
        .unwrap_err();
    assert!(err.to_string().contains("documents/plain/b.pdf"), "{err}");
    assert_eq!(
        std::fs::read(root.join("documents/plain")).unwrap(),
        b"not a folder"
    );
    let mut files = Vec::new();
    let mut dirs = vec![root.clone()];
    while let Some(d) = dirs.pop() {
        for e in std::fs::read_dir(d).unwrap() {
            let e = e.unwrap();
            if e.file_type().unwrap().is_dir() {
                dirs.push(e.path());
            } else {
                files.push(e.path().strip_prefix(&root).unwrap().to_path_buf());
            }
        }
    }
    files.sort();
    let expected: Vec<std::path::PathBuf> = ["documents/doc_1/a.pdf", "documents/plain"]
        .iter()
        .map(Into::into)
        .collect();
    assert_eq!(files, expected);
}

/// m0006 spreads a usage counter over shards: on an existing database every count comes
/// through as it was, a shard added to is summed with the rest, and going back down folds the
/// shards into one row per counter. On both backends: the table is made again inside one
/// transaction.
async fn shard_migration_round_trip(url: &str) {
    use signet_storage::migrations::Migrator;
    use signet_storage::sea_orm_migration::MigratorTrait;

    let db = Db::connect(url).await.unwrap();
    Migrator::up(&db.conn, Some(5)).await.unwrap();
    for sql in [
        "INSERT INTO workspaces (id, name, plan, time_zone, created_at) VALUES ('ws_1', 'W', 'pro', 'UTC', 1)",
        "INSERT INTO usage_counters (workspace_id, metric, period, count) VALUES \
         ('ws_1', 'documents_sent', '2026-11', 41), ('ws_1', 'emails_sent', '2026-11-23', 7)",
    ] {
        db.conn.execute_unprepared(sql).await.unwrap();
    }
    let keys = [("documents_sent", "2026-11"), ("emails_sent", "2026-11-23")];
    Migrator::up(&db.conn, None).await.unwrap();
    // A fresh pool each time: a pooled connection may hold the schema from before.
    let db = Db::connect(url).await.unwrap();
    assert_eq!(db.usage_counts("ws_1", &keys).await.unwrap(), [41, 7]);
    db.conn
        .execute_unprepared(
            "INSERT INTO usage_counters (workspace_id, metric, period, shard, count) \
             VALUES ('ws_1', 'documents_sent', '2026-11', 9, 2)",
        )
        .await
        .unwrap();
    assert_eq!(db.usage_counts("ws_1", &keys).await.unwrap(), [43, 7]);
    let shards = db
        .conn
        .query_all_raw(db.stmt(
            "SELECT shard FROM usage_counters WHERE metric = 'documents_sent' ORDER BY shard",
            [],
        ))
        .await
        .unwrap();
    let shards: Vec<i32> = shards
        .iter()
        .map(|r| r.try_get("", "shard").unwrap())
        .collect();
    assert_eq!(shards, [0, 9]);

    // Back past the later migrations and the shard migration itself.
    let later = Migrator::migrations().len() as u32 - 6;
    Migrator::down(&db.conn, Some(later + 1)).await.unwrap();
    let db = Db::connect(url).await.unwrap();
    let rows = db
        .conn
        .query_all_raw(db.stmt(
            "SELECT metric, count FROM usage_counters ORDER BY metric",
            [],
        ))
        .await
        .unwrap();
    let rows: Vec<(String, i64)> = rows
        .iter()
        .map(|r| {
            (
                r.try_get("", "metric").unwrap(),
                r.try_get("", "count").unwrap(),
            )
        })
        .collect();
    assert_eq!(
        rows,
        [
            ("documents_sent".to_string(), 43),
            ("emails_sent".to_string(), 7)
        ]
    );
    // And up again: the names the first round left do not collide.
    Migrator::up(&db.conn, None).await.unwrap();
    let db = Db::connect(url).await.unwrap();
    assert_eq!(db.usage_counts("ws_1", &keys).await.unwrap(), [43, 7]);
}

#[tokio::test]
async fn usage_counters_keep_their_counts_through_the_shard_migration_sqlite() {
    let dir = tempfile::tempdir().unwrap();
    shard_migration_round_trip(&format!("sqlite:{}", dir.path().join("m.db").display())).await;
}

#[tokio::test]
async fn usage_counters_keep_their_counts_through_the_shard_migration_postgres() {
    let Some(ext) = crate::servers::external() else {
        return;
    };
    shard_migration_round_trip(&ext.fresh_database().await).await;
}

/// A PostgreSQL transaction holds deferred writes and sends them as one statement, beginning
/// only when a statement cannot wait: what it holds must still commit whole or not at all,
/// be seen by its own later reads, and a failed statement must never end in a reported
/// commit, even when the body carries on and answers `Ok`.
#[tokio::test]
async fn postgres_transactions_commit_held_writes_whole_or_not_at_all() {
    use signet_storage::Sql;
    use signet_storage::db::StorageError;
    let Some(ext) = crate::servers::external() else {
        return;
    };
    let db = Db::connect(&ext.fresh_database().await).await.unwrap();
    db.migrate().await.unwrap();
    let ws = |db: &Db, id: &str| {
        db.stmt(
            "INSERT INTO workspaces (id, name, plan, time_zone, created_at) VALUES ($1, 'W', 'pro', 'UTC', 1)",
            [id.into()],
        )
    };
    let counter = |db: &Db, id: &str| {
        db.stmt(
            "INSERT INTO usage_counters (workspace_id, metric, period, shard, count) \
             VALUES ($1, 'documents_sent', '2026-11', 0, 1)",
            [id.into()],
        )
    };
    let exists = |db: Db, ids: &'static [&'static str]| async move {
        let mut out = Vec::new();
        for id in ids {
            let n = db
                .conn
                .query_all_raw(db.stmt("SELECT id FROM workspaces WHERE id = $1", [(*id).into()]))
                .await
                .unwrap()
                .len();
            out.push(n == 1);
        }
        out
    };

    // Never begun: a workspace and a counter that needs it, sent as one statement at the end.
    let (a, b) = (ws(&db, "ws_a"), counter(&db, "ws_a"));
    db.transaction(move |t| async move {
        t.exec_deferred(a).await?;
        t.exec_deferred(b).await?;
        Ok::<_, StorageError>(())
    })
    .await
    .unwrap();
    assert_eq!(
        db.usage_counts("ws_a", &[("documents_sent", "2026-11")])
            .await
            .unwrap(),
        [1]
    );

    // The same text twice sends the first before holding the second: two upserts of one
    // row in one statement would fail ("cannot affect row a second time"). A read sees all.
    let upsert = |db: &Db| {
        db.stmt(
            "INSERT INTO usage_counters (workspace_id, metric, period, shard, count) \
             VALUES ($1, 'documents_sent', '2026-11', 0, 1) \
             ON CONFLICT (workspace_id, metric, period, shard) DO UPDATE SET count = usage_counters.count + 1",
            ["ws_a".into()],
        )
    };
    let (u1, u2) = (upsert(&db), upsert(&db));
    let (b1, b2, c) = (ws(&db, "ws_b"), ws(&db, "ws_c"), db.clone());
    let seen = db
        .transaction(move |t| async move {
            t.exec_deferred(u1).await?;
            t.exec_deferred(u2).await?;
            t.exec_deferred(b1).await?;
            t.exec_deferred(b2).await?;
            let rows = t
                .rows(c.stmt("SELECT id FROM workspaces WHERE id IN ('ws_b', 'ws_c')", []))
                .await?;
            Ok::<_, StorageError>(rows.len())
        })
        .await
        .unwrap();
    assert_eq!(seen, 2);
    assert_eq!(exists(db.clone(), &["ws_b", "ws_c"]).await, [true, true]);
    assert_eq!(
        db.usage_counts("ws_a", &[("documents_sent", "2026-11")])
            .await
            .unwrap(),
        [3]
    );

    // One held write fails (ws_a exists): the other is not committed, begun or not.
    for begin_first in [false, true] {
        let (d, again, c) = (ws(&db, "ws_d"), counter(&db, "ws_a"), db.clone());
        let out = db
            .transaction(move |t| async move {
                if begin_first {
                    t.rows(c.stmt("SELECT 1 AS one", [])).await?;
                }
                t.exec_deferred(d).await?;
                t.exec_deferred(again).await?;
                Ok::<_, StorageError>(())
            })
            .await;
        let err = out
            .expect_err("a duplicate key must fail the transaction")
            .to_string();
        assert!(err.contains("duplicate key"), "{err}");
        assert_eq!(
            exists(db.clone(), &["ws_d"]).await,
            [false],
            "begun first: {begin_first}"
        );
    }

    // A body that meets an error, carries on and answers Ok is told nothing committed.
    let (e, dup, c) = (ws(&db, "ws_e"), ws(&db, "ws_a"), db.clone());
    let out = db
        .transaction(move |t| async move {
            t.exec_deferred(e).await?;
            let failed = t.exec(dup).await;
            assert!(failed.is_err());
            let _ = t.rows(c.stmt("SELECT 1 AS one", [])).await;
            Ok::<_, StorageError>(())
        })
        .await;
    assert!(
        out.is_err(),
        "a transaction with a failed statement reported a commit"
    );
    assert_eq!(exists(db.clone(), &["ws_e"]).await, [false]);
}

/// The bucket keeps blobs as the folder does: a blob reads back whole, a second write
/// replaces it, a folder lists the keys directly in it (sorted, not those further down), a
/// missing blob reads as none and deleting it is no error, and a key that would leave the
/// prefix is refused. Wrong credentials, or a bucket that does not exist, fail the check.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bucket_keeps_blobs_as_the_folder_does() {
    use signet_storage::blobs::BucketSettings;
    let Some(ext) = crate::servers::external() else {
        return;
    };
    let prefix = signet_core::ids::new_id("b").to_lowercase();
    let settings = BucketSettings {
        url: format!("s3://{}/{prefix}/", ext.s3.bucket),
        endpoint: Some(ext.s3.endpoint.clone()),
        region: Some("us-east-1".into()),
        access_key_id: Some(ext.s3.access_key_id.into()),
        secret_access_key: Some(ext.s3.secret_access_key.into()),
    };
    let blobs = signet_storage::Blobs::bucket(&settings).unwrap();
    assert_eq!(blobs.describe(), format!("s3://{}/{prefix}", ext.s3.bucket));
    blobs.check().await.unwrap();
    let pdf = b"%PDF-1.7 a sealed document".repeat(40_000);
    blobs
        .put("documents/doc_1/a.pdf", pdf.clone())
        .await
        .unwrap();
    blobs
        .put("documents/doc_1/b.pdf", b"b".to_vec())
        .await
        .unwrap();
    blobs
        .put("documents/doc_1/deeper/c.pdf", b"c".to_vec())
        .await
        .unwrap();
    blobs
        .put("documents/doc_10/a.pdf", b"x".to_vec())
        .await
        .unwrap();
    assert_eq!(
        blobs.get("documents/doc_1/a.pdf").await.unwrap().unwrap(),
        pdf
    );
    blobs
        .put("documents/doc_1/a.pdf", b"second".to_vec())
        .await
        .unwrap();
    assert_eq!(
        blobs.get("documents/doc_1/a.pdf").await.unwrap().unwrap(),
        b"second"
    );
    assert_eq!(
        blobs.list("documents/doc_1").await.unwrap(),
        ["documents/doc_1/a.pdf", "documents/doc_1/b.pdf"]
    );
    assert!(blobs.list("documents/none").await.unwrap().is_empty());
    assert_eq!(blobs.get("documents/doc_1/none.pdf").await.unwrap(), None);
    blobs.delete("documents/doc_1/b.pdf").await.unwrap();
    blobs.delete("documents/doc_1/b.pdf").await.unwrap();
    assert_eq!(blobs.get("documents/doc_1/b.pdf").await.unwrap(), None);
    for bad in ["../escape.pdf", "/abs.pdf", "documents//x.pdf", ""] {
        assert!(
            blobs.put(bad, b"x".to_vec()).await.is_err(),
            "{bad:?} was accepted"
        );
    }
    // Another prefix of the same bucket sees none of it.
    let other = signet_storage::Blobs::bucket(&BucketSettings {
        url: format!("s3://{}/{prefix}-other", ext.s3.bucket),
        ..settings.clone()
    })
    .unwrap();
    assert_eq!(other.get("documents/doc_1/a.pdf").await.unwrap(), None);

    let refused = signet_storage::Blobs::bucket(&BucketSettings {
        secret_access_key: Some("not-the-secret-not-the-secret-00".into()),
        ..settings.clone()
    })
    .unwrap();
    let err = refused.check().await.unwrap_err().to_string();
    assert!(err.starts_with("file store: s3://"), "{err}");
    assert!(refused.get("documents/doc_1/a.pdf").await.is_err());
    let missing = signet_storage::Blobs::bucket(&BucketSettings {
        url: "s3://no-such-bucket-here".into(),
        ..settings.clone()
    })
    .unwrap();
    assert!(missing.check().await.is_err());
    for bad in ["bucket", "s3://", "s3://b/../x", "https://b"] {
        assert!(
            signet_storage::Blobs::bucket(&BucketSettings {
                url: bad.into(),
                ..settings.clone()
            })
            .is_err(),
            "{bad}"
        );
    }
}
