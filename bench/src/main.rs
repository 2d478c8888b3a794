//! `signet-bench http`: an HTTP/1.1 load generator. Closed loop by default: each connection
//! sends its next request as soon as the previous answer is read, so `--connections` is the
//! concurrency and the mean latency is connections / throughput. With `--rate R` it is open
//! loop: requests are due at R a second in all, spread evenly over the connections, and each
//! latency counts from when its request was due, not from when a busy connection got to send
//! it, so a server that falls behind shows it (no coordinated omission). Latencies are
//! recorded per request (microseconds) and merged at the end.

use std::time::{Duration, Instant};

use clap::{Parser, Subcommand};
use http_body_util::{BodyExt, Full};
use hyper::body::Bytes;
use hyper::{Request, Uri};
use hyper_util::rt::TokioIo;

#[derive(Parser)]
struct Cli {
    #[command(subcommand)]
    command: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// GET one URL (or POST a JSON body) with a bearer key over N connections for a while.
    Http {
        #[arg(long)]
        url: String,
        /// POST this file's contents as JSON, each request with a fresh Idempotency-Key.
        /// Given more than once, each connection takes the files in turn, starting at a
        /// different one, so the server sees a mix of shapes.
        #[arg(long)]
        body: Vec<std::path::PathBuf>,
        #[arg(long, env = "SIGNET_API_KEY")]
        key: String,
        #[arg(long, default_value_t = 64)]
        connections: usize,
        #[arg(long, default_value_t = 10)]
        seconds: u64,
        /// Warm-up seconds, not counted.
        #[arg(long, default_value_t = 2)]
        warmup: u64,
        /// Open loop: requests due per second over all connections (see above).
        #[arg(long)]
        rate: Option<f64>,
        /// The server's pid, to report its peak resident memory.
        #[arg(long)]
        server_pid: Option<u32>,
        /// Print one JSON object instead of text.
        #[arg(long)]
        json: bool,
        /// Also print, per 250 ms of the measured stretch (by when each request was sent or
        /// due), how many were answered, the slowest and how many took over 50 ms: where in
        /// the run a stall fell.
        #[arg(long)]
        timeline: bool,
    },
}

struct Outcome {
    latencies_us: Vec<u32>,
    /// When each measured request was sent or due, in milliseconds after the warm-up.
    started_ms: Vec<u32>,
    errors: u64,
    non_2xx: u64,
}

async fn connection(
    n: usize,
    uri: Uri,
    key: String,
    bodies: std::sync::Arc<[Bytes]>,
    warm_until: Instant,
    stop_at: Instant,
    // Open loop: when this connection's first request is due, and the time between its
    // requests.
    schedule: Option<(Instant, Duration)>,
) -> Outcome {
    let mut out = Outcome {
        latencies_us: Vec::with_capacity(1 << 16),
        started_ms: Vec::with_capacity(1 << 16),
        errors: 0,
        non_2xx: 0,
    };
    let authority = uri.authority().map(|a| a.to_string()).unwrap_or_default();
    let Ok(stream) = tokio::net::TcpStream::connect(&authority).await else {
        out.errors += 1;
        return out;
    };
    let _ = stream.set_nodelay(true);
    let Ok((mut sender, conn)) = hyper::client::conn::http1::handshake(TokioIo::new(stream)).await
    else {
        out.errors += 1;
        return out;
    };
    tokio::spawn(conn);
    let auth = format!("Bearer {key}");
    // Unique across runs against one server, so no request is answered from a replay.
    let run = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    let path = uri
        .path_and_query()
        .map(|p| p.to_string())
        .unwrap_or_else(|| "/".into());
    let mut sent = 0u64;
    loop {
        let now = match schedule {
            None => Instant::now(),
            Some((first, every)) => {
                let due = first + every.mul_f64(sent as f64);
                if due >= stop_at {
                    break;
                }
                tokio::time::sleep_until(due.into()).await;
                due
            }
        };
        if now >= stop_at {
            break;
        }
        sent += 1;
        let body = match bodies.len() {
            0 => None,
            len => Some(bodies[(n + sent as usize) % len].clone()),
        };
        let builder = match &body {
            None => Request::get(path.as_str()),
            Some(_) => Request::post(path.as_str())
                .header("content-type", "application/json")
                .header("idempotency-key", format!("bench-{run}-{n}-{sent}")),
        };
        let req = builder
            .header("host", authority.as_str())
            .header("authorization", auth.as_str())
            .body(Full::new(body.unwrap_or_default()));
        let Ok(req) = req else { break };
        if sender.ready().await.is_err() {
            out.errors += 1;
            break;
        }
        match sender.send_request(req).await {
            Ok(res) => {
                let ok = res.status().is_success();
                let body = res.into_body().collect().await;
                if now >= warm_until {
                    if body.is_err() {
                        out.errors += 1;
                    } else if !ok {
                        out.non_2xx += 1;
                    }
                    out.latencies_us
                        .push(now.elapsed().as_micros().min(u32::MAX as u128) as u32);
                    out.started_ms
                        .push((now - warm_until).as_millis().min(u32::MAX as u128) as u32);
                }
            }
            Err(_) => {
                out.errors += 1;
                break;
            }
        }
    }
    out
}

