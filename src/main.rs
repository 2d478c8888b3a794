//! `signet`: the server and its administration commands.

mod listen;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};
use ipnet::IpNet;
use serde_json::{Value, json};
use signet::{Config, Services};
use signet_accounts::keys::KeyCreateIn;
use signet_core::actor::Scopes;
use signet_core::plans::Plan;

// glibc malloc took over a tenth of the server's time under load (bench/RESULTS.md).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;
use signet_accounts::workspaces::WorkspaceIn;
use signet_accounts::{keys, teams, workspaces};
use signet_core::{DomainError, Mode, api_log};
use signet_documents as documents;

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
    Admin(Admin),
}

/// What a `serve` process runs.
#[derive(Clone, Copy, Debug, clap::ValueEnum)]
enum Role {
    /// The API and the job workers.
    All,
    /// The API only.
    Api,
}

#[derive(Subcommand)]
enum Admin {
    #[command(subcommand)]
    Workspace(WorkspaceCmd),
    #[command(subcommand)]
    Key(KeyCmd),
    #[command(subcommand)]
    Team(TeamCmd),
    /// Sends of draft-only keys waiting for a person's decision.
    #[command(subcommand)]
    Approvals(ApprovalCmd),
    /// The certificate authority that seals documents.
    #[command(subcommand)]
    Ca(CaCmd),
    /// A consistent copy of the embedded default (database, files, authority) while it
    /// serves, into a new or empty folder. PostgreSQL: see docs/deploy.md.
    Backup {
        /// The folder to write the backup into.
        #[arg(long)]
        to: std::path::PathBuf,
        #[arg(long)]
        json: bool,
    },
    /// Brings a backup back into an installation without a database yet.
    Restore {
        /// The folder a backup was written into.
        #[arg(long)]
        from: std::path::PathBuf,
        #[arg(long)]
        json: bool,
    },
    /// Email: delivery feedback from the mail server.
    #[command(subcommand)]
    Email(EmailCmd),
    /// Find a request in the API log by its id.
    ApiLog {
        #[arg(long)]
        request_id: String,
        #[arg(long)]
        json: bool,
    },
}

#[derive(Subcommand)]
enum EmailCmd {
    /// Read one delivery status notification (RFC 3464) or abuse feedback report (RFC 5965)
    /// on standard input, as an MTA's pipe gives it, and record what it says about the email
    /// it returns. A report that cannot be read or matched changes nothing and exits non-zero.
    Feedback {
        #[arg(long)]
        json: bool,
    },
    /// Let emails go to an address a bounce or a complaint suppressed in a workspace.
    Unsuppress {
        #[arg(long)]
        workspace: String,
        address: String,
        #[arg(long)]
        json: bool,
    },
}

#[derive(Subcommand)]
enum CaCmd {
    /// Print the root certificate (PEM) for verifiers and PDF readers to trust. It issued the
    /// live sealing and time-stamping certificates; test seals chain to a root of their own.
    Export {
        /// The test root instead: trust it only to check test documents.
        #[arg(long)]
        test: bool,
    },
}

#[derive(Subcommand)]
enum WorkspaceCmd {
    Create {
        #[arg(long)]
        name: String,
        #[arg(long, default_value = "free", value_parser = ["free", "pro"])]
        plan: String,
        #[arg(long, default_value = "UTC")]
        time_zone: String,
        #[arg(long)]
        json: bool,
    },
    /// Change a workspace's settings; an empty --sender-email or --locale clears it.
    Update {
        id: String,
        #[arg(long)]
        name: Option<String>,
        #[arg(long, value_parser = ["free", "pro"])]
        plan: Option<String>,
        /// Where a test document's emails go when the document names no sender address.
        #[arg(long)]
        sender_email: Option<String>,
        /// The language of emails whose person and document name none (en, es, fr, ...).
        #[arg(long)]
        locale: Option<String>,
        /// A website allowed to show embedded signing (https://app.example.com); repeat for
        /// several. The list given replaces the list; `--embed-origin ''` clears it.
        #[arg(long = "embed-origin")]
        embed_origins: Vec<String>,
        /// Embedded signing on or off.
        #[arg(long, value_parser = ["on", "off"])]
        embedding: Option<String>,
        #[arg(long)]
        json: bool,
    },
}

#[derive(Subcommand)]
enum KeyCmd {
    /// Make a key. It is printed once and never again.
    Create(KeyCreateArgs),
    List {
        #[arg(long)]
        workspace: String,
        #[arg(long)]
        json: bool,
    },
    Revoke {
        id: String,
        #[arg(long)]
        json: bool,
    },
}

