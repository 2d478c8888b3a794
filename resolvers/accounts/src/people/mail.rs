//! The application's own emails, as jobs on the one queue: a sign-in link asked for an
//! address, and an invitation to a workspace. The job names who, never a link: the link is
//! made when the job runs (its secret exists only in the message handed to the transport),
//! so a copy of the queue opens nothing. The email crate's handler sends them.

use serde::{Deserialize, Serialize};

/// The queue's owner of sign-in emails, which belong to no workspace yet.
pub const INSTALLATION: &str = "installation";

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(tag = "what", rename_all = "snake_case")]
pub enum PeopleEmail {
    /// A sign-in link asked for this address (counted already; sent only when the address
    /// is someone's).
    SignIn { email: String },
    /// A person added to a workspace by someone: the invitation, with a link that opens it.
    Invited {
        user_id: String,
        workspace_id: String,
        /// Who invited, by name, as the email says it.
        inviter: String,
        role: String,
    },
}

impl signet_core::jobs::Job for PeopleEmail {
    const KIND: &'static str = "people_email";
}
