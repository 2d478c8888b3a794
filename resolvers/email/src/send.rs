//! The mail worker: takes queued `email` jobs and sends each one.
//!
//! A job is one email about one document to one person (or to the sender). Its log row is
//! keyed by the job, and its id (`eml_` and the job's own random part) makes the Message-ID,
//! so a worker killed between handing a message over and recording it sends it again with
//! the same Message-ID, and the log keeps one row. Per try:
//!
//! 1. whether the email is still wanted (an invitation to someone who has since signed, or to
//!    a document since voided, is dropped), and where it goes: the person, or for a test
//!    document only the sender, with `[TEST]` before the subject;
//! 2. a suppressed address fails with the reason, and the document's trail says so;
//! 3. in one transaction: the log row, the daily allowance (a live email past it waits as
//!    `paused` until after midnight UTC, oldest first), and the keyed hash of a new link;
//! 4. the transport; then the row says `sent` and the job ends, in one transaction. A 4xx
//!    or a broken connection comes back after a back-off (the row says `paused` and why); a
//!    5xx is `failed`.

use std::collections::BTreeMap;
use std::sync::Arc;

use sea_orm::{ConnectionTrait, TransactionTrait, Value};
use signet_storage::now_ms;

use super::compose::{self, Extras, Parsed, Values};
use super::transport::{Attachment, Outgoing, SendError, Transport};
use super::{Kind, templates};
use signet_accounts::usage;
use signet_core::jobs::Claimed;
use signet_core::plans::Plan;
use signet_core::{Ctx, DomainError};
use signet_documents::jobs::EmailJob;
use signet_documents::store::{self, DocRow, PersonDbRow};
use signet_documents::types::{EmailOptionsIn, SendOptionsIn};
use signet_queue as jobs;

/// An email decided in a pass, waiting to be reserved.
type Decided<'a> = (&'a Claimed, DocRow, Ready);

/// Emails one pass takes.
pub const BATCH: i64 = 64;
/// The longest a pass waits for a lull in requests.
pub const PACE_CAP: std::time::Duration = std::time::Duration::from_millis(100);
/// A sealed copy larger than this goes as a download link instead of an attachment.
pub const ATTACH_LIMIT: usize = 10 * 1024 * 1024;
/// How long a download link of a completed email works.
pub const DOWNLOAD_DAYS: i64 = 30;

/// When a download link minted at `now` (ms) stops working.
pub fn download_expires_at(now: i64) -> i64 {
    now + DOWNLOAD_DAYS * 86_400_000
}

/// Where this installation's email goes.
pub struct Mail {
    pub transport: Arc<dyn Transport>,
    /// How long a worker holds the emails of a pass; a worker that dies leaves them to be
    /// sent again once this runs out.
    pub lease_ms: i64,
}

impl Mail {
    pub fn new(transport: Arc<dyn Transport>) -> Mail {
        Mail {
            transport,
            lease_ms: 300_000,
        }
    }
}

/// The mail services of `ctx` (registered at start-up with `Ctx::with`).
pub fn mail(ctx: &Ctx) -> &Mail {
    ctx.services.get()
}

