//! `TestApp`: the real server on port 0 with a fresh database, on either backend set.

use std::collections::HashMap;

use reqwest::StatusCode;
use reqwest::header::HeaderMap;
use secrecy::SecretString;
use serde_json::{Value, json};
use signet::{Config, Server};
use signet_accounts::keys::{self, KeyCreateIn};
use signet_accounts::workspaces::{self, WorkspaceIn};
use signet_core::Mode;
use signet_core::actor::Scopes;
use signet_core::plans::Plan;

use crate::servers;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// SQLite with in-process budgets and SQL idempotency: the embedded default.
    Sqlite,
    /// PostgreSQL with Redis: the scale-out set.
    PostgresRedis,
}

pub struct TestApp {
    pub base: String,
    pub server: Option<Server>,
    pub client: reqwest::Client,
    pub database_url: String,
    pub redis_url: Option<String>,
    pub redis_prefix: String,
    pub secret: String,
    pub dir: tempfile::TempDir,
    /// The bucket and prefix the files are kept under (PostgreSQL+Redis), as `s3://...`.
    pub blob_url: Option<String>,
    /// The app's keys at the Stripe stand-in (`Options::stripe`).
    pub stripe: Option<crate::standin::Keys>,
}

pub struct Answer {
    pub status: StatusCode,
    pub headers: HeaderMap,
    pub body: Value,
}

impl Answer {
    pub fn header(&self, name: &str) -> &str {
        self.headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
    }

    /// The error body with `requestId` blanked, for comparing two error answers.
    pub fn error_without_request_id(&self) -> Value {
        let mut b = self.body.clone();
        b["error"]["requestId"] = Value::Null;
        b
    }
}

pub const SECRET: &str = "test-secret-test-secret-test-secret-0123";

#[derive(Default, Clone)]
pub struct Options {
    pub trusted_proxies: Vec<ipnet::IpNet>,
    pub anonymous_per_minute: Option<u64>,
    /// Keep the production address guard: no private addresses, no plain http.
    pub strict_webhooks: bool,
    /// Run none of the job workers (webhook delivery, rendering, sealing; the scheduler runs)
    /// in the test's own server: the test runs their passes itself.
    pub no_worker: bool,
    /// An external time-stamp authority and its fallback for the seals.
    pub tsa_urls: Option<(String, String)>,
    /// The plans' allowances instead of the defaults.
    pub plans: Option<signet_core::plans::Plans>,
    /// Seconds a connection has to send its headers (and may idle between requests).
    pub header_timeout_secs: Option<u64>,
    /// Seconds a GraphQL websocket has to authenticate.
    pub socket_init_timeout_secs: Option<u64>,
    /// Pages a document may have.
    pub max_pages: Option<usize>,
    /// Seconds to send a body, and the longest a write waits on a client that does not read.
    pub body_timeout_secs: Option<u64>,
    /// Email over SMTP (`smtp_url`, and the certificate its server's chains to) instead of
    /// `.eml` files in the data folder.
    pub smtp: Option<(String, Option<std::path::PathBuf>)>,
    /// `mail_from`.
    pub mail_from: Option<String>,
    /// `email_feedback_secret`: turns `POST /hooks/email` on.
    pub email_feedback_secret: Option<String>,
    /// `metrics_token`: turns `GET /metrics` on.
    pub metrics_token: Option<String>,
    /// On PostgreSQL+Redis, keep the files in a bucket of this name, made for the test,
    /// instead of under a prefix of the shared one.
    pub own_bucket: Option<String>,
    /// AI drafting's model: provider kind, base URL and key (`ai_model` is `fake-model`).
    pub ai: Option<(String, String, String)>,
    /// `ai_tokens_per_day`.
    pub ai_tokens_per_day: Option<u64>,
    /// `ai_max_tokens`.
    pub ai_max_tokens: Option<u32>,
    /// `ai_frequency_penalty`.
    pub ai_frequency_penalty: Option<f32>,
    /// Payments through the shared Stripe stand-in, with keys of the app's own.
    pub stripe: bool,
    /// Stripe's address instead of the stand-in's (with `stripe`): one nothing answers at.
    pub stripe_api_base: Option<String>,
    /// Payments through Stripe's real test mode with this secret key (events cannot reach
    /// the app: its webhook secret is a placeholder).
    pub stripe_real_test_key: Option<String>,
}

