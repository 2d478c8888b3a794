//! Configuration, layered: built-in defaults, then an optional `signet.toml` (or the file named
//! by `--config` / `SIGNET_CONFIG`), then `SIGNET_*` variables (`SIGNET_LISTEN`,
//! `SIGNET_DATA_DIR`, `SIGNET_PLANS__FREE__REQUESTS_PER_MINUTE`, ...) and the conventional
//! `DATABASE_URL` and `REDIS_URL`. Validated once at start-up; every message names the setting.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};

use figment::Figment;
use figment::providers::{Env, Format, Serialized, Toml};
use ipnet::IpNet;
use secrecy::{ExposeSecret, SecretString};
use serde::{Deserialize, Serialize};
use signet_core::plans::Plans;

mod ai;
mod checks;
mod payments;

#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    /// Address to listen on.
    pub listen: SocketAddr,
    /// Folder for the SQLite file, blobs, keys and the outbox of the embedded default.
    pub data_dir: PathBuf,
    /// `sqlite:PATH` or `postgres://...`; defaults to a SQLite file in `data_dir`.
    pub database_url: Option<String>,
    /// Redis for shared rate budgets and idempotency across processes.
    pub redis_url: Option<String>,
    /// Prefix of every Redis key, so several installations can share one Redis.
    pub redis_prefix: String,
    /// Secret for the keyed hash of API keys. Generated into `data_dir` on the embedded
    /// default; required with PostgreSQL so that every process hashes alike.
    #[serde(serialize_with = "hide", default)]
    pub secret_key: Option<SecretString>,
    /// Proxies whose `X-Forwarded-For` is believed: a list, or one comma-separated string.
    #[serde(deserialize_with = "cidr_list")]
    pub trusted_proxies: Vec<IpNet>,
    /// Per-minute budget of requests without a valid key, per client address.
    pub anonymous_per_minute: u64,
    /// `text` or `json` log lines on stderr.
    pub log_format: String,
    /// Seconds between the scheduler's passes (expiry and reminders).
    pub scheduler_interval_secs: u64,
    /// Webhooks may go to loopback, private and link-local addresses. For development and the
    /// test suite only: it lets a webhook reach into this machine's network.
    pub webhooks_allow_private: bool,
    /// Webhooks may use plain http:// URLs. For development and the test suite only.
    pub webhooks_allow_http: bool,
    /// Seconds a worker reserves a webhook delivery it is making; after a crash the delivery is
    /// made again once this runs out. At least 20 (receivers have 15 s to answer).
    pub webhook_lease_secs: u64,
    /// Whether `serve` also runs the webhook delivery worker. Turn off for API-only processes
    /// when `signet worker` processes deliver.
    pub workers: bool,
    /// The address people and verifiers reach this installation at (`https://sign.example.com`).
    /// When set before the first start, the certificates the built-in authority issues name
    /// `<public_url>/ca/root.crl` as where their revocation list is served.
    pub public_url: Option<String>,
    /// An S3-compatible bucket for rendered and sealed PDFs, template files and page pictures:
    /// `s3://bucket` or `s3://bucket/prefix`. Unset, they stay in `<data_dir>/blobs`. Every
    /// process of an installation on several machines must name the same bucket.
    pub blob_url: Option<String>,
    /// The bucket's S3 API when it is not AWS (`https://s3.example.com`, or
    /// `http://127.0.0.1:8333` for a store on this machine); requests are path-style.
    pub blob_endpoint: Option<String>,
    /// The bucket's region (AWS's `us-east-1` unless `AWS_REGION` or this says otherwise).
    pub blob_region: Option<String>,
    /// The bucket's access key id. Unset, the AWS variables (`AWS_ACCESS_KEY_ID`, ...) or the
    /// machine's instance profile are used.
    pub blob_access_key_id: Option<String>,
    /// The secret that goes with `blob_access_key_id`.
    #[serde(serialize_with = "hide", default)]
    pub blob_secret_access_key: Option<SecretString>,
    /// Folder of the certificate authority (root, sealing and time-stamping keys); defaults to
    /// `<data_dir>/ca`. Scale-out processes must share it so that they seal with one key.
    pub ca_dir: Option<PathBuf>,
    /// A PKCS#12 file (`.p12`, `.pfx`) whose key and certificate seal live documents instead of
    /// the generated sealing certificate. Test documents keep the generated test certificate.
    pub seal_pkcs12: Option<PathBuf>,
    /// The PKCS#12 file's password.
    #[serde(serialize_with = "hide", default)]
    pub seal_pkcs12_password: Option<SecretString>,
    /// An external RFC 3161 time-stamp authority for the seals, instead of the built-in one.
    pub tsa_url: Option<String>,
    /// Tried when `tsa_url` fails or times out.
    pub tsa_fallback_url: Option<String>,
    /// Seconds each external time-stamp request may take.
    pub tsa_timeout_secs: u64,
    /// Connections served at once; more wait to be accepted. Lowered to fit the process's
    /// open-file limit.
    pub max_connections: usize,
    /// Seconds a client has to send a request's headers, and the longest a kept-alive
    /// connection waits idle for its next request.
    pub header_timeout_secs: u64,
    /// Seconds a client has to send a request's body.
    pub body_timeout_secs: u64,
    /// Seconds a GraphQL websocket has to send `connection_init` with a valid key.
    pub socket_init_timeout_secs: u64,
    /// Seconds a GraphQL websocket may stay open; clients reconnect.
    pub socket_lifetime_secs: u64,
    /// Days the API log keeps a request's line.
    pub api_log_days: u64,
    /// Pages a document may have. A source that cannot fit is refused when it is made; one
    /// that lays out longer fails to render, with the reason.
    pub max_pages: usize,
    /// SMTP server for email: `smtp://user:pass@host:587?tls=starttls`, `smtps://...` for
    /// implicit TLS, `smtp://host:25` without TLS. Unset, emails are written as `.eml` files
    /// in `<data_dir>/mail/`.
    #[serde(serialize_with = "hide", default)]
    pub smtp_url: Option<SecretString>,
    /// The sender of every email, such as `Signet <sign@example.com>`; the document's sender
    /// name replaces the display name. Defaults to `Signet <signet@HOST>` of `public_url`.
    pub mail_from: Option<String>,
    /// A PEM certificate the SMTP server's certificate may chain to, besides the public roots
    /// (a company's own authority).
    pub smtp_ca_file: Option<PathBuf>,
    /// Seconds one SMTP conversation may take.
    pub smtp_timeout_secs: u64,
    /// SMTP connections kept open and used at once.
    pub smtp_connections: u32,
    /// Seconds a worker holds the emails of one pass (up to 64). A worker that dies leaves
    /// them to be sent again once this runs out; it should cover a pass's slowest sends.
    pub mail_lease_secs: u64,
    /// The bearer secret of `POST /hooks/email`, where a mail server posts delivery status
    /// notifications and abuse reports (`message/rfc822`). Unset, the route is off.
    #[serde(serialize_with = "hide", default)]
    pub email_feedback_secret: Option<SecretString>,
    /// How long a stopping process (SIGTERM) may take: requests in flight finish, job runners
    /// finish their pass; past it what is left is given back to the queue.
    pub shutdown_timeout_secs: u64,
    /// The bearer token Prometheus sends to `GET /metrics`. Unset, the route is off.
    #[serde(serialize_with = "hide", default)]
    pub metrics_token: Option<SecretString>,
    /// AI drafting's model: `openai` (any server speaking OpenAI's chat completions: OpenAI,
    /// llama.cpp, vLLM, Ollama) or `anthropic`. Unset, AI drafting is refused (docs/ai.md).
    pub ai_provider: Option<String>,
    /// The API's address up to its version; defaults to OpenAI's or Anthropic's own.
    pub ai_base_url: Option<String>,
    /// The model's name at that server; required with `ai_provider`.
    pub ai_model: Option<String>,
    /// The provider's key, when it needs one.
    #[serde(serialize_with = "hide", default)]
    pub ai_api_key: Option<SecretString>,
    /// Seconds one call to the model may take.
    pub ai_timeout_secs: u64,
    /// Tokens the model may write in one call.
    pub ai_max_tokens: u32,
    /// OpenAI's `frequency_penalty` (-2 to 2), sent when set: small local models repeat
    /// themselves without one.
    pub ai_frequency_penalty: Option<f32>,
    /// Tokens one workspace's jobs may spend a day (UTC).
    pub ai_tokens_per_day: u64,
    /// Jobs of one workspace running at once.
    pub ai_jobs_at_once: i64,
    /// Days a job's prompt, brief, words and answer are kept.
    pub ai_keep_days: u64,
    /// The platform's Stripe secret key for live documents (`sk_live_…`, or a restricted
    /// `rk_live_…`). Unset, live documents cannot collect payments (docs/payments.md).
    #[serde(serialize_with = "hide", default)]
    pub stripe_secret_key: Option<SecretString>,
    /// The signing secret (`whsec_…`) of the Connect webhook endpoint registered at Stripe
    /// for live mode, pointing at `{public_url}/hooks/stripe`.
    #[serde(serialize_with = "hide", default)]
    pub stripe_webhook_secret: Option<SecretString>,
    /// The platform's Stripe secret key for test documents (`sk_test_…`).
    #[serde(serialize_with = "hide", default)]
    pub stripe_test_secret_key: Option<SecretString>,
    /// The signing secret of the test-mode Connect webhook endpoint.
    #[serde(serialize_with = "hide", default)]
    pub stripe_test_webhook_secret: Option<SecretString>,
    /// Stripe's API address; only a test suite's stand-in changes it.
    pub stripe_api_base: String,
    pub plans: Plans,
}

