//! `/graphql` (POST queries, GraphiQL on GET) and `/graphql/ws` (subscriptions over the
//! graphql-transport-ws protocol). POST passes through the door like any route, so it is
//! authenticated, budgeted and logged alike. A browser cannot set headers on a websocket, so
//! the socket authenticates with the key in `connection_init`'s payload
//! (`{"Authorization": "Bearer svc_..."}`), checked exactly as the door checks a header, and
//! again before every operation and every two seconds while the socket is open
//! (`signet_schema::guard`). A socket that does not authenticate within `init_timeout`, or
//! outlives `lifetime`, is closed; messages and frames are at most 64 KiB.

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use async_graphql::http::GraphiQLSource;
use async_graphql_axum::{GraphQLProtocol, GraphQLResponse, GraphQLWebSocket};
use axum::Extension;
use axum::extract::{State, WebSocketUpgrade};
use axum::http::HeaderMap;
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{MethodRouter, get, post};
use futures_util::StreamExt;
use signet_accounts::keys;
use signet_core::{Actor, DomainError};

use signet_accounts::people::sessions;
use signet_core::actor::{ClientAddr, Mode};
use signet_schema::guard::{Counter, Credential, DoorSpent, KeySockets, MAX_KEY_SOCKETS, Socket};

use crate::door::budget::over_budget;
use crate::door::client::ClientIp;
use crate::door::session::{cookie, origin_is_ours};
use crate::extract::JsonIn;
use crate::routes::row::{Access, GRAPHQL_BODY_LIMIT, Route};
use crate::state::{AppState, SocketLimits};

/// GraphQL's rows: queries and mutations (a key; each operation checks its scopes), the
/// GraphiQL page, and the websocket of subscriptions (its key comes in `connection_init`).
pub static ROUTES: &[Route] = &[
    Route::post("/graphql", "graphql.query", Access::AnyKey, query).body_limit(GRAPHQL_BODY_LIMIT),
    Route::get("/graphql", "graphql.graphiql", Access::Public, graphiql),
    Route::get("/graphql/ws", "graphql.ws", Access::Public, socket),
];

fn query() -> MethodRouter<AppState> {
    post(
        |State(s): State<AppState>,
         Extension(actor): Extension<Actor>,
         Extension(ClientIp(ip)): Extension<ClientIp>,
         JsonIn(req): JsonIn<async_graphql::Request>| async move {
            // Only JSON: no multipart uploads, no batches. The door has read the body within
            // the route's limit and spent one unit of the key's budget.
            let req = req.data(actor).data(DoorSpent(1)).data(ClientAddr(ip));
            let mut res = s.schema.execute(req).await;
            for e in &mut res.errors {
                // An error GraphQL itself raised (a query or variables that do not fit the
                // schema: an unknown field, a value of the wrong type) is the caller's input,
                // as a 400 would be over REST.
                let ext = e.extensions.get_or_insert_with(Default::default);
                if ext.get("kind").is_none() {
                    ext.set("kind", "invalid");
                }
            }
            GraphQLResponse::from(res)
        },
    )
}

fn graphiql() -> MethodRouter<AppState> {
    get(|| async {
        Html(
            GraphiQLSource::build()
                .endpoint("/graphql")
                .subscription_endpoint("/graphql/ws")
                .title("Signet GraphQL")
                .finish(),
        )
    })
}

/// The largest websocket message or frame, pings included.
pub const MAX_SOCKET_MESSAGE: usize = 64 * 1024;

fn socket() -> MethodRouter<AppState> {
    get(
        |State(s): State<AppState>,
         Extension(ClientIp(ip)): Extension<ClientIp>,
         slot: Option<Extension<ConnSlot>>,
         headers: HeaderMap,
         protocol: GraphQLProtocol,
         upgrade: WebSocketUpgrade| async move {
            // The application's page opens its socket with the session cookie, which is
            // believed only when the upgrade comes from this installation's own origin (a
            // browser always sends Origin with a websocket; another site's page cannot
            // forge it).
            let session = cookie(&s.ctx, &headers)
                .filter(|_| origin_is_ours(&s.ctx, &headers))
                .map(str::to_string);
            // The connection's place among `max_connections`, held while the socket lives.
            let permit = slot.and_then(|Extension(s)| s.take());
            let schema = s.schema.clone();
            let ctx = s.ctx.clone();
            let limits = s.config.sockets;
            // The socket's lines carry the id of the request that opened it (its 101's
            // `Request-Id`); each operation's API log line has an id of its own.
            let span = tracing::Span::current();
            let res: Response = upgrade
                .protocols(async_graphql::http::ALL_WEBSOCKET_PROTOCOLS)
                .max_message_size(MAX_SOCKET_MESSAGE)
                .max_frame_size(MAX_SOCKET_MESSAGE)
                .on_upgrade(move |ws| {
                    let socket_life = async move {
                        let _permit = permit;
                        let socket = Socket::new(ip);
                        let (sink, stream) = ws.split();
                        let mut data = async_graphql::Data::default();
                        data.insert(socket.clone());
                        data.insert(ClientAddr(ip));
                        let sockets = schema.data::<KeySockets>().cloned().unwrap_or_default();
                        let (c, sock) = (ctx.clone(), socket.clone());
                        let serve = GraphQLWebSocket::new_with_pair(sink, stream, schema, protocol)
                            .with_data(data)
                            .on_connection_init(move |payload| async move {
                                let actor =
                                    init(&c, &sock, &sockets, &payload, session.as_deref(), ip)
                                        .await;
                                let actor = actor
                                    .map_err(|e| async_graphql::Error::new(e.public_message()))?;
                                let mut data = async_graphql::Data::default();
                                data.insert(actor);
                                Ok(data)
                            })
                            .serve();
                        // The watch runs beside the socket rather than inside it: a client that
                        // stops reading stalls the socket's writes, never the watch.
                        tokio::select! {
                            _ = serve => {}
                            _ = watch(&ctx, &socket, limits) => {}
                        }
                    };
                    tracing::Instrument::instrument(socket_life, span)
                })
                .into_response();
            res
        },
    )
}

