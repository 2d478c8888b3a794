//! Playbooks: named, ordered sets of plays, what Scribe offers a person.

use sea_orm::{ConnectionTrait, Value};
use signet_core::clock::time;
use signet_core::{Actor, Ctx, DomainError, Scope};

use crate::access::allow;
use crate::library;
use crate::types::*;

/// Playbooks a workspace keeps.
pub const MAX_PLAYBOOKS: i64 = 50;
/// Plays one playbook names.
pub const MAX_PLAYS: usize = 20;

fn of_row(r: &sea_orm::QueryResult) -> Result<PlaybookOut, DomainError> {
    let plays: String = r.try_get("", "plays")?;
    Ok(PlaybookOut {
        name: r.try_get("", "name")?,
        title: r.try_get("", "title")?,
        description: r.try_get("", "description")?,
        plays: serde_json::from_str(&plays)
            .map_err(|e| DomainError::Internal(format!("playbook plays: {e}")))?,
        created_at: time(r.try_get("", "created_at")?),
        updated_at: time(r.try_get("", "updated_at")?),
    })
}

/// GET /playbooks: the workspace's playbooks by name.
pub async fn list(ctx: &Ctx, actor: &Actor) -> Result<PlaybookListOut, DomainError> {
    allow(actor, Scope::PlaysRead)?;
    let rows = ctx
        .db
        .conn
        .query_all_raw(ctx.db.stmt(
            "SELECT name, title, description, plays, created_at, updated_at FROM playbooks \
             WHERE workspace_id = $1 ORDER BY name",
            [Value::from(actor.workspace_id.to_string())],
        ))
        .await?;
    Ok(PlaybookListOut {
        data: rows.iter().map(of_row).collect::<Result<_, _>>()?,
    })
}

/// POST /playbooks: saves a playbook under its name (saving a name again replaces it). Every
/// play it names must be one drafts could use now.
pub async fn save(ctx: &Ctx, actor: &Actor, body: PlaybookIn) -> Result<PlaybookOut, DomainError> {
    allow(actor, Scope::PlaysWrite)?;
    let name = body.name.trim().to_string();
    if !crate::header::is_slug(&name, 64) {
        return Err(DomainError::invalid(
            "name",
            "must be 2 to 64 lower-case letters, digits, - and _, starting with a letter",
        ));
    }
    let title = signet_core::fields::line("title", &body.title, 120)?;
    if title.is_empty() {
        return Err(DomainError::invalid("title", "must be 1 to 120 characters"));
    }
    let description = match body.description.as_deref().map(str::trim) {
        None | Some("") => None,
        Some(d) => Some(signet_core::fields::line("description", d, 200)?),
    };
    if body.plays.is_empty() || body.plays.len() > MAX_PLAYS {
        return Err(DomainError::invalid(
            "plays",
            format!("must name 1 to {MAX_PLAYS} plays"),
        ));
    }
    let mut plays: Vec<String> = Vec::with_capacity(body.plays.len());
    for (i, p) in body.plays.iter().enumerate() {
        let p = p.trim();
        if plays.iter().any(|x| x == p) {
            return Err(DomainError::invalid(
                &format!("plays[{i}]"),
                format!("'{p}' is named twice"),
            ));
        }
        if p.len() > 64 || !library::exists(ctx, &actor.workspace_id, p).await? {
            return Err(DomainError::invalid(
                &format!("plays[{i}]"),
                format!(
                    "no play named '{}': name a built-in play or one of the workspace's",
                    p.chars().take(64).collect::<String>()
                ),
            ));
        }
        plays.push(p.to_string());
    }
    let ws = actor.workspace_id.to_string();
    let count = ctx
        .db
        .conn
        .query_one_raw(ctx.db.stmt(
            "SELECT COUNT(*) AS n FROM playbooks WHERE workspace_id = $1 AND name <> $2",
            [Value::from(ws.clone()), Value::from(name.clone())],
        ))
        .await?
        .map(|r| r.try_get::<i64>("", "n"))
        .transpose()?
        .unwrap_or(0);
    if count >= MAX_PLAYBOOKS {
        return Err(DomainError::Forbidden(format!(
            "a workspace has at most {MAX_PLAYBOOKS} playbooks; replace one by saving its name"
        )));
    }
    let now = ctx.now();
    ctx.db
        .write(ctx.db.stmt(
            "INSERT INTO playbooks (workspace_id, name, title, description, plays, created_at, \
             updated_at) VALUES ($1, $2, $3, $4, $5, $6, $6) ON CONFLICT (workspace_id, name) \
             DO UPDATE SET title = $3, description = $4, plays = $5, updated_at = $6",
            [
                Value::from(ws.clone()),
                Value::from(name.clone()),
                Value::from(title),
                Value::from(description),
                Value::from(serde_json::to_string(&plays).unwrap_or_default()),
                Value::from(now),
            ],
        ))
        .await?;
    let r = ctx
        .db
        .conn
        .query_one_raw(ctx.db.stmt(
            "SELECT name, title, description, plays, created_at, updated_at FROM playbooks \
             WHERE workspace_id = $1 AND name = $2",
            [Value::from(ws), Value::from(name)],
        ))
        .await?
        .ok_or_else(|| DomainError::Internal("a playbook just saved".into()))?;
    of_row(&r)
}
