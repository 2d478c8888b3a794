//! Reading documents: one the caller may see, the list, the source, and the trail's first
//! link.

use std::collections::BTreeMap;

use sea_orm::{ConnectionTrait, Value};

use crate::store::{self, DocRow};
use crate::types::*;
use crate::{lifecycle, state, trail};
use signet_core::page::PageRequest;
use signet_core::{Actor, Ctx, DomainError, Mode, Scope};

pub(crate) fn not_found(id: &str) -> DomainError {
    DomainError::NotFound(format!("no document with id {id}"))
}

/// Loads a document the actor may see: same workspace and same mode, else 404.
pub(crate) async fn visible<C: ConnectionTrait>(
    conn: &C,
    ctx: &Ctx,
    actor: &Actor,
    id: &str,
) -> Result<DocRow, DomainError> {
    if !id.starts_with("doc_") || id.len() > 64 {
        return Err(not_found(id));
    }
    match store::load(conn, &ctx.db, id).await? {
        Some(d) if d.workspace_id == actor.workspace_id && d.test == (actor.mode == Mode::Test) => {
            Ok(d)
        }
        _ => Err(not_found(id)),
    }
}

pub(crate) async fn out_of<C: ConnectionTrait>(
    ctx: &Ctx,
    conn: &C,
    doc: &DocRow,
) -> Result<DocumentOut, DomainError> {
    let people = store::people(conn, &ctx.db, &[&doc.id]).await?;
    let approval = store::pending_approvals(conn, &ctx.db, &[&doc.id])
        .await?
        .pop();
    let mut out = store::to_out(doc, &people, approval);
    out.payments = payments_of(ctx, &[doc.id.to_string()])
        .await?
        .into_iter()
        .map(|p| p.out())
        .collect();
    Ok(out)
}

/// The payments of these documents, as the processor last said.
async fn payments_of(
    ctx: &Ctx,
    ids: &[String],
) -> Result<Vec<signet_payments::store::PaymentRow>, DomainError> {
    signet_payments::store::of_documents(ctx, ids).await
}

pub async fn get(ctx: &Ctx, actor: &Actor, id: &str) -> Result<DocumentOut, DomainError> {
    actor.require(Scope::DocumentsRead)?;
    let doc = visible(&ctx.db.conn, ctx, actor, id).await?;
    out_of(ctx, &ctx.db.conn, &doc).await
}

pub async fn list(
    ctx: &Ctx,
    actor: &Actor,
    filter: ListFilter,
) -> Result<DocumentPageOut, DomainError> {
    actor.require(Scope::DocumentsRead)?;
    let page = PageRequest::parse(filter.limit, filter.cursor.as_deref())?;
    if let Some(s) = &filter.state
        && state::DocState::parse(s).is_none()
    {
        return Err(DomainError::invalid(
            "state",
            format!(
                "unknown state '{s}'; one of {}",
                state::DocState::NAMES.join(", ")
            ),
        ));
    }
    if filter.metadata.len() > 20 {
        return Err(DomainError::invalid(
            "metadata",
            "at most 20 metadata filters",
        ));
    }
    let mut sql = format!(
        "SELECT {} FROM documents WHERE workspace_id = $1 AND test = $2",
        store::LIST_COLUMNS
    );
    let mut values = vec![
        Value::from(actor.workspace_id.clone()),
        Value::from(actor.mode == Mode::Test),
    ];
    let mut push = |sql: &mut String, clause: &str, v: Value| {
        values.push(v);
        sql.push_str(&clause.replace('?', &format!("${}", values.len())));
    };
    if let Some(s) = filter.state {
        push(&mut sql, " AND state = ?", Value::from(s));
    }
    if let Some(e) = filter.external_id {
        push(&mut sql, " AND external_id = ?", Value::from(e));
    }
    for (k, v) in filter.metadata {
        push(
            &mut sql,
            " AND EXISTS (SELECT 1 FROM document_metadata m WHERE m.document_id = documents.id AND m.mkey = ?",
            Value::from(k),
        );
        push(&mut sql, " AND m.mvalue = ?)", Value::from(v));
    }
    if let Some(before) = &page.before_id {
        push(&mut sql, " AND id < ?", Value::from(before.clone()));
    }
    sql.push_str(&format!(" ORDER BY id DESC LIMIT {}", page.limit + 1));
    let rows = ctx.db.conn.query_all_raw(ctx.db.stmt(&sql, values)).await?;
    let docs: Vec<DocRow> = rows
        .iter()
        .map(DocRow::from_row)
        .collect::<Result<_, _>>()?;
    let page = page.finish(docs, |d| &d.id);
    let ids: Vec<&str> = page.data.iter().map(|d| d.id.as_str()).collect();
    let people = store::people(&ctx.db.conn, &ctx.db, &ids).await?;
    let approvals = store::pending_approvals(&ctx.db.conn, &ctx.db, &ids).await?;
    let owned: Vec<String> = ids.iter().map(|i| i.to_string()).collect();
    let payments = payments_of(ctx, &owned).await?;
    Ok(DocumentPageOut {
        data: page
            .data
            .iter()
            .map(|d| {
                let mut out = store::to_out(
                    d,
                    &people,
                    approvals
                        .iter()
                        .find(|a| a.document_id.as_deref() == Some(d.id.as_str()))
                        .cloned(),
                );
                out.payments = payments
                    .iter()
                    .filter(|p| p.document_id == d.id.as_str())
                    .map(|p| p.out())
                    .collect();
                out
            })
            .collect(),
        page: page.page,
    })
}

