//! Delivery feedback: RFC 3464 delivery status notifications and RFC 5965 abuse feedback
//! reports, read from raw messages (an MTA's pipe through `signet admin email feedback`, or
//! `POST /hooks/email`) and matched to their email by the Message-ID of the returned original.
//!
//! A report is judged by its structure, never by keywords: a `multipart/report` of report-type
//! `delivery-status` or `feedback-report` with its machine-readable part, or the plain-text
//! bounce older Exim versions send (from the mailer daemon, with the copy of the original
//! after its marker line). What it says is read from `Action` (not the status class: Postfix
//! says `failed` with a 4.x.x status once it gives up), and what it is about from the
//! returned original's own header block, never from `References` or a recipient address.
//! A hard bounce (a 5.x.x failure) or a complaint suppresses the address in the email's
//! workspace. A report that cannot be read or matched changes nothing.

use mail_parser::{MessageParser, MimeHeaders, PartType};
use sea_orm::{ConnectionTrait, TransactionTrait, Value};
use serde::Serialize;

use signet_core::{Ctx, DomainError};

/// The largest report read: a bounce may return the original with its attachment.
pub const MAX_REPORT_BYTES: usize = 16 * 1024 * 1024;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    Delivered,
    Bounced {
        hard: bool,
    },
    /// Still being tried: nothing changes.
    Delayed,
    Complained,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    pub outcome: Outcome,
    /// The `eml_` id of the email the report is about.
    pub email_id: String,
    /// The keyed tag beside the id in the Message-ID (`send::message_local`).
    pub tag: String,
    /// What the report says (the diagnostic code, the status, the feedback type).
    pub detail: String,
    /// The enhanced status code (RFC 3463) when the report gives one: `5.1.1`.
    pub code: Option<String>,
}

/// What a report changed.
#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct FeedbackOut {
    pub email_id: String,
    /// delivered, bounced, delayed or complained.
    pub outcome: String,
    /// The email's status now.
    pub status: String,
    /// Whether the address is now suppressed in the email's workspace.
    pub suppressed: bool,
    pub detail: String,
}

/// Unfolded `name: value` fields of a header block, names in lower case.
fn fields(block: &str) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    for line in block.lines() {
        let line = line.trim_end_matches('\r');
        if line.starts_with([' ', '\t']) {
            if let Some(last) = out.last_mut() {
                last.1.push(' ');
                last.1.push_str(line.trim());
            }
        } else if let Some((k, v)) = line.split_once(':') {
            out.push((k.trim().to_ascii_lowercase(), v.trim().to_string()));
        }
    }
    out
}

fn field<'a>(fields: &'a [(String, String)], name: &str) -> Option<&'a str> {
    fields
        .iter()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.as_str())
}

/// The header block of a message's text: everything before the first empty line.
fn header_block(text: &str) -> &str {
    let text = text.trim_start_matches(['\r', '\n']);
    let end = text
        .find("\r\n\r\n")
        .or_else(|| text.find("\n\n"))
        .unwrap_or(text.len());
    &text[..end]
}

/// The `eml_` id and its tag in a Message-ID Signet wrote (`<eml_<id>.<tag>@domain>`).
fn signet_id(message_id: &str) -> Option<(String, String)> {
    let local = message_id
        .trim()
        .trim_start_matches('<')
        .split('@')
        .next()?;
    let (id, tag) = local.split_once('.')?;
    let rest = id.strip_prefix("eml_")?;
    let ok = |s: &str, max: usize| {
        !s.is_empty() && s.len() <= max && s.bytes().all(|b| b.is_ascii_alphanumeric())
    };
    (ok(rest, 40) && ok(tag, 32)).then(|| (id.to_string(), tag.to_string()))
}

/// The first enhanced status code (RFC 3463, `5.1.1`, `5.1.10`) in a text.
fn enhanced(text: &str) -> Option<String> {
    text.split(|c: char| !(c.is_ascii_digit() || c == '.'))
        .find(|w| {
            let parts: Vec<&str> = w.split('.').collect();
            parts.len() == 3
                && matches!(parts[0], "2" | "4" | "5")
                && (1..=3).contains(&parts[1].len())
                && (1..=3).contains(&parts[2].len())
                && parts[1..]
                    .iter()
                    .all(|p| p.bytes().all(|b| b.is_ascii_digit()))
        })
        .map(str::to_string)
}

