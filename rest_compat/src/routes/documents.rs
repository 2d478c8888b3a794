//! The route table's rows for documents: made from words, sent, read, acted on, embedded.

use super::row::*;
use crate::handlers::{documents, templates};
use signet_documents::signing::embed::{EmbedSessionIn, EmbedSessionOut};
use signet_documents::templates::TemplateSendIn;
use signet_documents::types::{
    CheckOut, DocumentCheckIn, DocumentCreateIn, DocumentOut, DocumentPageOut, DocumentReviseIn,
    DocumentSourceOut, RemindIn, TestSignIn, VoidIn,
};

pub static ROUTES: &[Route] = &[
    Route::post("/documents/check", "v1.documents.check", Access::Either(Scope::DocumentsRead, Scope::TemplatesWrite), documents::check)
        .summary("What a person would be told about a source before a document is made from it")
        .request(schema_of::<DocumentCheckIn>)
        .response(schema_of::<CheckOut>),
    Route::post("/documents", "v1.documents.create", Access::Scope(Scope::DocumentsWrite), documents::create)
        .summary("Make a document from words: a draft, or sent at once with sendNow")
        .idempotency(Idem::Required)
        .request(schema_of::<DocumentCreateIn>)
        .response(schema_of::<DocumentOut>)
        .success(201)
        .statuses(&[(
            202,
            "sendNow from a draft-only key: the draft is made and its send awaits approval.",
        )]),
    Route::post("/documents/send", "v1.documents.sendTemplate", Access::Scope(Scope::DocumentsWrite), templates::send)
        .summary("Send a template to one party per seat")
        .idempotency(Idem::Required)
        .request(schema_of::<TemplateSendIn>)
        .response(schema_of::<DocumentOut>)
        .success(201)
        .statuses(&[
            (
                202,
                "A draft-only key: the document is made and its send awaits approval.",
            ),
            (409, "The template waits for a person's approval."),
        ]),
    Route::get("/documents", "v1.documents.list", Access::Scope(Scope::DocumentsRead), documents::list)
        .summary("Documents of the key's mode, newest first")
        .query(&[
            QueryParam {
                name: "state",
                ty: "string",
                description: "Only documents in this state.",
                range: None,
            },
            QueryParam {
                name: "externalId",
                ty: "string",
                description: "Only documents with this externalId.",
                range: None,
            },
            QueryParam {
                name: "metadata",
                ty: "object",
                description: "metadata[key]=value, repeatable; all must match.",
                range: None,
            },
            LIMIT,
            CURSOR,
        ])
        .response(schema_of::<DocumentPageOut>),
    Route::get("/documents/{id}", "v1.documents.get", Access::Scope(Scope::DocumentsRead), documents::get_one)
        .summary("A document with where each person is")
        .response(schema_of::<DocumentOut>)
        .statuses(&[NOT_FOUND]),
    Route::get("/documents/{id}/signed.pdf", "v1.documents.signedPdf", Access::Scope(Scope::DocumentsRead), documents::signed_pdf)
        .summary("The sealed PDF with its certificate of completion (PAdES B-LTA); 404 until the document is executed")
        .response(pdf_file)
        .statuses(&[(
        404,
        "No such document, one of the other mode than the key's, or not executed yet.",
    )]),
    Route::get("/documents/{id}/audit-log.csv", "v1.documents.auditLog", Access::Scope(Scope::DocumentsRead), documents::audit_csv)
        .summary("The audit trail as RFC 4180 CSV: time (UTC), event, description, person, document, detail")
        .response(csv_file)
        .statuses(&[NOT_FOUND]),
    Route::get("/documents/{id}/source", "v1.documents.source", Access::Scope(Scope::DocumentsRead), documents::source)
        .summary("The document's words, people and choices")
        .response(schema_of::<DocumentSourceOut>)
        .statuses(&[NOT_FOUND]),
    Route::post("/documents/{id}/revise", "v1.documents.revise", Access::Scope(Scope::DocumentsWrite), documents::revise)
        .summary("Replace a draft with a revised one under a new id; the old draft is deleted")
        .idempotency(Idem::Required)
        .request(schema_of::<DocumentReviseIn>)
        .response(schema_of::<DocumentOut>)
        .success(201)
        .statuses(&[NOT_FOUND, NOT_OUT]),
    Route::post("/documents/{id}/send", "v1.documents.send", Access::Scope(Scope::DocumentsWrite), documents::send)
        .summary("Send a draft for signature")
        .idempotency(Idem::Required)
        .response(schema_of::<DocumentOut>)
        .success(201)
        .statuses(&[
            (
                202,
                "Draft-only key: an approval is filed and the document stays a draft.",
            ),
            NOT_FOUND,
            NOT_OUT,
        ]),
    Route::post("/documents/{id}/remind", "v1.documents.remind", Access::Scope(Scope::DocumentsWrite), documents::remind)
        .summary("Remind everyone who is up, or one seat")
        .idempotency(Idem::Optional)
        .request(schema_of::<RemindIn>)
        .response(schema_of::<DocumentOut>)
        .statuses(&[
            NOT_FOUND,
            (
                409,
                "Nobody is waiting to be reminded, or the document is not out for signature.",
            ),
        ])
        .optional_body(),
    Route::post("/documents/{id}/void", "v1.documents.void", Access::Scope(Scope::DocumentsWrite), documents::void)
        .summary("Void a document still out for signature")
        .idempotency(Idem::Optional)
        .request(schema_of::<VoidIn>)
        .response(schema_of::<DocumentOut>)
        .statuses(&[NOT_FOUND, NOT_OUT])
        .optional_body(),
    Route::post("/documents/{id}/test-sign", "v1.documents.testSign", Access::Scope(Scope::DocumentsWrite), documents::test_sign)
        .summary("Sign a seat of a test document with a test key")
        .idempotency(Idem::Optional)
        .request(schema_of::<TestSignIn>)
        .response(schema_of::<DocumentOut>)
        .statuses(&[
            NOT_FOUND,
            (
                409,
                "Not the seat's turn, already signed, or the document is not out for signature.",
            ),
        ]),
    Route::post("/documents/{id}/embed-session", "v1.documents.embedSession", Access::Scope(Scope::EmbeddedWrite), documents::embed_session)
        .summary("A one-hour link that signs an embedded seat inside your own site")
        .idempotency(Idem::Required)
        .request(schema_of::<EmbedSessionIn>)
        .response(schema_of::<EmbedSessionOut>)
        .statuses(&[
            NOT_FOUND,
            (
                409,
                "The seat was not sent as embedded, it is not its turn, the website is not on the \
                 workspace's list, or embedding is off.",
            ),
        ]),
];
