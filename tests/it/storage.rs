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
