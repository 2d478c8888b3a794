//! One pass of the mail worker: decide each email side by side, reserve each workspace's in
//! the order they were queued, hand them to the transport, record what went.

use signet_core::jobs::Claimed;
use signet_core::{Ctx, DomainError};
use signet_documents::jobs::EmailJob;
use signet_documents::store::{self, DocRow};
use signet_queue as jobs;

use super::pass::Pass;
use super::plan::{NotSent, Ready, Skip, plan};
use super::reserve::{Decided, reserve_all};
use super::rows::{fail, record_sent, set_status, status_of};
use super::settings::{email_id, mail};
use crate::Kind;
use crate::transport::SendError;

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
    let planned = match plan(ctx, pass, &doc, &payload, &id).await {
        Ok(p) => p,
        Err(NotSent::Error(e)) => return Err(e),
        Err(NotSent::Skip(Skip::Drop(why))) => {
            tracing::debug!(job = %c.job, why, "an email is no longer wanted");
            // A row an earlier try left (waiting for the allowance or the server) says why.
            signet_core::metrics::outcome(signet_core::metrics::Outcome::EmailFailed, 1);
            set_status(ctx, &id, "failed", Some(&format!("not sent: {why}"))).await?;
            jobs::done(&ctx.db, &c.job).await?;
            return Ok(None);
        }
        Err(NotSent::Skip(Skip::Later)) => {
            jobs::release(&ctx.db, c).await?;
            return Ok(None);
        }
        Err(NotSent::Skip(Skip::Fail {
            to,
            locale,
            subject,
            reason,
            suppressed,
        })) => {
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
    match mail(ctx).transport.send(&planned.outgoing).await {
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
            let at = ctx.now() + jobs::backoff(c.attempts + 1);
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