impl TestApp {
    /// Starts on `kind`; `None` only when PostgreSQL+Redis are missing and the part was
    /// skipped by name (`SIGNET_TEST_SKIP=postgres`); missing and not skipped, it fails.
    pub async fn start(kind: Kind) -> Option<TestApp> {
        TestApp::start_with(kind, Options::default()).await
    }

    /// Starts on `kind` with no background workers (see `Options::no_worker`).
    pub async fn start_without_workers(kind: Kind) -> Option<TestApp> {
        let opts = Options {
            no_worker: true,
            ..Options::default()
        };
        TestApp::start_with(kind, opts).await
    }

    pub async fn start_with(kind: Kind, opts: Options) -> Option<TestApp> {
        let dir = tempfile::tempdir().expect("temp dir");
        let suffix = signet_core::ids::new_id("t").to_lowercase();
        let mut blobs = None;
        let (database_url, redis_url) = match kind {
            Kind::Sqlite => (
                format!("sqlite:{}", dir.path().join("signet.db").display()),
                None,
            ),
            Kind::PostgresRedis => {
                let ext = servers::external()?;
                let url = ext.fresh_database().await;
                let db = signet_storage::Db::connect(&url)
                    .await
                    .expect("connect test database");
                db.migrate().await.expect("migrate test database");
                db.conn.close().await.ok();
                let url_of_blobs = match &opts.own_bucket {
                    Some(name) => {
                        ext.s3.make_bucket(name).await;
                        format!("s3://{name}")
                    }
                    None => format!("s3://{}/{suffix}", ext.s3.bucket),
                };
                blobs = Some((url_of_blobs, &ext.s3));
                (url, Some(ext.redis.clone()))
            }
        };
        let redis_prefix = format!("{suffix}:");
        let mut config = Config {
            listen: "127.0.0.1:0".parse().unwrap(),
            data_dir: dir.path().to_path_buf(),
            database_url: Some(database_url.clone()),
            redis_url: redis_url.clone(),
            redis_prefix: redis_prefix.clone(),
            secret_key: Some(SecretString::from(SECRET)),
            ..Config::default()
        };
        if let Some((url, s3)) = &blobs {
            config.blob_url = Some(url.clone());
            config.blob_endpoint = Some(s3.endpoint.clone());
            config.blob_region = Some("us-east-1".into());
            config.blob_access_key_id = Some(s3.access_key_id.into());
            config.blob_secret_access_key = Some(SecretString::from(s3.secret_access_key));
        }
        config.trusted_proxies = opts.trusted_proxies;
        // Receivers in tests listen on 127.0.0.1 over plain http.
        config.webhooks_allow_private = !opts.strict_webhooks;
        config.webhooks_allow_http = !opts.strict_webhooks;
        config.webhook_lease_secs = 20;
        config.workers = !opts.no_worker;
        if let Some((url, fallback)) = opts.tsa_urls {
            config.tsa_url = Some(url);
            config.tsa_fallback_url = Some(fallback);
        }
        if let Some(n) = opts.anonymous_per_minute {
            config.anonymous_per_minute = n;
        }
        if let Some(p) = opts.plans {
            config.plans = p;
        }
        if let Some(s) = opts.header_timeout_secs {
            config.header_timeout_secs = s;
        }
        if let Some(s) = opts.socket_init_timeout_secs {
            config.socket_init_timeout_secs = s;
        }
        if let Some(p) = opts.max_pages {
            config.max_pages = p;
        }
        if let Some(s) = opts.body_timeout_secs {
            config.body_timeout_secs = s;
        }
        if let Some((url, ca)) = opts.smtp {
            config.smtp_url = Some(SecretString::from(url));
            config.smtp_ca_file = ca;
            config.smtp_timeout_secs = 10;
        }
        config.mail_from = opts.mail_from;
        config.email_feedback_secret = opts.email_feedback_secret.map(SecretString::from);
        config.metrics_token = opts.metrics_token.map(SecretString::from);
        if let Some((provider, base, key)) = opts.ai {
            config.ai_provider = Some(provider);
            config.ai_base_url = Some(base);
            config.ai_model = Some("fake-model".into());
            config.ai_api_key = Some(SecretString::from(key));
            config.ai_timeout_secs = 60;
        }
        if let Some(n) = opts.ai_tokens_per_day {
            config.ai_tokens_per_day = n;
        }
        if let Some(n) = opts.ai_max_tokens {
            config.ai_max_tokens = n;
        }
        config.ai_frequency_penalty = opts.ai_frequency_penalty;
        let stripe = if opts.stripe {
            let keys = crate::standin::Keys::new(crate::standin::url()?, &suffix.replace('_', ""));
            config.stripe_api_base = opts.stripe_api_base.clone().unwrap_or(keys.url.clone());
            config.stripe_test_secret_key = Some(SecretString::from(keys.test_key.clone()));
            config.stripe_test_webhook_secret = Some(SecretString::from(keys.test_hook.clone()));
            config.stripe_secret_key = Some(SecretString::from(keys.live_key.clone()));
            config.stripe_webhook_secret = Some(SecretString::from(keys.live_hook.clone()));
            Some(keys)
        } else {
            None
        };
        if let Some(key) = opts.stripe_real_test_key {
            config.stripe_test_secret_key = Some(SecretString::from(key));
            config.stripe_test_webhook_secret = Some(SecretString::from("whsec_not_reached"));
        }
        let server = signet::start(&config, crate::probe::ROUTES)
            .await
            .expect("server starts");
        if let Some(keys) = &stripe {
            keys.register(&format!("http://{}/hooks/stripe", server.addr))
                .await;
        }
        Some(TestApp {
            base: format!("http://{}", server.addr),
            server: Some(server),
            client: reqwest::Client::new(),
            database_url,
            redis_url,
            redis_prefix,
            secret: SECRET.into(),
            dir,
            blob_url: blobs.map(|(url, _)| url),
            stripe,
        })
    }