/// Sends the claimed emails of one pass: each is decided side by side (what it is, to whom, in
/// which words; one that will not go ends there), then each workspace's emails are reserved
/// in the order they were queued, so that of emails racing for the day's last allowance the
/// oldest wins, and every reserved message is handed to the transport side by side. What the
/// emails of a pass share (the workspace, a document's people, wording, sealed files) is read
/// once. Answers how many jobs it took.
pub async fn run_emails(ctx: &Ctx, claimed: Vec<Claimed>) -> Result<usize, DomainError> {
    use futures_util::{FutureExt, StreamExt};
    let taken = claimed.len();
    let pass = Pass::default();
    let pass = &pass;
    // What each email is, side by side: reads only.
    let decided = futures_util::future::join_all(claimed.iter().map(|c| async move {
        match std::panic::AssertUnwindSafe(decide(ctx, pass, c))
            .catch_unwind()
            .await
        {
            Ok(Ok(Some((doc, ready)))) => Some((c, doc, ready)),
            Ok(Ok(None)) => None,
            Ok(Err(e)) => {
                tracing::warn!(error = %e, "preparing an email failed; it is tried again");
                None
            }
            Err(_) => {
                tracing::error!("preparing an email panicked");
                None
            }
        }
    }))
    .await;
    // Each workspace's emails reserved in the order they were queued.
    let mut groups: Vec<(String, Vec<Decided>)> = Vec::new();
    for (c, doc, ready) in decided.into_iter().flatten() {
        match groups.iter_mut().find(|g| g.0 == c.workspace_id) {
            Some(g) => g.1.push((c, doc, ready)),
            None => groups.push((c.workspace_id.clone(), vec![(c, doc, ready)])),
        }
    }
    let prepared =
        futures_util::future::join_all(groups.into_iter().map(|(_, emails)| async move {
            match reserve_all(ctx, emails).await {
                Ok(going) => going,
                Err(e) => {
                    tracing::warn!(error = %e, "reserving emails failed; they are tried again");
                    Vec::new()
                }
            }
        }))
        .await;
    let mut pass: futures_util::stream::FuturesUnordered<_> = prepared
        .into_iter()
        .flatten()
        .map(|(c, p)| std::panic::AssertUnwindSafe(deliver(ctx, c, p)).catch_unwind())
        .collect();
    let mut sent: Vec<(&str, String)> = Vec::new();
    while let Some(done) = pass.next().await {
        match done {
            Ok(Ok(Some(s))) => sent.push(s),
            Ok(Ok(None)) => {}
            Ok(Err(e)) => tracing::warn!(error = %e, "an email job failed; it is tried again"),
            Err(_) => tracing::error!("an email job panicked"),
        }
    }
    // The pass's sent emails are recorded and their jobs ended together: a worker that dies
    // before this sends them again, under the same Message-IDs.
    record_sent(ctx, &sent).await?;
    Ok(taken)
}

/// The workspace as an email needs it.
#[derive(Clone)]
struct Workspace {
    name: String,
    plan: Plan,
    locale: Option<String>,
    sender_email: Option<String>,
}

async fn workspace(ctx: &Ctx, id: &str) -> Result<Workspace, DomainError> {
    let r = ctx
        .db
        .conn
        .query_one_raw(ctx.db.stmt(
            "SELECT name, plan, locale, sender_email FROM workspaces WHERE id = $1",
            [Value::from(id.to_string())],
        ))
        .await?
        .ok_or_else(|| DomainError::Internal(format!("workspace {id} is gone")))?;
    Ok(Workspace {
        name: r.try_get("", "name")?,
        plan: Plan::parse(&r.try_get::<String>("", "plan")?).unwrap_or(Plan::Free),
        locale: r.try_get("", "locale")?,
        sender_email: r.try_get("", "sender_email")?,
    })
}

/// The log's id of the email a job sends: the job's own random part, so every try of the
/// job names the same email.
pub fn email_id(job_id: &str) -> String {
    format!("eml_{}", job_id.strip_prefix("job_").unwrap_or(job_id))
}

/// The local part of an email's Message-ID: its id and a keyed tag of it. Ids made in the
/// same millisecond differ by one, so one reader of a Message-ID could guess another's;
/// the tag makes a forged bounce or complaint about someone else's email fail to match.
pub fn message_local(ctx: &Ctx, email_id: &str) -> String {
    let tag = ring::hmac::sign(&ctx.key_hasher, format!("message-id:{email_id}").as_bytes());
    let hex: String = tag.as_ref()[..8]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    format!("{email_id}.{hex}")
}

/// Everything one try decided before anything is written.
struct Ready {
    email_id: String,
    kind: Kind,
    to: String,
    locale: String,
    subject: String,
    outgoing: Outgoing,
    link: Option<(
        signet_documents::signing::links::Minted,
        &'static str,
        Option<i64>,
    )>,
    person_id: Option<String>,
    /// The workspace's plan, whose daily allowance the email counts against.
    plan: Plan,
}

impl Ready {
    /// Its log row with `status`.
    fn row(&self, job: &str, doc: &DocRow, status: &str, reason: Option<&str>) -> Vec<Value> {
        row_values(
            &self.email_id,
            job,
            doc,
            self.kind,
            self.person_id.as_deref(),
            &self.to,
            &self.subject,
            &self.locale,
            status,
            reason,
        )
    }
}

