//! The email log: one entry per email, newest first, never a body or a link. An email in
//! the hands of a worker right now is not listed until it has an outcome.

use sea_orm::{ConnectionTrait, QueryResult, Value};
use serde::Serialize;

use super::Kind;
use signet_core::clock::time;
use signet_core::page::{PageInfo, PageRequest};
use signet_core::{Actor, Ctx, DomainError, Mode, Scope};

/// The statuses a caller sees.
pub const STATUSES: [&str; 6] = [
    "sent",
    "delivered",
    "bounced",
    "complained",
    "failed",
    "paused",
];

#[derive(Clone, Debug, Serialize, utoipa::ToSchema, async_graphql::SimpleObject)]
#[serde(rename_all = "camelCase")]
pub struct EmailOut {
    pub id: String,
    /// invitation, reminder, completed, declined, voided, expired, code or receipt.
    pub kind: String,
    /// The address it went to (for a test document, the sender's).
    pub to: String,
    pub subject: String,
    /// sent (accepted by the mail server, or written to the mail folder), delivered, bounced,
    /// complained, failed (refused for good, or suppressed) or paused (waiting: the daily
    /// allowance is used, or the mail server asked to try later).
    pub status: String,
    pub locale: String,
    pub document_id: Option<String>,
    pub person_id: Option<String>,
    pub test: bool,
    /// Why it failed, bounced or waits.
    pub reason: Option<String>,
    pub created_at: String,
    /// When the mail server accepted it.
    pub sent_at: Option<String>,
    pub updated_at: String,
}

#[derive(Clone, Debug, Serialize, utoipa::ToSchema, async_graphql::SimpleObject)]
#[serde(rename_all = "camelCase")]
pub struct EmailPageOut {
    pub data: Vec<EmailOut>,
    pub page: PageInfo,
}

pub(crate) const COLUMNS: &str = "id, kind, to_address, subject, status, locale, document_id, person_id, test, reason, \
                                  created_at, sent_at, updated_at";

pub(crate) fn out_of(r: &QueryResult) -> Result<EmailOut, DomainError> {
    Ok(EmailOut {
        id: r.try_get("", "id")?,
        kind: r.try_get("", "kind")?,
        to: r.try_get("", "to_address")?,
        subject: r.try_get("", "subject")?,
        status: r.try_get("", "status")?,
        locale: r.try_get("", "locale")?,
        document_id: r.try_get("", "document_id")?,
        person_id: r
            .try_get::<Option<String>>("", "person_id")?
            .filter(|p| !p.is_empty()),
        test: r.try_get("", "test")?,
        reason: r.try_get("", "reason")?,
        created_at: time(r.try_get("", "created_at")?),
        sent_at: r.try_get::<Option<i64>>("", "sent_at")?.map(time),
        updated_at: time(r.try_get("", "updated_at")?),
    })
}

/// Filters of GET /emails.
#[derive(Clone, Debug, Default)]
pub struct EmailFilter {
    pub document_id: Option<String>,
    pub to: Option<String>,
    pub status: Option<String>,
    pub kind: Option<String>,
}

/// GET /emails
pub async fn list(
    ctx: &Ctx,
    actor: &Actor,
    filter: EmailFilter,
    limit: Option<i64>,
    cursor: Option<String>,
) -> Result<EmailPageOut, DomainError> {
    actor.require(Scope::NotificationsRead)?;
    let page = PageRequest::parse(limit, cursor.as_deref())?;
    let mut values = vec![
        Value::from(actor.workspace_id.clone()),
        Value::from(actor.mode == Mode::Test),
        Value::from(page.limit as i64 + 1),
    ];
    let mut sql = format!(
        "SELECT {COLUMNS} FROM emails WHERE workspace_id = $1 AND test = $2 AND status <> 'queued'"
    );
    let mut add = |cond: &str, v: String| {
        values.push(Value::from(v));
        sql.push_str(&format!(" AND {cond} ${}", values.len()));
    };
    if let Some(b) = &page.before_id {
        add("id <", b.clone());
    }
    if let Some(d) = filter.document_id.filter(|d| !d.is_empty()) {
        add("document_id =", d);
    }
    if let Some(to) = filter.to.filter(|t| !t.is_empty()) {
        if to.len() > 254 {
            return Err(DomainError::invalid(
                "to",
                "is longer than an email address can be",
            ));
        }
        add("to_address =", to.trim().to_lowercase());
    }
    if let Some(s) = filter.status.filter(|s| !s.is_empty()) {
        if !STATUSES.contains(&s.as_str()) {
            return Err(DomainError::invalid(
                "status",
                format!("'{s}' is not one of {}", STATUSES.join(", ")),
            ));
        }
        add("status =", s);
    }
    if let Some(k) = filter.kind.filter(|k| !k.is_empty()) {
        add(
            "kind =",
            Kind::parse_field("kind", &k)?.as_str().to_string(),
        );
    }
    sql.push_str(" ORDER BY id DESC LIMIT $3");
    let rows = ctx.db.conn.query_all_raw(ctx.db.stmt(&sql, values)).await?;
    let rows = rows.iter().map(out_of).collect::<Result<Vec<_>, _>>()?;
    let p = page.finish(rows, |r| &r.id);
    Ok(EmailPageOut {
        data: p.data,
        page: p.page,
    })
}
