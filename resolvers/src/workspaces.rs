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

/// What `signet admin workspace update` may change; `None` leaves a setting alone, and an
/// empty sender address or language clears it.
#[derive(Default)]
pub struct WorkspacePatch {
    pub name: Option<String>,
    pub plan: Option<Plan>,
    /// Where a test document's emails go when the document names no sender address.
    pub sender_email: Option<String>,
    /// The language of emails whose person and document name none.
    pub locale: Option<String>,
}

/// The settings emails read, beside the workspace record.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct WorkspaceSettingsOut {
    #[serde(flatten)]
    pub workspace: WorkspaceOut,
    pub sender_email: Option<String>,
    pub locale: Option<String>,
}

pub async fn update(
    ctx: &Ctx,
    id: &str,
    patch: WorkspacePatch,
) -> Result<WorkspaceSettingsOut, DomainError> {
    use sea_orm::{ConnectionTrait, Value};
    get(ctx, id).await?;
    let mut sets: Vec<(&str, Value)> = Vec::new();
    if let Some(name) = &patch.name {
        let name = name.trim();
        if name.is_empty() || name.chars().count() > 200 {
            return Err(DomainError::invalid("name", "must be 1 to 200 characters"));
        }
        sets.push(("name", Value::from(name.to_string())));
    }
    if let Some(plan) = patch.plan {
        sets.push(("plan", Value::from(plan.as_str())));
    }
    if let Some(address) = &patch.sender_email {
        let address = address.trim();
        if !address.is_empty() && !crate::documents::input::is_email(address) {
            return Err(DomainError::invalid(
                "sender-email",
                format!("'{address}' is not an email address"),
            ));
        }
        sets.push((
            "sender_email",
            Value::from((!address.is_empty()).then(|| address.to_string())),
        ));
    }
    if let Some(locale) = &patch.locale {
        let locale = locale.trim();
        if !locale.is_empty() {
            crate::email::templates::locale("locale", Some(locale))?;
        }
        sets.push((
            "locale",
            Value::from((!locale.is_empty()).then(|| locale.to_string())),
        ));
    }
    if !sets.is_empty() {
        let assignments: Vec<String> = sets
            .iter()
            .enumerate()
            .map(|(i, (col, _))| format!("{col} = ${}", i + 2))
            .collect();
        let mut values = vec![Value::from(id.to_string())];
        values.extend(sets.into_iter().map(|(_, v)| v));
        ctx.db
            .write(ctx.db.stmt(
                &format!(
                    "UPDATE workspaces SET {} WHERE id = $1",
                    assignments.join(", ")
                ),
                values,
            ))
            .await?;
    }
    let row = ctx
        .db
        .conn
        .query_one_raw(ctx.db.stmt(
            "SELECT sender_email, locale FROM workspaces WHERE id = $1",
            [Value::from(id.to_string())],
        ))
        .await?
        .ok_or_else(|| DomainError::NotFound(format!("no workspace with id {id}")))?;
    Ok(WorkspaceSettingsOut {
        workspace: get(ctx, id).await?,
        sender_email: row.try_get("", "sender_email")?,
        locale: row.try_get("", "locale")?,
    })
}
