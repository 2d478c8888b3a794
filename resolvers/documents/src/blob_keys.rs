//! Where stored files live: every blob key the documents crate makes, in one place.

/// Where a file template's version keeps its PDF.
pub fn template_file(template_id: &str, version: i64) -> String {
    format!("templates/{template_id}/v{version}.pdf")
}

/// Whether `blob` is the file of template `template_id` at a version up to `version`: a
/// version that places fields keeps the file of the version it was made from.
pub fn is_template_file(blob: &str, template_id: &str, version: i64) -> bool {
    blob.strip_prefix(&format!("templates/{template_id}/v"))
        .and_then(|rest| rest.strip_suffix(".pdf"))
        .and_then(|v| v.parse::<i64>().ok())
        .is_some_and(|v| (1..=version).contains(&v))
}

/// The folder of a document's files: its renders, their pictures, its sealed copy.
pub fn document_folder(doc_id: &str) -> String {
    format!("documents/{doc_id}")
}

/// A new render's PDF: a name of its own per render, so that a second worker racing on the
/// document (which will lose at the conditional UPDATE) cannot overwrite the winner's file.
/// It starts with `render`, which is how `leftovers::remove` knows a render's file from a
/// seal's; the render's pictures share its stem.
pub fn render_file(doc_id: &str) -> String {
    format!(
        "{}/{}.pdf",
        document_folder(doc_id),
        signet_core::ids::new_id("render").to_lowercase()
    )
}

/// The blob key of a rendered file's page picture `page` (from 1) at `width` pixels.
pub fn image_key(pdf_blob: &str, page: usize, width: u32) -> String {
    format!("{}.p{page}.{width}.png", stem(pdf_blob))
}

/// The blob key of a rendered file's page index: `{"widths": [...], "pages": [{"size":
/// [w, h], "text": [...]}]}`, written once every picture exists.
pub fn index_key(pdf_blob: &str) -> String {
    format!("{}.pages.json", stem(pdf_blob))
}

/// The blob key of the text runs a render kept for each page, until the index takes them.
pub fn text_key(pdf_blob: &str) -> String {
    format!("{}.text.json", stem(pdf_blob))
}

fn stem(pdf_blob: &str) -> &str {
    pdf_blob.trim_end_matches(".pdf")
}

/// A new sealed copy's PDF, a name of its own per try.
pub fn sealed_file(doc_id: &str) -> String {
    format!(
        "{}/sealed-{}.pdf",
        document_folder(doc_id),
        signet_core::ids::new_id("seal").to_lowercase()
    )
}
