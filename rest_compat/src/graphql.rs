//! `/graphql` (POST queries, GraphiQL on GET) and `/graphql/ws` (subscriptions over the
//! graphql-transport-ws protocol). POST passes through the door like any route, so it is
//! authenticated, budgeted and logged alike. A browser cannot set headers on a websocket, so
//! the socket authenticates with the key in `connection_init`'s payload
//! (`{"Authorization": "Bearer svc_..."}`), checked exactly as the door checks a header.

use async_graphql::http::GraphiQLSource;
use async_graphql_axum::{GraphQLProtocol, GraphQLRequest, GraphQLResponse, GraphQLWebSocket};
use axum::Extension;
use axum::Router;
use axum::extract::{State, WebSocketUpgrade};
use axum::http::Method;
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{MethodRouter, get, post};
use signet_resolvers::{Actor, DomainError, keys};

use crate::AppState;
use crate::door::{self, ClientIp};
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
        |State(s): State<AppState>, Extension(actor): Extension<Actor>, req: GraphQLRequest| async move {
            GraphQLResponse::from(s.schema.execute(req.into_inner().data(actor)).await)
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

fn socket() -> MethodRouter<AppState> {
    get(
        |State(s): State<AppState>,
         Extension(ClientIp(ip)): Extension<ClientIp>,
         protocol: GraphQLProtocol,
         upgrade: WebSocketUpgrade| async move {
            let schema = s.schema.clone();
            let ctx = s.ctx.clone();
            let res: Response = upgrade
                .protocols(async_graphql::http::ALL_WEBSOCKET_PROTOCOLS)
                .on_upgrade(move |stream| {
                    GraphQLWebSocket::new(stream, schema, protocol)
                        .on_connection_init(move |payload| async move {
                            let token = ["Authorization", "authorization"]
                                .iter()
                                .find_map(|k| payload.get(*k).and_then(|v| v.as_str()))
                                .and_then(|v| {
                                    v.strip_prefix("Bearer ").or(v.strip_prefix("bearer "))
                                })
                                .ok_or(DomainError::Unauthenticated);
                            let actor = match token {
                                Ok(t) => keys::authenticate(&ctx, t.trim(), ip).await,
                                Err(e) => Err(e),
                            }
                            .map_err(|e| async_graphql::Error::new(e.public_message()))?;
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
