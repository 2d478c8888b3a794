//! Email benchmark: the real mail worker composing and sending invitations over pooled SMTP
//! connections to a local sink (a minimal SMTP server in this process that accepts every
//! message), on the embedded default unless a PostgreSQL URL is given. Documents are made
//! and sent through the resolvers first (each queues two invitations); the clock runs from
//! starting the worker until the sink has every email, then until every one is logged `sent`.
//!
//!   mail --documents 5000 [--connections 8] [--database-url postgres://...]
//!   mail --sink-only 20000 [--connections 8]   (the sink's own ceiling, fed by lettre alone)

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use clap::Parser;
use secrecy::SecretString;
use signet::Config;
use signet_accounts::workspaces;
use signet_core::{Actor, Mode, actor::Scopes, plans::Plan};
use signet_documents::types::DocumentCreateIn;
use signet_storage::sea_orm::ConnectionTrait;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

#[derive(Parser)]
struct Args {
    #[arg(long, default_value = "5000")]
    documents: usize,
    #[arg(long, default_value = "8")]
    connections: u32,
    #[arg(long)]
    database_url: Option<String>,
    /// Only measure the sink: send this many prebuilt messages with lettre.
    #[arg(long)]
    sink_only: Option<usize>,
}

/// A minimal SMTP server: EHLO, MAIL, RCPT, DATA, RSET, NOOP, QUIT; every message accepted.
async fn sink(count: Arc<AtomicU64>) -> u16 {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .unwrap_or_else(|e| panic!("bind: {e}"));
    let port = listener.local_addr().map(|a| a.port()).unwrap_or_default();
    tokio::spawn(async move {
        loop {
            let Ok((stream, _)) = listener.accept().await else {
                continue;
            };
            let count = count.clone();
            tokio::spawn(async move {
                let (r, mut w) = stream.into_split();
                let mut r = BufReader::new(r);
                let _ = w.write_all(b"220 sink ESMTP\r\n").await;
                let mut line = String::new();
                let mut in_data = false;
                loop {
                    line.clear();
                    match r.read_line(&mut line).await {
                        Ok(0) | Err(_) => return,
                        Ok(_) => {}
                    }
                    if in_data {
                        if line == ".\r\n" {
                            in_data = false;
                            count.fetch_add(1, Ordering::Relaxed);
                            let _ = w.write_all(b"250 2.0.0 Ok: queued\r\n").await;
                        }
                        continue;
                    }
                    let verb = line.get(..4).unwrap_or_default().to_ascii_uppercase();
                    let answer: &[u8] = match verb.as_str() {
                        "EHLO" => b"250-sink\r\n250-8BITMIME\r\n250 SMTPUTF8\r\n",
                        "HELO" | "MAIL" | "RCPT" | "RSET" | "NOOP" => b"250 2.0.0 Ok\r\n",
                        "DATA" => {
                            in_data = true;
                            b"354 End data with <CR><LF>.<CR><LF>\r\n"
                        }
                        "QUIT" => {
                            let _ = w.write_all(b"221 2.0.0 Bye\r\n").await;
                            return;
                        }
                        _ => b"502 5.5.2 Error: command not recognized\r\n",
                    };
                    let _ = w.write_all(answer).await;
                }
            });
        }
    });
    port
}

async fn logged_sent(ctx: &signet_core::Ctx) -> u64 {
    ctx.db
        .conn
        .query_one_raw(
            ctx.db
                .stmt("SELECT COUNT(*) AS n FROM emails WHERE status = 'sent'", []),
        )
        .await
        .ok()
        .flatten()
        .and_then(|r| r.try_get::<i64>("", "n").ok())
        .unwrap_or(0) as u64
}

/// The sink's own ceiling: `connections` raw SMTP clients (Nagle off), each sending its share
/// of `n` prebuilt 12 KB messages one after another, reading every reply.
async fn sink_only(n: usize, connections: u32) {
    let count = Arc::new(AtomicU64::new(0));
    let port = sink(count.clone()).await;
    let body = format!(
        "From: sign@example.org\r\nTo: ada@example.com\r\nSubject: bench\r\n\r\n{}\r\n.\r\n",
        "x".repeat(76).repeat(160).as_str()
    );
    let started = Instant::now();
    let per = n / connections as usize;
    let mut tasks = Vec::new();
    for _ in 0..connections {
        let body = body.clone();
        tasks.push(tokio::spawn(async move {
            let tcp = tokio::net::TcpStream::connect(("127.0.0.1", port))
                .await
                .unwrap_or_else(|e| panic!("{e}"));
            tcp.set_nodelay(true).unwrap_or_else(|e| panic!("{e}"));
            let (r, mut w) = tcp.into_split();
            let mut r = BufReader::new(r);
            let mut line = String::new();
            let mut reply = async |r: &mut BufReader<tokio::net::tcp::OwnedReadHalf>| loop {
                line.clear();
                let _ = r.read_line(&mut line).await;
                if line.len() < 4 || line.as_bytes()[3] == b' ' {
                    break;
                }
            };
            reply(&mut r).await;
            let _ = w.write_all(b"EHLO bench\r\n").await;
            reply(&mut r).await;
            for _ in 0..per {
                for cmd in [
                    "MAIL FROM:<sign@example.org>\r\n",
                    "RCPT TO:<ada@example.com>\r\n",
                    "DATA\r\n",
                    body.as_str(),
                ] {
                    let _ = w.write_all(cmd.as_bytes()).await;
                    reply(&mut r).await;
                }
            }
        }));
    }
    for t in tasks {
        let _ = t.await;
    }
    let secs = started.elapsed().as_secs_f64();
    let got = count.load(Ordering::Relaxed);
    println!(
        "sink alone: {got} prebuilt 12 KB messages accepted in {secs:.3} s ({:.0}/s) over {connections} raw connections",
        got as f64 / secs
    );
}

