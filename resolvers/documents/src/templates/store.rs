//! Templates and their versions as stored: read, listed, written.

use sea_orm::{ConnectionTrait, TransactionTrait, Value};

use signet_core::actor::{Actor, Scope};
use signet_core::answer::{self, Claim, Made};
use signet_core::clock::time;
use signet_core::metadata::Metadata;
use signet_core::page::PageRequest;
use signet_core::{Ctx, DomainError, ids};

use super::types::*;

pub(super) fn not_found(id: &str) -> DomainError {
    DomainError::NotFound(format!("no template with id {id}"))
}

/// A template row and its current version, as stored.
pub(super) struct Stored {
    pub out: TemplateOut,
    pub source: serde_json::Value,
    /// The key or person that made it.
    pub created_by: String,
}

const COLUMNS: &str = "t.id, t.kind, t.name, t.external_id, t.metadata, t.version, t.approved, \
    t.defaults, t.created_at, t.updated_at, t.created_by, v.source, v.paper, v.profile, v.seats, v.questions, v.fields, \
    v.warnings, v.pages";

fn from_row(r: &sea_orm::QueryResult) -> Result<Stored, DomainError> {
    let text = |c: &str| -> Result<String, DomainError> { Ok(r.try_get::<String>("", c)?) };
    let json_of = |c: &str| -> Result<serde_json::Value, DomainError> {
        serde_json::from_str(&text(c)?)
            .map_err(|e| DomainError::Internal(format!("template column {c}: {e}")))
    };
    let defaults: TemplateDefaults =
        serde_json::from_value(json_of("defaults")?).unwrap_or_default();
    Ok(Stored {
        out: TemplateOut {
            id: text("id")?,
            kind: text("kind")?,
            name: text("name")?,
            external_id: r.try_get("", "external_id")?,
            metadata: serde_json::from_value(json_of("metadata")?).unwrap_or_default(),
            version: r.try_get::<i32>("", "version")? as i64,
            approved: r.try_get("", "approved")?,
            seats: serde_json::from_value(json_of("seats")?).unwrap_or_default(),
            questions: serde_json::from_value(json_of("questions")?).unwrap_or_default(),
            fields: serde_json::from_value::<Vec<serde_json::Value>>(json_of("fields")?)
                .unwrap_or_default()
                .into_iter()
                .map(|f| TemplateFieldOut {
                    name: f["name"].as_str().unwrap_or_default().to_string(),
                    ty: f["type"].as_str().unwrap_or_default().to_string(),
                    role: f["role"].as_str().unwrap_or_default().to_string(),
                    required: f["required"].as_bool().unwrap_or(false),
                    areas: serde_json::from_value(f["areas"].clone()).unwrap_or_default(),
                })
                .collect(),
            paper: text("paper")?,
            profile: text("profile")?,
            pages: r.try_get::<Option<i32>>("", "pages")?.map(i64::from),
            warnings: serde_json::from_value(json_of("warnings")?).unwrap_or_default(),
            defaults,
            created_at: time(r.try_get("", "created_at")?),
            updated_at: time(r.try_get("", "updated_at")?),
        },
        source: json_of("source")?,
        created_by: text("created_by")?,
    })
}

pub(super) async fn load<C: ConnectionTrait>(
    conn: &C,
    ctx: &Ctx,
    actor: &Actor,
    id: &str,
) -> Result<Stored, DomainError> {
    if !id.starts_with("tpl_") || id.len() > 64 {
        return Err(not_found(id));
    }
    let row = conn
        .query_one_raw(ctx.db.stmt(
            &format!(
                "SELECT {COLUMNS} FROM templates t JOIN template_versions v \
                 ON v.template_id = t.id AND v.version = t.version \
                 WHERE t.id = $1 AND t.workspace_id = $2"
            ),
            [
                Value::from(id.to_string()),
                Value::from(actor.workspace_id.clone()),
            ],
        ))
        .await?
        .ok_or_else(|| not_found(id))?;
    from_row(&row)
}

/// What every way of making a template names: the name, metadata and externalId, in their
/// normal form; the request's rules (`TemplateSourceIn` and its kin) are checked first.
pub(super) struct Named {
    pub name: String,
    pub metadata: Metadata,
    pub external_id: Option<String>,
}

impl Named {
    pub(super) fn parse(
        name: &str,
        metadata: Option<&serde_json::Value>,
        external_id: &Option<String>,
    ) -> Result<Named, DomainError> {
        Ok(Named {
            name: name.trim().to_string(),
            metadata: Metadata::parse("metadata", metadata.unwrap_or(&serde_json::Value::Null))?,
            external_id: crate::input::trimmed(external_id),
        })
    }
}

/// A template's first version, as checked.
pub(super) struct NewTemplate {
    pub kind: &'static str,
    pub named: Named,
    pub source: String,
    pub paper: String,
    pub profile: String,
    pub report: signet_source::Report,
    pub fields: Vec<serde_json::Value>,
    pub warnings: Vec<String>,
    pub pages: Option<i64>,
}

