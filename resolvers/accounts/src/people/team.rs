//! What a person or key does to a workspace's people, with the rules of each role
//! (docs/decisions/the-application.md): inviting (an email in the person's language),
//! changing a role, removing; and a person's own view of themselves (`me`). Owners and admins
//! hold `people:write`; making, demoting or removing an owner takes an owner signed in (no
//! key can). Every change is in the activity record.

use std::net::IpAddr;

use sea_orm::{ConnectionTrait, TransactionTrait, Value};
use signet_core::actor::{Principal, Role, Scope};
use signet_core::jobs::{Batch, Owner};
use signet_core::{Actor, Ctx, DomainError};

use super::mail::PeopleEmail;
use super::members::{self, MemberOut, WorkspaceOf, lock_workspace, owner_left, role_in};
use super::sessions::person_of;
use crate::activity;

/// Invitations one workspace may send in 24 hours.
pub const INVITES_PER_DAY: i64 = 100;

/// Refuses a change the actor's role may not make: `people:write` for any, an owner signed in
/// for any change that makes, demotes or removes an owner.
fn may_change(actor: &Actor, before: Option<Role>, after: Option<Role>) -> Result<(), DomainError> {
    actor.require(Scope::PeopleWrite)?;
    let touches_owner = before == Some(Role::Owner) || after == Some(Role::Owner);
    let is_owner = matches!(
        actor.principal,
        Principal::Session {
            role: Role::Owner,
            ..
        }
    );
    if touches_owner && !is_owner {
        return Err(DomainError::Forbidden(
            "only an owner of this workspace, signed in, can make, demote or remove an owner"
                .into(),
        ));
    }
    Ok(())
}

/// The actor as it stands inside the change's transaction (under the workspace's lock): a
/// person's role read again, so that one demoted a moment ago cannot still act as before.
async fn as_of_now<C: ConnectionTrait>(
    conn: &C,
    ctx: &Ctx,
    actor: &Actor,
) -> Result<Actor, DomainError> {
    let Principal::Session {
        user_id,
        session_id,
        ..
    } = &actor.principal
    else {
        return Ok(actor.clone());
    };
    let role = role_in(conn, ctx, &actor.workspace_id, user_id)
        .await?
        .ok_or(DomainError::Unauthenticated)?;
    Ok(Actor {
        principal: Principal::Session {
            user_id: user_id.clone(),
            session_id: session_id.clone(),
            role,
        },
        scopes: members::scopes_of(role),
        ..actor.clone()
    })
}

fn role_field(role: &str) -> Result<Role, DomainError> {
    members::parse_role(role)
        .ok_or_else(|| DomainError::invalid("role", "must be one of owner, admin, member, viewer"))
}

/// Who asked, by name, as an invitation says it: the person, or the workspace for a key.
async fn inviter_name(ctx: &Ctx, actor: &Actor) -> Result<String, DomainError> {
    if let Principal::Session { user_id, .. } = &actor.principal
        && let Some(name) = members::name_of(ctx, user_id).await?
    {
        return Ok(name);
    }
    Ok(actor.workspace_name.clone())
}

/// An invitation.
#[derive(Clone, Debug, serde::Deserialize, async_graphql::InputObject)]
#[serde(rename_all = "camelCase")]
pub struct InviteIn {
    pub email: String,
    pub name: String,
    /// owner, admin, member or viewer.
    pub role: String,
    /// The language of the invitation and of the person's emails (one of `send.language`'s);
    /// English when not given. A person who already has an account keeps theirs.
    pub language: Option<String>,
}

async fn member_out<C: ConnectionTrait>(
    conn: &C,
    ctx: &Ctx,
    workspace_id: &str,
    user_id: &str,
) -> Result<MemberOut, DomainError> {
    let r = conn
        .query_one_raw(ctx.db.stmt(
            "SELECT m.user_id, u.email, u.name, m.role, m.created_at FROM members m \
             JOIN users u ON u.id = m.user_id WHERE m.workspace_id = $1 AND m.user_id = $2",
            [Value::from(workspace_id), Value::from(user_id)],
        ))
        .await?
        .ok_or_else(|| DomainError::NotFound(format!("{user_id} is not a member")))?;
    members::member_row(&r)
}

