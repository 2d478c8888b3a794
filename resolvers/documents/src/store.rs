//! Rows of the document tables and their reading. Writes live with the actions that make them.

use std::collections::BTreeMap;

use sea_orm::{ConnectionTrait, QueryResult, Value};
use signet_storage::Db;
use signet_storage::ids::{DocumentId, PersonId, WorkspaceId};

use super::state::{DocState, PersonStatus};
use super::types::{ApprovalOut, DocumentOut, PersonOut};
use signet_core::DomainError;
use signet_core::clock::time;
use signet_source::PersonAction;

#[derive(Clone, Debug)]
pub struct DocRow {
    pub id: DocumentId,
    pub workspace_id: WorkspaceId,
    pub test: bool,
    pub state: DocState,
    pub title: String,
    pub description: Option<String>,
    pub external_id: Option<String>,
    pub metadata: BTreeMap<String, String>,
    pub source: String,
    pub facts: String,
    pub variable_values: String,
    pub paper: String,
    pub profile: String,
    pub email_options: String,
    pub send_options: String,
    pub created_by: String,
    pub created_at: i64,
    pub updated_at: i64,
    pub sent_at: Option<i64>,
    pub completed_at: Option<i64>,
    pub expires_at: Option<i64>,
    pub reason: Option<String>,
    pub page_sizes: Option<String>,
    pub template_id: Option<String>,
    pub template_version: Option<i64>,
}

pub const DOC_COLUMNS: &str = "id, workspace_id, test, state, title, description, external_id, \
    metadata, source, facts, variable_values, paper, profile, email_options, send_options, \
    created_by, created_at, updated_at, sent_at, completed_at, expires_at, reason, page_sizes, \
    template_id, template_version";

/// The columns of a list page: the words and the merge values are never part of a document's
/// answer, so a page of 200 documents does not read 200 sources. Rows read this way carry
/// empty `source`, `facts` and `variable_values` and serve only `to_out`.
pub const LIST_COLUMNS: &str = "id, workspace_id, test, state, title, description, external_id, \
    metadata, '' AS source, '' AS facts, '' AS variable_values, paper, profile, email_options, \
    send_options, created_by, created_at, updated_at, sent_at, completed_at, expires_at, reason, \
    page_sizes, template_id, template_version";

fn get<T: sea_orm::TryGetable>(r: &QueryResult, col: &str) -> Result<T, DomainError> {
    r.try_get("", col).map_err(DomainError::from)
}

impl DocRow {
    pub fn from_row(r: &QueryResult) -> Result<DocRow, DomainError> {
        let metadata: String = get(r, "metadata")?;
        Ok(DocRow {
            id: get::<String>(r, "id")?.into(),
            workspace_id: get::<String>(r, "workspace_id")?.into(),
            test: get(r, "test")?,
            state: {
                let s: String = get(r, "state")?;
                DocState::parse(&s).ok_or_else(|| {
                    DomainError::Internal(format!("a document is in an unknown state '{s}'"))
                })?
            },
            title: get(r, "title")?,
            description: get(r, "description")?,
            external_id: get(r, "external_id")?,
            metadata: serde_json::from_str(&metadata).unwrap_or_default(),
            source: get(r, "source")?,
            facts: get(r, "facts")?,
            variable_values: get(r, "variable_values")?,
            paper: get(r, "paper")?,
            profile: get(r, "profile")?,
            email_options: get(r, "email_options")?,
            send_options: get(r, "send_options")?,
            created_by: get(r, "created_by")?,
            created_at: get(r, "created_at")?,
            updated_at: get(r, "updated_at")?,
            sent_at: get(r, "sent_at")?,
            completed_at: get(r, "completed_at")?,
            expires_at: get(r, "expires_at")?,
            reason: get(r, "reason")?,
            page_sizes: get(r, "page_sizes")?,
            template_id: get(r, "template_id")?,
            template_version: get::<Option<i32>>(r, "template_version")?.map(i64::from),
        })
    }
}

#[derive(Clone, Debug)]
pub struct PersonDbRow {
    pub id: PersonId,
    pub document_id: DocumentId,
    pub position: i64,
    pub seat: String,
    pub name: String,
    pub email: String,
    pub external_id: Option<String>,
    pub metadata: BTreeMap<String, String>,
    pub action: PersonAction,
    pub order: i64,
    pub status: PersonStatus,
    pub invited_at: Option<i64>,
    pub opened_at: Option<i64>,
    pub completed_at: Option<i64>,
    pub declined_at: Option<i64>,
    pub last_reminded_at: Option<i64>,
    pub reminders: i64,
    /// The language of this person's emails, when it was given for them.
    pub locale: Option<String>,
    /// The salted keyed hash of the access code the signing page asks for.
    pub access_code_hash: Option<String>,
    /// Whether the signing page asks for a code emailed to them.
    pub email_code: bool,
    /// Signed inside the caller's own app; never emailed.
    pub embedded: bool,
}