/// Whether a failure says the address itself is bad (RFC 3463: 5.1.x addressing, 5.2.1
/// mailbox disabled, 5.4.1 no such recipient at the domain), so later mail to it would bounce
/// too. Policy and content refusals (5.7.x), a full mailbox (5.2.2) or a size limit (5.3.4)
/// bounce this email but do not suppress the address. Without an enhanced code, a 550, 551 or
/// 553 reply.
fn bad_address(code: Option<&str>, detail: &str) -> bool {
    match code {
        Some(c) => c.starts_with("5.1.") || c == "5.2.1" || c == "5.4.1",
        None => ["550", "551", "553"]
            .iter()
            .any(|r| smtp_reply(detail).is_some_and(|s| s.starts_with(r))),
    }
}

fn one_line(s: &str, max: usize) -> String {
    s.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .chars()
        .take(max)
        .collect()
}

/// The SMTP reply in a line of a bounce's text (`... host x: 550 5.1.1 <a@b>... User unknown`),
/// from its code on: three digits starting 4 or 5, not inside a longer number or word, then a
/// space or a dash and more text.
fn smtp_reply(line: &str) -> Option<&str> {
    let b = line.as_bytes();
    (0..b.len().saturating_sub(4)).find_map(|i| {
        let starts = i == 0 || !b[i - 1].is_ascii_alphanumeric();
        (starts
            && matches!(b[i], b'4' | b'5')
            && b[i + 1].is_ascii_digit()
            && b[i + 2].is_ascii_digit()
            && matches!(b[i + 3], b' ' | b'-')
            && b[i + 4].is_ascii_graphic())
        .then(|| &line[i..])
    })
}

/// Reads a raw report. The error says why it is not one Signet can use.
pub fn read(raw: &[u8]) -> Result<Report, String> {
    if raw.len() > MAX_REPORT_BYTES {
        return Err(format!(
            "the message is larger than {MAX_REPORT_BYTES} bytes"
        ));
    }
    let msg = MessageParser::default()
        .parse(raw)
        .ok_or("the input is not an email message")?;
    let m = Returned { raw, msg: &msg };
    let top = msg.content_type();
    let is = |t: &str, s: &str| {
        top.is_some_and(|c| {
            c.ctype().eq_ignore_ascii_case(t)
                && c.subtype().is_some_and(|x| x.eq_ignore_ascii_case(s))
        })
    };
    let report_type = top
        .and_then(|c| c.attribute("report-type"))
        .map(|r| r.trim_matches('"').to_ascii_lowercase());
    if is("multipart", "report") && report_type.as_deref() == Some("delivery-status") {
        return delivery_status(&m);
    }
    if is("multipart", "report") && report_type.as_deref() == Some("feedback-report") {
        return feedback_report(&m);
    }
    // Exim before DSN support: plain text from the mailer daemon, the original after a marker.
    let from_daemon = msg
        .from()
        .and_then(|f| f.first())
        .and_then(|a| a.address())
        .is_some_and(|a| a.to_ascii_lowercase().starts_with("mailer-daemon@"));
    if from_daemon
        && (top.is_none() || is("text", "plain"))
        && let Some(report) = daemon_text(&msg)
    {
        return report;
    }
    Err(
        "not a delivery status notification (RFC 3464) or an abuse feedback report (RFC 5965): \
         expected a multipart/report of report-type delivery-status or feedback-report"
            .into(),
    )
}

/// A report as parsed, with the raw bytes its parts point into.
struct Returned<'a> {
    raw: &'a [u8],
    msg: &'a mail_parser::Message<'a>,
}

