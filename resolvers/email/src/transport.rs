//! Where composed emails go. The binary provides the transports (SMTP through lettre, or
//! `.eml` files in a folder); the worker only knows this trait, so no mail library reaches
//! the domain.

/// One message, whole.
#[derive(Clone, Debug)]
pub struct Outgoing {
    /// `<eml_...@domain>`: the same on every try of one email, so a repeat after a crash is
    /// recognisable, and delivery feedback finds its email by it.
    pub message_id: String,
    /// The log's id of this email (the file name of a folder transport).
    pub email_id: String,
    /// The display name of `From`; the address is the installation's `mail_from`.
    pub from_name: String,
    pub to: String,
    pub reply_to: Option<String>,
    pub subject: String,
    pub text: String,
    pub html: String,
    /// The language of the message (`Content-Language`).
    pub lang: String,
    pub attachment: Option<Attachment>,
}

#[derive(Clone, Debug)]
pub struct Attachment {
    pub filename: String,
    pub content_type: String,
    /// Shared by the emails of one document in a pass.
    pub data: std::sync::Arc<Vec<u8>>,
}

/// Why a message did not go.
#[derive(Clone, Debug, thiserror::Error)]
pub enum SendError {
    /// A 4xx answer, a broken connection, a timeout: try again later.
    #[error("{0}")]
    Temporary(String),
    /// A 5xx answer: the server refused this message for good.
    #[error("{0}")]
    Permanent(String),
}

#[async_trait::async_trait]
pub trait Transport: Send + Sync {
    /// Hands the message over: accepted by the SMTP server, or written whole to the folder.
    async fn send(&self, mail: &Outgoing) -> Result<(), SendError>;
    /// Where mail goes, for the start-up line (`smtp://host:587`, `the folder ...`); never a
    /// password.
    fn describe(&self) -> String;
    /// The domain of Message-IDs (the `mail_from` address's).
    fn domain(&self) -> String;
}

/// The transport of a context no binary gave one (tools that never send): every email waits.
pub struct Nowhere;

#[async_trait::async_trait]
impl Transport for Nowhere {
    async fn send(&self, _: &Outgoing) -> Result<(), SendError> {
        Err(SendError::Temporary(
            "no mail transport is configured".into(),
        ))
    }
    fn describe(&self) -> String {
        "nowhere".into()
    }
    fn domain(&self) -> String {
        "signet.invalid".into()
    }
}
