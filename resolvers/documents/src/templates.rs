//! Templates: a workspace's reusable documents. This part makes them from words (the same
//! source model, checks and rendering as documents), reads and lists them, keeps their
//! defaults, and makes documents from them: `POST /templates/{id}/documents` (answers to the
//! template's questions, a draft unless `sendNow`) and `POST /documents/send` (one party per
//! seat, sent at once). Templates belong to the workspace and serve test and live keys alike;
//! the documents made from them keep the key's mode and remember the template and version.
//!
//! Versions: a template keeps each version's words (`template_versions`); only the newest is
//! current. A template made through a draft-only key is not listed for sending until a
//! person approves it.

use std::collections::BTreeMap;

use sea_orm::{ConnectionTrait, TransactionTrait, Value};
use serde::{Deserialize, Serialize};
use serde_json::json;
use signet_storage::now_ms;

/// The largest HTML page taken, in bytes.
pub use signet_convert::html::MAX_HTML;

use crate::input;
use crate::types::{DocumentCreateIn, DocumentOut, EmailOptionsIn, PersonIn, SendOptionsIn};
use signet_core::actor::{Actor, Scope};
use signet_core::answer::{self, Claim, Made};
use signet_core::clock::time;
use signet_core::metadata::Metadata;
use signet_core::page::{PageInfo, PageRequest};
use signet_core::{Ctx, DomainError, ids};

#[derive(Clone, Debug, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TemplateSourceIn {
    #[schema(min_length = 1, max_length = 200)]
    pub name: String,
    /// The rich-text source, as for documents: `{"type": "doc", "content": [...]}`. Its roles
    /// are the template's seats; its unanswered `custom.<key>` chips are its questions.
    #[schema(value_type = Object)]
    pub source: serde_json::Value,
    /// `typeset` (default) or `contract`.
    #[serde(default)]
    pub profile: Option<String>,
    /// `letter` (default) or `a4`.
    #[serde(default)]
    pub paper: Option<String>,
    #[serde(default)]
    #[schema(value_type = Option<Object>)]
    pub metadata: Option<serde_json::Value>,
    #[serde(default)]
    pub external_id: Option<String>,
}

#[derive(Clone, Debug, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TemplateHtmlIn {
    #[schema(min_length = 1, max_length = 200)]
    pub name: String,
    /// The page, up to 2 MB. Scripts, styles, frames, forms and remote addresses are removed
    /// (the answer's `warnings` say what); pictures must be `data:` addresses. A field is
    /// placed at each text tag: `{{Label;type=signature;role=client}}`.
    #[schema(max_length = 2097152)]
    pub html: String,
    /// `letter` (default) or `a4`.
    #[serde(default)]
    pub paper: Option<String>,
    #[serde(default)]
    #[schema(value_type = Option<Object>)]
    pub metadata: Option<serde_json::Value>,
    #[serde(default)]
    pub external_id: Option<String>,
}

#[derive(Clone, Debug, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TemplateFileIn {
    #[schema(min_length = 1, max_length = 200)]
    pub name: String,
    /// The file's name, kept for people; its kind is read from its bytes.
    #[schema(min_length = 1, max_length = 255)]
    pub file_name: String,
    /// The file, base64: a PDF with text tags, up to 10 MB.
    pub file: String,
    #[serde(default)]
    #[schema(value_type = Option<Object>)]
    pub metadata: Option<serde_json::Value>,
    #[serde(default)]
    pub external_id: Option<String>,
}

/// The largest file taken by `POST /templates/file`, in bytes.
pub const MAX_FILE: usize = 10 * 1024 * 1024;

/// What a document made from a template starts with.
#[derive(
    Clone, Debug, Default, Deserialize, Serialize, utoipa::ToSchema, async_graphql::SimpleObject,
)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TemplateDefaults {
    /// The document's description (the sender's, never shown to a signer).
    #[serde(default)]
    pub description: Option<String>,
    /// What the people are told the document is, kept with the template for the application
    /// and the builder.
    #[serde(default)]
    pub client_description: Option<String>,
    /// The invitation's message.
    #[serde(default)]
    pub message: Option<String>,
    /// Sending options; a document's own `send` wins key by key.
    #[serde(default)]
    #[schema(value_type = Option<Object>)]
    #[graphql(skip)]
    pub send: Option<SendOptionsIn>,
}

#[derive(Clone, Debug, Serialize, utoipa::ToSchema, async_graphql::SimpleObject)]
#[serde(rename_all = "camelCase")]
pub struct TemplateFieldOut {
    pub name: String,
    #[serde(rename = "type")]
    #[graphql(name = "type")]
    pub ty: String,
    /// The seat that fills it in.
    pub role: String,
    pub required: bool,
    /// Where the field is, for a template laid out when it was made (from HTML): its page
    /// and rectangle. Empty for a template made from words, which is laid out per document.
    pub areas: Vec<FieldAreaOut>,
}

