//! The tools: what an assistant does for a person, each over the resolver its REST operation
//! uses, with that operation's scope, a JSON schema from the same types, and the annotations
//! that say whether it only reads, whether it cannot be undone, and whether it is idempotent.
//!
//! No tool answers a signing link or code: embedding sessions (whose URL signs) are not tools,
//! and no answer below carries one.

use std::collections::BTreeMap;
use std::sync::Arc;

use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value, json};
use signet_core::actor::Scope;
use signet_core::plans::Plan;
use signet_core::{Actor, Ctx, DomainError};
use signet_documents::templates::TemplateDocumentIn;
use signet_documents::types::{
    DocumentCheckIn, DocumentCreateIn, ListFilter, RemindIn, TestSignIn, VoidIn,
};

use crate::schema::{self, JsonObject};

/// What a key needs to see and call a tool: as its REST operation's access rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Need {
    Scope(Scope),
    /// Either scope (checking words for a template takes `templates:write`).
    Either(Scope, Scope),
    /// A Pro workspace's key with the scope (plays, playbooks, drafts).
    Pro(Scope),
}

impl Need {
    pub fn met_by(self, actor: &Actor) -> bool {
        match self {
            Need::Scope(s) => actor.scopes.contains(s),
            Need::Either(s, t) => actor.scopes.contains(s) || actor.scopes.contains(t),
            Need::Pro(s) => actor.scopes.contains(s) && actor.plan == Plan::Pro,
        }
    }

    /// Why a key cannot call the tool, in the words of the spec's error shape.
    pub fn refusal(self, actor: &Actor) -> DomainError {
        match self {
            Need::Pro(s) if actor.scopes.contains(s) => DomainError::Forbidden(
                "plays, playbooks and drafts are part of the Pro plan".into(),
            ),
            Need::Scope(s) | Need::Pro(s) => {
                DomainError::Forbidden(format!("this key lacks the {s} scope this tool takes"))
            }
            Need::Either(s, t) => DomainError::Forbidden(format!(
                "this key lacks the {s} or {t} scope this tool takes"
            )),
        }
    }
}

pub struct Tool {
    pub name: &'static str,
    pub title: &'static str,
    pub description: &'static str,
    /// The REST operation (`v1.<resource>.<action>`) it does; its access rule is `need`.
    pub operation: &'static str,
    pub need: Need,
    pub read_only: bool,
    /// It cannot be undone (voiding).
    pub destructive: bool,
    /// Calling it again with the same arguments changes nothing more.
    pub idempotent: bool,
    pub input: fn() -> Arc<JsonObject>,
}

const fn read(
    name: &'static str,
    title: &'static str,
    description: &'static str,
    operation: &'static str,
    need: Need,
    input: fn() -> Arc<JsonObject>,
) -> Tool {
    Tool {
        name,
        title,
        description,
        operation,
        need,
        read_only: true,
        destructive: false,
        idempotent: true,
        input,
    }
}

const fn write(
    name: &'static str,
    title: &'static str,
    description: &'static str,
    operation: &'static str,
    need: Need,
    idempotent: bool,
    input: fn() -> Arc<JsonObject>,
) -> Tool {
    Tool {
        name,
        title,
        description,
        operation,
        need,
        read_only: false,
        destructive: false,
        idempotent,
        input,
    }
}

use Need::{Either, Pro};
use Scope::*;

