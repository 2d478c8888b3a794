//! A new draft's rows, built before its transaction, and written in it.

use crate::state::PersonStatus;
use signet_storage::Sql;

use sea_orm::Value;

use super::draft::{Draft, DraftRows};
use super::input;
use super::store::{self, DocRow};
use super::{send, trail};
use crate::state::DocState;
use signet_core::{Actor, DomainError, Mode, ids};
use signet_storage::ids::PersonId;

/// A new draft's rows, built before its transaction: ids, times and every JSON text, so that
/// the transaction (on SQLite, the one writer thread) only runs statements. Its `created`
/// audit row waits in the trail, so a send in the same transaction writes the chain in one
/// go; the caller writes the trail before it commits. With `sent` (`sendNow`), the document
/// row is written as the send leaves it, instead of written as a draft and its kilobytes
/// written again a moment later; `plan_sent` then plans the rest of that send (its people
/// written already invited) and `send::write_planned` writes it in the same transaction.
pub(crate) struct NewDraft {
    rows: DraftRows,
    document: Vec<Value>,
    metadata: Vec<Vec<Value>>,
    people: Vec<Vec<Value>>,
}

const INSERT_DOCUMENT: &str = "INSERT INTO documents (id, workspace_id, test, state, title, description, external_id, metadata, source, facts, \
     variable_values, paper, profile, email_options, send_options, created_by, created_at, updated_at, \
     sent_at, expires_at, next_reminder_at, template_id, template_version) \
     VALUES ($1, $2, $3, $17, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $16, $18, $19, $20, $21, $22)";

impl NewDraft {
    pub(crate) fn new(
        actor: &Actor,
        d: &Draft,
        note: &str,
        sent: Option<&send::Sent>,
        now: i64,
    ) -> NewDraft {
        let id = ids::new_id("doc");
        let now = sent.map(|s| s.at).unwrap_or(now);
        let json = |v: &dyn erased::Ser| v.json();
        let metadata = d
            .metadata
            .0
            .iter()
            .map(|(k, v)| {
                vec![
                    Value::from(id.clone()),
                    Value::from(k.clone()),
                    Value::from(v.clone()),
                ]
            })
            .collect();
        let people: Vec<store::PersonDbRow> = d
            .people
            .iter()
            .enumerate()
            .map(|(i, p)| person_row(&id, i, p))
            .collect();
        let people_values = people_values(&people);
        let mut trail = trail::Trail::first(&id, now);
        trail.audit(
            "created",
            note,
            None,
            actor.recorded(),
            serde_json::json!({"title": d.title, "people": d.people.len()}),
        );
        let doc = DocRow {
            id: id.as_str().into(),
            workspace_id: actor.workspace_id.clone(),
            test: actor.mode == Mode::Test,
            state: if sent.is_some() {
                DocState::Sent
            } else {
                DocState::Draft
            },
            title: d.title.clone(),
            description: d.description.clone(),
            external_id: d.external_id.clone(),
            metadata: d.metadata.0.clone(),
            source: d.source.to_string(),
            facts: json(&d.facts),
            variable_values: json(&d.variable_values),
            paper: d.paper.clone(),
            profile: d.profile.clone(),
            email_options: json(&d.email),
            send_options: json(&d.send),
            created_by: actor.recorded().to_string(),
            created_at: now,
            updated_at: now,
            sent_at: sent.map(|s| s.at),
            completed_at: None,
            expires_at: sent.and_then(|s| s.expires_at),
            reason: None,
            page_sizes: None,
            template_id: d.template.as_ref().map(|t| t.0.clone()),
            template_version: d.template.as_ref().map(|t| t.1),
        };
        let document = document_values(&doc, sent.and_then(|s| s.next_reminder_at));
        NewDraft {
            rows: DraftRows { doc, people, trail },
            document,
            metadata,
            people: people_values,
        }
    }

    pub(crate) fn id(&self) -> &str {
        &self.rows.doc.id
    }

    /// A `sendNow` draft, made as sent (`new` with `sent`): plans the send (`send::plan_sent`)
    /// before the transaction, so its people are written already invited and the trail's
    /// events and emails are built off the writer's time.
    pub(crate) fn plan_sent(&mut self, actor: &Actor, field_count: usize) {
        let rows = &mut self.rows;
        if let Some(at) = rows.doc.sent_at {
            send::plan_sent(
                &mut rows.trail,
                &rows.doc,
                &mut rows.people,
                actor.recorded(),
                field_count,
                at,
            );
            self.people = people_values(&rows.people);
        }
    }

