//! A request's idempotent answer, written in the same transaction as the action it answers.
//!
//! The door holds the request's Idempotency-Key (`signet_storage::state::Claim`) and hands it
//! to the handler. A resolver given one stores its answer inside its own transaction, so the
//! action and the answer a retry will read commit together or not at all: a process that
//! stops between the two can no longer leave an action done with no answer to replay, which
//! a retry would then do again. It also saves a second write per request.

use serde::Serialize;
use signet_storage::Sql;
use signet_storage::state::Stored;

pub use signet_storage::state::Claim;

use crate::{Ctx, DomainError};

/// What a creator answers: the status, the value, and, when it stored the answer itself, the
/// exact JSON it stored, which is what the caller must send back.
#[derive(Debug)]
pub struct Made<T> {
    pub status: u16,
    pub out: T,
    pub stored: Option<String>,
    /// The answer holds a secret shown once (a webhook signing secret): whoever stores it
    /// for replay seals it first (`seal_answer`), as the secret itself is sealed at rest.
    pub secret: bool,
}

impl<T> Made<T> {
    pub fn plain(status: u16, out: T) -> Made<T> {
        Made {
            status,
            out,
            stored: None,
            secret: false,
        }
    }
}

/// A stored answer that holds a secret, sealed with the server's key for webhook secrets.
pub fn seal_answer(ctx: &Ctx, body: &str) -> String {
    ctx.secrets.seal(body)
}

/// A stored answer as it is sent again: opened when it was sealed (`seal_answer`).
pub fn open_answer(ctx: &Ctx, body: String) -> Result<String, DomainError> {
    if crate::secret_box::is_sealed(&body) {
        return ctx.secrets.open(&body);
    }
    Ok(body)
}

/// Inside the action's transaction: serialises `out` and stores it as the claim's answer.
/// Another request's answer already stored under the key (a claim that outlived its lock)
/// makes the whole transaction fail with a retryable conflict, so nothing is done twice.
pub async fn store<C: Sql, T: Serialize>(
    txn: &C,
    ctx: &Ctx,
    claim: Option<&Claim>,
    status: u16,
    out: T,
) -> Result<Made<T>, DomainError> {
    if claim.is_none() {
        return Ok(Made::plain(status, out));
    }
    Ready::new(status, out)?.store(txn, ctx, claim).await
}

/// An answer known before its transaction runs, serialised there, so that the transaction
/// (on SQLite, the one writer thread) only stores it (see `store`).
pub struct Ready<T> {
    status: u16,
    out: T,
    body: String,
    /// The body holds a secret: stored sealed (see `Made::secret`).
    secret: bool,
}

impl<T: Serialize> Ready<T> {
    pub fn new(status: u16, out: T) -> Result<Ready<T>, DomainError> {
        let body = serde_json::to_string(&out)
            .map_err(|e| DomainError::Internal(format!("serialising the answer: {e}")))?;
        Ok(Ready {
            status,
            out,
            body,
            secret: false,
        })
    }

    /// An answer holding a secret: stored sealed, sent as it is.
    pub fn secret(status: u16, out: T) -> Result<Ready<T>, DomainError> {
        Ok(Ready {
            secret: true,
            ..Ready::new(status, out)?
        })
    }
}

impl<T> Ready<T> {
    /// Stores the answer as the claim's, inside the action's transaction.
    pub async fn store<C: Sql>(
        self,
        txn: &C,
        ctx: &Ctx,
        claim: Option<&Claim>,
    ) -> Result<Made<T>, DomainError> {
        let Ready {
            status,
            out,
            body,
            secret,
        } = self;
        let Some(claim) = claim else {
            return Ok(Made {
                secret,
                ..Made::plain(status, out)
            });
        };
        let stored = Stored {
            status,
            body: if secret {
                seal_answer(ctx, &body)
            } else {
                body.clone()
            },
        };
        if !claim.store_in(txn, &ctx.db, &stored).await? {
            return Err(DomainError::Conflict {
                message: "Idempotency-Key: another request with this key has already answered; retry to read its answer".into(),
                retryable: true,
            });
        }
        Ok(Made {
            status,
            out,
            stored: Some(body),
            secret,
        })
    }
}