pub static TOOLS: &[Tool] = &[
    read(
        "find_documents",
        "Find documents",
        "Documents of the key's mode, newest first, each with where every person is (invited, opened, signed, declined). Filter by state (draft, sent, executed, declined, expired, voided), externalId or metadata (all pairs must match); page with limit (1 to 200) and the previous answer's page.nextCursor.",
        "v1.documents.list",
        Need::Scope(DocumentsRead),
        schema::of::<FindDocuments>,
    ),
    read(
        "get_document",
        "Read a document",
        "One document: its state, dates, people and where each of them is, payments, metadata.",
        "v1.documents.get",
        Need::Scope(DocumentsRead),
        schema::of::<DocumentRef>,
    ),
    read(
        "check_source",
        "Check words before making a document",
        "What a person would be told about a rich-text source before a document (or, with forTemplate, a template) is made from it: problems with their places, the seats it names, the questions it asks. Changes nothing.",
        "v1.documents.check",
        Either(DocumentsRead, TemplatesWrite),
        schema::of::<DocumentCheckIn>,
    ),
    write(
        "create_document",
        "Make a document from words",
        "Make a document from a rich-text source ({\"type\": \"doc\", \"content\": [...]}: headings, paragraphs, lists, tables, fieldTag, signatureBlock, variableChip) and the people in its seats. A draft unless sendNow is true. A test key makes a practice document emailed only to the workspace's sender address.",
        "v1.documents.create",
        Need::Scope(DocumentsWrite),
        false,
        schema::of::<DocumentCreateIn>,
    ),
    write(
        "create_document_from_template",
        "Make a document from a template",
        "Make a document from a template (templateId, from list_templates) for the people in its seats (each person's role is the seat), with answers to its questions in variableValues. A draft unless sendNow is true.",
        "v1.templates.documents",
        Need::Scope(DocumentsWrite),
        false,
        from_template_input,
    ),
    write(
        "send_document",
        "Send a draft",
        "Send a draft document for signature: its people are emailed their invitations (in signing order when the document asks for one). Sending a document already sent is refused and changes nothing.",
        "v1.documents.send",
        Need::Scope(DocumentsWrite),
        true,
        schema::of::<DocumentRef>,
    ),
    write(
        "remind_people",
        "Remind people",
        "Email a reminder to everyone whose turn it is on a sent document, or only to one seat. Each call sends another email.",
        "v1.documents.remind",
        Need::Scope(DocumentsWrite),
        false,
        || with_id::<RemindIn>("id", "The document's id (doc_...)."),
    ),
    Tool {
        destructive: true,
        ..write(
            "void_document",
            "Void a document",
            "Void a document still out for signature, with an optional reason the people are told. It cannot be undone: nobody can sign it afterwards and it has to be made and sent again.",
            "v1.documents.void",
            Need::Scope(DocumentsWrite),
            true,
            || with_id::<VoidIn>("id", "The document's id (doc_...)."),
        )
    },
    write(
        "test_sign",
        "Sign a seat of a test document",
        "With a test key only: sign one seat of a test document as its person would (consent, signing order, audit trail and webhooks run as for a real signature). Refused for live documents and for a seat with a payment field.",
        "v1.documents.testSign",
        Need::Scope(DocumentsWrite),
        false,
        || with_id::<TestSignIn>("id", "The test document's id (doc_...)."),
    ),
    read(
        "list_templates",
        "List templates",
        "The workspace's templates that can be sent, newest first, with their seats.",
        "v1.documents.templates",
        Need::Scope(TemplatesRead),
        schema::of::<PageArgs>,
    ),
    read(
        "get_template",
        "Read a template",
        "A template: its seats (the roles that sign), the fields each seat fills in, its questions and defaults.",
        "v1.templates.get",
        Need::Scope(TemplatesRead),
        schema::of::<TemplateRef>,
    ),
    read(
        "list_plays",
        "List plays",
        "The plays drafting can start from: built in and the workspace's published ones, by kind (document or template) and category.",
        "v1.plays.list",
        Pro(PlaysRead),
        schema::of::<PlayFilter>,
    ),
    read(
        "get_play",
        "Read a play",
        "A play: its seats, its questions and their options, and what each answer puts in the words.",
        "v1.plays.get",
        Pro(PlaysRead),
        schema::of::<PlayRef>,
    ),
    read(
        "list_playbooks",
        "List playbooks",
        "The workspace's playbooks: the rules its drafting follows.",
        "v1.playbooks.list",
        Pro(PlaysRead),
        schema::none,
    ),
    write(
        "draft_from_play",
        "Draft a document from a play",
        "Start a draft from a play for the people in its seats. The play asks questions a round at a time: where the assistant's client can ask the person (elicitation) they are asked there and the draft goes on; otherwise the answer has status needs_input and the questions, which the person answers through answer_draft. Once every question is answered the draft document is made (status draft, documentId).",
        "v1.drafts.create",
        Pro(DraftsWrite),
        false,
        schema::of::<signet_plays::types::DraftIn>,
    ),
    write(
        "answer_draft",
        "Answer a draft's questions",
        "Answer the questions of a draft (draftRef from draft_from_play): question id to the chosen option's value. Answers the next round's questions the same way until the draft document is made.",
        "v1.drafts.answers",
        Pro(DraftsWrite),
        false,
        || with_id::<signet_plays::types::DraftAnswersIn>("draftRef", "The draft's draftRef."),
    ),
    write(
        "ai_draft",
        "Draft words with AI",
        "Start an AI job that drafts a document's (or a template's) words from a person's description, checked by Signet's own source checker. Poll get_ai_job until done; nothing is made until the words are used.",
        "v1.ai.draft",
        Need::Scope(DocumentsWrite),
        false,
        schema::of::<signet_ai::types::AiDraftIn>,
    ),
    write(
        "ai_edit",
        "Edit words with AI",
        "Start an AI job that proposes changes to a source as a request says. Poll get_ai_job for the proposed changes.",
        "v1.ai.edit",
        Need::Scope(DocumentsWrite),
        false,
        schema::of::<signet_ai::types::AiEditIn>,
    ),
    read(
        "get_ai_job",
        "Read an AI job",
        "An AI job: queued, running, done (with its source and notes) or failed (with why).",
        "v1.ai.job",
        Need::Scope(DocumentsRead),
        schema::of::<JobRef>,
    ),
    write(
        "cancel_ai_job",
        "Cancel an AI job",
        "Cancel an AI job that is queued or running; a job already done or failed is left as it is.",
        "v1.ai.cancel",
        Need::Scope(DocumentsWrite),
        true,
        schema::of::<JobRef>,
    ),
    read(
        "get_usage",
        "Read usage",
        "The workspace's plan and what it has used: live documents this month, emails today, test emails today, each against its allowance.",
        "v1.usage.get",
        Need::Scope(AccountRead),
        schema::none,
    ),
    read(
        "get_payment_status",
        "Read payment status",
        "Whether the workspace's Stripe account can take payments in documents (connected, needs_attention, not_connected), what Stripe still asks for, and the fee.",
        "v1.payments.status",
        Need::Scope(MoneyRead),
        schema::none,
    ),
];