/// Why a try sends nothing.
enum Skip {
    /// Not in this pass (it holds enough large files already): the job goes back, no try
    /// spent.
    Later,
    /// Not wanted any more: the job ends, nothing is logged.
    Drop(&'static str),
    /// Logged as `failed` with the reason; the job ends.
    Fail {
        to: String,
        locale: String,
        subject: String,
        reason: String,
        suppressed: bool,
    },
}

/// Decides one email and reserves it (its log row, its allowance, its link). `None` when the
/// job has ended or waits without sending.
async fn decide(
    ctx: &Ctx,
    pass: &Pass,
    c: &Claimed,
) -> Result<Option<(DocRow, Ready)>, DomainError> {
    let payload: EmailJob = match c.decode() {
        Ok(p) => p,
        Err(e) => {
            tracing::error!(job = %c.job, error = %e, "an email job cannot be read");
            jobs::give_up(&ctx.db, c).await?;
            return Ok(None);
        }
    };
    let Some(doc) = store::load(&ctx.db.conn, &ctx.db, &payload.document_id).await? else {
        jobs::done(&ctx.db, &c.job).await?;
        return Ok(None);
    };
    let id = email_id(&c.job);
    // An earlier try may have finished the email and died before ending the job.
    if let Some(status) = status_of(ctx, &c.job).await?
        && status != "queued"
        && status != "paused"
    {
        jobs::done(&ctx.db, &c.job).await?;
        return Ok(None);
    }
    let planned = match plan(ctx, pass, &doc, &payload, &id).await? {
        Ok(p) => p,
        Err(Skip::Drop(why)) => {
            tracing::debug!(job = %c.job, why, "an email is no longer wanted");
            // A row an earlier try left (waiting for the allowance or the server) says why.
            signet_core::metrics::outcome(signet_core::metrics::Outcome::EmailFailed, 1);
            set_status(ctx, &id, "failed", Some(&format!("not sent: {why}"))).await?;
            jobs::done(&ctx.db, &c.job).await?;
            return Ok(None);
        }
        Err(Skip::Later) => {
            jobs::release(&ctx.db, c).await?;
            return Ok(None);
        }
        Err(Skip::Fail {
            to,
            locale,
            subject,
            reason,
            suppressed,
        }) => {
            let kind = Kind::parse(&payload.kind).unwrap_or(Kind::Invitation);
            fail(
                ctx,
                c,
                &doc,
                &id,
                kind,
                payload.person_id.as_deref(),
                &to,
                &locale,
                &subject,
                &reason,
                suppressed,
            )
            .await?;
            return Ok(None);
        }
    };
    Ok(Some((doc, planned)))
}

/// Hands a reserved email to the transport. A sent email is answered (job, email id), to be
/// recorded with the rest of the pass; any other outcome is recorded here.
async fn deliver<'a>(
    ctx: &Ctx,
    c: &'a Claimed,
    planned: Ready,
) -> Result<Option<(&'a str, String)>, DomainError> {
    let id = planned.email_id.clone();
    match crate::send::mail(ctx)
        .transport
        .send(&planned.outgoing)
        .await
    {
        Ok(()) => Ok(Some((c.job.as_str(), id))),
        Err(SendError::Permanent(why)) => {
            set_status(
                ctx,
                &id,
                "failed",
                Some(&format!("the mail server refused it: {why}")),
            )
            .await?;
            jobs::done(&ctx.db, &c.job)
                .await
                .map(|_| None)
                .map_err(Into::into)
        }
        Err(SendError::Temporary(why)) if c.attempts + 1 >= jobs::MAX_ATTEMPTS => {
            let reason = format!("gave up after {} tries: {why}", c.attempts + 1);
            signet_core::metrics::outcome(signet_core::metrics::Outcome::EmailFailed, 1);
            set_status(ctx, &id, "failed", Some(&reason)).await?;
            jobs::give_up(&ctx.db, c)
                .await
                .map(|_| None)
                .map_err(Into::into)
        }
        Err(SendError::Temporary(why)) => {
            let at = now_ms() + jobs::backoff(c.attempts + 1);
            let reason = format!(
                "the mail server could not take it ({why}); trying again at {}",
                signet_core::clock::time(at)
            );
            set_status(ctx, &id, "paused", Some(&reason)).await?;
            jobs::retry_later(&ctx.db, c)
                .await
                .map(|_| None)
                .map_err(Into::into)
        }
    }
}

/// Marks emails sent and ends their jobs, in one transaction.
async fn record_sent(ctx: &Ctx, sent: &[(&str, String)]) -> Result<(), DomainError> {
    if sent.is_empty() {
        return Ok(());
    }
    let now = now_ms();
    let txn = ctx.db.conn.begin().await?;
    for chunk in sent.chunks(200) {
        let marks: Vec<String> = (2..=chunk.len() + 1).map(|i| format!("${i}")).collect();
        let mut values = vec![Value::from(now)];
        values.extend(chunk.iter().map(|(_, id)| Value::from(id.clone())));
        txn.execute_raw(ctx.db.stmt(
            &format!(
                "UPDATE emails SET status = 'sent', reason = NULL, sent_at = $1, updated_at = $1 \
                 WHERE status IN ('queued', 'paused') AND id IN ({})",
                marks.join(", ")
            ),
            values,
        ))
        .await?;
        let done: Vec<String> = chunk.iter().map(|(job, _)| job.to_string()).collect();
        jobs::finish_all(&ctx.db, &txn, &done).await?;
    }
    txn.commit().await?;
    signet_core::metrics::outcome(signet_core::metrics::Outcome::EmailSent, sent.len() as u64);
    Ok(())
}

