//! sea-orm entities: one module per table, plain data. Timestamps are milliseconds since the
//! epoch (`i64`); lists stored in one column (scopes, CIDRs) are JSON arrays in TEXT.

pub mod api_key;
pub mod api_log;
pub mod team;
pub mod team_member;
pub mod workspace;
