//! Approvals of draft-only keys' sends, decided by a person (`signet admin approvals`).

use sea_orm::{ConnectionTrait, TransactionTrait, Value};
use serde_json::json;
use signet_storage::now_ms;

use super::not_found;
use super::send::{Via, send_draft};
use super::store::{self};
use super::trail::{self};
use super::types::*;
use crate::{Actor, Ctx, DomainError, Mode};

/// Approvals of a workspace, newest first (`signet admin approvals list`).
pub async fn approvals_list(
    ctx: &Ctx,
    workspace_id: &str,
    state: Option<&str>,
) -> Result<Vec<ApprovalOut>, DomainError> {
    let rows = ctx
        .db
        .conn
        .query_all_raw(ctx.db.stmt(
            "SELECT id, document_id, state, created_at, decided_at, note FROM approvals WHERE workspace_id = $1 \
             AND ($2 = '' OR state = $2) ORDER BY id DESC LIMIT 500",
            [Value::from(workspace_id), Value::from(state.unwrap_or("").to_string())],
        ))
        .await?;
    rows.iter().map(store::approval_from_row).collect()
}

/// Approves (sends the document) or declines a pending approval. `by` names the person.
pub async fn approvals_decide(
    ctx: &Ctx,
    approval_id: &str,
    approve: bool,
    by: &str,
    note: Option<String>,
) -> Result<ApprovalOut, DomainError> {
    let row = ctx
        .db
        .conn
        .query_one_raw(ctx.db.stmt(
            "SELECT id, workspace_id, document_id, key_id, state FROM approvals WHERE id = $1",
            [Value::from(approval_id)],
        ))
        .await?
        .ok_or_else(|| DomainError::NotFound(format!("no approval with id {approval_id}")))?;
    let state: String = row.try_get("", "state")?;
    if state != "pending" {
        return Err(DomainError::conflict(format!(
            "approval {approval_id} is already {state}"
        )));
    }
    let doc_id: String = row.try_get("", "document_id")?;
    let ws = crate::workspaces::get(ctx, &row.try_get::<String>("", "workspace_id")?).await?;
    let doc = store::load(&ctx.db.conn, &ctx.db, &doc_id)
        .await?
        .ok_or_else(|| not_found(&doc_id))?;
    if approve {
        let actor = Actor {
            workspace_id: ws.id.clone(),
            key_id: format!("person:{by}"),
            mode: if doc.test { Mode::Test } else { Mode::Live },
            scopes: crate::actor::Scopes::all(),
            plan: ws.plan,
            draft_only: false,
            daily_limit: None,
            per_minute: u64::MAX,
        };
        send_draft(ctx, &actor, doc, Via::Approval, None).await?;
    } else {
        let txn = ctx.db.conn.begin().await?;
        let done = txn
            .execute_raw(ctx.db.stmt(
                "UPDATE approvals SET state = 'declined', decided_at = $2, decided_by = $3, note = $4 WHERE id = $1 AND state = 'pending'",
                [Value::from(approval_id), Value::from(now_ms()), Value::from(by), Value::from(note.clone())],
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
            &format!("person:{by}"),
            json!({"approval": approval_id, "note": note}),
        )
        .await?;
        txn.commit().await?;
        ctx.committed(&doc.id).await;
    }
    let row = ctx
        .db
        .conn
        .query_one_raw(ctx.db.stmt("SELECT id, document_id, state, created_at, decided_at, note FROM approvals WHERE id = $1", [Value::from(approval_id)]))
        .await?
        .ok_or_else(|| DomainError::NotFound(format!("no approval with id {approval_id}")))?;
    store::approval_from_row(&row)
}
