#![doc = include_str!("../README.md")]

mod asn1;
mod ca;
mod cms;
mod error;
mod incremental;
mod pades;
mod pkcs12;
pub mod remote;
mod stamp;
mod tsa;

pub use ca::{Authority, AuthorityFiles, NewAuthority};
pub use error::SealError;
pub use pades::seal;
pub use stamp::stamp;
pub use tsa::{TimeStamper, Tsa};

#[cfg(test)]
mod tests;
