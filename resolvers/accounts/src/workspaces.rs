//! Workspaces: the tenant every key, document and template belongs to.

use sea_orm::{ActiveModelTrait, EntityTrait, Set};
use serde::Serialize;
use signet_storage::entities::workspace;

use signet_core::plans::Plan;
use signet_core::{Ctx, DomainError, ids};
use signet_storage::Sql;

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

/// What a workspace's settings change may hold (`signet admin workspace update`, the
/// application's Settings); `None` leaves a setting alone, and an empty text clears it.
#[derive(Default)]
pub struct WorkspacePatch {
    pub name: Option<String>,
    pub plan: Option<Plan>,
    /// The IANA time zone its days (reports) begin and end in.
    pub time_zone: Option<String>,
    /// Where a test document's emails go when the document names no sender address.
    pub sender_email: Option<String>,
    /// The name its emails come from when the document names none (else the workspace's
    /// name).
    pub sender_name: Option<String>,
    /// Where replies to its emails go when the document names no address (else the sender
    /// address).
    pub reply_to: Option<String>,
    /// The language of emails whose person and document name none.
    pub locale: Option<String>,
    /// The websites that may show embedded signing (replaces the list; one empty entry
    /// clears it).
    pub embed_origins: Option<Vec<String>>,
    /// Embedded signing on or off.
    pub embedding: Option<bool>,
    /// Test mode for the whole workspace: every key and person works on test documents.
    pub test_mode: Option<bool>,
    /// AI drafting on or off (it also needs the operator's provider).
    pub ai_drafting: Option<bool>,
    /// AI drafting jobs a day.
    pub ai_daily_limit: Option<i64>,
}

/// The most websites a workspace may allow.
pub const MAX_EMBED_ORIGINS: usize = 20;
/// The most AI drafting jobs a day a workspace may allow itself.
pub const MAX_AI_DAILY: i64 = 1_000;

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

/// Whether `origin` may show this workspace's frames now: embedding on and the website on
/// its list; else the 409 that says which and how to change it.
pub async fn embeddable<C: sea_orm::ConnectionTrait>(
    conn: &C,
    ctx: &Ctx,
    workspace_id: &str,
    origin: &str,
) -> Result<(), DomainError> {
    let embedding = embedding(conn, ctx, workspace_id).await?;
    if !embedding.on {
        return Err(DomainError::conflict(
            "embedding is off for this workspace: an owner or admin turns it on in Settings \
             (or `signet admin workspace update ID --embedding on`)",
        ));
    }
    if !embedding.origins.iter().any(|o| o == origin) {
        return Err(DomainError::conflict(format!(
            "{origin} is not on this workspace's list of websites allowed to embed \
             (Settings, or `signet admin workspace update ID --embed-origin {origin}`)"
        )));
    }
    Ok(())
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

/// A workspace's settings, as the operator's command and the application show them.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct WorkspaceSettingsOut {
    #[serde(flatten)]
    pub workspace: WorkspaceOut,
    pub sender_email: Option<String>,
    pub sender_name: Option<String>,
    pub reply_to: Option<String>,
    pub locale: Option<String>,
    /// Whether embedded signing is on.
    pub embedding: bool,
    /// The websites that may show embedded signing.
    pub embed_origins: Vec<String>,
    pub test_mode: bool,
    pub ai_drafting: bool,
    pub ai_daily_limit: i64,
}

/// A line of text a setting holds: trimmed, `max` characters at most, nothing that controls
/// or disguises text; empty clears the setting.
fn line(field: &str, v: &str, max: usize) -> Result<Option<String>, DomainError> {
    let v = v.trim();
    if v.chars().count() > max {
        return Err(DomainError::invalid(
            field,
            format!("must be at most {max} characters"),
        ));
    }
    if v.chars()
        .any(|c| c.is_control() || signet_core::fields::is_disguising(c))
    {
        return Err(DomainError::invalid(
            field,
            "must not hold control characters or text-direction overrides",
        ));
    }
    Ok((!v.is_empty()).then(|| v.to_string()))
}

fn address(field: &str, v: &str) -> Result<Option<String>, DomainError> {
    let v = v.trim();
    if !v.is_empty() && (v.len() > 254 || !signet_core::fields::is_email(v)) {
        return Err(DomainError::invalid(
            field,
            format!("'{v}' is not an email address"),
        ));
    }
    Ok((!v.is_empty()).then(|| v.to_string()))
}

