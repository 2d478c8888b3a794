//! Who a signing link belongs to and where they stand: the visit, its stage, its language,
//! whether the disclosure was accepted, and where an act came from.

use crate::state::PersonStatus;
use sea_orm::{ConnectionTrait, Value};
use serde::Serialize;
use serde_json::json;

use crate::state::DocState;
use crate::store::{self, DocRow, PersonDbRow};
use signet_core::{Ctx, DomainError};

use super::words;

/// A link's holder and their document, in whatever state it is.
pub struct Visit {
    pub doc: DocRow,
    pub person: PersonDbRow,
    pub people: Vec<PersonDbRow>,
    /// For an embedded session, the website it is shown on.
    pub origin: Option<String>,
}

fn not_a_link() -> DomainError {
    DomainError::NotFound("this link does not open a document".into())
}

/// Whether `token` is a link a page call may carry: a signing link, an embedded session
/// that has not run out, or an embed link not yet exchanged. One indexed read; the page
/// calls check it before reading a body.
pub async fn link_is_live(ctx: &Ctx, token: &str) -> Result<bool, DomainError> {
    if token.len() != 43 {
        return Ok(false);
    }
    Ok(ctx
        .db
        .conn
        .query_one_raw(ctx.db.stmt(
            "SELECT 1 AS live FROM signing_links WHERE hash = $1 AND (purpose = 'sign' \
             OR (purpose = 'session' AND expires_at > $2) \
             OR (purpose = 'embed' AND used_at IS NULL AND expires_at > $2))",
            [
                Value::from(crate::signing::links::hash(ctx, token)),
                Value::from(ctx.now()),
            ],
        ))
        .await?
        .is_some())
}

/// Whose a signing link (or an embedded session, while it lasts) is, whatever the state of
/// its document (the page shows an ended document's state, not a form). Any other token is
/// the same 404.
pub async fn visit(ctx: &Ctx, token: &str) -> Result<Visit, DomainError> {
    if token.len() != 43 {
        return Err(not_a_link());
    }
    let row = ctx
        .db
        .conn
        .query_one_raw(ctx.db.stmt(
            "SELECT document_id, person_id, origin FROM signing_links WHERE hash = $1 \
             AND (purpose = 'sign' OR (purpose = 'session' AND expires_at > $2))",
            [
                Value::from(crate::signing::links::hash(ctx, token)),
                Value::from(ctx.now()),
            ],
        ))
        .await?
        .ok_or_else(not_a_link)?;
    let doc_id: String = row.try_get("", "document_id")?;
    let person_id: String = row.try_get("", "person_id")?;
    let origin: Option<String> = row.try_get("", "origin")?;
    let doc = store::load(&ctx.db.conn, &ctx.db, &doc_id)
        .await?
        .ok_or_else(not_a_link)?;
    // An embedded session lasts while its workspace still embeds on its website: turning
    // embedding off, or taking the website off the list, ends the sessions already open.
    if let Some(origin) = &origin {
        let embedding =
            signet_accounts::workspaces::embedding(&ctx.db.conn, ctx, &doc.workspace_id).await?;
        if !embedding.on || !embedding.origins.contains(origin) {
            return Err(DomainError::NotFound(
                "this signing session has ended: the website may no longer show it".into(),
            ));
        }
    }
    let people = store::people(&ctx.db.conn, &ctx.db, &[&doc.id]).await?;
    let person = people
        .iter()
        .find(|p| p.id == person_id)
        .cloned()
        .ok_or_else(not_a_link)?;
    Ok(Visit {
        doc,
        person,
        people,
        origin,
    })
}

/// Where the person stands, which decides the screen.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Stage {
    /// Their turn: consent first (when not yet given), then the form.
    Sign,
    /// Someone signs before them.
    Waiting,
    /// They signed; others have not all yet, or the sealed copy is being made.
    Signed,
    /// Everyone signed and the sealed copy exists.
    Executed,
    Declined,
    Voided,
    Expired,
}

pub fn stage(doc: &DocRow, person: &PersonDbRow) -> Stage {
    match doc.state {
        DocState::Executed => Stage::Executed,
        DocState::Declined => Stage::Declined,
        DocState::Voided => Stage::Voided,
        DocState::Expired => Stage::Expired,
        _ => match person.status {
            PersonStatus::Invited | PersonStatus::Opened => Stage::Sign,
            PersonStatus::Signed => Stage::Signed,
            PersonStatus::Declined => Stage::Declined,
            PersonStatus::Waiting => Stage::Waiting,
        },
    }
}

/// The page's language: the person's own, else the document's (as for their emails), else
/// English; one of the 14.
pub fn language(doc: &DocRow, person: &PersonDbRow) -> &'static str {
    words::code(&person.locale.clone().unwrap_or_else(|| crate::locale(doc)))
}

/// Where an act came from, for the audit trail and the certificate.
#[derive(Clone, Debug, Default)]
pub struct Seen {
    pub ip: String,
    pub user_agent: String,
    /// For an embedded session: the website it was shown on.
    pub origin: Option<String>,
}

impl Seen {
    /// Where an act of `v` came from: an embedded session says so in the trail.
    pub(crate) fn of(&self, v: &Visit) -> Seen {
        Seen {
            origin: v.origin.clone(),
            ..self.clone()
        }
    }

    pub(crate) fn detail(&self) -> serde_json::Value {
        // A user agent is the browser's to write: bounded, printable.
        let agent: String = self
            .user_agent
            .chars()
            .filter(|c| !c.is_control() && !signet_core::fields::is_disguising(*c))
            .take(400)
            .collect();
        match &self.origin {
            Some(origin) => {
                json!({"ip": self.ip, "userAgent": agent, "via": "embedded", "origin": origin})
            }
            None => json!({"ip": self.ip, "userAgent": agent}),
        }
    }
}

/// `detail` with where the act came from added.
pub(crate) fn with(mut detail: serde_json::Value, seen: &Seen) -> serde_json::Value {
    if let (Some(d), serde_json::Value::Object(s)) = (detail.as_object_mut(), seen.detail()) {
        d.extend(s);
    }
    detail
}

/// Whether the person accepted the disclosure of this document.
pub async fn consented(ctx: &Ctx, doc: &DocRow, person: &PersonDbRow) -> Result<bool, DomainError> {
    Ok(ctx
        .db
        .conn
        .query_one_raw(ctx.db.stmt(
            "SELECT 1 AS one FROM audit_events WHERE document_id = $1 AND seat = $2 AND event = 'consented' LIMIT 1",
            [Value::from(doc.id.clone()), Value::from(person.seat.clone())],
        ))
        .await?
        .is_some())
}
