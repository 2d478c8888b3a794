//! Workspace settings for the application (docs/decisions/the-application.md, "Workspace
//! settings"): the name, time zone and default language; the sender name, sender address
//! and reply-to its emails fall back to; test mode for the whole workspace; embedding (the
//! switch and the allowed websites); the AI drafting switch and its daily allowance. Read with
//! `settings:read`, changed with `settings:write` (owners and admins; a key given it, not a
//! draft-only one); each change is in the activity record.

use signet_core::actor::Principal;
use signet_core::{Actor, Ctx, DomainError, Scope};

use crate::workspaces::{self, WorkspacePatch, WorkspaceSettingsOut};

/// A workspace's settings.
#[derive(Clone, Debug, serde::Serialize, async_graphql::SimpleObject)]
#[serde(rename_all = "camelCase")]
#[graphql(name = "WorkspaceSettings")]
pub struct SettingsOut {
    pub id: String,
    pub name: String,
    /// `free` or `pro`.
    pub plan: String,
    /// The IANA time zone its days (the report, usage) begin and end in.
    pub time_zone: String,
    /// The language of emails whose person and document name none (one of `send.language`'s
    /// codes); English when null.
    pub language: Option<String>,
    /// The name emails come from when a document names none; the workspace's name when null.
    pub sender_name: Option<String>,
    /// The workspace's own address: a test document's emails go there, and replies when
    /// no reply-to is set.
    pub sender_email: Option<String>,
    /// Where replies go when a document names no address; the sender address when null.
    pub reply_to: Option<String>,
    /// Test mode for the whole workspace: every key and person works on test documents.
    pub test_mode: bool,
    /// Whether embedded signing (and the builder and Scribe) may be shown on other websites.
    pub embedding: bool,
    /// The websites allowed to embed, at most 20.
    pub embed_origins: Vec<String>,
    /// Whether AI drafting is on for the workspace (it also needs the operator's provider).
    pub ai_drafting: bool,
    /// AI drafting jobs a day (1 to 1,000).
    pub ai_daily_limit: i64,
    /// When the workspace was made (ms).
    pub created_at: i64,
}

impl From<WorkspaceSettingsOut> for SettingsOut {
    fn from(w: WorkspaceSettingsOut) -> SettingsOut {
        SettingsOut {
            id: w.workspace.id,
            name: w.workspace.name,
            plan: w.workspace.plan.as_str().to_string(),
            time_zone: w.workspace.time_zone,
            language: w.locale,
            sender_name: w.sender_name,
            sender_email: w.sender_email,
            reply_to: w.reply_to,
            test_mode: w.test_mode,
            embedding: w.embedding,
            embed_origins: w.embed_origins,
            ai_drafting: w.ai_drafting,
            ai_daily_limit: w.ai_daily_limit,
            created_at: w.workspace.created_at,
        }
    }
}

/// What to change; a field left out stays as it is, an empty text clears it.
#[derive(Clone, Debug, Default, serde::Deserialize, async_graphql::InputObject)]
#[serde(rename_all = "camelCase")]
#[graphql(name = "WorkspaceSettingsInput")]
pub struct SettingsIn {
    /// 1 to 200 characters.
    pub name: Option<String>,
    pub time_zone: Option<String>,
    pub language: Option<String>,
    /// At most 100 characters.
    pub sender_name: Option<String>,
    pub sender_email: Option<String>,
    pub reply_to: Option<String>,
    pub test_mode: Option<bool>,
    pub embedding: Option<bool>,
    /// Replaces the list.
    pub embed_origins: Option<Vec<String>>,
    pub ai_drafting: Option<bool>,
    pub ai_daily_limit: Option<i64>,
}

/// The workspace's settings (settings:read).
pub async fn read(ctx: &Ctx, actor: &Actor) -> Result<SettingsOut, DomainError> {
    actor.require(Scope::SettingsRead)?;
    Ok(workspaces::settings(ctx, &actor.workspace_id).await?.into())
}

/// Changes the workspace's settings (settings:write). Settings are the workspace's in both
/// modes: a person changes them from either switch, a live key even while the workspace's
/// test mode pins it; a test key never (it acts only on test documents). The sender address
/// is a person's to set.
pub async fn change(
    ctx: &Ctx,
    actor: &Actor,
    input: SettingsIn,
) -> Result<SettingsOut, DomainError> {
    actor.require(Scope::SettingsWrite)?;
    if actor.draft_only {
        return Err(DomainError::Forbidden(
            "this key is draft-only: it cannot change the workspace's settings".into(),
        ));
    }
    if actor.is_test_key() {
        return Err(DomainError::Forbidden(
            "settings are the workspace's: change them with a live key or in the application (a test key may read them)".into(),
        ));
    }
    // Test documents' emails go to the sender address: only a person who runs the workspace
    // chooses it, never a key.
    if input.sender_email.is_some() && !matches!(actor.principal, Principal::Session { .. }) {
        return Err(DomainError::Forbidden(
            "senderEmail: the address test documents are emailed to is set by an owner or admin in the application, not by a key".into(),
        ));
    }
    let list_len = input.embed_origins.as_ref().map_or(0, Vec::len);
    if list_len > 100 {
        return Err(DomainError::invalid(
            "embedOrigins",
            format!(
                "a workspace allows at most {} websites",
                workspaces::MAX_EMBED_ORIGINS
            ),
        ));
    }
    let patch = WorkspacePatch {
        name: input.name,
        plan: None,
        time_zone: input.time_zone,
        sender_email: input.sender_email,
        sender_name: input.sender_name,
        reply_to: input.reply_to,
        locale: input.language,
        embed_origins: input.embed_origins,
        embedding: input.embedding,
        test_mode: input.test_mode,
        ai_drafting: input.ai_drafting,
        ai_daily_limit: input.ai_daily_limit,
    };
    Ok(
        workspaces::apply(ctx, &actor.workspace_id, patch, Some(actor))
            .await?
            .into(),
    )
}
