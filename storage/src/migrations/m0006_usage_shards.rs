// A usage counter may be spread over several rows, its shards, and is read as their sum. On
// PostgreSQL every send of a workspace added one to the same row, and a row lock is held
// until COMMIT: 256 concurrent create+sends queued on that one row, 37 ms a statement on
// average, and a workspace could not send more than about 700 documents a second
// (bench/RESULTS.md). A send whose plan has no monthly allowance now adds to one
// of 64 shards; a send that must check the allowance still adds to shard 0 and reads the sum
// back under that row's lock, so of sends racing for the month's last document exactly one
// commits, as before.
//
// The primary key gains the shard, which SQLite cannot change in place: the table is made
// again, the counts copied as shard 0, the old table dropped and the new one renamed. It runs
// in one transaction on one connection on both backends, so a failure leaves the old table,
// and no statement meets another pooled connection's cached schema (see m0005).
const UP: &str = r#"
CREATE TABLE usage_counters_sharded (
    workspace_id TEXT NOT NULL REFERENCES workspaces(id),
    metric TEXT NOT NULL,
    period TEXT NOT NULL,
    shard INTEGER NOT NULL,
    count BIGINT NOT NULL,
    PRIMARY KEY (workspace_id, metric, period, shard)
);
INSERT INTO usage_counters_sharded (workspace_id, metric, period, shard, count)
    SELECT workspace_id, metric, period, 0, count FROM usage_counters;
DROP TABLE usage_counters;
ALTER TABLE usage_counters_sharded RENAME TO usage_counters
"#;

// Back to one row per counter, each the sum of its shards.
const DOWN: &str = r#"
CREATE TABLE usage_counters_single (
    workspace_id TEXT NOT NULL REFERENCES workspaces(id),
    metric TEXT NOT NULL,
    period TEXT NOT NULL,
    count BIGINT NOT NULL,
    PRIMARY KEY (workspace_id, metric, period)
);
INSERT INTO usage_counters_single (workspace_id, metric, period, count)
    SELECT workspace_id, metric, period, SUM(count) FROM usage_counters
    GROUP BY workspace_id, metric, period;
DROP TABLE usage_counters;
ALTER TABLE usage_counters_single RENAME TO usage_counters
"#;

plain_sql!("m0006_usage_shards", UP, DOWN, in_one_transaction);
