//! Approvals of draft-only keys' sends, decided by a person: an operator with `signet admin
//! approvals`, or the application's signed-in person through a key that may itself send
//! (GraphQL `approvals`, `approveSend`, `declineSend`).

use sea_orm::{ConnectionTrait, TransactionTrait, Value};
use serde_json::json;

use super::not_found;
use super::send::{Via, send_draft};
use super::store::{self};
use super::trail::{self};
use super::types::*;
use signet_core::page::PageRequest;
use signet_core::{Actor, Ctx, DomainError, Mode, Principal, Role, Scope};

const STATES: [&str; 4] = ["pending", "approved", "declined", "withdrawn"];

/// Approvals of a workspace, newest first, at most 500 (`signet admin approvals list`).
pub async fn approvals_list(
    ctx: &Ctx,
    workspace_id: &str,
    state: Option<&str>,
) -> Result<Vec<ApprovalOut>, DomainError> {
    let page = PageRequest {
        limit: 500,
        before_id: None,
    };
    let mut rows = list(ctx, workspace_id, None, state, &page).await?;
    rows.truncate(page.limit as usize);
    Ok(rows)
}

/// Approvals of the key's workspace and mode, newest first, in pages (documents:read).
pub async fn approvals(
    ctx: &Ctx,
    actor: &Actor,
    state: Option<&str>,
    limit: Option<i64>,
    cursor: Option<&str>,
) -> Result<ApprovalPageOut, DomainError> {
    actor.require(Scope::DocumentsRead)?;
    let page = PageRequest::parse(limit, cursor)?;
    if let Some(s) = state
        && !STATES.contains(&s)
    {
        return Err(DomainError::invalid(
            "state",
            format!("must be one of {}, not '{s}'", STATES.join(", ")),
        ));
    }
    let test = actor.mode == Mode::Test;
    let rows = list(ctx, &actor.workspace_id, Some(test), state, &page).await?;
    let page = page.finish(rows, |a| &a.id);
    Ok(ApprovalPageOut {
        data: page.data,
        page: page.page,
    })
}

/// Up to `page.limit + 1` approvals, newest first: the extra one tells a next page exists.
async fn list(
    ctx: &Ctx,
    workspace_id: &str,
    test: Option<bool>,
    state: Option<&str>,
    page: &PageRequest,
) -> Result<Vec<ApprovalOut>, DomainError> {
    let mut sql = String::from(
        "SELECT id, document_id, template_id, state, created_at, decided_at, note FROM approvals WHERE workspace_id = $1",
    );
    let mut values = vec![Value::from(workspace_id)];
    let mut push = |sql: &mut String, clause: &str, v: Value| {
        values.push(v);
        sql.push_str(&clause.replace('?', &format!("${}", values.len())));
    };
    if let Some(s) = state {
        push(&mut sql, " AND state = ?", Value::from(s));
    }
    if let Some(t) = test {
        push(&mut sql, " AND test = ?", Value::from(t));
    }
    if let Some(before) = &page.before_id {
        push(&mut sql, " AND id < ?", Value::from(before.clone()));
    }
    sql.push_str(&format!(" ORDER BY id DESC LIMIT {}", page.limit + 1));
    let rows = ctx.db.conn.query_all_raw(ctx.db.stmt(&sql, values)).await?;
    rows.iter().map(store::approval_from_row).collect()
}

