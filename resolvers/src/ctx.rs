//! The services every resolver may use, built once at start-up and cloned per request.

use std::sync::Arc;

use ring::hmac;
use signet_storage::Db;
use signet_storage::state::{Budget, Daily, Idempotency};

use crate::api_log::ApiLogSink;
use crate::plans::Plans;

#[derive(Clone)]
pub struct Ctx {
    pub db: Db,
    pub budget: Budget,
    pub idempotency: Idempotency,
    pub daily: Daily,
    /// Keyed hash for API keys: only HMAC-SHA256(secret, key) is ever stored.
    pub key_hasher: Arc<hmac::Key>,
    pub plans: Arc<Plans>,
    pub key_cache: Arc<crate::keys::KeyCache>,
    pub api_log: ApiLogSink,
    pub renderer: Arc<dyn crate::render::DocRenderer>,
    pub blobs: signet_storage::Blobs,
    pub live: crate::live::StatusBus,
    /// The sealing keys and the time-stamp authority.
    pub authority: Arc<signet_seal::Authority>,
    /// Where the seals' time stamps come from.
    pub stamping: crate::stamping::Stamping,
    /// Wakes this process's sealing worker when a document change commits.
    pub seal_wake: Arc<tokio::sync::Notify>,
    /// Wakes this process's render worker when a send commits.
    pub render_wake: Arc<tokio::sync::Notify>,
    /// Webhook delivery: the guarded client, the address policy and the secret box.
    pub hooks: Arc<crate::webhooks::Hooks>,
    /// Pages a document may have (`max_pages`).
    pub max_pages: usize,
    /// Where email goes, and the mail worker's wake-up.
    pub mail: Arc<crate::email::send::Mail>,
}

/// What the document resolvers need beyond the foundation.
pub struct DocumentServices {
    pub renderer: Arc<dyn crate::render::DocRenderer>,
    pub blobs: signet_storage::Blobs,
    pub live: crate::live::StatusBus,
    pub authority: Arc<signet_seal::Authority>,
    pub stamping: crate::stamping::Stamping,
    pub max_pages: usize,
}

impl Ctx {
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        db: Db,
        budget: Budget,
        idempotency: Idempotency,
        daily: Daily,
        secret: &[u8],
        plans: Plans,
        api_log: ApiLogSink,
        documents: DocumentServices,
        webhook_policy: crate::webhooks::guard::Policy,
    ) -> Ctx {
        Ctx {
            db,
            budget,
            idempotency,
            daily,
            key_hasher: Arc::new(hmac::Key::new(hmac::HMAC_SHA256, secret)),
            plans: Arc::new(plans),
            key_cache: Arc::default(),
            api_log,
            renderer: documents.renderer,
            blobs: documents.blobs,
            live: documents.live,
            authority: documents.authority,
            stamping: documents.stamping,
            seal_wake: Arc::default(),
            render_wake: Arc::default(),
            hooks: crate::webhooks::Hooks::new(secret, webhook_policy),
            max_pages: documents.max_pages,
            mail: Arc::new(crate::email::send::Mail::new(
                Arc::new(crate::email::transport::Nowhere),
                "http://127.0.0.1",
            )),
        }
    }

    /// After a document change committed: live status subscribers hear of it, and this
    /// process's webhook worker looks for the events it queued at once instead of at its
    /// next poll.
    pub async fn committed(&self, doc_id: &str) {
        self.live.publish(doc_id).await;
        self.hooks.deliver_wake.notify_one();
        // Nearly every document change queues an email (invitations, reminders, endings).
        self.mail.wake.notify_one();
    }

    /// Sends email through `mail` (the binary's SMTP or folder transport).
    pub fn with_mail(mut self, mail: crate::email::send::Mail) -> Ctx {
        self.mail = Arc::new(mail);
        self
    }

    /// After a commit that queued a `render` or `seal` job: that worker looks at once rather
    /// than at its next poll. Only then: every look reads the outbox, and waking both on
    /// every commit had them look thousands of times a second under a stream of sends.
    pub fn job_queued(&self, kind: crate::outbox::JobKind) {
        use crate::outbox::JobKind;
        match kind {
            JobKind::Render => self.render_wake.notify_one(),
            JobKind::Seal => self.seal_wake.notify_one(),
            JobKind::Email => self.mail.wake.notify_one(),
            JobKind::Event => self.hooks.deliver_wake.notify_one(),
        }
    }
}