/// A field's place: its page (from 1) and rectangle in points from the page's top-left
/// corner.
#[derive(Clone, Debug, Deserialize, Serialize, utoipa::ToSchema, async_graphql::SimpleObject)]
#[serde(rename_all = "camelCase")]
pub struct FieldAreaOut {
    pub page: i64,
    pub x: f64,
    pub y: f64,
    pub width: f64,
    pub height: f64,
}

#[derive(Clone, Debug, Serialize, utoipa::ToSchema, async_graphql::SimpleObject)]
#[serde(rename_all = "camelCase")]
pub struct TemplateOut {
    pub id: String,
    /// `source` (made from words), `html`, `pdf`, `office` (a Word, Excel or PowerPoint file,
    /// kept as the PDF LibreOffice made of it) or `picture`.
    pub kind: String,
    pub name: String,
    pub external_id: Option<String>,
    pub metadata: BTreeMap<String, String>,
    /// The current version (the newest).
    pub version: i64,
    /// Whether it is listed for sending: a template made through a draft-only key waits for
    /// a person's approval.
    pub approved: bool,
    /// The roles that sign, in the order the text first names them.
    pub seats: Vec<String>,
    /// The `custom.<key>` chips without an answer, without the prefix: answered with
    /// `variableValues` on `POST /templates/{id}/documents`.
    pub questions: Vec<String>,
    /// The fields each seat fills in. A written template is laid out for each document, so
    /// its fields have no page until then.
    pub fields: Vec<TemplateFieldOut>,
    pub paper: String,
    /// `typeset` or `contract` for templates from words; `plain` for a page laid out by its
    /// writer (HTML).
    pub profile: String,
    /// Pages of a template laid out when it was made; null for one from words.
    pub pages: Option<i64>,
    /// What was removed from what was sent (scripts, styles, remote pictures...), each said
    /// once with how many.
    pub warnings: Vec<String>,
    pub defaults: TemplateDefaults,
    pub created_at: String,
    pub updated_at: String,
}

#[derive(Clone, Debug, Serialize, utoipa::ToSchema, async_graphql::SimpleObject)]
#[serde(rename_all = "camelCase")]
pub struct TemplatePageOut {
    pub data: Vec<TemplateOut>,
    pub page: PageInfo,
}

/// One party of a template send: who takes a seat.
#[derive(Clone, Debug, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PartyIn {
    pub seat: String,
    pub name: String,
    pub email: String,
    #[serde(default)]
    pub external_id: Option<String>,
    #[serde(default)]
    #[schema(value_type = Option<Object>)]
    pub metadata: Option<serde_json::Value>,
    /// The language of this person's emails and page.
    #[serde(default)]
    pub locale: Option<String>,
    /// As on a document's person.
    #[serde(default)]
    pub access_code: Option<String>,
    #[serde(default)]
    pub email_code: Option<bool>,
}

#[derive(Clone, Debug, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TemplateSendIn {
    pub template_id: String,
    /// One per seat of the template.
    pub parties: Vec<PartyIn>,
    #[serde(default)]
    pub email: Option<EmailOptionsIn>,
    #[serde(default)]
    #[schema(value_type = Option<Object>)]
    pub metadata: Option<serde_json::Value>,
    #[serde(default)]
    pub external_id: Option<String>,
    /// The document's title; the template's name when left out.
    #[serde(default)]
    pub title: Option<String>,
    #[serde(default)]
    pub message: Option<String>,
    #[serde(default)]
    pub subject: Option<String>,
    #[serde(default)]
    pub language: Option<String>,
    #[serde(default)]
    pub expiry_days: Option<i64>,
    /// Seats signed inside your own app: nobody emails them.
    #[serde(default)]
    pub embedded: Option<Vec<String>>,
}

#[derive(Clone, Debug, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TemplateDocumentIn {
    pub people: Vec<PersonIn>,
    #[serde(default)]
    pub email: Option<EmailOptionsIn>,
    #[serde(default)]
    #[schema(value_type = Option<Object>)]
    pub metadata: Option<serde_json::Value>,
    #[serde(default)]
    pub external_id: Option<String>,
    #[serde(default)]
    pub title: Option<String>,
    /// Answers to the template's questions, by key.
    #[serde(default)]
    #[schema(value_type = Option<Object>)]
    pub variable_values: Option<serde_json::Value>,
    #[serde(default)]
    #[schema(value_type = Option<Object>)]
    pub facts: Option<serde_json::Value>,
    #[serde(default)]
    pub send: Option<SendOptionsIn>,
    #[serde(default)]
    pub send_now: Option<bool>,
    #[serde(default)]
    pub embedded: Option<Vec<String>>,
}

fn not_found(id: &str) -> DomainError {
    DomainError::NotFound(format!("no template with id {id}"))
}

/// A template row and its current version, as stored.
struct Stored {
    out: TemplateOut,
    source: serde_json::Value,
}

const COLUMNS: &str = "t.id, t.kind, t.name, t.external_id, t.metadata, t.version, t.approved, \
    t.defaults, t.created_at, t.updated_at, v.source, v.paper, v.profile, v.seats, v.questions, v.fields, \
    v.warnings, v.pages";