impl Returned<'_> {
    /// The first part of type `t` and one of the subtypes `subs`.
    fn part_of(&self, t: &str, subs: &[&str]) -> Option<&mail_parser::MessagePart<'_>> {
        self.msg.parts.iter().find(|p| {
            p.content_type().is_some_and(|c| {
                c.ctype().eq_ignore_ascii_case(t)
                    && c.subtype()
                        .is_some_and(|s| subs.iter().any(|x| s.eq_ignore_ascii_case(x)))
            })
        })
    }

    /// A part's text: a message or multipart part as it was written, any other decoded.
    fn body_of(&self, p: &mail_parser::MessagePart) -> String {
        match &p.body {
            PartType::Message(_) | PartType::Multipart(_) => String::from_utf8_lossy(
                self.raw
                    .get(p.offset_body as usize..p.offset_end as usize)
                    .unwrap_or_default(),
            )
            .into_owned(),
            _ => String::from_utf8_lossy(p.contents()).into_owned(),
        }
    }

    /// The email id and tag of the original the report returns.
    fn returned_id(&self) -> Result<(String, String), String> {
        let original = self
            .part_of("message", &["rfc822", "global", "rfc822-headers"])
            .or_else(|| self.part_of("text", &["rfc822-headers"]))
            .ok_or("the report returns no copy of the original message's headers")?;
        let text = self.body_of(original);
        let mid = field(&fields(header_block(&text)), "message-id")
            .ok_or("the returned original has no Message-ID")?
            .to_string();
        signet_id(&mid).ok_or(format!(
            "the returned original's Message-ID {mid} is not one Signet wrote (<eml_...@...>)"
        ))
    }
}

fn report(
    outcome: Outcome,
    (email_id, tag): (String, String),
    detail: String,
    code: Option<String>,
) -> Report {
    Report {
        outcome,
        email_id,
        tag,
        detail,
        code,
    }
}

/// A delivery status notification (RFC 3464): the first recipient group with an Action.
fn delivery_status(m: &Returned) -> Result<Report, String> {
    let status = m
        .part_of("message", &["delivery-status", "global-delivery-status"])
        .ok_or("the report has no message/delivery-status part")?;
    let text = m.body_of(status).replace("\r\n", "\n");
    let email_id = m.returned_id()?;
    // The per-message group first, then one group per recipient.
    for group in text.split("\n\n").skip(1) {
        let f = fields(group);
        let Some(action) = field(&f, "action") else {
            continue;
        };
        let status = field(&f, "status").unwrap_or_default();
        let detail = one_line(field(&f, "diagnostic-code").unwrap_or(status), 300);
        // Exim writes 5.0.0 for every failure; the diagnostic code says which.
        let code = enhanced(&detail)
            .filter(|c| c != "5.0.0" || enhanced(status).is_none())
            .or_else(|| enhanced(status));
        let outcome = match action.to_ascii_lowercase().as_str() {
            "failed" => Outcome::Bounced {
                hard: status.starts_with('5') && bad_address(code.as_deref(), &detail),
            },
            "delayed" => Outcome::Delayed,
            "delivered" | "relayed" | "expanded" => Outcome::Delivered,
            other => {
                return Err(format!(
                    "the delivery status has an unknown Action '{other}'"
                ));
            }
        };
        return Ok(report(outcome, email_id, detail, code));
    }
    Err("the delivery status names no recipient with an Action".into())
}

/// An abuse feedback report (RFC 5965): a complaint, unless it says the mail is not spam.
fn feedback_report(m: &Returned) -> Result<Report, String> {
    let part = m
        .part_of("message", &["feedback-report"])
        .ok_or("the report has no message/feedback-report part")?;
    let f = fields(&m.body_of(part));
    let kind = field(&f, "feedback-type")
        .ok_or("the feedback report has no Feedback-Type")?
        .to_ascii_lowercase();
    if kind == "not-spam" {
        return Err("a not-spam report changes nothing".into());
    }
    Ok(report(
        Outcome::Complained,
        m.returned_id()?,
        one_line(&format!("feedback report: {kind}"), 300),
        None,
    ))
}

