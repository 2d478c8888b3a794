//! The application's own emails (`signet_accounts::people::mail::PeopleEmail` jobs): a
//! sign-in link asked for an address, and an invitation to a workspace, in the person's
//! language from `wording/people.toml`, laid out like every other email. The link is made
//! when the job runs: for a sign-in, only if the address is someone's (the request that
//! queued it answered the same either way); for an invitation, only while the person is
//! still a member. A try that fails makes a new link on the next try, which voids the one
//! that did not go.

use std::collections::BTreeMap;
use std::sync::LazyLock;

use serde::Deserialize;
use signet_accounts::people::links::{self, Issued};
use signet_accounts::people::mail::PeopleEmail;
use signet_accounts::people::members;
use signet_core::jobs::{Claimed, Handler};
use signet_core::{Ctx, DomainError};
use signet_queue as jobs;

use crate::Kind;
use crate::compose::{Extras, Parsed, Seg, Values, compose};
use crate::send::{email_id, mail, message_local};
use crate::transport::{Outgoing, SendError};

/// One email's words.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Words {
    pub subject: String,
    pub preview: String,
    pub body: String,
    pub button_label: String,
    pub footer: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Roles {
    pub owner: String,
    pub admin: String,
    pub member: String,
    pub viewer: String,
}

/// One language's words for the application's emails.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Language {
    pub roles: Roles,
    pub sign_in: Words,
    pub invited: Words,
}

pub const FILE: &str = include_str!("wording/people.toml");

/// Every language's words (a test checks that all 14 parse and use the same variables).
pub fn languages() -> Result<BTreeMap<String, Language>, String> {
    toml::from_str(FILE).map_err(|e| e.to_string())
}

static LANGUAGES: LazyLock<BTreeMap<String, Language>> = LazyLock::new(|| {
    languages().unwrap_or_else(|e| {
        tracing::error!(error = %e, "wording/people.toml does not parse");
        BTreeMap::new()
    })
});

fn language(code: &str) -> Option<(&'static str, &'static Language)> {
    LANGUAGES
        .get_key_value(code)
        .or_else(|| LANGUAGES.get_key_value("en"))
        .map(|(k, v)| (k.as_str(), v))
}

/// `text` with each `{{name}}` of `vars` filled in; a value is never read as wording.
pub fn fill(text: &str, vars: &[(&str, &str)]) -> String {
    let mut out = String::with_capacity(text.len() + 32);
    let mut rest = text;
    while let Some(open) = rest.find("{{") {
        out.push_str(&rest[..open]);
        let after = &rest[open + 2..];
        match after.find("}}") {
            Some(close) => {
                let name = after[..close].trim();
                match vars.iter().find(|(k, _)| *k == name) {
                    Some((_, v)) => out.push_str(v),
                    None => out.push_str(&rest[open..open + 4 + close]),
                }
                rest = &after[close + 2..];
            }
            None => {
                out.push_str(&rest[open..]);
                rest = "";
            }
        }
    }
    out.push_str(rest);
    out
}

/// A message of the application's: its words filled in and laid out.
pub fn message(
    lang: &str,
    words: &Words,
    vars: &[(&str, &str)],
    header: &str,
    url: &str,
) -> crate::compose::Composed {
    let text = |t: &str| vec![Seg::Text(fill(t, vars))];
    let parsed = Parsed {
        subject: text(&words.subject),
        preview: text(&words.preview),
        body: words
            .body
            .trim()
            .split("\n\n")
            .map(|p| text(p.trim()))
            .collect(),
        button_label: text(&words.button_label),
        footer: text(&words.footer),
    };
    let values = Values::from([("workspace.name", header.to_string())]);
    let extras = Extras {
        action_url: Some(url.to_string()),
        ..Extras::default()
    };
    // An invitation's layout: a button to the person's own link.
    compose(Kind::Invitation, lang, &parsed, &values, &extras)
}

/// The link's address: the token after `#`, so that it never reaches a server's or a
/// proxy's request log.
pub fn sign_in_url(ctx: &Ctx, token: &str) -> String {
    format!("{}/app/sign-in#{token}", ctx.public_url)
}