#[derive(Args)]
struct KeyCreateArgs {
    #[arg(long)]
    workspace: String,
    #[arg(long, value_parser = ["test", "live"])]
    mode: String,
    /// Comma-separated scope names.
    #[arg(long, conflicts_with = "all_scopes")]
    scopes: Option<String>,
    #[arg(long)]
    all_scopes: bool,
    /// Drafts only: sends file an approval instead.
    #[arg(long)]
    draft_only: bool,
    /// Drafts and sends a day (UTC).
    #[arg(long)]
    daily_limit: Option<u64>,
    /// Requests a minute (default: the plan's budget).
    #[arg(long)]
    per_minute: Option<u64>,
    /// Allowed client addresses (CIDR); repeat for several.
    #[arg(long = "allow")]
    allow: Vec<String>,
    /// Lifetime such as 90d, 12h, 30m.
    #[arg(long)]
    expires_in: Option<String>,
    #[arg(long)]
    name: Option<String>,
    #[arg(long)]
    json: bool,
}

#[derive(Subcommand)]
enum ApprovalCmd {
    List {
        #[arg(long)]
        workspace: String,
        /// pending, approved or declined; all when left out.
        #[arg(long, value_parser = ["pending", "approved", "declined"])]
        state: Option<String>,
        #[arg(long)]
        json: bool,
    },
    /// Approve: the document is sent now.
    Approve {
        id: String,
        /// Who decides (an email or a name), kept in the audit trail.
        #[arg(long)]
        by: String,
        #[arg(long)]
        json: bool,
    },
    /// Decline: the document stays a draft.
    Decline {
        id: String,
        #[arg(long)]
        by: String,
        #[arg(long)]
        note: Option<String>,
        #[arg(long)]
        json: bool,
    },
}

