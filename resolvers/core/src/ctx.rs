//! The services every resolver may use, built once at start-up and cloned per request.

use std::sync::Arc;

use ring::hmac;
use signet_storage::Db;
use signet_storage::state::{Budget, Daily, Idempotency};

use crate::api_log::ApiLogSink;
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
    /// The queue's handle: what a commit queued is dispatched through it.
    pub queue: signet_queue::Queue,
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
    pub queue: signet_queue::Queue,
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
            queue: f.queue,
            services: Services::default(),
        }
    }

    /// The time now, in milliseconds since 1970, by this Signet's clock (`Db::clock`): every
    /// time the domain stores or compares is read here, so a test can move it.
    pub fn now(&self) -> i64 {
        self.db.clock.now_ms()
    }

    /// Adds a resource crate's service (see [`Services`]).
    pub fn with<T: std::any::Any + Send + Sync>(mut self, service: T) -> Ctx {
        self.services.insert(service);
        self
    }

    /// After a document change committed: live status subscribers hear of it, and the
    /// workers of what it queued look at once (see `signet_queue::Queue::dispatch`).
    pub async fn committed(&self, doc_id: &str, jobs: signet_queue::Enqueued) {
        self.live.publish(doc_id).await;
        self.queue.dispatch(jobs).await;
    }

    /// After a commit that queued `jobs` (and changed no document's status).
    pub async fn queued(&self, jobs: signet_queue::Enqueued) {
        self.queue.dispatch(jobs).await;
    }
}
