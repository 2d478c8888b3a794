//! Mixed load on several API processes (PostgreSQL, Redis and a bucket behind them): creates
//! and sends, reads, signatures (test-sign, which seals once both seats signed) and the
//! webhook deliveries all of that causes, to a receiver inside this program. Optionally one
//! process is killed with SIGKILL part-way, and what clients saw is reported.
//!
//!   mixed --api http://127.0.0.1:8080 --api http://127.0.0.1:8081 --key svc_test_… \
//!         --body bench/create-send.json --seconds 600 [--kill-pid PID --kill-at 300]
//!
//! Closed loop: `--clients` tasks each send their next request when the last is answered,
//! taking the API processes in turn. A request that gets no answer (the process died) is
//! sent again to the next process, creates with the same idempotency key. At the end every
//! document answered 201 is looked up (none may be missing), and every document both of
//! whose seats signed must reach `executed` (none may be stuck).

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use clap::Parser;
use hyper::body::Bytes;
use serde_json::{Value, json};

#[path = "../receiver.rs"]
mod receiver;
use receiver::receiver;

#[derive(Parser)]
struct Args {
    /// An API process's base URL; give several.
    #[arg(long, required = true)]
    api: Vec<String>,
    /// A test key with documents and webhooks scopes.
    #[arg(long)]
    key: String,
    /// The create body (JSON with two seats, `client` and `provider`).
    #[arg(long)]
    body: std::path::PathBuf,
    /// `metrics_token` of the processes, to sample job queue ages every 5 s.
    #[arg(long)]
    metrics_token: Option<String>,
    #[arg(long, default_value_t = 600)]
    seconds: u64,
    #[arg(long, default_value_t = 32)]
    clients: usize,
    /// Requests due a second over all clients (open loop: each client sends on its own
    /// schedule, and a latency counts from when its request was due). Without it, closed
    /// loop: each client sends as soon as its last answer came, which saturates the machine.
    #[arg(long)]
    rate: Option<f64>,
    /// Kill this process (SIGKILL) at `--kill-at` seconds.
    #[arg(long)]
    kill_pid: Option<u32>,
    #[arg(long)]
    kill_at: Option<u64>,
}

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
enum Op {
    Create,
    Read,
    Sign,
}

struct Sample {
    op: Op,
    at_ms: u64,
    latency_us: u64,
    /// HTTP status, or 0 when no process answered.
    status: u16,
    retried: bool,
}

#[derive(Default)]
struct Shared {
    created: Vec<String>,
    /// Seats waiting to be signed: (document, seat).
    to_sign: std::collections::VecDeque<(String, &'static str)>,
    /// Documents with both seats signed.
    signed: Vec<String>,
    seats_signed: BTreeMap<String, u8>,
}

/// A tiny xorshift, enough to pick operations and documents.
fn next(state: &mut u64) -> u64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state
}

/// The API processes, and the key every request carries.
struct Apis {
    client: reqwest::Client,
    bases: Vec<String>,
    key: String,
}

impl Apis {
    /// Sends one request to the process `first` and, when none answers, to the next ones:
    /// the status (0 when none answered), the JSON answer, and whether it was sent again.
    async fn call(
        &self,
        first: usize,
        method: reqwest::Method,
        path: &str,
        idem: Option<&str>,
        body: Option<&Bytes>,
    ) -> (u16, Option<Value>, bool) {
        for attempt in 0..self.bases.len() {
            let base = &self.bases[(first + attempt) % self.bases.len()];
            let mut r = self
                .client
                .request(method.clone(), format!("{base}{path}"))
                .bearer_auth(&self.key);
            if let Some(i) = idem {
                r = r.header("idempotency-key", i);
            }
            if let Some(b) = body {
                r = r.header("content-type", "application/json").body(b.clone());
            }
            if let Ok(res) = r.send().await {
                let status = res.status().as_u16();
                let v = res.json::<Value>().await.ok();
                return (status, v, attempt > 0);
            }
        }
        (0, None, true)
    }

