// Embedded signing: a workspace's allowed websites and its switch; people signed inside the
// caller's own app (nobody emails them); and, on stored links, the website an embed link or
// its session belongs to and when an embed link was exchanged (each works once).
const UP: &str = r#"
ALTER TABLE workspaces ADD COLUMN embed_origins TEXT;
ALTER TABLE workspaces ADD COLUMN embedding BOOLEAN NOT NULL DEFAULT TRUE;
ALTER TABLE people ADD COLUMN embedded BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE signing_links ADD COLUMN origin TEXT;
ALTER TABLE signing_links ADD COLUMN used_at BIGINT
"#;

const DOWN: &str = r#"
ALTER TABLE signing_links DROP COLUMN used_at;
ALTER TABLE signing_links DROP COLUMN origin;
ALTER TABLE people DROP COLUMN embedded;
ALTER TABLE workspaces DROP COLUMN embedding;
ALTER TABLE workspaces DROP COLUMN embed_origins
"#;

plain_sql!("m0010_embedding", UP, DOWN);
