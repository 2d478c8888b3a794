//! What can go wrong while sealing.

#[derive(Debug, thiserror::Error)]
pub enum SealError {
    #[error("certificate: {0}")]
    Certificate(String),
    #[error("key: {0}")]
    Key(String),
    #[error("pdf: {0}")]
    Pdf(String),
    #[error("time stamp: {0}")]
    TimeStamp(String),
}