    /// Runs every pending background job (renders, seals, emails, webhook fan-out) until none
    /// is due, and fails when one failed. Jobs waiting for a later try stay waiting.
    pub async fn run_pending_jobs(&self) {
        let ctx = self.ctx();
        signet_workers::run_pending(ctx, &signet::jobs())
            .await
            .expect("background jobs ran");
        use signet_storage::sea_orm::ConnectionTrait as _;
        let db = &ctx.db;
        let failed = db
            .conn
            .query_all_raw(db.stmt(
                "SELECT kind, payload FROM outbox WHERE state = 'failed'",
                Vec::<signet_storage::sea_orm::Value>::new(),
            ))
            .await
            .unwrap();
        assert!(
            failed.is_empty(),
            "background jobs failed: {:?}",
            failed
                .iter()
                .map(|r| r.try_get::<String>("", "payload").unwrap())
                .collect::<Vec<_>>()
        );
    }

    /// Moves this app's clock on by `by`: what the time makes due (an expiry, a reminder, the
    /// end of a session or of a wait) is due at once. Other apps' clocks stay where they are.
    pub fn advance(&self, by: std::time::Duration) {
        self.ctx().db.clock.advance(by);
    }

    /// Makes the jobs of `kind` that wait for a later try due now, as if the time had come.
    pub async fn make_due(&self, kind: &str) {
        let db = &self.ctx().db;
        db.write(db.stmt(
            "UPDATE outbox SET run_at = 0 WHERE kind = $1 AND state = 'queued'",
            [signet_storage::sea_orm::Value::from(kind)],
        ))
        .await
        .unwrap();
        // With Redis, its set learns the rows' new time, as its sweep would.
        self.ctx().queue.sweep(kind).await.unwrap();
    }

