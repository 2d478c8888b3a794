//! Workspaces: the tenant every key, document and template belongs to.

use sea_orm::{ActiveModelTrait, EntityTrait, Set};
use serde::Serialize;
use signet_storage::entities::workspace;
use signet_storage::now_ms;

use crate::plans::Plan;
use crate::{Ctx, DomainError, ids};

#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct WorkspaceOut {
    pub id: String,
    pub name: String,
    pub plan: Plan,
    pub time_zone: String,
    pub created_at: i64,
}

pub struct WorkspaceIn {
    pub name: String,
    pub plan: Plan,
    pub time_zone: String,
}

pub fn parse_time_zone(tz: &str) -> Result<String, DomainError> {
    tz.parse::<chrono_tz::Tz>()
        .map(|t| t.name().to_string())
        .map_err(|_| {
            DomainError::invalid(
                "timeZone",
                format!("'{tz}' is not an IANA time zone such as Europe/Paris"),
            )
        })
}

pub async fn create(ctx: &Ctx, input: WorkspaceIn) -> Result<WorkspaceOut, DomainError> {
    let name = input.name.trim();
    if name.is_empty() || name.chars().count() > 200 {
        return Err(DomainError::invalid("name", "must be 1 to 200 characters"));
    }
    let model = workspace::ActiveModel {
        id: Set(ids::new_id("wsp")),
        name: Set(name.to_string()),
        plan: Set(input.plan.as_str().to_string()),
        time_zone: Set(parse_time_zone(&input.time_zone)?),
        created_at: Set(now_ms()),
    }
    .insert(&ctx.db.conn)
    .await?;
    to_out(model)
}

pub async fn get(ctx: &Ctx, id: &str) -> Result<WorkspaceOut, DomainError> {
    let model = workspace::Entity::find_by_id(id)
        .one(&ctx.db.conn)
        .await?
        .ok_or_else(|| DomainError::NotFound(format!("no workspace with id {id}")))?;
    to_out(model)
}

fn to_out(m: workspace::Model) -> Result<WorkspaceOut, DomainError> {
    Ok(WorkspaceOut {
        plan: Plan::parse(&m.plan)
            .ok_or_else(|| DomainError::Internal(format!("plan {}", m.plan)))?,
        id: m.id,
        name: m.name,
        time_zone: m.time_zone,
        created_at: m.created_at,
    })
}