fn from_row(r: &sea_orm::QueryResult) -> Result<Stored, DomainError> {
    let text = |c: &str| -> Result<String, DomainError> { Ok(r.try_get::<String>("", c)?) };
    let json_of = |c: &str| -> Result<serde_json::Value, DomainError> {
        serde_json::from_str(&text(c)?)
            .map_err(|e| DomainError::Internal(format!("template column {c}: {e}")))
    };
    let defaults: TemplateDefaults =
        serde_json::from_value(json_of("defaults")?).unwrap_or_default();
    Ok(Stored {
        out: TemplateOut {
            id: text("id")?,
            kind: text("kind")?,
            name: text("name")?,
            external_id: r.try_get("", "external_id")?,
            metadata: serde_json::from_value(json_of("metadata")?).unwrap_or_default(),
            version: r.try_get::<i32>("", "version")? as i64,
            approved: r.try_get("", "approved")?,
            seats: serde_json::from_value(json_of("seats")?).unwrap_or_default(),
            questions: serde_json::from_value(json_of("questions")?).unwrap_or_default(),
            fields: serde_json::from_value::<Vec<serde_json::Value>>(json_of("fields")?)
                .unwrap_or_default()
                .into_iter()
                .map(|f| TemplateFieldOut {
                    name: f["name"].as_str().unwrap_or_default().to_string(),
                    ty: f["type"].as_str().unwrap_or_default().to_string(),
                    role: f["role"].as_str().unwrap_or_default().to_string(),
                    required: f["required"].as_bool().unwrap_or(false),
                    areas: serde_json::from_value(f["areas"].clone()).unwrap_or_default(),
                })
                .collect(),
            paper: text("paper")?,
            profile: text("profile")?,
            pages: r.try_get::<Option<i32>>("", "pages")?.map(i64::from),
            warnings: serde_json::from_value(json_of("warnings")?).unwrap_or_default(),
            defaults,
            created_at: time(r.try_get("", "created_at")?),
            updated_at: time(r.try_get("", "updated_at")?),
        },
        source: json_of("source")?,
    })
}

async fn load<C: ConnectionTrait>(
    conn: &C,
    ctx: &Ctx,
    actor: &Actor,
    id: &str,
) -> Result<Stored, DomainError> {
    if !id.starts_with("tpl_") || id.len() > 64 {
        return Err(not_found(id));
    }
    let row = conn
        .query_one_raw(ctx.db.stmt(
            &format!(
                "SELECT {COLUMNS} FROM templates t JOIN template_versions v \
                 ON v.template_id = t.id AND v.version = t.version \
                 WHERE t.id = $1 AND t.workspace_id = $2"
            ),
            [
                Value::from(id.to_string()),
                Value::from(actor.workspace_id.clone()),
            ],
        ))
        .await?
        .ok_or_else(|| not_found(id))?;
    from_row(&row)
}

/// What every way of making a template names: the name, metadata and externalId, checked.
struct Named {
    name: String,
    metadata: Metadata,
    external_id: Option<String>,
}

impl Named {
    fn parse(
        name: &str,
        metadata: Option<&serde_json::Value>,
        external_id: &Option<String>,
    ) -> Result<Named, DomainError> {
        Ok(Named {
            name: signet_core::fields::line("name", name, 200)?,
            metadata: Metadata::parse("metadata", metadata.unwrap_or(&serde_json::Value::Null))?,
            external_id: signet_core::fields::opt_line("externalId", external_id, 200)?,
        })
    }
}

/// A template's source parsed and checked as a document's would be, with at least one seat.
/// For `source` a problem keeps its path in the request; for a template made from a page or
/// a file (`html`, `file`), whose source the caller never wrote, it is told against that
/// field, and `no_seat` says what to write for a seat.
fn checked(
    field: &str,
    source: &serde_json::Value,
    facts: BTreeMap<String, String>,
    no_seat: &str,
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
    if report.roles.is_empty() {
        return Err(DomainError::invalid(
            field,
            format!("a template needs at least one seat: {no_seat}"),
        ));
    }
    Ok((doc, report))
}

/// A field as a template version keeps it, with its places when it has them.
fn field_json(f: &signet_source::Field, areas: &[FieldAreaOut]) -> serde_json::Value {
    json!({"name": f.name, "type": f.ty.as_str(), "role": f.role, "required": f.required, "areas": areas})
}

/// Each field once, with every place the layout or the tags gave it (a field written in
/// several places has several areas), as a template version keeps them.
fn fields_placed<'a>(
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