/// Invites a person: they become a member with the role at once, and get an email with a
/// link (good for three days) that signs them in to this workspace. An address already a
/// member is a conflict.
pub async fn invite(
    ctx: &Ctx,
    actor: &Actor,
    from: Option<IpAddr>,
    input: InviteIn,
) -> Result<MemberOut, DomainError> {
    let role = role_field(&input.role)?;
    may_change(actor, None, Some(role))?;
    let language = input.language.as_deref().unwrap_or("en");
    let user_id = members::ensure_person(ctx, &input.email, &input.name, language).await?;
    let ws = actor.workspace_id.to_string();
    let inviter = inviter_name(ctx, actor).await?;
    let txn = ctx.db.conn.begin().await?;
    lock_workspace(&txn, ctx, &ws).await?;
    may_change(&as_of_now(&txn, ctx, actor).await?, None, Some(role))?;
    // Counted under the workspace's lock, so that invitations at once cannot pass the bound.
    let invited: i64 = txn
        .query_one_raw(ctx.db.stmt(
            "SELECT COUNT(*) AS n FROM activity WHERE workspace_id = $1 AND action = 'member.invited' AND created_at > $2",
            [Value::from(ws.as_str()), Value::from(ctx.now() - 86_400_000)],
        ))
        .await?
        .map(|r| r.try_get("", "n"))
        .transpose()?
        .unwrap_or(0);
    if invited >= INVITES_PER_DAY {
        return Err(DomainError::RateLimited {
            message: format!(
                "this workspace invited {INVITES_PER_DAY} people in the last 24 hours, the most it may; try again later"
            ),
            retry_after_secs: 3600,
        });
    }
    if role_in(&txn, ctx, &ws, &user_id).await?.is_some() {
        return Err(DomainError::conflict(format!(
            "{} is already a member of this workspace; change their role instead",
            input.email.trim()
        )));
    }
    txn.execute_raw(ctx.db.stmt(
        "INSERT INTO members (workspace_id, user_id, role, invited_by, created_at) VALUES ($1, $2, $3, $4, $5)",
        [
            Value::from(ws.as_str()),
            Value::from(user_id.as_str()),
            Value::from(role.as_str()),
            Value::from(actor.recorded()),
            Value::from(ctx.now()),
        ],
    ))
    .await?;
    let out = member_out(&txn, ctx, &ws, &user_id).await?;
    let mut batch = Batch::default();
    batch.add(
        &PeopleEmail::Invited {
            user_id: user_id.clone(),
            workspace_id: ws.clone(),
            inviter,
            role: role.as_str().into(),
        },
        Owner {
            workspace_id: &ws,
            document_id: None,
            test: false,
        },
        ctx.now(),
    );
    let queued = batch.write(&txn, &ctx.db).await?;
    activity::record(
        &txn,
        ctx,
        actor,
        from,
        "member.invited",
        &out.email,
        role.as_str(),
    )
    .await?;
    txn.commit().await?;
    ctx.queued(queued).await;
    Ok(out)
}

/// Changes a member's role. The last owner stays an owner.
pub async fn change_role(
    ctx: &Ctx,
    actor: &Actor,
    from: Option<IpAddr>,
    user_id: &str,
    role: &str,
) -> Result<MemberOut, DomainError> {
    let role = role_field(role)?;
    actor.require(Scope::PeopleWrite)?;
    let ws = actor.workspace_id.to_string();
    let txn = ctx.db.conn.begin().await?;
    lock_workspace(&txn, ctx, &ws).await?;
    let before = role_in(&txn, ctx, &ws, user_id)
        .await?
        .ok_or_else(|| DomainError::NotFound(format!("{user_id} is not a member")))?;
    may_change(
        &as_of_now(&txn, ctx, actor).await?,
        Some(before),
        Some(role),
    )?;
    txn.execute_raw(ctx.db.stmt(
        "UPDATE members SET role = $1 WHERE workspace_id = $2 AND user_id = $3",
        [
            Value::from(role.as_str()),
            Value::from(ws.as_str()),
            Value::from(user_id),
        ],
    ))
    .await?;
    if before == Role::Owner && role != Role::Owner {
        owner_left(&txn, ctx, &ws).await?;
    }
    let out = member_out(&txn, ctx, &ws, user_id).await?;
    activity::record(
        &txn,
        ctx,
        actor,
        from,
        "member.role_changed",
        &out.email,
        &format!("{}→{}", before.as_str(), role.as_str()),
    )
    .await?;
    txn.commit().await?;
    Ok(out)
}

