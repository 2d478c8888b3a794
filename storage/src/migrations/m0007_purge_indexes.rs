// Old rows are purged in batches of a few thousand, oldest first, so that no purge holds the
// database (SQLite's one writer, PostgreSQL's locks) for long: each batch needs an index on
// the time it is purged by. The API log keeps `api_log_days` (default 30); webhook attempts
// and finished messages 30 days, relay messages a day.
const UP: &str = r#"
CREATE INDEX api_log_created ON api_log (created_at);
CREATE INDEX webhook_attempts_created ON webhook_attempts (created_at);
CREATE INDEX webhook_messages_created ON webhook_messages (created_at)
"#;

const DOWN: &str = r#"
DROP INDEX webhook_messages_created;
DROP INDEX webhook_attempts_created;
DROP INDEX api_log_created
"#;

plain_sql!("m0007_purge_indexes", UP, DOWN);
