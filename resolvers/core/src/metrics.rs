//! What `GET /metrics` tells Prometheus, in its text format: requests by operation and status
//! with latency histograms, rate-limit refusals, webhook deliveries, emails and seals by
//! outcome (counted by this process since it started), and, read from the database when
//! scraped, the job queues' depth and oldest age per kind and the database pool's use.
//!
//! Labels come from closed sets (the route table's operation ids, HTTP statuses, job kinds,
//! fixed outcome names), so no caller can grow the series.

use std::collections::HashMap;
use std::fmt::Write;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{LazyLock, Mutex};

use crate::Ctx;

/// Latency buckets in seconds.
const BUCKETS: [f64; 12] = [
    0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0,
];

/// Outcomes counted by the workers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    WebhookDelivered,
    WebhookRetried,
    WebhookFailed,
    EmailSent,
    EmailFailed,
    SealDone,
    SealRetried,
}

impl Outcome {
    const ALL: [Outcome; 7] = [
        Outcome::WebhookDelivered,
        Outcome::WebhookRetried,
        Outcome::WebhookFailed,
        Outcome::EmailSent,
        Outcome::EmailFailed,
        Outcome::SealDone,
        Outcome::SealRetried,
    ];

    fn series(self) -> (&'static str, &'static str) {
        match self {
            Outcome::WebhookDelivered => ("signet_webhook_deliveries_total", "delivered"),
            Outcome::WebhookRetried => ("signet_webhook_deliveries_total", "retried"),
            Outcome::WebhookFailed => ("signet_webhook_deliveries_total", "failed"),
            Outcome::EmailSent => ("signet_emails_total", "sent"),
            Outcome::EmailFailed => ("signet_emails_total", "failed"),
            Outcome::SealDone => ("signet_seals_total", "sealed"),
            Outcome::SealRetried => ("signet_seals_total", "retried"),
        }
    }
}

#[derive(Default)]
struct Histogram {
    buckets: [u64; BUCKETS.len()],
    count: u64,
    sum: f64,
}

/// One operation's answers: counts by status, and the latency histogram.
#[derive(Default)]
struct Operation {
    statuses: HashMap<u16, u64>,
    latency: Histogram,
}

#[derive(Default)]
struct Registry {
    /// By operation id: one lock and no allocation per request once an operation is seen.
    operations: Mutex<HashMap<&'static str, Operation>>,
    outcomes: [AtomicU64; Outcome::ALL.len()],
    rate_limited: AtomicU64,
}

static REGISTRY: LazyLock<Registry> = LazyLock::new(Registry::default);

/// One answered request: its operation id (or `(no route)`), status and time taken.
pub fn request(operation: &'static str, status: u16, seconds: f64) {
    let mut ops = REGISTRY
        .operations
        .lock()
        .unwrap_or_else(|p| p.into_inner());
    let op = ops.entry(operation).or_default();
    *op.statuses.entry(status).or_default() += 1;
    let h = &mut op.latency;
    for (i, le) in BUCKETS.iter().enumerate() {
        if seconds <= *le {
            h.buckets[i] += 1;
        }
    }
    h.count += 1;
    h.sum += seconds;
}

/// `n` outcomes of one kind.
pub fn outcome(o: Outcome, n: u64) {
    REGISTRY.outcomes[o as usize].fetch_add(n, Ordering::Relaxed);
}

/// A request refused for being over a rate budget or daily limit.
pub fn rate_limited() {
    REGISTRY.rate_limited.fetch_add(1, Ordering::Relaxed);
}

fn label(v: &str) -> String {
    v.replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace('\n', "\\n")
}