/// Whether another email of `kind` about `doc` went out or is on its way.
async fn already_sent_kind(
    ctx: &Ctx,
    doc: &DocRow,
    kind: Kind,
    id: &str,
) -> Result<bool, DomainError> {
    Ok(ctx
        .db
        .conn
        .query_one_raw(ctx.db.stmt(
            "SELECT 1 AS one FROM emails WHERE document_id = $1 AND kind = $2 AND id <> $3 \
             AND status <> 'failed' LIMIT 1",
            [
                Value::from(doc.id.clone()),
                Value::from(kind.as_str()),
                Value::from(id.to_string()),
            ],
        ))
        .await?
        .is_some())
}

async fn status_of(ctx: &Ctx, job: &str) -> Result<Option<String>, DomainError> {
    let row = ctx
        .db
        .conn
        .query_one_raw(ctx.db.stmt(
            "SELECT status FROM emails WHERE job_id = $1",
            [Value::from(job.to_string())],
        ))
        .await?;
    Ok(row.map(|r| r.try_get("", "status")).transpose()?)
}

async fn set_status(
    ctx: &Ctx,
    id: &str,
    status: &str,
    reason: Option<&str>,
) -> Result<(), DomainError> {
    ctx.db
        .write(ctx.db.stmt(
            // Only an email without an outcome: a bounce reported before this try was recorded,
            // or another worker's success, is not overwritten.
            "UPDATE emails SET status = $2, reason = $3, updated_at = $4 WHERE id = $1 AND status IN ('queued', 'paused')",
            [
                Value::from(id.to_string()),
                Value::from(status),
                Value::from(reason.map(str::to_string)),
                Value::from(now_ms()),
            ],
        ))
        .await?;
    Ok(())
}

/// The values of the log row every try writes or keeps.
#[allow(clippy::too_many_arguments)]
fn row_values(
    id: &str,
    job: &str,
    doc: &DocRow,
    kind: Kind,
    person_id: Option<&str>,
    to: &str,
    subject: &str,
    locale: &str,
    status: &str,
    reason: Option<&str>,
) -> Vec<Value> {
    let now = now_ms();
    vec![
        Value::from(id.to_string()),
        Value::from(doc.workspace_id.clone()),
        Value::from(doc.test),
        Value::from(job.to_string()),
        Value::from(doc.id.clone()),
        Value::from(person_id.map(str::to_string)),
        Value::from(kind.as_str()),
        Value::from(to.to_lowercase()),
        Value::from(subject.to_string()),
        Value::from(locale.to_string()),
        Value::from(status),
        Value::from(reason.map(str::to_string)),
        Value::from(now),
        Value::from(now),
    ]
}

const UPSERT: &str = "INSERT INTO emails (id, workspace_id, test, job_id, document_id, person_id, kind, to_address, subject, locale, \
     status, reason, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)";

/// A later try of a job keeps its row (and whether it was counted).
const UPSERT_TAIL: &str = " ON CONFLICT (job_id) DO UPDATE SET to_address = excluded.to_address, subject = excluded.subject, \
     locale = excluded.locale, status = excluded.status, reason = excluded.reason, updated_at = excluded.updated_at";

/// Writes an audit row about an email into its document's trail, in the caller's transaction,
/// after taking the document's row lock as every trail write does.
pub(crate) async fn audit(
    ctx: &Ctx,
    txn: &sea_orm::DatabaseTransaction,
    doc_id: &str,
    event: &str,
    description: &str,
    detail: serde_json::Value,
) -> Result<(), DomainError> {
    txn.execute_raw(ctx.db.stmt(
        "UPDATE documents SET updated_at = updated_at WHERE id = $1",
        [Value::from(doc_id.to_string())],
    ))
    .await?;
    let mut trail = signet_documents::trail::Trail::new(doc_id);
    trail.audit(event, description, None, "signet", detail);
    // An audit row only: nothing is queued.
    trail.write(txn, &ctx.db).await.map(drop)
}