fn cidr_list<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<IpNet>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum OneOrMany {
        Many(Vec<String>),
        One(String),
    }
    let items = match OneOrMany::deserialize(d)? {
        OneOrMany::Many(v) => v,
        OneOrMany::One(s) => s.split(',').map(str::to_string).collect(),
    };
    items
        .iter()
        .map(|s| s.trim())
        .filter(|s| !s.is_empty())
        .map(|s| {
            s.parse::<IpNet>()
                .or_else(|_| s.parse::<std::net::IpAddr>().map(IpNet::from))
                .map_err(|_| {
                    serde::de::Error::custom(format!("'{s}' is not an address or CIDR range"))
                })
        })
        .collect()
}

fn hide<S: serde::Serializer>(_: &Option<SecretString>, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_none()
}

impl Default for Config {
    fn default() -> Self {
        Config {
            listen: SocketAddr::from(([127, 0, 0, 1], 8080)),
            data_dir: PathBuf::from("signet-data"),
            database_url: None,
            redis_url: None,
            redis_prefix: "signet:".into(),
            secret_key: None,
            trusted_proxies: vec![],
            anonymous_per_minute: 120,
            log_format: "text".into(),
            scheduler_interval_secs: 30,
            webhooks_allow_private: false,
            webhooks_allow_http: false,
            webhook_lease_secs: 60,
            workers: true,
            public_url: None,
            blob_url: None,
            blob_endpoint: None,
            blob_region: None,
            blob_access_key_id: None,
            blob_secret_access_key: None,
            ca_dir: None,
            seal_pkcs12: None,
            seal_pkcs12_password: None,
            tsa_url: None,
            tsa_fallback_url: None,
            tsa_timeout_secs: 10,
            max_connections: 10_000,
            header_timeout_secs: 15,
            body_timeout_secs: 30,
            socket_init_timeout_secs: 10,
            socket_lifetime_secs: 3600,
            api_log_days: 30,
            max_pages: 500,
            smtp_url: None,
            mail_from: None,
            smtp_ca_file: None,
            smtp_timeout_secs: 30,
            smtp_connections: 8,
            mail_lease_secs: 300,
            email_feedback_secret: None,
            metrics_token: None,
            shutdown_timeout_secs: 30,
            ai_provider: None,
            ai_base_url: None,
            ai_model: None,
            ai_api_key: None,
            ai_timeout_secs: 120,
            ai_max_tokens: 4096,
            ai_frequency_penalty: None,
            ai_tokens_per_day: 500_000,
            ai_jobs_at_once: 2,
            ai_keep_days: 30,
            stripe_secret_key: None,
            stripe_webhook_secret: None,
            stripe_test_secret_key: None,
            stripe_test_webhook_secret: None,
            stripe_api_base: "https://api.stripe.com".into(),
            plans: Plans::default(),
        }
    }
}

