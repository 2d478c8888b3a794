// Webhook endpoints, one message per (event, endpoint), every attempt made to deliver one,
// and the fan-out mark on outbox events. A message is the unit of delivery and of retry: it
// keeps the exact body. A worker leases a message by setting it `sending` with
// `next_attempt_at` at the lease's end, so several workers share the queue and a killed
// worker's messages are due again when the lease runs out. `seq` is
// given under the fan-out lock, so it follows commit order: the relay's cursor never skips a
// message that committed late.
const UP: &str = r#"
CREATE TABLE webhook_endpoints (
    id TEXT PRIMARY KEY,
    workspace_id TEXT NOT NULL REFERENCES workspaces(id),
    test BOOLEAN NOT NULL,
    name TEXT,
    url TEXT,
    relay BOOLEAN NOT NULL,
    event_types TEXT NOT NULL,
    secret TEXT NOT NULL,
    previous_secret TEXT,
    previous_until BIGINT,
    state TEXT NOT NULL,
    disabled_reason TEXT,
    failing_since BIGINT,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);
CREATE INDEX webhook_endpoints_workspace ON webhook_endpoints (workspace_id, test, state, id);
CREATE TABLE webhook_messages (
    id TEXT PRIMARY KEY,
    seq BIGINT NOT NULL,
    endpoint_id TEXT NOT NULL REFERENCES webhook_endpoints(id),
    event_id TEXT NOT NULL,
    topic TEXT NOT NULL,
    payload TEXT NOT NULL,
    state TEXT NOT NULL,
    attempts INTEGER NOT NULL,
    next_attempt_at BIGINT NOT NULL,
    replay BOOLEAN NOT NULL,
    created_at BIGINT NOT NULL,
    finished_at BIGINT
);
CREATE INDEX webhook_messages_due ON webhook_messages (state, next_attempt_at);
CREATE UNIQUE INDEX webhook_messages_seq ON webhook_messages (seq);
CREATE INDEX webhook_messages_endpoint ON webhook_messages (endpoint_id, seq);
CREATE TABLE webhook_attempts (
    id TEXT PRIMARY KEY,
    endpoint_id TEXT NOT NULL,
    message_id TEXT NOT NULL,
    event_id TEXT NOT NULL,
    topic TEXT NOT NULL,
    try_number INTEGER NOT NULL,
    succeeded BOOLEAN NOT NULL,
    response_status INTEGER,
    result TEXT NOT NULL,
    duration_ms BIGINT NOT NULL,
    created_at BIGINT NOT NULL
);
CREATE INDEX webhook_attempts_endpoint ON webhook_attempts (endpoint_id, id)
"#;

const DOWN: &str =
    "DROP TABLE webhook_attempts; DROP TABLE webhook_messages; DROP TABLE webhook_endpoints";

plain_sql!("m0003_webhooks", UP, DOWN);
