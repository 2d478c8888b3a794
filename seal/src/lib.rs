#![doc = include_str!("../README.md")]

mod asn1;
mod ca;
mod cms;
mod incremental;
mod pades;
mod stamp;
mod tsa;

pub use ca::{Authority, NewAuthority};
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
}

#[cfg(test)]
mod tests;
