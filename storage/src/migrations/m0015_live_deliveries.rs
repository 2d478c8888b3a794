// The deliveries still to make (`pending`, or `sending` under a lease), by when they are due:
// the deliverer asks twenty times a second whether one is due and leases the due ones in
// order. Through `webhook_messages_due (state, next_attempt_at)` PostgreSQL answered "any due?"
// with a sequential scan of every message kept (30 days of delivered ones) once an analyze
// had sampled a backlog; this index holds the live ones only, in the order both questions ask.
const UP: &str = r#"
CREATE INDEX webhook_messages_live ON webhook_messages (next_attempt_at) WHERE state IN ('pending', 'sending')
"#;

const DOWN: &str = r#"
DROP INDEX webhook_messages_live
"#;

plain_sql!("m0015_live_deliveries", UP, DOWN);