/// The whole exposition.
pub async fn render(ctx: &Ctx) -> String {
    let r = &*REGISTRY;
    let mut out = String::with_capacity(8192);
    requests(&mut out);
    let _ = writeln!(
        out,
        "# HELP signet_rate_limited_total Requests refused for a rate budget or daily limit.\n\
         # TYPE signet_rate_limited_total counter\n\
         signet_rate_limited_total {}",
        r.rate_limited.load(Ordering::Relaxed)
    );
    let mut last = "";
    for (i, o) in Outcome::ALL.iter().enumerate() {
        let (name, outcome) = o.series();
        if name != last {
            let _ = writeln!(
                out,
                "# HELP {name} Outcomes this process's workers reached, by outcome.\n\
                 # TYPE {name} counter"
            );
            last = name;
        }
        let _ = writeln!(
            out,
            "{name}{{outcome=\"{outcome}\"}} {}",
            r.outcomes[i].load(Ordering::Relaxed)
        );
    }
    queues(ctx, &mut out).await;
    pool(ctx, &mut out);
    out
}

/// The requests' counts and histograms, by operation.
fn requests(out: &mut String) {
    out.push_str(
        "# HELP signet_requests_total Requests answered, by operation and status.\n\
         # TYPE signet_requests_total counter\n",
    );
    let ops = REGISTRY
        .operations
        .lock()
        .unwrap_or_else(|p| p.into_inner());
    let mut rows: Vec<_> = ops.iter().collect();
    rows.sort_by(|a, b| a.0.cmp(b.0));
    for (op, o) in &rows {
        let mut statuses: Vec<_> = o.statuses.iter().collect();
        statuses.sort();
        for (status, n) in statuses {
            let _ = writeln!(
                out,
                "signet_requests_total{{operation=\"{}\",status=\"{status}\"}} {n}",
                label(op)
            );
        }
    }
    out.push_str(
        "# HELP signet_request_duration_seconds Time to answer a request, by operation.\n\
         # TYPE signet_request_duration_seconds histogram\n",
    );
    for (op, o) in &rows {
        let (op, h) = (label(op), &o.latency);
        for (i, le) in BUCKETS.iter().enumerate() {
            let _ = writeln!(
                out,
                "signet_request_duration_seconds_bucket{{operation=\"{op}\",le=\"{le}\"}} {}",
                h.buckets[i]
            );
        }
        let _ = writeln!(
            out,
            "signet_request_duration_seconds_bucket{{operation=\"{op}\",le=\"+Inf\"}} {}\n\
                 signet_request_duration_seconds_sum{{operation=\"{op}\"}} {}\n\
                 signet_request_duration_seconds_count{{operation=\"{op}\"}} {}",
            h.count, h.sum, h.count
        );
    }
}

/// Jobs waiting (due or not), running and failed, and the oldest due job's age, per kind.
async fn queues(ctx: &Ctx, out: &mut String) {
    let now = ctx.now();
    let Ok(counts) = signet_queue::counts(&ctx.db, now).await else {
        return;
    };
    out.push_str(
        "# HELP signet_jobs Jobs in the queue, by kind and state.\n# TYPE signet_jobs gauge\n",
    );
    let mut oldest: Vec<(String, i64)> = Vec::new();
    for c in counts {
        let _ = writeln!(
            out,
            "signet_jobs{{kind=\"{}\",state=\"{}\"}} {}",
            label(&c.kind),
            label(&c.state),
            c.jobs
        );
        if c.state == "queued"
            && let Some(at) = c.oldest_due
        {
            oldest.push((c.kind, at));
        }
    }
    out.push_str(
        "# HELP signet_jobs_oldest_due_seconds How long the oldest due job of a kind has waited.\n\
         # TYPE signet_jobs_oldest_due_seconds gauge\n",
    );
    for (kind, at) in oldest {
        let _ = writeln!(
            out,
            "signet_jobs_oldest_due_seconds{{kind=\"{}\"}} {}",
            label(&kind),
            ((now - at).max(0) as f64) / 1000.0
        );
    }
}

/// The database pool's connections, open and idle.
fn pool(ctx: &Ctx, out: &mut String) {
    let (size, idle) = ctx.db.pool_use();
    let _ = writeln!(
        out,
        "# HELP signet_db_connections Database pool connections, by state.\n\
         # TYPE signet_db_connections gauge\n\
         signet_db_connections{{state=\"open\"}} {size}\n\
         signet_db_connections{{state=\"idle\"}} {idle}"
    );
}
