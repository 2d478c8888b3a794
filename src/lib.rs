//! The `signet` binary's library half: configuration, wiring of the layers, and the server
//! start-up shared by `signet serve` and the test suite.

pub mod authority;
pub mod config;
mod http;
mod jobs;
pub mod mail;
mod render;

use std::net::SocketAddr;
use std::time::Duration;

use anyhow::Context as _;
use signet_core::Ctx;
use signet_core::api_log::{ApiLogSink, ApiLogWriter};
use signet_rest::{AppState, HttpConfig, Route};
use signet_storage::state::{Budget, Daily, Idempotency, RedisState};
use signet_storage::{Backend, Db};
use tokio::task::JoinHandle;

pub use config::Config;
pub use jobs::jobs;

/// The services, with the API log writer that must be awaited after the last request.
pub struct Services {
    pub ctx: Ctx,
    pub log_writer: ApiLogWriter,
}

/// Connects storage and builds the services. The embedded default (SQLite) is migrated here;
/// PostgreSQL must be migrated with `signet migrate` first, and says so.
pub async fn services(config: &Config) -> anyhow::Result<Services> {
    config.ensure_data_dir()?;
    let db = database(config).await?;
    let (budget, idempotency, daily) = match &config.redis_url {
        Some(url) => {
            let redis = RedisState::connect(url, &config.redis_prefix)
                .await
                .with_context(|| "redis_url (REDIS_URL): cannot connect")?;
            (
                Budget::redis(redis.clone()).with_clock(db.clock.clone()),
                Idempotency::Redis(redis.clone()),
                Daily::Redis(redis),
            )
        }
        None => (
            Budget::in_process().with_clock(db.clock.clone()),
            Idempotency::sql(db.clone()),
            Daily::Sql(db.clone()),
        ),
    };
    let pubsub = match &config.redis_url {
        Some(url) => Some(
            signet_storage::state::PubSub::connect(url, &config.redis_prefix)
                .await
                .with_context(|| "redis_url (REDIS_URL): cannot connect")?,
        ),
        None => None,
    };
    // Jobs are rows in the database either way; with Redis, Redis carries their dispatch.
    let queue = match &config.redis_url {
        Some(url) => signet_queue::Queue::with_redis(db.clone(), url, &config.redis_prefix)
            .await
            .with_context(|| "redis_url (REDIS_URL): cannot connect")?,
        None => signet_queue::Queue::new(db.clone()),
    };
    let secret = config.secret()?;
    let blobs = config.blobs()?;
    if blobs.folder().is_none() {
        blobs.check().await.with_context(|| {
            format!(
                "blob_url (SIGNET_BLOB_URL): cannot use {}; check the bucket exists and \
                 blob_endpoint, blob_region and the credentials",
                blobs.describe()
            )
        })?;
    }
    let documents = signet_documents::DocumentServices {
        renderer: std::sync::Arc::new(render::PdfRenderer::default()),
        authority: std::sync::Arc::new(authority::load(config, &db, &secret).await?),
        stamping: match &config.tsa_url {
            Some(url) => signet_documents::stamping::Stamping::external(
                url.clone(),
                config.tsa_fallback_url.clone(),
                Duration::from_secs(config.tsa_timeout_secs),
            )
            .map_err(|e| anyhow::anyhow!("tsa_url (SIGNET_TSA_URL): {e}"))?,
            None => signet_documents::stamping::Stamping::built_in(),
        },
        max_pages: config.max_pages,
        reads: Default::default(),
    };
    let (api_log, log_writer) = ApiLogSink::spawn(db.clone());
    let transport = mail::transport(config)?;
    // Every service of every resource crate is registered here, in one place.
    let ctx = Ctx::new(signet_core::ctx::Foundation {
        db,
        budget,
        idempotency,
        daily,
        secret: secret.clone(),
        plans: config.plans.clone(),
        api_log,
        blobs,
        live: signet_core::live::StatusBus::new(pubsub),
        public_url: config.public_url(),
        queue,
    })
    .with(documents)
    .with(signet_webhooks::Hooks::new(
        signet_webhooks::guard::Policy {
            allow_private: config.webhooks_allow_private,
            allow_http: config.webhooks_allow_http,
        },
    ))
    .with(signet_email::send::Mail {
        lease_ms: config.mail_lease_secs as i64 * 1000,
        ..signet_email::send::Mail::new(transport)
    })
    .with(signet_accounts::keys::KeyCache::default())
    .with(config.ai()?)
    .with(config.stripe()?);
    same_authority(&ctx).await?;
    Ok(Services { ctx, log_writer })
}

