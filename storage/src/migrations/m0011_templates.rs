// Templates: a workspace's reusable documents, each with versions (only the newest is
// current), the defaults its documents start with, and whether a person approved it (a
// draft-only key's template waits). Documents remember the template and version they came
// from. An approval is of a document's send or of a template (`template_id`, the document id
// then empty).
const UP: &str = r#"
CREATE TABLE templates (
    id TEXT PRIMARY KEY,
    workspace_id TEXT NOT NULL REFERENCES workspaces(id),
    kind TEXT NOT NULL,
    name TEXT NOT NULL,
    external_id TEXT,
    metadata TEXT NOT NULL,
    version INTEGER NOT NULL,
    approved BOOLEAN NOT NULL,
    defaults TEXT NOT NULL,
    created_by TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);
CREATE INDEX templates_list ON templates (workspace_id, approved, id);
CREATE TABLE template_versions (
    template_id TEXT NOT NULL REFERENCES templates(id) ON DELETE CASCADE,
    version INTEGER NOT NULL,
    source TEXT NOT NULL,
    paper TEXT NOT NULL,
    profile TEXT NOT NULL,
    seats TEXT NOT NULL,
    questions TEXT NOT NULL,
    fields TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (template_id, version)
);
ALTER TABLE documents ADD COLUMN template_id TEXT;
ALTER TABLE documents ADD COLUMN template_version INTEGER;
ALTER TABLE approvals ADD COLUMN template_id TEXT
"#;

const DOWN: &str = r#"
ALTER TABLE approvals DROP COLUMN template_id;
ALTER TABLE documents DROP COLUMN template_version;
ALTER TABLE documents DROP COLUMN template_id;
DROP TABLE template_versions;
DROP TABLE templates
"#;

plain_sql!("m0011_templates", UP, DOWN);
