use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "api_log")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: String,
    pub key_id: Option<String>,
    pub workspace_id: Option<String>,
    pub method: String,
    pub route: String,
    pub status: i32,
    pub error_kind: Option<String>,
    pub duration_us: i64,
    pub client_ip: String,
    pub created_at: i64,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
