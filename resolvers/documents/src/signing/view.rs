//! What the page shows for a link (`view`), the pages' pictures, and the sealed copy. Reading
//! never changes anything: mail scanners follow links.

use std::collections::BTreeMap;

use serde::Serialize;

use super::visit::{Stage, Visit, consented, language, stage, visit};
use super::words::Disclosure;
use super::{identity, values, words};
use crate::record::FileOut;
use crate::store::{self, DocRow, PersonDbRow};
use crate::types::{EmailOptionsIn, SendOptionsIn};
use signet_core::{Ctx, DomainError};

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ViewOut {
    pub stage: Stage,
    pub document: DocView,
    pub person: PersonView,
    /// The disclosure to accept first; `null` once accepted.
    pub consent: Option<Disclosure>,
    /// The person's fields, in reading order (empty unless it is their turn).
    pub fields: Vec<values::FieldView>,
    pub require_decline_reason: bool,
    /// When the sender asks the person who they are: the check screen's state. Until they
    /// pass, nothing of the document but its title is shown.
    pub verify: Option<identity::Gate>,
    /// The page's words in the person's language.
    pub words: &'static BTreeMap<String, String>,
    /// Changes whenever what the page shows may have: `view?wait=…&version=…` answers once
    /// it differs.
    pub version: String,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DocView {
    pub title: String,
    pub test: bool,
    pub language: &'static str,
    /// `rtl` for Arabic.
    pub dir: &'static str,
    pub sender: String,
    /// `null` until the document is rendered (moments after sending).
    pub pages: Option<Vec<PageOut>>,
    /// Where the signed copy downloads from, once it exists.
    pub sealed: bool,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PageOut {
    /// In points.
    pub width: f64,
    pub height: f64,
    /// Picture addresses by width in pixels.
    pub images: BTreeMap<u32, String>,
    /// Text runs in points: `{x, y, width, height, size, text}`.
    pub text: serde_json::Value,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PersonView {
    pub name: String,
    pub email: String,
    pub seat: String,
    pub status: String,
}

/// What the page shows for a link, given the pass the page holds. Changes nothing.
pub async fn view(ctx: &Ctx, token: &str, pass: Option<&str>) -> Result<ViewOut, DomainError> {
    let v = visit(ctx, token).await?;
    view_of(ctx, &v, pass).await
}

pub(crate) async fn view_of(
    ctx: &Ctx,
    v: &Visit,
    pass: Option<&str>,
) -> Result<ViewOut, DomainError> {
    let (doc, person) = (&v.doc, &v.person);
    if identity::gated(ctx, person, pass) {
        // An ended document shows its state only; an open one, the check screen.
        let stage = stage(doc, person);
        let ended = !identity::checks_open(stage);
        let lang = language(doc, person);
        return Ok(ViewOut {
            stage,
            document: DocView {
                title: doc.title.clone(),
                test: doc.test,
                language: lang,
                dir: if lang == "ar" { "rtl" } else { "ltr" },
                sender: sender(ctx, doc).await?,
                pages: None,
                sealed: false,
            },
            person: PersonView {
                name: person.name.clone(),
                email: String::new(),
                seat: person.seat.clone(),
                status: person.status.as_str().to_string(),
            },
            consent: None,
            fields: Vec::new(),
            require_decline_reason: false,
            verify: if ended {
                None
            } else {
                Some(identity::gate(ctx, v).await?)
            },
            words: &words::of(lang).page,
            version: version(doc, person, false, false),
        });
    }
    let stage = stage(doc, person);
    let lang = language(doc, person);
    let w = words::of(lang);
    let send: SendOptionsIn = serde_json::from_str(&doc.send_options).unwrap_or_default();
    let sender = sender(ctx, doc).await?;
    // The document's pages and words are shown only to a person whose turn it is. Once it
    // ended the link shows its state and whom to ask; once executed, what the completed
    // email offers (the signed copy).
    let pages = if stage == Stage::Sign {
        pages(ctx, doc).await?
    } else {
        None
    };
    let ended = matches!(stage, Stage::Declined | Stage::Voided | Stage::Expired);
    let consent = if stage == Stage::Sign && !consented(ctx, doc, person).await? {
        Some(words::disclosure(lang))
    } else {
        None
    };
    let fields = if stage == Stage::Sign {
        let mut fields = values::fields(ctx, doc, person).await?;
        super::pay::attach(ctx, doc, person, &mut fields).await?;
        fields
    } else {
        Vec::new()
    };
    let sealed = stage == Stage::Executed && person.participates();
    let pages_ready = pages.is_some();
    Ok(ViewOut {
        stage,
        document: DocView {
            title: doc.title.clone(),
            test: doc.test,
            language: lang,
            dir: if lang == "ar" { "rtl" } else { "ltr" },
            sender,
            pages,
            sealed,
        },
        person: PersonView {
            name: person.name.clone(),
            email: if ended {
                String::new()
            } else {
                person.email.clone()
            },
            seat: person.seat.clone(),
            status: person.status.as_str().to_string(),
        },
        consent,
        fields,
        require_decline_reason: send.require_decline_reason.unwrap_or(false),
        verify: None,
        words: &w.page,
        version: version(doc, person, pages_ready, sealed),
    })
}

fn version(doc: &DocRow, person: &PersonDbRow, pages: bool, sealed: bool) -> String {
    format!(
        "{}.{}.{}.{}.{}",
        doc.updated_at, doc.state, person.status, pages as u8, sealed as u8
    )
}

/// The most page views waiting for a change at once, per process; past it a waiting view is
/// a 429 (the page asks again a few seconds later).
const MAX_WAITING: usize = 1000;
static WAITING: std::sync::LazyLock<tokio::sync::Semaphore> =
    std::sync::LazyLock::new(|| tokio::sync::Semaphore::new(MAX_WAITING));

/// `view` that, when the page already shows `version`, waits up to `wait` for the document
/// to change (the live feed behind `documentStatus`, across processes with Redis): a person
/// waiting for their turn sees it come.
pub async fn view_waiting(
    ctx: &Ctx,
    token: &str,
    pass: Option<&str>,
    version: &str,
    wait: std::time::Duration,
) -> Result<ViewOut, DomainError> {
    let Ok(_slot) = WAITING.try_acquire() else {
        return Err(DomainError::RateLimited {
            message: "too many pages are waiting for a change; ask again in a few seconds".into(),
            retry_after_secs: 5,
        });
    };
    // Subscribed before the read, so no change falls between the two.
    let mut rx = ctx.live.subscribe();
    let v = visit(ctx, token).await?;
    let now = view_of(ctx, &v, pass).await?;
    if now.version != version {
        return Ok(now);
    }
    let deadline = tokio::time::sleep(wait);
    tokio::pin!(deadline);
    // A change of the document that the page would not show (another person opening it)
    // keeps the wait going: the page hears only of what it shows.
    loop {
        tokio::select! {
            _ = &mut deadline => break,
            change = rx.recv() => match change {
                Ok(c) if *c.id == *v.doc.id || c.id.is_empty() => {
                    let now = view(ctx, token, pass).await?;
                    if now.version != version {
                        return Ok(now);
                    }
                }
                Ok(_) => continue,
                Err(_) => break,
            },
        }
    }
    view(ctx, token, pass).await
}

/// The name the page says the document is from.
async fn sender(ctx: &Ctx, doc: &DocRow) -> Result<String, DomainError> {
    let send: SendOptionsIn = serde_json::from_str(&doc.send_options).unwrap_or_default();
    let email: EmailOptionsIn = serde_json::from_str(&doc.email_options).unwrap_or_default();
    match email.sender_name.or(send.sender_name) {
        Some(s) => Ok(s),
        None => workspace_name(ctx, &doc.workspace_id).await,
    }
}

async fn workspace_name(ctx: &Ctx, id: &str) -> Result<String, DomainError> {
    let profile = signet_accounts::workspaces::profile(ctx, id).await?;
    Ok(profile.map(|p| p.name).unwrap_or_default())
}

/// The rendered pages' pictures and text, `None` until rendered.
async fn pages(ctx: &Ctx, doc: &DocRow) -> Result<Option<Vec<PageOut>>, DomainError> {
    let blob = store::file_of(&ctx.db.conn, &ctx.db, &doc.id, store::FileColumn::Rendered).await?;
    let Some(blob) = blob else {
        return Ok(None);
    };
    let Some(index) = ctx.blobs.get(&crate::blob_keys::index_key(&blob)).await? else {
        // The pictures are being drawn (the render kept the text for them), or the file was
        // rendered before pictures were made: then they are made now. Either way the page
        // waits as for a render and asks again.
        if doc.state.out_for_signature()
            && ctx
                .blobs
                .get(&crate::blob_keys::text_key(&blob))
                .await?
                .is_none()
        {
            crate::pictures::make_later(ctx, doc);
        }
        return Ok(None);
    };
    #[derive(serde::Deserialize)]
    struct Index {
        widths: Vec<u32>,
        pages: Vec<IndexPage>,
    }
    #[derive(serde::Deserialize)]
    struct IndexPage {
        size: [f64; 2],
        text: serde_json::Value,
    }
    let index: Index = serde_json::from_slice(&index)
        .map_err(|e| DomainError::Internal(format!("page index of {}: {e}", doc.id)))?;
    let until = image_until(ctx.now());
    Ok(Some(
        index
            .pages
            .into_iter()
            .enumerate()
            .map(|(i, p)| PageOut {
                width: p.size[0],
                height: p.size[1],
                images: index
                    .widths
                    .iter()
                    .map(|&w| (w, image_url(ctx, &doc.id, i + 1, w, until)))
                    .collect(),
                text: p.text,
            })
            .collect(),
    ))
}

/// Picture addresses last until the end of the next hour (the same address for an hour, so
/// a browser that reloads the page finds its own copy while it keeps one).
fn image_until(now: i64) -> i64 {
    let hour = 3_600_000;
    (now / hour + 2) * hour
}

fn image_tag(ctx: &Ctx, doc_id: &str, page: usize, width: u32, until: i64) -> String {
    let tag = ring::hmac::sign(
        &ctx.key_hasher,
        format!("page-image:{doc_id}:{page}:{width}:{until}").as_bytes(),
    );
    tag.as_ref()[..16]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

fn image_url(ctx: &Ctx, doc_id: &str, page: usize, width: u32, until: i64) -> String {
    format!(
        "/page/v1/images/{doc_id}/{page}/{width}?until={until}&tag={}",
        image_tag(ctx, doc_id, page, width, until)
    )
}

/// GET /page/v1/images/{doc}/{page}/{width}: a page picture, for an address `view` made
/// that has not run out, of a document still out for signature. Anything else is the same
/// 404.
pub async fn image(
    ctx: &Ctx,
    doc_id: &str,
    page: usize,
    width: u32,
    until: i64,
    tag: &str,
) -> Result<Vec<u8>, DomainError> {
    let gone = || DomainError::NotFound("no such page picture".into());
    let expected = image_tag(ctx, doc_id, page, width, until);
    // Compared in constant time: the given tag's own HMAC against the expected one's.
    let given = ring::hmac::sign(&ctx.key_hasher, tag.as_bytes());
    if until < ctx.now()
        || ring::hmac::verify(&ctx.key_hasher, expected.as_bytes(), given.as_ref()).is_err()
    {
        return Err(gone());
    }
    // Pictures are for people signing: once the document ended, its addresses show nothing.
    let blob = store::rendered_while_out(&ctx.db.conn, &ctx.db, doc_id).await?;
    let blob = blob.ok_or_else(gone)?;
    ctx.blobs
        .get(&crate::blob_keys::image_key(&blob, page, width))
        .await?
        .ok_or_else(gone)
}

/// GET /page/v1/signed.pdf: the sealed copy, for a person who signed it (a copy-only person
/// receives it by email), once it exists.
pub async fn sealed(ctx: &Ctx, token: &str, pass: Option<&str>) -> Result<FileOut, DomainError> {
    let v = visit(ctx, token).await?;
    identity::require(ctx, &v, pass)?;
    if stage(&v.doc, &v.person) != Stage::Executed || !v.person.participates() {
        return Err(DomainError::NotFound(
            "the signed copy exists once everyone has signed and it is sealed".into(),
        ));
    }
    let blob = store::file_of(&ctx.db.conn, &ctx.db, &v.doc.id, store::FileColumn::Sealed).await?;
    let bytes = match blob {
        Some(b) => ctx.blobs.get(&b).await?,
        None => None,
    }
    .ok_or_else(|| DomainError::Internal(format!("the sealed file of {} is missing", v.doc.id)))?;
    Ok(FileOut {
        file_name: crate::record::signed_file_name(&v.doc),
        bytes,
    })
}
