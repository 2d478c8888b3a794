//! The jobs the documents' transitions queue, each written in the transaction of the change
//! that causes it: rendering a sent document (`rendering::Renders` takes it), drawing its
//! pages' pictures (`pictures::Pictures`), sealing a signed one (`seal::Seals`), and emails
//! about a document (`signet_email::worker::Emails`). The webhook event is the core's
//! (`signet_core::events::Event`).

use signet_queue as jobs;

/// Render a sent document's PDF: queued by the send, in its transaction.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RenderJob {
    pub document_id: String,
}

impl jobs::Job for RenderJob {
    const KIND: &'static str = "render";
}

/// Draw the signing page's pictures of a rendered document's pages: queued by the render, in
/// the transaction that stores its file (`pictures::Pictures` takes it). The invitations held
/// for the pages go out when it ends.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PicturesJob {
    pub document_id: String,
}

impl jobs::Job for PicturesJob {
    const KIND: &'static str = "pictures";
}

/// Seal a document everyone signed: queued by the last signature, in its transaction.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SealJob {
    pub document_id: String,
}

impl jobs::Job for SealJob {
    const KIND: &'static str = "seal";
}

/// An email about a document, queued by the transition that causes it and sent by the email
/// worker (`signet_email::send`). It carries what the worker needs and no link: links are
/// minted when it is sent.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct EmailJob {
    /// `invitation`, `reminder`, `code`, ...
    pub kind: String,
    pub document_id: String,
    /// None: to the document's sender.
    pub person_id: Option<String>,
    pub seat: Option<String>,
    pub locale: String,
    pub test: bool,
    /// A `code` email's nonce (`signing::identity`): the code is made from it when sent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nonce: Option<String>,
    /// A `receipt` email's payment (`pay_…`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub payment_id: Option<String>,
}

impl jobs::Job for EmailJob {
    const KIND: &'static str = "email";
}
