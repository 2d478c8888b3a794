//! The HTTP server loop. `axum::serve` sets no timeouts and accepts without bound, so a
//! client that opens connections and sends half a request header holds them for good. Here
//! every connection has `header_timeout` to send its request line and headers, which is also
//! the longest a kept-alive connection waits idle for its next request (hyper starts the
//! same timer for both); bodies have the door's `body_timeout`. At most `max_connections` are
//! served at once: past it, new connections wait in the kernel's backlog until one ends,
//! and since each slow one ends within `header_timeout`, ordinary requests keep being served.
//! A websocket keeps the slot of the connection it was upgraded from for as long as it lives.
//! A write that waits on a client that reads nothing fails after `write_timeout`, which
//! closes the connection or the websocket.

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
    /// The longest a write may wait on a client that does not read: past it the connection
    /// (or the websocket upgraded from it) is closed.
    pub write_timeout: Duration,
    /// How long a stopping server waits for requests in flight (`shutdown_timeout_secs`).
    pub drain: Duration,
}

/// Resolves when the server is told to stop (or the server is gone).
async fn stopping(stop: &mut watch::Receiver<bool>) {
    while !*stop.borrow_and_update() {
        if stop.changed().await.is_err() {
            return;
        }
    }
}

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
    let drain = limits.drain;
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
        let io = WriteDeadline::new(stream, limits.write_timeout);
        let conn = http
            .serve_connection(TokioIo::new(io), service)
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
    let _ = tokio::time::timeout(drain, slots.acquire_many(all)).await;
    Ok(())
}

/// A connection whose writes fail once they have waited `timeout` for the client to read
/// [`PROGRESS`] bytes. Without it a client that stops reading an answer (or a websocket's
/// messages), or reads a few bytes now and then, holds its connection, and the task writing
/// to it, for as long as it likes.
struct WriteDeadline<T> {
    inner: T,
    timeout: Duration,
    waiting: Option<std::pin::Pin<Box<tokio::time::Sleep>>>,
    /// Bytes written since the deadline was set.
    written: usize,
}

/// What a client must read within each `timeout` while an answer waits for it.
const PROGRESS: usize = 64 * 1024;

impl<T> WriteDeadline<T> {
    fn new(inner: T, timeout: Duration) -> WriteDeadline<T> {
        WriteDeadline {
            inner,
            timeout,
            waiting: None,
            written: 0,
        }
    }

    /// After a write or flush completed: enough progress clears the deadline.
    fn progressed(&mut self, ready: &impl Written) {
        if self.waiting.is_none() {
            return;
        }
        self.written = self.written.saturating_add(ready.bytes().unwrap_or(0));
        if self.written >= PROGRESS {
            self.waiting = None;
            self.written = 0;
        }
    }

    /// After the inner write came back `Pending`: the error once the deadline has passed.
    fn overdue(&mut self, cx: &mut std::task::Context<'_>) -> std::task::Poll<std::io::Error> {
        let timeout = self.timeout;
        if self.waiting.is_none() {
            self.written = 0;
        }
        let sleep = self
            .waiting
            .get_or_insert_with(|| Box::pin(tokio::time::sleep(timeout)));
        match sleep.as_mut().poll(cx) {
            std::task::Poll::Ready(()) => std::task::Poll::Ready(std::io::Error::new(
                std::io::ErrorKind::TimedOut,
                "the client read nothing of its answer in time",
            )),
            std::task::Poll::Pending => std::task::Poll::Pending,
        }
    }
}

impl<T: tokio::io::AsyncRead + Unpin> tokio::io::AsyncRead for WriteDeadline<T> {
    fn poll_read(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
        buf: &mut tokio::io::ReadBuf<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        std::pin::Pin::new(&mut self.inner).poll_read(cx, buf)
    }
}

/// A write or flush: pending past the deadline is an error; progress of [`PROGRESS`] bytes
/// (or a flush done) clears the deadline.
macro_rules! deadline {
    ($self:ident, $cx:ident, $call:expr) => {{
        match $call {
            std::task::Poll::Pending => match $self.overdue($cx) {
                std::task::Poll::Ready(e) => std::task::Poll::Ready(Err(e)),
                std::task::Poll::Pending => std::task::Poll::Pending,
            },
            ready => {
                $self.progressed(&ready);
                ready
            }
        }
    }};
}

trait Written {
    fn bytes(&self) -> Option<usize>;
}

impl Written for std::task::Poll<std::io::Result<usize>> {
    fn bytes(&self) -> Option<usize> {
        match self {
            std::task::Poll::Ready(Ok(n)) => Some(*n),
            _ => None,
        }
    }
}

impl Written for std::task::Poll<std::io::Result<()>> {
    fn bytes(&self) -> Option<usize> {
        // A flush that completes has nothing left waiting on the client.
        matches!(self, std::task::Poll::Ready(Ok(()))).then_some(PROGRESS)
    }
}

impl<T: tokio::io::AsyncWrite + Unpin> tokio::io::AsyncWrite for WriteDeadline<T> {
    fn poll_write(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
        buf: &[u8],
    ) -> std::task::Poll<std::io::Result<usize>> {
        let this = &mut *self;
        deadline!(
            this,
            cx,
            std::pin::Pin::new(&mut this.inner).poll_write(cx, buf)
        )
    }

    fn poll_write_vectored(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
        bufs: &[std::io::IoSlice<'_>],
    ) -> std::task::Poll<std::io::Result<usize>> {
        let this = &mut *self;
        deadline!(
            this,
            cx,
            std::pin::Pin::new(&mut this.inner).poll_write_vectored(cx, bufs)
        )
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        let this = &mut *self;
        deadline!(this, cx, std::pin::Pin::new(&mut this.inner).poll_flush(cx))
    }

    fn poll_shutdown(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        std::pin::Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}
