#![doc = include_str!("../README.md")]

mod asn1;
mod ca;
mod cms;
mod incremental;
mod pades;
mod pkcs12;
pub mod remote;
mod stamp;
mod tsa;

pub use ca::{Authority, AuthorityFiles, NewAuthority};
pub use pades::seal;
pub use stamp::stamp;
pub use tsa::Tsa;

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

/// Where time stamps come from: the built-in authority, or an external one.
pub trait TimeStamper {
    /// An RFC 3161 token (a CMS ContentInfo) over a SHA-256 digest.
    fn stamp(&self, sha256: &[u8]) -> Result<Vec<u8>, SealError>;
}

impl TimeStamper for Tsa {
    fn stamp(&self, sha256: &[u8]) -> Result<Vec<u8>, SealError> {
        self.token(sha256, chrono::Utc::now())
    }
}

impl<T: TimeStamper + ?Sized> TimeStamper for &T {
    fn stamp(&self, sha256: &[u8]) -> Result<Vec<u8>, SealError> {
        (**self).stamp(sha256)
    }
}

#[cfg(test)]
mod tests;
