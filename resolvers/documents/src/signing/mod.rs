//! The person-facing side: what a person who opened their signing link sees and does. The
//! page (`GET /s/{token}`) is static; it reads everything through `view` with the link as
//! its credential, and acts through `acts` (opened, consent, sign, decline). Reading never
//! changes anything: mail scanners follow links.
//!
//! Everything a person sends is checked here (`values`), never trusted from the page.

pub mod acts;
mod codes;
pub mod embed;
pub mod identity;
pub mod links;
pub mod pay;
pub mod values;
pub mod view;
pub mod visit;
pub mod words;

pub use view::{DocView, PageOut, PersonView, ViewOut, image, sealed, view, view_waiting};
pub use visit::{Seen, Stage, Visit, language, link_is_live, stage, visit};
pub use words::Disclosure;
