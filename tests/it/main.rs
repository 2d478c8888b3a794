//! End-to-end tests: the real server on port 0, real HTTP, real SQLite or PostgreSQL+Redis,
//! and the real `signet` binary where a command is under test. One binary, so linking is paid
//! once.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod harness;
mod probe;
mod servers;
mod sink;
mod standin;

mod ai;
mod ai_fake;
mod ai_model;
mod app_settings;
mod application;
mod auth;
mod backup;
mod browser;
mod cli;
mod clients;
mod conformance;
mod daily;
mod documents;
mod email;
mod embedding;
mod feedback;
mod forged;
mod frames;
mod graphql;
mod health;
mod hostile;
mod house;
mod idempotency;
mod leaks;
mod limits;
mod live;
mod mcp;
mod passkeys;
mod payments;
mod people;
mod pictures;
mod plays;
mod queue;
mod reads;
mod scaleout;
mod schemathesis;
mod sealing;
mod shutdown;
mod signer_sees;
mod signing_page;
mod snapshots;
mod storage;
mod stripe_standin;
mod templates;
mod webhooks;