/// A mailer daemon's plain-text bounce or delay warning with the original after Exim's
/// marker; `None` without the marker.
fn daemon_text(msg: &mail_parser::Message) -> Option<Result<Report, String>> {
    let text = msg.body_text(0).unwrap_or_default().replace("\r\n", "\n");
    const MARKER: &str = "------ This is a copy of the message";
    let at = text.find(MARKER)?;
    let after = &text[at..];
    let copy = after.split_once('\n').map(|x| x.1).unwrap_or_default();
    let read = || -> Result<Report, String> {
        let mid = field(&fields(header_block(copy)), "message-id")
            .ok_or("the copy of the original has no Message-ID")?
            .to_string();
        let email_id = signet_id(&mid).ok_or(format!(
            "the returned original's Message-ID {mid} is not one Signet wrote (<eml_...@...>)"
        ))?;
        let detail = text[..at]
            .lines()
            .find_map(smtp_reply)
            .map(|l| one_line(l, 300))
            .unwrap_or_else(|| "returned by the mailer daemon".into());
        // Exim's old delay warning returns the headers the same way.
        if text[..at].contains("has not yet been delivered") {
            return Ok(report(Outcome::Delayed, email_id, detail, None));
        }
        let code = enhanced(&detail);
        let hard = bad_address(code.as_deref(), &detail);
        Ok(report(Outcome::Bounced { hard }, email_id, detail, code))
    };
    Some(read())
}

/// Reads a report and records what it says. Unreadable: 400; about no email of this
/// installation: 404; either way nothing changes.
pub async fn apply(ctx: &Ctx, raw: &[u8]) -> Result<FeedbackOut, DomainError> {
    let report = read(raw).map_err(|why| DomainError::invalid("report", why))?;
    if super::send::message_local(ctx, &report.email_id)
        != format!("{}.{}", report.email_id, report.tag)
    {
        return Err(DomainError::invalid(
            "report",
            "the returned original's Message-ID is not one this installation wrote (its tag does not match)",
        ));
    }
    let row = ctx
        .db
        .conn
        .query_one_raw(ctx.db.stmt(
            "SELECT workspace_id, document_id, to_address, kind, status FROM emails WHERE id = $1",
            [Value::from(report.email_id.clone())],
        ))
        .await?
        .ok_or_else(|| {
            DomainError::NotFound(format!(
                "no email of this installation has the id {} the report names; nothing changed",
                report.email_id
            ))
        })?;
    let workspace: String = row.try_get("", "workspace_id")?;
    let document: Option<String> = row.try_get("", "document_id")?;
    let address: String = row.try_get("", "to_address")?;
    let kind: String = row.try_get("", "kind")?;
    let was: String = row.try_get("", "status")?;
    let (outcome, status, suppress) = report.outcome.applied_to(&was);
    let txn = ctx.db.conn.begin().await?;
    if status != was {
        txn.execute_raw(ctx.db.stmt(
            "UPDATE emails SET status = $2, reason = $3, updated_at = $4 WHERE id = $1",
            [
                Value::from(report.email_id.clone()),
                Value::from(status.clone()),
                Value::from(report.detail.clone()),
                Value::from(ctx.now()),
            ],
        ))
        .await?;
    }
    let mut suppressed = false;
    if suppress {
        // A fixed phrase and the status code: the report's own words are its sender's and
        // have no place in the audit trail.
        let why = match (outcome, &report.code) {
            ("complained", _) => format!("the {kind} email was reported as abuse"),
            (_, Some(code)) => format!("the {kind} email bounced ({code})"),
            _ => format!("the {kind} email bounced"),
        };
        let added = txn
            .execute_raw(ctx.db.stmt(
                "INSERT INTO email_suppressions (workspace_id, address, reason, email_id, created_at) \
                 VALUES ($1, $2, $3, $4, $5) ON CONFLICT (workspace_id, address) DO NOTHING",
                [
                    Value::from(workspace.clone()),
                    Value::from(address.clone()),
                    Value::from(why.clone()),
                    Value::from(report.email_id.clone()),
                    Value::from(ctx.now()),
                ],
            ))
            .await?;
        suppressed = true;
        if added.rows_affected() == 1
            && let Some(doc) = &document
        {
            super::send::audit(
                ctx,
                &txn,
                doc,
                &format!("email_{outcome}"),
                &format!("{address} is suppressed in this workspace: {why}"),
                serde_json::json!({"email": report.email_id, "kind": kind}),
            )
            .await?;
        }
    }
    txn.commit().await?;
    if let Some(doc) = &document {
        ctx.committed(doc, signet_queue::Enqueued::none()).await;
    }
    Ok(FeedbackOut {
        email_id: report.email_id,
        outcome: outcome.into(),
        status,
        suppressed,
        detail: report.detail,
    })
}

