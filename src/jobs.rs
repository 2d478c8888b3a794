//! The one registration list of background work: every kind of job a process runs, one line
//! each. A new kind is its file (the job with its `Job` and its `Handler` or `Pool`, beside
//! the resource it belongs to) and a line here.

use signet_workers::Jobs;

/// Every kind of background work, in the order the runners start.
pub fn jobs() -> Jobs {
    Jobs::new()
        .each::<signet_documents::rendering::Renders>()
        .each::<signet_documents::pictures::Pictures>()
        .each::<signet_documents::seal::Seals>()
        .each::<signet_email::worker::Emails>()
        .each::<signet_email::people::PeopleEmails>()
        .each::<signet_ai::run::AiJobs>()
        .pool::<signet_webhooks::worker::Deliveries>()
}