/// POST /templates/source.
pub async fn create_source(
    ctx: &Ctx,
    actor: &Actor,
    body: TemplateSourceIn,
    claim: Option<&Claim>,
) -> Result<Made<TemplateOut>, DomainError> {
    actor.require(Scope::TemplatesWrite)?;
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

/// A template's first version, as checked.
struct NewTemplate {
    kind: &'static str,
    named: Named,
    source: String,
    paper: String,
    profile: String,
    report: signet_source::Report,
    fields: Vec<serde_json::Value>,
    warnings: Vec<String>,
    pages: Option<i64>,
}

/// Writes a new template and its first version, with a pending approval when the key is
/// draft-only, and stores the answer for replay.
async fn insert(
    ctx: &Ctx,
    actor: &Actor,
    claim: Option<&Claim>,
    t: NewTemplate,
) -> Result<Made<TemplateOut>, DomainError> {
    insert_with_id(ctx, actor, claim, ids::new_id("tpl"), t).await
}

async fn insert_with_id(
    ctx: &Ctx,
    actor: &Actor,
    claim: Option<&Claim>,
    id: String,
    t: NewTemplate,
) -> Result<Made<TemplateOut>, DomainError> {
    let now = now_ms();
    let approved = !actor.draft_only;
    let txn = ctx.db.conn.begin().await?;
    txn.execute_raw(ctx.db.stmt(
        "INSERT INTO templates (id, workspace_id, kind, name, external_id, metadata, version, approved, \
         defaults, created_by, created_at, updated_at) VALUES ($1, $2, $9, $3, $4, $5, 1, $6, '{}', $7, $8, $8)",
        [
            Value::from(id.clone()),
            Value::from(actor.workspace_id.clone()),
            Value::from(t.named.name),
            Value::from(t.named.external_id),
            Value::from(serde_json::to_string(&t.named.metadata.0).unwrap_or_else(|_| "{}".into())),
            Value::from(approved),
            Value::from(actor.recorded().to_string()),
            Value::from(now),
            Value::from(t.kind),
        ],
    ))
    .await?;
    txn.execute_raw(ctx.db.stmt(
        "INSERT INTO template_versions (template_id, version, source, paper, profile, seats, questions, fields, \
         warnings, pages, created_at) VALUES ($1, 1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
        [
            Value::from(id.clone()),
            Value::from(t.source),
            Value::from(t.paper),
            Value::from(t.profile),
            Value::from(serde_json::to_string(&t.report.roles).unwrap_or_default()),
            Value::from(serde_json::to_string(&t.report.questions).unwrap_or_default()),
            Value::from(serde_json::to_string(&t.fields).unwrap_or_default()),
            Value::from(serde_json::to_string(&t.warnings).unwrap_or_else(|_| "[]".into())),
            Value::from(t.pages.map(|p| p as i32)),
            Value::from(now),
        ],
    ))
    .await?;
    if !approved {
        // A person decides it, with the approvals of draft-only keys' sends.
        txn.execute_raw(ctx.db.stmt(
            "INSERT INTO approvals (id, workspace_id, document_id, template_id, key_id, test, state, created_at) \
             VALUES ($1, $2, '', $3, $4, $5, 'pending', $6)",
            [
                Value::from(ids::new_id("apr")),
                Value::from(actor.workspace_id.clone()),
                Value::from(id.clone()),
                Value::from(actor.recorded().to_string()),
                Value::from(actor.mode == signet_core::Mode::Test),
                Value::from(now),
            ],
        ))
        .await?;
    }
    let out = load(&txn, ctx, actor, &id).await?.out;
    let made = answer::store(&txn, ctx, claim, 201, out).await?;
    txn.commit().await?;
    Ok(made)
}

/// Conversions (HTML now; files later) running at once in this process: each takes a core
/// for up to a few hundred milliseconds, so more would only queue on the cores and slow
/// every other request. Past it a request waits its turn.
fn conversions() -> &'static tokio::sync::Semaphore {
    static S: std::sync::OnceLock<tokio::sync::Semaphore> = std::sync::OnceLock::new();
    S.get_or_init(|| {
        tokio::sync::Semaphore::new(
            std::thread::available_parallelism()
                .map(|n| n.get())
                .unwrap_or(2),
        )
    })
}

/// How long a slow file waits for its turn before the caller is told to come back.
const SLOW_WAIT: std::time::Duration = std::time::Duration::from_secs(30);

/// Conversions that run another program for seconds (LibreOffice): half the cores, so a
/// burst of office files leaves the rest to every other request.
fn slow_conversions() -> &'static tokio::sync::Semaphore {
    static S: std::sync::OnceLock<tokio::sync::Semaphore> = std::sync::OnceLock::new();
    S.get_or_init(|| {
        tokio::sync::Semaphore::new(
            std::thread::available_parallelism()
                .map(|n| n.get() / 2)
                .unwrap_or(1)
                .max(1),
        )
    })
}

/// A workspace's one file conversion at a time: a second, while the first runs or waits, is
/// told to come back, so one workspace's burst never fills the queue another waits in.
struct SlowTurn(String);

impl SlowTurn {
    fn busy() -> &'static std::sync::Mutex<std::collections::HashSet<String>> {
        static B: std::sync::OnceLock<std::sync::Mutex<std::collections::HashSet<String>>> =
            std::sync::OnceLock::new();
        B.get_or_init(Default::default)
    }

    fn take(workspace: &str) -> Result<SlowTurn, DomainError> {
        let mut busy = Self::busy().lock().unwrap_or_else(|p| p.into_inner());
        if !busy.insert(workspace.to_string()) {
            return Err(DomainError::RateLimited {
                message: "another file of this workspace is being converted; send this one \
                          when it is done (one at a time)"
                    .into(),
                retry_after_secs: 2,
            });
        }
        Ok(SlowTurn(workspace.to_string()))
    }
}

