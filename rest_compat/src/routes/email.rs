//! The route table's rows for email wording and the email log.

use super::row::*;
use crate::handlers::email;
use signet_email::log::EmailPageOut;
use signet_email::templates::{
    EmailPreviewOut, EmailTemplateOut, EmailTemplatesOut, EmailWordingIn,
};

pub static ROUTES: &[Route] = &[
    Route::get("/email-templates", "v1.emailTemplates.list", Access::Scope(Scope::NotificationsRead), email::templates_list)
        .summary("The eight kinds of email in one language: the words they go out with, the standard words, what is saved, and each kind's variables")
        .query(&[LOCALE])
        .response(schema_of::<EmailTemplatesOut>),
    Route::put("/email-templates/{kind}", "v1.emailTemplates.save", Access::Scope(Scope::NotificationsWrite), email::templates_save)
        .summary("Save the wording of one kind in one language; a blank or null field keeps the standard words")
        .request(schema_of::<EmailWordingIn>)
        .response(schema_of::<EmailTemplateOut>)
        .body_limit(64 * 1024),
    Route::delete("/email-templates/{kind}", "v1.emailTemplates.reset", Access::Scope(Scope::NotificationsWrite), email::templates_remove)
        .summary("Forget the saved wording of one kind in one language: the standard words again")
        .query(&[LOCALE])
        .response(schema_of::<EmailTemplateOut>),
    Route::post("/email-templates/{kind}/preview", "v1.emailTemplates.preview", Access::Scope(Scope::NotificationsRead), email::templates_preview)
        .summary("Render wording with made-up names: subject, preview line, plain-text body and HTML; nothing is saved")
        .idempotency(Idem::Optional)
        .request(schema_of::<EmailWordingIn>)
        .response(schema_of::<EmailPreviewOut>)
        .body_limit(64 * 1024),
    Route::get("/emails", "v1.emails.list", Access::Scope(Scope::NotificationsRead), email::emails)
        .summary("The email log of the key's mode, newest first: never a body or a link")
        .query(&[
            QueryParam {
                name: "documentId",
                ty: "string",
                description: "Only emails about this document.",
                range: None,
            },
            QueryParam {
                name: "to",
                ty: "string",
                description: "Only emails to this address.",
                range: None,
            },
            QueryParam {
                name: "status",
                ty: "string",
                description: "sent, delivered, bounced, complained, failed or paused.",
                range: None,
            },
            QueryParam {
                name: "kind",
                ty: "string",
                description: "invitation, reminder, completed, declined, voided, expired, code or receipt.",
                range: None,
            },
            LIMIT,
            CURSOR,
        ])
        .response(schema_of::<EmailPageOut>),
];
