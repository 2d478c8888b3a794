// A workspace's settings in the application (docs/decisions/the-application.md, "Workspace
// settings"): the sender name and reply-to address its emails fall back to, test mode for the
// whole workspace (every key and person then works on test documents), and the AI drafting
// switch with its daily allowance (read by AI drafting when it comes).
const UP: &str = r#"
ALTER TABLE workspaces ADD COLUMN sender_name TEXT;
ALTER TABLE workspaces ADD COLUMN reply_to TEXT;
ALTER TABLE workspaces ADD COLUMN test_mode BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE workspaces ADD COLUMN ai_drafting BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE workspaces ADD COLUMN ai_daily_limit INTEGER NOT NULL DEFAULT 50
"#;

const DOWN: &str = r#"
ALTER TABLE workspaces DROP COLUMN ai_daily_limit;
ALTER TABLE workspaces DROP COLUMN ai_drafting;
ALTER TABLE workspaces DROP COLUMN test_mode;
ALTER TABLE workspaces DROP COLUMN reply_to;
ALTER TABLE workspaces DROP COLUMN sender_name
"#;

plain_sql!("m0018_workspace_settings", UP, DOWN);