/// Approves (sends the document) or declines a pending approval of the key's workspace and
/// mode, for the person `by` (documents:write). A draft-only key is refused: the key that
/// asked must not approve its own send, and a key that may send could have sent the draft.
pub async fn decide_approval(
    ctx: &Ctx,
    actor: &Actor,
    approval_id: &str,
    approve: bool,
    by: &str,
    note: Option<String>,
) -> Result<ApprovalOut, DomainError> {
    actor.require(Scope::DocumentsWrite)?;
    // A person signed in decides as themselves, when their role may (owners and admins):
    // the approval records who they are, not a name they type, in test and live alike.
    if let Principal::Session { user_id, role, .. } = &actor.principal {
        if !matches!(role, Role::Owner | Role::Admin) {
            return Err(DomainError::Forbidden(format!(
                "a {} of this workspace cannot decide approvals; ask an owner or an admin",
                role.as_str()
            )));
        }
        if note.as_ref().is_some_and(|n| n.chars().count() > 2000) {
            return Err(DomainError::Invalid("note: at most 2000 characters".into()));
        }
        let row = approval_row(ctx, approval_id).await?;
        // The mode the person works in (their switch, or the workspace's test mode): another
        // mode's approval is not found, as for a key.
        if row.try_get::<String>("", "workspace_id")? != actor.workspace_id
            || row.try_get::<bool>("", "test")? != (actor.mode == Mode::Test)
        {
            return Err(no_approval(approval_id));
        }
        let name = signet_accounts::people::members::name_of(ctx, user_id)
            .await?
            .ok_or(DomainError::Unauthenticated)?;
        let out = decide_as(
            ctx,
            approval_id,
            approve,
            &name,
            &actor.principal,
            note,
            None,
        )
        .await?;
        noted(ctx, actor, approve, approval_id, &row).await;
        return Ok(out);
    }
    if actor.draft_only {
        return Err(DomainError::Forbidden(
            "a draft-only key cannot decide approvals: a person decides them, through a key \
             that may send"
                .into(),
        ));
    }
    let by = by.trim();
    if by.is_empty()
        || by.chars().count() > 200
        || by
            .chars()
            .any(|c| c.is_control() || signet_core::fields::is_disguising(c))
    {
        return Err(DomainError::Invalid(
            "by: name the person who decides, in 1 to 200 characters with no control characters"
                .into(),
        ));
    }
    if note.as_ref().is_some_and(|n| n.chars().count() > 2000) {
        return Err(DomainError::Invalid("note: at most 2000 characters".into()));
    }
    let row = approval_row(ctx, approval_id).await?;
    if row.try_get::<String>("", "workspace_id")? != actor.workspace_id
        || row.try_get::<bool>("", "test")? != (actor.mode == Mode::Test)
    {
        return Err(no_approval(approval_id));
    }
    // The person the key names decides, through the key.
    let decider = Principal::Named {
        recorded: format!("person:{by} via {}", actor.recorded()),
    };
    // The send is the deciding key's: it counts against that key's daily limit, as its own
    // send would, once every check has passed.
    let out = decide_as(ctx, approval_id, approve, by, &decider, note, Some(actor)).await?;
    noted(ctx, actor, approve, approval_id, &row).await;
    Ok(out)
}

/// The decision in the activity record, once it is made (the send it starts is the
/// document's own record; a failure to note it is logged, not undone).
async fn noted(
    ctx: &Ctx,
    actor: &Actor,
    approve: bool,
    approval_id: &str,
    row: &sea_orm::QueryResult,
) {
    let action = if approve {
        "approval.approved"
    } else {
        "approval.declined"
    };
    let what = row
        .try_get::<Option<String>>("", "document_id")
        .ok()
        .flatten()
        .or_else(|| {
            row.try_get::<Option<String>>("", "template_id")
                .ok()
                .flatten()
        })
        .unwrap_or_default();
    if let Err(e) = signet_accounts::activity::record(
        &ctx.db.conn,
        ctx,
        actor,
        None,
        action,
        approval_id,
        &what,
    )
    .await
    {
        tracing::warn!(error = %e, approval = approval_id, "an approval's decision was not noted in the activity record");
    }
}

fn no_approval(id: &str) -> DomainError {
    DomainError::NotFound(format!("no approval with id {id}"))
}

async fn approval_row(ctx: &Ctx, id: &str) -> Result<sea_orm::QueryResult, DomainError> {
    ctx.db
        .conn
        .query_one_raw(ctx.db.stmt(
            "SELECT id, workspace_id, test, document_id, template_id, key_id, state FROM approvals WHERE id = $1",
            [Value::from(id)],
        ))
        .await?
        .ok_or_else(|| no_approval(id))
}

