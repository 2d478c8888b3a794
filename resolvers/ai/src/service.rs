//! The AI drafting service of a process: the operator's model (none unless configured) and
//! the limits every workspace's jobs keep to. Registered by the binary at start-up.

use std::sync::Arc;
use std::time::Duration;

use crate::provider::Provider;

pub struct Ai {
    /// The operator's model; `None` refuses every AI route plainly.
    pub provider: Option<Arc<Provider>>,
    pub limits: Limits,
}

#[derive(Clone, Debug)]
pub struct Limits {
    /// Tokens (read and written) one workspace's jobs may spend a day (UTC).
    pub tokens_per_day: u64,
    /// Jobs of one workspace running at once, across every process.
    pub running_per_workspace: i64,
    /// Jobs one process runs at once.
    pub running_per_process: usize,
    /// How long a job's prompt, brief, words and answer are kept.
    pub keep: Duration,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            tokens_per_day: 500_000,
            running_per_workspace: 2,
            running_per_process: 8,
            keep: Duration::from_secs(30 * 86_400),
        }
    }
}

impl std::fmt::Debug for Ai {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Ai")
            .field("provider", &self.provider)
            .field("limits", &self.limits)
            .finish()
    }
}

/// The AI service of `ctx`.
pub fn ai(ctx: &signet_core::Ctx) -> &Ai {
    ctx.services.get()
}

impl Ai {
    /// A job's lease: two calls to the model (the answer and one repair), and 15 seconds for
    /// the checks and writes around them. A worker that dies leaves its jobs to another once
    /// this runs out.
    pub fn lease_ms(&self) -> i64 {
        let call = self
            .provider
            .as_ref()
            .map(|p| p.settings.timeout.as_millis() as i64)
            .unwrap_or(60_000);
        2 * call + 15_000
    }
}

/// The queue's job: run AI job `id`.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct AiJob {
    pub id: String,
}

impl signet_queue::Job for AiJob {
    const KIND: &'static str = "ai";
}