impl Outcome {
    /// What a report of this outcome does to an email whose status `was`: the outcome's
    /// name, the email's status after it, and whether its address is suppressed.
    fn applied_to(&self, was: &str) -> (&'static str, String, bool) {
        let (outcome, status, suppress) = match self {
            Outcome::Delivered => (
                "delivered",
                // A later delivery report does not undo a bounce or a complaint.
                if was == "sent" { "delivered" } else { was },
                false,
            ),
            Outcome::Delayed => ("delayed", was, false),
            Outcome::Bounced { hard } => (
                "bounced",
                if was == "complained" {
                    "complained"
                } else {
                    "bounced"
                },
                *hard,
            ),
            Outcome::Complained => ("complained", "complained", true),
        };
        (outcome, status.to_string(), suppress)
    }
}

/// Lifts a suppression (`signet admin email unsuppress`). Answers whether there was one.
pub async fn unsuppress(ctx: &Ctx, workspace_id: &str, address: &str) -> Result<bool, DomainError> {
    let gone = ctx
        .db
        .write(ctx.db.stmt(
            "DELETE FROM email_suppressions WHERE workspace_id = $1 AND address = $2",
            [
                Value::from(workspace_id.to_string()),
                Value::from(address.trim().to_lowercase()),
            ],
        ))
        .await?;
    Ok(gone > 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_are_unfolded_and_named_in_lower_case() {
        let f =
            fields("Action: failed\r\nDiagnostic-Code: smtp; 550-5.1.1 a\r\n    550 5.1.1 b\r\n");
        assert_eq!(field(&f, "action"), Some("failed"));
        assert_eq!(
            field(&f, "diagnostic-code"),
            Some("smtp; 550-5.1.1 a 550 5.1.1 b")
        );
    }

    #[test]
    fn the_reply_is_found_inside_a_line_of_text() {
        assert_eq!(
            smtp_reply("    host mx [198.51.100.8]: 550 5.1.1 <a@b>... User unknown"),
            Some("550 5.1.1 <a@b>... User unknown")
        );
        assert_eq!(smtp_reply("sent at 10:00:04 +0000 (1550 bytes)"), None);
    }

    #[test]
    fn only_signet_message_ids_are_ours() {
        assert_eq!(
            signet_id("<eml_01ABC.0f3e@example.org>"),
            Some(("eml_01ABC".into(), "0f3e".into()))
        );
        assert_eq!(signet_id("<eml_01ABC@example.org>"), None, "no tag");
        assert_eq!(signet_id("<8d2f6a1e@example.org>"), None);
        assert_eq!(signet_id("<eml_.ab@x>"), None);
        assert_eq!(signet_id("<eml_a'b.cd@x>"), None);
    }

    #[test]
    fn only_a_bad_address_suppresses() {
        assert_eq!(
            enhanced("smtp; 550 5.1.10 RESOLVER.ADR.RecipientNotFound").as_deref(),
            Some("5.1.10")
        );
        assert_eq!(enhanced("at 10.0.0.1 port 25"), None);
        assert!(bad_address(Some("5.1.1"), ""));
        assert!(bad_address(Some("5.2.1"), ""));
        assert!(!bad_address(Some("5.7.1"), "550 5.7.1 spam"));
        assert!(!bad_address(Some("5.2.2"), "552 mailbox full"));
        assert!(bad_address(None, "host x: 550 user unknown"));
        assert!(!bad_address(None, "host x: 554 rejected"));
    }
}