    /// `GET /api/v1/documents/{id}`, from the process `first` or the next ones.
    async fn document(&self, first: usize, id: &str) -> (u16, Option<Value>, bool) {
        self.call(
            first,
            reqwest::Method::GET,
            &format!("/api/v1/documents/{id}"),
            None,
            None,
        )
        .await
    }
}

fn pct(sorted: &[u64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    sorted[((sorted.len() as f64 - 1.0) * p).round() as usize] as f64 / 1000.0
}

/// The largest `signet_jobs_oldest_due_seconds` per kind, from the first process that answers.
async fn queue_ages(
    client: &reqwest::Client,
    apis: &[String],
    token: &str,
) -> BTreeMap<String, f64> {
    let mut out = BTreeMap::new();
    for base in apis {
        let Ok(res) = client
            .get(format!("{base}/metrics"))
            .bearer_auth(token)
            .send()
            .await
        else {
            continue;
        };
        let text = res.text().await.unwrap_or_default();
        for line in text.lines() {
            if let Some(rest) = line.strip_prefix("signet_jobs_oldest_due_seconds{kind=\"")
                && let Some((kind, value)) = rest.split_once("\"} ")
                && let Ok(v) = value.trim().parse::<f64>()
            {
                out.insert(kind.to_string(), v);
            }
        }
        break;
    }
    out
}

#[tokio::main]
async fn main() {
    let _ = rustls::crypto::ring::default_provider().install_default();
    let args = Args::parse();
    let client = reqwest::Client::builder()
        .pool_max_idle_per_host(args.clients)
        .timeout(Duration::from_secs(30))
        .build()
        .unwrap_or_else(|e| panic!("an HTTP client: {e}"));
    let apis = Arc::new(Apis {
        client: client.clone(),
        bases: args.api.clone(),
        key: args.key.clone(),
    });
    let body =
        Bytes::from(std::fs::read(&args.body).unwrap_or_else(|e| panic!("the create body: {e}")));

    let deliveries = Arc::new(AtomicU64::new(0));
    let port = receiver(deliveries.clone()).await;
    let hook = json!({"url": format!("http://127.0.0.1:{port}/hooks"), "eventTypes": [
        "documents.document.sent", "documents.document.opened", "documents.document.signed",
        "documents.document.executed"]});
    let (status, made, _) = apis
        .call(
            0,
            reqwest::Method::POST,
            "/api/v1/webhooks",
            Some("mixed-bench-hook-0001"),
            Some(&Bytes::from(hook.to_string())),
        )
        .await;
    assert_eq!(status, 201, "making the webhook endpoint: {made:?}");

    let shared = Arc::new(Mutex::new(Shared::default()));
    let samples = Arc::new(Mutex::new(Vec::<Sample>::new()));
    let start = Instant::now();
    let stop = start + Duration::from_secs(args.seconds);
    if let (Some(pid), Some(at)) = (args.kill_pid, args.kill_at) {
        tokio::spawn(async move {
            tokio::time::sleep(Duration::from_secs(at)).await;
            let _ = std::process::Command::new("kill")
                .args(["-KILL", &pid.to_string()])
                .status();
            eprintln!("mixed: killed {pid} at {at} s");
        });
    }
    let ages = Arc::new(Mutex::new(BTreeMap::<String, f64>::new()));
    if let Some(token) = args.metrics_token.clone() {
        let (client, apis, ages) = (client.clone(), apis.clone(), ages.clone());
        tokio::spawn(async move {
            while Instant::now() < stop {
                for (kind, age) in queue_ages(&client, &apis.bases, &token).await {
                    let mut a = ages.lock().unwrap_or_else(|e| e.into_inner());
                    let worst = a.entry(kind).or_insert(0.0);
                    *worst = worst.max(age);
                }
                tokio::time::sleep(Duration::from_secs(5)).await;
            }
        });
    }

    let mut tasks = Vec::new();
    for n in 0..args.clients {
        let (apis, body) = (apis.clone(), body.clone());
        let (rate, clients) = (args.rate, args.clients);
        let (shared, samples) = (shared.clone(), samples.clone());
        tasks.push(tokio::spawn(async move {
            let mut rng =
                0x9e37_79b9_7f4a_7c15u64 ^ (n as u64 + 1).wrapping_mul(0x2545_f491_4f6c_dd1d);
            let mut mine = Vec::new();
            let mut turn = n;
            let mut seq = 0u64;
            // Open loop: this client's requests are due every `every`, starting staggered.
            let every = rate.map(|r| Duration::from_secs_f64(clients as f64 / r));
            let mut due = start
                + every
                    .map(|e| e.mul_f64(n as f64 / clients as f64))
                    .unwrap_or_default();
            while Instant::now() < stop {
                if let Some(every) = every {
                    tokio::time::sleep_until(due.into()).await;
                    due += every;
                }
                turn += 1;
                let roll = next(&mut rng) % 100;
                let sign = if roll < 25 {
                    shared
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .to_sign
                        .pop_front()
                } else {
                    None
                };
                let read = if sign.is_none() && roll < 85 {
                    let s = shared.lock().unwrap_or_else(|e| e.into_inner());
                    (!s.created.is_empty())
                        .then(|| s.created[(next(&mut rng) as usize) % s.created.len()].clone())
                } else {
                    None
                };
                // Open loop counts from when the request was due, so a server that falls behind
                // shows it (no coordinated omission).
                let began = if every.is_some() {
                    due - every.unwrap_or_default()
                } else {
                    Instant::now()
                };
                let (op, (status, answer, retried)) = if let Some((id, seat)) = &sign {
                    let b = Bytes::from(json!({ "seat": seat }).to_string());
                    let idem = format!("mixed-sign-{id}-{seat}");
                    (
                        Op::Sign,
                        apis.call(
                            turn,
                            reqwest::Method::POST,
                            &format!("/api/v1/documents/{id}/test-sign"),
                            Some(&idem),
                            Some(&b),
                        )
                        .await,
                    )
                } else if let Some(id) = &read {
                    (Op::Read, apis.document(turn, id).await)
                } else {
                    seq += 1;
                    let idem = format!("mixed-{n}-{seq}-{}", start.elapsed().as_nanos());
                    (
                        Op::Create,
                        apis.call(
                            turn,
                            reqwest::Method::POST,
                            "/api/v1/documents",
                            Some(&idem),
                            Some(&body),
                        )
                        .await,
                    )
                };
                let latency_us = began.elapsed().as_micros() as u64;
                {
                    let mut s = shared.lock().unwrap_or_else(|e| e.into_inner());
                    match (op, status) {
                        (Op::Create, 201) => {
                            if let Some(id) = answer.as_ref().and_then(|a| a["id"].as_str()) {
                                s.created.push(id.to_string());
                                s.to_sign.push_back((id.to_string(), "client"));
                                s.to_sign.push_back((id.to_string(), "provider"));
                                mine.push(id.to_string());
                            }
                        }
                        (Op::Sign, 200) => {
                            let (id, _) = sign.clone().unwrap_or_default();
                            let n = s.seats_signed.entry(id.clone()).or_insert(0);
                            *n += 1;
                            if *n == 2 {
                                s.signed.push(id);
                            }
                        }
                        // Not rendered yet, or its turn has not come: later.
                        (Op::Sign, 409) | (Op::Sign, 0) => {
                            s.to_sign.push_back(sign.clone().unwrap_or_default())
                        }
                        _ => {}
                    }
                }
                samples
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .push(Sample {
                        op,
                        at_ms: began.duration_since(start).as_millis() as u64,
                        latency_us,
                        status,
                        retried,
                    });
            }
        }));
    }
    for t in tasks {
        let _ = t.await;
    }
    let ran = start.elapsed().as_secs_f64();
    let delivered_in_run = deliveries.load(Ordering::Relaxed);

    // Report: per operation, outside and inside the ten seconds after the kill.
    let samples = std::mem::take(&mut *samples.lock().unwrap_or_else(|e| e.into_inner()));
    let kill_ms = args.kill_at.map(|s| s * 1000);
    let in_kill = |at: u64| kill_ms.is_some_and(|k| at >= k && at < k + 10_000);
    println!(
        "mixed load: {:.0} s, {} clients, {}, {} API processes",
        ran,
        args.clients,
        args.rate
            .map(|r| format!("open loop at {r}/s"))
            .unwrap_or_else(|| "closed loop".into()),
        apis.bases.len()
    );
    println!(
        "| operation | window | requests | per second | p50 ms | p99 ms | max ms | 2xx | other status | no answer | retried |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|---|");
    for op in [Op::Create, Op::Read, Op::Sign] {
        for window in [false, true] {
            if window && kill_ms.is_none() {
                continue;
            }
            let mine: Vec<&Sample> = samples
                .iter()
                .filter(|s| s.op == op && in_kill(s.at_ms) == window)
                .collect();
            let mut lat: Vec<u64> = mine.iter().map(|s| s.latency_us).collect();
            lat.sort_unstable();
            let ok = mine
                .iter()
                .filter(|s| (200..300).contains(&s.status))
                .count();
            let none = mine.iter().filter(|s| s.status == 0).count();
            let span = if window {
                10.0
            } else {
                ran - if kill_ms.is_some() { 10.0 } else { 0.0 }
            };
            let mut others: BTreeMap<u16, usize> = BTreeMap::new();
            for s in mine
                .iter()
                .filter(|s| s.status != 0 && !(200..300).contains(&s.status))
            {
                *others.entry(s.status).or_default() += 1;
            }
            println!(
                "| {op:?} | {} | {} | {:.0} | {:.1} | {:.1} | {:.1} | {ok} | {others:?} | {none} | {} |",
                if window { "kill +10 s" } else { "outside" },
                mine.len(),
                mine.len() as f64 / span,
                pct(&lat, 0.5),
                pct(&lat, 0.99),
                pct(&lat, 1.0),
                mine.iter().filter(|s| s.retried).count(),
            );
        }
    }
    println!(
        "webhook deliveries received during the run: {delivered_in_run} ({:.0}/s)",
        delivered_in_run as f64 / ran
    );
    if !ages.lock().unwrap_or_else(|e| e.into_inner()).is_empty() {
        println!(
            "oldest due job, worst sample per kind (s): {:?}",
            ages.lock().unwrap_or_else(|e| e.into_inner())
        );
    }

    // Nothing lost: every 201 is there, every fully signed document executes.
    let (created, signed) = {
        let s = shared.lock().unwrap_or_else(|e| e.into_inner());
        (s.created.clone(), s.signed.clone())
    };
    let mut missing = 0;
    for id in &created {
        let (status, _, _) = apis.document(0, id).await;
        if status != 200 {
            missing += 1;
        }
    }
    println!(
        "documents answered 201: {}; missing afterwards: {missing}",
        created.len()
    );
    let drain = Instant::now();
    let mut waiting: Vec<String> = signed.clone();
    while !waiting.is_empty() && drain.elapsed() < Duration::from_secs(300) {
        let mut still = Vec::new();
        for id in waiting {
            let (_, v, _) = apis.document(0, &id).await;
            if v.as_ref().and_then(|v| v["state"].as_str()) != Some("executed") {
                still.push(id);
            }
        }
        waiting = still;
        if !waiting.is_empty() {
            tokio::time::sleep(Duration::from_secs(1)).await;
        }
    }
    println!(
        "documents signed by both seats: {}; executed {:.0} s after the run: {}; not executed: {}",
        signed.len(),
        drain.elapsed().as_secs_f64(),
        signed.len() - waiting.len(),
        waiting.len()
    );
    println!(
        "webhook deliveries received in all: {}",
        deliveries.load(Ordering::Relaxed)
    );
}
