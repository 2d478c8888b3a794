//! The one error of the domain. Its kinds are the spec's; `rest_compat` maps them to HTTP
//! statuses and `schema` to GraphQL `extensions.kind`, both from `kind()`.

use signet_storage::StorageError;

#[derive(Clone, Debug, thiserror::Error)]
pub enum DomainError {
    /// The request is not valid; the message names the field and the reason.
    #[error("{0}")]
    Invalid(String),
    /// Any credential failure. The message is always the same.
    #[error("{}", UNAUTHENTICATED)]
    Unauthenticated,
    #[error("{0}")]
    Forbidden(String),
    #[error("{0}")]
    NotFound(String),
    #[error("{message}")]
    Conflict { message: String, retryable: bool },
    #[error("{message}")]
    RateLimited {
        message: String,
        retry_after_secs: u64,
    },
    #[error("{0}")]
    Dependency(String),
    #[error("{0}")]
    Timeout(String),
    /// Something we did not expect. Logged with its detail; answered without it.
    #[error("internal error: {0}")]
    Internal(String),
}

pub const UNAUTHENTICATED: &str =
    "The API key is missing, not valid, or not allowed to make this request.";
pub const INTERNAL: &str =
    "Something went wrong on our side. Quote the requestId to support if it persists.";

impl DomainError {
    pub fn invalid(field: &str, reason: impl std::fmt::Display) -> DomainError {
        DomainError::Invalid(format!("{field}: {reason}"))
    }

    pub fn conflict(message: impl Into<String>) -> DomainError {
        DomainError::Conflict {
            message: message.into(),
            retryable: false,
        }
    }

    pub fn kind(&self) -> &'static str {
        match self {
            DomainError::Invalid(_) => "invalid",
            DomainError::Unauthenticated => "unauthenticated",
            DomainError::Forbidden(_) => "forbidden",
            DomainError::NotFound(_) => "not_found",
            DomainError::Conflict { .. } => "conflict",
            DomainError::RateLimited { .. } => "rate_limited",
            // The spec's list of kinds is closed; an unexpected failure is reported as a
            // dependency failure (retryable), with status 500 so it is told apart.
            DomainError::Dependency(_) | DomainError::Internal(_) => "dependency",
            DomainError::Timeout(_) => "timeout",
        }
    }

    pub fn retryable(&self) -> bool {
        match self {
            DomainError::Conflict { retryable, .. } => *retryable,
            DomainError::RateLimited { .. }
            | DomainError::Dependency(_)
            | DomainError::Timeout(_)
            | DomainError::Internal(_) => true,
            _ => false,
        }
    }

    /// What the caller is told: internal detail never leaves the process.
    pub fn public_message(&self) -> String {
        match self {
            DomainError::Internal(_) => INTERNAL.to_string(),
            other => other.to_string(),
        }
    }
}

impl From<StorageError> for DomainError {
    fn from(e: StorageError) -> Self {
        DomainError::Internal(e.to_string())
    }
}

impl From<sea_orm::DbErr> for DomainError {
    fn from(e: sea_orm::DbErr) -> Self {
        DomainError::Internal(format!("database: {e}"))
    }
}

impl async_graphql::ErrorExtensions for DomainError {
    fn extend(&self) -> async_graphql::Error {
        if let DomainError::Internal(detail) = self {
            tracing::error!(%detail, "unexpected error in a GraphQL resolver");
        }
        async_graphql::Error::new(self.public_message()).extend_with(|_, ext| {
            ext.set("kind", self.kind());
            ext.set("retryable", self.retryable());
        })
    }
}
