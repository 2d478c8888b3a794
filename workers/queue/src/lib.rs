#![doc = include_str!("../README.md")]

mod claim;
mod end;
mod job;
mod look;
pub mod pacing;
mod queue;

pub use claim::{Claim, PER_WORKSPACE, claim, settle};
pub use end::{
    Claimed, MAX_ATTEMPTS, backoff, cancel, done, done_and_forgotten, finish, finish_all,
    give_back, give_up, held, mark_done_sql, release, release_held, release_in, release_until,
    retry_later,
};
pub use job::{Batch, Enqueued, HELD, Job, Owner, decode, enqueue};
pub use look::{KindCount, counts, queued_probe, queued_sql, waiting_sql};
pub use queue::{Queue, SWEEP};
