//! Plays, playbooks and drafts (issue 40; decisions in docs/decisions/plays.md). So far: the
//! play file's header (`header`), read from YAML as data only, every problem named with its
//! line and column. The words, versions, the dry run, playbooks and drafts come next.

pub mod body;
pub mod header;
pub mod play;