/// Logs an email that will not go, ends its job, and for a suppressed address writes the
/// document's audit row.
#[allow(clippy::too_many_arguments)]
async fn fail(
    ctx: &Ctx,
    c: &Claimed,
    doc: &DocRow,
    id: &str,
    kind: Kind,
    person_id: Option<&str>,
    to: &str,
    locale: &str,
    subject: &str,
    reason: &str,
    suppressed: bool,
) -> Result<(), DomainError> {
    let txn = ctx.db.conn.begin().await?;
    txn.execute_raw(ctx.db.stmt(
        &format!("{UPSERT}{UPSERT_TAIL}"),
        row_values(
            id,
            &c.job,
            doc,
            kind,
            person_id,
            to,
            subject,
            locale,
            "failed",
            Some(reason),
        ),
    ))
    .await?;
    if suppressed {
        audit(
            ctx,
            &txn,
            &doc.id,
            "email_suppressed",
            &format!("The {} email to {to} was not sent: {reason}", kind.as_str()),
            serde_json::json!({"email": id, "kind": kind.as_str()}),
        )
        .await?;
    }
    jobs::finish(&ctx.db, &txn, &c.job).await?;
    txn.commit().await?;
    Ok(())
}

/// Writes the log rows of one workspace's emails, counts them against the daily allowance and
/// stores their links, in one transaction. Answers the emails that may go; those past the
/// allowance (the last queued first) wait, `paused`, until after midnight UTC.
async fn reserve_all<'a>(
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
            values.extend(p.row(&c.job, doc, "queued", None));
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
    let mut allowed = vec![true; group.len()];
    // Test emails are never counted in usage, but they go to an address the caller names:
    // they keep to the same daily allowance on a counter of their own.
    for (test, metric) in [(false, usage::EMAILS_SENT), (true, usage::TEST_EMAILS_SENT)] {
        let new: Vec<usize> = (0..group.len())
            .filter(|&i| group[i].1.test == test && !counted.contains(&group[i].2.email_id))
            .collect();
        if new.is_empty() {
            continue;
        }
        let shard = usage::shard(&ctx.db, limit.is_some(), &group[new[0]].2.email_id);
        usage::add(&txn, &ctx.db, &workspace, metric, new.len() as i64, shard).await?;
        if let Some(limit) = limit {
            // Read back under the checked row's lock: of passes racing for the day's last
            // emails, the counts add up exactly.
            let total = usage::counted_today(&txn, &ctx.db, &workspace, metric).await?;
            let over = (total - limit as i64).clamp(0, new.len() as i64) as usize;
            if over > 0 {
                usage::add(&txn, &ctx.db, &workspace, metric, -(over as i64), shard).await?;
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
            link_rows.push(signet_documents::signing::links::row(minted, &to));
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
        p.row(&c.job, doc, "paused", Some(&reason)),
    ))
    .await?;
    jobs::release_in(&ctx.db, &txn, c, midnight).await?;
    txn.commit().await?;
    Ok(())
}

/// The first of `values` that is set and not blank.
fn first(values: &[&Option<String>]) -> Option<String> {
    values
        .iter()
        .filter_map(|v| v.as_deref())
        .map(str::trim)
        .find(|v| !v.is_empty())
        .map(str::to_string)
}

fn day(ms: Option<i64>, locale: &str) -> String {
    ms.and_then(chrono::DateTime::from_timestamp_millis)
        .map(|t| t.format("%Y-%m-%d").to_string())
        .map(|iso| signet_documents::dates::localized(&iso, locale).unwrap_or(iso))
        .unwrap_or_default()
}