/// Variables that start with `SIGNET_` but belong to commands, not to the server.
/// `SEAL_PKCS12_PASSWORD` is read as it is written (in `load`): figment would take `123456`
/// for a number, refuse it, and print it in the error.
const NOT_SETTINGS: &[&str] = &[
    "CONFIG",
    "API_KEY",
    "BASE_URL",
    "LOG",
    "SEAL_PKCS12_PASSWORD",
    // The test suite's own (signet-testkit), never a setting.
    "TEST_SKIP",
    "TEST_SKIPPED",
];

impl Config {
    /// Reads the layers. `file` is `--config`; without it `SIGNET_CONFIG`, then `./signet.toml`
    /// when present.
    pub fn load(file: Option<&Path>) -> anyhow::Result<Config> {
        let file = file
            .map(Path::to_path_buf)
            .or_else(|| std::env::var_os("SIGNET_CONFIG").map(PathBuf::from));
        let mut fig = Figment::from(Serialized::defaults(Config::default()));
        match &file {
            Some(f) if !f.exists() => anyhow::bail!("config: file {} does not exist", f.display()),
            Some(f) => fig = fig.merge(Toml::file_exact(f)),
            None if Path::new("signet.toml").exists() => {
                fig = fig.merge(Toml::file_exact("signet.toml"))
            }
            None => {}
        }
        let fig = fig
            .merge(Env::prefixed("SIGNET_").ignore(NOT_SETTINGS).split("__"))
            .merge(Env::raw().only(&["DATABASE_URL", "REDIS_URL"]));
        let config: Config = fig.extract().map_err(|e| {
            let errors: Vec<String> = e.into_iter().map(|e| describe(&e)).collect();
            anyhow::anyhow!("configuration is not valid:\n  {}", errors.join("\n  "))
        })?;
        let mut config = config;
        // An empty variable (`DATABASE_URL=`) means "not set", as most tools read it.
        config.database_url = config.database_url.filter(|u| !u.is_empty());
        config.public_url = config
            .public_url
            .map(|u| u.trim_end_matches('/').to_string())
            .filter(|u| !u.is_empty());
        if let Ok(p) = std::env::var("SIGNET_SEAL_PKCS12_PASSWORD")
            && !p.is_empty()
        {
            config.seal_pkcs12_password = Some(SecretString::from(p));
        }
        config.tsa_url = config.tsa_url.filter(|u| !u.is_empty());
        config.tsa_fallback_url = config.tsa_fallback_url.filter(|u| !u.is_empty());
        config.redis_url = config.redis_url.filter(|u| !u.is_empty());
        config.smtp_url = config.smtp_url.filter(|u| !u.expose_secret().is_empty());
        config.mail_from = config.mail_from.filter(|u| !u.trim().is_empty());
        config.email_feedback_secret = config
            .email_feedback_secret
            .filter(|u| !u.expose_secret().is_empty());
        config.metrics_token = config
            .metrics_token
            .filter(|u| !u.expose_secret().is_empty());
        for value in [
            &mut config.ai_provider,
            &mut config.ai_base_url,
            &mut config.ai_model,
        ] {
            *value = value.take().filter(|v| !v.trim().is_empty());
        }
        config.ai_base_url = config
            .ai_base_url
            .map(|u| u.trim_end_matches('/').to_string());
        config.ai_api_key = config.ai_api_key.filter(|u| !u.expose_secret().is_empty());
        for value in [
            &mut config.stripe_secret_key,
            &mut config.stripe_webhook_secret,
            &mut config.stripe_test_secret_key,
            &mut config.stripe_test_webhook_secret,
        ] {
            *value = value
                .take()
                .filter(|v| !v.expose_secret().trim().is_empty());
        }
        for value in [
            &mut config.blob_url,
            &mut config.blob_endpoint,
            &mut config.blob_region,
            &mut config.blob_access_key_id,
        ] {
            *value = value.take().filter(|v| !v.trim().is_empty());
        }
        config.blob_secret_access_key = config
            .blob_secret_access_key
            .filter(|u| !u.expose_secret().is_empty());
        config.validate()?;
        Ok(config)
    }