/// `connection_init`: the key, checked as the door checks a header (or, without one, the
/// session cookie the upgrade carried from the application's page), one unit of its budget,
/// and one of its open sockets.
async fn init(
    ctx: &signet_core::Ctx,
    socket: &Socket,
    sockets: &KeySockets,
    payload: &serde_json::Value,
    session: Option<&str>,
    ip: std::net::IpAddr,
) -> Result<Actor, DomainError> {
    let token = ["Authorization", "authorization"]
        .iter()
        .find_map(|k| payload.get(*k).and_then(|v| v.as_str()))
        .and_then(|v| v.strip_prefix("Bearer ").or(v.strip_prefix("bearer ")))
        .map(str::trim);
    let (actor, credential) = match (token, session) {
        (Some(token), _) => (
            keys::authenticate(ctx, token, ip).await?,
            Credential::Key(token.to_string()),
        ),
        (None, Some(secret)) => {
            // The application's switch, as `X-Signet-Mode` on its other calls.
            let mode = match payload.get("mode") {
                None => Mode::Live,
                Some(v) => v.as_str().and_then(Mode::parse).ok_or_else(|| {
                    DomainError::Invalid("connection_init: mode must be test or live".into())
                })?,
            };
            (
                sessions::authenticate(ctx, secret)
                    .await?
                    .in_mode(mode)
                    .from_client(ip),
                Credential::Session(secret.to_string(), mode),
            )
        }
        (None, None) => return Err(DomainError::Unauthenticated),
    };
    let b = signet_core::limits::spend(ctx, &actor, 1).await?;
    if !b.allowed {
        return Err(over_budget(&b));
    }
    let counted = Counter::take(&sockets.0, actor.id(), MAX_KEY_SOCKETS).ok_or_else(|| {
        DomainError::RateLimited {
            message: format!(
                "this key holds {MAX_KEY_SOCKETS} open sockets, the most one key may; close one \
                 first"
            ),
            retry_after_secs: 1,
        }
    })?;
    let _ = socket.counted.set(counted);
    let _ = socket.token.set(credential);
    let _ = socket.workspace.set(actor.workspace_id.to_string());
    socket.authenticated.store(true, Ordering::Release);
    Ok(actor)
}

/// Where a connection's slot is kept while its requests run, so that a websocket upgraded
/// from it can take the slot along (the connection itself ends at the upgrade).
#[derive(Clone, Default)]
pub struct ConnSlot(Arc<std::sync::Mutex<Option<tokio::sync::OwnedSemaphorePermit>>>);

impl ConnSlot {
    pub fn new(permit: tokio::sync::OwnedSemaphorePermit) -> ConnSlot {
        ConnSlot(Arc::new(std::sync::Mutex::new(Some(permit))))
    }

    fn take(&self) -> Option<tokio::sync::OwnedSemaphorePermit> {
        self.0.lock().ok()?.take()
    }
}

/// Resolves (which closes the socket) when the socket has not authenticated in time, has
/// lived its lifetime, or its key stops being valid: revoked, expired, or no longer allowed
/// from the socket's address.
async fn watch(ctx: &signet_core::Ctx, socket: &Socket, limits: SocketLimits) {
    let opened = tokio::time::Instant::now();
    let mut tick = tokio::time::interval(Duration::from_secs(1));
    let mut ticks = 0u64;
    loop {
        tick.tick().await;
        ticks += 1;
        let age = opened.elapsed();
        if age >= limits.lifetime {
            return;
        }
        if !socket.authenticated.load(Ordering::Acquire) {
            if age >= limits.init_timeout {
                return;
            }
        } else if ticks.is_multiple_of(2) && socket.recheck(ctx).await.is_err() {
            return;
        }
    }
}