/// Columns to set, each with its value.
pub type Sets = Vec<(&'static str, sea_orm::Value)>;

/// The columns a patch sets, each checked, and the names of the settings it changes (for
/// the activity record).
pub fn assignments(patch: &WorkspacePatch) -> Result<(Sets, Vec<String>), DomainError> {
    use sea_orm::Value;
    let mut sets: Vec<(&'static str, Value)> = Vec::new();
    let mut named: Vec<String> = Vec::new();
    let mut set = |col: &'static str, name: &str, v: Value| {
        sets.push((col, v));
        named.push(name.to_string());
    };
    if let Some(name) = &patch.name {
        let name = line("name", name, 200)?
            .ok_or_else(|| DomainError::invalid("name", "must be 1 to 200 characters"))?;
        set("name", "name", Value::from(name));
    }
    if let Some(plan) = patch.plan {
        set("plan", "plan", Value::from(plan.as_str()));
    }
    if let Some(tz) = &patch.time_zone {
        set(
            "time_zone",
            "timeZone",
            Value::from(parse_time_zone(tz.trim())?),
        );
    }
    if let Some(a) = &patch.sender_email {
        set(
            "sender_email",
            "senderEmail",
            Value::from(address("senderEmail", a)?),
        );
    }
    if let Some(n) = &patch.sender_name {
        set(
            "sender_name",
            "senderName",
            Value::from(line("senderName", n, 100)?),
        );
    }
    if let Some(a) = &patch.reply_to {
        set("reply_to", "replyTo", Value::from(address("replyTo", a)?));
    }
    if let Some(locale) = &patch.locale {
        let locale = locale.trim();
        if !locale.is_empty() {
            signet_core::languages::locale("language", Some(locale))?;
        }
        set(
            "locale",
            "language",
            Value::from((!locale.is_empty()).then(|| locale.to_string())),
        );
    }
    if let Some(list) = &patch.embed_origins {
        let mut origins: Vec<String> = Vec::new();
        for o in list.iter().filter(|o| !o.trim().is_empty()) {
            let o = origin("embedOrigins", o)?;
            if !origins.contains(&o) {
                origins.push(o);
            }
            if origins.len() > MAX_EMBED_ORIGINS {
                return Err(DomainError::invalid(
                    "embedOrigins",
                    format!("a workspace allows at most {MAX_EMBED_ORIGINS} websites"),
                ));
            }
        }
        set(
            "embed_origins",
            "embedOrigins",
            Value::from(serde_json::to_string(&origins).unwrap_or_else(|_| "[]".into())),
        );
    }
    if let Some(on) = patch.embedding {
        set("embedding", "embedding", Value::from(on));
    }
    if let Some(on) = patch.test_mode {
        set("test_mode", "testMode", Value::from(on));
    }
    if let Some(on) = patch.ai_drafting {
        set("ai_drafting", "aiDrafting", Value::from(on));
    }
    if let Some(n) = patch.ai_daily_limit {
        if !(1..=MAX_AI_DAILY).contains(&n) {
            return Err(DomainError::invalid(
                "aiDailyLimit",
                format!("must be 1 to {MAX_AI_DAILY}"),
            ));
        }
        set("ai_daily_limit", "aiDailyLimit", Value::from(n as i32));
    }
    Ok((sets, named))
}

/// Changes a workspace's settings in one transaction; a change that running servers must
/// see at once (the name keys carry, test mode) moves the key cache's epoch in it. With an
/// `actor`, the change is in the activity record, in the same transaction.
pub async fn apply(
    ctx: &Ctx,
    id: &str,
    patch: WorkspacePatch,
    actor: Option<&signet_core::Actor>,
) -> Result<WorkspaceSettingsOut, DomainError> {
    use sea_orm::Value;
    let workspace_id = id;
    get(ctx, id).await?;
    let (sets, named) = assignments(&patch)?;
    if !sets.is_empty() {
        let assignments: Vec<String> = sets
            .iter()
            .enumerate()
            .map(|(i, (col, _))| format!("{col} = ${}", i + 2))
            .collect();
        let mut values = vec![Value::from(id.to_string())];
        values.extend(sets.into_iter().map(|(_, v)| v));
        let update = ctx.db.stmt(
            &format!(
                "UPDATE workspaces SET {} WHERE id = $1",
                assignments.join(", ")
            ),
            values,
        );
        // Keys and sessions carry the name and test mode: only then must every server forget
        // what it holds (the epoch empties every key cache).
        let bump = (patch.name.is_some() || patch.test_mode.is_some()).then(|| {
            ctx.db
                .stmt("UPDATE auth_epoch SET value = value + 1 WHERE id = 1", [])
        });
        let detail = match patch.test_mode {
            Some(on) => format!(
                "{} (test mode {})",
                named.join(", "),
                if on { "on" } else { "off" }
            ),
            None => named.join(", "),
        };
        let (c, actor, id) = (ctx.clone(), actor.cloned(), id.to_string());
        ctx.db
            .transaction(move |txn| async move {
                txn.exec(update).await?;
                if let Some(bump) = bump {
                    txn.exec(bump).await?;
                }
                if let Some(a) = &actor {
                    crate::activity::record(&*txn, &c, a, None, "settings.changed", &id, &detail)
                        .await?;
                }
                Ok::<_, DomainError>(())
            })
            .await?;
        if patch.name.is_some() || patch.test_mode.is_some() {
            crate::keys::cache(ctx).clear();
        }
        if patch.embedding.is_some() || patch.embed_origins.is_some() {
            end_refused_frames(ctx, workspace_id).await?;
        }
    }
    settings(ctx, id).await
}

/// Ends the frames' keys of `workspace_id` whose website may no longer show its frames
/// (embedding turned off, or the website taken off the list): a session open in a browser
/// stops at its next call, not an hour later. Answers how many keys ended. (Here rather than
/// in `frames`, which asks this module whether a website may embed.)
pub async fn end_refused_frames(ctx: &Ctx, workspace_id: &str) -> Result<u64, DomainError> {
    use sea_orm::{ConnectionTrait, TransactionTrait, Value};
    let now = ctx.now();
    let allowed = embedding(&ctx.db.conn, ctx, workspace_id).await?;
    let rows = ctx
        .db
        .conn
        .query_all_raw(ctx.db.stmt(
            "SELECT l.key_id, l.origin FROM frame_links l JOIN api_keys k ON k.id = l.key_id \
             WHERE l.workspace_id = $1 AND l.expires_at > $2 AND k.revoked_at IS NULL",
            [Value::from(workspace_id.to_string()), Value::from(now)],
        ))
        .await?;
    let mut refused = Vec::new();
    for r in rows {
        let (key, origin): (String, String) = (r.try_get("", "key_id")?, r.try_get("", "origin")?);
        if !(allowed.on && allowed.origins.contains(&origin)) {
            refused.push(key);
        }
    }
    if refused.is_empty() {
        return Ok(0);
    }
    let txn = ctx.db.conn.begin().await?;
    let mut ended = 0;
    for key in &refused {
        ended += txn
            .execute_raw(ctx.db.stmt(
                "UPDATE api_keys SET revoked_at = $2 WHERE id = $1 AND revoked_at IS NULL",
                [Value::from(key.clone()), Value::from(now)],
            ))
            .await?
            .rows_affected();
    }
    crate::keys::cache::bump(&txn, ctx).await?;
    txn.commit().await?;
    crate::keys::cache(ctx).clear();
    Ok(ended)
}

/// `signet admin workspace update`: [`apply`] as the operator.
pub async fn update(
    ctx: &Ctx,
    id: &str,
    patch: WorkspacePatch,
) -> Result<WorkspaceSettingsOut, DomainError> {
    apply(ctx, id, patch, None).await
}

/// A workspace's settings as they are.
pub async fn settings(ctx: &Ctx, id: &str) -> Result<WorkspaceSettingsOut, DomainError> {
    use sea_orm::{ConnectionTrait, Value};
    let row = ctx
        .db
        .conn
        .query_one_raw(ctx.db.stmt(
            "SELECT sender_email, sender_name, reply_to, locale, test_mode, ai_drafting, ai_daily_limit \
             FROM workspaces WHERE id = $1",
            [Value::from(id.to_string())],
        ))
        .await?
        .ok_or_else(|| DomainError::NotFound(format!("no workspace with id {id}")))?;
    let embed = embedding(&ctx.db.conn, ctx, id).await?;
    Ok(WorkspaceSettingsOut {
        workspace: get(ctx, id).await?,
        sender_email: row.try_get("", "sender_email")?,
        sender_name: row.try_get("", "sender_name")?,
        reply_to: row.try_get("", "reply_to")?,
        locale: row.try_get("", "locale")?,
        embedding: embed.on,
        embed_origins: embed.origins,
        test_mode: row.try_get("", "test_mode")?,
        ai_drafting: row.try_get("", "ai_drafting")?,
        ai_daily_limit: row.try_get::<i32>("", "ai_daily_limit")? as i64,
    })
}

/// What emails and the signing page need of a workspace: its name and plan, and the
/// language, sender name, sender address and reply-to of its emails.
#[derive(Clone, Debug)]
pub struct Profile {
    pub name: String,
    pub plan: Plan,
    pub locale: Option<String>,
    pub sender_email: Option<String>,
    pub sender_name: Option<String>,
    pub reply_to: Option<String>,
}

/// The workspace's [`Profile`], `None` when there is no such workspace.
pub async fn profile(ctx: &Ctx, id: &str) -> Result<Option<Profile>, DomainError> {
    use sea_orm::{ConnectionTrait, Value};
    let row = ctx
        .db
        .conn
        .query_one_raw(ctx.db.stmt(
            "SELECT name, plan, locale, sender_email, sender_name, reply_to FROM workspaces WHERE id = $1",
            [Value::from(id.to_string())],
        ))
        .await?;
    let Some(r) = row else { return Ok(None) };
    Ok(Some(Profile {
        name: r.try_get("", "name")?,
        plan: Plan::parse(&r.try_get::<String>("", "plan")?).unwrap_or(Plan::Free),
        locale: r.try_get("", "locale")?,
        sender_email: r.try_get("", "sender_email")?,
        sender_name: r.try_get("", "sender_name")?,
        reply_to: r.try_get("", "reply_to")?,
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