    /// The address people reach this installation at: `public_url`, else the listen address.
    pub fn public_url(&self) -> String {
        self.public_url
            .clone()
            .unwrap_or_else(|| format!("http://{}", self.listen))
    }

    /// `mail_from`, else `Signet <signet@HOST>` of the public address.
    pub fn mail_from(&self) -> String {
        self.mail_from.clone().unwrap_or_else(|| {
            let host = url::Url::parse(&self.public_url())
                .ok()
                .and_then(|u| u.host_str().map(str::to_string))
                .filter(|h| h.contains('.') && h.parse::<std::net::IpAddr>().is_err())
                .unwrap_or_else(|| "localhost.localdomain".into());
            format!("Signet <signet@{host}>")
        })
    }

    /// Where blobs are kept: the bucket of `blob_url`, or `<data_dir>/blobs`.
    pub fn blobs(&self) -> Result<signet_storage::Blobs, signet_storage::StorageError> {
        crate::crypto();
        match &self.blob_url {
            None => Ok(signet_storage::Blobs::local(self.data_dir.join("blobs"))),
            Some(url) => signet_storage::Blobs::bucket(&signet_storage::blobs::BucketSettings {
                url: url.clone(),
                endpoint: self.blob_endpoint.clone(),
                region: self.blob_region.clone(),
                access_key_id: self.blob_access_key_id.clone(),
                secret_access_key: self
                    .blob_secret_access_key
                    .as_ref()
                    .map(|s| s.expose_secret().to_string()),
            }),
        }
    }