pub fn find(name: &str) -> Option<&'static Tool> {
    TOOLS.iter().find(|t| t.name == name)
}

#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct FindDocuments {
    /// draft, sent, executed, declined, expired or voided.
    state: Option<String>,
    external_id: Option<String>,
    /// Only documents whose metadata has every one of these pairs.
    metadata: Option<BTreeMap<String, String>>,
    /// 1 to 200; 20 when left out.
    limit: Option<i64>,
    /// The previous answer's page.nextCursor.
    cursor: Option<String>,
}

#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct DocumentRef {
    /// The document's id (doc_...).
    id: String,
}

#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TemplateRef {
    /// The template's id (tpl_...).
    id: String,
}

#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct JobRef {
    /// The AI job's id (job_...).
    id: String,
}

#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PlayRef {
    /// The play's name.
    name: String,
}

#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PageArgs {
    /// 1 to 200.
    limit: Option<i64>,
    /// The previous answer's page.nextCursor.
    cursor: Option<String>,
}

#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PlayFilter {
    /// document or template.
    kind: Option<String>,
    category: Option<String>,
}

/// `T`'s schema with a required string `name` added (an id the REST route takes in its path).
fn with_id<T: utoipa::ToSchema>(name: &str, description: &str) -> Arc<JsonObject> {
    let mut s = (*schema::of::<T>()).clone();
    let props = s
        .entry("properties")
        .or_insert_with(|| json!({}))
        .as_object_mut()
        .map(std::mem::take)
        .unwrap_or_default();
    let mut with = Map::new();
    with.insert(
        name.into(),
        json!({"type": "string", "description": description}),
    );
    with.extend(props);
    s.insert("properties".into(), Value::Object(with));
    let mut required = vec![json!(name)];
    if let Some(Value::Array(r)) = s.remove("required") {
        required.extend(r);
    }
    s.insert("required".into(), Value::Array(required));
    Arc::new(s)
}

fn from_template_input() -> Arc<JsonObject> {
    with_id::<TemplateDocumentIn>(
        "templateId",
        "The template's id (tpl_...), from list_templates.",
    )
}

fn parse<T: DeserializeOwned>(args: Value) -> Result<T, DomainError> {
    serde_json::from_value(args).map_err(|e| DomainError::invalid("arguments", e))
}

/// The string `name` taken out of `args`, the rest left for the operation's body.
fn take_id(args: &mut Value, name: &str) -> Result<String, DomainError> {
    match args.as_object_mut().and_then(|m| m.remove(name)) {
        Some(Value::String(s)) if !s.trim().is_empty() => Ok(s),
        _ => Err(DomainError::invalid(name, "is required (a string)")),
    }
}

