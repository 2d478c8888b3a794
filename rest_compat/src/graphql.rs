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
use axum::Router;
use axum::extract::ws::{Message, WebSocket};
use axum::extract::{State, WebSocketUpgrade};
use axum::http::Method;
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{MethodRouter, get, post};
use futures_util::StreamExt;
use futures_util::stream::SplitStream;
use signet_resolvers::{Actor, DomainError, keys};

use signet_schema::guard::{DoorSpent, Socket};

use crate::AppState;
use crate::door::{self, ClientIp};
use crate::extract::JsonIn;
use crate::routes::{Access, Route, row};

static QUERY: std::sync::LazyLock<Route> = std::sync::LazyLock::new(|| {
    row(
        Method::POST,
        "/graphql",
        "graphql.query",
        Access::AnyKey,
        query,
    )
});
static PAGE: std::sync::LazyLock<Route> = std::sync::LazyLock::new(|| {
    row(
        Method::GET,
        "/graphql",
        "graphql.graphiql",
        Access::Public,
        graphiql,
    )
});
static SOCKET: std::sync::LazyLock<Route> = std::sync::LazyLock::new(|| {
    row(
        Method::GET,
        "/graphql/ws",
        "graphql.ws",
        Access::Public,
        socket,
    )
});

pub(crate) fn router(state: &AppState) -> Router<AppState> {
    let q: &'static Route = &QUERY;
    let p: &'static Route = &PAGE;
    let s: &'static Route = &SOCKET;
    Router::new()
        .route(
            "/graphql",
            door::layer(q, query(), state).merge(door::layer(p, graphiql(), state)),
        )
        .route("/graphql/ws", door::layer(s, socket(), state))
}

fn query() -> MethodRouter<AppState> {
    post(
        |State(s): State<AppState>,
         Extension(actor): Extension<Actor>,
         JsonIn(req): JsonIn<async_graphql::Request>| async move {
            // Only JSON: no multipart uploads, no batches. The door has read the body within
            // the route's limit and spent one unit of the key's budget.
            let req = req.data(actor).data(DoorSpent(1));
            GraphQLResponse::from(s.schema.execute(req).await)
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
         protocol: GraphQLProtocol,
         upgrade: WebSocketUpgrade| async move {
            let schema = s.schema.clone();
            let ctx = s.ctx.clone();
            let limits = s.config.sockets;
            let res: Response = upgrade
                .protocols(async_graphql::http::ALL_WEBSOCKET_PROTOCOLS)
                .max_message_size(MAX_SOCKET_MESSAGE)
                .max_frame_size(MAX_SOCKET_MESSAGE)
                .on_upgrade(move |ws| {
                    let socket = Socket::new(ip);
                    let (sink, stream) = ws.split();
                    let input = watched(stream, ctx.clone(), socket.clone(), limits);
                    let mut data = async_graphql::Data::default();
                    data.insert(socket.clone());
                    GraphQLWebSocket::new_with_pair(sink, input, schema, protocol)
                        .with_data(data)
                        .on_connection_init(move |payload| async move {
                            let token = ["Authorization", "authorization"]
                                .iter()
                                .find_map(|k| payload.get(*k).and_then(|v| v.as_str()))
                                .and_then(|v| {
                                    v.strip_prefix("Bearer ").or(v.strip_prefix("bearer "))
                                })
                                .map(str::trim)
                                .ok_or(DomainError::Unauthenticated);
                            let actor = match token {
                                Ok(t) => keys::authenticate(&ctx, t, ip).await.map(|a| (a, t)),
                                Err(e) => Err(e),
                            };
                            let (actor, token) =
                                actor.map_err(|e| async_graphql::Error::new(e.public_message()))?;
                            let _ = socket.token.set(token.to_string());
                            socket.authenticated.store(true, Ordering::Release);
                            let mut data = async_graphql::Data::default();
                            data.insert(actor);
                            Ok(data)
                        })
                        .serve()
                })
                .into_response();
            res
        },
    )
}

/// How long a websocket may take to authenticate, and live at most.
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

/// The socket's incoming messages, ended (which closes the socket) when it has not
/// authenticated in time, has lived its lifetime, or its key stops being valid: revoked,
/// expired, or no longer allowed from the socket's address.
fn watched(
    inner: SplitStream<WebSocket>,
    ctx: signet_resolvers::Ctx,
    socket: Arc<Socket>,
    limits: SocketLimits,
) -> impl futures_util::Stream<Item = Result<Message, axum::Error>> + Send + 'static {
    let opened = tokio::time::Instant::now();
    let tick = tokio::time::interval(Duration::from_secs(1));
    futures_util::stream::unfold(
        (inner, tick, 0u64),
        move |(mut inner, mut tick, mut ticks)| {
            let (ctx, socket) = (ctx.clone(), socket.clone());
            async move {
                loop {
                    tokio::select! {
                        m = inner.next() => return m.map(|m| (m, (inner, tick, ticks))),
                        _ = tick.tick() => {
                            ticks += 1;
                            let age = opened.elapsed();
                            if age >= limits.lifetime {
                                return None;
                            }
                            if !socket.authenticated.load(Ordering::Acquire) {
                                if age >= limits.init_timeout {
                                    return None;
                                }
                            } else if ticks % 2 == 0 && socket.recheck(&ctx).await.is_err() {
                                return None;
                            }
                        }
                    }
                }
            }
        },
    )
}