    /// Makes every webhook message waiting for a retry due now.
    pub async fn make_deliveries_due(&self) {
        let db = &self.ctx().db;
        db.write(db.stmt(
            "UPDATE webhook_messages SET next_attempt_at = 0 WHERE state = 'pending'",
            Vec::<signet_storage::sea_orm::Value>::new(),
        ))
        .await
        .unwrap();
        signet_webhooks::deliver::sweep(self.ctx()).await.unwrap();
    }

    pub fn ctx(&self) -> &signet_core::Ctx {
        &self.server.as_ref().expect("server running").ctx
    }

    pub async fn workspace(&self, plan: Plan) -> String {
        workspaces::create(
            self.ctx(),
            WorkspaceIn {
                name: "Acme".into(),
                plan,
                time_zone: "UTC".into(),
            },
        )
        .await
        .expect("workspace")
        .id
    }

    pub async fn key(&self, workspace: &str, mode: Mode, scopes: &[&str]) -> String {
        self.key_with(KeyCreateIn::new(
            workspace,
            mode,
            Scopes::parse(scopes.iter().copied()).expect("scopes"),
        ))
        .await
    }

    pub async fn key_with(&self, input: KeyCreateIn) -> String {
        keys::create(self.ctx(), input).await.expect("key").1
    }

    /// The actor a request with `key` acts as, for calling resolvers directly.
    pub async fn actor(&self, key: &str) -> signet_core::Actor {
        keys::authenticate(self.ctx(), key, "127.0.0.1".parse().unwrap())
            .await
            .unwrap()
    }

    /// A workspace on the free plan and a test key with every scope.
    pub async fn owner(&self) -> (String, String) {
        let ws = self.workspace(Plan::Free).await;
        let all: Vec<&str> = signet_core::Scope::ALL.iter().map(|s| s.as_str()).collect();
        let key = self.key(&ws, Mode::Test, &all).await;
        (ws, key)
    }

    pub async fn send(&self, req: reqwest::RequestBuilder) -> Answer {
        let res = req.send().await.expect("request sent");
        let status = res.status();
        let headers = res.headers().clone();
        let text = res.text().await.expect("body");
        let body = serde_json::from_str(&text).unwrap_or(Value::String(text));
        Answer {
            status,
            headers,
            body,
        }
    }

    pub async fn get(&self, path: &str, key: Option<&str>) -> Answer {
        let mut req = self.client.get(format!("{}{path}", self.base));
        if let Some(k) = key {
            req = req.bearer_auth(k);
        }
        self.send(req).await
    }

    pub async fn post(
        &self,
        path: &str,
        key: &str,
        headers: &[(&str, &str)],
        body: &str,
    ) -> Answer {
        let mut req = self
            .client
            .post(format!("{}{path}", self.base))
            .bearer_auth(key)
            .header("content-type", "application/json")
            .body(body.to_string());
        for (k, v) in headers {
            req = req.header(*k, *v);
        }
        self.send(req).await
    }

    /// Any method, with a JSON body when one is given.
    pub async fn call(
        &self,
        method: reqwest::Method,
        path: &str,
        key: &str,
        body: Option<&Value>,
    ) -> Answer {
        let mut req = self
            .client
            .request(method, format!("{}{path}", self.base))
            .bearer_auth(key);
        if let Some(b) = body {
            req = req
                .header("content-type", "application/json")
                .body(b.to_string());
        }
        self.send(req).await
    }

    /// A call to `/api/v1{path}` as a client makes it: the key, a fresh Idempotency-Key on a
    /// POST, a JSON body when one is given. The status, the body and the headers.
    pub async fn api(
        &self,
        key: &str,
        method: &str,
        path: &str,
        body: Option<Value>,
    ) -> (u16, Value, reqwest::header::HeaderMap) {
        let mut r = self
            .client
            .request(
                method.parse().unwrap(),
                format!("{}/api/v1{path}", self.base),
            )
            .bearer_auth(key);
        if method == "POST" {
            r = r.header("idempotency-key", signet_core::ids::new_id("idem"));
        }
        if let Some(b) = body {
            r = r
                .header("content-type", "application/json")
                .body(b.to_string());
        }
        let a = self.send(r).await;
        (a.status.as_u16(), a.body, a.headers)
    }

