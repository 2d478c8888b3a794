//! Deciding one email before anything is written: whether it is still wanted, to whom it goes
//! and from whom, in which language and words, with which link or attachment. An email that
//! will not go says why ([`Skip`]).

use std::collections::BTreeMap;
use std::sync::Arc;

use sea_orm::Value;
use signet_core::plans::Plan;
use signet_core::{Ctx, DomainError};
use signet_documents::jobs::EmailJob;
use signet_documents::signing::{identity, links};
use signet_documents::store::{DocRow, PersonDbRow};
use signet_documents::types::{EmailOptionsIn, SendOptionsIn};

use super::pass::{Loaded, Pass, Workspace};
use super::rows::{already_sent_kind, row_values, suppressed};
use super::settings::{ATTACH_LIMIT, download_expires_at, mail, message_local};
use crate::Kind;
use crate::compose::{self, Extras, Parsed, Values};
use crate::transport::{Attachment, Outgoing};

/// Everything one try decided before anything is written.
pub(super) struct Ready {
    pub email_id: String,
    pub kind: Kind,
    pub to: String,
    pub locale: String,
    pub subject: String,
    pub outgoing: Outgoing,
    pub link: Option<(links::Minted, &'static str, Option<i64>)>,
    pub person_id: Option<String>,
    /// The workspace's plan, whose daily allowance the email counts against.
    pub plan: Plan,
}

impl Ready {
    /// Its log row with `status`, written at `now`.
    pub fn row(
        &self,
        job: &str,
        doc: &DocRow,
        status: &str,
        reason: Option<&str>,
        now: i64,
    ) -> Vec<Value> {
        row_values(
            &self.email_id,
            job,
            doc,
            self.kind,
            self.person_id.as_deref(),
            &self.to,
            &self.subject,
            &self.locale,
            status,
            reason,
            now,
        )
    }
}

/// Why a try sends nothing.
pub(super) enum Skip {
    /// Not in this pass (it holds enough large files already): the job goes back, no try
    /// spent.
    Later,
    /// Not wanted any more: the job ends, nothing is logged.
    Drop(&'static str),
    /// Logged as `failed` with the reason; the job ends.
    Fail {
        to: String,
        locale: String,
        subject: String,
        reason: String,
        suppressed: bool,
    },
}

/// What keeps a try from sending: a decision ([`Skip`]) or an error (tried again).
pub(super) enum NotSent {
    Skip(Skip),
    Error(DomainError),
}

impl From<Skip> for NotSent {
    fn from(s: Skip) -> NotSent {
        NotSent::Skip(s)
    }
}

impl From<DomainError> for NotSent {
    fn from(e: DomainError) -> NotSent {
        NotSent::Error(e)
    }
}

impl From<sea_orm::DbErr> for NotSent {
    fn from(e: sea_orm::DbErr) -> NotSent {
        NotSent::Error(e.into())
    }
}

/// Decides what one try sends.
pub(super) async fn plan(
    ctx: &Ctx,
    pass: &Pass,
    doc: &DocRow,
    payload: &EmailJob,
    id: &str,
) -> Result<Ready, NotSent> {
    let wanted = wanted(ctx, pass, doc, payload).await?;
    let kind = wanted.kind;
    let a = addressed(ctx, pass, doc, &wanted, id).await?;
    let (parsed, values, mut extras) = words(ctx, pass, doc, &wanted, &a).await?;
    let (link, attachment) = link_or_file(ctx, pass, doc, kind, &mut extras).await?;
    let composed = compose::compose(kind, &a.locale, &parsed, &values, &extras);
    let mark = if doc.test { "[TEST] " } else { "" };
    let sent_subject = format!("{mark}{}", composed.subject);
    // What the log keeps: never a code or a link.
    let subject = format!("{mark}{}", compose::logged_subject(&parsed, &values));
    if let Some(reason) = suppressed(ctx, &doc.workspace_id, &a.to).await? {
        return Err(Skip::Fail {
            to: a.to,
            locale: a.locale,
            subject,
            reason: format!("the address is suppressed in this workspace: {reason}"),
            suppressed: true,
        }
        .into());
    }
    let outgoing = Outgoing {
        message_id: format!(
            "<{}@{}>",
            message_local(ctx, id),
            mail(ctx).transport.domain()
        ),
        email_id: id.to_string(),
        from_name: display_name(&a.sender_name),
        to: a.to.clone(),
        reply_to: a.reply_to,
        subject: sent_subject,
        text: composed.text,
        html: composed.html,
        lang: a.locale.clone(),
        attachment,
    };
    Ok(Ready {
        email_id: id.to_string(),
        kind,
        to: a.to,
        locale: a.locale,
        subject,
        outgoing,
        link,
        person_id: wanted.person.map(|p| p.id.into_string()),
        plan: a.workspace.plan,
    })
}

/// An email still wanted: its kind, its person (none for the sender's own copy), and the code
/// it carries.
struct Wanted {
    kind: Kind,
    person: Option<PersonDbRow>,
    code: Option<String>,
    /// A receipt's payment, paid.
    payment: Option<signet_payments::store::PaymentRow>,
}

/// Whether the email is still wanted: an invitation to someone who has since signed, or to a
/// document since voided, is dropped; one whose pages are not rendered yet waits.
async fn wanted(
    ctx: &Ctx,
    pass: &Pass,
    doc: &DocRow,
    payload: &EmailJob,
) -> Result<Wanted, NotSent> {
    let Some(kind) = Kind::parse(&payload.kind) else {
        return Err(Skip::Drop("an unknown kind").into());
    };
    let mut payment = None;
    if kind == Kind::Receipt {
        let Some(id) = &payload.payment_id else {
            return Err(Skip::Drop("a receipt names no payment").into());
        };
        match signet_payments::store::get(ctx, &ctx.db.conn, id).await? {
            Some(p) if p.is_paid() && p.document_id == doc.id.as_str() => payment = Some(p),
            _ => return Err(Skip::Drop("the payment is not paid").into()),
        }
    }
    let person = match &payload.person_id {
        Some(pid) => {
            let people = pass.people(ctx, doc).await?;
            match people.iter().find(|p| &p.id == pid) {
                Some(p) => Some(p.clone()),
                None => return Err(Skip::Drop("the person is gone").into()),
            }
        }
        None => None,
    };
    if person.as_ref().is_some_and(|p| p.embedded) {
        return Err(Skip::Drop(
            "the person signs inside the sender's own app and is never emailed",
        )
        .into());
    }
    let state = doc.state;
    let mut code = None;
    if kind == Kind::Code {
        let (Some(p), Some(nonce)) = (&person, &payload.nonce) else {
            return Err(Skip::Drop("a code email names no person or code").into());
        };
        let ended = state.ended_unsigned();
        code = match identity::code_to_send(ctx, &p.id, nonce).await? {
            Some(c) if !ended => Some(c),
            _ => return Err(Skip::Drop("the code was replaced, used or ran out").into()),
        };
    }
    if matches!(kind, Kind::Invitation | Kind::Reminder) {
        let out = state.out_for_signature();
        let waiting = person.as_ref().is_some_and(|p| p.status.is_up());
        if !out || !waiting {
            return Err(Skip::Drop("the person is no longer waiting to sign").into());
        }
        // Nobody is asked to sign pages that are not rendered yet (a test signature can come
        // before the render, and invite the next person): it waits for them.
        if doc.page_sizes.is_none() {
            return Err(Skip::Later.into());
        }
    }
    Ok(Wanted {
        kind,
        person,
        code,
        payment,
    })
}

/// Who an email is from and to, in which language, with the document's own options.
struct Addressed {
    workspace: Workspace,
    email: EmailOptionsIn,
    send: SendOptionsIn,
    sender_name: String,
    reply_to: Option<String>,
    to: String,
    locale: String,
}

/// Where the email goes and from whom. A test document's emails go only to the workspace's
/// own sender address, set by a person or the operator, never an address the request named (a
/// test key would otherwise mail anyone from the operator's domain), and one of each kind.
async fn addressed(
    ctx: &Ctx,
    pass: &Pass,
    doc: &DocRow,
    w: &Wanted,
    id: &str,
) -> Result<Addressed, NotSent> {
    let ws = pass.workspace(ctx, &doc.workspace_id).await?;
    let email: EmailOptionsIn = serde_json::from_str(&doc.email_options).unwrap_or_default();
    let send: SendOptionsIn = serde_json::from_str(&doc.send_options).unwrap_or_default();
    let facts: BTreeMap<String, String> = serde_json::from_str(&doc.facts).unwrap_or_default();
    let sender_name =
        first(&[&email.sender_name, &send.sender_name, &ws.sender_name]).unwrap_or(ws.name.clone());
    let address = |v: Option<String>| v.filter(|a| signet_core::fields::is_email(a.trim()));
    let reply_to = address(first(&[&email.reply_to, &send.reply_to]));
    let sender_email = first(&[
        &address(facts.get("sender.email").cloned()),
        &reply_to,
        &address(ws.sender_email.clone()),
    ]);
    // Replies reach the sender (the workspace's reply-to, else its sender address), not the
    // address bounces come back to.
    let reply_to = reply_to
        .or(address(ws.reply_to.clone()))
        .or(sender_email.clone());
    let person = w.person.as_ref();
    let locale = first(&[
        &person.and_then(|p| p.locale.clone()),
        &email.locale,
        &send.language,
        &ws.locale,
    ])
    .unwrap_or_else(|| "en".into());
    let to = if doc.test {
        address(ws.sender_email.clone())
    } else {
        person.map(|p| p.email.clone()).or(sender_email.clone())
    };
    // The sender's own copy, when the sender is also one of the people: they have theirs.
    if person.is_none()
        && !doc.test
        && let Some(s) = &sender_email
        && pass
            .people(ctx, doc)
            .await?
            .iter()
            .any(|p| p.email.eq_ignore_ascii_case(s))
    {
        return Err(Skip::Drop("the sender is one of the people and has their copy").into());
    }
    let Some(to) = to else {
        if person.is_none() && !doc.test {
            return Err(Skip::Drop("the document names no sender address").into());
        }
        return Err(Skip::Fail {
            to: String::new(),
            locale,
            subject: format!("[TEST] {}", doc.title),
            reason: "a test document's emails go only to the workspace's sender address, and \
                     it has none: set it (signet admin workspace update ID --sender-email \
                     ADDRESS)"
                .into(),
            suppressed: false,
        }
        .into());
    };
    // A practice run shows the sender each kind of email once; more would only be copies of
    // it in their own mailbox. Codes are the exception: each is asked for, and a person needs
    // the one just sent.
    let once = doc.test && w.kind != Kind::Code;
    let first_of_pass = !once || pass.first_of_kind(&doc.id, w.kind);
    if once && (!first_of_pass || already_sent_kind(ctx, doc, w.kind, id).await?) {
        return Err(Skip::Drop("a test document sends its sender one email of each kind").into());
    }
    Ok(Addressed {
        workspace: ws,
        email,
        send,
        sender_name,
        reply_to,
        to,
        locale,
    })
}

/// The email's words: the workspace's wording of its kind in its language (or the document's
/// own subject), and the values its variables take.
async fn words(
    ctx: &Ctx,
    pass: &Pass,
    doc: &DocRow,
    w: &Wanted,
    a: &Addressed,
) -> Result<(Parsed, Values, Extras), NotSent> {
    let kind = w.kind;
    let asks = matches!(kind, Kind::Invitation | Kind::Reminder);
    let mut wording = pass
        .wording(ctx, &doc.workspace_id, kind, &a.locale)
        .await?;
    let own_subject = first(&[&a.email.subject, &a.send.subject]).filter(|_| asks);
    if own_subject.is_some() {
        wording.subject = String::new();
    }
    let mut parsed = Parsed::new(kind, &wording)?;
    if let Some(subject) = own_subject {
        // The document's own subject is its words, not wording: no variable is read in it.
        parsed.subject = vec![compose::Seg::Text(subject)];
    }
    let mut values = Values::new();
    values.insert("document.title", doc.title.clone());
    let person_name = w.person.as_ref().map(|p| p.name.clone());
    values.insert("person.name", person_name.unwrap_or(a.sender_name.clone()));
    values.insert("sender.name", a.sender_name.clone());
    values.insert("workspace.name", a.workspace.name.clone());
    values.insert("document.expiresAt", day(doc.expires_at, &a.locale));
    values.insert("document.completedAt", day(doc.completed_at, &a.locale));
    values.insert("void.reason", doc.reason.clone().unwrap_or_default());
    if let Some(code) = &w.code {
        values.insert("code.value", code.clone());
        values.insert("code.minutes", identity::CODE_MINUTES.to_string());
    }
    if kind == Kind::Declined {
        let (name, reason) = signet_documents::store::first_decliner(&ctx.db, &doc.id).await?;
        values.insert("decliner.name", name);
        values.insert("decline.reason", reason);
    }
    let mut extras = Extras {
        test: doc.test,
        message: first(&[&a.email.message, &a.send.message]).filter(|_| asks),
        ..Extras::default()
    };
    if let Some(p) = &w.payment {
        values.insert(
            "payment.amount",
            format!(
                "{} {}",
                signet_core::currencies::shown(p.amount, &p.currency),
                p.currency.to_uppercase()
            ),
        );
        values.insert(
            "payment.description",
            p.description.clone().unwrap_or_default(),
        );
        values.insert("payment.paidAt", day(p.paid_at, &a.locale));
        // The processor's own receipt page: the email's button.
        extras.action_url = p.receipt_url.clone();
    }
    Ok((parsed, values, extras))
}

type Link = Option<(links::Minted, &'static str, Option<i64>)>;

/// The link an invitation or reminder signs with; the sealed copy a completed email attaches,
/// or its download link when it is too large to attach.
async fn link_or_file(
    ctx: &Ctx,
    pass: &Pass,
    doc: &DocRow,
    kind: Kind,
    extras: &mut Extras,
) -> Result<(Link, Option<Attachment>), NotSent> {
    if matches!(kind, Kind::Invitation | Kind::Reminder) {
        let minted = links::mint(ctx)?;
        extras.action_url = Some(links::url(&ctx.public_url, &minted.token));
        return Ok((Some((minted, "sign", None)), None));
    }
    if kind != Kind::Completed {
        return Ok((None, None));
    }
    let pdf: Arc<Vec<u8>> = match pass.sealed(ctx, doc).await? {
        Loaded::File(pdf) => pdf,
        Loaded::Missing => return Err(Skip::Drop("the document has no sealed copy").into()),
        Loaded::Later => return Err(Skip::Later.into()),
    };
    if pdf.len() <= ATTACH_LIMIT {
        let attachment = Attachment {
            filename: signet_documents::record::attachment_name(&doc.title),
            content_type: "application/pdf".into(),
            data: pdf,
        };
        return Ok((None, Some(attachment)));
    }
    let minted = links::mint(ctx)?;
    extras.download_url = Some(links::download_url(&ctx.public_url, &minted.token));
    let expires = Some(download_expires_at(ctx.now()));
    Ok((Some((minted, "download", expires)), None))
}

/// A display name that cannot pose as an address.
pub(crate) fn display_name(name: &str) -> String {
    name.chars()
        .map(|c| {
            if "@<>\"".contains(c) || c.is_control() {
                ' '
            } else {
                c
            }
        })
        .collect()
}

/// The first of `values` that is set and not blank.
fn first(values: &[&Option<String>]) -> Option<String> {
    values
        .iter()
        .filter_map(|v| v.as_deref())
        .map(str::trim)
        .find(|v| !v.is_empty())
        .map(str::to_string)
}

fn day(ms: Option<i64>, locale: &str) -> String {
    ms.and_then(chrono::DateTime::from_timestamp_millis)
        .map(|t| t.format("%Y-%m-%d").to_string())
        .map(|iso| signet_documents::dates::localized(&iso, locale).unwrap_or(iso))
        .unwrap_or_default()
}
