//! When background renders hold back for requests.
//!
//! The render threads run in Linux's idle scheduling class, which keeps them off a core that
//! has anything else to run. It does not move work between cores: with two cores busy with
//! requests, the SQLite writer can sit runnable behind a request thread on one core while a
//! render runs on the other, which the kernel counts as nearly idle (a scheduler trace of
//! 2,000 create+send a second showed 221 ms of renders on the other core during 406 ms of the
//! writer's waits; bench/RESULTS.md, session 12). So renders also pace themselves:
//!
//! - while the machine's CPUs, not counting the renders, have been at least
//!   [`BUSY_SHARE`] busy over the last sample (about [`SAMPLE`] long),
//! - a render starts only after [`LULL`] without a new request, and waits at most [`CAP`].
//!
//! Below that load renders start at once, as before. Under it each render thread still
//! starts one render every [`CAP`] at least, so the renders never stop. Linux only: elsewhere
//! nothing is measured and nothing waits.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// A request arriving less than this long ago keeps a paced render waiting.
pub const LULL: Duration = Duration::from_millis(3);
/// The longest a paced render waits for a lull.
pub const CAP: Duration = Duration::from_millis(250);
/// The share of the machine's CPU time, renders aside, from which renders are paced.
pub const BUSY_SHARE: f64 = 0.7;
/// How often the machine's CPU time is sampled.
pub const SAMPLE: Duration = Duration::from_millis(200);

static EPOCH: std::sync::LazyLock<Instant> = std::sync::LazyLock::new(Instant::now);
static LAST_REQUEST_US: AtomicU64 = AtomicU64::new(0);
/// CPU time the render threads have used, in nanoseconds.
static RENDER_NS: AtomicU64 = AtomicU64::new(0);
static BUSY: AtomicBool = AtomicBool::new(false);
static LAST_SAMPLE: Mutex<Option<(Instant, CpuTimes)>> = Mutex::new(None);

fn now_us() -> u64 {
    EPOCH.elapsed().as_micros() as u64
}

/// Called by the HTTP layer as each request arrives.
pub fn request_arrived() {
    LAST_REQUEST_US.store(now_us().max(1), Ordering::Relaxed);
}

/// Runs one background task, first waiting as the pacing says, and counts its CPU time.
pub(crate) fn run_paced(task: impl FnOnce()) {
    let started = Instant::now();
    loop {
        let since =
            Duration::from_micros(now_us().saturating_sub(LAST_REQUEST_US.load(Ordering::Relaxed)));
        match hold_off(machine_busy(), since, started.elapsed()) {
            Some(wait) => std::thread::sleep(wait),
            None => break,
        }
    }
    let before = thread_cpu_ns();
    task();
    if let (Some(a), Some(b)) = (before, thread_cpu_ns()) {
        RENDER_NS.fetch_add(b.saturating_sub(a), Ordering::Relaxed);
    }
}

/// How long a render that has waited `waited`, with the last request `since_request` ago,
/// sleeps before looking again; `None` to start now.
pub fn hold_off(busy: bool, since_request: Duration, waited: Duration) -> Option<Duration> {
    if !busy || since_request >= LULL || waited >= CAP {
        return None;
    }
    let wait = (LULL - since_request)
        .min(CAP - waited)
        .min(Duration::from_millis(1));
    Some(wait.max(Duration::from_micros(100)))
}

/// Whether the last sample found the machine busy; takes a new sample when the last is old.
fn machine_busy() -> bool {
    if let Ok(mut last) = LAST_SAMPLE.try_lock() {
        let due = last.as_ref().is_none_or(|(at, _)| at.elapsed() >= SAMPLE);
        if due && let Some(now) = CpuTimes::read(RENDER_NS.load(Ordering::Relaxed)) {
            if let Some((_, before)) = last.as_ref() {
                BUSY.store(
                    busy_share(before, &now).is_some_and(|s| s >= BUSY_SHARE),
                    Ordering::Relaxed,
                );
            }
            *last = Some((Instant::now(), now));
        }
    }
    BUSY.load(Ordering::Relaxed)
}

