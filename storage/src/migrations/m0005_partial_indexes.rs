// Four of the documents table's indexes now hold only the rows their readers look for: the
// sealing sweep asks for signed documents, the list's `externalId` filter for one external
// id, the scheduler for documents with an expiry or a reminder time. Every other row left
// out is an index entry a create or send no longer writes (on the embedded default, pages
// the one writer thread no longer writes at each commit: bench/RESULTS.md). Each
// query's own conditions (`state = 'signed'`, `external_id = $n`, `expires_at <= $n`,
// `next_reminder_at <= $n`) imply the index's, so SQLite and PostgreSQL both still use them.
// The signed documents' index keys on `updated_at` alone: its rows all have one state. Each
// new index is made under a new name before the old one is dropped: the statements run on
// pooled connections, and SQLite checks a CREATE's name against the connection's cached
// schema, so re-creating a name another connection has just dropped can fail with "already
// exists" (a stale "no such index" on DROP, by contrast, makes SQLite reload and retry).
const UP: &str = r#"
CREATE INDEX documents_signed_at ON documents (updated_at) WHERE state = 'signed';
CREATE INDEX documents_external_id ON documents (workspace_id, test, external_id) WHERE external_id IS NOT NULL;
CREATE INDEX documents_expiring ON documents (expires_at) WHERE expires_at IS NOT NULL;
CREATE INDEX documents_reminding ON documents (next_reminder_at) WHERE next_reminder_at IS NOT NULL;
DROP INDEX documents_signed;
DROP INDEX documents_external;
DROP INDEX documents_expiry;
DROP INDEX documents_reminders
"#;

const DOWN: &str = r#"
CREATE INDEX documents_signed ON documents (state, updated_at);
CREATE INDEX documents_external ON documents (workspace_id, test, external_id);
CREATE INDEX documents_expiry ON documents (expires_at);
CREATE INDEX documents_reminders ON documents (next_reminder_at);
DROP INDEX documents_signed_at;
DROP INDEX documents_external_id;
DROP INDEX documents_expiring;
DROP INDEX documents_reminding
"#;

plain_sql!("m0005_partial_indexes", UP, DOWN);
