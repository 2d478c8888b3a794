// The sealed copy of an executed document, and the SHA-256 of the file people were sent and
// of the file with their values drawn in, as the certificate of completion states them.
// `installation` holds facts every process must agree on, such as the root certificate that
// seals (so a process started with another certificate authority refuses to run).
const UP: &str = r#"
CREATE TABLE installation (
    name TEXT PRIMARY KEY,
    value TEXT NOT NULL,
    created_at BIGINT NOT NULL
);
ALTER TABLE documents ADD COLUMN sealed_blob TEXT;
ALTER TABLE documents ADD COLUMN original_sha256 TEXT;
ALTER TABLE documents ADD COLUMN final_sha256 TEXT;
CREATE INDEX documents_signed ON documents (state, updated_at)
"#;

const DOWN: &str = "DROP TABLE installation; DROP INDEX documents_signed; ALTER TABLE documents DROP COLUMN final_sha256; \
             ALTER TABLE documents DROP COLUMN original_sha256; ALTER TABLE documents DROP COLUMN sealed_blob";

plain_sql!("m0004_sealing", UP, DOWN);
