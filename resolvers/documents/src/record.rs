//! The record a caller keeps: the sealed PDF and the audit log as CSV.

use super::trail;
use super::types::AuditEventOut;
use super::{store, visible};
use crate::state::DocState;
use signet_core::{Actor, Ctx, DomainError, Scope};

/// A file answer: its name for `Content-Disposition` and its bytes.
pub struct FileOut {
    pub file_name: String,
    pub bytes: Vec<u8>,
}

/// GET /documents/{id}/signed.pdf: 404 until the document is executed.
pub async fn signed_pdf(ctx: &Ctx, actor: &Actor, id: &str) -> Result<FileOut, DomainError> {
    actor.require(Scope::DocumentsRead)?;
    let doc = visible(&ctx.db.conn, ctx, actor, id).await?;
    let blob = sealed_key(ctx, &doc.id).await?;
    let not_yet = || {
        DomainError::NotFound(format!(
            "document {id} is {}; its signed copy exists once everyone has signed and it is sealed",
            doc.state
        ))
    };
    let blob = match (doc.state, blob) {
        (DocState::Executed, Some(b)) => b,
        _ => return Err(not_yet()),
    };
    let bytes = ctx
        .blobs
        .get(&blob)
        .await?
        .ok_or_else(|| DomainError::Internal(format!("the sealed file of {id} is missing")))?;
    Ok(FileOut {
        file_name: signed_file_name(&doc),
        bytes,
    })
}

/// The name a document's sealed copy downloads under.
pub fn signed_file_name(doc: &super::store::DocRow) -> String {
    format!("{}-signed.pdf", file_stem(&doc.title, &doc.id))
}

/// The name the sealed copy has when it goes to people by email (attached, or behind the
/// completed email's download link): the title, made safe.
pub fn attachment_name(title: &str) -> String {
    let s: String = title
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || c == ' ' || c == '-' {
                c
            } else {
                '_'
            }
        })
        .take(80)
        .collect();
    let s = s.trim();
    format!("{}.pdf", if s.is_empty() { "document" } else { s })
}

/// Where document `id`'s sealed copy is kept, once it is sealed.
pub async fn sealed_key(ctx: &Ctx, id: &str) -> Result<Option<String>, DomainError> {
    super::store::file_of(&ctx.db.conn, &ctx.db, id, super::store::FileColumn::Sealed).await
}

/// Document `id`'s sealed copy, when it has one: the one function that loads it.
pub(crate) async fn sealed_copy(ctx: &Ctx, id: &str) -> Result<Option<Vec<u8>>, DomainError> {
    match sealed_key(ctx, id).await? {
        Some(key) => Ok(ctx.blobs.get(&key).await?),
        None => Ok(None),
    }
}

/// The audit trail of a document, oldest first: what `audit-log.csv` and GraphQL's
/// `documentAuditLog` show.
/// A page of at most `limit` rows (1 to [`MAX_AUDIT_PAGE`], default [`AUDIT_PAGE`]) after the
/// row numbered `after`.
pub async fn audit_log(
    ctx: &Ctx,
    actor: &Actor,
    id: &str,
    limit: Option<i64>,
    after: Option<i64>,
) -> Result<Vec<AuditEventOut>, DomainError> {
    let limit = limit.unwrap_or(AUDIT_PAGE);
    if !(1..=MAX_AUDIT_PAGE).contains(&limit) {
        return Err(DomainError::invalid(
            "limit",
            format!("must be between 1 and {MAX_AUDIT_PAGE}, got {limit}"),
        ));
    }
    Ok(audited(ctx, actor, id, after.unwrap_or(0), limit).await?.1)
}

pub const AUDIT_PAGE: i64 = 500;
pub const MAX_AUDIT_PAGE: i64 = 1_000;

async fn audited(
    ctx: &Ctx,
    actor: &Actor,
    id: &str,
    after: i64,
    limit: i64,
) -> Result<(store::DocRow, Vec<AuditEventOut>), DomainError> {
    actor.require(Scope::DocumentsRead)?;
    let doc = visible(&ctx.db.conn, ctx, actor, id).await?;
    let rows = trail::records_after(&ctx.db.conn, &ctx.db, &doc.id, after, limit).await?;
    let people = store::people(&ctx.db.conn, &ctx.db, &[&doc.id]).await?;
    let out = rows
        .into_iter()
        .map(|r| AuditEventOut {
            seq: r.seq,
            time: signet_core::clock::time(r.at),
            person: r.seat.as_ref().map(|seat| {
                people
                    .iter()
                    .find(|p| &p.seat == seat)
                    .map(|p| format!("{} <{}> ({seat})", p.name, p.email))
                    .unwrap_or_else(|| seat.clone())
            }),
            event: r.event,
            description: r.description,
            document: doc.id.to_string(),
            detail: r.detail,
            hash: r.hash,
        })
        .collect();
    Ok((doc, out))
}

/// GET /documents/{id}/audit-log.csv: RFC 4180, UTF-8, CRLF, one row per audit event.
pub async fn audit_csv(ctx: &Ctx, actor: &Actor, id: &str) -> Result<FileOut, DomainError> {
    let (doc, rows) = audited(ctx, actor, id, 0, i64::MAX).await?;
    let mut out = String::from("time,event,description,person,document,detail\r\n");
    for r in &rows {
        let fields = [
            r.time.as_str(),
            &r.event,
            &r.description,
            r.person.as_deref().unwrap_or(""),
            &r.document,
            &r.detail,
        ];
        let line: Vec<String> = fields.iter().map(|f| csv_field(f)).collect();
        out.push_str(&line.join(","));
        out.push_str("\r\n");
    }
    Ok(FileOut {
        file_name: format!("{}-audit-log.csv", file_stem(&doc.title, &doc.id)),
        bytes: out.into_bytes(),
    })
}

/// One RFC 4180 field. A cell a spreadsheet would run as a formula (`=`, `+`, `-`, `@`, tab,
/// carriage return first) gets a leading apostrophe, as OWASP advises for CSV exports.
pub fn csv_field(s: &str) -> String {
    let s = if s.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        format!("'{s}")
    } else {
        s.to_string()
    };
    if s.contains([',', '"', '\r', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s
    }
}

/// A file name from the title: letters, digits and dashes, then the id.
fn file_stem(title: &str, id: &str) -> String {
    let mut stem: String = title
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect();
    while stem.contains("--") {
        stem = stem.replace("--", "-");
    }
    let stem = stem.trim_matches('-');
    let stem: String = stem.chars().take(60).collect();
    if stem.is_empty() {
        id.to_string()
    } else {
        format!("{stem}-{id}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_fields_quote_and_defuse_formulas() {
        assert_eq!(csv_field("plain"), "plain");
        assert_eq!(csv_field("a,b"), "\"a,b\"");
        assert_eq!(csv_field("say \"hi\""), "\"say \"\"hi\"\"\"");
        assert_eq!(csv_field("two\r\nlines"), "\"two\r\nlines\"");
        assert_eq!(csv_field("=HYPERLINK(\"x\")"), "\"'=HYPERLINK(\"\"x\"\")\"");
        assert_eq!(csv_field("@SUM(A1)"), "'@SUM(A1)");
    }

    #[test]
    fn file_names_are_safe() {
        assert_eq!(
            file_stem("Mutual NDA / 2026", "doc_1"),
            "mutual-nda-2026-doc_1"
        );
        assert_eq!(file_stem("契約", "doc_1"), "doc_1");
    }
}