/// The machine's CPU time so far, in clock ticks (`/proc/stat`'s first line), and the
/// renders' share of it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CpuTimes {
    pub total: u64,
    pub idle: u64,
    pub render_ns: u64,
}

impl CpuTimes {
    fn read(render_ns: u64) -> Option<CpuTimes> {
        let stat = std::fs::read_to_string("/proc/stat").ok()?;
        CpuTimes::parse(&stat, render_ns)
    }

    /// Parses `/proc/stat`: user, nice, system, idle, iowait, irq, softirq, steal (guest time
    /// is already within user and nice).
    pub fn parse(stat: &str, render_ns: u64) -> Option<CpuTimes> {
        let line = stat.lines().next()?;
        let mut words = line.split_ascii_whitespace();
        if words.next()? != "cpu" {
            return None;
        }
        let n: Vec<u64> = words
            .take(8)
            .map(|w| w.parse().ok())
            .collect::<Option<_>>()?;
        if n.len() < 5 {
            return None;
        }
        Some(CpuTimes {
            total: n.iter().sum(),
            idle: n[3] + n[4],
            render_ns,
        })
    }
}

/// Clock ticks a second in `/proc/stat` (`USER_HZ`, 100 on every Linux architecture).
const TICKS_PER_SECOND: u64 = 100;

/// The busy share of the CPU time between two samples, not counting the renders.
pub fn busy_share(before: &CpuTimes, now: &CpuTimes) -> Option<f64> {
    let total = now.total.checked_sub(before.total)?;
    if total == 0 {
        return None;
    }
    let idle = now.idle.saturating_sub(before.idle);
    let renders = now.render_ns.saturating_sub(before.render_ns) * TICKS_PER_SECOND / 1_000_000_000;
    let busy = total.saturating_sub(idle).saturating_sub(renders);
    Some(busy as f64 / total as f64)
}

/// The calling thread's CPU time (`/proc/thread-self/schedstat`), in nanoseconds.
fn thread_cpu_ns() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    s.split_ascii_whitespace().next()?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    const STAT: &str = "cpu  100 5 50 800 20 1 2 3 0 0\ncpu0 50 2 25 400 10 0 1 1 0 0\n";

    #[test]
    fn proc_stat_is_read_as_total_and_idle_ticks() {
        let t = CpuTimes::parse(STAT, 7).unwrap();
        assert_eq!(t.total, 100 + 5 + 50 + 800 + 20 + 1 + 2 + 3);
        assert_eq!(t.idle, 820);
        assert_eq!(t.render_ns, 7);
        assert_eq!(CpuTimes::parse("intr 1 2 3\n", 0), None);
        assert_eq!(CpuTimes::parse("cpu  1 2 x 4 5\n", 0), None);
    }

    #[test]
    fn the_renders_own_time_does_not_count_as_busy() {
        let before = CpuTimes {
            total: 1_000,
            idle: 500,
            render_ns: 0,
        };
        // 40 ticks over two cores in 200 ms: 4 idle, 36 busy, of which 20 were renders.
        let now = CpuTimes {
            total: 1_040,
            idle: 504,
            render_ns: 200_000_000,
        };
        assert_eq!(busy_share(&before, &now), Some(16.0 / 40.0));
        let without_renders = CpuTimes {
            render_ns: 0,
            ..now
        };
        assert_eq!(busy_share(&before, &without_renders), Some(36.0 / 40.0));
        assert_eq!(busy_share(&now, &now), None);
    }

    #[test]
    fn renders_wait_for_a_lull_only_while_busy_and_never_past_the_cap() {
        let ms = Duration::from_millis;
        assert_eq!(hold_off(false, ms(0), ms(0)), None);
        assert_eq!(hold_off(true, LULL, ms(0)), None);
        assert_eq!(hold_off(true, ms(1), CAP), None);
        let wait = hold_off(true, ms(0), ms(0)).unwrap();
        assert!(wait > Duration::ZERO && wait <= ms(1));
        // Close to the cap it sleeps only what is left of it.
        assert_eq!(
            hold_off(true, ms(0), CAP - Duration::from_micros(300)),
            Some(Duration::from_micros(300))
        );
    }
}
