//! Reserving a workspace's emails: their log rows, the daily allowance and their links, in one
//! transaction; those past the allowance wait until after midnight UTC.

use sea_orm::{ConnectionTrait, TransactionTrait, Value};
use signet_accounts::usage;
use signet_core::jobs::Claimed;
use signet_core::{Ctx, DomainError};
use signet_documents::store::DocRow;
use signet_queue as jobs;

use super::plan::Ready;
use super::rows::{UPSERT, UPSERT_TAIL};

/// An email decided in a pass, waiting to be reserved.
pub(super) type Decided<'a> = (&'a Claimed, DocRow, Ready);

/// Writes the log rows of one workspace's emails, counts them against the daily allowance and
/// stores their links, in one transaction. Answers the emails that may go; those past the
/// allowance (the last queued first) wait, `paused`, until after midnight UTC.
pub(super) async fn reserve_all<'a>(
    ctx: &Ctx,
    group: Vec<Decided<'a>>,
) -> Result<Vec<(&'a Claimed, Ready)>, DomainError> {
    let Some((_, first, p0)) = group.first() else {
        return Ok(Vec::new());
    };
    let workspace = first.workspace_id.clone();
    let limit = ctx.plans.limits(p0.plan).emails_per_day;
    let txn = ctx.db.conn.begin().await?;
    // One statement for the whole group: the transaction holds SQLite's one writer, which
    // the request path waits for.
    for chunk in group.chunks(32) {
        let mut sql = String::from(
            "INSERT INTO emails (id, workspace_id, test, job_id, document_id, person_id, kind, to_address, \
             subject, locale, status, reason, created_at, updated_at) VALUES ",
        );
        let mut values = Vec::with_capacity(chunk.len() * 14);
        for (n, (c, doc, p)) in chunk.iter().enumerate() {
            let marks: Vec<String> = (1..=14).map(|i| format!("${}", n * 14 + i)).collect();
            if n > 0 {
                sql.push_str(", ");
            }
            sql.push_str(&format!("({})", marks.join(", ")));
            values.extend(p.row(&c.job, doc, "queued", None, ctx.now()));
        }
        sql.push_str(UPSERT_TAIL);
        txn.execute_raw(ctx.db.stmt(&sql, values)).await?;
    }
    let ids: Vec<&str> = group.iter().map(|g| g.2.email_id.as_str()).collect();
    let marks: Vec<String> = (1..=ids.len()).map(|i| format!("${i}")).collect();
    let counted: std::collections::HashSet<String> = txn
        .query_all_raw(ctx.db.stmt(
            &format!(
                "SELECT id FROM emails WHERE counted IS NOT NULL AND id IN ({})",
                marks.join(", ")
            ),
            ids.iter().map(|i| Value::from(*i)),
        ))
        .await?
        .iter()
        .map(|r| r.try_get::<String>("", "id"))
        .collect::<Result<_, _>>()?;
    let allowed = allowance(ctx, &txn, &workspace, &group, &counted, limit).await?;
    let mut link_rows = Vec::new();
    for ((_, doc, p), ok) in group.iter().zip(&allowed) {
        if let (true, Some((minted, purpose, expires))) = (ok, &p.link) {
            let to = signet_documents::signing::links::LinkFor {
                purpose,
                document_id: &doc.id,
                person_id: p.person_id.as_deref(),
                email_id: &p.email_id,
                expires_at: *expires,
            };
            link_rows.push(signet_documents::signing::links::row(
                minted,
                &to,
                ctx.now(),
            ));
        }
    }
    signet_storage::insert_rows(
        &txn,
        &ctx.db,
        "signing_links",
        signet_documents::signing::links::ROW_COLUMNS,
        link_rows,
    )
    .await?;
    txn.commit().await?;
    let mut going = Vec::with_capacity(group.len());
    for ((c, doc, p), ok) in group.into_iter().zip(allowed) {
        if ok {
            going.push((c, p));
        } else if let Some(limit) = limit {
            pause(ctx, c, &doc, &p, limit).await?;
        }
    }
    Ok(going)
}

/// Counts the group's emails not counted before against the day's allowance, in the
/// reservation's transaction; answers, per email, whether it may go (those past the
/// allowance, the last queued first, may not). Test emails are never counted in usage, but
/// they go to an address the caller names: they keep to the same daily allowance on a counter
/// of their own.
async fn allowance(
    ctx: &Ctx,
    txn: &sea_orm::DatabaseTransaction,
    workspace: &str,
    group: &[Decided<'_>],
    counted: &std::collections::HashSet<String>,
    limit: Option<u64>,
) -> Result<Vec<bool>, DomainError> {
    let mut allowed = vec![true; group.len()];
    for (test, metric) in [(false, usage::EMAILS_SENT), (true, usage::TEST_EMAILS_SENT)] {
        let new: Vec<usize> = (0..group.len())
            .filter(|&i| group[i].1.test == test && !counted.contains(&group[i].2.email_id))
            .collect();
        if new.is_empty() {
            continue;
        }
        let shard = usage::shard(&ctx.db, limit.is_some(), &group[new[0]].2.email_id);
        usage::add(txn, &ctx.db, workspace, metric, new.len() as i64, shard).await?;
        if let Some(limit) = limit {
            // Read back under the checked row's lock: of passes racing for the day's last
            // emails, the counts add up exactly.
            let total = usage::counted_today(txn, &ctx.db, workspace, metric).await?;
            let over = (total - limit as i64).clamp(0, new.len() as i64) as usize;
            if over > 0 {
                usage::add(txn, &ctx.db, workspace, metric, -(over as i64), shard).await?;
                for &i in new.iter().rev().take(over) {
                    allowed[i] = false;
                }
            }
        }
        let going: Vec<&str> = new
            .iter()
            .filter(|&&i| allowed[i])
            .map(|&i| group[i].2.email_id.as_str())
            .collect();
        if !going.is_empty() {
            let marks: Vec<String> = (2..=going.len() + 1).map(|i| format!("${i}")).collect();
            let mut values = vec![Value::from(usage::today())];
            values.extend(going.iter().map(|i| Value::from(*i)));
            txn.execute_raw(ctx.db.stmt(
                &format!(
                    "UPDATE emails SET counted = $1 WHERE id IN ({})",
                    marks.join(", ")
                ),
                values,
            ))
            .await?;
        }
    }
    Ok(allowed)
}

/// The allowance is used: the email waits until after midnight UTC. Its job keeps its place
/// (emails waiting since earlier go first) and the wait costs it no try.
async fn pause(
    ctx: &Ctx,
    c: &Claimed,
    doc: &DocRow,
    p: &Ready,
    limit: u64,
) -> Result<(), DomainError> {
    let midnight = usage::next_midnight_ms();
    let reason = format!(
        "the plan's allowance of {limit} {}emails a day is used; it goes out after midnight UTC ({})",
        if doc.test { "test " } else { "" },
        signet_core::clock::time(midnight)
    );
    let txn = ctx.db.conn.begin().await?;
    txn.execute_raw(ctx.db.stmt(
        &format!("{UPSERT}{UPSERT_TAIL}"),
        p.row(&c.job, doc, "paused", Some(&reason), ctx.now()),
    ))
    .await?;
    jobs::release_in(&ctx.db, &txn, c, midnight).await?;
    txn.commit().await?;
    Ok(())
}
