//! What the background work of a process is told.

use std::time::Duration;

use crate::pool::PoolConfig;

/// What the background work of a process is told.
#[derive(Clone)]
pub struct Settings {
    /// Run the registered job kinds; the scheduler always runs.
    pub jobs: bool,
    /// The pools' settings (webhook delivery).
    pub delivery: PoolConfig,
    /// How often expiry and reminders are looked at.
    pub scheduler_every: Duration,
    /// Days the API log keeps a line.
    pub api_log_days: u64,
}
