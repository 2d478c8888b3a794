//! A webhook receiver for the benchmarks: answers 204 at once and counts what it got.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use http_body_util::Empty;
use hyper::body::Bytes;

/// Listens on a free port of 127.0.0.1 and answers it; every request adds one to `count`.
pub async fn receiver(count: Arc<AtomicU64>) -> u16 {
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
                let svc = hyper::service::service_fn(move |_req| {
                    count.fetch_add(1, Ordering::Relaxed);
                    async move {
                        hyper::Response::builder()
                            .status(204)
                            .body(Empty::<Bytes>::new())
                    }
                });
                let io = hyper_util::rt::TokioIo::new(stream);
                let _ = hyper::server::conn::http1::Builder::new()
                    .serve_connection(io, svc)
                    .await;
            });
        }
    });
    port
}
