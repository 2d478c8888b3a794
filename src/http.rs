//! The HTTP server loop. `axum::serve` sets no timeouts and accepts without bound, so a
//! client that opens connections and sends half a request header holds them for good. Here
//! every connection has `header_timeout` to send its request line and headers, which is also
//! the longest a kept-alive connection waits idle for its next request (hyper starts the
//! same timer for both); bodies have the door's `body_timeout`. At most `max_connections` are
//! served at once: past it, new connections wait in the kernel's backlog until one ends,
//! and since each slow one ends within `header_timeout`, ordinary requests keep being served.
//! A websocket keeps the slot of the connection it was upgraded from for as long as it lives.

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::extract::ConnectInfo;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::TcpListener;
use tokio::sync::{Semaphore, watch};
use tower::ServiceExt as _;

#[derive(Clone, Copy, Debug)]
pub struct Limits {
    pub max_connections: usize,
    pub header_timeout: Duration,
}

/// Resolves when the server is told to stop (or the server is gone).
async fn stopping(stop: &mut watch::Receiver<bool>) {
    while !*stop.borrow_and_update() {
        if stop.changed().await.is_err() {
            return;
        }
    }
}

/// How long a stopping server waits for requests in flight.
const DRAIN: Duration = Duration::from_secs(30);

/// The process's open-file limit, less room for the database, blobs and outgoing
/// connections: more connections than that would fail at `accept` instead of waiting.
pub fn fitting(max_connections: usize) -> usize {
    match rustix::process::getrlimit(rustix::process::Resource::Nofile).current {
        Some(files) => max_connections.min((files as usize).saturating_sub(256).max(16)),
        None => max_connections,
    }
}

pub async fn serve(
    listener: TcpListener,
    app: Router,
    limits: Limits,
    shutdown: impl Future<Output = ()>,
) -> std::io::Result<()> {
    let slots = Arc::new(Semaphore::new(limits.max_connections));
    let (stop_tx, stop_rx) = watch::channel(false);
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout)
        .max_headers(100);
    tokio::pin!(shutdown);
    loop {
        let permit = tokio::select! {
            p = slots.clone().acquire_owned() => match p {
                Ok(p) => p,
                Err(_) => break,
            },
            _ = &mut shutdown => break,
        };
        let (stream, peer) = tokio::select! {
            r = listener.accept() => match r {
                Ok(c) => c,
                Err(e) => {
                    // Out of files or a connection reset before it was taken: wait a little
                    // rather than spin.
                    tracing::debug!(error = %e, "accept failed");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            _ = &mut shutdown => break,
        };
        let _ = stream.set_nodelay(true);
        let app = app.clone();
        // The slot goes with the connection, or with the websocket upgraded from it.
        let slot = signet_rest::graphql::ConnSlot::new(permit);
        let service = hyper::service::service_fn(move |mut req: hyper::Request<Incoming>| {
            req.extensions_mut().insert(ConnectInfo(peer));
            req.extensions_mut().insert(slot.clone());
            app.clone().oneshot(req)
        });
        let conn = http
            .serve_connection(TokioIo::new(stream), service)
            .with_upgrades();
        let mut stop = stop_rx.clone();
        tokio::spawn(async move {
            let mut conn = std::pin::pin!(conn);
            tokio::select! {
                _ = conn.as_mut() => {}
                _ = stopping(&mut stop) => {
                    conn.as_mut().graceful_shutdown();
                    let _ = conn.await;
                }
            }
        });
    }
    drop(listener);
    let _ = stop_tx.send(true);
    // Every connection gives its slot back when it ends.
    let all = limits.max_connections as u32;
    let _ = tokio::time::timeout(DRAIN, slots.acquire_many(all)).await;
    Ok(())
}
