// Identity checks on the signing page: a person may be asked for an access code the sender
// gives them (only its salted keyed hash is kept) and/or a one-time code emailed to them.
// `identity_checks` holds, per person, the keyed hash of their current emailed code, how
// many codes went out today, the wrong tries since the last success or lock, how many locks
// there have been (each lasts twice the last), and a lock's end.
const UP: &str = r#"
ALTER TABLE people ADD COLUMN access_code_hash TEXT;
ALTER TABLE people ADD COLUMN email_code BOOLEAN NOT NULL DEFAULT FALSE;
CREATE TABLE identity_checks (
    person_id TEXT PRIMARY KEY,
    document_id TEXT NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
    code_hash TEXT,
    code_until BIGINT,
    code_sent_at BIGINT,
    codes_day BIGINT NOT NULL,
    codes_sent INTEGER NOT NULL,
    failures INTEGER NOT NULL,
    locks INTEGER NOT NULL,
    locked_until BIGINT,
    updated_at BIGINT NOT NULL
);
CREATE INDEX identity_checks_document ON identity_checks (document_id)
"#;

const DOWN: &str = r#"
DROP TABLE identity_checks;
ALTER TABLE people DROP COLUMN email_code;
ALTER TABLE people DROP COLUMN access_code_hash
"#;

plain_sql!("m0009_identity", UP, DOWN);