/// The sealed files one pass has read, shared by its emails: a document's completion emails
/// hold one copy between them, and a pass holds at most [`FILES_PER_PASS`] files (the emails
/// of other documents wait for the next pass), so a pass's memory stays bounded whatever
/// the documents weigh.
#[derive(Default)]
pub struct Pass {
    files: std::sync::Mutex<BTreeMap<String, Arc<Vec<u8>>>>,
    /// What the emails of a pass share: each read once.
    workspaces: std::sync::Mutex<BTreeMap<String, Workspace>>,
    people: std::sync::Mutex<BTreeMap<String, Arc<Vec<PersonDbRow>>>>,
    wordings: std::sync::Mutex<BTreeMap<(String, Kind, String), crate::wording::Wording>>,
    /// Test documents' kinds of email this pass sends: one of each per document.
    test_kinds: std::sync::Mutex<std::collections::BTreeSet<(String, &'static str)>>,
}

/// A value of a pass's cache, or `read` it and keep it.
async fn cached<
    K: Ord + Clone,
    V: Clone,
    F: std::future::Future<Output = Result<V, DomainError>>,
>(
    map: &std::sync::Mutex<BTreeMap<K, V>>,
    key: &K,
    read: impl FnOnce() -> F,
) -> Result<V, DomainError> {
    if let Some(v) = map.lock().ok().and_then(|m| m.get(key).cloned()) {
        return Ok(v);
    }
    let v = read().await?;
    if let Ok(mut m) = map.lock() {
        m.insert(key.clone(), v.clone());
    }
    Ok(v)
}

/// Sealed files (each at most a few tens of MB) one pass holds at once.
pub const FILES_PER_PASS: usize = 4;

enum Loaded {
    File(Arc<Vec<u8>>),
    Missing,
    Later,
}

impl Pass {
    async fn workspace(&self, ctx: &Ctx, id: &str) -> Result<Workspace, DomainError> {
        cached(&self.workspaces, &id.to_string(), || workspace(ctx, id)).await
    }

    async fn people(&self, ctx: &Ctx, doc: &DocRow) -> Result<Arc<Vec<PersonDbRow>>, DomainError> {
        cached(&self.people, &doc.id, || async {
            Ok(Arc::new(
                store::people(&ctx.db.conn, &ctx.db, &[&doc.id]).await?,
            ))
        })
        .await
    }

    async fn wording(
        &self,
        ctx: &Ctx,
        workspace_id: &str,
        kind: Kind,
        locale: &str,
    ) -> Result<crate::wording::Wording, DomainError> {
        let key = (workspace_id.to_string(), kind, locale.to_string());
        cached(&self.wordings, &key, || {
            templates::effective(ctx, workspace_id, kind, locale)
        })
        .await
    }

