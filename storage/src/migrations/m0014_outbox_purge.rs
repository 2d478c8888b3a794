// Finished jobs are purged 30 days after they were queued, a batch at a time, oldest first
// (`signet_resolvers::purge`): the index holds the finished ones only, so keeping it costs
// nothing while a job waits or runs. Without the purge the queue's table grew by about five
// rows a document for ever.
const UP: &str = r#"
CREATE INDEX outbox_done_created ON outbox (created_at) WHERE state = 'done'
"#;

const DOWN: &str = r#"
DROP INDEX outbox_done_created
"#;

plain_sql!("m0014_outbox_purge", UP, DOWN);
