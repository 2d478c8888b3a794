//! The suppression list as the application shows it: the addresses a hard bounce or a
//! complaint stopped emailing in the workspace (both modes: an address is one mailbox),
//! searched and paged alphabetically, and lifted one at a time by an owner or admin (or a
//! key with `notifications:write`), each lift in the activity record. Feedback adds to the
//! list (`feedback`); `signet admin email unsuppress` lifts from the command line.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use sea_orm::{ConnectionTrait, Value};
use serde::Serialize;
use signet_core::clock::time;
use signet_core::page::{DEFAULT_LIMIT, MAX_LIMIT, PageInfo};
use signet_core::{Actor, Ctx, DomainError, Scope};

/// The longest search: an address's length.
const MAX_SEARCH: usize = 254;
const CURSOR_TAG: &str = "s1:";

#[derive(Clone, Debug, Serialize, async_graphql::SimpleObject)]
#[serde(rename_all = "camelCase")]
pub struct SuppressionOut {
    /// The address, lower case.
    pub address: String,
    /// Why: the kind of email that bounced (and its status code) or was reported as abuse.
    pub reason: String,
    /// The email whose bounce or complaint suppressed it.
    pub email_id: Option<String>,
    pub created_at: String,
}

#[derive(Clone, Debug, Serialize, async_graphql::SimpleObject)]
#[serde(rename_all = "camelCase")]
pub struct SuppressionPageOut {
    pub data: Vec<SuppressionOut>,
    pub page: PageInfo,
}

/// The list holds live recipients' addresses and decides whether live emails go: a test key
/// (which acts only on test documents) neither reads nor changes it.
fn not_a_test_key(actor: &Actor) -> Result<(), DomainError> {
    if actor.is_test_key() {
        return Err(DomainError::Forbidden(
            "the suppression list is the workspace's live mail: read and change it with a live key or in the application".into(),
        ));
    }
    Ok(())
}

fn bad_cursor() -> DomainError {
    DomainError::invalid("cursor", "is not a cursor this API returned")
}

/// The suppressed addresses of the workspace, alphabetically, those containing `search`
/// (case-insensitive) when given (notifications:read).
pub async fn list(
    ctx: &Ctx,
    actor: &Actor,
    search: Option<String>,
    limit: Option<i64>,
    cursor: Option<String>,
) -> Result<SuppressionPageOut, DomainError> {
    actor.require(Scope::NotificationsRead)?;
    not_a_test_key(actor)?;
    let limit = limit.unwrap_or(DEFAULT_LIMIT);
    if !(1..=MAX_LIMIT).contains(&limit) {
        return Err(DomainError::invalid(
            "limit",
            format!("must be between 1 and {MAX_LIMIT}, got {limit}"),
        ));
    }
    let after = match cursor.as_deref() {
        None | Some("") => None,
        Some(c) => {
            let raw = URL_SAFE_NO_PAD.decode(c).map_err(|_| bad_cursor())?;
            let s = String::from_utf8(raw).map_err(|_| bad_cursor())?;
            let a = s.strip_prefix(CURSOR_TAG).ok_or_else(bad_cursor)?;
            if a.is_empty() || a.len() > MAX_SEARCH {
                return Err(bad_cursor());
            }
            Some(a.to_string())
        }
    };
    let mut values = vec![
        Value::from(actor.workspace_id.to_string()),
        Value::from(limit + 1),
    ];
    let mut sql = String::from(
        "SELECT address, reason, email_id, created_at FROM email_suppressions WHERE workspace_id = $1",
    );
    if let Some(a) = after {
        values.push(Value::from(a));
        sql.push_str(&format!(" AND address > ${}", values.len()));
    }
    if let Some(s) = search
        .map(|s| s.trim().to_lowercase())
        .filter(|s| !s.is_empty())
    {
        if s.chars().count() > MAX_SEARCH {
            return Err(DomainError::invalid(
                "search",
                "is longer than an email address can be",
            ));
        }
        // The text as it is: `%` and `_` are matched literally.
        let escaped = s
            .replace('\\', "\\\\")
            .replace('%', "\\%")
            .replace('_', "\\_");
        values.push(Value::from(format!("%{escaped}%")));
        sql.push_str(&format!(" AND address LIKE ${} ESCAPE '\\'", values.len()));
    }
    sql.push_str(" ORDER BY address LIMIT $2");
    let rows = ctx.db.conn.query_all_raw(ctx.db.stmt(&sql, values)).await?;
    let mut data = rows
        .iter()
        .map(|r| {
            Ok(SuppressionOut {
                address: r.try_get("", "address")?,
                reason: r.try_get("", "reason")?,
                email_id: r.try_get("", "email_id")?,
                created_at: time(r.try_get("", "created_at")?),
            })
        })
        .collect::<Result<Vec<_>, DomainError>>()?;
    let more = data.len() as i64 > limit;
    data.truncate(limit as usize);
    let next_cursor = more
        .then(|| data.last())
        .flatten()
        .map(|s| URL_SAFE_NO_PAD.encode(format!("{CURSOR_TAG}{}", s.address)));
    Ok(SuppressionPageOut {
        data,
        page: PageInfo { next_cursor },
    })
}

/// Lets emails go to `address` again (notifications:write; a draft-only key cannot). Answers
/// whether it was suppressed; a lift is in the activity record.
pub async fn lift(ctx: &Ctx, actor: &Actor, address: &str) -> Result<bool, DomainError> {
    actor.require(Scope::NotificationsWrite)?;
    not_a_test_key(actor)?;
    if actor.draft_only {
        return Err(DomainError::Forbidden(
            "this key is draft-only: it cannot let emails go to a suppressed address".into(),
        ));
    }
    let address = address.trim().to_lowercase();
    if address.is_empty() || address.len() > MAX_SEARCH {
        return Err(DomainError::invalid("address", "must be an email address"));
    }
    let lifted = super::feedback::unsuppress(ctx, &actor.workspace_id, &address).await?;
    if lifted {
        signet_accounts::activity::record(
            &ctx.db.conn,
            ctx,
            actor,
            None,
            "email.unsuppressed",
            &address,
            "",
        )
        .await?;
    }
    Ok(lifted)
}