/// Takes a member out of the workspace; their sessions there end at once. The last owner
/// stays. Anyone may take themselves out (leave), but for the last owner. The roles are read
/// under the workspace's lock, and the record is written in the same transaction.
pub async fn remove(
    ctx: &Ctx,
    actor: &Actor,
    from: Option<IpAddr>,
    user_id: &str,
) -> Result<(), DomainError> {
    let ws = actor.workspace_id.to_string();
    let leaving =
        matches!(&actor.principal, Principal::Session { user_id: me, .. } if me == user_id);
    let txn = ctx.db.conn.begin().await?;
    lock_workspace(&txn, ctx, &ws).await?;
    let now = as_of_now(&txn, ctx, actor).await?;
    let role = role_in(&txn, ctx, &ws, user_id)
        .await?
        .ok_or_else(|| DomainError::NotFound(format!("{user_id} is not a member")))?;
    if !leaving {
        may_change(&now, Some(role), None)?;
    }
    let email = member_out(&txn, ctx, &ws, user_id).await?.email;
    members::remove_in(&txn, ctx, &ws, user_id).await?;
    if leaving && let Principal::Session { session_id, .. } = &actor.principal {
        // The person's session moves to their next workspace, if they have one, rather than
        // ending with the others acting here.
        if let Some(next) = members::first_workspace(&txn, ctx, user_id).await? {
            txn.execute_raw(ctx.db.stmt(
                "UPDATE sessions SET workspace_id = $1, ended_at = NULL, acting_since = (SELECT CASE WHEN \
                 m.created_at > $2 THEN m.created_at ELSE $2 END FROM members m WHERE m.workspace_id = $1 \
                 AND m.user_id = $3) WHERE id = $4",
                [
                    Value::from(next.as_str()),
                    Value::from(ctx.now()),
                    Value::from(user_id),
                    Value::from(session_id.as_str()),
                ],
            ))
            .await?;
        }
    }
    activity::record(
        &txn,
        ctx,
        actor,
        from,
        if leaving {
            "member.left"
        } else {
            "member.removed"
        },
        &email,
        role.as_str(),
    )
    .await?;
    txn.commit().await?;
    Ok(())
}

/// A person's own record.
#[derive(Clone, Debug, serde::Serialize, async_graphql::SimpleObject)]
#[serde(rename_all = "camelCase")]
#[graphql(name = "SignedInPerson")]
pub struct PersonOut {
    pub id: String,
    pub email: String,
    pub name: String,
    pub language: String,
}

/// Who is signed in, where they act, and where else they may.
#[derive(Clone, Debug, serde::Serialize, async_graphql::SimpleObject)]
#[serde(rename_all = "camelCase")]
pub struct MeOut {
    pub person: PersonOut,
    /// Their role in the workspace the session acts in.
    pub role: String,
    pub workspace: WorkspaceOf,
    /// Every workspace they belong to, to switch between.
    pub workspaces: Vec<WorkspaceOf>,
    /// What they may do here, in the scopes' terms (the page shows only what is allowed; the
    /// resolvers refuse the rest anyway).
    pub scopes: Vec<String>,
    /// The workspace's test mode is on: every key and person works on test documents, and
    /// the application's switch stays on test.
    pub test_mode: bool,
}

pub async fn me(ctx: &Ctx, actor: &Actor) -> Result<MeOut, DomainError> {
    let (user_id, _) = person_of(actor)?;
    let r = ctx
        .db
        .conn
        .query_one_raw(ctx.db.stmt(
            "SELECT id, email, name, language FROM users WHERE id = $1",
            [Value::from(user_id)],
        ))
        .await?
        .ok_or(DomainError::Unauthenticated)?;
    let person = PersonOut {
        id: r.try_get("", "id")?,
        email: r.try_get("", "email")?,
        name: r.try_get("", "name")?,
        language: r.try_get("", "language")?,
    };
    let workspaces = members::workspaces_of(ctx, user_id).await?;
    let ws = actor.workspace_id.to_string();
    let here = workspaces
        .iter()
        .find(|w| w.id == ws)
        .cloned()
        .ok_or(DomainError::Unauthenticated)?;
    Ok(MeOut {
        person,
        role: here.role.clone(),
        workspace: here,
        workspaces,
        test_mode: actor.workspace_test,
        scopes: actor
            .scopes
            .iter()
            .map(|s| s.as_str().to_string())
            .collect(),
    })
}

/// Changes the signed-in person's own name or language.
pub async fn update_me(
    ctx: &Ctx,
    actor: &Actor,
    name: Option<String>,
    language: Option<String>,
) -> Result<MeOut, DomainError> {
    let (user_id, _) = person_of(actor)?;
    if let Some(name) = &name {
        let n = name.trim();
        if n.is_empty() || n.chars().count() > 200 || !members::plain(n) {
            return Err(DomainError::invalid(
                "name",
                "must be 1 to 200 characters, with no control characters",
            ));
        }
    }
    if let Some(l) = &language
        && !signet_core::languages::LANGUAGES.contains(&l.as_str())
    {
        return Err(DomainError::invalid(
            "language",
            format!(
                "'{l}' is not one of {}",
                signet_core::languages::LANGUAGES.join(", ")
            ),
        ));
    }
    ctx.db
        .conn
        .execute_raw(ctx.db.stmt(
            "UPDATE users SET name = COALESCE($1, name), language = COALESCE($2, language) WHERE id = $3",
            [
                Value::from(name.map(|n| n.trim().to_string())),
                Value::from(language),
                Value::from(user_id),
            ],
        ))
        .await?;
    me(ctx, actor).await
}
