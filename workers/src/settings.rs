//! What the background work of a process is told.

use std::time::Duration;

use signet_webhooks::deliver::WorkerConfig;

/// What the background work of a process is told.
#[derive(Clone)]
pub struct Settings {
    /// Run the job workers (render, seal, email, webhook delivery); the scheduler always runs.
    pub jobs: bool,
    pub delivery: WorkerConfig,
    /// How often expiry and reminders are looked at.
    pub scheduler_every: Duration,
    /// Days the API log keeps a line.
    pub api_log_days: u64,
}