/// The database, migrated: the embedded default migrates itself, PostgreSQL must have been
/// migrated by `signet migrate`.
async fn database(config: &Config) -> anyhow::Result<Db> {
    let db = Db::connect(&config.database_url())
        .await
        .with_context(|| "database_url (DATABASE_URL): cannot connect")?;
    match db.backend {
        Backend::Sqlite => db
            .migrate()
            .await
            .context("migrating the SQLite database")?,
        Backend::Postgres => {
            let pending = pending_migrations(&db.conn).await?;
            anyhow::ensure!(
                pending == 0,
                "the PostgreSQL database has {pending} pending migration(s): run `signet migrate` first"
            );
        }
    }
    Ok(db)
}

/// Refuses to run with another certificate authority than the one the installation's
/// documents are sealed under (its roots are recorded by the first process).
async fn same_authority(ctx: &Ctx) -> anyhow::Result<()> {
    // Embedded, each process reads the folder; with PostgreSQL the database holds the
    // authority, so a mismatch means it was changed by hand.
    let remedy = match ctx.db.backend {
        Backend::Sqlite => "every process must share one ca_dir: copy it from the first host",
        Backend::Postgres => {
            "the authority stored in the database (installation.ca_authority) is not the one \
             the installation began with: restore that row from a backup"
        }
    };
    let root = hex_sha256(signet_documents::services(ctx).authority.root_der());
    if let Some(recorded) = signet_core::installation::agree(&ctx.db, "ca_root_sha256", &root)
        .await
        .context("recording the certificate authority")?
    {
        anyhow::bail!(
            "ca_dir (SIGNET_CA_DIR): this process's root certificate (SHA-256 {root}) is not the \
             one this database's documents are sealed under (SHA-256 {recorded}); {remedy}"
        );
    }
    let test_root = hex_sha256(signet_documents::services(ctx).authority.test_root_der());
    if let Some(recorded) =
        signet_core::installation::agree(&ctx.db, "ca_test_root_sha256", &test_root)
            .await
            .context("recording the certificate authority's test root")?
    {
        anyhow::bail!(
            "ca_dir (SIGNET_CA_DIR): this process's test root certificate (SHA-256 {test_root}) \
             is not the one this installation seals test documents under (SHA-256 {recorded}); \
             {remedy}"
        );
    }
    Ok(())
}

/// Makes ring the TLS clients' crypto provider (the one crypto backend:
/// docs/decisions/operations.md), before any client is built: webhooks, SMTP and the bucket's.
/// Called again, it does nothing.
pub fn crypto() {
    let _ = rustls::crypto::ring::default_provider().install_default();
}

/// SHA-256 in lowercase hex.
pub(crate) fn hex_sha256(data: &[u8]) -> String {
    let digest = ring::digest::digest(&ring::digest::SHA256, data);
    digest.as_ref().iter().map(|b| format!("{b:02x}")).collect()
}

/// The certificate authority of the embedded default, in `ca_dir` (see [`authority`]).
pub fn authority(config: &Config) -> anyhow::Result<signet_seal::Authority> {
    authority::from_folder(config)
}

async fn pending_migrations(
    conn: &signet_storage::sea_orm::DatabaseConnection,
) -> anyhow::Result<usize> {
    use signet_storage::migrations::Migrator;
    use signet_storage::sea_orm_migration::MigratorTrait;
    Ok(Migrator::get_pending_migrations(conn).await?.len())
}

/// A running server.
pub struct Server {
    pub addr: SocketAddr,
    pub ctx: Ctx,
    shutdown: tokio::sync::oneshot::Sender<()>,
    task: JoinHandle<anyhow::Result<()>>,
}

impl Server {
    /// Stops accepting, finishes requests in flight, and flushes the API log.
    pub async fn stop(self) -> anyhow::Result<()> {
        let _ = self.shutdown.send(());
        self.task.await?
    }
}

