//! The builder and Scribe frames' session handlers.

use axum::Extension;
use axum::extract::State;
use axum::routing::{MethodRouter, post};
use signet_accounts::frames::{self, Frame, FrameSessionIn};
use signet_core::Actor;
use signet_core::answer::Claim;

use crate::door::idempotency::answered;
use crate::extract::JsonIn;
use crate::{ApiError, AppState};

fn session(frame: Frame) -> MethodRouter<AppState> {
    post(
        move |State(s): State<AppState>,
              Extension(a): Extension<Actor>,
              claim: Option<Extension<Claim>>,
              JsonIn(body): JsonIn<FrameSessionIn>| async move {
            let claim = claim.as_ref().map(|c| &c.0);
            Ok::<_, ApiError>(answered(
                frames::session(&s.ctx, &a, frame, body, claim).await?,
            ))
        },
    )
}

pub fn builder_session() -> MethodRouter<AppState> {
    session(Frame::Builder)
}

pub fn scribe_session() -> MethodRouter<AppState> {
    session(Frame::Scribe)
}
