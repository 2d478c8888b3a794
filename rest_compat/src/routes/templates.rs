//! The route table's rows for templates: made from words, HTML or files, read, and documents made from them.

use super::row::*;
use crate::handlers::templates;
use signet_documents::templates::{
    PreviewPageOut, TemplateDefaults, TemplateDocumentIn, TemplateFileIn, TemplateHtmlIn,
    TemplateOut, TemplatePageOut, TemplatePreviewIn, TemplatePreviewOut, TemplateSourceIn,
    TemplateSourceOut, TemplateVersionIn,
};
use signet_documents::types::DocumentOut;

pub static ROUTES: &[Route] = &[
    Route::get("/documents/templates", "v1.documents.templates", Access::Scope(Scope::TemplatesRead), templates::list)
        .summary("Approved, current templates to send from, with their seats, newest first")
        .query(&[LIMIT, CURSOR])
        .response(schema_of::<TemplatePageOut>),
    Route::post("/templates/source", "v1.templates.createSource", Access::Scope(Scope::TemplatesWrite), templates::create_source)
        .summary("Make a template from words: its roles are its seats, its unanswered custom chips its questions")
        .idempotency(Idem::Required)
        .request(schema_of::<TemplateSourceIn>)
        .response(schema_of::<TemplateOut>)
        .success(201),
    Route::post("/templates/html", "v1.templates.createHtml", Access::Scope(Scope::TemplatesWrite), templates::create_html)
        .summary("Make a template from an HTML page: cleaned with an allow-list, printed by Typst, a field at each text tag")
        .idempotency(Idem::Required)
        .request(schema_of::<TemplateHtmlIn>)
        .response(schema_of::<TemplateOut>)
        .success(201)
        .body_limit(HTML_BODY_LIMIT),
    Route::post("/templates/file", "v1.templates.createFile", Access::Scope(Scope::TemplatesWrite), templates::create_file)
        .summary("Make a template from a PDF with text tags: made safe, a field at each tag, the tags taken out of the page")
        .idempotency(Idem::Required)
        .request(schema_of::<TemplateFileIn>)
        .response(schema_of::<TemplateOut>)
        .success(201)
        .body_limit(FILE_BODY_LIMIT),
    Route::get("/templates/{id}", "v1.templates.get", Access::Scope(Scope::TemplatesRead), templates::get_one)
        .summary("A template with its seats, questions, fields and defaults")
        .response(schema_of::<TemplateOut>)
        .statuses(&[(404, "No such template in this workspace.")]),
    Route::get("/templates/{id}/source", "v1.templates.source", Access::Scope(Scope::TemplatesRead), templates::source)
        .summary("A template's words as saved, and the version they are (an addition: the builder edits from it)")
        .response(schema_of::<TemplateSourceOut>)
        .statuses(&[(404, "No such template in this workspace.")]),
    Route::get("/templates/{id}/pages/{page}", "v1.templates.page", Access::Scope(Scope::TemplatesRead), templates::page)
        .summary("A page of a template made from a file, drawn 750 pixels wide, to place fields on (an addition)")
        .response(schema_of::<PreviewPageOut>)
        .statuses(&[(404, "No such template in this workspace, or no such page of its file.")]),
    Route::post("/templates/{id}/versions", "v1.templates.newVersion", Access::Scope(Scope::TemplatesWrite), templates::new_version)
        .summary("Save new words as a template's next version, which later documents use (an addition)")
        .idempotency(Idem::Required)
        .request(schema_of::<TemplateVersionIn>)
        .response(schema_of::<TemplateOut>)
        .success(201)
        .statuses(&[
            (404, "No such template in this workspace."),
            (409, "The template was saved since the version given was read."),
        ]),
    Route::post("/templates/preview", "v1.templates.preview", Access::Scope(Scope::TemplatesWrite), templates::preview)
        .summary("The pages a signer would see, drawn from words not saved yet, with each field's box (an addition)")
        .request(schema_of::<TemplatePreviewIn>)
        .response(schema_of::<TemplatePreviewOut>)
        .statuses(&[(429, "A preview of this workspace is being drawn; ask again when it is done.")]),
    Route::post("/templates/{id}/documents", "v1.templates.documents", Access::Scope(Scope::DocumentsWrite), templates::documents)
        .summary("A document from a written template, with answers to its questions; a draft unless sendNow")
        .idempotency(Idem::Required)
        .request(schema_of::<TemplateDocumentIn>)
        .response(schema_of::<DocumentOut>)
        .success(201)
        .statuses(&[(404, "No such template in this workspace.")]),
    Route::post("/templates/{id}/defaults", "v1.templates.defaults", Access::Scope(Scope::TemplatesWrite), templates::defaults)
        .summary("Save what every later document of the template starts with")
        .idempotency(Idem::Optional)
        .request(schema_of::<TemplateDefaults>)
        .response(schema_of::<TemplateOut>)
        .statuses(&[(404, "No such template in this workspace.")])
        .body_limit(64 * 1024)
        .optional_body(),
];
