// AI drafting (docs/decisions/ai.md): each job with what it was asked (kept until
// `purge_after`, then emptied), what it answered, how it ran (provider, model, tokens, time;
// never the provider's key), and the tokens each workspace spent a day, kept for the limits
// after the jobs themselves are purged.
const UP: &str = r#"
CREATE TABLE ai_jobs (
    id TEXT PRIMARY KEY,
    workspace_id TEXT NOT NULL REFERENCES workspaces(id),
    mode TEXT NOT NULL,
    kind TEXT NOT NULL,
    state TEXT NOT NULL,
    input TEXT,
    output TEXT,
    reason TEXT,
    problems TEXT,
    provider TEXT,
    model TEXT,
    tokens_in BIGINT NOT NULL DEFAULT 0,
    tokens_out BIGINT NOT NULL DEFAULT 0,
    calls INTEGER NOT NULL DEFAULT 0,
    model_ms BIGINT NOT NULL DEFAULT 0,
    created_by TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    started_at BIGINT,
    finished_at BIGINT,
    purge_after BIGINT NOT NULL
);
CREATE INDEX ai_jobs_running ON ai_jobs (workspace_id, state);
CREATE INDEX ai_jobs_purge ON ai_jobs (purge_after);
CREATE TABLE ai_usage (
    workspace_id TEXT NOT NULL REFERENCES workspaces(id),
    day TEXT NOT NULL,
    jobs BIGINT NOT NULL DEFAULT 0,
    tokens BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (workspace_id, day)
)
"#;

const DOWN: &str = r#"
DROP TABLE ai_usage;
DROP TABLE ai_jobs
"#;

plain_sql!("m0020_ai_jobs", UP, DOWN);
