#![doc = include_str!("../README.md")]

pub mod backup;
pub mod blobs;
mod clock;
pub mod db;
pub mod entities;
mod error;
pub mod ids;
pub mod inline;
mod insert;
pub mod migrations;
pub mod sql;
pub mod state;

pub use blobs::Blobs;
pub use clock::{Clock, now_ms};
pub use db::{Backend, Db, Txn};
pub use error::StorageError;
pub use insert::insert_rows;
pub use sea_orm;
pub use sea_orm_migration;
pub use sql::{Cells, Row, Sql};
