//! The services every resolver may use, built once at start-up and cloned per request.

use std::sync::Arc;

use ring::hmac;
use signet_storage::Db;
use signet_storage::state::{Budget, Daily, Idempotency};

use crate::api_log::ApiLogSink;
use crate::jobs::{JobKind, Wakes};
use crate::live::StatusBus;
use crate::plans::Plans;
use crate::secret_box::SecretBox;
use crate::services::Services;

#[derive(Clone)]
pub struct Ctx {
    pub db: Db,
    pub budget: Budget,
    pub idempotency: Idempotency,
    pub daily: Daily,
    /// Keyed hash for API keys and link tokens: only HMAC-SHA256(secret, token) is stored.
    pub key_hasher: Arc<hmac::Key>,
    /// Seals secrets kept at rest (webhook secrets, stored answers that show one).
    pub secrets: Arc<SecretBox>,
    pub plans: Arc<Plans>,
    pub api_log: ApiLogSink,
    pub blobs: signet_storage::Blobs,
    /// Announces committed document changes to live status subscribers.
    pub live: StatusBus,
    /// The address people reach this installation at, without a trailing `/`; links in
    /// emails and signing sessions are built on it.
    pub public_url: Arc<str>,
    /// Wakes this process's worker of a job kind when a commit queued such a job.
    pub wakes: Arc<Wakes>,
    /// What the resource crates add (see [`Services`]).
    pub services: Services,
}

/// What the context is built from.
pub struct Foundation {
    pub db: Db,
    pub budget: Budget,
    pub idempotency: Idempotency,
    pub daily: Daily,
    /// `SIGNET_SECRET_KEY`: keys the token hash and the secret box.
    pub secret: Vec<u8>,
    pub plans: Plans,
    pub api_log: ApiLogSink,
    pub blobs: signet_storage::Blobs,
    pub live: StatusBus,
    pub public_url: String,
}

impl Ctx {
    pub fn new(f: Foundation) -> Ctx {
        Ctx {
            db: f.db,
            budget: f.budget,
            idempotency: f.idempotency,
            daily: f.daily,
            key_hasher: Arc::new(hmac::Key::new(hmac::HMAC_SHA256, &f.secret)),
            secrets: Arc::new(SecretBox::new(&f.secret)),
            plans: Arc::new(f.plans),
            api_log: f.api_log,
            blobs: f.blobs,
            live: f.live,
            public_url: f.public_url.trim_end_matches('/').into(),
            wakes: Arc::default(),
            services: Services::default(),
        }
    }

    /// Adds a resource crate's service (see [`Services`]).
    pub fn with<T: std::any::Any + Send + Sync>(mut self, service: T) -> Ctx {
        self.services.insert(service);
        self
    }

    /// After a document change committed: live status subscribers hear of it, and this
    /// process's webhook and mail workers look for what it queued at once instead of at
    /// their next poll (nearly every document change queues an event and an email).
    pub async fn committed(&self, doc_id: &str) {
        self.live.publish(doc_id).await;
        self.job_queued(JobKind::Event);
        self.job_queued(JobKind::Email);
    }

    /// After a commit that queued a job of `kind`: that worker looks at once rather than at
    /// its next poll. Only then: every look reads the outbox, and waking every worker on
    /// every commit had them look thousands of times a second under a stream of sends.
    pub fn job_queued(&self, kind: JobKind) {
        self.wakes.of(kind).notify_one();
    }
}