fn peak_rss_mb(pid: u32) -> Option<f64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024.0)
}

fn pct(sorted: &[u32], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i] as f64 / 1000.0
}

#[tokio::main]
async fn main() {
    let Cmd::Http {
        url,
        body,
        key,
        connections,
        seconds,
        warmup,
        rate,
        server_pid,
        json,
        timeline,
    } = Cli::parse().command;
    if rate.is_some_and(|r| !r.is_finite() || r <= 0.0) {
        eprintln!("signet-bench: --rate must be above 0");
        std::process::exit(2);
    }
    let uri: Uri = match url.parse() {
        Ok(u) => u,
        Err(e) => {
            eprintln!("signet-bench: --url: {e}");
            std::process::exit(2);
        }
    };
    let mut bodies = Vec::with_capacity(body.len());
    for path in &body {
        match std::fs::read(path) {
            Ok(b) => bodies.push(Bytes::from(b)),
            Err(e) => {
                eprintln!("signet-bench: --body {}: {e}", path.display());
                std::process::exit(2);
            }
        }
    }
    let bodies: std::sync::Arc<[Bytes]> = bodies.into();
    let start = Instant::now();
    let warm_until = start + Duration::from_secs(warmup);
    let stop_at = warm_until + Duration::from_secs(seconds);
    // Open loop: the whole run's requests fall due one every 1/rate seconds, dealt to the
    // connections in turn.
    let first = start + Duration::from_millis(100);
    let tasks: Vec<_> = (0..connections)
        .map(|n| {
            let schedule = rate.map(|r| {
                (
                    first + Duration::from_secs_f64(n as f64 / r),
                    Duration::from_secs_f64(connections as f64 / r),
                )
            });
            tokio::spawn(connection(
                n,
                uri.clone(),
                key.clone(),
                bodies.clone(),
                warm_until,
                stop_at,
                schedule,
            ))
        })
        .collect();
    let mut all = Vec::new();
    let mut windows: Vec<(u32, u32, u32)> = Vec::new();
    let (mut errors, mut non_2xx) = (0, 0);
    for t in tasks {
        if let Ok(o) = t.await {
            for (&lat, &at) in o.latencies_us.iter().zip(&o.started_ms) {
                let w = (at / 250) as usize;
                if windows.len() <= w {
                    windows.resize(w + 1, (0, 0, 0));
                }
                let (n, worst, slow) = &mut windows[w];
                *n += 1;
                *worst = (*worst).max(lat);
                *slow += u32::from(lat > 50_000);
            }
            all.extend(o.latencies_us);
            errors += o.errors;
            non_2xx += o.non_2xx;
        }
    }
    all.sort_unstable();
    // Answers a second over the whole measured stretch, however long the last ones took: in
    // an open-loop run a server that cannot keep up answers fewer than were due.
    let answered = all.len() as f64 / warm_until.elapsed().as_secs_f64().max(seconds as f64);
    let rps = answered;
    let rss = server_pid.and_then(peak_rss_mb);
    let (p50, p99, p999) = (pct(&all, 0.50), pct(&all, 0.99), pct(&all, 0.999));
    if timeline {
        for (i, (n, worst, slow)) in windows.iter().enumerate() {
            eprintln!(
                "{:>6} ms  {n:>5} answered  slowest {:>8.1} ms  {slow:>4} over 50 ms",
                i * 250,
                *worst as f64 / 1000.0
            );
        }
    }
    if json {
        println!(
            "{}",
            serde_json::json!({
                "connections": connections, "seconds": seconds, "requests": all.len(),
                "offered_rps": rate,
                "rps": rps.round(), "p50_ms": p50, "p99_ms": p99, "p999_ms": p999,
                "errors": errors, "non_2xx": non_2xx, "server_peak_rss_mb": rss,
            })
        );
    } else {
        println!(
            "{connections} connections{}, {seconds} s: {} requests, {rps:.0} req/s, p50 {p50:.2} ms, p99 {p99:.2} ms, p999 {p999:.2} ms, errors {errors}, non-2xx {non_2xx}{}",
            rate.map(|r| format!(" offered {r:.0}/s"))
                .unwrap_or_default(),
            all.len(),
            rss.map(|r| format!(", server peak RSS {r:.1} MB"))
                .unwrap_or_default()
        );
    }
}