impl Drop for SlowTurn {
    fn drop(&mut self) {
        let mut busy = Self::busy().lock().unwrap_or_else(|p| p.into_inner());
        busy.remove(&self.0);
    }
}

/// POST /templates/file: a PDF made safe, its text tags found and taken out, kept as the
/// template's pages with a field at each tag's place.
pub async fn create_file(
    ctx: &Ctx,
    actor: &Actor,
    body: TemplateFileIn,
    claim: Option<&Claim>,
) -> Result<Made<TemplateOut>, DomainError> {
    use base64::Engine;
    actor.require(Scope::TemplatesWrite)?;
    let named = Named::parse(&body.name, body.metadata.as_ref(), &body.external_id)?;
    signet_core::fields::line("fileName", &body.file_name, 255)?;
    if body.file.len() > MAX_FILE.div_ceil(3) * 4 + 4 {
        return Err(DomainError::invalid(
            "file",
            format!("is larger than {MAX_FILE} bytes (10 MB)"),
        ));
    }
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(body.file.trim())
        .map_err(|_| DomainError::invalid("file", "is not valid base64"))?;
    drop(body.file);
    use signet_convert::FileKind;
    let kind = FileKind::sniff(&bytes);
    /// What makes the file a PDF first, when it is not one.
    enum Maker {
        Pdf,
        Office(signet_convert::office::Office),
        Picture(signet_convert::picture::Ocr),
    }
    let maker = match kind {
        FileKind::Pdf => Maker::Pdf,
        FileKind::Text | FileKind::Sheet | FileKind::Slides | FileKind::OldOffice => {
            // Looked for once per process: the answer is the machine's.
            static FOUND: std::sync::OnceLock<Result<signet_convert::office::Office, String>> =
                std::sync::OnceLock::new();
            let found = FOUND.get_or_init(signet_convert::office::Office::find);
            Maker::Office(found.clone().map_err(|e| DomainError::invalid("file", e))?)
        }
        FileKind::Picture => {
            static FOUND: std::sync::OnceLock<Result<signet_convert::picture::Ocr, String>> =
                std::sync::OnceLock::new();
            let found = FOUND.get_or_init(signet_convert::picture::Ocr::find);
            Maker::Picture(found.clone().map_err(|e| DomainError::invalid("file", e))?)
        }
        FileKind::Unknown => {
            return Err(DomainError::invalid(
                "file",
                "is not a PDF, Word, Excel, PowerPoint or picture file (read from its bytes)",
            ));
        }
    };
    let template_kind = match maker {
        Maker::Pdf => "pdf",
        Maker::Office(_) => "office",
        Maker::Picture(_) => "picture",
    };
    let facts = crate::facts_for(ctx, actor, BTreeMap::new()).await?;
    let id = ids::new_id("tpl");
    let blob = crate::blob_keys::template_file(&id, 1);
    let max_pages = crate::services(ctx).max_pages;
    // A conversion holds the workspace's one turn for files (a PDF too: a small one can
    // cost seconds and hundreds of megabytes, so a workspace sends them one at a time) and
    // one of the process's; the turns go with the work, as for HTML.
    let slow = SlowTurn::take(&actor.workspace_id)?;
    let turn = match maker {
        Maker::Pdf => conversions().acquire().await,
        // Waiting is bounded too: past it the caller is told to come back, rather than
        // holding a connection behind other workspaces' files.
        _ => tokio::time::timeout(SLOW_WAIT, slow_conversions().acquire())
            .await
            .map_err(|_| DomainError::RateLimited {
                message: "the server is converting other files; send this one again shortly".into(),
                retry_after_secs: 5,
            })?,
    }
    .map_err(|e| DomainError::Internal(format!("conversions: {e}")))?;
    let key = blob.clone();
    let work = move || -> Result<_, DomainError> {
        let (_turn, _slow) = (turn, slow);
        let invalid = |e: signet_convert::pdf::PdfError| DomainError::invalid("file", e.0);
        let prepared = match maker {
            Maker::Pdf => signet_convert::pdf::prepare(&bytes, max_pages).map_err(invalid)?,
            Maker::Office(office) => {
                let cleaned = signet_convert::office::clean(&bytes).map_err(invalid)?;
                drop(bytes);
                let pdf = office.to_pdf(&cleaned).map_err(invalid)?;
                let mut prepared =
                    signet_convert::pdf::prepare(&pdf, max_pages).map_err(invalid)?;
                let mut warnings = cleaned.warnings;
                warnings.append(&mut prepared.warnings);
                prepared.warnings = warnings;
                prepared
            }
            Maker::Picture(ocr) => {
                signet_convert::picture::prepare(&bytes, &ocr).map_err(invalid)?
            }
        };
        let source = signet_convert::pdf::template_source(&prepared, &key)
            .map_err(|e| DomainError::invalid("file", e.0))?;
        let (doc, report) = checked(
            "file",
            &source,
            facts,
            "the file has no text tag such as {{Signature;type=signature;role=client}}",
        )?;
        Ok((prepared, source, doc, report))
    };
    let (prepared, source, doc, report) = signet_core::blocking(work)
        .await
        .map_err(|e| DomainError::Internal(format!("preparing a PDF: {e}")))??;
    let fields = fields_placed(
        &report.fields,
        doc.file
            .iter()
            .flat_map(|f| &f.fields)
            .map(|p| (p.field.name.as_str(), (p.page, p.x, p.y, p.width, p.height))),
    );
    // The file is kept before the row that names it is written; a failed write removes it.
    ctx.blobs.put(&blob, prepared.pdf).await?;
    let made = insert_with_id(
        ctx,
        actor,
        claim,
        id,
        NewTemplate {
            kind: template_kind,
            named,
            source: source.to_string(),
            // The pages keep their own sizes; the paper says which the first one is.
            paper: match prepared.pages.first() {
                Some((w, h)) if (w - 595.28).abs() < 3.0 && (h - 841.89).abs() < 3.0 => "a4",
                _ => "letter",
            }
            .into(),
            profile: "plain".into(),
            report,
            fields,
            warnings: prepared.warnings,
            pages: Some(prepared.pages.len() as i64),
        },
    )
    .await;
    if made.is_err()
        && let Err(e) = ctx.blobs.delete(&blob).await
    {
        tracing::warn!(blob, error = %e, "removing a failed template's file failed");
    }
    made
}

