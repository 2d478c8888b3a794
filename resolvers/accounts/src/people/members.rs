//! Persons (one address across the installation) and their memberships: a role in one
//! workspace. What each role may do is written in docs/decisions/the-application.md; a
//! session's scopes are its role's (`scopes_of`), so that one check serves keys and people.

use sea_orm::{ConnectionTrait, Value};
use signet_core::actor::{Role, Scope, Scopes};
use signet_core::{Ctx, DomainError, ids};

/// The longest address and name a person may have.
const MAX_EMAIL: usize = 254;
const MAX_NAME: usize = 200;

/// A role from its name.
pub fn parse_role(s: &str) -> Option<Role> {
    match s {
        "owner" => Some(Role::Owner),
        "admin" => Some(Role::Admin),
        "member" => Some(Role::Member),
        "viewer" => Some(Role::Viewer),
        _ => None,
    }
}

/// What a role may do, in the scopes' terms (the table in docs/decisions/the-application.md):
/// a viewer reads documents, templates, plays, the usage and the report; a member also makes,
/// sends and embeds documents and templates and drafts; an admin and an owner hold every
/// scope (what only they may do beyond scopes, such as members and settings, is checked by
/// role). Listed one by one, so that a scope added later is nobody's until given here.
pub fn scopes_of(role: Role) -> Scopes {
    const VIEWER: &[Scope] = &[
        Scope::DocumentsRead,
        Scope::TemplatesRead,
        Scope::PlaysRead,
        Scope::ReportsRead,
        Scope::AccountRead,
    ];
    const MEMBER: &[Scope] = &[
        Scope::DocumentsWrite,
        Scope::TemplatesWrite,
        Scope::EmbeddedWrite,
        Scope::DraftsWrite,
    ];
    match role {
        Role::Owner | Role::Admin => Scopes::all(),
        Role::Member => VIEWER.iter().chain(MEMBER).copied().collect(),
        Role::Viewer => VIEWER.iter().copied().collect(),
    }
}

/// Whether a name a person is shown by holds no control character and nothing that disguises
/// text (a right-to-left override turning a name around in an email).
pub fn plain(name: &str) -> bool {
    !name
        .chars()
        .any(|c| c.is_control() || signet_core::fields::is_disguising(c))
}

/// An address as stored: trimmed and lower-cased; refused when it is not an address.
pub fn address(email: &str) -> Result<String, DomainError> {
    let e = email.trim().to_lowercase();
    if e.len() > MAX_EMAIL || !signet_core::fields::is_email(&e) {
        return Err(DomainError::Invalid(
            "email: must be an email address of at most 254 characters".into(),
        ));
    }
    Ok(e)
}

/// The person with this address, if any (`usr_…`).
pub async fn person_by_email(ctx: &Ctx, email: &str) -> Result<Option<String>, DomainError> {
    let row = ctx
        .db
        .conn
        .query_one_raw(ctx.db.stmt(
            "SELECT id FROM users WHERE email = $1",
            [Value::from(address(email)?)],
        ))
        .await?;
    Ok(match row {
        Some(r) => Some(r.try_get("", "id")?),
        None => None,
    })
}

/// The person with this address, made when there is none yet.
pub async fn ensure_person(
    ctx: &Ctx,
    email: &str,
    name: &str,
    language: &str,
) -> Result<String, DomainError> {
    let email = address(email)?;
    let name = name.trim();
    if name.is_empty() || name.chars().count() > MAX_NAME || !plain(name) {
        return Err(DomainError::Invalid(
            "name: must be 1 to 200 characters, with no control characters".into(),
        ));
    }
    if !signet_core::languages::LANGUAGES.contains(&language) {
        return Err(DomainError::Invalid(format!(
            "language: '{language}' is not one of {}",
            signet_core::languages::LANGUAGES.join(", ")
        )));
    }
    if let Some(id) = person_by_email(ctx, &email).await? {
        return Ok(id);
    }
    let id = ids::new_id("usr");
    ctx.db
        .conn
        .execute_raw(ctx.db.stmt(
            "INSERT INTO users (id, email, name, language, created_at) VALUES ($1, $2, $3, $4, $5) \
             ON CONFLICT (email) DO NOTHING",
            [
                Value::from(id.as_str()),
                Value::from(email.as_str()),
                Value::from(name),
                Value::from(language),
                Value::from(ctx.now()),
            ],
        ))
        .await?;
    // Another request may have made the person first: theirs is the one.
    person_by_email(ctx, &email)
        .await?
        .ok_or_else(|| DomainError::Internal("a person just made is missing".into()))
}

