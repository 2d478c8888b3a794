//! Plays, playbooks and drafts (issue 40; decisions in docs/decisions/plays.md, the file's
//! grammar in docs/plays.md). A play is a text file, read as data only: its header
//! (`header`) and its words (`body`), read whole in `play`; the built-in plays (`builtin`);
//! the workspace's plays with their immutable versions and the dry run (`library`);
//! playbooks (`playbooks`); drafts that ask in rounds and make a draft document
//! (`drafting`). Who may use them: `access`.

pub mod access;
pub mod body;
pub mod builtin;
pub mod drafting;
pub mod header;
pub mod library;
pub mod play;
pub mod playbooks;
pub mod types;