fn out<T: serde::Serialize>(v: T) -> Result<Value, DomainError> {
    serde_json::to_value(v).map_err(|e| DomainError::Internal(e.to_string()))
}

/// Runs `tool` for `actor` (its need already met) with `args`. Drafting's rounds of questions
/// are `crate::drafts`'; here its tools answer the round as it stands.
pub async fn run(ctx: &Ctx, actor: &Actor, tool: &Tool, args: Value) -> Result<Value, DomainError> {
    use signet_documents as docs;
    let mut args = if args.is_null() { json!({}) } else { args };
    match tool.name {
        "find_documents" => {
            let a: FindDocuments = parse(args)?;
            let filter = ListFilter {
                state: a.state,
                external_id: a.external_id,
                metadata: a.metadata.unwrap_or_default().into_iter().collect(),
                limit: a.limit,
                cursor: a.cursor,
            };
            out(docs::list(ctx, actor, filter).await?)
        }
        "get_document" => out(docs::get(ctx, actor, &parse::<DocumentRef>(args)?.id).await?),
        "check_source" => out(docs::check(ctx, actor, parse(args)?).await?),
        "create_document" => out(docs::create(ctx, actor, parse(args)?, None).await?.out),
        "create_document_from_template" => {
            let id = take_id(&mut args, "templateId")?;
            out(
                docs::templates::make_document(ctx, actor, &id, parse(args)?, None)
                    .await?
                    .out,
            )
        }
        "send_document" => out(
            docs::send(ctx, actor, &parse::<DocumentRef>(args)?.id, None)
                .await?
                .out,
        ),
        "remind_people" => {
            let id = take_id(&mut args, "id")?;
            out(docs::remind(ctx, actor, &id, parse(args)?, None).await?.out)
        }
        "void_document" => {
            let id = take_id(&mut args, "id")?;
            out(docs::void(ctx, actor, &id, parse(args)?, None).await?.out)
        }
        "test_sign" => {
            let id = take_id(&mut args, "id")?;
            out(docs::test_sign(ctx, actor, &id, parse(args)?, None)
                .await?
                .out)
        }
        "list_templates" => {
            let a: PageArgs = parse(args)?;
            out(docs::templates::list(ctx, actor, a.limit, a.cursor.as_deref(), false).await?)
        }
        "get_template" => {
            out(docs::templates::get(ctx, actor, &parse::<TemplateRef>(args)?.id).await?)
        }
        "list_plays" => {
            let a: PlayFilter = parse(args)?;
            out(
                signet_plays::library::list(ctx, actor, a.kind.as_deref(), a.category.as_deref())
                    .await?,
            )
        }
        "get_play" => {
            out(signet_plays::library::get(ctx, actor, &parse::<PlayRef>(args)?.name).await?)
        }
        "list_playbooks" => {
            parse::<Empty>(args)?;
            out(signet_plays::playbooks::list(ctx, actor).await?)
        }
        "draft_from_play" | "answer_draft" => out(draft_step(ctx, actor, tool, args).await?),
        "ai_draft" => out(signet_ai::jobs::draft(ctx, actor, parse(args)?).await?),
        "ai_edit" => out(signet_ai::jobs::edit(ctx, actor, parse(args)?).await?),
        "get_ai_job" => out(signet_ai::jobs::get(ctx, actor, &parse::<JobRef>(args)?.id).await?),
        "cancel_ai_job" => {
            out(signet_ai::jobs::cancel(ctx, actor, &parse::<JobRef>(args)?.id).await?)
        }
        "get_usage" => {
            parse::<Empty>(args)?;
            out(signet_accounts::usage::get(ctx, actor).await?)
        }
        "get_payment_status" => {
            parse::<Empty>(args)?;
            out(signet_payments::accounts::status(ctx, actor).await?)
        }
        other => Err(DomainError::NotFound(format!("no tool named {other}"))),
    }
}

/// The step of `draft_from_play` (start) or `answer_draft` (answer a round).
pub async fn draft_step(
    ctx: &Ctx,
    actor: &Actor,
    tool: &Tool,
    mut args: Value,
) -> Result<signet_plays::types::DraftOut, DomainError> {
    if tool.name == "answer_draft" {
        let draft_ref = take_id(&mut args, "draftRef")?;
        signet_plays::drafting::answer(ctx, actor, &draft_ref, parse(args)?).await
    } else {
        signet_plays::drafting::start(ctx, actor, parse(args)?).await
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Empty {}
