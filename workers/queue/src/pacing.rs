//! When background renders hold back for requests.
//!
//! The render threads run in Linux's idle scheduling class, which keeps them off a core that
//! has anything else to run. It does not move work between cores: with two cores busy with
//! requests, the SQLite writer can sit runnable behind a request thread on one core while a
//! render runs on the other, which the kernel counts as nearly idle (a scheduler trace of
//! 2,000 create+send a second put 221 ms of renders on the other core during 406 ms of the
//! writer's waits; bench/RESULTS.md). So renders also pace themselves:
//!
//! - The machine's CPU time is sampled from `/proc/stat`, and the render threads' own from
//!   `/proc/self/task/<id>/stat` of every thread named `signet-render…` (the render threads
//!   and any the engine starts from them, which inherit name and class). A sample is taken
//!   when a render thread takes a task and the last sample is at least [`SAMPLE`] old. A sample compares with the one before it if that is at most twice
//!   [`SAMPLE`] old; after a quiet spell it only starts a new baseline and counts as not busy.
//! - While the last comparison found the machine's CPUs, renders aside, at least
//!   [`BUSY_SHARE`] busy, a render thread that has taken a task waits until no HTTP request
//!   has arrived for [`LULL`], but never longer than [`CAP`], and then renders.
//!
//! Below that load renders start at once, as before. Under it each render thread still starts
//! a render at the latest [`CAP`] (and one sleep of at most [`LULL`]) after taking it, so the
//! renders never stop. Only the render threads' queue is paced: sealing renders a document it
//! finds without a file at normal priority, on the blocking pool. Requests are counted by the
//! HTTP layer, so a `signet worker` process, which serves none, never waits. Linux only;
//! elsewhere nothing is sampled and nothing waits. `/proc/stat` covers the whole machine (the
//! host, in a container), which is the CPU the scheduler shares out.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Mutex, TryLockError};
use std::time::{Duration, Instant};

/// A request arriving less than this long ago keeps a paced render waiting.
pub const LULL: Duration = Duration::from_millis(3);
/// The longest a paced render waits for a lull.
pub const CAP: Duration = Duration::from_millis(250);
/// The share of the machine's CPU time, renders aside, from which renders are paced.
pub const BUSY_SHARE: f64 = 0.7;
/// The shortest time between two samples of the machine's CPU time.
pub const SAMPLE: Duration = Duration::from_millis(200);
/// How the render threads are named (`signet_documents::render`).
pub const RENDER_THREAD_PREFIX: &str = "signet-render";

static EPOCH: std::sync::LazyLock<Instant> = std::sync::LazyLock::new(Instant::now);
/// When the last request arrived, in microseconds after `EPOCH`; 0 before the first.
static LAST_REQUEST_US: AtomicU64 = AtomicU64::new(0);
static BUSY: AtomicBool = AtomicBool::new(false);
static LAST_SAMPLE: Mutex<Option<(Instant, CpuTimes)>> = Mutex::new(None);

fn now_us() -> u64 {
    EPOCH.elapsed().as_micros() as u64
}

/// Called by the HTTP layer as each request arrives.
pub fn request_arrived() {
    // 0 means none yet.
    LAST_REQUEST_US.store(now_us().max(1), Ordering::Relaxed);
}

/// Waits until no HTTP request has arrived for [`LULL`], but never longer than `cap`: the
/// mail worker's passes (each holds the SQLite writer for a transaction of up to 64 emails,
/// and composes them on the request path's cores) go in the gaps between requests. A process
/// that serves no requests (`signet worker`) never waits.
pub async fn lull(cap: Duration) {
    let start = Instant::now();
    loop {
        let last = LAST_REQUEST_US.load(Ordering::Relaxed);
        let since = Duration::from_micros(now_us().saturating_sub(last));
        if last == 0 || since >= LULL || start.elapsed() >= cap {
            return;
        }
        tokio::time::sleep(LULL - since).await;
    }
}