/// POST /templates/html: the page cleaned and turned into the source model, laid out once on
/// its paper so that each field has its page and rectangle.
pub async fn create_html(
    ctx: &Ctx,
    actor: &Actor,
    body: TemplateHtmlIn,
    claim: Option<&Claim>,
) -> Result<Made<TemplateOut>, DomainError> {
    actor.require(Scope::TemplatesWrite)?;
    let named = Named::parse(&body.name, body.metadata.as_ref(), &body.external_id)?;
    let (paper, _) = input::paper_and_profile(body.paper, None)?;
    let max = MAX_HTML;
    if body.html.len() > max {
        return Err(DomainError::invalid(
            "html",
            format!(
                "is {} bytes; at most {max} (2 MB) are taken",
                body.html.len()
            ),
        ));
    }
    if body.html.trim().is_empty() {
        return Err(DomainError::invalid("html", "is empty"));
    }
    let facts = crate::facts_for(ctx, actor, BTreeMap::new()).await?;
    let renderer = crate::services(ctx).renderer.clone();
    let max_pages = crate::services(ctx).max_pages;
    let (html, title, paper_for) = (body.html, named.name.clone(), paper.clone());
    // The turn goes with the work: a caller who hangs up does not end the conversion, so
    // it must not free a turn the conversion still takes.
    let turn = conversions()
        .acquire()
        .await
        .map_err(|e| DomainError::Internal(format!("conversions: {e}")))?;
    let work = move || -> Result<_, DomainError> {
        let _turn = turn;
        let converted =
            signet_convert::html::convert(&html).map_err(|e| DomainError::invalid("html", e.0))?;
        drop(html);
        let (doc, report) = checked(
            "html",
            &converted.source,
            facts,
            "write a text tag such as {{Signature;type=signature;role=client}}",
        )?;
        let rendered = renderer
            .render(&crate::render::RenderJob {
                source: doc,
                title,
                footer: String::new(),
                paper: paper_for,
                profile: "plain".into(),
                test: false,
                lang: "en".into(),
                values: BTreeMap::new(),
                seat_names: BTreeMap::new(),
                max_pages,
                page_widths: Vec::new(),
            })
            .map_err(|e| match e {
                crate::render::RenderFailure::Refused(e) => DomainError::invalid("html", e),
                crate::render::RenderFailure::Broken(e) => {
                    DomainError::Internal(format!("laying out an HTML template: {e}"))
                }
            })?;
        Ok((converted, report, rendered.fields, rendered.pages.len()))
    };
    let (converted, report, placed, pages) = signet_core::blocking(work)
        .await
        .map_err(|e| DomainError::Internal(format!("converting HTML: {e}")))??;
    let fields = fields_placed(
        &report.fields,
        placed
            .iter()
            .map(|p| (p.field.name.as_str(), (p.page, p.x, p.y, p.width, p.height))),
    );
    insert(
        ctx,
        actor,
        claim,
        NewTemplate {
            kind: "html",
            named,
            source: converted.source.to_string(),
            paper,
            profile: "plain".into(),
            report,
            fields,
            warnings: converted.warnings,
            pages: Some(pages as i64),
        },
    )
    .await
}

/// GET /templates/{id}.
pub async fn get(ctx: &Ctx, actor: &Actor, id: &str) -> Result<TemplateOut, DomainError> {
    actor.require(Scope::TemplatesRead)?;
    Ok(load(&ctx.db.conn, ctx, actor, id).await?.out)
}