impl PersonDbRow {
    fn from_row(r: &QueryResult) -> Result<PersonDbRow, DomainError> {
        let metadata: String = get(r, "metadata")?;
        Ok(PersonDbRow {
            id: get::<String>(r, "id")?.into(),
            document_id: get::<String>(r, "document_id")?.into(),
            position: get::<i32>(r, "position")? as i64,
            seat: get(r, "seat")?,
            name: get(r, "name")?,
            email: get(r, "email")?,
            external_id: get(r, "external_id")?,
            metadata: serde_json::from_str(&metadata).unwrap_or_default(),
            action: {
                let a: String = get(r, "action")?;
                PersonAction::parse(&a).ok_or_else(|| {
                    DomainError::Internal(format!("a person's stored action '{a}' is unknown"))
                })?
            },
            order: get::<i32>(r, "sign_order")? as i64,
            status: {
                let s: String = get(r, "status")?;
                PersonStatus::parse(&s).ok_or_else(|| {
                    DomainError::Internal(format!("a person's stored status '{s}' is unknown"))
                })?
            },
            invited_at: get(r, "invited_at")?,
            opened_at: get(r, "opened_at")?,
            completed_at: get(r, "completed_at")?,
            declined_at: get(r, "declined_at")?,
            last_reminded_at: get(r, "last_reminded_at")?,
            reminders: get::<i32>(r, "reminders")? as i64,
            locale: get(r, "locale")?,
            access_code_hash: get(r, "access_code_hash")?,
            email_code: get(r, "email_code")?,
            embedded: get(r, "embedded")?,
        })
    }

    /// What the signing page asks of this person before it shows the document.
    pub fn checks(&self) -> Vec<String> {
        let mut out = Vec::new();
        if self.access_code_hash.is_some() {
            out.push("accessCode".to_string());
        }
        if self.email_code {
            out.push("emailCode".to_string());
        }
        out
    }

    /// Whether the document waits for this person.
    pub fn participates(&self) -> bool {
        self.action != PersonAction::Cc
    }
}

pub async fn load<C: ConnectionTrait>(
    conn: &C,
    db: &Db,
    id: &str,
) -> Result<Option<DocRow>, DomainError> {
    let row = conn
        .query_one_raw(db.stmt(
            &format!("SELECT {DOC_COLUMNS} FROM documents WHERE id = $1"),
            [Value::from(id)],
        ))
        .await?;
    row.as_ref().map(DocRow::from_row).transpose()
}

pub async fn people<C: ConnectionTrait>(
    conn: &C,
    db: &Db,
    doc_ids: &[&str],
) -> Result<Vec<PersonDbRow>, DomainError> {
    if doc_ids.is_empty() {
        return Ok(vec![]);
    }
    let marks: Vec<String> = (1..=doc_ids.len()).map(|i| format!("${i}")).collect();
    let sql = format!(
        "SELECT id, document_id, position, seat, name, email, external_id, metadata, action, sign_order, status, \
         invited_at, opened_at, completed_at, declined_at, last_reminded_at, reminders, locale, access_code_hash, email_code, embedded FROM people WHERE document_id IN ({}) \
         ORDER BY document_id, position",
        marks.join(", ")
    );
    let rows = conn
        .query_all_raw(db.stmt(&sql, doc_ids.iter().map(|d| Value::from(*d))))
        .await?;
    rows.iter().map(PersonDbRow::from_row).collect()
}

pub async fn pending_approvals<C: ConnectionTrait>(
    conn: &C,
    db: &Db,
    doc_ids: &[&str],
) -> Result<Vec<ApprovalOut>, DomainError> {
    if doc_ids.is_empty() {
        return Ok(vec![]);
    }
    let marks: Vec<String> = (1..=doc_ids.len()).map(|i| format!("${i}")).collect();
    let sql = format!(
        "SELECT id, document_id, state, created_at, decided_at, note FROM approvals \
         WHERE state = 'pending' AND document_id IN ({})",
        marks.join(", ")
    );
    let rows = conn
        .query_all_raw(db.stmt(&sql, doc_ids.iter().map(|d| Value::from(*d))))
        .await?;
    rows.iter().map(approval_from_row).collect()
}

pub fn approval_from_row(r: &QueryResult) -> Result<ApprovalOut, DomainError> {
    Ok(ApprovalOut {
        id: get(r, "id")?,
        document_id: Some(get::<String>(r, "document_id")?).filter(|d| !d.is_empty()),
        template_id: get(r, "template_id")?,
        state: get(r, "state")?,
        created_at: time(get(r, "created_at")?),
        decided_at: get::<Option<i64>>(r, "decided_at")?.map(time),
        note: get(r, "note")?,
    })
}

