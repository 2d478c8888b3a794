//! The one error of storage.

#[derive(Debug, thiserror::Error)]
pub enum StorageError {
    #[error("database: {0}")]
    Db(#[from] sea_orm::DbErr),
    #[error("redis: {0}")]
    Redis(#[from] redis::RedisError),
    #[error("stored data is not readable: {0}")]
    Corrupt(String),
    /// The bucket did not answer, or refused.
    #[error("file store: {0}")]
    Bucket(String),
}
