//! The route table's rows for AI drafting: jobs started with `documents:write` and read with
//! `documents:read` (docs/decisions/ai.md).

use super::row::*;
use crate::handlers::ai;
use signet_ai::types::{AiDraftIn, AiEditIn, AiJobOut, WizardOut};

const JOB_NOT_FOUND: (u16, &str) = (404, "No such AI job in this workspace and mode.");
const REFUSED: (u16, &str) = (
    403,
    "AI drafting is not set up on this installation, or is off for the workspace; the message says which and who can turn it on.",
);
const SPENT: (u16, &str) = (
    429,
    "The workspace's AI jobs or tokens for the day are used up (or the key's budget); carries Retry-After.",
);

pub static ROUTES: &[Route] = &[
    Route::post("/documents/ai/draft", "v1.ai.draft", Access::Scope(Scope::DocumentsWrite), ai::draft)
        .summary("Start a job that drafts a document or template from a prompt and a brief; poll the job; nothing is saved or sent")
        .idempotency(Idem::Optional)
        .request(schema_of::<AiDraftIn>)
        .response(schema_of::<AiJobOut>)
        .success(202)
        .statuses(&[REFUSED, SPENT])
        .body_limit(64 * 1024),
    Route::post("/documents/ai/edit", "v1.ai.edit", Access::Scope(Scope::DocumentsWrite), ai::edit)
        .summary("Start a job that proposes changes to the given words and answers to their questions; nothing changes until the caller applies them")
        .idempotency(Idem::Optional)
        .request(schema_of::<AiEditIn>)
        .response(schema_of::<AiJobOut>)
        .success(202)
        .statuses(&[REFUSED, SPENT])
        .body_limit(DEFAULT_BODY_LIMIT),
    Route::get("/documents/ai/jobs/{id}", "v1.ai.job", Access::Scope(Scope::DocumentsRead), ai::job)
        .summary("An AI job: its state, and when done its source and patches; when failed, why")
        .response(schema_of::<AiJobOut>)
        .statuses(&[JOB_NOT_FOUND]),
    Route::post("/documents/ai/jobs/{id}/cancel", "v1.ai.cancel", Access::Scope(Scope::DocumentsWrite), ai::cancel)
        .summary("Cancel an AI job: a queued one never runs, a running one is abandoned and nothing more is counted; a finished one is answered as it is")
        .idempotency(Idem::Optional)
        .response(schema_of::<AiJobOut>)
        .statuses(&[JOB_NOT_FOUND])
        .body_limit(1024),
    Route::get("/ai/wizard", "v1.ai.wizard", Access::Scope(Scope::DocumentsRead), ai::wizard)
        .summary("The questions whose answers make a brief, payment questions and currencies included, in the workspace's default language or `locale`")
        .query(&[QueryParam {
            name: "locale",
            ty: "string",
            description: "One of the 14 languages (en, es, fr, de, pt, it, nl, pl, tr, ru, ar, ja, zh, ko).",
            range: None,
        }])
        .response(schema_of::<WizardOut>),
];
