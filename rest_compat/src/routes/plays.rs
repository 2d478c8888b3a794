//! The route table's rows for plays, playbooks and drafts: a Pro feature, where a key without
//! the route's scope is told so with a 403 (docs/decisions/plays.md).

use super::row::*;
use crate::handlers::plays;
use signet_plays::types::{
    DraftAnswersIn, DraftIn, DraftOut, PlayDuplicateIn, PlayListOut, PlayOut, PlayPublishIn,
    PlaySourceIn, PlayTestOut, PlaybookIn, PlaybookListOut, PlaybookOut,
};

const PLAY_NOT_FOUND: (u16, &str) = (404, "No play of that name, built in or the workspace's.");
/// What the plays routes answer with 403, where every other route answers 401 for a key
/// lacking the scope.
const PRO: (u16, &str) = (
    403,
    "The workspace is not on Pro, or the key lacks the route's scope; the message names which.",
);
/// The largest play file as JSON (every byte may take six escaped), and room for the rest.
const PLAY_BODY_LIMIT: usize = 6 * signet_plays::header::MAX_FILE_BYTES + 4 * 1024;

pub static ROUTES: &[Route] = &[
    Route::get("/plays", "v1.plays.list", Access::Pro(Scope::PlaysRead), plays::list)
        .summary("Built-in plays and the workspace's published ones, each with name, one-line description, kind and category")
        .query(&[
            QueryParam {
                name: "kind",
                ty: "string",
                description: "document or template.",
                range: None,
            },
            QueryParam {
                name: "category",
                ty: "string",
                description: "Only plays of this category (confidentiality, services, employment, ...).",
                range: None,
            },
        ])
        .response(schema_of::<PlayListOut>)
        .statuses(&[PRO]),
    Route::post("/plays", "v1.plays.create", Access::Pro(Scope::PlaysWrite), plays::create)
        .summary("Save a play file as a new immutable version; the first save of a name makes the play, unpublished")
        .idempotency(Idem::Optional)
        .request(schema_of::<PlaySourceIn>)
        .response(schema_of::<PlayOut>)
        .success(201)
        .statuses(&[PRO, (409, "Saved by another request at the same moment; retry.")])
        .body_limit(PLAY_BODY_LIMIT),
    Route::post("/plays/test", "v1.plays.test", Access::Pro(Scope::PlaysRead), plays::test)
        .summary("A dry run: every problem of the file at once with its line and column, the words checked as a document's, the questions in rounds; nothing is saved")
        .idempotency(Idem::Optional)
        .request(schema_of::<PlaySourceIn>)
        .response(schema_of::<PlayTestOut>)
        .statuses(&[PRO])
        .body_limit(PLAY_BODY_LIMIT),
    Route::get("/plays/{name}", "v1.plays.get", Access::Pro(Scope::PlaysRead), plays::one)
        .summary("One play with its versions, which is published, and the file of the published (else newest) version")
        .response(schema_of::<PlayOut>)
        .statuses(&[PRO, PLAY_NOT_FOUND]),
    Route::delete("/plays/{name}", "v1.plays.archive", Access::Pro(Scope::PlaysWrite), plays::archive)
        .summary("Archive a play: it leaves the list and cannot be drafted from; drafts already made keep their words")
        .response(schema_of::<PlayOut>)
        .statuses(&[PRO, PLAY_NOT_FOUND]),
    Route::post("/plays/{name}/publish", "v1.plays.publish", Access::Pro(Scope::PlaysWrite), plays::publish)
        .summary("Make one version the one drafts use")
        .idempotency(Idem::Optional)
        .request(schema_of::<PlayPublishIn>)
        .response(schema_of::<PlayOut>)
        .statuses(&[PRO, PLAY_NOT_FOUND, (409, "The play is archived.")])
        .body_limit(4 * 1024),
    Route::post("/plays/{name}/duplicate", "v1.plays.duplicate", Access::Pro(Scope::PlaysWrite), plays::duplicate)
        .summary("Copy a play (built in or the workspace's) as version 1 of a new play, unpublished")
        .idempotency(Idem::Optional)
        .request(schema_of::<PlayDuplicateIn>)
        .response(schema_of::<PlayOut>)
        .success(201)
        .statuses(&[PRO, PLAY_NOT_FOUND, (409, "A play of the new name exists.")])
        .body_limit(4 * 1024),
    Route::get("/playbooks", "v1.playbooks.list", Access::Pro(Scope::PlaysRead), plays::playbooks)
        .summary("The workspace's playbooks: named, ordered sets of plays that Scribe offers")
        .response(schema_of::<PlaybookListOut>)
        .statuses(&[PRO]),
    Route::post("/playbooks", "v1.playbooks.create", Access::Pro(Scope::PlaysWrite), plays::playbook_save)
        .summary("Save a playbook under its name (saving a name again replaces it); every play it names must exist")
        .idempotency(Idem::Optional)
        .request(schema_of::<PlaybookIn>)
        .response(schema_of::<PlaybookOut>)
        .success(201)
        .statuses(&[PRO])
        .body_limit(16 * 1024),
    Route::post("/drafts", "v1.drafts.create", Access::Pro(Scope::DraftsWrite), plays::draft)
        .summary("Start a draft from a play: the next questions (needs_input, up to 4) or the new draft document (draft); nothing is ever sent")
        .idempotency(Idem::Optional)
        .request(schema_of::<DraftIn>)
        .response(schema_of::<DraftOut>)
        .statuses(&[
            PRO,
            PLAY_NOT_FOUND,
            (409, "The play has no published version."),
            (429, "The key's daily draft and send limit, or the workspace's 1,000 drafts a day, is used up; carries Retry-After."),
        ])
        .body_limit(256 * 1024),
    Route::get("/drafts/{draftRef}/pages", "v1.drafts.pages", Access::Pro(Scope::DraftsWrite), plays::draft_pages)
        .summary("The pages of the draft document a draft made, drawn as a send lays them out (an addition, for Scribe)")
        .response(schema_of::<signet_documents::templates::TemplatePreviewOut>)
        .statuses(&[
            PRO,
            (404, "No such draft reference, or it is over a day old, or of another mode, or its document is no longer a draft."),
            (409, "The draft still has questions to answer."),
        ]),
    Route::post("/drafts/{draftRef}/answers", "v1.drafts.answers", Access::Pro(Scope::DraftsWrite), plays::draft_answers)
        .summary("Answer a draft's questions: the next ones, or the new draft document")
        .idempotency(Idem::Optional)
        .request(schema_of::<DraftAnswersIn>)
        .response(schema_of::<DraftOut>)
        .statuses(&[
            PRO,
            (404, "No such draft reference, or it is over a day old, or of another mode."),
            (409, "The draft was already made with other answers, or is being made."),
        ])
        .body_limit(64 * 1024),
];
