//! Where stored files live: the blob keys that more than one part of the domain names.

/// Where a file template's version keeps its PDF.
pub fn template_file(template_id: &str, version: i64) -> String {
    format!("templates/{template_id}/v{version}.pdf")
}
