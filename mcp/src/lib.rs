//! Signet's tool server for AI assistants (MCP): the tools of [`tools::TOOLS`] over the same
//! resolvers as the REST API, a document's audit trail and a template's seats as resources,
//! on stdio (`signet mcp --stdio`, the key from `SIGNET_API_KEY`) and on streamable HTTP at
//! `/mcp` behind the same bearer keys and scopes. See docs/mcp.md.

pub mod drafts;
pub mod resources;
pub mod schema;
pub mod sessions;
pub mod tools;

use std::net::{IpAddr, Ipv4Addr};
use std::sync::Arc;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation,
    ListResourceTemplatesResult, ListResourcesResult, ListToolsResult, PaginatedRequestParams,
    ReadResourceRequestParams, ReadResourceResponse, ServerCapabilities, ServerConfig,
    Tool as McpTool, ToolAnnotations,
};
use rmcp::service::RequestContext;
use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
use rmcp::{ErrorData as McpError, RoleServer, ServerHandler, ServiceExt};
use serde_json::{Value, json};
use signet_core::{Actor, Ctx, DomainError};

pub use tools::{Need, TOOLS, Tool};

/// The largest JSON-RPC message `/mcp` reads (the route's own body limit is the same).
pub const MAX_BODY: usize = 2 * 1024 * 1024;

/// Who the calls are made as.
#[derive(Clone)]
enum Who {
    /// Over HTTP: the door authenticated the request's key and put its `Actor` in the
    /// request's extensions; every call reads its own request's.
    Http,
    /// Over stdio: the key from `SIGNET_API_KEY`, authenticated and budgeted at every call
    /// (a key revoked meanwhile stops working at once).
    Stdio(Arc<str>),
}

#[derive(Clone)]
pub struct Server {
    ctx: Ctx,
    who: Who,
}

const INSTRUCTIONS: &str = "Signet sends documents for electronic signature. Find documents and where each person is with find_documents and get_document; make one from words (create_document) or a template (create_document_from_template), check words first with check_source, then send_document. Plays draft documents from a person's answers (draft_from_play). With a test key everything is a practice run: emails go only to the workspace's sender address, and test_sign signs a seat. No tool gives a signing link: people sign from their invitation email.";

/// The spec's error shape, as a tool's error answer.
pub fn error_value(e: &DomainError) -> Value {
    json!({"error": {"kind": e.kind(), "message": e.public_message(), "retryable": e.retryable()}})
}

fn failed(e: &DomainError) -> CallToolResult {
    CallToolResult::structured_error(error_value(e))
}

impl Server {
    pub fn http(ctx: Ctx) -> Server {
        Server {
            ctx,
            who: Who::Http,
        }
    }

    pub fn stdio(ctx: Ctx, key: &str) -> Server {
        Server {
            ctx,
            who: Who::Stdio(key.into()),
        }
    }

    /// The caller of this request.
    async fn actor(&self, rctx: &RequestContext<RoleServer>) -> Result<Actor, DomainError> {
        match &self.who {
            Who::Http => rctx
                .extensions
                .get::<http::request::Parts>()
                .and_then(|p| p.extensions.get::<Actor>())
                .cloned()
                .ok_or(DomainError::Unauthenticated),
            Who::Stdio(key) => {
                let local = IpAddr::V4(Ipv4Addr::LOCALHOST);
                let actor = signet_accounts::keys::authenticate(&self.ctx, key, local).await?;
                let budget = signet_core::limits::spend(&self.ctx, &actor, 1).await?;
                if !budget.allowed {
                    return Err(DomainError::RateLimited {
                        message: format!(
                            "Over the budget of {} requests a minute; retry after {} seconds.",
                            budget.limit, budget.reset_secs
                        ),
                        retry_after_secs: budget.reset_secs,
                    });
                }
                Ok(actor)
            }
        }
    }

    /// Serves stdio until the client closes it. Logs go to standard error only.
    pub async fn serve_stdio(self) -> Result<(), String> {
        let running = self
            .serve(rmcp::transport::stdio())
            .await
            .map_err(|e| format!("the MCP client did not start a session: {e}"))?;
        running
            .waiting()
            .await
            .map(|_| ())
            .map_err(|e| format!("the MCP session ended badly: {e}"))
    }
}

/// One tool as MCP lists it.
pub fn describe(t: &Tool) -> McpTool {
    McpTool::new(t.name, t.description, (t.input)())
        .with_title(t.title)
        .with_annotations(
            ToolAnnotations::with_title(t.title)
                .read_only(t.read_only)
                .destructive(t.destructive)
                .idempotent(t.idempotent)
                // Every tool acts on this Signet's own records, not an open world.
                .open_world(false),
        )
}