#[derive(Subcommand)]
enum TeamCmd {
    Create {
        #[arg(long)]
        workspace: String,
        #[arg(long)]
        name: String,
        #[arg(long)]
        json: bool,
    },
    AddMember {
        #[arg(long)]
        team: String,
        #[arg(long)]
        email: String,
        #[arg(long)]
        name: String,
        #[arg(long, default_value = "member", value_parser = ["admin", "member"])]
        role: String,
        #[arg(long)]
        json: bool,
    },
    List {
        #[arg(long)]
        workspace: String,
        #[arg(long)]
        json: bool,
    },
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

struct Failure {
    message: String,
    json: bool,
    /// The exit status: 1, or 75 (EX_TEMPFAIL) when a mail server should try again later.
    code: u8,
}

/// An error after which the caller should try again later: an MTA piping a report into
/// `signet admin email feedback` defers the message instead of dropping it.
#[derive(Debug)]
struct TryLater(String);

impl std::fmt::Display for TryLater {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for TryLater {}

trait OrFail<T> {
    fn or_fail(self, json: bool) -> Result<T, Failure>;
}

impl<T, E: std::fmt::Display> OrFail<T> for Result<T, E> {
    fn or_fail(self, json: bool) -> Result<T, Failure> {
        self.map_err(|e| Failure {
            message: format!("{e:#}"),
            json,
            code: 1,
        })
    }
}

/// Prints `value` as JSON, or `text` for people.
fn out(json: bool, value: Value, text: String) {
    if json {
        println!("{value}");
    } else {
        println!("{text}");
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
        Command::Admin(cmd @ (Admin::Backup { .. } | Admin::Restore { .. })) => {
            let json = admin_json(&cmd);
            // Files only: no database connection, no migration (a restore has no database).
            let Some(database) = signet_storage::db::sqlite_path(&config.database_url()) else {
                return Err(Failure {
                    message: "backup and restore are for the embedded default; back up \
                              PostgreSQL with pg_dump and the files with them (docs/deploy.md)"
                        .into(),
                    json,
                    code: 1,
                });
            };
            if config.blob_url.is_some() {
                return Err(Failure {
                    message: "backup and restore copy the files of <data_dir>/blobs; with \
                              blob_url the files are in the bucket: back it up with its own \
                              tools (docs/deploy.md)"
                        .into(),
                    json,
                    code: 1,
                });
            }
            let blobs = config.data_dir.join("blobs");
            let ca_dir = config.ca_dir();
            let secret = config.data_dir.join("secret.key");
            let parts = signet_storage::backup::Parts {
                database: &database,
                blobs: &blobs,
                ca_dir: &ca_dir,
                secret_key: config.secret_key.is_none().then_some(secret.as_path()),
            };
            match cmd {
                Admin::Backup { to, .. } => {
                    let m = signet_storage::backup::backup(&parts, &to).or_fail(json)?;
                    if json {
                        println!("{}", serde_json::json!({"to": to, "manifest": m}));
                        return Ok(());
                    }
                    eprintln!(
                        "signet: backed up {} documents and {} files into {}",
                        m.documents,
                        m.files,
                        to.display()
                    );
                    if !m.missing.is_empty() {
                        eprintln!(
                            "signet: {} files the database names are not in the copy (removed while copying, or missing before): {}",
                            m.missing.len(),
                            m.missing.join(", ")
                        );
                    }
                }
                Admin::Restore { from, .. } => {
                    let m = signet_storage::backup::restore(&from, &parts).or_fail(json)?;
                    if json {
                        println!("{}", serde_json::json!({"from": from, "manifest": m}));
                        return Ok(());
                    }
                    eprintln!(
                        "signet: restored {} documents and {} files from {}",
                        m.documents,
                        m.files,
                        from.display()
                    );
                }
                _ => unreachable!(),
            }
            Ok(())
        }
        Command::Admin(Admin::Ca(CaCmd::Export { test })) => {
            // The embedded default needs only the authority's folder; with PostgreSQL the
            // authority is in the database.
            let authority = if config.is_postgres() {
                let db = signet_storage::Db::connect(&config.database_url())
                    .await
                    .map_err(anyhow::Error::from)
                    .or_fail(false)?;
                let secret = config.secret().or_fail(false)?;
                signet::authority::load(&config, &db, &secret)
                    .await
                    .or_fail(false)?
            } else {
                signet::authority(&config).or_fail(false)?
            };
            print!(
                "{}",
                if test {
                    authority.test_root_pem()
                } else {
                    authority.root_pem()
                }
            );
            Ok(())
        }
        Command::Admin(cmd) => {
            let json = admin_json(&cmd);
            // An MTA's pipe keeps a report when the database is away, rather than dropping it.
            let later = matches!(cmd, Admin::Email(EmailCmd::Feedback { .. }));
            let Services { ctx, log_writer } =
                signet::services(&config).await.map_err(|e| Failure {
                    message: format!("{e:#}"),
                    json,
                    code: if later { 75 } else { 1 },
                })?;
            let result = admin(&ctx, cmd).await.map_err(|e| Failure {
                code: if e.downcast_ref::<TryLater>().is_some() {
                    75
                } else {
                    1
                },
                message: format!("{e:#}"),
                json,
            });
            log_writer.stop().await;
            result
        }
    }
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

fn admin_json(cmd: &Admin) -> bool {
    match cmd {
        Admin::Workspace(WorkspaceCmd::Create { json, .. })
        | Admin::Workspace(WorkspaceCmd::Update { json, .. })
        | Admin::Key(KeyCmd::Create(KeyCreateArgs { json, .. }))
        | Admin::Key(KeyCmd::List { json, .. })
        | Admin::Key(KeyCmd::Revoke { json, .. })
        | Admin::Team(TeamCmd::Create { json, .. })
        | Admin::Team(TeamCmd::AddMember { json, .. })
        | Admin::Team(TeamCmd::List { json, .. })
        | Admin::Approvals(ApprovalCmd::List { json, .. })
        | Admin::Approvals(ApprovalCmd::Approve { json, .. })
        | Admin::Approvals(ApprovalCmd::Decline { json, .. })
        | Admin::ApiLog { json, .. }
        | Admin::Email(EmailCmd::Feedback { json })
        | Admin::Email(EmailCmd::Unsuppress { json, .. })
        | Admin::Backup { json, .. }
        | Admin::Restore { json, .. } => *json,
        Admin::Ca(_) => false,
    }
}

/// `90d`, `12h`, `30m`, `45s` as milliseconds.
fn parse_duration(s: &str) -> Result<i64, DomainError> {
    let bad = || {
        DomainError::invalid(
            "expires-in",
            format!("'{s}' is not a duration such as 90d, 12h or 30m"),
        )
    };
    let (num, unit) = s.split_at(s.find(|c: char| !c.is_ascii_digit()).ok_or_else(bad)?);
    let n: i64 = num.parse().map_err(|_| bad())?;
    let unit_ms = match unit {
        "s" => 1_000,
        "m" => 60_000,
        "h" => 3_600_000,
        "d" => 86_400_000,
        _ => return Err(bad()),
    };
    n.checked_mul(unit_ms).filter(|ms| *ms > 0).ok_or_else(bad)
}

async fn admin(ctx: &signet_core::Ctx, cmd: Admin) -> anyhow::Result<()> {
    match cmd {
        Admin::Workspace(WorkspaceCmd::Create {
            name,
            plan,
            time_zone,
            json,
        }) => {
            let plan = Plan::parse(&plan).unwrap_or(Plan::Free);
            let w = workspaces::create(
                ctx,
                WorkspaceIn {
                    name,
                    plan,
                    time_zone,
                },
            )
            .await?;
            out(
                json,
                json!({"id": w.id, "name": w.name, "plan": w.plan, "timeZone": w.time_zone}),
                w.id,
            );
        }
        Admin::Workspace(WorkspaceCmd::Update {
            id,
            name,
            plan,
            sender_email,
            locale,
            embed_origins,
            embedding,
            json,
        }) => {
            let w = workspaces::update(
                ctx,
                &id,
                workspaces::WorkspacePatch {
                    name,
                    plan: plan.as_deref().and_then(Plan::parse),
                    sender_email,
                    locale,
                    embed_origins: (!embed_origins.is_empty()).then_some(embed_origins),
                    embedding: embedding.map(|e| e == "on"),
                },
            )
            .await?;
            let text = format!(
                "{} ({}): sender email {}, language {}, embedding {} for {}",
                w.workspace.id,
                w.workspace.name,
                w.sender_email.as_deref().unwrap_or("none"),
                w.locale.as_deref().unwrap_or("none"),
                if w.embedding { "on" } else { "off" },
                if w.embed_origins.is_empty() {
                    "no website".to_string()
                } else {
                    w.embed_origins.join(", ")
                }
            );
            out(json, serde_json::to_value(&w)?, text);
        }
        Admin::Key(KeyCmd::Create(a)) => {
            let scopes = match (&a.scopes, a.all_scopes) {
                (_, true) => Scopes::all(),
                (Some(list), false) => {
                    Scopes::parse(list.split(',')).map_err(|e| DomainError::invalid("scopes", e))?
                }
                (None, false) => {
                    return Err(DomainError::invalid(
                        "scopes",
                        "give --scopes a,b,... or --all-scopes",
                    )
                    .into());
                }
            };
            let allow = a
                .allow
                .iter()
                .map(|c| {
                    c.parse::<IpNet>()
                        .or_else(|_| c.parse::<std::net::IpAddr>().map(IpNet::from))
                        .map_err(|_| {
                            DomainError::invalid(
                                "allow",
                                format!("'{c}' is not an address or CIDR range"),
                            )
                        })
                })
                .collect::<Result<Vec<_>, _>>()?;
            let expires_at = a
                .expires_in
                .as_deref()
                .map(parse_duration)
                .transpose()?
                .map(|ms| signet_storage::now_ms() + ms);
            let mode = Mode::parse(&a.mode).unwrap_or(Mode::Test);
            let (k, token) = keys::create(
                ctx,
                KeyCreateIn {
                    draft_only: a.draft_only,
                    daily_limit: a.daily_limit,
                    per_minute: a.per_minute,
                    allow,
                    expires_at,
                    name: a.name,
                    ..KeyCreateIn::new(&a.workspace, mode, scopes)
                },
            )
            .await?;
            let mut value = serde_json::to_value(&k)?;
            value["key"] = json!(token);
            out(
                a.json,
                value,
                format!("{}\n{token}\n(the key is shown only now)", k.id),
            );
        }
        Admin::Key(KeyCmd::List { workspace, json }) => {
            let list = keys::list(ctx, &workspace).await?;
            let text = list
                .iter()
                .map(|k| {
                    let state = if k.revoked_at.is_some() {
                        "revoked"
                    } else {
                        "active"
                    };
                    format!(
                        "{}  {}  …{}  {}  {}",
                        k.id,
                        k.mode.as_str(),
                        k.hint,
                        state,
                        k.name.as_deref().unwrap_or("")
                    )
                })
                .collect::<Vec<_>>()
                .join("\n");
            out(json, json!({"data": list}), text);
        }
        Admin::Key(KeyCmd::Revoke { id, json }) => {
            let k = keys::revoke(ctx, &id).await?;
            out(json, serde_json::to_value(&k)?, format!("{} revoked", k.id));
        }
        Admin::Team(TeamCmd::Create {
            workspace,
            name,
            json,
        }) => {
            let t = teams::create(ctx, &workspace, &name).await?;
            out(json, json!({"id": t.id, "name": t.name}), t.id);
        }
        Admin::Team(TeamCmd::AddMember {
            team,
            email,
            name,
            role,
            json,
        }) => {
            let m = teams::add_member(ctx, &team, &email, &name, &role).await?;
            out(
                json,
                serde_json::to_value(&m)?,
                format!("{} added", m.email),
            );
        }
        Admin::Team(TeamCmd::List { workspace, json }) => {
            let t = teams::list_for(ctx, &workspace).await?;
            let text = t
                .teams
                .iter()
                .map(|t| format!("{}  {} ({} members)", t.id, t.name, t.members.len()))
                .collect::<Vec<_>>()
                .join("\n");
            out(json, serde_json::to_value(&t)?, text);
        }
        Admin::Approvals(ApprovalCmd::List {
            workspace,
            state,
            json,
        }) => {
            let list = documents::approvals_list(ctx, &workspace, state.as_deref()).await?;
            let text = list
                .iter()
                .map(|a| {
                    let of = a
                        .document_id
                        .clone()
                        .or(a.template_id.clone())
                        .unwrap_or_default();
                    format!("{}  {}  {}  {}", a.id, a.state, of, a.created_at)
                })
                .collect::<Vec<_>>()
                .join("\n");
            out(json, json!({"data": list}), text);
        }
        Admin::Approvals(ApprovalCmd::Approve { id, by, json }) => {
            let a = documents::approvals_decide(ctx, &id, true, &by, None).await?;
            out(
                json,
                serde_json::to_value(&a)?,
                match (&a.document_id, &a.template_id) {
                    (Some(d), _) => format!("{} approved; {d} sent", a.id),
                    (None, Some(t)) => format!("{} approved; {t} is listed for sending", a.id),
                    _ => format!("{} approved", a.id),
                },
            );
        }
        Admin::Approvals(ApprovalCmd::Decline { id, by, note, json }) => {
            let a = documents::approvals_decide(ctx, &id, false, &by, note).await?;
            out(
                json,
                serde_json::to_value(&a)?,
                format!("{} declined", a.id),
            );
        }
        Admin::Email(EmailCmd::Feedback { json }) => {
            use signet_email::feedback;
            use std::io::Read as _;
            let mut raw = Vec::new();
            std::io::stdin()
                .take(feedback::MAX_REPORT_BYTES as u64 + 1)
                .read_to_end(&mut raw)?;
            let f = match feedback::apply(ctx, &raw).await {
                Ok(f) => f,
                // The report is wrong: refusing it for good is right.
                Err(e @ (DomainError::Invalid(_) | DomainError::NotFound(_))) => {
                    return Err(e.into());
                }
                // Signet could not record it (the database is away): the MTA keeps it.
                Err(e) => return Err(TryLater(format!("try again later: {e}")).into()),
            };
            let text = format!(
                "{}: {} (status {}{}): {}",
                f.email_id,
                f.outcome,
                f.status,
                if f.suppressed {
                    ", address suppressed"
                } else {
                    ""
                },
                f.detail
            );
            out(json, serde_json::to_value(&f)?, text);
        }
        Admin::Email(EmailCmd::Unsuppress {
            workspace,
            address,
            json,
        }) => {
            let lifted = signet_email::feedback::unsuppress(ctx, &workspace, &address).await?;
            let text = if lifted {
                format!("{address} may receive email again in {workspace}")
            } else {
                format!("{address} was not suppressed in {workspace}")
            };
            out(json, json!({"address": address, "lifted": lifted}), text);
        }
        Admin::ApiLog { request_id, json } => {
            let e = api_log::find(&ctx.db, &request_id).await?;
            let text = format!(
                "{} {} {} -> {} {} ({} µs, key {})",
                e.request_id,
                e.method,
                e.route,
                e.status,
                e.error_kind.as_deref().unwrap_or(""),
                e.duration_us,
                e.key_id.as_deref().unwrap_or("none")
            );
            out(json, serde_json::to_value(&e)?, text);
        }
        Admin::Ca(CaCmd::Export { test: false }) => {
            print!("{}", signet_documents::services(ctx).authority.root_pem())
        }
        Admin::Ca(CaCmd::Export { test: true }) => print!(
            "{}",
            signet_documents::services(ctx).authority.test_root_pem()
        ),
        // Handled before any database is opened.
        Admin::Backup { .. } | Admin::Restore { .. } => {}
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::parse_duration;

    #[test]
    fn durations() {
        assert_eq!(parse_duration("90d").unwrap(), 90 * 86_400_000);
        assert_eq!(parse_duration("30m").unwrap(), 1_800_000);
        for bad in ["", "d", "10", "10w", "0h", "-5m"] {
            assert!(parse_duration(bad).is_err(), "{bad}");
        }
    }
}
