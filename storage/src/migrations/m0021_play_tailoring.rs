// A draft from a play tailored by AI (docs/ai.md, "Plays"): the draft remembers that it was
// asked for and the job that proposes the tailoring; the job remembers the draft document
// its changes are for.
const UP: &str = r#"
ALTER TABLE play_drafts ADD COLUMN tailor BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE play_drafts ADD COLUMN ai_job_id TEXT;
ALTER TABLE ai_jobs ADD COLUMN document_id TEXT
"#;

const DOWN: &str = r#"
ALTER TABLE ai_jobs DROP COLUMN document_id;
ALTER TABLE play_drafts DROP COLUMN ai_job_id;
ALTER TABLE play_drafts DROP COLUMN tailor
"#;

plain_sql!("m0021_play_tailoring", UP, DOWN);
