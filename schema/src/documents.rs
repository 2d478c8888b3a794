//! Documents over GraphQL: the same resolvers as `/api/v1/documents`, plus the live
//! `documentStatus` subscription. Request bodies travel as one `JSON` argument shaped exactly
//! like the REST body, so both front doors accept and refuse the same input.

use async_graphql::{Context, ErrorExtensions, InputObject, Object, Subscription};
use futures_util::Stream;
use signet_core::{Actor, Ctx};
use signet_documents::{self as documents, types::*};

use crate::who::who;

#[derive(InputObject)]
pub struct MetadataPair {
    pub key: String,
    pub value: String,
}

#[derive(Default)]
pub struct DocumentsQuery;

#[Object]
impl DocumentsQuery {
    /// Documents of the key's mode, newest first (documents:read).
    async fn documents(
        &self,
        ctx: &Context<'_>,
        state: Option<String>,
        external_id: Option<String>,
        metadata: Option<Vec<MetadataPair>>,
        limit: Option<i64>,
        cursor: Option<String>,
    ) -> async_graphql::Result<DocumentPageOut> {
        let (c, a) = who(ctx)?;
        let filter = ListFilter {
            state,
            external_id,
            metadata: metadata
                .unwrap_or_default()
                .into_iter()
                .map(|m| (m.key, m.value))
                .collect(),
            limit,
            cursor,
        };
        documents::list(c, a, filter).await.map_err(|e| e.extend())
    }

    /// One document with where each person is (documents:read).
    async fn document(&self, ctx: &Context<'_>, id: String) -> async_graphql::Result<DocumentOut> {
        let (c, a) = who(ctx)?;
        documents::get(c, a, &id).await.map_err(|e| e.extend())
    }

    /// The document's audit trail, oldest first, each row chained to the one before by its
    /// hash; the same rows as `GET /api/v1/documents/{id}/audit-log.csv` (documents:read).
    /// At most `limit` rows (1 to 1,000, default 500) after the row whose `seq` is `after`.
    async fn document_audit_log(
        &self,
        ctx: &Context<'_>,
        id: String,
        limit: Option<i64>,
        after: Option<i64>,
    ) -> async_graphql::Result<Vec<AuditEventOut>> {
        let (c, a) = who(ctx)?;
        documents::audit_log(c, a, &id, limit, after)
            .await
            .map_err(|e| e.extend())
    }

    /// The document's words, people and choices (documents:read).
    async fn document_source(
        &self,
        ctx: &Context<'_>,
        id: String,
    ) -> async_graphql::Result<DocumentSourceOut> {
        let (c, a) = who(ctx)?;
        let words = ctx.look_ahead().field("source").exists();
        let (out, size) = documents::source_sized(c, a, &id, words, |n| {
            crate::guard::read_words(ctx, n as u64)
        })
        .await
        .map_err(|e| e.extend())?;
        // Reading large words costs what a large answer costs over REST.
        signet_core::limits::charge_size(c, a, size as u64).await;
        Ok(out)
    }

    /// Approvals of draft-only keys' sends in the key's mode, newest first, in pages
    /// (documents:read); `state` is `pending`, `approved`, `declined` or `withdrawn`.
    async fn approvals(
        &self,
        ctx: &Context<'_>,
        state: Option<String>,
        limit: Option<i64>,
        cursor: Option<String>,
    ) -> async_graphql::Result<ApprovalPageOut> {
        let (c, a) = who(ctx)?;
        documents::approvals(c, a, state.as_deref(), limit, cursor.as_deref())
            .await
            .map_err(|e| e.extend())
    }

    /// What a person would be told about a source (documents:read). `input` is the body of
    /// POST /api/v1/documents/check.
    async fn check_document(
        &self,
        ctx: &Context<'_>,
        input: documents::types::DocumentCheckIn,
    ) -> async_graphql::Result<CheckOut> {
        let (c, a) = who(ctx)?;
        let body = input;
        documents::check(c, a, body).await.map_err(|e| e.extend())
    }
}

#[derive(Default)]
pub struct DocumentsMutation;

#[Object]
impl DocumentsMutation {
    /// Makes a document from words (documents:write); `input` is the body of POST
    /// /api/v1/documents. A draft unless `sendNow`.
    async fn create_document(
        &self,
        ctx: &Context<'_>,
        input: documents::types::DocumentCreateIn,
    ) -> async_graphql::Result<DocumentOut> {
        let (c, a) = who(ctx)?;
        let body = input;
        documents::create(c, a, body, None)
            .await
            .map(|m| m.out)
            .map_err(|e| e.extend())
    }

    /// Sends a draft (documents:write). A draft-only key files an approval instead: the
    /// document stays a draft and carries the pending `approval`.
    async fn send_document(
        &self,
        ctx: &Context<'_>,
        id: String,
    ) -> async_graphql::Result<DocumentOut> {
        let (c, a) = who(ctx)?;
        documents::send(c, a, &id, None)
            .await
            .map(|m| m.out)
            .map_err(|e| e.extend())
    }

