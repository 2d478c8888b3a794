//! Webhook fan-out benchmark: the real delivery worker, the real database and real HTTP to a
//! local receiver that answers 204 at once. Events are written straight into the outbox (as a
//! document transition would), so what is measured is fan-out, signing, posting and recording.
//!
//!   fanout --events 1 --endpoints 1000 [--database-url postgres://...]
//!
//! Prints one line: deliveries, seconds until the receiver had them all, deliveries per second,
//! and seconds until every outcome was recorded.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use clap::Parser;
use secrecy::SecretString;
use serde_json::json;
use signet::Config;
use signet_accounts::workspaces;
use signet_core::{Actor, Mode, actor::Scopes, plans::Plan};
use signet_storage::sea_orm::ConnectionTrait;
use signet_webhooks::{self as webhooks, types::WebhookCreateIn, worker::Deliveries};

#[path = "../receiver.rs"]
mod receiver;
use receiver::receiver;

#[derive(Parser)]
struct Args {
    #[arg(long)]
    events: usize,
    #[arg(long)]
    endpoints: usize,
    /// PostgreSQL (already empty or migrated); default a fresh SQLite file.
    #[arg(long)]
    database_url: Option<String>,
    /// Deliver one event to every endpoint before the clock starts.
    #[arg(long)]
    warm: bool,
    #[arg(long, default_value = "512")]
    concurrency: usize,
}

/// Writes `n` queued `documents.document.sent` events into the outbox, as a send would.
async fn emit(ctx: &signet_core::Ctx, ws: &str, n: usize) {
    let now = signet_storage::now_ms();
    let mut queued = signet_queue::Enqueued::none();
    for chunk in (0..n).collect::<Vec<_>>().chunks(1000) {
        let mut batch = signet_queue::Batch::default();
        for &i in chunk {
            let doc = format!("doc_bench{i}");
            let event = signet_core::events::Event {
                created_at: "2026-11-22T00:00:00Z".into(),
                data: json!({"document": {"id": doc, "state": "sent", "title": "Consulting agreement", "test": false,
                    "externalId": format!("deal-{i}"), "metadata": {"crm.deal": "bench"}}}),
                id: signet_core::ids::new_id("evt"),
                test: false,
                topic: "documents.document.sent".into(),
            };
            let owner = signet_queue::Owner {
                workspace_id: ws,
                document_id: Some(&doc),
                test: false,
            };
            batch.add(&event, owner, now);
        }
        let written = batch
            .write(&ctx.db.conn, &ctx.db)
            .await
            .unwrap_or_else(|e| panic!("{e}"));
        queued = queued.and(written);
    }
    // As a committed document change does (`Ctx::committed`).
    ctx.queued(queued).await;
}

async fn delivered(ctx: &signet_core::Ctx) -> u64 {
    let r = ctx
        .db
        .conn
        .query_one_raw(ctx.db.stmt(
            "SELECT COUNT(*) AS n FROM webhook_messages WHERE state = 'delivered'",
            [],
        ))
        .await;
    r.ok()
        .flatten()
        .and_then(|r| r.try_get::<i64>("", "n").ok())
        .unwrap_or(0) as u64
}

#[tokio::main]
async fn main() {
    let args = Args::parse();
    let dir = std::env::temp_dir().join(format!("signet-fanout-{}", std::process::id()));
    let config = Config {
        data_dir: dir.clone(),
        database_url: args.database_url.clone(),
        secret_key: Some(SecretString::from(
            "bench-secret-bench-secret-bench-secret-00",
        )),
        webhooks_allow_private: true,
        webhooks_allow_http: true,
        workers: false,
        ..Config::default()
    };
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
    let count = Arc::new(AtomicU64::new(0));
    let port = receiver(count.clone()).await;

    // A workspace has at most `MAX_ENDPOINTS` endpoints a mode, and takes at most a quarter of
    // the delivery slots: the endpoints are spread over as many workspaces as that takes, and
    // every event is emitted in each of them.
    let per = webhooks::endpoints::MAX_ENDPOINTS;
    let mut spaces = Vec::new();
    for chunk in 0..args.endpoints.div_ceil(per) {
        let ws = workspaces::create(
            &ctx,
            workspaces::WorkspaceIn {
                name: format!("Bench {chunk}"),
                plan: Plan::Pro,
                time_zone: "UTC".into(),
            },
        )
        .await
        .unwrap_or_else(|e| panic!("{e}"))
        .id;
        let actor = Actor {
            workspace_id: ws.as_str().into(),
            workspace_name: "Bench".into(),
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
        for i in chunk * per..((chunk + 1) * per).min(args.endpoints) {
            webhooks::create(
                &ctx,
                &actor,
                WebhookCreateIn {
                    event_types: vec!["documents.document.sent".into()],
                    url: Some(format!("http://127.0.0.1:{port}/e{i}")),
                    relay: None,
                    name: None,
                },
                None,
            )
            .await
            .unwrap_or_else(|e| panic!("{e}"));
        }
        spaces.push(ws);
    }
    let config = signet_workers::PoolConfig {
        concurrency: args.concurrency,
        ..Default::default()
    };
    // Never told to stop: the worker is dropped at the end.
    let (_stop, never) = tokio::sync::watch::channel(false);
    let (base, worker, started) = if args.warm {
        // One round first, so the worker, its connections and the database are warm.
        let worker = tokio::spawn(signet_workers::pool::run::<Deliveries>(
            ctx.clone(),
            config,
            never.clone(),
            Default::default(),
        ));
        for ws in &spaces {
            emit(&ctx, ws, 1).await;
        }
        let warm = args.endpoints as u64;
        while count.load(Ordering::Relaxed) < warm || delivered(&ctx).await < warm {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        let started = Instant::now();
        for ws in &spaces {
            emit(&ctx, ws, args.events).await;
        }
        (warm, worker, started)
    } else {
        for ws in &spaces {
            emit(&ctx, ws, args.events).await;
        }
        let started = Instant::now();
        (
            0,
            tokio::spawn(signet_workers::pool::run::<Deliveries>(
                ctx.clone(),
                config,
                never.clone(),
                Default::default(),
            )),
            started,
        )
    };
    let expected = (args.events * args.endpoints) as u64;
    while count.load(Ordering::Relaxed) - base < expected {
        assert!(
            started.elapsed() < Duration::from_secs(600),
            "deliveries stalled at {}",
            count.load(Ordering::Relaxed)
        );
        tokio::time::sleep(Duration::from_millis(2)).await;
    }
    let received = started.elapsed();
    while delivered(&ctx).await - base < expected {
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    let recorded = started.elapsed();
    worker.abort();
    println!(
        "{}{} events x {} endpoints: {expected} deliveries, received in {:.3} s ({:.0}/s), all recorded in {:.3} s ({:.0}/s), extra posts {}",
        if args.warm { "warm, " } else { "" },
        args.events,
        args.endpoints,
        received.as_secs_f64(),
        expected as f64 / received.as_secs_f64(),
        recorded.as_secs_f64(),
        expected as f64 / recorded.as_secs_f64(),
        count.load(Ordering::Relaxed) - base - expected
    );
    services.log_writer.stop().await;
    let _ = std::fs::remove_dir_all(dir);
}
