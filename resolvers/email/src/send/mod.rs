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

mod pass;
mod plan;
mod reserve;
mod rows;
mod run;
mod settings;

pub use pass::{FILES_PER_PASS, Pass};
pub(crate) use plan::display_name;
pub(crate) use rows::audit;
pub use rows::suppressed;
pub use run::run_emails;
pub use settings::{
    ATTACH_LIMIT, BATCH, DOWNLOAD_DAYS, Mail, PACE_CAP, download_expires_at, email_id, mail,
    message_local,
};
