//! Documents, templates and signing: checks, drafts, reads, the lifecycle, rendering, sealing
//! and what the signing page reads and does. Every rule lives here; REST and GraphQL call
//! these functions and add nothing.

mod approvals;
pub mod blob_keys;
mod create;
pub mod dates;
mod draft;
mod ending;
pub mod input;
pub mod jobs;
mod leftovers;
mod lifecycle;
pub mod live;
mod new_draft;
pub mod payments;
pub mod pictures;
mod reads;
pub mod record;
pub mod render;
pub mod rendering;
pub mod rules;
pub mod seal;
mod send;
mod services;
mod signatures;
pub mod signing;
pub mod stamping;
pub mod state;
pub mod store;
pub mod templates;
pub mod trail;
pub mod types;

pub use approvals::{approvals, approvals_decide, approvals_list, decide_approval};
pub(crate) use create::facts_with_defaults as facts_for;
pub(crate) use create::problems_error as problems;
pub(crate) use draft::Draft;

pub(crate) use create::check_for_template;
pub use create::{check, create, revise};
pub(crate) use ending::end_in;
pub use ending::{remind, sweep, void};
pub(crate) use lifecycle::locale;
pub use reads::{get, list, source, source_sized, trail_genesis};
pub(crate) use reads::{not_found, out_of, parse_json_map, visible};
pub use record::{FileOut, audit_csv, audit_log, signed_pdf};
pub use send::send;
pub use services::{DocumentServices, Reads, services};
pub(crate) use signatures::record_signature;
pub use signatures::test_sign;
