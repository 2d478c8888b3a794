//! Where this installation's email goes, and the rules every pass keeps: its size, its pace,
//! attachments and download links, and the ids an email is known by.

use std::sync::Arc;

use signet_core::Ctx;

use crate::transport::Transport;

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
