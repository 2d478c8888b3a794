use sea_orm_migration::prelude::*;

pub struct Migration;

impl MigrationName for Migration {
    fn name(&self) -> &str {
        "m0004_sealing"
    }
}

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

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        super::run_sql(manager, UP).await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        super::run_sql(
            manager,
            "DROP TABLE installation; DROP INDEX documents_signed; ALTER TABLE documents DROP COLUMN final_sha256; \
             ALTER TABLE documents DROP COLUMN original_sha256; ALTER TABLE documents DROP COLUMN sealed_blob",
        )
        .await
    }
}