pub fn to_out(doc: &DocRow, people: &[PersonDbRow], approval: Option<ApprovalOut>) -> DocumentOut {
    let page_count = doc
        .page_sizes
        .as_deref()
        .and_then(|p| serde_json::from_str::<Vec<serde_json::Value>>(p).ok())
        .map(|v| v.len() as i64);
    DocumentOut {
        id: doc.id.to_string(),
        state: doc.state.to_string(),
        test: doc.test,
        title: doc.title.clone(),
        description: doc.description.clone(),
        external_id: doc.external_id.clone(),
        metadata: doc.metadata.clone(),
        payments: vec![],
        people: people
            .iter()
            .filter(|p| p.document_id == doc.id)
            .map(|p| PersonOut {
                id: p.id.to_string(),
                seat: p.seat.clone(),
                name: p.name.clone(),
                email: p.email.clone(),
                action: p.action.as_str().to_string(),
                order: p.order,
                status: p.status.as_str().to_string(),
                external_id: p.external_id.clone(),
                metadata: p.metadata.clone(),
                invited_at: p.invited_at.map(time),
                opened_at: p.opened_at.map(time),
                signed_at: p.completed_at.map(time),
                declined_at: p.declined_at.map(time),
                locale: p.locale.clone(),
                checks: p.checks(),
                embedded: p.embedded,
            })
            .collect(),
        paper: doc.paper.clone(),
        page_count,
        created_at: time(doc.created_at),
        updated_at: time(doc.updated_at),
        sent_at: doc.sent_at.map(time),
        completed_at: doc.completed_at.map(time),
        expires_at: doc.expires_at.map(time),
        reason: doc.reason.clone(),
        approval,
        template_id: doc.template_id.clone(),
        template_version: doc.template_version,
    }
}

/// A stored file a document names: its rendered PDF (`pdf_blob`) or sealed copy
/// (`sealed_blob`); `None` until it exists.
pub async fn file_of<C: ConnectionTrait>(
    conn: &C,
    db: &signet_storage::Db,
    doc_id: &str,
    column: FileColumn,
) -> Result<Option<String>, DomainError> {
    let col = match column {
        FileColumn::Rendered => "pdf_blob",
        FileColumn::Sealed => "sealed_blob",
    };
    Ok(conn
        .query_one_raw(db.stmt(
            &format!("SELECT {col} FROM documents WHERE id = $1"),
            [sea_orm::Value::from(doc_id.to_string())],
        ))
        .await?
        .map(|r| r.try_get::<Option<String>>("", col))
        .transpose()?
        .flatten())
}

/// The rendered file of a document still out for signature: what its signers' page
/// pictures are made from. `None` once the document ended (or before it is rendered).
pub async fn rendered_while_out<C: ConnectionTrait>(
    conn: &C,
    db: &signet_storage::Db,
    doc_id: &str,
) -> Result<Option<String>, DomainError> {
    Ok(conn
        .query_one_raw(db.stmt(
            &format!(
                "SELECT pdf_blob FROM documents WHERE id = $1 AND state IN {}",
                super::state::OUT_FOR_SIGNATURE
            ),
            [sea_orm::Value::from(doc_id.to_string())],
        ))
        .await?
        .map(|r| r.try_get::<Option<String>>("", "pdf_blob"))
        .transpose()?
        .flatten())
}

#[derive(Clone, Copy, Debug)]
pub enum FileColumn {
    Rendered,
    Sealed,
}

/// The name and reason of the first person who declined the document; empty when nobody did.
pub async fn first_decliner(db: &Db, doc_id: &str) -> Result<(String, String), DomainError> {
    let row = db
        .conn
        .query_one_raw(db.stmt(
            "SELECT name, decline_reason FROM people WHERE document_id = $1 \
             AND declined_at IS NOT NULL ORDER BY declined_at LIMIT 1",
            [Value::from(doc_id.to_string())],
        ))
        .await?;
    Ok(match row {
        Some(r) => (
            get(&r, "name")?,
            get::<Option<String>>(&r, "decline_reason")?.unwrap_or_default(),
        ),
        None => (String::new(), String::new()),
    })
}

/// Takes the document's row for the rest of the transaction, as every write of its trail
/// does first, so that rows about one document are written one transaction at a time.
pub async fn lock_row<C: ConnectionTrait>(conn: &C, db: &Db, id: &str) -> Result<(), DomainError> {
    conn.execute_raw(db.stmt(
        "UPDATE documents SET updated_at = updated_at WHERE id = $1",
        [Value::from(id.to_string())],
    ))
    .await?;
    Ok(())
}
