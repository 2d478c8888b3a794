// The builder and Scribe frames (docs/embedding.md): a one-hour link for one website,
// exchanged once by the frame's page for a key of the frame's own (`api_keys.frame`) that
// ends with the link. Only the link's keyed hash is stored.
const UP: &str = r#"
CREATE TABLE frame_links (
    hash TEXT PRIMARY KEY,
    workspace_id TEXT NOT NULL REFERENCES workspaces(id),
    mode TEXT NOT NULL,
    kind TEXT NOT NULL,
    origin TEXT NOT NULL,
    name TEXT,
    created_by TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL,
    used_at BIGINT,
    key_id TEXT
);
CREATE INDEX frame_links_expiry ON frame_links (expires_at);
ALTER TABLE api_keys ADD COLUMN frame TEXT
"#;

const DOWN: &str = r#"
ALTER TABLE api_keys DROP COLUMN frame;
DROP TABLE frame_links
"#;

plain_sql!("m0022_frame_sessions", UP, DOWN);
