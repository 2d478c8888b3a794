//! The currencies a payment may be asked in, kept beside the source model that reads amounts
//! (`signet_source::currencies`) and offered here to every resolver.

pub use signet_source::currencies::*;
