//! What the builder needs beyond making a template: a template's words read back
//! (`GET /templates/{id}/source`), written again as its next version
//! (`POST /templates/{id}/versions`, refused when someone saved since the words were read),
//! and pages drawn from words not saved yet (`POST /templates/preview`). All three are
//! additions to the spec's routes.

use std::collections::BTreeMap;

use base64::Engine as _;
use sea_orm::{ConnectionTrait, TransactionTrait, Value};
use serde::{Deserialize, Serialize};

use crate::input;
use signet_core::actor::{Actor, Scope};
use signet_core::answer::{self, Claim, Made};
use signet_core::rules::{self, Validate};
use signet_core::{Ctx, DomainError};

use super::files::{SlowTurn, conversions};
use super::made::{checked, checked_with, field_json, fields_placed, no_file};
use super::store::load;
use super::types::TemplateOut;

/// Pages a preview draws pictures of; later pages are counted, not drawn.
pub const PREVIEW_PAGES: usize = 20;
/// The width of a preview's page pictures, in pixels (the signing page's smaller one).
const PREVIEW_WIDTH: u32 = 750;

/// A template's words as saved, to write its next version from.
#[derive(Clone, Debug, Serialize, utoipa::ToSchema, async_graphql::SimpleObject)]
#[serde(rename_all = "camelCase")]
pub struct TemplateSourceOut {
    pub id: String,
    pub name: String,
    /// `source` for templates from words; the others keep a file's pages (`source.file`).
    pub kind: String,
    /// The version these words are: give it back as `version` when saving the next one.
    pub version: i64,
    #[schema(value_type = Object)]
    pub source: serde_json::Value,
    pub paper: String,
    pub profile: String,
}

/// The next version of a template made from words.
#[derive(
    Clone, Debug, Deserialize, Serialize, Validate, utoipa::ToSchema, async_graphql::InputObject,
)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[graphql(name = "TemplateVersionInput")]
pub struct TemplateVersionIn {
    /// The version the words were written from (`version` of `GET /templates/{id}/source`):
    /// a template saved by someone else since is a 409, and nothing is lost.
    pub version: i64,
    /// The whole new source, as for `POST /templates/source`.
    #[schema(value_type = Object)]
    pub source: serde_json::Value,
    /// A new name; the old one stays when left out.
    #[serde(default)]
    #[validate(custom(function = rules::blank_or_line::<200>))]
    pub name: Option<String>,
    /// `typeset` or `contract`; the current one when left out.
    #[serde(default)]
    pub profile: Option<String>,
    /// `letter` or `a4`; the current one when left out.
    #[serde(default)]
    pub paper: Option<String>,
}

/// Words not saved yet, to see as a signer would.
#[derive(
    Clone, Debug, Deserialize, Serialize, Validate, utoipa::ToSchema, async_graphql::InputObject,
)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[graphql(name = "TemplatePreviewInput")]
pub struct TemplatePreviewIn {
    #[schema(value_type = Object)]
    pub source: serde_json::Value,
    /// `typeset` (default) or `contract`.
    #[serde(default)]
    pub profile: Option<String>,
    /// `letter` (default) or `a4`.
    #[serde(default)]
    pub paper: Option<String>,
}

#[derive(Clone, Debug, Serialize, utoipa::ToSchema, async_graphql::SimpleObject)]
#[serde(rename_all = "camelCase")]
pub struct TemplatePreviewOut {
    /// Every page, in order; the first 20 with a picture.
    pub pages: Vec<PreviewPageOut>,
    /// Each field's box on its page, in points from the page's top-left corner.
    pub fields: Vec<PreviewFieldOut>,
}

#[derive(Clone, Debug, Serialize, utoipa::ToSchema, async_graphql::SimpleObject)]
#[serde(rename_all = "camelCase")]
pub struct PreviewPageOut {
    /// In points.
    pub width: f64,
    pub height: f64,
    /// A `data:image/png;base64,...` picture 750 pixels wide; null past the 20th page.
    pub image: Option<String>,
}

#[derive(Clone, Debug, Serialize, utoipa::ToSchema, async_graphql::SimpleObject)]
#[serde(rename_all = "camelCase")]
pub struct PreviewFieldOut {
    pub name: String,
    #[serde(rename = "type")]
    #[graphql(name = "type")]
    pub ty: String,
    pub role: String,
    pub page: i64,
    pub x: f64,
    pub y: f64,
    pub width: f64,
    pub height: f64,
}

/// A version number as a request gives it: the stored ones are 1 and up.
fn version_of(v: i64) -> Result<i32, DomainError> {
    i32::try_from(v)
        .ok()
        .filter(|v| *v >= 1 && *v < i32::MAX)
        .ok_or_else(|| DomainError::invalid("version", "must be a version of the template, from 1"))
}

