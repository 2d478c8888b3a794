// The application's second step (docs/decisions/the-application.md). A session records when
// it began acting in its workspace (`acting_since`): switching workspace moves it, and the
// membership must be older than that moment, so a person removed and added again does not
// get an old session back, while switching into a workspace joined since sign-in works.
// Passkeys: a person's WebAuthn credentials (the public key as COSE, base64url) and the
// challenges handed out for registering or asserting one, each good once and for minutes.
// `activity` records who changed keys, webhooks, members, settings and approvals.
const UP: &str = r#"
ALTER TABLE sessions ADD COLUMN acting_since BIGINT NOT NULL DEFAULT 0;
UPDATE sessions SET acting_since = created_at;
ALTER TABLE sign_in_links ADD COLUMN workspace_id TEXT;
CREATE TABLE passkeys (
    id TEXT PRIMARY KEY,
    user_id TEXT NOT NULL REFERENCES users (id),
    credential_id TEXT NOT NULL UNIQUE,
    public_key TEXT NOT NULL,
    algorithm INTEGER NOT NULL,
    sign_count BIGINT NOT NULL,
    name TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    last_used_at BIGINT
);
CREATE INDEX passkeys_user ON passkeys (user_id);
CREATE TABLE passkey_challenges (
    challenge TEXT PRIMARY KEY,
    user_id TEXT,
    purpose TEXT NOT NULL,
    expires_at BIGINT NOT NULL
);
CREATE TABLE activity (
    id TEXT PRIMARY KEY,
    workspace_id TEXT NOT NULL,
    actor TEXT NOT NULL,
    action TEXT NOT NULL,
    subject TEXT NOT NULL,
    detail TEXT NOT NULL,
    client_ip TEXT NOT NULL,
    created_at BIGINT NOT NULL
);
CREATE INDEX activity_workspace ON activity (workspace_id, created_at)
"#;

const DOWN: &str = r#"
DROP TABLE activity;
DROP TABLE passkey_challenges;
DROP TABLE passkeys;
ALTER TABLE sign_in_links DROP COLUMN workspace_id;
ALTER TABLE sessions DROP COLUMN acting_since
"#;

plain_sql!("m0017_people_passkeys", UP, DOWN);