    pub fn ca_dir(&self) -> PathBuf {
        self.ca_dir
            .clone()
            .unwrap_or_else(|| self.data_dir.join("ca"))
    }

    pub fn database_url(&self) -> String {
        self.database_url
            .clone()
            .unwrap_or_else(|| format!("sqlite:{}", self.data_dir.join("signet.db").display()))
    }

    pub fn is_postgres(&self) -> bool {
        self.database_url
            .as_deref()
            .is_some_and(|u| u.starts_with("postgres"))
    }

    /// Creates `data_dir` when missing, readable by this user only (it holds the database,
    /// secrets and documents), and makes an existing one private, warning when it was not.
    /// The process's umask is set to 0077 first, so every file and folder Signet makes after
    /// (the database, blobs, the authority) is 0600 or 0700 whatever the shell's umask was.
    pub fn ensure_data_dir(&self) -> anyhow::Result<()> {
        use std::os::unix::fs::{DirBuilderExt, PermissionsExt};
        rustix::process::umask(rustix::fs::Mode::from_raw_mode(0o077));
        if let Ok(meta) = std::fs::metadata(&self.data_dir) {
            let mode = meta.permissions().mode() & 0o7777;
            if mode & 0o077 != 0 {
                // Special bits (a volume's setgid) are kept; only others' access goes.
                let private = std::fs::Permissions::from_mode(mode & !0o077);
                match std::fs::set_permissions(&self.data_dir, private) {
                    Ok(()) => tracing::warn!(
                        folder = %self.data_dir.display(),
                        was = format!("{:o}", mode & 0o777),
                        "data_dir (SIGNET_DATA_DIR) was open to other users; made it private"
                    ),
                    // A folder this user does not own (a managed volume): said, not fatal.
                    Err(e) => tracing::warn!(
                        folder = %self.data_dir.display(),
                        mode = format!("{:o}", mode & 0o777),
                        error = %e,
                        "data_dir (SIGNET_DATA_DIR) is open to other users and cannot be made \
                         private; the files Signet writes in it are private (0600 and 0700)"
                    ),
                }
            }
            return Ok(());
        }
        std::fs::DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(&self.data_dir)
            .map_err(|e| {
                anyhow::anyhow!(
                    "data_dir (SIGNET_DATA_DIR): cannot create {}: {e}",
                    self.data_dir.display()
                )
            })
    }

