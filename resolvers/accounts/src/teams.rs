//! Teams of the workspace and their members (used to filter reports): listed with
//! `people:read`, managed in the application's Settings (or with `signet admin team ...`) by
//! owners and admins, each change in the activity record.

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
    if name.is_empty()
        || name.chars().count() > 200
        || name
            .chars()
            .any(|c| c.is_control() || signet_core::fields::is_disguising(c))
    {
        return Err(DomainError::invalid(
            "name",
            "must be 1 to 200 characters, with no control characters or text-direction overrides",
        ));
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

/// Teams a workspace may have.
pub const MAX_TEAMS: u64 = 100;
/// People one team may have.
pub const MAX_TEAM_MEMBERS: u64 = 500;

/// Teams are managed by owners and admins (`people:write`), or a key given it that may act
/// (not a draft-only one).
fn may_manage(actor: &Actor) -> Result<(), DomainError> {
    actor.require(Scope::PeopleWrite)?;
    if actor.draft_only || actor.is_test_key() {
        return Err(DomainError::Forbidden(
            "teams are the workspace's: a draft-only or test key cannot change them".into(),
        ));
    }
    Ok(())
}

/// The team, when it is the actor's workspace's.
async fn ours(ctx: &Ctx, actor: &Actor, team_id: &str) -> Result<team::Model, DomainError> {
    team::Entity::find_by_id(team_id)
        .one(&ctx.db.conn)
        .await?
        .filter(|t| t.workspace_id == *actor.workspace_id)
        .ok_or_else(|| DomainError::NotFound(format!("no team with id {team_id}")))
}

async fn count<C: sea_orm::ConnectionTrait>(
    conn: &C,
    ctx: &Ctx,
    sql: &str,
    id: &str,
) -> Result<u64, DomainError> {
    let row = conn
        .query_one_raw(ctx.db.stmt(sql, [sea_orm::Value::from(id.to_string())]))
        .await?
        .ok_or_else(|| DomainError::Internal("count".into()))?;
    Ok(row.try_get::<i64>("", "n")? as u64)
}

/// Makes a team (at most [`MAX_TEAMS`] a workspace).
pub async fn create_as(ctx: &Ctx, actor: &Actor, name: &str) -> Result<TeamOut, DomainError> {
    may_manage(actor)?;
    let n = count(
        &ctx.db.conn,
        ctx,
        "SELECT COUNT(*) AS n FROM teams WHERE workspace_id = $1",
        &actor.workspace_id,
    )
    .await?;
    if n >= MAX_TEAMS {
        return Err(DomainError::Forbidden(format!(
            "a workspace has at most {MAX_TEAMS} teams; remove one first"
        )));
    }
    let t = create(ctx, &actor.workspace_id, name).await?;
    crate::activity::record(
        &ctx.db.conn,
        ctx,
        actor,
        None,
        "team.created",
        &t.id,
        &t.name,
    )
    .await?;
    Ok(t)
}

/// Removes a team and its list of people (documents and reports are untouched).
pub async fn delete_as(ctx: &Ctx, actor: &Actor, team_id: &str) -> Result<bool, DomainError> {
    may_manage(actor)?;
    let t = ours(ctx, actor, team_id).await?;
    let id = sea_orm::Value::from(team_id.to_string());
    let (members, teams) = (
        ctx.db
            .stmt("DELETE FROM team_members WHERE team_id = $1", [id.clone()]),
        ctx.db.stmt("DELETE FROM teams WHERE id = $1", [id]),
    );
    let (c, a, name) = (ctx.clone(), actor.clone(), t.name.clone());
    let team_id = team_id.to_string();
    ctx.db
        .transaction(move |txn| async move {
            use signet_storage::Sql;
            txn.exec(members).await?;
            txn.exec(teams).await?;
            crate::activity::record(&*txn, &c, &a, None, "team.deleted", &team_id, &name).await?;
            Ok::<_, DomainError>(())
        })
        .await?;
    Ok(true)
}

/// Adds a person to one of the workspace's teams (at most [`MAX_TEAM_MEMBERS`] a team).
pub async fn add_member_as(
    ctx: &Ctx,
    actor: &Actor,
    team_id: &str,
    email: &str,
    name: &str,
    role: &str,
) -> Result<TeamMemberOut, DomainError> {
    may_manage(actor)?;
    ours(ctx, actor, team_id).await?;
    if name.trim().chars().count() > 200
        || name
            .chars()
            .any(|c| c.is_control() || signet_core::fields::is_disguising(c))
    {
        return Err(DomainError::invalid(
            "name",
            "must be at most 200 characters, with no control characters",
        ));
    }
    if !signet_core::fields::is_email(email.trim()) {
        return Err(DomainError::invalid(
            "email",
            format!("'{}' is not an email address", email.trim()),
        ));
    }
    let n = count(
        &ctx.db.conn,
        ctx,
        "SELECT COUNT(*) AS n FROM team_members WHERE team_id = $1",
        team_id,
    )
    .await?;
    if n >= MAX_TEAM_MEMBERS {
        return Err(DomainError::Forbidden(format!(
            "a team has at most {MAX_TEAM_MEMBERS} people"
        )));
    }
    let m = add_member(ctx, team_id, email, name, role).await?;
    crate::activity::record(
        &ctx.db.conn,
        ctx,
        actor,
        None,
        "team.member_added",
        team_id,
        &m.email,
    )
    .await?;
    Ok(m)
}

/// Takes a person off one of the workspace's teams; answers whether they were on it.
pub async fn remove_member_as(
    ctx: &Ctx,
    actor: &Actor,
    team_id: &str,
    email: &str,
) -> Result<bool, DomainError> {
    may_manage(actor)?;
    ours(ctx, actor, team_id).await?;
    let email = email.trim().to_lowercase();
    let gone = ctx
        .db
        .write(ctx.db.stmt(
            "DELETE FROM team_members WHERE team_id = $1 AND email = $2",
            [
                sea_orm::Value::from(team_id.to_string()),
                sea_orm::Value::from(email.clone()),
            ],
        ))
        .await?;
    if gone > 0 {
        crate::activity::record(
            &ctx.db.conn,
            ctx,
            actor,
            None,
            "team.member_removed",
            team_id,
            &email,
        )
        .await?;
    }
    Ok(gone > 0)
}
