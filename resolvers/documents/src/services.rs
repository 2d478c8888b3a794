//! What documents need beyond the core context, registered at start-up (`Ctx::with`).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use futures_util::future::{BoxFuture, Shared};

use super::types::DocumentOut;
use signet_core::{Ctx, DomainError};

/// The document services.
pub struct DocumentServices {
    pub renderer: Arc<dyn crate::render::DocRenderer>,
    /// The sealing keys and the time-stamp authority.
    pub authority: Arc<signet_seal::Authority>,
    /// Where the seals' time stamps come from.
    pub stamping: crate::stamping::Stamping,
    /// Pages a document may have (`max_pages`).
    pub max_pages: usize,
    /// Live status subscriptions' shared reads.
    pub reads: Reads,
}

/// The document services of `ctx`.
pub fn services(ctx: &Ctx) -> &DocumentServices {
    ctx.services.get()
}

/// One read of a document after a change, shared by its subscribers.
pub(super) type Read = Shared<BoxFuture<'static, Result<DocumentOut, DomainError>>>;

/// A document and the number of a change to it.
type Change = (Arc<str>, u64);

/// Shared reads by document and change, with when each began.
#[derive(Default)]
pub struct Reads(pub(super) Mutex<HashMap<Change, (Instant, Read)>>);