/// Takes the workspace's lock for the rest of the caller's transaction (its row written as
/// it is): changes to who owns a workspace are made one after the other.
pub(super) async fn lock_workspace<C: ConnectionTrait>(
    conn: &C,
    ctx: &Ctx,
    workspace_id: &str,
) -> Result<(), DomainError> {
    let found = conn
        .execute_raw(ctx.db.stmt(
            "UPDATE workspaces SET name = name WHERE id = $1",
            [Value::from(workspace_id)],
        ))
        .await?
        .rows_affected();
    if found == 0 {
        return Err(DomainError::NotFound(format!(
            "no workspace {workspace_id}"
        )));
    }
    Ok(())
}

/// Refuses, inside the caller's transaction after its change, a workspace left without an
/// owner.
pub(super) async fn owner_left<C: ConnectionTrait>(
    conn: &C,
    ctx: &Ctx,
    workspace_id: &str,
) -> Result<(), DomainError> {
    let left: i64 = conn
        .query_one_raw(ctx.db.stmt(
            "SELECT COUNT(*) AS n FROM members WHERE workspace_id = $1 AND role = 'owner'",
            [Value::from(workspace_id)],
        ))
        .await?
        .map(|r| r.try_get("", "n"))
        .transpose()?
        .unwrap_or(0);
    if left == 0 {
        return Err(DomainError::Conflict {
            message: "the last owner stays: a workspace keeps at least one owner; make another owner first".into(),
            retryable: false,
        });
    }
    Ok(())
}

/// Gives a person a role in a workspace (a new membership, or the role changed). The last
/// owner cannot be made anything else.
pub async fn set_member(
    ctx: &Ctx,
    workspace_id: &str,
    user_id: &str,
    role: Role,
    by: Option<&str>,
) -> Result<(), DomainError> {
    use sea_orm::TransactionTrait;
    let txn = ctx.db.conn.begin().await?;
    lock_workspace(&txn, ctx, workspace_id).await?;
    let was = txn
        .query_one_raw(ctx.db.stmt(
            "SELECT role FROM members WHERE workspace_id = $1 AND user_id = $2",
            [Value::from(workspace_id), Value::from(user_id)],
        ))
        .await?
        .map(|r| r.try_get::<String>("", "role"))
        .transpose()?;
    txn.execute_raw(ctx.db.stmt(
        "INSERT INTO members (workspace_id, user_id, role, invited_by, created_at) VALUES ($1, $2, $3, $4, $5) \
         ON CONFLICT (workspace_id, user_id) DO UPDATE SET role = $3",
        [
            Value::from(workspace_id),
            Value::from(user_id),
            Value::from(role.as_str()),
            Value::from(by),
            Value::from(ctx.now()),
        ],
    ))
    .await?;
    if was.as_deref() == Some("owner") && role != Role::Owner {
        owner_left(&txn, ctx, workspace_id).await?;
    }
    txn.commit().await?;
    Ok(())
}

/// The workspace a person's sign-in opens: the first they joined (ties by its id), read in
/// the caller's transaction.
pub async fn first_workspace<C: ConnectionTrait>(
    conn: &C,
    ctx: &Ctx,
    user_id: &str,
) -> Result<Option<String>, DomainError> {
    let row = conn
        .query_one_raw(ctx.db.stmt(
            "SELECT workspace_id FROM members WHERE user_id = $1 ORDER BY created_at, workspace_id LIMIT 1",
            [Value::from(user_id)],
        ))
        .await?;
    Ok(match row {
        Some(r) => Some(r.try_get("", "workspace_id")?),
        None => None,
    })
}

/// The most members a workspace's list shows at once.
pub const MAX_LISTED: u64 = 1000;

/// A member as listed.
#[derive(Clone, Debug, serde::Serialize, utoipa::ToSchema, async_graphql::SimpleObject)]
#[serde(rename_all = "camelCase")]
pub struct MemberOut {
    pub user_id: String,
    pub email: String,
    pub name: String,
    pub role: String,
    /// Milliseconds since the epoch.
    pub joined_at: i64,
}

/// A workspace's members, oldest first (at most [`MAX_LISTED`]).
pub async fn list(ctx: &Ctx, workspace_id: &str) -> Result<Vec<MemberOut>, DomainError> {
    crate::workspaces::get(ctx, workspace_id).await?;
    let rows = ctx
        .db
        .conn
        .query_all_raw(ctx.db.stmt(
            &format!(
                "SELECT m.user_id, u.email, u.name, m.role, m.created_at FROM members m \
                 JOIN users u ON u.id = m.user_id WHERE m.workspace_id = $1 \
                 ORDER BY m.created_at, m.user_id LIMIT {MAX_LISTED}"
            ),
            [Value::from(workspace_id)],
        ))
        .await?;
    rows.iter().map(member_row).collect()
}