impl ServerHandler for Server {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(
            ServerCapabilities::builder()
                .enable_tools()
                .enable_resources()
                .build(),
        )
        .with_server_info(Implementation::new("signet", env!("CARGO_PKG_VERSION")))
        .with_instructions(INSTRUCTIONS)
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        rctx: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, McpError> {
        let actor = self.actor(&rctx).await.map_err(protocol_error)?;
        // Only what this key may call.
        Ok(ListToolsResult::with_all_items(
            TOOLS
                .iter()
                .filter(|t| t.need.met_by(&actor))
                .map(describe)
                .collect(),
        ))
    }

    fn get_tool(&self, name: &str) -> Option<McpTool> {
        tools::find(name).map(describe)
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        rctx: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        let Some(tool) = tools::find(&request.name) else {
            return Err(McpError::invalid_params(
                format!("no tool named {}", request.name),
                None,
            ));
        };
        let actor = match self.actor(&rctx).await {
            Ok(a) => a,
            Err(e) => return Ok(failed(&e).into()),
        };
        if !tool.need.met_by(&actor) {
            return Ok(failed(&tool.need.refusal(&actor)).into());
        }
        let args = Value::Object(request.arguments.clone().unwrap_or_default());
        let answer = match tool.name {
            "draft_from_play" | "answer_draft" => {
                let first = tools::draft_step(&self.ctx, &actor, tool, args);
                match drafts::run(
                    &self.ctx,
                    &actor,
                    &rctx,
                    request.request_state.as_deref(),
                    request.input_responses.as_ref(),
                    first,
                )
                .await
                {
                    drafts::Next::Ask(ask) => return Ok(drafts::into_response(ask)),
                    drafts::Next::Done(d) => (*d).and_then(|d| {
                        serde_json::to_value(d).map_err(|e| DomainError::Internal(e.to_string()))
                    }),
                }
            }
            _ => tools::run(&self.ctx, &actor, tool, args).await,
        };
        Ok(match answer {
            Ok(v) => {
                let guidance = drafts::guidance(&v);
                let mut result = CallToolResult::structured(v);
                if let Some(text) = guidance {
                    result.content.insert(0, ContentBlock::text(text));
                }
                result.into()
            }
            Err(e) => failed(&e).into(),
        })
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _rctx: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, McpError> {
        // Every resource is named by a template; there are no fixed ones.
        Ok(ListResourcesResult::default())
    }

    async fn list_resource_templates(
        &self,
        _request: Option<PaginatedRequestParams>,
        _rctx: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, McpError> {
        Ok(ListResourceTemplatesResult::with_all_items(
            resources::templates(),
        ))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        rctx: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, McpError> {
        let actor = self.actor(&rctx).await.map_err(protocol_error)?;
        resources::read(&self.ctx, &actor, &request.uri)
            .await
            .map(Into::into)
            .map_err(|e| match e {
                DomainError::NotFound(m) => {
                    McpError::resource_not_found(m, Some(json!({"uri": request.uri})))
                }
                e => protocol_error(e),
            })
    }
}

fn protocol_error(e: DomainError) -> McpError {
    let data = Some(error_value(&e));
    match e {
        DomainError::Invalid(_) => McpError::invalid_params(e.public_message(), data),
        DomainError::Internal(_) => McpError::internal_error(e.public_message(), data),
        _ => McpError::invalid_request(e.public_message(), data),
    }
}

pub type HttpService = StreamableHttpService<Server, sessions::Capped>;

/// Streamable HTTP for `/mcp`, mounted behind the door (which authenticates every request's
/// key, spends its budget and bounds its body). Requests must name this server's own host
/// (from `public_url`) or a loopback one, which keeps DNS-rebinding pages out.
pub fn http_service(ctx: Ctx) -> HttpService {
    let mut hosts = vec![
        "localhost".to_string(),
        "127.0.0.1".to_string(),
        "::1".to_string(),
    ];
    if let Ok(uri) = ctx.public_url.parse::<http::Uri>()
        && let Some(host) = uri.host()
    {
        hosts.push(
            host.trim_start_matches('[')
                .trim_end_matches(']')
                .to_string(),
        );
    }
    let config = StreamableHttpServerConfig::default()
        .with_allowed_hosts(hosts)
        .with_max_request_body_bytes(MAX_BODY);
    StreamableHttpService::new(
        move || Ok(Server::http(ctx.clone())),
        Arc::new(sessions::Capped::default()),
        config,
    )
}