    async fn sealed(&self, ctx: &Ctx, doc: &DocRow) -> Result<Loaded, DomainError> {
        let Some(key) = signet_documents::record::sealed_key(ctx, &doc.id).await? else {
            return Ok(Loaded::Missing);
        };
        let full = {
            let files = self
                .files
                .lock()
                .map_err(|_| DomainError::Internal("a poisoned lock".into()))?;
            if let Some(f) = files.get(&key) {
                return Ok(Loaded::File(f.clone()));
            }
            files.len() >= FILES_PER_PASS
        };
        if full {
            return Ok(Loaded::Later);
        }
        let Some(bytes) = ctx.blobs.get(&key).await? else {
            return Ok(Loaded::Missing);
        };
        let file = Arc::new(bytes);
        if let Ok(mut files) = self.files.lock() {
            files.insert(key, file.clone());
        }
        Ok(Loaded::File(file))
    }
}

/// Decides what one try sends.
async fn plan(
    ctx: &Ctx,
    pass: &Pass,
    doc: &DocRow,
    payload: &EmailJob,
    id: &str,
) -> Result<Result<Ready, Skip>, DomainError> {
    let Some(kind) = Kind::parse(&payload.kind) else {
        return Ok(Err(Skip::Drop("an unknown kind")));
    };
    if kind == Kind::Receipt {
        // Payments come later; they will send receipts with their values.
        return Ok(Err(Skip::Drop("receipts are sent by payments")));
    }
    let person = match &payload.person_id {
        Some(pid) => match pass
            .people(ctx, doc)
            .await?
            .iter()
            .find(|p| &p.id == pid)
            .cloned()
        {
            Some(p) => Some(p),
            None => return Ok(Err(Skip::Drop("the person is gone"))),
        },
        None => None,
    };
    let out = signet_documents::state::OUT_FOR_SIGNATURE.contains(&format!("'{}'", doc.state));
    if person.as_ref().is_some_and(|p| p.embedded) {
        return Ok(Err(Skip::Drop(
            "the person signs inside the sender's own app and is never emailed",
        )));
    }
    let mut code = None;
    if kind == Kind::Code {
        let (Some(p), Some(nonce)) = (&person, &payload.nonce) else {
            return Ok(Err(Skip::Drop("a code email names no person or code")));
        };
        let ended = matches!(doc.state.as_str(), "declined" | "voided" | "expired");
        code = match signet_documents::signing::identity::code_to_send(ctx, &p.id, nonce).await? {
            Some(c) if !ended => Some(c),
            _ => return Ok(Err(Skip::Drop("the code was replaced, used or ran out"))),
        };
    }
    if matches!(kind, Kind::Invitation | Kind::Reminder) {
        let waiting = person
            .as_ref()
            .is_some_and(|p| p.status == "invited" || p.status == "opened");
        if !out || !waiting {
            return Ok(Err(Skip::Drop("the person is no longer waiting to sign")));
        }
        // Nobody is asked to sign pages that are not rendered yet (a test signature can come
        // before the render, and invite the next person): it waits for them.
        if doc.page_sizes.is_none() {
            return Ok(Err(Skip::Later));
        }
    }
    let ws = pass.workspace(ctx, &doc.workspace_id).await?;
    let email: EmailOptionsIn = serde_json::from_str(&doc.email_options).unwrap_or_default();
    let send: SendOptionsIn = serde_json::from_str(&doc.send_options).unwrap_or_default();
    let facts: BTreeMap<String, String> = serde_json::from_str(&doc.facts).unwrap_or_default();
    let sender_name = first(&[&email.sender_name, &send.sender_name]).unwrap_or(ws.name.clone());
    let address = |v: Option<String>| v.filter(|a| signet_core::fields::is_email(a.trim()));
    let reply_to = address(first(&[&email.reply_to, &send.reply_to]));
    let sender_email = first(&[
        &address(facts.get("sender.email").cloned()),
        &reply_to,
        &address(ws.sender_email.clone()),
    ]);
    // Replies reach the sender, not the address bounces come back to.
    let reply_to = reply_to.or(sender_email.clone());
    let locale = first(&[
        &person.as_ref().and_then(|p| p.locale.clone()),
        &email.locale,
        &send.language,
        &ws.locale,
    ])
    .unwrap_or_else(|| "en".into());

    // Who it goes to: the person; for a test document, only the workspace's own sender
    // address, set by a person or the operator, never an address the request named (a test
    // key would otherwise mail anyone from the operator's domain).
    let to = if doc.test {
        address(ws.sender_email.clone())
    } else {
        person
            .as_ref()
            .map(|p| p.email.clone())
            .or(sender_email.clone())
    };
    // The sender's own copy, when the sender is also one of the people: they have theirs.
    if person.is_none()
        && !doc.test
        && let Some(s) = &sender_email
        && pass
            .people(ctx, doc)
            .await?
            .iter()
            .any(|p| p.email.eq_ignore_ascii_case(s))
    {
        return Ok(Err(Skip::Drop(
            "the sender is one of the people and has their copy",
        )));
    }
    let Some(to) = to else {
        if person.is_none() && !doc.test {
            return Ok(Err(Skip::Drop("the document names no sender address")));
        }
        return Ok(Err(Skip::Fail {
            to: String::new(),
            locale,
            subject: format!("[TEST] {}", doc.title),
            reason: "a test document's emails go only to the workspace's sender address, and \
                     it has none: set it (signet admin workspace update ID --sender-email \
                     ADDRESS)"
                .into(),
            suppressed: false,
        }));
    };
    // A practice run shows the sender each kind of email once (codes aside); more would only
    // be copies of it in their own mailbox.
    // Codes are the exception: each is asked for, and a person needs the one just sent.
    let once = doc.test && kind != Kind::Code;
    let first_of_pass = !once
        || pass
            .test_kinds
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .insert((doc.id.clone(), kind.as_str()));
    if once && (!first_of_pass || already_sent_kind(ctx, doc, kind, id).await?) {
        return Ok(Err(Skip::Drop(
            "a test document sends its sender one email of each kind",
        )));
    }

    let mut wording = pass.wording(ctx, &doc.workspace_id, kind, &locale).await?;
    let own_subject = first(&[&email.subject, &send.subject])
        .filter(|_| matches!(kind, Kind::Invitation | Kind::Reminder));
    if own_subject.is_some() {
        wording.subject = String::new();
    }
    let mut parsed = Parsed::new(kind, &wording)?;
    if let Some(subject) = own_subject {
        // The document's own subject is its words, not wording: no variable is read in it.
        parsed.subject = vec![compose::Seg::Text(subject)];
    }
    let mut values = Values::new();
    values.insert("document.title", doc.title.clone());
    values.insert(
        "person.name",
        person
            .as_ref()
            .map(|p| p.name.clone())
            .unwrap_or(sender_name.clone()),
    );
    values.insert("sender.name", sender_name.clone());
    values.insert("workspace.name", ws.name.clone());
    values.insert("document.expiresAt", day(doc.expires_at, &locale));
    values.insert("document.completedAt", day(doc.completed_at, &locale));
    values.insert("void.reason", doc.reason.clone().unwrap_or_default());
    if let Some(code) = code {
        values.insert("code.value", code);
        values.insert(
            "code.minutes",
            signet_documents::signing::identity::CODE_MINUTES.to_string(),
        );
    }
    if kind == Kind::Declined {
        let (name, reason) = decliner(ctx, doc).await?;
        values.insert("decliner.name", name);
        values.insert("decline.reason", reason);
    }
    let mut extras = Extras {
        test: doc.test,
        message: first(&[&email.message, &send.message])
            .filter(|_| matches!(kind, Kind::Invitation | Kind::Reminder)),
        ..Extras::default()
    };
    let mut link = None;
    let mut attachment = None;
    if matches!(kind, Kind::Invitation | Kind::Reminder) {
        let minted = signet_documents::signing::links::mint(ctx)?;
        extras.action_url = Some(signet_documents::signing::links::url(
            &ctx.public_url,
            &minted.token,
        ));
        link = Some((minted, "sign", None));
    }
    if kind == Kind::Completed {
        let pdf = match pass.sealed(ctx, doc).await? {
            Loaded::File(pdf) => Some(pdf),
            Loaded::Missing => None,
            Loaded::Later => return Ok(Err(Skip::Later)),
        };
        match pdf {
            Some(pdf) if pdf.len() <= ATTACH_LIMIT => {
                attachment = Some(Attachment {
                    filename: signet_documents::record::attachment_name(&doc.title),
                    content_type: "application/pdf".into(),
                    data: pdf,
                });
            }
            Some(_) => {
                let minted = signet_documents::signing::links::mint(ctx)?;
                extras.download_url = Some(signet_documents::signing::links::download_url(
                    &ctx.public_url,
                    &minted.token,
                ));
                link = Some((minted, "download", Some(download_expires_at(now_ms()))));
            }
            None => return Ok(Err(Skip::Drop("the document has no sealed copy"))),
        }
    }
    let composed = compose::compose(kind, &locale, &parsed, &values, &extras);
    let mark = if doc.test { "[TEST] " } else { "" };
    let sent_subject = format!("{mark}{}", composed.subject);
    // What the log keeps: never a code or a link.
    let subject = format!("{mark}{}", compose::logged_subject(&parsed, &values));
    if let Some(reason) = suppressed(ctx, &doc.workspace_id, &to).await? {
        return Ok(Err(Skip::Fail {
            to,
            locale,
            subject,
            reason: format!("the address is suppressed in this workspace: {reason}"),
            suppressed: true,
        }));
    }
    let outgoing = Outgoing {
        message_id: format!(
            "<{}@{}>",
            message_local(ctx, id),
            crate::send::mail(ctx).transport.domain()
        ),
        email_id: id.to_string(),
        // A display name cannot pose as an address.
        from_name: sender_name
            .chars()
            .map(|c| {
                if "@<>\"".contains(c) || c.is_control() {
                    ' '
                } else {
                    c
                }
            })
            .collect::<String>(),
        to: to.clone(),
        reply_to,
        subject: sent_subject,
        text: composed.text,
        html: composed.html,
        lang: locale.clone(),
        attachment,
    };
    Ok(Ok(Ready {
        email_id: id.to_string(),
        kind,
        to,
        locale,
        subject,
        outgoing,
        link,
        person_id: person.map(|p| p.id),
        plan: ws.plan,
    }))
}

async fn decliner(ctx: &Ctx, doc: &DocRow) -> Result<(String, String), DomainError> {
    let row = ctx
        .db
        .conn
        .query_one_raw(ctx.db.stmt(
            "SELECT name, decline_reason FROM people WHERE document_id = $1 AND declined_at IS NOT NULL \
             ORDER BY declined_at LIMIT 1",
            [Value::from(doc.id.clone())],
        ))
        .await?;
    Ok(match row {
        Some(r) => (
            r.try_get("", "name")?,
            r.try_get::<Option<String>>("", "decline_reason")?
                .unwrap_or_default(),
        ),
        None => (String::new(), String::new()),
    })
}

/// Why an address is suppressed in a workspace, if it is.
pub async fn suppressed(
    ctx: &Ctx,
    workspace_id: &str,
    address: &str,
) -> Result<Option<String>, DomainError> {
    let row = ctx
        .db
        .conn
        .query_one_raw(ctx.db.stmt(
            "SELECT reason FROM email_suppressions WHERE workspace_id = $1 AND address = $2",
            [
                Value::from(workspace_id.to_string()),
                Value::from(address.to_lowercase()),
            ],
        ))
        .await?;
    Ok(row.map(|r| r.try_get("", "reason")).transpose()?)
}
