use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "api_keys")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: String,
    pub workspace_id: String,
    pub name: Option<String>,
    pub mode: String,
    pub key_hash: String,
    pub hint: String,
    pub scopes: String,
    pub draft_only: bool,
    pub daily_limit: Option<i64>,
    pub per_minute: Option<i64>,
    pub allowed_cidrs: String,
    pub expires_at: Option<i64>,
    pub revoked_at: Option<i64>,
    pub created_at: i64,
    /// `builder` or `scribe` for a frame's own key (ends with its link); null otherwise.
    pub frame: Option<String>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
