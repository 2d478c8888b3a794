const UP: &str = r#"
CREATE TABLE workspaces (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    plan TEXT NOT NULL,
    time_zone TEXT NOT NULL,
    created_at BIGINT NOT NULL
);
CREATE TABLE api_keys (
    id TEXT PRIMARY KEY,
    workspace_id TEXT NOT NULL REFERENCES workspaces(id),
    name TEXT,
    mode TEXT NOT NULL,
    key_hash TEXT NOT NULL UNIQUE,
    hint TEXT NOT NULL,
    scopes TEXT NOT NULL,
    draft_only BOOLEAN NOT NULL,
    daily_limit BIGINT,
    per_minute BIGINT,
    allowed_cidrs TEXT NOT NULL,
    expires_at BIGINT,
    revoked_at BIGINT,
    created_at BIGINT NOT NULL
);
CREATE INDEX api_keys_workspace ON api_keys (workspace_id, id);
CREATE TABLE auth_epoch (
    id INTEGER PRIMARY KEY,
    value BIGINT NOT NULL
);
INSERT INTO auth_epoch (id, value) VALUES (1, 0);
CREATE TABLE api_log (
    id TEXT PRIMARY KEY,
    key_id TEXT,
    workspace_id TEXT,
    method TEXT NOT NULL,
    route TEXT NOT NULL,
    status INTEGER NOT NULL,
    error_kind TEXT,
    duration_us BIGINT NOT NULL,
    client_ip TEXT NOT NULL,
    created_at BIGINT NOT NULL
);
CREATE INDEX api_log_workspace ON api_log (workspace_id, created_at);
CREATE TABLE idempotency (
    scope TEXT NOT NULL,
    idem_key TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    status INTEGER,
    body TEXT,
    locked_until BIGINT NOT NULL,
    expires_at BIGINT NOT NULL,
    PRIMARY KEY (scope, idem_key)
);
CREATE INDEX idempotency_expiry ON idempotency (expires_at);
CREATE TABLE usage_counters (
    workspace_id TEXT NOT NULL REFERENCES workspaces(id),
    metric TEXT NOT NULL,
    period TEXT NOT NULL,
    count BIGINT NOT NULL,
    PRIMARY KEY (workspace_id, metric, period)
);
CREATE TABLE key_daily_counters (
    key_id TEXT NOT NULL REFERENCES api_keys(id),
    day TEXT NOT NULL,
    count BIGINT NOT NULL,
    PRIMARY KEY (key_id, day)
);
CREATE TABLE teams (
    id TEXT PRIMARY KEY,
    workspace_id TEXT NOT NULL REFERENCES workspaces(id),
    name TEXT NOT NULL,
    created_at BIGINT NOT NULL
);
CREATE INDEX teams_workspace ON teams (workspace_id, id);
CREATE TABLE team_members (
    team_id TEXT NOT NULL REFERENCES teams(id),
    email TEXT NOT NULL,
    name TEXT NOT NULL,
    role TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (team_id, email)
)
"#;

const DOWN: &str = r#"
DROP TABLE team_members; DROP TABLE teams; DROP TABLE key_daily_counters;
DROP TABLE usage_counters; DROP TABLE idempotency; DROP TABLE api_log;
DROP TABLE auth_epoch; DROP TABLE api_keys; DROP TABLE workspaces
"#;

plain_sql!("m0001_foundation", UP, DOWN);