/// One email worked out: its link, its words, their values, and the name it is from (also
/// its first line).
struct Planned {
    issued: Issued,
    words_of: fn(&Language) -> &Words,
    vars: Vec<(&'static str, String)>,
    header: String,
}

/// What one job sends: the message, or nothing (an unknown address, a person no longer a
/// member).
async fn prepare(ctx: &Ctx, job: &PeopleEmail) -> Result<Option<(Issued, Outgoing)>, DomainError> {
    let Planned {
        issued,
        words_of,
        vars: vars_extra,
        header,
    } = match job {
        PeopleEmail::SignIn { email } => {
            let Some(issued) = links::issue_for_address(ctx, email).await? else {
                return Ok(None);
            };
            let minutes = (links::LINK_MS / 60_000).to_string();
            Planned {
                issued,
                words_of: |l| &l.sign_in,
                vars: vec![("minutes", minutes)],
                header: "Signet".into(),
            }
        }
        PeopleEmail::Invited {
            user_id,
            workspace_id,
            inviter,
            role,
        } => {
            if members::role_in(&ctx.db.conn, ctx, workspace_id, user_id)
                .await?
                .is_none()
            {
                return Ok(None);
            }
            let ws = signet_accounts::workspaces::get(ctx, workspace_id).await?;
            let issued = links::issue_invitation(ctx, user_id, workspace_id).await?;
            let days = (links::INVITE_MS / 86_400_000).to_string();
            let lang = language(&issued.language).map(|(_, l)| l);
            let role_word = lang
                .map(|l| match role.as_str() {
                    "owner" => l.roles.owner.clone(),
                    "admin" => l.roles.admin.clone(),
                    "viewer" => l.roles.viewer.clone(),
                    _ => l.roles.member.clone(),
                })
                .unwrap_or_else(|| role.clone());
            Planned {
                issued,
                words_of: |l| &l.invited,
                vars: vec![
                    ("days", days),
                    ("inviter.name", inviter.clone()),
                    ("role", role_word),
                    ("workspace.name", ws.name.clone()),
                ],
                header: ws.name,
            }
        }
    };
    let Some((code, lang)) = language(&issued.language) else {
        return Err(DomainError::Internal(
            "the application's email wording is missing".into(),
        ));
    };
    let mut vars: Vec<(&str, &str)> = vec![("person.name", issued.name.as_str())];
    vars.extend(vars_extra.iter().map(|(k, v)| (*k, v.as_str())));
    let url = sign_in_url(ctx, &issued.token);
    let composed = message(code, words_of(lang), &vars, &header, &url);
    let outgoing = Outgoing {
        message_id: String::new(),
        email_id: String::new(),
        from_name: crate::send::display_name(&header),
        to: issued.email.clone(),
        reply_to: None,
        subject: composed.subject,
        text: composed.text,
        html: composed.html,
        lang: code.to_string(),
        attachment: None,
    };
    Ok(Some((issued, outgoing)))
}

/// Ends a job. A sign-in request's row goes at once: the queue keeps no list of the
/// addresses people asked links for, least of all the ones nobody owns.
async fn finished(ctx: &Ctx, c: &Claimed, job: &PeopleEmail) -> Result<(), DomainError> {
    match job {
        PeopleEmail::SignIn { .. } => jobs::done_and_forgotten(&ctx.db, &c.job).await?,
        PeopleEmail::Invited { .. } => jobs::done(&ctx.db, &c.job).await?,
    }
    Ok(())
}

/// Sends the application's emails, one job at a time (they are few, and each makes a link).
pub struct PeopleEmails;

#[async_trait::async_trait]
impl Handler for PeopleEmails {
    type Job = PeopleEmail;
    const BATCH: i64 = 16;

    fn lease_ms(ctx: &Ctx) -> i64 {
        mail(ctx).lease_ms
    }

    async fn run(ctx: &Ctx, claimed: Vec<Claimed>) -> Result<(), DomainError> {
        for c in &claimed {
            let job: PeopleEmail = match c.decode() {
                Ok(j) => j,
                Err(e) => {
                    tracing::error!(job = %c.job, error = %e, "an application email job cannot be read");
                    jobs::give_up(&ctx.db, c).await?;
                    continue;
                }
            };
            let prepared = match prepare(ctx, &job).await {
                Ok(p) => p,
                Err(e) => {
                    tracing::warn!(job = %c.job, error = %e, "preparing an application email failed; it is tried again");
                    jobs::retry_later(&ctx.db, c).await?;
                    continue;
                }
            };
            let Some((_, mut outgoing)) = prepared else {
                finished(ctx, c, &job).await?;
                continue;
            };
            let id = email_id(&c.job);
            outgoing.message_id = format!(
                "<{}@{}>",
                message_local(ctx, &id),
                mail(ctx).transport.domain()
            );
            outgoing.email_id = id;
            match mail(ctx).transport.send(&outgoing).await {
                Ok(()) => finished(ctx, c, &job).await?,
                Err(SendError::Permanent(why)) => {
                    tracing::warn!(job = %c.job, why, "the mail server refused an application email");
                    finished(ctx, c, &job).await?;
                }
                Err(SendError::Temporary(why)) => {
                    tracing::warn!(job = %c.job, why, "an application email waits for the mail server");
                    jobs::retry_later(&ctx.db, c).await?;
                }
            }
        }
        Ok(())
    }
}
