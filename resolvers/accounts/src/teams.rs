//! Teams of the workspace and their members (used to filter reports). Managed with
//! `signet admin team ...` until the web application exists.

use sea_orm::{ActiveModelTrait, ColumnTrait, EntityTrait, QueryFilter, QueryOrder, Set};
use serde::Serialize;
use signet_storage::entities::{team, team_member};

use signet_core::{Actor, Ctx, DomainError, Scope, ids};

#[derive(Clone, Debug, Serialize, utoipa::ToSchema, async_graphql::SimpleObject)]
#[serde(rename_all = "camelCase")]
pub struct TeamMemberOut {
    pub name: String,
    pub email: String,
    /// `admin` or `member`.
    pub role: String,
}

#[derive(Clone, Debug, Serialize, utoipa::ToSchema, async_graphql::SimpleObject)]
#[serde(rename_all = "camelCase")]
pub struct TeamOut {
    pub id: String,
    pub name: String,
    pub members: Vec<TeamMemberOut>,
}

#[derive(Clone, Debug, Serialize, utoipa::ToSchema, async_graphql::SimpleObject)]
#[serde(rename_all = "camelCase")]
pub struct TeamsOut {
    pub teams: Vec<TeamOut>,
}

pub async fn list(ctx: &Ctx, actor: &Actor) -> Result<TeamsOut, DomainError> {
    actor.require(Scope::PeopleRead)?;
    list_for(ctx, &actor.workspace_id).await
}

pub async fn list_for(ctx: &Ctx, workspace_id: &str) -> Result<TeamsOut, DomainError> {
    let teams = team::Entity::find()
        .filter(team::Column::WorkspaceId.eq(workspace_id))
        .order_by_asc(team::Column::Name)
        .all(&ctx.db.conn)
        .await?;
    let mut members = team_member::Entity::find()
        .filter(team_member::Column::TeamId.is_in(teams.iter().map(|t| t.id.clone())))
        .order_by_asc(team_member::Column::Name)
        .order_by_asc(team_member::Column::Email)
        .all(&ctx.db.conn)
        .await?;
    Ok(TeamsOut {
        teams: teams
            .into_iter()
            .map(|t| {
                let (mine, rest): (Vec<_>, Vec<_>) = std::mem::take(&mut members)
                    .into_iter()
                    .partition(|m| m.team_id == t.id);
                members = rest;
                TeamOut {
                    id: t.id,
                    name: t.name,
                    members: mine
                        .into_iter()
                        .map(|m| TeamMemberOut {
                            name: m.name,
                            email: m.email,
                            role: m.role,
                        })
                        .collect(),
                }
            })
            .collect(),
    })
}

pub async fn create(ctx: &Ctx, workspace_id: &str, name: &str) -> Result<TeamOut, DomainError> {
    crate::workspaces::get(ctx, workspace_id).await?;
    let name = name.trim();
    if name.is_empty() || name.chars().count() > 200 {
        return Err(DomainError::invalid("name", "must be 1 to 200 characters"));
    }
    let t = team::ActiveModel {
        id: Set(ids::new_id("team")),
        workspace_id: Set(workspace_id.to_string()),
        name: Set(name.to_string()),
        created_at: Set(ctx.now()),
    }
    .insert(&ctx.db.conn)
    .await?;
    Ok(TeamOut {
        id: t.id,
        name: t.name,
        members: vec![],
    })
}

pub async fn add_member(
    ctx: &Ctx,
    team_id: &str,
    email: &str,
    name: &str,
    role: &str,
) -> Result<TeamMemberOut, DomainError> {
    team::Entity::find_by_id(team_id)
        .one(&ctx.db.conn)
        .await?
        .ok_or_else(|| DomainError::NotFound(format!("no team with id {team_id}")))?;
    let email = email.trim();
    if !email.contains('@') || email.len() > 254 {
        return Err(DomainError::invalid(
            "email",
            format!("'{email}' is not an email address"),
        ));
    }
    if !matches!(role, "admin" | "member") {
        return Err(DomainError::invalid("role", "must be admin or member"));
    }
    let m = team_member::ActiveModel {
        team_id: Set(team_id.to_string()),
        email: Set(email.to_lowercase()),
        name: Set(name.trim().to_string()),
        role: Set(role.to_string()),
        created_at: Set(ctx.now()),
    }
    .insert(&ctx.db.conn)
    .await
    .map_err(|e| match e.sql_err() {
        Some(sea_orm::SqlErr::UniqueConstraintViolation(_)) => {
            DomainError::conflict(format!("{email} is already a member of this team"))
        }
        _ => e.into(),
    })?;
    Ok(TeamMemberOut {
        name: m.name,
        email: m.email,
        role: m.role,
    })
}
