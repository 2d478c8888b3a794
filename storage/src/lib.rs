#![doc = include_str!("../README.md")]

pub mod backup;
pub mod blobs;
pub mod db;
pub mod entities;
pub mod inline;
pub mod migrations;
pub mod sql;
pub mod state;

pub use blobs::Blobs;
pub use db::{Backend, Db, StorageError, Txn};
pub use sea_orm;
pub use sea_orm_migration;
pub use sql::{Cells, Row, Sql};

/// Milliseconds since the Unix epoch: every timestamp column stores this, so SQLite and
/// PostgreSQL compare and sort times alike.
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}
