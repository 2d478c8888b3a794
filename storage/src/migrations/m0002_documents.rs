// Documents written in words, their people and fields, the hash-chained audit trail, the
// outbox every state change writes into, and approvals of draft-only keys' sends.
const UP: &str = r#"
CREATE TABLE documents (
    id TEXT PRIMARY KEY,
    workspace_id TEXT NOT NULL REFERENCES workspaces(id),
    test BOOLEAN NOT NULL,
    state TEXT NOT NULL,
    title TEXT NOT NULL,
    description TEXT,
    external_id TEXT,
    metadata TEXT NOT NULL,
    source TEXT NOT NULL,
    facts TEXT NOT NULL,
    variable_values TEXT NOT NULL,
    paper TEXT NOT NULL,
    profile TEXT NOT NULL,
    email_options TEXT NOT NULL,
    send_options TEXT NOT NULL,
    created_by TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    sent_at BIGINT,
    completed_at BIGINT,
    expires_at BIGINT,
    next_reminder_at BIGINT,
    reason TEXT,
    pdf_blob TEXT,
    page_sizes TEXT
);
CREATE INDEX documents_list ON documents (workspace_id, test, id);
CREATE INDEX documents_state ON documents (workspace_id, test, state, id);
CREATE INDEX documents_external ON documents (workspace_id, test, external_id);
CREATE INDEX documents_expiry ON documents (expires_at);
CREATE INDEX documents_reminders ON documents (next_reminder_at);
CREATE TABLE document_metadata (
    document_id TEXT NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
    mkey TEXT NOT NULL,
    mvalue TEXT NOT NULL,
    PRIMARY KEY (document_id, mkey)
);
CREATE INDEX document_metadata_pair ON document_metadata (mkey, mvalue);
CREATE TABLE people (
    id TEXT PRIMARY KEY,
    document_id TEXT NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    seat TEXT NOT NULL,
    name TEXT NOT NULL,
    email TEXT NOT NULL,
    external_id TEXT,
    metadata TEXT NOT NULL,
    action TEXT NOT NULL,
    sign_order INTEGER NOT NULL,
    status TEXT NOT NULL,
    invited_at BIGINT,
    opened_at BIGINT,
    completed_at BIGINT,
    declined_at BIGINT,
    decline_reason TEXT,
    last_reminded_at BIGINT,
    reminders INTEGER NOT NULL,
    UNIQUE (document_id, seat)
);
CREATE TABLE fields (
    id TEXT PRIMARY KEY,
    document_id TEXT NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    seat TEXT NOT NULL,
    name TEXT NOT NULL,
    field_type TEXT NOT NULL,
    required BOOLEAN NOT NULL,
    spec TEXT NOT NULL,
    page INTEGER NOT NULL,
    x DOUBLE PRECISION NOT NULL,
    y DOUBLE PRECISION NOT NULL,
    width DOUBLE PRECISION NOT NULL,
    height DOUBLE PRECISION NOT NULL,
    value TEXT
);
CREATE INDEX fields_document ON fields (document_id, position);
CREATE TABLE audit_events (
    document_id TEXT NOT NULL,
    seq BIGINT NOT NULL,
    at BIGINT NOT NULL,
    event TEXT NOT NULL,
    description TEXT NOT NULL,
    seat TEXT,
    actor TEXT NOT NULL,
    detail TEXT NOT NULL,
    prev_hash TEXT NOT NULL,
    hash TEXT NOT NULL,
    PRIMARY KEY (document_id, seq)
);
CREATE TABLE outbox (
    id TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    workspace_id TEXT NOT NULL,
    document_id TEXT,
    test BOOLEAN NOT NULL,
    payload TEXT NOT NULL,
    state TEXT NOT NULL,
    attempts INTEGER NOT NULL,
    run_at BIGINT NOT NULL,
    created_at BIGINT NOT NULL
);
CREATE INDEX outbox_due ON outbox (state, kind, run_at);
CREATE INDEX outbox_document ON outbox (document_id);
CREATE TABLE approvals (
    id TEXT PRIMARY KEY,
    workspace_id TEXT NOT NULL REFERENCES workspaces(id),
    document_id TEXT NOT NULL,
    key_id TEXT NOT NULL,
    test BOOLEAN NOT NULL,
    state TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    decided_at BIGINT,
    decided_by TEXT,
    note TEXT
);
CREATE INDEX approvals_workspace ON approvals (workspace_id, state, id);
CREATE INDEX approvals_document ON approvals (document_id)
"#;

const DOWN: &str = "DROP TABLE approvals; DROP TABLE outbox; DROP TABLE audit_events; DROP TABLE fields; \
             DROP TABLE people; DROP TABLE document_metadata; DROP TABLE documents";

plain_sql!("m0002_documents", UP, DOWN);
