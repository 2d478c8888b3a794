//! The job kinds: one file each.

mod delivery;
mod email;
mod render;
mod seal;

pub use delivery::deliver;
pub use email::Email;
pub use render::Render;
pub use seal::Seal;