    /// Environment for running the real `signet` binary against this app's storage.
    pub fn env(&self) -> HashMap<&'static str, String> {
        let mut env = HashMap::from([
            ("DATABASE_URL", self.database_url.clone()),
            ("SIGNET_DATA_DIR", self.dir.path().display().to_string()),
            ("SIGNET_SECRET_KEY", self.secret.clone()),
            ("SIGNET_REDIS_PREFIX", self.redis_prefix.clone()),
            ("SIGNET_WEBHOOKS_ALLOW_PRIVATE", "true".into()),
            ("SIGNET_WEBHOOKS_ALLOW_HTTP", "true".into()),
            ("SIGNET_WEBHOOK_LEASE_SECS", "20".into()),
            ("SIGNET_MAIL_LEASE_SECS", "20".into()),
        ]);
        if let Some(r) = &self.redis_url {
            env.insert("REDIS_URL", r.clone());
        }
        if let (Some(url), Some(ext)) = (&self.blob_url, crate::servers::external()) {
            env.insert("SIGNET_BLOB_URL", url.clone());
            env.insert("SIGNET_BLOB_ENDPOINT", ext.s3.endpoint.clone());
            env.insert("SIGNET_BLOB_REGION", "us-east-1".into());
            env.insert("SIGNET_BLOB_ACCESS_KEY_ID", ext.s3.access_key_id.into());
            env.insert(
                "SIGNET_BLOB_SECRET_ACCESS_KEY",
                ext.s3.secret_access_key.into(),
            );
        }
        env
    }

    /// Runs `signet ARGS...` against this app's storage; (exit code, stdout, stderr).
    pub fn cli(&self, args: &[&str]) -> (i32, String, String) {
        self.cli_with_input(args, b"")
    }

    /// `cli` with `input` on standard input.
    pub fn cli_with_input(&self, args: &[&str], input: &[u8]) -> (i32, String, String) {
        use std::io::Write as _;
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_signet"))
            .args(args)
            .envs(self.env())
            .env_remove("REDIS_URL")
            .current_dir(self.dir.path())
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("signet runs");
        let mut stdin = child.stdin.take().expect("stdin");
        let input = input.to_vec();
        let writer = std::thread::spawn(move || {
            let _ = stdin.write_all(&input);
        });
        let out = child.wait_with_output().expect("signet runs");
        let _ = writer.join();
        outcome(out)
    }
}