    /// The key-hashing secret: configured, or kept in `data_dir/secret.key` (mode 0600).
    pub fn secret(&self) -> anyhow::Result<Vec<u8>> {
        if let Some(s) = &self.secret_key {
            return Ok(s.expose_secret().as_bytes().to_vec());
        }
        let path = self.data_dir.join("secret.key");
        if let Ok(existing) = std::fs::read(&path) {
            anyhow::ensure!(
                existing.len() >= 32,
                "secret_key: {} is shorter than 32 bytes",
                path.display()
            );
            return Ok(existing);
        }
        std::fs::create_dir_all(&self.data_dir).map_err(|e| {
            anyhow::anyhow!("data_dir: cannot create {}: {e}", self.data_dir.display())
        })?;
        let mut bytes = [0u8; 32];
        ring::rand::SecureRandom::fill(&ring::rand::SystemRandom::new(), &mut bytes)
            .map_err(|_| anyhow::anyhow!("random generator failed"))?;
        let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
        match write_private(&path, hex.as_bytes()) {
            Ok(()) => Ok(hex.into_bytes()),
            // Another process starting at the same moment wrote it first: use theirs.
            Err(e) => match std::fs::read(&path) {
                Ok(existing) if existing.len() >= 32 => Ok(existing),
                _ => Err(e),
            },
        }
    }
}

fn describe(e: &figment::Error) -> String {
    let key = e.path.join(".");
    let source = e
        .metadata
        .as_ref()
        .map(|m| m.name.to_string())
        .unwrap_or_default();
    let what = e.kind.to_string();
    match (key.is_empty(), source.is_empty()) {
        (false, false) => format!("{key} (from {source}): {what}"),
        (false, true) => format!("{key}: {what}"),
        _ => what,
    }
}

/// Writes `bytes` to `path` (mode 0600) so that a crash leaves either no file or the whole
/// one: written under a temporary name, synced, renamed into place, and the folder synced.
/// Never replaces an existing file: two processes starting at once keep the first one's.
fn write_private(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    use std::io::Write;
    use std::os::unix::fs::OpenOptionsExt;
    let fail = |e: std::io::Error| anyhow::anyhow!("cannot write {}: {e}", path.display());
    let mut tmp_name = path.as_os_str().to_owned();
    tmp_name.push(format!(".tmp-{}", std::process::id()));
    let tmp = PathBuf::from(tmp_name);
    let _ = std::fs::remove_file(&tmp);
    let mut f = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(&tmp)
        .map_err(fail)?;
    f.write_all(bytes).map_err(fail)?;
    f.sync_all().map_err(fail)?;
    drop(f);
    // A hard link fails if the name exists, where a rename would replace it. A file system
    // without hard links gets the rename.
    let placed = match std::fs::hard_link(&tmp, path) {
        // Without hard links, a rename, unless another process's file is there by now.
        Err(e) if e.kind() != std::io::ErrorKind::AlreadyExists && !path.exists() => {
            std::fs::rename(&tmp, path)
        }
        other => other,
    };
    let _ = std::fs::remove_file(&tmp);
    placed.map_err(fail)?;
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::File::open(dir)
            .and_then(|d| d.sync_all())
            .map_err(fail)?;
    }
    Ok(())
}
