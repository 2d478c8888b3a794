//! Signing links: 32 random bytes, base64url, minted when an invitation or reminder is sent.
//! Only a keyed hash is stored, tied to one person of one document; a link works while the
//! document is out for signature, and a later link does not end an earlier one. The page
//! behind a link asks `check` who it belongs to.

use base64::Engine as _;
use ring::rand::SecureRandom as _;
use sea_orm::{ConnectionTrait, Value};
use signet_storage::Sql;

use crate::record::FileOut;
use signet_core::{Ctx, DomainError};

/// A link's secret part, and what is stored of it.
pub struct Minted {
    pub token: String,
    pub hash: String,
}

/// A new token and its keyed hash.
pub fn mint(ctx: &Ctx) -> Result<Minted, DomainError> {
    let mut bytes = [0u8; 32];
    ring::rand::SystemRandom::new()
        .fill(&mut bytes)
        .map_err(|_| DomainError::Internal("the system's random source failed".into()))?;
    let token = base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes);
    let hash = hash(ctx, &token);
    Ok(Minted { token, hash })
}

/// The keyed hash of a token (distinct from the hash of API keys by its prefix).
pub fn hash(ctx: &Ctx, token: &str) -> String {
    let tag = ring::hmac::sign(&ctx.key_hasher, format!("link:{token}").as_bytes());
    tag.as_ref().iter().map(|b| format!("{b:02x}")).collect()
}

/// The address of a signing link.
pub fn url(public_url: &str, token: &str) -> String {
    format!("{}/s/{token}", public_url.trim_end_matches('/'))
}

/// The address of a download link.
pub fn download_url(public_url: &str, token: &str) -> String {
    format!("{}/d/{token}", public_url.trim_end_matches('/'))
}

/// What a stored link opens: a person's signing page, or a sealed copy to download.
pub struct LinkFor<'a> {
    /// `sign` or `download`.
    pub purpose: &'static str,
    pub document_id: &'a str,
    pub person_id: Option<&'a str>,
    /// The email that carries it.
    pub email_id: &'a str,
    pub expires_at: Option<i64>,
}

/// Stores a minted link in the caller's transaction (the one that logs its email).
pub async fn store<C: Sql>(
    ctx: &Ctx,
    conn: &C,
    minted: &Minted,
    to: &LinkFor<'_>,
) -> Result<(), DomainError> {
    signet_storage::insert_rows(
        conn,
        &ctx.db,
        "signing_links",
        ROW_COLUMNS,
        vec![row(minted, to, ctx.now())],
    )
    .await?;
    Ok(())
}

/// The row values of a link made at `now`, in `ROW_COLUMNS` order, for a batch insert.
pub fn row(minted: &Minted, to: &LinkFor<'_>, now: i64) -> Vec<Value> {
    vec![
        Value::from(minted.hash.clone()),
        Value::from(to.document_id.to_string()),
        Value::from(to.person_id.unwrap_or_default().to_string()),
        Value::from(to.email_id.to_string()),
        Value::from(to.purpose),
        Value::from(to.expires_at),
        Value::from(now),
    ]
}

/// The columns `row` fills.
pub const ROW_COLUMNS: &[&str] = &[
    "hash",
    "document_id",
    "person_id",
    "email_id",
    "purpose",
    "expires_at",
    "created_at",
];

/// Whose a link is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Holder {
    pub document_id: String,
    pub person_id: String,
}

/// The person a signing link belongs to, while their document is out for signature; `None`
/// for any other token (never minted, another purpose, or the document has ended).
pub async fn check(ctx: &Ctx, token: &str) -> Result<Option<Holder>, DomainError> {
    if token.len() != 43 {
        return Ok(None);
    }
    let row = ctx
        .db
        .conn
        .query_one_raw(ctx.db.stmt(
            &format!(
                "SELECT l.document_id, l.person_id FROM signing_links l JOIN documents d ON d.id = l.document_id \
                 WHERE l.hash = $1 AND l.purpose = 'sign' AND d.state IN {}",
                crate::state::OUT_FOR_SIGNATURE
            ),
            [Value::from(hash(ctx, token))],
        ))
        .await?;
    row.map(|r| {
        Ok(Holder {
            document_id: r.try_get("", "document_id")?,
            person_id: r.try_get("", "person_id")?,
        })
    })
    .transpose()
}

/// GET /d/{token}: the sealed copy a completed email's download link opens, for 30 days.
/// Any other token, or one that has run out, is the same 404.
pub async fn download(ctx: &Ctx, token: &str) -> Result<FileOut, DomainError> {
    let gone = || DomainError::NotFound("this download link is not valid, or has run out".into());
    if token.len() != 43 {
        return Err(gone());
    }
    let row = ctx
        .db
        .conn
        .query_one_raw(ctx.db.stmt(
            "SELECT document_id FROM signing_links WHERE hash = $1 AND purpose = 'download' AND expires_at > $2",
            [Value::from(hash(ctx, token)), Value::from(ctx.now())],
        ))
        .await?
        .ok_or_else(gone)?;
    let doc_id: String = row.try_get("", "document_id")?;
    let doc = crate::store::load(&ctx.db.conn, &ctx.db, &doc_id)
        .await?
        .ok_or_else(gone)?;
    let bytes = crate::record::sealed_copy(ctx, &doc.id)
        .await?
        .ok_or_else(gone)?;
    Ok(FileOut {
        file_name: crate::record::attachment_name(&doc.title),
        bytes,
    })
}