/// GET /templates/{id}/source.
pub async fn source(ctx: &Ctx, actor: &Actor, id: &str) -> Result<TemplateSourceOut, DomainError> {
    actor.require(Scope::TemplatesRead)?;
    let stored = mine(ctx, actor, id).await?;
    Ok(TemplateSourceOut {
        id: stored.out.id,
        name: stored.out.name,
        kind: stored.out.kind,
        version: stored.out.version,
        source: stored.source,
        paper: stored.out.paper,
        profile: stored.out.profile,
    })
}

/// The turns a drawing holds: the workspace's one of its `lane` (a second meanwhile is a
/// 429 naming `what`) and one of the process's conversion threads.
async fn turns(
    lane: &'static str,
    workspace: &str,
    what: &str,
) -> Result<(tokio::sync::SemaphorePermit<'static>, SlowTurn), DomainError> {
    let slow = SlowTurn::take(
        lane,
        workspace,
        &format!("{what} of this workspace is being drawn; ask again when it is done"),
    )?;
    let turn = conversions()
        .acquire()
        .await
        .map_err(|e| DomainError::Internal(format!("conversions: {e}")))?;
    Ok((turn, slow))
}

/// A template `actor` may read and change here: any of the workspace's, but for a frame's key
/// (the builder's, on another website) only those it made, so a page holding that key never
/// reaches the workspace's other templates.
async fn mine(ctx: &Ctx, actor: &Actor, id: &str) -> Result<super::store::Stored, DomainError> {
    let stored = load(&ctx.db.conn, ctx, actor, id).await?;
    if stored.created_by != actor.recorded() && signet_accounts::keys::is_frame(ctx, actor).await? {
        return Err(super::store::not_found(id));
    }
    Ok(stored)
}

/// POST /templates/{id}/versions: the words checked as `POST /templates/source` checks them,
/// then kept as the template's next version, which documents made from now on use. For a
/// template made from a file only `source.file.fields` is taken: the fields placed on its
/// pages.
pub async fn new_version(
    ctx: &Ctx,
    actor: &Actor,
    id: &str,
    body: TemplateVersionIn,
    claim: Option<&Claim>,
) -> Result<Made<TemplateOut>, DomainError> {
    actor.require(Scope::TemplatesWrite)?;
    signet_core::rules::check(&body)?;
    let read_at = version_of(body.version)?;
    if actor.draft_only {
        return Err(DomainError::Forbidden(
            "a draft-only key cannot change a template that may already be in use; make a new \
             one, which waits for a person's approval"
                .into(),
        ));
    }
    let stored = mine(ctx, actor, id).await?;
    let current = stored.out;
    let facts = crate::facts_for(ctx, actor, BTreeMap::new()).await?;
    let (source, paper, profile, report, fields) = match current.kind.as_str() {
        "source" => {
            no_file(&body.source)?;
            let (paper, profile) = input::paper_and_profile(
                body.paper.or(Some(current.paper.clone())),
                body.profile.or(Some(current.profile.clone())),
            )?;
            let (_, report) = checked(
                "source",
                &body.source,
                facts,
                "a field or a signature block with a role",
            )?;
            let fields: Vec<serde_json::Value> =
                report.fields.iter().map(|f| field_json(f, &[])).collect();
            (body.source, paper, profile, report, fields)
        }
        "html" => {
            return Err(DomainError::invalid(
                "source",
                "this template was laid out from an HTML page, which places its fields; make a \
                 new one from the page to change them",
            ));
        }
        // A file's pages stay as they are: only the fields placed on them are taken, and
        // the file, its pages and their words are the stored version's.
        _ => {
            let placed = body
                .source
                .get("file")
                .and_then(|f| f.get("fields"))
                .filter(|f| f.is_array())
                .cloned()
                .ok_or_else(|| {
                    DomainError::invalid(
                        "source.file.fields",
                        "must list the fields placed on the file's pages",
                    )
                })?;
            let mut source = stored.source;
            source["file"]["fields"] = placed;
            let (doc, report) = checked_with(
                "source",
                &source,
                facts,
                Some("place a field for a seat on a page"),
            )?;
            let fields = fields_placed(
                &report.fields,
                doc.file
                    .iter()
                    .flat_map(|f| &f.fields)
                    .map(|p| (p.field.name.as_str(), (p.page, p.x, p.y, p.width, p.height))),
            );
            (
                source,
                current.paper.clone(),
                current.profile.clone(),
                report,
                fields,
            )
        }
    };
    let name = body
        .name
        .as_deref()
        .map(str::trim)
        .filter(|n| !n.is_empty())
        .map(str::to_string);
    let now = ctx.now();
    let next = read_at + 1;
    let txn = ctx.db.conn.begin().await?;
    let moved = txn
        .execute_raw(ctx.db.stmt(
            "UPDATE templates SET version = $3, name = COALESCE($4, name), updated_at = $5 \
             WHERE id = $1 AND workspace_id = $2 AND version = $6",
            [
                Value::from(id.to_string()),
                Value::from(actor.workspace_id.clone()),
                Value::from(next),
                Value::from(name),
                Value::from(now),
                Value::from(read_at),
            ],
        ))
        .await?
        .rows_affected();
    if moved != 1 {
        return Err(DomainError::Conflict {
            message: format!(
                "the template was saved as version {} since version {} was read; read it \
                 again (GET /templates/{id}/source) and write your changes into it",
                current.version.max(body.version + 1),
                body.version
            ),
            retryable: false,
        });
    }
    txn.execute_raw(ctx.db.stmt(
        "INSERT INTO template_versions (template_id, version, source, paper, profile, seats, \
         questions, fields, warnings, pages, created_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, '[]', $10, $9)",
        [
            Value::from(id.to_string()),
            Value::from(next),
            Value::from(source.to_string()),
            Value::from(paper),
            Value::from(profile),
            Value::from(serde_json::to_string(&report.roles).unwrap_or_default()),
            Value::from(serde_json::to_string(&report.questions).unwrap_or_default()),
            Value::from(serde_json::to_string(&fields).unwrap_or_default()),
            Value::from(now),
            Value::from(current.pages.map(|p| p as i32)),
        ],
    ))
    .await?;
    let out = load(&txn, ctx, actor, id).await?.out;
    let made = answer::store(&txn, ctx, claim, 201, out).await?;
    txn.commit().await?;
    Ok(made)
}

