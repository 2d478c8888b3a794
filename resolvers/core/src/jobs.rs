//! The kinds of background work, and the signal that wakes each kind's worker.

/// The kinds of work the outbox holds, each written by the transition that causes it and
/// taken by its worker.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JobKind {
    /// Render a sent document's PDF.
    Render,
    /// Seal a document everyone signed.
    Seal,
    /// Send one email.
    Email,
    /// An event for webhooks (fanned out into deliveries).
    Event,
}

/// One wake-up signal per job kind, for this process's worker of that kind.
#[derive(Default)]
pub struct Wakes {
    render: tokio::sync::Notify,
    seal: tokio::sync::Notify,
    email: tokio::sync::Notify,
    event: tokio::sync::Notify,
}

impl Wakes {
    pub fn of(&self, kind: JobKind) -> &tokio::sync::Notify {
        match kind {
            JobKind::Render => &self.render,
            JobKind::Seal => &self.seal,
            JobKind::Email => &self.email,
            JobKind::Event => &self.event,
        }
    }
}

impl JobKind {
    /// The outbox's `kind` column.
    pub const fn as_str(self) -> &'static str {
        match self {
            JobKind::Render => "render",
            JobKind::Seal => "seal",
            JobKind::Email => "email",
            JobKind::Event => "event",
        }
    }
}
