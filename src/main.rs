//! `signet`: the server and its administration commands.

mod admin;
mod listen;
mod output;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use serde_json::json;
use signet::Config;

use output::{Failure, OrFail};

// glibc malloc took over a tenth of the server's time under load (bench/RESULTS.md). The
// `system-allocator` feature keeps the C library's, for heap profilers that watch malloc
// (heaptrack; bench/README.md).
#[cfg(not(feature = "system-allocator"))]
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(Parser)]
#[command(
    name = "signet",
    version,
    about = "Signet: self-hostable electronic signatures"
)]
struct Cli {
    /// Configuration file (default: ./signet.toml when present, or SIGNET_CONFIG).
    #[arg(long, global = true)]
    config: Option<PathBuf>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Serve the API, GraphQL and the pages.
    Serve {
        /// `all` (the default, or the `workers` setting): the API and the job workers; `api`:
        /// the API only, beside `signet worker` processes.
        #[arg(long, value_enum)]
        role: Option<Role>,
    },
    /// Run only the background work: rendering, sealing, email, webhook delivery and the
    /// scheduler (beside API-only `serve` processes).
    Worker,
    /// Forward a relay endpoint's deliveries to a local receiver.
    Listen(listen::ListenArgs),
    /// Apply database migrations (needed before `serve` on PostgreSQL).
    Migrate,
    /// Administer workspaces, keys, teams and the API log.
    #[command(subcommand)]
    Admin(admin::Admin),
    /// The tool server for AI assistants (MCP) on standard input and output, acting with the
    /// API key in SIGNET_API_KEY. Logs go to standard error. Over HTTP, `signet serve`
    /// answers it at /mcp. Emails, rendering and sealing are done by a running `serve` or
    /// `worker` sharing the database.
    Mcp {
        /// Speak MCP on standard input and output.
        #[arg(long)]
        stdio: bool,
    },
}

/// What a `serve` process runs.
#[derive(Clone, Copy, Debug, clap::ValueEnum)]
enum Role {
    /// The API and the job workers.
    All,
    /// The API only.
    Api,
}

fn main() -> ExitCode {
    signet::crypto();
    let cli = Cli::parse();
    let config = match Config::load(cli.config.as_deref()) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("signet: {e:#}");
            return ExitCode::from(2);
        }
    };
    init_logging(&config);
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => {
            eprintln!("signet: cannot start the runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    match runtime.block_on(run(cli.command, config)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure {
            message,
            json,
            code,
        }) => {
            if json {
                println!("{}", json!({"error": {"message": message}}));
            }
            eprintln!("signet: {message}");
            ExitCode::from(code)
        }
    }
}

fn init_logging(config: &Config) {
    let filter = tracing_subscriber::EnvFilter::try_from_env("SIGNET_LOG")
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info,sqlx=warn,sea_orm=warn"));
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr);
    if config.log_format == "json" {
        builder.json().init();
    } else {
        builder.init();
    }
}

async fn run(command: Command, config: Config) -> Result<(), Failure> {
    match command {
        Command::Serve { role } => {
            let mut config = config;
            match role {
                Some(Role::Api) => config.workers = false,
                Some(Role::All) => config.workers = true,
                None => {}
            }
            serve(config).await.or_fail(false)
        }
        Command::Worker => signet::work(&config, shutdown_signal())
            .await
            .or_fail(false),
        Command::Listen(args) => listen::run(args).await.or_fail(false),
        Command::Migrate => {
            let db = signet_storage::Db::connect(&config.database_url())
                .await
                .or_fail(false)?;
            db.migrate().await.or_fail(false)?;
            eprintln!("signet: migrations applied");
            Ok(())
        }
        Command::Admin(cmd) => admin::run(cmd, &config).await,
        Command::Mcp { stdio } => mcp(stdio, &config).await,
    }
}

async fn mcp(stdio: bool, config: &Config) -> Result<(), Failure> {
    let fail = |message: String| Failure {
        message,
        json: false,
        code: 2,
    };
    if !stdio {
        return Err(fail(
            "mcp: pass --stdio (over HTTP, `signet serve` answers MCP at /mcp)".into(),
        ));
    }
    let key = std::env::var("SIGNET_API_KEY")
        .ok()
        .filter(|k| !k.trim().is_empty())
        .ok_or_else(|| {
            fail("mcp: set SIGNET_API_KEY to the API key the assistant acts with".into())
        })?;
    let signet::Services { ctx, log_writer } = signet::services(config).await.or_fail(false)?;
    let local = std::net::IpAddr::V4(std::net::Ipv4Addr::LOCALHOST);
    let checked = signet_accounts::keys::authenticate(&ctx, key.trim(), local).await;
    let result = match checked {
        Err(_) => Err(fail(
            "mcp: SIGNET_API_KEY is not a valid key of this Signet (wrong, revoked, expired, or not allowed from this address)".into(),
        )),
        Ok(_) => {
            tracing::info!("mcp: serving on standard input and output");
            signet_mcp::Server::stdio(ctx, key.trim())
                .serve_stdio()
                .await
                .or_fail(false)
        }
    };
    log_writer.stop().await;
    result
}

async fn serve(config: Config) -> anyhow::Result<()> {
    let server = signet::start(&config, &[]).await?;
    tracing::info!(
        addr = %server.addr,
        database = if config.is_postgres() { "postgres" } else { "sqlite" },
        redis = config.redis_url.is_some(),
        "signet is listening"
    );
    // A newcomer's first question after sending: where did my invitation go?
    tracing::info!(
        links = %server.ctx.public_url,
        "email goes to {}",
        signet_email::send::mail(&server.ctx).transport.describe()
    );
    shutdown_signal().await;
    tracing::info!("shutting down");
    server.stop().await
}

async fn shutdown_signal() {
    let ctrl_c = tokio::signal::ctrl_c();
    #[cfg(unix)]
    {
        let mut term =
            match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
                Ok(t) => t,
                Err(_) => {
                    let _ = ctrl_c.await;
                    return;
                }
            };
        tokio::select! { _ = ctrl_c => {}, _ = term.recv() => {} }
    }
    #[cfg(not(unix))]
    let _ = ctrl_c.await;
}