    /// Approves a draft-only key's send for the person `by`, and so sends the document
    /// (documents:write, from a key that may send; a draft-only key gets FORBIDDEN).
    async fn approve_send(
        &self,
        ctx: &Context<'_>,
        approval_id: String,
        by: String,
    ) -> async_graphql::Result<ApprovalOut> {
        let (c, a) = who(ctx)?;
        documents::decide_approval(c, a, &approval_id, true, &by, None)
            .await
            .map_err(|e| e.extend())
    }

    /// Declines a draft-only key's send for the person `by`, with an optional note; the
    /// document stays a draft (documents:write, from a key that may send).
    async fn decline_send(
        &self,
        ctx: &Context<'_>,
        approval_id: String,
        by: String,
        note: Option<String>,
    ) -> async_graphql::Result<ApprovalOut> {
        let (c, a) = who(ctx)?;
        documents::decide_approval(c, a, &approval_id, false, &by, note)
            .await
            .map_err(|e| e.extend())
    }

    /// Replaces a draft with a revised one under a new id (documents:write); `input` is the
    /// body of POST /api/v1/documents/{id}/revise.
    async fn revise_document(
        &self,
        ctx: &Context<'_>,
        id: String,
        input: documents::types::DocumentReviseIn,
    ) -> async_graphql::Result<DocumentOut> {
        let (c, a) = who(ctx)?;
        let body = input;
        documents::revise(c, a, &id, body, None)
            .await
            .map(|m| m.out)
            .map_err(|e| e.extend())
    }

    /// Reminds everyone who is up, or one seat (documents:write).
    async fn remind_document(
        &self,
        ctx: &Context<'_>,
        id: String,
        seat: Option<String>,
    ) -> async_graphql::Result<DocumentOut> {
        let (c, a) = who(ctx)?;
        documents::remind(c, a, &id, RemindIn { seat }, None)
            .await
            .map(|m| m.out)
            .map_err(|e| e.extend())
    }

    /// Voids a document still out for signature (documents:write).
    async fn void_document(
        &self,
        ctx: &Context<'_>,
        id: String,
        reason: Option<String>,
    ) -> async_graphql::Result<DocumentOut> {
        let (c, a) = who(ctx)?;
        documents::void(c, a, &id, VoidIn { reason }, None)
            .await
            .map(|m| m.out)
            .map_err(|e| e.extend())
    }

    /// A one-hour link that signs an embedded seat inside your own site, shown on `origin`
    /// only (embedded:write).
    async fn embed_session(
        &self,
        ctx: &Context<'_>,
        id: String,
        seat: String,
        origin: String,
    ) -> async_graphql::Result<signet_documents::signing::embed::EmbedSessionOut> {
        let (c, a) = who(ctx)?;
        signet_documents::signing::embed::session(
            c,
            a,
            &id,
            signet_documents::signing::embed::EmbedSessionIn { seat, origin },
            None,
        )
        .await
        .map(|m| m.out)
        .map_err(|e| e.extend())
    }

    /// Signs a seat of a test document with a test key (documents:write).
    async fn test_sign_document(
        &self,
        ctx: &Context<'_>,
        id: String,
        seat: String,
    ) -> async_graphql::Result<DocumentOut> {
        let (c, a) = who(ctx)?;
        documents::test_sign(c, a, &id, TestSignIn { seat }, None)
            .await
            .map(|m| m.out)
            .map_err(|e| e.extend())
    }
}

#[derive(Default)]
pub struct DocumentsSubscription;

#[Subscription]
impl DocumentsSubscription {
    /// The document now, then again after every change of its state or of a person
    /// (documents:read). Works across server processes when Redis is configured.
    async fn document_status(
        &self,
        ctx: &Context<'_>,
        id: String,
    ) -> async_graphql::Result<impl Stream<Item = async_graphql::Result<DocumentOut>> + use<>> {
        let (c, a) = who(ctx)?;
        let (c, a): (Ctx, Actor) = (c.clone(), a.clone());
        // Subscribe before the first read so no change falls between the two.
        let rx = c.live.subscribe();
        let first = documents::get(&c, &a, &id).await.map_err(|e| e.extend())?;
        let state = (Some(first), rx, c, a, id);
        Ok(futures_util::stream::unfold(
            state,
            |(first, mut rx, c, a, id)| async move {
                if let Some(doc) = first {
                    return Some((Ok(doc), (None, rx, c, a, id)));
                }
                let change = loop {
                    match rx.recv().await {
                        Ok(change) if *change.id == *id || change.id.is_empty() => {
                            break Some(change);
                        }
                        Ok(_) => continue,
                        // Missed some ids: read again rather than risk missing ours.
                        Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => break None,
                        Err(tokio::sync::broadcast::error::RecvError::Closed) => return None,
                    }
                };
                let next = match change {
                    Some(change) => signet_documents::live::read_once(&c, &a, &id, &change).await,
                    None => documents::get(&c, &a, &id).await,
                }
                .map_err(|e| e.extend());
                Some((next, (None, rx, c, a, id)))
            },
        ))
    }
}