/// Runs one background task on the calling render thread, first waiting as the pacing says.
pub fn run_paced(task: impl FnOnce()) {
    let taken = Instant::now();
    loop {
        let last = LAST_REQUEST_US.load(Ordering::Relaxed);
        let since = match last {
            0 => Duration::MAX,
            _ => Duration::from_micros(now_us().saturating_sub(last)),
        };
        match hold_off(machine_busy(), since, taken.elapsed()) {
            Some(wait) => std::thread::sleep(wait),
            None => break,
        }
    }
    task();
}

/// How long a render that has waited `waited`, with the last request `since_request` ago,
/// sleeps before looking again (at least 100 µs, at most until the lull or the cap would be
/// reached); `None` to start now.
fn hold_off(busy: bool, since_request: Duration, waited: Duration) -> Option<Duration> {
    if !busy || since_request >= LULL || waited >= CAP {
        return None;
    }
    let wait = (LULL - since_request).min(CAP - waited);
    Some(wait.max(Duration::from_micros(100)))
}

/// Whether the last comparison of samples found the machine busy; samples when due.
fn machine_busy() -> bool {
    if !cfg!(target_os = "linux") {
        return false;
    }
    let mut last = match LAST_SAMPLE.try_lock() {
        Ok(last) => last,
        Err(TryLockError::Poisoned(p)) => p.into_inner(),
        // The other render thread is sampling.
        Err(TryLockError::WouldBlock) => return BUSY.load(Ordering::Relaxed),
    };
    let age = last.as_ref().map(|(at, _)| at.elapsed());
    if age.is_none_or(|a| a >= SAMPLE)
        && let Some(now) = CpuTimes::read()
    {
        let share = match (last.as_ref(), age) {
            (Some((_, before)), Some(a)) if a <= 2 * SAMPLE => busy_share(before, &now),
            _ => None,
        };
        BUSY.store(share.is_some_and(|s| s >= BUSY_SHARE), Ordering::Relaxed);
        *last = Some((Instant::now(), now));
    }
    BUSY.load(Ordering::Relaxed)
}

/// CPU time so far, in clock ticks: the machine's (`/proc/stat`'s first line), of which
/// `idle` (idle and iowait) and `renders` (the render threads' user and system time).
#[derive(Clone, Copy, Debug, PartialEq)]
struct CpuTimes {
    total: u64,
    idle: u64,
    renders: u64,
}

impl CpuTimes {
    fn read() -> Option<CpuTimes> {
        let stat = std::fs::read_to_string("/proc/stat").ok()?;
        let renders = std::fs::read_dir("/proc/self/task")
            .ok()?
            .filter_map(Result::ok)
            .filter(|t| {
                std::fs::read_to_string(t.path().join("comm"))
                    .is_ok_and(|c| c.starts_with(RENDER_THREAD_PREFIX))
            })
            .filter_map(|t| std::fs::read_to_string(t.path().join("stat")).ok())
            .filter_map(|s| thread_ticks(&s))
            .sum();
        CpuTimes::parse(&stat, renders)
    }

    /// Parses `/proc/stat`: user, nice, system, idle, iowait, irq, softirq, steal (guest time
    /// is already within user and nice).
    fn parse(stat: &str, renders: u64) -> Option<CpuTimes> {
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
            renders,
        })
    }
}

/// A thread's user and system time in clock ticks, from its `stat` file (fields 14 and 15,
/// counted after the command name in parentheses, which may itself hold spaces).
fn thread_ticks(stat: &str) -> Option<u64> {
    let rest = &stat[stat.rfind(')')? + 1..];
    let mut fields = rest.split_ascii_whitespace().skip(11);
    let user: u64 = fields.next()?.parse().ok()?;
    let system: u64 = fields.next()?.parse().ok()?;
    Some(user + system)
}

