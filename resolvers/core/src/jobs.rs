//! What a kind of background work is to the workers: its typed job and the domain's `run`.
//! The queue itself (rows, claims, leases, back-off, dispatch) is `signet-queue`; the loop
//! that runs handlers is `signet-workers`; each handler lives with its resource, beside the
//! job it takes, and the binary's registration list (`src/jobs.rs`) names them all. Adding a
//! job kind is its file (the job, its `Job` and `Handler`) and one line in that list.

use std::collections::BTreeMap;
use std::time::Duration;

pub use signet_queue::{Batch, Claimed, Enqueued, Job, Owner};

use crate::{Ctx, DomainError};

/// A kind of queued job taken a pass at a time: the runner claims up to `BATCH` due jobs of
/// `Self::Job`'s kind under a lease and hands them to `run`, which ends each one (done, a
/// later try, given up) inside or after the transaction of its work.
#[async_trait::async_trait]
pub trait Handler: Send + Sync + 'static {
    /// The job it takes (its kind is the outbox's `kind`).
    type Job: Job;
    /// Jobs one pass claims; a pass that took this many is followed by another at once.
    const BATCH: i64;
    /// The longest the runner waits between passes without a wake-up (SQL alone; with Redis
    /// the runner waits for Redis's wake-up or the next due job).
    const POLL: Duration = Duration::from_secs(1);

    /// How long a claimed job is this worker's before another may take it.
    fn lease_ms(ctx: &Ctx) -> i64;

    /// Runs the claimed jobs and ends each one.
    async fn run(ctx: &Ctx, claimed: Vec<Claimed>) -> Result<(), DomainError>;

    /// Records that the claim gave these jobs up after every try failed (the job rows are
    /// already marked failed).
    async fn gave_up(_ctx: &Ctx, _jobs: &[Claimed]) -> Result<(), DomainError> {
        Ok(())
    }

    /// Waits, if the kind must, before a pass (email waits for a lull in requests).
    async fn before(_ctx: &Ctx) {}
}

/// An item a pool leased: its id and lease (to give it back when the worker stops), the
/// shares it counts against, and what the pool's `run_one` needs.
pub struct Leased<I> {
    pub id: String,
    /// When the lease runs out; while unchanged, the item is still this worker's.
    pub until: i64,
    /// The narrow share (a webhook endpoint) and the wide one (its workspace).
    pub narrow: String,
    pub wide: String,
    pub item: I,
}

/// A kind of work run as a pool of items in flight rather than in passes: each item is
/// leased, run concurrently, and recorded as it ends, with a share of the slots per narrow
/// and wide key so one slow receiver or workspace cannot hold everyone's. Webhook delivery is
/// one: a fan-out of events into messages, then messages posted.
#[async_trait::async_trait]
pub trait Pool: Send + Sync + 'static {
    /// For logs.
    const NAME: &'static str;
    /// The queue kind whose wake-up starts a look (new work was queued).
    const WAKE: &'static str;
    /// Items one look leases at most.
    const BATCH: usize;
    /// Items of one narrow key in flight at most.
    const PER_NARROW: usize;
    type Item: Send + Sync + 'static;
    type Done: Send + 'static;

    /// Work turned into items before each lease (events fanned out into messages). Answers
    /// how much it took; `BATCH` or more means more waits.
    async fn prepare(ctx: &Ctx) -> Result<usize, DomainError>;

    /// Leases up to `n` due items for `lease_ms`, none of the narrow keys in `skip`.
    async fn lease(
        ctx: &Ctx,
        n: usize,
        lease_ms: i64,
        skip: &[String],
    ) -> Result<Vec<Leased<Self::Item>>, DomainError>;

    /// Runs one item.
    async fn run_one(ctx: &Ctx, item: Self::Item) -> Self::Done;

    /// The id of the item a finished one was.
    fn id_of(done: &Self::Done) -> &str;

    /// Records finished items, in one transaction.
    async fn record(ctx: &Ctx, done: &[Self::Done]) -> Result<(), DomainError>;

    /// Puts leased items back, due again shortly (their share was full).
    async fn put_back(ctx: &Ctx, ids: &[String]) -> Result<(), DomainError>;

    /// With Redis, files the pool's live work in Redis again (see `signet_queue::SWEEP`).
    async fn sweep(_ctx: &Ctx) -> Result<(), DomainError> {
        Ok(())
    }

    /// Gives back the leases a stopped worker still held (id to lease end), due again at once.
    /// Answers how many were given back.
    async fn give_back(ctx: &Ctx, held: BTreeMap<String, i64>) -> Result<u64, DomainError>;
}