/// GET /documents/templates: approved, current templates, newest first.
pub async fn list(
    ctx: &Ctx,
    actor: &Actor,
    limit: Option<i64>,
    cursor: Option<&str>,
) -> Result<TemplatePageOut, DomainError> {
    actor.require(Scope::TemplatesRead)?;
    let page = PageRequest::parse(limit, cursor)?;
    let mut values = vec![Value::from(actor.workspace_id.clone())];
    let mut filter = String::new();
    if let Some(before) = &page.before_id {
        values.push(Value::from(before.clone()));
        filter = " AND t.id < $2".into();
    }
    let rows = ctx
        .db
        .conn
        .query_all_raw(ctx.db.stmt(
            &format!(
                "SELECT {COLUMNS} FROM templates t JOIN template_versions v \
                 ON v.template_id = t.id AND v.version = t.version \
                 WHERE t.workspace_id = $1 AND t.approved = TRUE{filter} ORDER BY t.id DESC LIMIT {}",
                page.limit + 1
            ),
            values,
        ))
        .await?;
    let list = rows
        .iter()
        .map(|r| from_row(r).map(|s| s.out))
        .collect::<Result<Vec<_>, _>>()?;
    let p = page.finish(list, |t| &t.id);
    Ok(TemplatePageOut {
        data: p.data,
        page: p.page,
    })
}

/// POST /templates/{id}/defaults.
pub async fn set_defaults(
    ctx: &Ctx,
    actor: &Actor,
    id: &str,
    body: TemplateDefaults,
) -> Result<TemplateOut, DomainError> {
    actor.require(Scope::TemplatesWrite)?;
    load(&ctx.db.conn, ctx, actor, id).await?;
    let defaults = TemplateDefaults {
        description: signet_core::fields::opt_text("description", &body.description, 2000)?,
        client_description: signet_core::fields::opt_text(
            "clientDescription",
            &body.client_description,
            2000,
        )?,
        message: signet_core::fields::opt_text("message", &body.message, 5000)?,
        send: match &body.send {
            Some(s) => Some(input::send_options(Some(s))?),
            None => None,
        },
    };
    ctx.db
        .conn
        .execute_raw(ctx.db.stmt(
            "UPDATE templates SET defaults = $2, updated_at = $3 WHERE id = $1",
            [
                Value::from(id.to_string()),
                Value::from(serde_json::to_string(&defaults).unwrap_or_else(|_| "{}".into())),
                Value::from(now_ms()),
            ],
        ))
        .await?;
    Ok(load(&ctx.db.conn, ctx, actor, id).await?.out)
}

/// A document's `send`: the template's defaults, then the request's own, key by key.
fn merged_send(
    defaults: &Option<SendOptionsIn>,
    own: Option<SendOptionsIn>,
) -> Option<SendOptionsIn> {
    let mut base = serde_json::to_value(defaults.clone().unwrap_or_default()).unwrap_or(json!({}));
    if let (Some(b), Some(o)) = (
        base.as_object_mut(),
        own.and_then(|o| serde_json::to_value(o).ok()),
    ) && let Some(o) = o.as_object()
    {
        for (k, v) in o {
            b.insert(k.clone(), v.clone());
        }
    }
    let merged: SendOptionsIn = serde_json::from_value(base).unwrap_or_default();
    Some(merged)
}

/// The document a template makes: its words, paper and profile, then the defaults, then the
/// request.
#[allow(clippy::too_many_arguments)]
fn document_of(
    t: &Stored,
    title: Option<String>,
    people: Vec<PersonIn>,
    email: Option<EmailOptionsIn>,
    metadata: Option<serde_json::Value>,
    external_id: Option<String>,
    variable_values: Option<serde_json::Value>,
    facts: Option<serde_json::Value>,
    send: Option<SendOptionsIn>,
    send_now: bool,
    embedded: Option<Vec<String>>,
) -> DocumentCreateIn {
    let d = &t.out.defaults;
    let mut email = email.unwrap_or_default();
    if email.message.is_none() && send.as_ref().is_none_or(|s| s.message.is_none()) {
        email.message = d.message.clone();
    }
    DocumentCreateIn {
        title: title.unwrap_or_else(|| t.out.name.clone()),
        source: t.source.clone(),
        people,
        email: Some(email),
        metadata,
        external_id,
        facts,
        variable_values,
        paper: Some(t.out.paper.clone()),
        profile: Some(t.out.profile.clone()),
        send: merged_send(&d.send, send),
        description: d.description.clone(),
        send_now: Some(send_now),
        embedded,
        from_template: Some((t.out.id.clone(), t.out.version)),
    }
}

/// POST /templates/{id}/documents: a document from a written template, with answers to its
/// questions; a draft unless `sendNow`.
pub async fn make_document(
    ctx: &Ctx,
    actor: &Actor,
    id: &str,
    body: TemplateDocumentIn,
    claim: Option<&Claim>,
) -> Result<Made<DocumentOut>, DomainError> {
    actor.require(Scope::DocumentsWrite)?;
    let t = load(&ctx.db.conn, ctx, actor, id).await?;
    let doc = document_of(
        &t,
        body.title,
        body.people,
        body.email,
        body.metadata,
        body.external_id,
        body.variable_values,
        body.facts,
        body.send,
        body.send_now.unwrap_or(false),
        body.embedded,
    );
    crate::create(ctx, actor, doc, claim).await
}