/// A finished command's exit code (-1 when killed), standard output and standard error.
pub fn outcome(out: std::process::Output) -> (i32, String, String) {
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Generates one test per backend set from one body.
#[macro_export]
macro_rules! both {
    ($name:ident, |$app:ident| $body:block) => {
        mod $name {
            #[allow(unused_imports)]
            use super::*;

            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn sqlite() {
                let $app = $crate::harness::TestApp::start($crate::harness::Kind::Sqlite)
                    .await
                    .unwrap();
                $body
            }

            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn postgres_redis() {
                let Some($app) =
                    $crate::harness::TestApp::start($crate::harness::Kind::PostgresRedis).await
                else {
                    return;
                };
                $body
            }
        }
    };
}

/// A claim on a fresh Idempotency-Key, as the door holds one; with `answered`, another
/// request's answer is already stored under the key (a claim that outlived its lock).
pub async fn claim_on(
    db: &signet_storage::db::Db,
    answered: bool,
) -> (signet_storage::state::Hold, signet_core::answer::Claim) {
    use signet_storage::state::{Begin, Idempotency, Stored};
    let key = format!("idem-{}", signet_core::ids::new_id("k"));
    let Begin::Proceed(hold) = Idempotency::sql(db.clone())
        .begin("actions", &key, "fp", 60_000)
        .await
        .unwrap()
    else {
        panic!("a new key proceeds")
    };
    let claim = hold
        .claim()
        .expect("SQL answers are stored in a transaction");
    if answered {
        let (c, d) = (claim.clone(), db.clone());
        let first = Stored {
            status: 200,
            body: "{\"first\":true}".into(),
        };
        let stored = db
            .transaction(move |t| async move { c.store_in(&*t, &d, &first).await })
            .await
            .unwrap();
        assert!(stored);
    }
    (hold, claim)
}

/// The answer stored under `claim`'s key, read back as a retry would, and opened when it
/// was stored sealed.
pub async fn replayed(
    ctx: &signet_core::Ctx,
    claim: &signet_core::answer::Claim,
    status: u16,
) -> Value {
    let stored = stored_raw(&ctx.db, claim).await;
    assert_eq!(stored.status, status);
    let body = signet_core::answer::open_answer(ctx, stored.body).unwrap();
    serde_json::from_str(&body).unwrap()
}

/// The answer stored under `claim`'s key, as it is stored.
pub async fn stored_raw(
    db: &signet_storage::db::Db,
    claim: &signet_core::answer::Claim,
) -> signet_storage::state::Stored {
    use signet_storage::state::{Begin, Idempotency};
    match Idempotency::sql(db.clone())
        .begin("actions", &claim.key, "fp", 60_000)
        .await
        .unwrap()
    {
        Begin::Replay(s) => s,
        _ => panic!("no answer stored under the key"),
    }
}

/// The answer a resolver stored, as JSON.
pub fn stored<T>(made: &signet_core::answer::Made<T>) -> Value {
    serde_json::from_str(made.stored.as_deref().expect("the answer was stored")).unwrap()
}

/// Asserts that an action was refused with a retryable conflict (its key's answer was taken).
pub fn busy<T: std::fmt::Debug>(r: Result<T, signet_core::DomainError>) {
    match r {
        Err(signet_core::DomainError::Conflict { retryable, message }) => {
            assert!(retryable);
            assert!(message.contains("Idempotency-Key"), "{message}");
        }
        other => panic!("expected a retryable conflict, got {other:?}"),
    }
}

/// `both!` with no background workers in the test's server: the test runs what is due with
/// `app.run_pending_jobs()` instead of waiting for it.
#[macro_export]
macro_rules! both_quiet {
    ($name:ident, |$app:ident| $body:block) => {
        mod $name {
            #[allow(unused_imports)]
            use super::*;

            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn sqlite() {
                let $app =
                    $crate::harness::TestApp::start_without_workers($crate::harness::Kind::Sqlite)
                        .await
                        .unwrap();
                $body
            }

            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn postgres_redis() {
                let Some($app) = $crate::harness::TestApp::start_without_workers(
                    $crate::harness::Kind::PostgresRedis,
                )
                .await
                else {
                    return;
                };
                $body
            }
        }
    };
}

/// A child process (a server, a receiver, a worker) killed with SIGKILL and reaped when
/// dropped, so a failing assertion leaves nothing running.
pub struct Process(pub std::process::Child);

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Waits until something listens on `port` of this machine, or fails after `secs` naming
/// `what`.
pub fn listening(port: u16, what: &str, secs: u64) {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(secs);
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(
            std::time::Instant::now() < deadline,
            "{what} did not listen within {secs} s"
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
}

/// `signet serve` on the app's storage, once it listens: the process (killed when dropped)
/// and its base URL.
pub fn spawn_server(app: &TestApp) -> (Process, String) {
    spawn_server_with(app, &[], &[], std::process::Stdio::null())
}

/// `signet serve ARGS` on the app's storage with `env` besides, its standard error to
/// `stderr`, once it listens: the process (killed when dropped) and its base URL.
pub fn spawn_server_with(
    app: &TestApp,
    args: &[&str],
    env: &[(&str, &str)],
    stderr: impl Into<std::process::Stdio>,
) -> (Process, String) {
    let port = crate::servers::free_port();
    let child = std::process::Command::new(env!("CARGO_BIN_EXE_signet"))
        .arg("serve")
        .args(args)
        .envs(app.env())
        .envs(env.iter().copied())
        .env("SIGNET_LISTEN", format!("127.0.0.1:{port}"))
        .current_dir(app.dir.path())
        .stdout(std::process::Stdio::null())
        .stderr(stderr)
        .spawn()
        .expect("signet serve starts");
    let process = Process(child);
    listening(port, "signet serve", 30);
    (process, format!("http://127.0.0.1:{port}"))
}

/// Asks `check` again every 50 ms until it answers something, for at most a minute; then
/// fails naming `what`. For what the server does in the background (a render, a seal, a
/// delivery, an email), never a fixed sleep.
pub async fn until<T, F, Fut>(what: &str, mut check: F) -> T
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Option<T>>,
{
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    loop {
        if let Some(t) = check().await {
            return t;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "waited a minute for {what}"
        );
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
}

// The signing page as a person uses it.

/// The `.eml` files written so far: recipient, subject, text and when written.
pub fn mails(app: &TestApp) -> Vec<(String, String, String, std::time::SystemTime)> {
    let mut out = vec![];
    for entry in std::fs::read_dir(app.dir.path().join("mail"))
        .into_iter()
        .flatten()
        .flatten()
    {
        // Finished emails only: each is written to a hidden temporary file, then renamed.
        if entry.file_name().to_string_lossy().starts_with('.') {
            continue;
        }
        let (Ok(raw), Ok(meta)) = (std::fs::read(entry.path()), entry.metadata()) else {
            continue;
        };
        let Some(m) = mail_parser::MessageParser::default().parse(&raw) else {
            continue;
        };
        let to = m
            .to()
            .and_then(|t| t.first())
            .and_then(|a| a.address())
            .unwrap_or_default()
            .to_string();
        let subject = m.subject().unwrap_or_default().to_string();
        let text = m.body_text(0).map(|t| t.into_owned()).unwrap_or_default();
        let at = meta.modified().unwrap_or(std::time::SystemTime::UNIX_EPOCH);
        out.push((to, subject, text, at));
    }
    out.sort_by_key(|m| m.3);
    out
}

/// The subjects and texts of the `.eml` files written so far to `to`.
pub fn mails_to(app: &TestApp, to: &str) -> Vec<(String, String)> {
    mails(app)
        .into_iter()
        .filter(|m| m.0 == to)
        .map(|m| (m.1, m.2))
        .collect()
}

/// The signing links in the `.eml` files written so far, by recipient.
pub fn links(app: &TestApp) -> Vec<(String, String)> {
    mails(app)
        .into_iter()
        .filter_map(|(to, _, text, _)| {
            let at = text.find("/s/")?;
            let t: String = text[at + 3..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
                .collect();
            Some((to, t))
        })
        .collect()
}

pub fn link_of(app: &TestApp, to: &str) -> String {
    links(app)
        .into_iter()
        .find(|(a, _)| a == to)
        .unwrap_or_else(|| panic!("no signing link emailed to {to}"))
        .1
}

pub async fn page(
    app: &TestApp,
    method: &str,
    path: &str,
    token: &str,
    body: Option<Value>,
) -> (u16, Value) {
    page_as(app, method, path, token, None, body).await
}

/// A page call with the pass the page holds once the person confirmed who they are.
pub async fn page_as(
    app: &TestApp,
    method: &str,
    path: &str,
    token: &str,
    pass: Option<&str>,
    body: Option<Value>,
) -> (u16, Value) {
    page_call(
        &app.base,
        method,
        path,
        token,
        pass,
        "Mozilla/5.0 (signing page test)",
        body,
    )
    .await
}

/// One call of the signing page on `base` as a person's browser makes it: the link as its
/// credential, the pass when one was given, `agent` as the browser.
pub async fn page_call(
    base: &str,
    method: &str,
    path: &str,
    token: &str,
    pass: Option<&str>,
    agent: &str,
    body: Option<Value>,
) -> (u16, Value) {
    let mut r = reqwest::Client::new()
        .request(method.parse().unwrap(), format!("{base}{path}"))
        .header("Authorization", format!("Link {token}"))
        .header("User-Agent", agent);
    if let Some(p) = pass {
        r = r.header("Signet-Pass", p);
    }
    if let Some(b) = body {
        r = r.json(&b);
    }
    let res = r.send().await.unwrap();
    let status = res.status().as_u16();
    let text = res.text().await.unwrap();
    (status, serde_json::from_str(&text).unwrap_or(Value::Null))
}

/// The person of `token` opens the page on `base` as `agent`, consents to the disclosure it
/// shows and signs every field with `values_for`.
pub async fn sign_as(base: &str, token: &str, agent: &str) {
    let (status, view) = page_call(base, "GET", "/page/v1/view", token, None, agent, None).await;
    assert_eq!(status, 200, "{view}");
    assert_eq!(view["stage"], "sign", "{view}");
    let shown = &view["consent"];
    let (status, e) = page_call(
        base,
        "POST",
        "/page/v1/consent",
        token,
        None,
        agent,
        Some(serde_json::json!({"version": shown["version"], "sha256": shown["sha256"]})),
    )
    .await;
    assert_eq!(status, 200, "{e}");
    let values = values_for(&view["fields"]);
    let (status, e) = page_call(
        base,
        "POST",
        "/page/v1/sign",
        token,
        None,
        agent,
        Some(serde_json::json!({"values": values})),
    )
    .await;
    assert_eq!(status, 200, "{e}");
}

/// Test-signs document `id` of `key`'s for each of `seats` in turn (each seat's turn comes
/// as the one before signs; nothing in the background is needed or run).
pub async fn test_sign(app: &TestApp, key: &str, id: &str, seats: &[&str]) {
    for seat in seats {
        let r = app
            .post(
                &format!("/api/v1/documents/{id}/test-sign"),
                key,
                &[],
                &serde_json::json!({ "seat": seat }).to_string(),
            )
            .await;
        assert_eq!(r.status, 200, "{seat}: {}", r.body);
    }
}

/// The sealed PDF of document `id` of `key`'s, once there is one.
pub async fn signed_pdf(app: &TestApp, key: &str, id: &str) -> Vec<u8> {
    let path = format!("/api/v1/documents/{id}/signed.pdf");
    until("the sealed PDF", || async {
        app.run_pending_jobs().await;
        let r = app
            .client
            .get(format!("{}{path}", app.base))
            .bearer_auth(key)
            .send()
            .await
            .unwrap();
        if r.status() == 200 {
            Some(r.bytes().await.unwrap().to_vec())
        } else {
            None
        }
    })
    .await
}

/// A value for every editable field of a view's `fields`, as a person fills them.
pub fn values_for(fields: &Value) -> Value {
    let mut v = serde_json::Map::new();
    for f in fields.as_array().unwrap() {
        if !f["editable"].as_bool().unwrap() {
            continue;
        }
        let id = f["id"].as_str().unwrap().to_string();
        let value = match f["type"].as_str().unwrap() {
            "date" => json!("2027-01-01"),
            "checkbox" => json!(true),
            "radio" => json!("yearly"),
            "select" => json!("one space"),
            "number" => json!("2"),
            "email" => json!("ada@example.com"),
            "phone" => json!("+44 20 7946 0958"),
            "signature" => json!({"kind": "drawn", "width": 600, "height": 200,
                "strokes": [[[20, 150, 0], [80, 40, 60], [140, 160, 120], [200, 60, 180]], [[240, 120, 400], [420, 110, 520]]]}),
            "initials" => json!({"kind": "typed", "text": "AT"}),
            "text" | "company" => continue,
            _ => continue,
        };
        v.insert(id, value);
    }
    Value::Object(v)
}