/// Approves (sends the document) or declines a pending approval. `by` names the person
/// (`signet admin approvals approve|decline`).
pub async fn approvals_decide(
    ctx: &Ctx,
    approval_id: &str,
    approve: bool,
    by: &str,
    note: Option<String>,
) -> Result<ApprovalOut, DomainError> {
    let decider = Principal::Named {
        recorded: format!("person:{by}"),
    };
    decide_as(ctx, approval_id, approve, by, &decider, note, None).await
}

/// Decides an approval; `decider` is the principal recorded in the audit trail and on the
/// approval (and who sends it, when approved), `charge` the key whose daily limit an approved
/// send spends, if any.
async fn decide_as(
    ctx: &Ctx,
    approval_id: &str,
    approve: bool,
    by: &str,
    decider: &Principal,
    note: Option<String>,
    charge: Option<&Actor>,
) -> Result<ApprovalOut, DomainError> {
    let who = decider.recorded();
    let row = approval_row(ctx, approval_id).await?;
    let state: String = row.try_get("", "state")?;
    if state != "pending" {
        return Err(DomainError::conflict(format!(
            "approval {approval_id} is already {state}"
        )));
    }
    if let Some(template) = row.try_get::<Option<String>>("", "template_id")? {
        crate::templates::decide(ctx, approval_id, &template, approve, who, note).await?;
        return fetch(ctx, approval_id).await;
    }
    let doc_id: String = row.try_get("", "document_id")?;
    let ws =
        signet_accounts::workspaces::get(ctx, &row.try_get::<String>("", "workspace_id")?).await?;
    let doc = store::load(&ctx.db.conn, &ctx.db, &doc_id)
        .await?
        .ok_or_else(|| not_found(&doc_id))?;
    if approve {
        let actor = Actor {
            workspace_id: ws.id.as_str().into(),
            workspace_name: ws.name.clone(),
            principal: decider.clone(),
            mode: if doc.test { Mode::Test } else { Mode::Live },
            scopes: signet_core::actor::Scopes::all(),
            plan: ws.plan,
            draft_only: false,
            daily_limit: None,
            per_minute: u64::MAX,
            client: None,
            workspace_test: false,
            own_mode: if doc.test { Mode::Test } else { Mode::Live },
        };
        let via = Via::Approval {
            id: approval_id,
            charge,
        };
        send_draft(ctx, &actor, doc, via, None).await?;
    } else {
        let txn = ctx.db.conn.begin().await?;
        let done = txn
            .execute_raw(ctx.db.stmt(
                "UPDATE approvals SET state = 'declined', decided_at = $2, decided_by = $3, note = $4 WHERE id = $1 AND state = 'pending'",
                [Value::from(approval_id), Value::from(ctx.now()), Value::from(who), Value::from(note.clone())],
            ))
            .await?;
        if done.rows_affected() != 1 {
            return Err(DomainError::conflict(format!(
                "approval {approval_id} was decided meanwhile"
            )));
        }
        trail::audit(
            &txn,
            &ctx.db,
            &doc.id,
            "approval_declined",
            &format!("{by} declined the send"),
            None,
            who,
            json!({"approval": approval_id, "note": note}),
        )
        .await?;
        txn.commit().await?;
        ctx.committed(&doc.id, signet_queue::Enqueued::none()).await;
    }
    fetch(ctx, approval_id).await
}

async fn fetch(ctx: &Ctx, approval_id: &str) -> Result<ApprovalOut, DomainError> {
    let row = ctx
        .db
        .conn
        .query_one_raw(ctx.db.stmt("SELECT id, document_id, template_id, state, created_at, decided_at, note FROM approvals WHERE id = $1", [Value::from(approval_id)]))
        .await?
        .ok_or_else(|| no_approval(approval_id))?;
    store::approval_from_row(&row)
}