/// POST /documents/send: a template sent to one party per seat, at once.
pub async fn send(
    ctx: &Ctx,
    actor: &Actor,
    body: TemplateSendIn,
    claim: Option<&Claim>,
) -> Result<Made<DocumentOut>, DomainError> {
    actor.require(Scope::DocumentsWrite)?;
    let t = load(&ctx.db.conn, ctx, actor, &body.template_id)
        .await
        .map_err(|e| match e {
            DomainError::NotFound(_) => DomainError::invalid(
                "templateId",
                format!("no template with id {}", body.template_id),
            ),
            e => e,
        })?;
    if !t.out.approved {
        return Err(DomainError::conflict(format!(
            "template {} waits for a person's approval before it can be sent",
            t.out.id
        )));
    }
    if !t.out.questions.is_empty() {
        return Err(DomainError::invalid(
            "templateId",
            format!(
                "template {} has questions ({}): make its documents with POST /templates/{}/documents and answer them in variableValues",
                t.out.id,
                t.out
                    .questions
                    .iter()
                    .map(|q| format!("custom.{q}"))
                    .collect::<Vec<_>>()
                    .join(", "),
                t.out.id
            ),
        ));
    }
    if body.parties.len() > input::MAX_PEOPLE {
        return Err(DomainError::invalid(
            "parties",
            format!("has at most {} entries", input::MAX_PEOPLE),
        ));
    }
    let mut people = Vec::with_capacity(body.parties.len());
    for (i, p) in body.parties.iter().enumerate() {
        let seat = p.seat.trim();
        let Some(at) = t.out.seats.iter().position(|s| s == seat) else {
            return Err(DomainError::invalid(
                &format!("parties[{i}].seat"),
                format!(
                    "template {} has no seat '{seat}'; its seats are {}",
                    t.out.id,
                    t.out.seats.join(", ")
                ),
            ));
        };
        if body.parties[..i].iter().any(|q| q.seat.trim() == seat) {
            return Err(DomainError::invalid(
                &format!("parties[{i}].seat"),
                format!("seat '{seat}' is given twice"),
            ));
        }
        people.push(PersonIn {
            name: p.name.clone(),
            email: p.email.clone(),
            role: Some(seat.to_string()),
            action: None,
            // Signing order, when the template's defaults ask for it, follows the seats.
            order: Some(at as i64 + 1),
            external_id: p.external_id.clone(),
            metadata: p.metadata.clone(),
            locale: p.locale.clone(),
            access_code: p.access_code.clone(),
            email_code: p.email_code,
            kept_access_code: None,
            kept_embedded: false,
        });
    }
    if let Some(missing) = t
        .out
        .seats
        .iter()
        .find(|s| !body.parties.iter().any(|p| p.seat.trim() == s.as_str()))
    {
        return Err(DomainError::invalid(
            "parties",
            format!("no party takes seat '{missing}'; give one per seat"),
        ));
    }
    let own = SendOptionsIn {
        message: body.message.clone(),
        subject: body.subject.clone(),
        language: body.language.clone(),
        expiry_days: body.expiry_days,
        ..SendOptionsIn::default()
    };
    let doc = document_of(
        &t,
        body.title,
        people,
        body.email,
        body.metadata,
        body.external_id,
        None,
        None,
        Some(own),
        true,
        body.embedded,
    );
    crate::create(ctx, actor, doc, claim).await
}

/// Decides a template's pending approval: approved, the template is listed for sending;
/// declined, it stays unlisted.
pub(crate) async fn decide(
    ctx: &Ctx,
    approval_id: &str,
    template_id: &str,
    approve: bool,
    who: &str,
    note: Option<String>,
) -> Result<(), DomainError> {
    let txn = ctx.db.conn.begin().await?;
    let done = txn
        .execute_raw(ctx.db.stmt(
            "UPDATE approvals SET state = $2, decided_at = $3, decided_by = $4, note = $5 WHERE id = $1 AND state = 'pending'",
            [
                Value::from(approval_id.to_string()),
                Value::from(if approve { "approved" } else { "declined" }),
                Value::from(now_ms()),
                Value::from(who.to_string()),
                Value::from(note),
            ],
        ))
        .await?;
    if done.rows_affected() != 1 {
        return Err(DomainError::conflict(format!(
            "approval {approval_id} was decided meanwhile"
        )));
    }
    if approve {
        txn.execute_raw(ctx.db.stmt(
            "UPDATE templates SET approved = TRUE, updated_at = $2 WHERE id = $1",
            [Value::from(template_id.to_string()), Value::from(now_ms())],
        ))
        .await?;
    }
    txn.commit().await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_workspace_converts_one_slow_file_at_a_time_and_others_are_not_held() {
        let first = SlowTurn::take("ws_a").unwrap();
        match SlowTurn::take("ws_a") {
            Err(DomainError::RateLimited {
                retry_after_secs, ..
            }) => assert_eq!(retry_after_secs, 2),
            other => panic!("{:?}", other.map(|_| ())),
        }
        let other = SlowTurn::take("ws_b").unwrap();
        drop(first);
        let again = SlowTurn::take("ws_a").unwrap();
        drop((other, again));
    }
}
