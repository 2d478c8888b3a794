// The people of a workspace (docs/decisions/the-application.md): a person is one address
// across the installation; a membership gives them a role in one workspace. Sign-in links and
// sessions keep only keyed hashes of their secrets. `sign_in_counts` counts every request for a
// link, known address or not, an hour at a time, under a keyed hash of the address and under
// the client's address (the `subject`), so that both bounds hold, atomically, without keeping
// addresses nobody owns.
const UP: &str = r#"
CREATE TABLE users (
    id TEXT PRIMARY KEY,
    email TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    language TEXT NOT NULL,
    created_at BIGINT NOT NULL
);
CREATE TABLE members (
    workspace_id TEXT NOT NULL REFERENCES workspaces (id),
    user_id TEXT NOT NULL REFERENCES users (id),
    role TEXT NOT NULL,
    invited_by TEXT,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (workspace_id, user_id)
);
CREATE INDEX members_user ON members (user_id);
CREATE TABLE sign_in_links (
    token_hash TEXT PRIMARY KEY,
    user_id TEXT NOT NULL REFERENCES users (id),
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL,
    used_at BIGINT,
    voided_at BIGINT
);
CREATE INDEX sign_in_links_user ON sign_in_links (user_id, created_at);
CREATE TABLE sign_in_counts (
    subject TEXT NOT NULL,
    hour TEXT NOT NULL,
    count BIGINT NOT NULL,
    PRIMARY KEY (subject, hour)
);
CREATE TABLE sessions (
    id TEXT PRIMARY KEY,
    token_hash TEXT NOT NULL UNIQUE,
    user_id TEXT NOT NULL REFERENCES users (id),
    workspace_id TEXT NOT NULL REFERENCES workspaces (id),
    created_at BIGINT NOT NULL,
    last_seen_at BIGINT NOT NULL,
    ended_at BIGINT,
    client_ip TEXT NOT NULL,
    user_agent TEXT NOT NULL
);
CREATE INDEX sessions_user ON sessions (user_id, created_at)
"#;

const DOWN: &str = r#"
DROP TABLE sessions;
DROP TABLE sign_in_counts;
DROP TABLE sign_in_links;
DROP TABLE members;
DROP TABLE users
"#;

plain_sql!("m0016_people", UP, DOWN);