/// A member from a row of `user_id, email, name, role, created_at`.
pub(super) fn member_row(r: &sea_orm::QueryResult) -> Result<MemberOut, DomainError> {
    Ok(MemberOut {
        user_id: r.try_get("", "user_id")?,
        email: r.try_get("", "email")?,
        name: r.try_get("", "name")?,
        role: r.try_get("", "role")?,
        joined_at: r.try_get("", "created_at")?,
    })
}

/// Takes a person out of a workspace and ends at once their sessions acting in it. The last
/// owner stays: a workspace always has someone who can run it.
pub async fn remove(ctx: &Ctx, workspace_id: &str, user_id: &str) -> Result<(), DomainError> {
    use sea_orm::TransactionTrait;
    let txn = ctx.db.conn.begin().await?;
    lock_workspace(&txn, ctx, workspace_id).await?;
    remove_in(&txn, ctx, workspace_id, user_id).await?;
    txn.commit().await?;
    Ok(())
}

/// `remove` inside the caller's transaction, which holds the workspace's lock; answers the
/// role the person had.
pub(super) async fn remove_in<C: ConnectionTrait>(
    txn: &C,
    ctx: &Ctx,
    workspace_id: &str,
    user_id: &str,
) -> Result<Role, DomainError> {
    let role = role_in(txn, ctx, workspace_id, user_id)
        .await?
        .ok_or_else(|| DomainError::NotFound(format!("{user_id} is not a member")))?;
    txn.execute_raw(ctx.db.stmt(
        "DELETE FROM members WHERE workspace_id = $1 AND user_id = $2",
        [Value::from(workspace_id), Value::from(user_id)],
    ))
    .await?;
    if role == Role::Owner {
        // Counted after the delete, under the workspace's lock.
        owner_left(txn, ctx, workspace_id).await?;
    }
    txn.execute_raw(ctx.db.stmt(
        "UPDATE sessions SET ended_at = $1 WHERE user_id = $2 AND workspace_id = $3 AND ended_at IS NULL",
        [
            Value::from(ctx.now()),
            Value::from(user_id),
            Value::from(workspace_id),
        ],
    ))
    .await?;
    Ok(role)
}

/// A person's name, if there is such a person.
pub async fn name_of(ctx: &Ctx, user_id: &str) -> Result<Option<String>, DomainError> {
    let row = ctx
        .db
        .conn
        .query_one_raw(ctx.db.stmt(
            "SELECT name FROM users WHERE id = $1",
            [Value::from(user_id)],
        ))
        .await?;
    Ok(match row {
        Some(r) => Some(r.try_get("", "name")?),
        None => None,
    })
}

/// A person's role in a workspace, read in the caller's transaction; `None` when they are not
/// a member.
pub async fn role_in<C: ConnectionTrait>(
    conn: &C,
    ctx: &Ctx,
    workspace_id: &str,
    user_id: &str,
) -> Result<Option<Role>, DomainError> {
    let row = conn
        .query_one_raw(ctx.db.stmt(
            "SELECT role FROM members WHERE workspace_id = $1 AND user_id = $2",
            [Value::from(workspace_id), Value::from(user_id)],
        ))
        .await?;
    Ok(match row {
        Some(r) => parse_role(&r.try_get::<String>("", "role")?),
        None => None,
    })
}

/// One of a person's workspaces, as the switcher lists it.
#[derive(Clone, Debug, serde::Serialize, async_graphql::SimpleObject)]
#[serde(rename_all = "camelCase")]
pub struct WorkspaceOf {
    pub id: String,
    pub name: String,
    pub role: String,
}

/// The workspaces a person belongs to, in the order they joined (at most [`MAX_LISTED`]).
pub async fn workspaces_of(ctx: &Ctx, user_id: &str) -> Result<Vec<WorkspaceOf>, DomainError> {
    let rows = ctx
        .db
        .conn
        .query_all_raw(ctx.db.stmt(
            &format!(
                "SELECT w.id, w.name, m.role FROM members m JOIN workspaces w ON w.id = m.workspace_id \
                 WHERE m.user_id = $1 ORDER BY m.created_at, w.id LIMIT {MAX_LISTED}"
            ),
            [Value::from(user_id)],
        ))
        .await?;
    rows.into_iter()
        .map(|r| {
            Ok(WorkspaceOf {
                id: r.try_get("", "id")?,
                name: r.try_get("", "name")?,
                role: r.try_get("", "role")?,
            })
        })
        .collect()
}
