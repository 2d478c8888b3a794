// Plays, playbooks and drafts (docs/decisions/plays.md): a workspace's plays, each version's
// file kept as written and never changed, which version drafts use, playbooks (ordered sets
// of plays), and drafts in progress (`drf_` references with the answers given so far, kept a
// day).
const UP: &str = r#"
CREATE TABLE plays (
    workspace_id TEXT NOT NULL REFERENCES workspaces(id),
    name TEXT NOT NULL,
    latest INTEGER NOT NULL,
    published INTEGER,
    archived BOOLEAN NOT NULL DEFAULT FALSE,
    kind TEXT NOT NULL,
    category TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (workspace_id, name)
);
CREATE TABLE play_versions (
    workspace_id TEXT NOT NULL,
    name TEXT NOT NULL,
    version INTEGER NOT NULL,
    source TEXT NOT NULL,
    title TEXT NOT NULL,
    created_by TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (workspace_id, name, version)
);
CREATE TABLE playbooks (
    workspace_id TEXT NOT NULL REFERENCES workspaces(id),
    name TEXT NOT NULL,
    title TEXT NOT NULL,
    description TEXT,
    plays TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (workspace_id, name)
);
CREATE TABLE play_drafts (
    id TEXT PRIMARY KEY,
    workspace_id TEXT NOT NULL REFERENCES workspaces(id),
    mode TEXT NOT NULL,
    play TEXT NOT NULL,
    version INTEGER NOT NULL,
    built_in BOOLEAN NOT NULL,
    title TEXT,
    people TEXT NOT NULL,
    answers TEXT NOT NULL,
    document_id TEXT,
    created_by TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL
);
CREATE INDEX play_drafts_day ON play_drafts (workspace_id, created_at);
CREATE INDEX play_drafts_expiry ON play_drafts (expires_at)
"#;

const DOWN: &str = r#"
DROP TABLE play_drafts;
DROP TABLE playbooks;
DROP TABLE play_versions;
DROP TABLE plays
"#;

plain_sql!("m0019_plays", UP, DOWN);
