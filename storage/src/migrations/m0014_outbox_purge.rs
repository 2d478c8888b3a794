// Finished jobs (done, or withdrawn: `cancelled`) are purged 30 days after they were queued,
// a batch at a time, oldest first (`signet_core::purge::finished_jobs`). Each index holds
// the jobs of its one state, so it costs nothing while a job waits or runs; `state` leads it
// so that SQLite, which keeps no statistics here, takes it over `outbox_due` (equality, range
// and order in one). Without the purge the queue's table grew by about five rows a document
// for ever.
const UP: &str = r#"
CREATE INDEX outbox_done_created ON outbox (state, created_at) WHERE state = 'done';
CREATE INDEX outbox_cancelled_created ON outbox (state, created_at) WHERE state = 'cancelled'
"#;

const DOWN: &str = r#"
DROP INDEX outbox_cancelled_created;
DROP INDEX outbox_done_created
"#;

plain_sql!("m0014_outbox_purge", UP, DOWN);