/// Binds `config.listen` and serves. `extra` rows join the route table (tests use it).
pub async fn start(config: &Config, extra: &'static [Route]) -> anyhow::Result<Server> {
    // Before anything touches the database: a second `serve` must not migrate it either.
    let serving = match signet_storage::db::sqlite_path(&config.database_url()) {
        Some(file) => {
            config.ensure_data_dir()?;
            Some(serve_lock(&file)?)
        }
        None => None,
    };
    let listener = tokio::net::TcpListener::bind(config.listen)
        .await
        .with_context(|| format!("listen (SIGNET_LISTEN): cannot bind {}", config.listen))?;
    let addr = listener.local_addr()?;
    // Without a public URL, the address actually bound (a port chosen by the system
    // included): links in emails and the application's same-origin check name it.
    if config.public_url.is_none() && addr.ip().is_unspecified() {
        tracing::warn!(
            "public_url is not set and Signet listens on every address: links in emails and the \
             application's same-origin check name http://{addr}, which no browser opens; set \
             SIGNET_PUBLIC_URL to the address people reach this installation at"
        );
    }
    let bound;
    let config = if config.public_url.is_none() {
        bound = Config {
            public_url: Some(format!("http://{addr}")),
            ..config.clone()
        };
        &bound
    } else {
        config
    };
    let Services { ctx, log_writer } = services(config).await?;
    let state = AppState::new(
        ctx.clone(),
        HttpConfig {
            trusted_proxies: config.trusted_proxies.clone(),
            anonymous_per_minute: config.anonymous_per_minute,
            body_timeout: Duration::from_secs(config.body_timeout_secs),
            sockets: signet_rest::SocketLimits {
                init_timeout: Duration::from_secs(config.socket_init_timeout_secs),
                lifetime: Duration::from_secs(config.socket_lifetime_secs),
            },
            email_feedback_secret: config.email_feedback_secret.clone(),
            metrics_token: config.metrics_token.clone(),
        },
    );
    let app = signet_rest::router(state, extra);
    let (tx, rx) = tokio::sync::oneshot::channel::<()>();
    let key_watch = tokio::spawn(signet_accounts::keys::watch(ctx.clone()));
    let background = signet_workers::spawn(&ctx, settings(config, config.workers), &jobs());
    let grace = Duration::from_secs(config.shutdown_timeout_secs);
    let limits = http::Limits {
        max_connections: http::fitting(config.max_connections),
        header_timeout: Duration::from_secs(config.header_timeout_secs),
        write_timeout: Duration::from_secs(config.body_timeout_secs),
        drain: grace,
    };
    let stopping_ctx = ctx.clone();
    let task = tokio::spawn(async move {
        // One deadline for everything from the moment the stop is asked: the requests in
        // flight finish, the job runners finish their pass, then what is left is given back.
        let begun = std::sync::OnceLock::new();
        let served = http::serve(listener, app, limits, async {
            let _ = rx.await;
            let _ = begun.set(tokio::time::Instant::now());
            background.stopping();
        })
        .await;
        let deadline = *begun.get_or_init(tokio::time::Instant::now) + grace;
        background.stop(&stopping_ctx, deadline).await;
        stop_all([key_watch]).await;
        log_writer.stop().await;
        drop(serving);
        served.map_err(Into::into)
    });
    Ok(Server {
        addr,
        ctx,
        shutdown: tx,
        task,
    })
}

/// One process serves a SQLite database: its writer thread and the idempotency claims it
/// holds in memory assume so. Held (an advisory lock on `<file>.serve-lock`) while serving,
/// given back when the server stops or the process ends.
fn serve_lock(db: &std::path::Path) -> anyhow::Result<std::fs::File> {
    if let Some(parent) = db.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent)
            .with_context(|| format!("cannot create {}", parent.display()))?;
    }
    // One lock whatever path leads to the file (a symbolic link, a relative path).
    let db = std::fs::canonicalize(db).unwrap_or_else(|_| db.to_path_buf());
    let mut name = db.as_os_str().to_owned();
    name.push(".serve-lock");
    let path = std::path::PathBuf::from(name);
    let file = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
        .with_context(|| format!("cannot open {}", path.display()))?;
    match file.try_lock() {
        Ok(()) => Ok(file),
        Err(std::fs::TryLockError::WouldBlock) => anyhow::bail!(
            "another `signet serve` is already serving {}: the embedded default is served by \
             one process (use PostgreSQL, DATABASE_URL, to run several)",
            db.display()
        ),
        Err(std::fs::TryLockError::Error(e)) => {
            Err(e).with_context(|| format!("cannot lock {}", path.display()))
        }
    }
}

/// Stops background tasks and waits until each is gone, so that no job is left half-way to
/// fail against a runtime that is shutting down; an interrupted job is taken again when its
/// lease runs out.
async fn stop_all(tasks: impl IntoIterator<Item = JoinHandle<()>>) {
    for t in tasks {
        t.abort();
        let _ = t.await;
    }
}

/// What this process's background work is told: `jobs` runs the job workers beside the
/// scheduler.
fn settings(config: &Config, jobs: bool) -> signet_workers::Settings {
    signet_workers::Settings {
        jobs,
        delivery: signet_workers::PoolConfig {
            lease: Duration::from_secs(config.webhook_lease_secs),
            ..Default::default()
        },
        scheduler_every: Duration::from_secs(config.scheduler_interval_secs.max(1)),
        api_log_days: config.api_log_days,
    }
}

/// Runs only the background work (rendering, sealing, email, webhook delivery and the
/// scheduler, `signet-workers`) until `stop` resolves: `signet worker`, for scale-out beside
/// API-only `serve` processes.
pub async fn work(
    config: &Config,
    stop: impl std::future::Future<Output = ()>,
) -> anyhow::Result<()> {
    let Services { ctx, log_writer } = services(config).await?;
    let background = signet_workers::spawn(&ctx, settings(config, true), &jobs());
    stop.await;
    let deadline = tokio::time::Instant::now() + Duration::from_secs(config.shutdown_timeout_secs);
    background.stop(&ctx, deadline).await;
    log_writer.stop().await;
    Ok(())
}
