//! Resources: a document's audit trail (CSV) and a template's seats (JSON), named by URI
//! templates.

use rmcp::model::{ReadResourceResult, ResourceContents, ResourceTemplate};
use serde_json::json;
use signet_core::actor::Scope;
use signet_core::{Actor, Ctx, DomainError};

pub const AUDIT_TRAIL: &str = "signet://documents/{id}/audit-trail";
pub const TEMPLATE_SEATS: &str = "signet://templates/{id}/seats";

pub fn templates() -> Vec<ResourceTemplate> {
    vec![
        ResourceTemplate::new(AUDIT_TRAIL, "audit-trail")
            .with_title("A document's audit trail")
            .with_description("Every event of a document (sent, opened, signed, voided, ...) with its time, who and from where, as CSV. Takes documents:read.")
            .with_mime_type("text/csv"),
        ResourceTemplate::new(TEMPLATE_SEATS, "template-seats")
            .with_title("A template's seats")
            .with_description("The seats of a template (the roles that sign, in order) with the fields each fills in, and its questions. Takes templates:read.")
            .with_mime_type("application/json"),
    ]
}

/// `signet://<kind>/<id>/<what>` split into its id, when it is `kind` and `what`.
fn id_in<'a>(uri: &'a str, kind: &str, what: &str) -> Option<&'a str> {
    let rest = uri
        .strip_prefix("signet://")?
        .strip_prefix(kind)?
        .strip_prefix('/')?;
    let id = rest.strip_suffix(what)?.strip_suffix('/')?;
    (!id.is_empty() && !id.contains('/')).then_some(id)
}

pub async fn read(ctx: &Ctx, actor: &Actor, uri: &str) -> Result<ReadResourceResult, DomainError> {
    if let Some(id) = id_in(uri, "documents", "audit-trail") {
        actor
            .require(Scope::DocumentsRead)
            .map_err(|_| scope(Scope::DocumentsRead))?;
        let file = signet_documents::audit_csv(ctx, actor, id).await?;
        let text = String::from_utf8_lossy(&file.bytes).into_owned();
        return Ok(ReadResourceResult::new(vec![
            ResourceContents::text(text, uri).with_mime_type("text/csv"),
        ]));
    }
    if let Some(id) = id_in(uri, "templates", "seats") {
        actor
            .require(Scope::TemplatesRead)
            .map_err(|_| scope(Scope::TemplatesRead))?;
        let t = signet_documents::templates::get(ctx, actor, id).await?;
        let t = serde_json::to_value(&t).map_err(|e| DomainError::Internal(e.to_string()))?;
        let fields = t["fields"].as_array().cloned().unwrap_or_default();
        let seats: Vec<_> = t["seats"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|seat| {
                let of_seat: Vec<_> = fields
                    .iter()
                    .filter(|f| f["role"] == *seat)
                    .map(|f| json!({"name": f["name"], "type": f["type"], "required": f["required"]}))
                    .collect();
                json!({"seat": seat, "fields": of_seat})
            })
            .collect();
        let body = json!({
            "templateId": t["id"], "name": t["name"], "version": t["version"],
            "seats": seats, "questions": t["questions"],
        });
        return Ok(ReadResourceResult::new(vec![
            ResourceContents::text(body.to_string(), uri).with_mime_type("application/json"),
        ]));
    }
    Err(DomainError::NotFound(format!(
        "no resource {uri}; the resources are {AUDIT_TRAIL} and {TEMPLATE_SEATS}"
    )))
}

fn scope(s: Scope) -> DomainError {
    DomainError::Forbidden(format!("this key lacks the {s} scope this resource takes"))
}