pub(crate) fn parse_json_map(s: &str) -> BTreeMap<String, String> {
    serde_json::from_str(s).unwrap_or_default()
}

pub async fn source(ctx: &Ctx, actor: &Actor, id: &str) -> Result<DocumentSourceOut, DomainError> {
    Ok(source_sized(ctx, actor, id, true, |_| Ok(())).await?.0)
}

/// The draft's words, people and choices, with the size of the stored words in bytes (what
/// reading them cost). Without `words` (a GraphQL selection that does not ask for them) the
/// words are not parsed and `source` is null; with them, `allow` is asked first, with their
/// size. Words over 64 KiB are parsed on the blocking pool.
pub async fn source_sized(
    ctx: &Ctx,
    actor: &Actor,
    id: &str,
    words: bool,
    allow: impl FnOnce(usize) -> Result<(), DomainError>,
) -> Result<(DocumentSourceOut, usize), DomainError> {
    actor.require(Scope::DocumentsRead)?;
    if words {
        // The words' size first, from a short read: a field refused for the operation's
        // allowance never reads or parses them.
        if let Some(size) = source_size(ctx, actor, id).await? {
            allow(size)?;
        }
    }
    let doc = visible(&ctx.db.conn, ctx, actor, id).await?;
    let size = doc.source.len();
    let people = store::people(&ctx.db.conn, &ctx.db, &[&doc.id]).await?;
    let out = move || DocumentSourceOut {
        id: doc.id.to_string(),
        title: doc.title.clone(),
        description: doc.description.clone(),
        source: async_graphql::Json(if words {
            serde_json::from_str(&doc.source).unwrap_or_default()
        } else {
            serde_json::Value::Null
        }),
        people: async_graphql::Json(people.iter().map(lifecycle::person_in).collect()),
        facts: parse_json_map(&doc.facts),
        variable_values: parse_json_map(&doc.variable_values),
        paper: doc.paper.clone(),
        profile: doc.profile.clone(),
        send: async_graphql::Json(serde_json::from_str(&doc.send_options).unwrap_or_default()),
        email: async_graphql::Json(serde_json::from_str(&doc.email_options).unwrap_or_default()),
        external_id: doc.external_id.clone(),
        metadata: doc.metadata.clone(),
    };
    let out = if words && size > 64 * 1024 {
        signet_core::blocking(out)
            .await
            .map_err(|e| DomainError::Internal(format!("reading the source: {e}")))?
    } else {
        out()
    };
    Ok((out, size))
}

/// The stored words' length of a document the actor may see (characters, close enough to
/// bytes for an allowance), or None when there is no such document.
async fn source_size(ctx: &Ctx, actor: &Actor, id: &str) -> Result<Option<usize>, DomainError> {
    let row = ctx
        .db
        .conn
        .query_one_raw(ctx.db.stmt(
            "SELECT CAST(LENGTH(source) AS BIGINT) AS n FROM documents \
             WHERE id = $1 AND workspace_id = $2 AND test = $3",
            [
                Value::from(id.to_string()),
                Value::from(actor.workspace_id.clone()),
                Value::from(actor.mode == Mode::Test),
            ],
        ))
        .await?;
    Ok(match row {
        Some(r) => Some(r.try_get::<i64>("", "n")?.max(0) as usize),
        None => None,
    })
}

/// The `prev_hash` of a document's first audit row.
pub fn trail_genesis() -> &'static str {
    trail::GENESIS
}