/// The busy share of the machine's CPU time between two samples, not counting the renders.
fn busy_share(before: &CpuTimes, now: &CpuTimes) -> Option<f64> {
    let total = now.total.checked_sub(before.total)?;
    if total == 0 {
        return None;
    }
    let idle = now.idle.saturating_sub(before.idle);
    let renders = now.renders.saturating_sub(before.renders);
    let busy = total.saturating_sub(idle).saturating_sub(renders);
    Some(busy as f64 / total as f64)
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
        assert_eq!(t.renders, 7);
        assert_eq!(CpuTimes::parse("intr 1 2 3\n", 0), None);
        assert_eq!(CpuTimes::parse("cpu  1 2 x 4 5\n", 0), None);
    }

    #[test]
    fn a_threads_cpu_ticks_are_read_after_its_name() {
        // pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt
        // utime stime ...
        let stat = "4242 (signet (render) 0) S 1 1 1 0 -1 4194560 10 0 0 0 150 25 0 0 39 19";
        assert_eq!(thread_ticks(stat), Some(175));
        assert_eq!(thread_ticks("4242 (x) S 1"), None);
        assert_eq!(thread_ticks("no name here"), None);
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_render_threads_cpu_time_is_found_by_its_name() {
        let before = CpuTimes::read().unwrap();
        let (spent, stop) = (std::sync::mpsc::channel(), std::sync::mpsc::channel::<()>());
        let own = || thread_ticks(&std::fs::read_to_string("/proc/thread-self/stat").unwrap());
        std::thread::Builder::new()
            .name(format!("{RENDER_THREAD_PREFIX}-test"))
            .spawn(move || {
                let start = own().unwrap();
                let mut x = 0u64;
                while own().unwrap() < start + 20 {
                    for _ in 0..100_000 {
                        x = std::hint::black_box(x.wrapping_mul(31).wrapping_add(7));
                    }
                }
                spent.0.send(()).unwrap();
                // Alive until the second sample is taken.
                let _ = stop.1.recv();
            })
            .unwrap();
        spent.1.recv_timeout(Duration::from_secs(60)).unwrap();
        let now = CpuTimes::read().unwrap();
        stop.0.send(()).unwrap();
        assert!(now.total > before.total && now.idle >= before.idle);
        assert!(
            now.renders >= before.renders + 20,
            "{before:?} then {now:?}"
        );
    }

    #[test]
    fn the_renders_own_time_does_not_count_as_busy() {
        let before = CpuTimes {
            total: 1_000,
            idle: 500,
            renders: 3,
        };
        // 40 ticks over two cores in 200 ms: 4 idle, 36 busy, of which 20 were renders.
        let now = CpuTimes {
            total: 1_040,
            idle: 504,
            renders: 23,
        };
        assert_eq!(busy_share(&before, &now), Some(16.0 / 40.0));
        let without_renders = CpuTimes { renders: 3, ..now };
        assert_eq!(busy_share(&before, &without_renders), Some(36.0 / 40.0));
        assert_eq!(busy_share(&now, &now), None);
    }

    #[test]
    fn renders_wait_for_a_lull_only_while_busy_and_never_past_the_cap() {
        let ms = Duration::from_millis;
        assert_eq!(hold_off(false, ms(0), ms(0)), None);
        assert_eq!(hold_off(true, LULL, ms(0)), None);
        assert_eq!(hold_off(true, ms(1), CAP), None);
        // It sleeps until the lull would be reached, and at least 100 µs.
        assert_eq!(hold_off(true, ms(0), ms(0)), Some(LULL));
        assert_eq!(hold_off(true, ms(2), ms(0)), Some(ms(1)));
        assert_eq!(
            hold_off(true, LULL - Duration::from_micros(10), ms(0)),
            Some(Duration::from_micros(100))
        );
        // Close to the cap it sleeps only what is left of it.
        assert_eq!(
            hold_off(true, ms(0), CAP - Duration::from_micros(300)),
            Some(Duration::from_micros(300))
        );
    }
}