    pub(crate) fn rows(&self) -> &DraftRows {
        &self.rows
    }

    /// Writes the document, its metadata pairs and its people; the trail is left to the caller.
    pub(crate) async fn write<C: Sql>(
        self,
        conn: &C,
        db: &signet_storage::Db,
    ) -> Result<DraftRows, DomainError> {
        conn.exec_deferred(db.stmt(INSERT_DOCUMENT, self.document))
            .await?;
        signet_storage::insert_rows(
            conn,
            db,
            "document_metadata",
            &["document_id", "mkey", "mvalue"],
            self.metadata,
        )
        .await?;
        signet_storage::insert_rows(
            conn,
            db,
            "people",
            &[
                "id",
                "document_id",
                "position",
                "seat",
                "name",
                "email",
                "external_id",
                "metadata",
                "action",
                "sign_order",
                "status",
                "invited_at",
                "reminders",
                "locale",
                "access_code_hash",
                "email_code",
                "embedded",
            ],
            self.people,
        )
        .await?;
        Ok(self.rows)
    }
}

/// The values of `people`'s rows, in the order `NewDraft::write` inserts them.
/// A new document's person in seat order `i`, waiting for their turn.
fn person_row(doc_id: &str, i: usize, p: &input::PersonRow) -> store::PersonDbRow {
    store::PersonDbRow {
        id: PersonId::new(),
        document_id: doc_id.into(),
        position: i as i64,
        seat: p.seat.clone(),
        name: p.name.clone(),
        email: p.email.clone(),
        external_id: p.external_id.clone(),
        metadata: p.metadata.0.clone(),
        action: p.action,
        order: p.order,
        status: PersonStatus::Waiting,
        invited_at: None,
        opened_at: None,
        completed_at: None,
        declined_at: None,
        last_reminded_at: None,
        reminders: 0,
        locale: p.locale.clone(),
        access_code_hash: match &p.access_code {
            Some(input::AccessCode::Hashed(h)) => Some(h.clone()),
            _ => None,
        },
        email_code: p.email_code,
        embedded: p.embedded,
    }
}

/// The values of [`INSERT_DOCUMENT`] for a new document.
fn document_values(doc: &DocRow, next_reminder_at: Option<i64>) -> Vec<Value> {
    let json = |v: &dyn erased::Ser| v.json();
    vec![
        Value::from(doc.id.as_str()),
        Value::from(doc.workspace_id.as_str()),
        Value::from(doc.test),
        Value::from(doc.title.as_str()),
        Value::from(doc.description.clone()),
        Value::from(doc.external_id.clone()),
        Value::from(json(&doc.metadata)),
        Value::from(doc.source.as_str()),
        Value::from(doc.facts.as_str()),
        Value::from(doc.variable_values.as_str()),
        Value::from(doc.paper.as_str()),
        Value::from(doc.profile.as_str()),
        Value::from(doc.email_options.as_str()),
        Value::from(doc.send_options.as_str()),
        Value::from(doc.created_by.as_str()),
        Value::from(doc.created_at),
        Value::from(doc.state.as_str()),
        Value::from(doc.sent_at),
        Value::from(doc.expires_at),
        Value::from(next_reminder_at),
        Value::from(doc.template_id.clone()),
        Value::from(doc.template_version.map(|v| v as i32)),
    ]
}

fn people_values(people: &[store::PersonDbRow]) -> Vec<Vec<Value>> {
    people
        .iter()
        .map(|p| {
            vec![
                Value::from(p.id.clone()),
                Value::from(p.document_id.clone()),
                Value::from(p.position as i32),
                Value::from(p.seat.clone()),
                Value::from(p.name.clone()),
                Value::from(p.email.clone()),
                Value::from(p.external_id.clone()),
                Value::from(erased::Ser::json(&p.metadata)),
                Value::from(p.action.as_str()),
                Value::from(p.order as i32),
                Value::from(p.status.as_str()),
                Value::from(p.invited_at),
                Value::from(0i32),
                Value::from(p.locale.clone()),
                Value::from(p.access_code_hash.clone()),
                Value::from(p.email_code),
                Value::from(p.embedded),
            ]
        })
        .collect()
}

pub(crate) mod erased {
    pub trait Ser {
        fn json(&self) -> String;
    }
    impl<T: serde::Serialize> Ser for T {
        fn json(&self) -> String {
            serde_json::to_string(self).unwrap_or_else(|_| "null".into())
        }
    }
}
