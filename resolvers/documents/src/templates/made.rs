//! Making a template from words, and what every way of making one shares: its name and
//! metadata checked, its source checked as a document's would be, its fields and their places.

use std::collections::BTreeMap;

use serde_json::json;

use crate::input;
use signet_core::actor::{Actor, Scope};
use signet_core::answer::{Claim, Made};
use signet_core::{Ctx, DomainError};

use super::store::{Named, NewTemplate, insert};
use super::types::*;

/// A template's source parsed and checked as a document's would be, with at least one seat.
/// For `source` a problem keeps its path in the request; for a template made from a page or
/// a file (`html`, `file`), whose source the caller never wrote, it is told against that
/// field, and `no_seat` says what to write for a seat.
pub(super) fn checked(
    field: &str,
    source: &serde_json::Value,
    facts: BTreeMap<String, String>,
    no_seat: &str,
) -> Result<(signet_source::Doc, signet_source::Report), DomainError> {
    checked_with(field, source, facts, Some(no_seat))
}

/// As `checked`; with `no_seat` None, words without a seat yet are taken (a file whose fields
/// are placed afterwards in the builder).
pub(super) fn checked_with(
    field: &str,
    source: &serde_json::Value,
    facts: BTreeMap<String, String>,
    no_seat: Option<&str>,
) -> Result<(signet_source::Doc, signet_source::Report), DomainError> {
    let told = |p: &[signet_source::Problem]| {
        if field == "source" {
            crate::problems(p)
        } else {
            DomainError::invalid(field, p[0].message.clone())
        }
    };
    let doc = signet_source::parse("source", source).map_err(|p| told(&p))?;
    let report = crate::check_for_template(&doc, facts);
    if !report.ok() {
        return Err(told(&report.problems));
    }
    if let Some(no_seat) = no_seat
        && report.roles.is_empty()
    {
        return Err(DomainError::invalid(
            field,
            format!("a template needs at least one seat: {no_seat}"),
        ));
    }
    Ok((doc, report))
}

/// A field as a template version keeps it, with its places when it has them.
pub(super) fn field_json(f: &signet_source::Field, areas: &[FieldAreaOut]) -> serde_json::Value {
    json!({"name": f.name, "type": f.ty.as_str(), "role": f.role, "required": f.required, "areas": areas})
}

/// Each field once, with every place the layout or the tags gave it (a field written in
/// several places has several areas), as a template version keeps them.
pub(super) fn fields_placed<'a>(
    fields: &[signet_source::Field],
    places: impl Iterator<Item = (&'a str, (u32, f64, f64, f64, f64))>,
) -> Vec<serde_json::Value> {
    // Names are one field whatever their case, as the source's check decides.
    let mut areas: BTreeMap<String, Vec<FieldAreaOut>> = BTreeMap::new();
    for (name, (page, x, y, width, height)) in places {
        areas
            .entry(name.to_lowercase())
            .or_default()
            .push(FieldAreaOut {
                page: page as i64,
                x,
                y,
                width,
                height,
            });
    }
    fields
        .iter()
        .map(|f| {
            field_json(
                f,
                areas
                    .get(&f.name.to_lowercase())
                    .map_or(&[], |a| a.as_slice()),
            )
        })
        .collect()
}

/// A template's words may not name a file: pages of a file come only from
/// `POST /templates/file`, which makes the file safe and keeps it under the template.
pub(crate) fn no_file(source: &serde_json::Value) -> Result<(), DomainError> {
    match source.get("file") {
        None | Some(serde_json::Value::Null) => Ok(()),
        Some(_) => Err(DomainError::invalid(
            "source.file",
            "words cannot name a file; make a template from the file with POST /templates/file",
        )),
    }
}

/// POST /templates/source.
pub async fn create_source(
    ctx: &Ctx,
    actor: &Actor,
    body: TemplateSourceIn,
    claim: Option<&Claim>,
) -> Result<Made<TemplateOut>, DomainError> {
    actor.require(Scope::TemplatesWrite)?;
    signet_core::rules::check(&body)?;
    no_file(&body.source)?;
    let named = Named::parse(&body.name, body.metadata.as_ref(), &body.external_id)?;
    let (paper, profile) = input::paper_and_profile(body.paper, body.profile)?;
    let facts = crate::facts_for(ctx, actor, BTreeMap::new()).await?;
    let (_, report) = checked(
        "source",
        &body.source,
        facts,
        "a field or a signature block with a role",
    )?;
    let fields: Vec<serde_json::Value> = report.fields.iter().map(|f| field_json(f, &[])).collect();
    insert(
        ctx,
        actor,
        claim,
        NewTemplate {
            kind: "source",
            named,
            source: body.source.to_string(),
            paper,
            profile,
            report,
            fields,
            warnings: Vec::new(),
            pages: None,
        },
    )
    .await
}