#[tokio::main]
async fn main() {
    let _ = rustls::crypto::ring::default_provider().install_default();
    let args = Args::parse();
    if let Some(n) = args.sink_only {
        return sink_only(n, args.connections).await;
    }
    let count = Arc::new(AtomicU64::new(0));
    let port = sink(count.clone()).await;
    let dir = std::env::temp_dir().join(format!("signet-mail-{}", std::process::id()));
    let mut config = Config {
        data_dir: dir.clone(),
        database_url: args.database_url.clone(),
        secret_key: Some(SecretString::from(
            "bench-secret-bench-secret-bench-secret-00",
        )),
        workers: false,
        smtp_url: Some(SecretString::from(format!("smtp://127.0.0.1:{port}"))),
        mail_from: Some("Signet <sign@example.org>".into()),
        smtp_connections: args.connections,
        ..Config::default()
    };
    config.plans.pro.emails_per_day = None;
    config.plans.pro.documents_per_month = None;
    if let Some(url) = &args.database_url {
        let db = signet_storage::Db::connect(url)
            .await
            .unwrap_or_else(|e| panic!("{e}"));
        db.migrate().await.unwrap_or_else(|e| panic!("{e}"));
    }
    let services = signet::services(&config)
        .await
        .unwrap_or_else(|e| panic!("{e:#}"));
    let ctx = services.ctx.clone();
    let ws = workspaces::create(
        &ctx,
        workspaces::WorkspaceIn {
            name: "Bench".into(),
            plan: Plan::Pro,
            time_zone: "UTC".into(),
        },
    )
    .await
    .unwrap_or_else(|e| panic!("{e}"))
    .id;
    let actor = Actor {
        workspace_name: "Bench".into(),
        workspace_id: ws.into(),
        principal: signet_core::Principal::Key {
            id: "key_bench".into(),
        },
        mode: Mode::Live,
        scopes: Scopes::all(),
        plan: Plan::Pro,
        draft_only: false,
        daily_limit: None,
        per_minute: u64::MAX,
        client: None,
        workspace_test: false,
        own_mode: Mode::Live,
    };
    let body: DocumentCreateIn = serde_json::from_str(include_str!("../../create-send.json"))
        .unwrap_or_else(|e| panic!("{e}"));
    let made = Instant::now();
    for _ in 0..args.documents {
        signet_documents::create(&ctx, &actor, body.clone(), None)
            .await
            .unwrap_or_else(|e| panic!("{e}"));
    }
    let expected = 2 * args.documents as u64;
    eprintln!(
        "{} documents made and sent in {:.1} s; {expected} invitations queued",
        args.documents,
        made.elapsed().as_secs_f64()
    );
    let started = Instant::now();
    // The runner stops when told through `_stop`, kept alive for the whole run.
    let (_stop, watching) = tokio::sync::watch::channel(false);
    let worker = tokio::spawn(signet_workers::run::<signet_email::worker::Emails>(
        ctx.clone(),
        watching,
        signet_workers::Held::default(),
    ));
    while count.load(Ordering::Relaxed) < expected {
        assert!(
            started.elapsed() < Duration::from_secs(900),
            "emails stalled at {}",
            count.load(Ordering::Relaxed)
        );
        tokio::time::sleep(Duration::from_millis(2)).await;
    }
    let received = started.elapsed();
    while logged_sent(&ctx).await < expected {
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    let recorded = started.elapsed();
    worker.abort();
    println!(
        "{expected} invitations over {} SMTP connections: accepted by the sink in {:.3} s ({:.0}/s), all logged sent in {:.3} s ({:.0}/s), extra messages {}",
        args.connections,
        received.as_secs_f64(),
        expected as f64 / received.as_secs_f64(),
        recorded.as_secs_f64(),
        expected as f64 / recorded.as_secs_f64(),
        count.load(Ordering::Relaxed) - expected
    );
    services.log_writer.stop().await;
    let _ = std::fs::remove_dir_all(dir);
}