/// Writes a new template and its first version, with a pending approval when the key is
/// draft-only, and stores the answer for replay.
pub(super) async fn insert(
    ctx: &Ctx,
    actor: &Actor,
    claim: Option<&Claim>,
    t: NewTemplate,
) -> Result<Made<TemplateOut>, DomainError> {
    insert_with_id(ctx, actor, claim, ids::new_id("tpl"), t).await
}

pub(super) async fn insert_with_id(
    ctx: &Ctx,
    actor: &Actor,
    claim: Option<&Claim>,
    id: String,
    t: NewTemplate,
) -> Result<Made<TemplateOut>, DomainError> {
    let now = ctx.now();
    let approved = !actor.draft_only;
    let txn = ctx.db.conn.begin().await?;
    txn.execute_raw(ctx.db.stmt(
        "INSERT INTO templates (id, workspace_id, kind, name, external_id, metadata, version, approved, \
         defaults, created_by, created_at, updated_at) VALUES ($1, $2, $9, $3, $4, $5, 1, $6, '{}', $7, $8, $8)",
        [
            Value::from(id.clone()),
            Value::from(actor.workspace_id.clone()),
            Value::from(t.named.name),
            Value::from(t.named.external_id),
            Value::from(serde_json::to_string(&t.named.metadata.0).unwrap_or_else(|_| "{}".into())),
            Value::from(approved),
            Value::from(actor.recorded().to_string()),
            Value::from(now),
            Value::from(t.kind),
        ],
    ))
    .await?;
    txn.execute_raw(ctx.db.stmt(
        "INSERT INTO template_versions (template_id, version, source, paper, profile, seats, questions, fields, \
         warnings, pages, created_at) VALUES ($1, 1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
        [
            Value::from(id.clone()),
            Value::from(t.source),
            Value::from(t.paper),
            Value::from(t.profile),
            Value::from(serde_json::to_string(&t.report.roles).unwrap_or_default()),
            Value::from(serde_json::to_string(&t.report.questions).unwrap_or_default()),
            Value::from(serde_json::to_string(&t.fields).unwrap_or_default()),
            Value::from(serde_json::to_string(&t.warnings).unwrap_or_else(|_| "[]".into())),
            Value::from(t.pages.map(|p| p as i32)),
            Value::from(now),
        ],
    ))
    .await?;
    if !approved {
        // A person decides it, with the approvals of draft-only keys' sends.
        txn.execute_raw(ctx.db.stmt(
            "INSERT INTO approvals (id, workspace_id, document_id, template_id, key_id, test, state, created_at) \
             VALUES ($1, $2, '', $3, $4, $5, 'pending', $6)",
            [
                Value::from(ids::new_id("apr")),
                Value::from(actor.workspace_id.clone()),
                Value::from(id.clone()),
                Value::from(actor.recorded().to_string()),
                Value::from(actor.mode == signet_core::Mode::Test),
                Value::from(now),
            ],
        ))
        .await?;
    }
    let out = load(&txn, ctx, actor, &id).await?.out;
    let made = answer::store(&txn, ctx, claim, 201, out).await?;
    txn.commit().await?;
    Ok(made)
}

/// GET /templates/{id}.
pub async fn get(ctx: &Ctx, actor: &Actor, id: &str) -> Result<TemplateOut, DomainError> {
    actor.require(Scope::TemplatesRead)?;
    Ok(load(&ctx.db.conn, ctx, actor, id).await?.out)
}

/// GET /documents/templates: approved, current templates with a seat, newest first; with
/// `all`, every template (the application's list: those waiting for approval, and files
/// whose fields are still to be placed, included).
pub async fn list(
    ctx: &Ctx,
    actor: &Actor,
    limit: Option<i64>,
    cursor: Option<&str>,
    all: bool,
) -> Result<TemplatePageOut, DomainError> {
    actor.require(Scope::TemplatesRead)?;
    let page = PageRequest::parse(limit, cursor)?;
    let mut values = vec![Value::from(actor.workspace_id.clone())];
    let mut filter = String::new();
    if let Some(before) = &page.before_id {
        values.push(Value::from(before.clone()));
        filter = " AND t.id < $2".into();
    }
    let sendable = if all {
        ""
    } else {
        " AND t.approved = TRUE AND v.seats <> '[]'"
    };
    let rows = ctx
        .db
        .conn
        .query_all_raw(ctx.db.stmt(
            &format!(
                "SELECT {COLUMNS} FROM templates t JOIN template_versions v \
                 ON v.template_id = t.id AND v.version = t.version \
                 WHERE t.workspace_id = $1{sendable}{filter} ORDER BY t.id DESC LIMIT {}",
                page.limit + 1
            ),
            values,
        ))
        .await?;
    let list = rows
        .iter()
        .map(|r| from_row(r).map(|s| s.out))
        .collect::<Result<Vec<_>, _>>()?;
    let p = page.finish(list, |t| &t.id);
    Ok(TemplatePageOut {
        data: p.data,
        page: p.page,
    })
}
