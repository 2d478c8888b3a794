//! What every handler may reach: the domain's context, the HTTP settings and the GraphQL
//! schema, shared as one `AppState`.

use std::sync::Arc;
use std::time::Duration;

use ipnet::IpNet;
use signet_core::Ctx;

/// Everything a request handler may reach. Cloned several times per request, so it is one
/// `Arc` (one reference count) rather than a struct of many.
#[derive(Clone)]
pub struct AppState(Arc<AppStateInner>);

pub struct AppStateInner {
    pub ctx: Ctx,
    pub config: HttpConfig,
    pub schema: signet_schema::SignetSchema,
    /// The last readiness answer and when it was worked out (`/readyz`).
    pub readiness: Readiness,
    /// The tool server at `/mcp`, with its sessions.
    pub mcp: signet_mcp::HttpService,
}

impl std::ops::Deref for AppState {
    type Target = AppStateInner;

    fn deref(&self) -> &AppStateInner {
        &self.0
    }
}

impl AppState {
    pub fn new(ctx: Ctx, config: HttpConfig) -> AppState {
        AppState(Arc::new(AppStateInner {
            schema: signet_schema::build(ctx.clone()),
            mcp: signet_mcp::http_service(ctx.clone()),
            ctx,
            config,
            readiness: Readiness::default(),
        }))
    }
}

#[derive(Clone, Debug)]
pub struct HttpConfig {
    /// Peers whose `X-Forwarded-For` is believed.
    pub trusted_proxies: Vec<IpNet>,
    /// Per-minute budget of requests without a valid key, per client address.
    pub anonymous_per_minute: u64,
    /// How long a client may take to send a request's body.
    pub body_timeout: Duration,
    pub sockets: SocketLimits,
    /// The bearer secret of `POST /hooks/email`; `None` turns the route off.
    pub email_feedback_secret: Option<secrecy::SecretString>,
    /// The bearer token of `GET /metrics`; `None` turns the route off.
    pub metrics_token: Option<secrecy::SecretString>,
}

/// How long a GraphQL websocket may take to authenticate, and live at most.
#[derive(Clone, Copy, Debug)]
pub struct SocketLimits {
    pub init_timeout: Duration,
    pub lifetime: Duration,
}

impl Default for SocketLimits {
    fn default() -> SocketLimits {
        SocketLimits {
            init_timeout: Duration::from_secs(10),
            lifetime: Duration::from_secs(3600),
        }
    }
}

/// The last readiness answer of this process's application, and when it was worked out.
#[derive(Default)]
pub struct Readiness(
    pub(crate) tokio::sync::Mutex<Option<(std::time::Instant, signet_core::health::Readiness)>>,
);
