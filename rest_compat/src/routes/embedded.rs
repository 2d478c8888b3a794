//! The route table's rows for the builder and Scribe frames' sessions (`embedded:write`).

use super::row::*;
use crate::handlers::embedded;
use signet_accounts::frames::{FrameSessionIn, FrameSessionOut};

const REFUSED: (u16, &str) = (
    409,
    "The website is not on the workspace's list of websites allowed to embed, or embedding is off.",
);

pub static ROUTES: &[Route] = &[
    Route::post(
        "/embedded/builder-session",
        "v1.embedded.builderSession",
        Access::Scope(Scope::EmbeddedWrite),
        embedded::builder_session,
    )
    .summary(
        "A one-hour link to the template builder, where a person writes a template and places \
         its fields, shown on one allowed website",
    )
    .idempotency(Idem::Required)
    .request(schema_of::<FrameSessionIn>)
    .response(schema_of::<FrameSessionOut>)
    .statuses(&[REFUSED]),
    Route::post(
        "/embedded/scribe-session",
        "v1.embedded.scribeSession",
        Access::Scope(Scope::EmbeddedWrite),
        embedded::scribe_session,
    )
    .summary(
        "A one-hour link to Scribe, where a person drafts from a play, shown on one allowed website",
    )
    .idempotency(Idem::Required)
    .request(schema_of::<FrameSessionIn>)
    .response(schema_of::<FrameSessionOut>)
    .statuses(&[REFUSED]),
];
