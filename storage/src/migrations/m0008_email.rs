// Email: the log of every email a person was sent (one row per outbox job, so a job taken
// again after a crash finds its row and its Message-ID), the workspace's saved wording, the
// addresses a hard bounce or a complaint suppressed, and the keyed hashes of signing links.
// People may carry their own language; a workspace may name its default language and the
// address its test emails go to when the document names no sender.
const UP: &str = r#"
ALTER TABLE people ADD COLUMN locale TEXT;
ALTER TABLE workspaces ADD COLUMN sender_email TEXT;
ALTER TABLE workspaces ADD COLUMN locale TEXT;
CREATE TABLE emails (
    id TEXT PRIMARY KEY,
    workspace_id TEXT NOT NULL REFERENCES workspaces(id),
    test BOOLEAN NOT NULL,
    job_id TEXT NOT NULL UNIQUE,
    document_id TEXT,
    person_id TEXT,
    kind TEXT NOT NULL,
    to_address TEXT NOT NULL,
    subject TEXT NOT NULL,
    locale TEXT NOT NULL,
    status TEXT NOT NULL,
    reason TEXT,
    counted TEXT,
    created_at BIGINT NOT NULL,
    sent_at BIGINT,
    updated_at BIGINT NOT NULL
);
CREATE INDEX emails_list ON emails (workspace_id, test, id);
CREATE INDEX emails_document ON emails (document_id, id);
CREATE INDEX emails_address ON emails (workspace_id, test, to_address, id);
CREATE TABLE email_templates (
    workspace_id TEXT NOT NULL REFERENCES workspaces(id),
    kind TEXT NOT NULL,
    locale TEXT NOT NULL,
    subject TEXT,
    preview TEXT,
    body TEXT,
    button_label TEXT,
    footer TEXT,
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (workspace_id, kind, locale)
);
CREATE TABLE email_suppressions (
    workspace_id TEXT NOT NULL REFERENCES workspaces(id),
    address TEXT NOT NULL,
    reason TEXT NOT NULL,
    email_id TEXT,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (workspace_id, address)
);
CREATE TABLE signing_links (
    hash TEXT PRIMARY KEY,
    document_id TEXT NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
    person_id TEXT NOT NULL,
    email_id TEXT,
    purpose TEXT NOT NULL,
    expires_at BIGINT,
    created_at BIGINT NOT NULL
);
CREATE INDEX signing_links_person ON signing_links (person_id)
"#;

const DOWN: &str = r#"
DROP TABLE signing_links;
DROP TABLE email_suppressions;
DROP TABLE email_templates;
DROP TABLE emails;
ALTER TABLE workspaces DROP COLUMN locale;
ALTER TABLE workspaces DROP COLUMN sender_email;
ALTER TABLE people DROP COLUMN locale
"#;

plain_sql!("m0008_email", UP, DOWN);
