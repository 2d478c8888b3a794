//! The one clock of stored times.

use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};
use std::time::Duration;

/// Milliseconds since the Unix epoch by the system's clock: every timestamp column stores
/// this, so SQLite and PostgreSQL compare and sort times alike. The domain reads the time from
/// its [`Clock`] instead (`Db::clock`), which tests can move.
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

/// Where one Signet reads the time: the system's, unless a test has moved it. Every clone
/// reads the same time, and each app (each `Db`) has its own, so tests running side by side
/// in one process move only their own app's time.
#[derive(Clone, Debug, Default)]
pub struct Clock(Arc<Hands>);

#[derive(Debug, Default)]
struct Hands {
    /// A time the clock was stopped at; 0 while it runs.
    stopped: AtomicI64,
    /// Milliseconds added to the time: how far a test has moved it on.
    ahead: AtomicI64,
}

impl Clock {
    /// Milliseconds since the Unix epoch.
    pub fn now_ms(&self) -> i64 {
        let base = match self.0.stopped.load(Ordering::Relaxed) {
            0 => now_ms(),
            at => at,
        };
        base + self.0.ahead.load(Ordering::Relaxed)
    }

    /// Stops the clock at `ms` (tests: a burst that cannot straddle two minutes).
    pub fn set_ms(&self, ms: i64) {
        self.0.ahead.store(0, Ordering::Relaxed);
        self.0.stopped.store(ms.max(1), Ordering::Relaxed);
    }

    /// Moves the clock on by `by` (tests: a week passes without waiting for it). Work the
    /// time makes due (a reminder, an expiry, a retry) is due at once.
    pub fn advance(&self, by: Duration) {
        let ms = i64::try_from(by.as_millis()).unwrap_or(i64::MAX / 2);
        self.0.ahead.fetch_add(ms, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_moved_clock_moves_only_its_own_clones() {
        let a = Clock::default();
        let b = Clock::default();
        let a2 = a.clone();
        a.advance(Duration::from_secs(7 * 86_400));
        let week = 7 * 86_400_000;
        assert!(a2.now_ms() - b.now_ms() >= week - 1_000);
        assert!(b.now_ms() - now_ms() < 1_000);
        b.set_ms(1_000);
        assert_eq!(b.now_ms(), 1_000);
        b.advance(Duration::from_millis(500));
        assert_eq!(b.now_ms(), 1_500);
    }
}