/// GET /templates/{id}/pages/{page}: a page of a template made from a file, drawn 750 pixels
/// wide (kept once drawn), for placing fields on it.
pub async fn page(
    ctx: &Ctx,
    actor: &Actor,
    id: &str,
    page: u32,
) -> Result<PreviewPageOut, DomainError> {
    actor.require(Scope::TemplatesRead)?;
    let stored = mine(ctx, actor, id).await?;
    if !matches!(stored.out.kind.as_str(), "pdf" | "office" | "picture") {
        return Err(DomainError::NotFound(format!(
            "template {id} is laid out for each document; it has no pages of its own"
        )));
    }
    let file = stored.source.get("file");
    let blob = file
        .and_then(|f| f.get("blob"))
        .and_then(serde_json::Value::as_str)
        .ok_or_else(|| {
            DomainError::NotFound(format!(
                "template {id} is laid out for each document; it has no pages of its own"
            ))
        })?
        .to_string();
    if !crate::blob_keys::is_template_file(&blob, id, stored.out.version) {
        return Err(DomainError::Internal(format!(
            "template {id} names a file not its own"
        )));
    }
    let size = file
        .and_then(|f| f.get("pages"))
        .and_then(|p| p.get((page as usize).wrapping_sub(1)))
        .and_then(|p| Some((p.get(0)?.as_f64()?, p.get(1)?.as_f64()?)))
        .ok_or_else(|| DomainError::NotFound(format!("template {id} has no page {page}")))?;
    let key = crate::blob_keys::image_key(&blob, page as usize, PREVIEW_WIDTH);
    let png = match ctx.blobs.get(&key).await? {
        Some(png) => png,
        None => {
            // Drawn on the conversions' threads, one page of a workspace at a time.
            let turns = turns("page", &actor.workspace_id, "a page").await?;
            let pdf: std::sync::Arc<[u8]> = ctx
                .blobs
                .get(&blob)
                .await?
                .ok_or_else(|| DomainError::Internal(format!("template file {blob} is missing")))?
                .into();
            let renderer = crate::services(ctx).renderer.clone();
            let index = page as usize - 1;
            let picture = crate::render::in_background_later(move || {
                let _turns = turns;
                renderer.picture(&pdf, index, &[PREVIEW_WIDTH])
            })
            .await
            .map_err(DomainError::Internal)?
            .map_err(DomainError::Invalid)?;
            let png = picture.images.into_iter().next().unwrap_or_default();
            ctx.blobs.put(&key, png.clone()).await?;
            png
        }
    };
    Ok(PreviewPageOut {
        width: size.0,
        height: size.1,
        image: Some(format!(
            "data:image/png;base64,{}",
            base64::engine::general_purpose::STANDARD.encode(png)
        )),
    })
}

