//! Workspaces: the tenant every key, document and template belongs to.

use sea_orm::{ActiveModelTrait, EntityTrait, Set};
use serde::Serialize;
use signet_storage::entities::workspace;

use signet_core::plans::Plan;
use signet_core::{Ctx, DomainError, ids};

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
        created_at: Set(ctx.now()),
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
    /// The websites that may show embedded signing (replaces the list; one empty entry
    /// clears it).
    pub embed_origins: Option<Vec<String>>,
    /// Embedded signing on or off.
    pub embedding: Option<bool>,
}

/// The most websites a workspace may allow.
pub const MAX_EMBED_ORIGINS: usize = 20;

/// A website as embedding names it: `scheme://host[:port]`, lower case, no path. `https`, or
/// `http` for this machine only (127.0.0.1, localhost, [::1]).
pub fn origin(field: &str, given: &str) -> Result<String, DomainError> {
    let bad = |why: &str| DomainError::invalid(field, format!("'{given}' {why}"));
    let url = url::Url::parse(given.trim()).map_err(|_| bad("is not a website address"))?;
    let host = url
        .host_str()
        .ok_or_else(|| bad("has no host"))?
        .to_ascii_lowercase();
    // A name or an address, nothing a header could read as more (`*`, `;`, spaces).
    if !host
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '[' | ']' | ':'))
    {
        return Err(bad("has a host that is not a plain name or address"));
    }
    let local = matches!(host.as_str(), "127.0.0.1" | "localhost" | "[::1]");
    match url.scheme() {
        "https" => {}
        "http" if local => {}
        _ => return Err(bad("must be https (http only for 127.0.0.1 or localhost)")),
    }
    if url.path() != "/" || url.query().is_some() || url.fragment().is_some() {
        return Err(bad(
            "must be a website alone, without a path: https://app.example.com",
        ));
    }
    if !url.username().is_empty() || url.password().is_some() {
        return Err(bad("must not carry a user name or password"));
    }
    Ok(match url.port() {
        Some(p) => format!("{}://{host}:{p}", url.scheme()),
        None => format!("{}://{host}", url.scheme()),
    })
}

/// Whether a workspace embeds, and from which websites.
#[derive(Clone, Debug, Default)]
pub struct Embedding {
    pub on: bool,
    pub origins: Vec<String>,
}

pub async fn embedding<C: sea_orm::ConnectionTrait>(
    conn: &C,
    ctx: &Ctx,
    id: &str,
) -> Result<Embedding, DomainError> {
    use sea_orm::Value;
    let row = conn
        .query_one_raw(ctx.db.stmt(
            "SELECT embedding, embed_origins FROM workspaces WHERE id = $1",
            [Value::from(id.to_string())],
        ))
        .await?
        .ok_or_else(|| DomainError::NotFound(format!("no workspace with id {id}")))?;
    let origins: Option<String> = row.try_get("", "embed_origins")?;
    Ok(Embedding {
        on: row.try_get("", "embedding")?,
        origins: origins
            .and_then(|o| serde_json::from_str(&o).ok())
            .unwrap_or_default(),
    })
}

/// The settings emails read, beside the workspace record.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct WorkspaceSettingsOut {
    #[serde(flatten)]
    pub workspace: WorkspaceOut,
    pub sender_email: Option<String>,
    pub locale: Option<String>,
    /// Whether embedded signing is on.
    pub embedding: bool,
    /// The websites that may show embedded signing.
    pub embed_origins: Vec<String>,
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
        if !address.is_empty() && !signet_core::fields::is_email(address) {
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
            signet_core::languages::locale("locale", Some(locale))?;
        }
        sets.push((
            "locale",
            Value::from((!locale.is_empty()).then(|| locale.to_string())),
        ));
    }
    if let Some(list) = &patch.embed_origins {
        let mut origins: Vec<String> = Vec::new();
        for o in list.iter().filter(|o| !o.trim().is_empty()) {
            let o = origin("embed-origin", o)?;
            if !origins.contains(&o) {
                origins.push(o);
            }
        }
        if origins.len() > MAX_EMBED_ORIGINS {
            return Err(DomainError::invalid(
                "embed-origin",
                format!("a workspace allows at most {MAX_EMBED_ORIGINS} websites"),
            ));
        }
        sets.push((
            "embed_origins",
            Value::from(serde_json::to_string(&origins).unwrap_or_else(|_| "[]".into())),
        ));
    }
    if let Some(on) = patch.embedding {
        sets.push(("embedding", Value::from(on)));
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
    let embed = embedding(&ctx.db.conn, ctx, id).await?;
    Ok(WorkspaceSettingsOut {
        workspace: get(ctx, id).await?,
        sender_email: row.try_get("", "sender_email")?,
        locale: row.try_get("", "locale")?,
        embedding: embed.on,
        embed_origins: embed.origins,
    })
}

/// What emails and the signing page need of a workspace: its name and plan, and the language
/// and sender address of its emails.
#[derive(Clone, Debug)]
pub struct Profile {
    pub name: String,
    pub plan: Plan,
    pub locale: Option<String>,
    pub sender_email: Option<String>,
}

/// The workspace's [`Profile`], `None` when there is no such workspace.
pub async fn profile(ctx: &Ctx, id: &str) -> Result<Option<Profile>, DomainError> {
    use sea_orm::{ConnectionTrait, Value};
    let row = ctx
        .db
        .conn
        .query_one_raw(ctx.db.stmt(
            "SELECT name, plan, locale, sender_email FROM workspaces WHERE id = $1",
            [Value::from(id.to_string())],
        ))
        .await?;
    let Some(r) = row else { return Ok(None) };
    Ok(Some(Profile {
        name: r.try_get("", "name")?,
        plan: Plan::parse(&r.try_get::<String>("", "plan")?).unwrap_or(Plan::Free),
        locale: r.try_get("", "locale")?,
        sender_email: r.try_get("", "sender_email")?,
    }))
}

/// The statement that locks a workspace's row until the transaction ends (PostgreSQL; the
/// embedded default has one writer), so that racing writes counted against the workspace
/// cannot pass a cap together.
pub fn lock(db: &signet_storage::Db, id: &str) -> sea_orm::Statement {
    db.stmt(
        "UPDATE workspaces SET id = id WHERE id = $1",
        [sea_orm::Value::from(id.to_string())],
    )
}
