//! The services every resolver may use, built once at start-up and cloned per request.

use std::sync::Arc;

use ring::hmac;
use signet_storage::Db;
use signet_storage::state::{Budget, Idempotency};

use crate::api_log::ApiLogSink;
use crate::plans::Plans;

#[derive(Clone)]
pub struct Ctx {
    pub db: Db,
    pub budget: Budget,
    pub idempotency: Idempotency,
    /// Keyed hash for API keys: only HMAC-SHA256(secret, key) is ever stored.
    pub key_hasher: Arc<hmac::Key>,
    pub plans: Arc<Plans>,
    pub api_log: ApiLogSink,
}

impl Ctx {
    pub fn new(
        db: Db,
        budget: Budget,
        idempotency: Idempotency,
        secret: &[u8],
        plans: Plans,
        api_log: ApiLogSink,
    ) -> Ctx {
        Ctx {
            db,
            budget,
            idempotency,
            key_hasher: Arc::new(hmac::Key::new(hmac::HMAC_SHA256, secret)),
            plans: Arc::new(plans),
            api_log,
        }
    }
}