/// POST /templates/preview: the pages a signer would see, laid out from words not saved,
/// with each field's box. A workspace draws one preview at a time (a second meanwhile is a
/// 429), on the conversions' bounded threads.
pub async fn preview(
    ctx: &Ctx,
    actor: &Actor,
    body: TemplatePreviewIn,
) -> Result<TemplatePreviewOut, DomainError> {
    actor.require(Scope::TemplatesWrite)?;
    signet_core::rules::check(&body)?;
    no_file(&body.source)?;
    let (paper, profile) = input::paper_and_profile(body.paper, body.profile)?;
    let facts = crate::facts_for(ctx, actor, BTreeMap::new()).await?;
    let turns = turns("preview", &actor.workspace_id, "a preview").await?;
    let services = crate::services(ctx);
    let (renderer, max_pages) = (services.renderer.clone(), services.max_pages);
    let work = move || -> Result<TemplatePreviewOut, DomainError> {
        let _turns = turns;
        let (doc, _) = checked(
            "source",
            &body.source,
            facts.clone(),
            "a field or a signature block with a role",
        )?;
        crate::create::fits(&doc, max_pages)?;
        let rendered = renderer
            .render(&crate::render::RenderJob {
                source: doc,
                title: String::new(),
                footer: String::new(),
                paper,
                profile,
                test: false,
                lang: "en".into(),
                values: facts,
                seat_names: BTreeMap::new(),
                max_pages,
                page_text: false,
            })
            .map_err(|e| e.told("source", "laying out a preview"))?;
        drawn(renderer.as_ref(), &rendered)
    };
    signet_core::blocking(work)
        .await
        .map_err(|e| DomainError::Internal(format!("drawing a preview: {e}")))?
}

/// A rendered document's pages as pictures (the first [`PREVIEW_PAGES`]) and its fields'
/// boxes. CPU-bound.
fn drawn(
    renderer: &dyn crate::render::DocRenderer,
    rendered: &crate::render::RenderedDoc,
) -> Result<TemplatePreviewOut, DomainError> {
    let mut pages = Vec::with_capacity(rendered.pages.len());
    for (i, (width, height)) in rendered.pages.iter().enumerate() {
        let image = if i < PREVIEW_PAGES {
            let picture = renderer
                .picture(&rendered.pdf, i, &[PREVIEW_WIDTH])
                .map_err(|e| DomainError::Internal(format!("drawing a preview: {e}")))?;
            picture.images.into_iter().next().map(|png| {
                format!(
                    "data:image/png;base64,{}",
                    base64::engine::general_purpose::STANDARD.encode(png)
                )
            })
        } else {
            None
        };
        pages.push(PreviewPageOut {
            width: *width,
            height: *height,
            image,
        });
    }
    let fields = rendered
        .fields
        .iter()
        .map(|p| PreviewFieldOut {
            name: p.field.name.clone(),
            ty: p.field.ty.as_str().into(),
            role: p.field.role.clone(),
            page: p.page as i64,
            x: p.x,
            y: p.y,
            width: p.width,
            height: p.height,
        })
        .collect();
    Ok(TemplatePreviewOut { pages, fields })
}

/// The pages of a draft document made from a play (Scribe shows them): laid out with its
/// people and answers as a send would, drawn, never stored. Only a draft of `actor`'s
/// workspace and mode; a workspace draws one preview at a time.
pub async fn draft_pages(
    ctx: &Ctx,
    actor: &Actor,
    doc_id: &str,
) -> Result<TemplatePreviewOut, DomainError> {
    let gone = || DomainError::NotFound(format!("no draft document {doc_id}"));
    let conn = &ctx.db.conn;
    let doc = crate::store::load(conn, &ctx.db, doc_id)
        .await?
        .filter(|d| {
            d.workspace_id.as_str() == actor.workspace_id.as_str()
                && d.test == (actor.mode == signet_core::Mode::Test)
                && d.state == crate::state::DocState::Draft
        })
        .ok_or_else(gone)?;
    let people = crate::store::people(conn, &ctx.db, &[&doc.id]).await?;
    let turns = turns("preview", &actor.workspace_id, "a preview").await?;
    let data = crate::rendering::file_data(ctx, &doc).await?;
    let services = crate::services(ctx);
    let (renderer, max_pages) = (services.renderer.clone(), services.max_pages);
    let work = move || -> Result<TemplatePreviewOut, DomainError> {
        let _turns = turns;
        let draft = crate::rendering::with_file(crate::send::draft_from(&doc, &people)?, data);
        let rendered = renderer
            .render(&crate::draft::render_job(&doc, &draft, max_pages))
            .map_err(|e| e.told("source", "laying out a draft"))?;
        drawn(renderer.as_ref(), &rendered)
    };
    signet_core::blocking(work)
        .await
        .map_err(|e| DomainError::Internal(format!("drawing a draft: {e}")))?
}
