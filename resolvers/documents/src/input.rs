//! Request values parsed once at the edge of the document resolvers: people, facts, answers,
//! options. Each error names the field; past here nothing is re-validated.

use std::collections::BTreeMap;

use serde_json::Value;
use signet_source::{Person, PersonAction, Problem, Severity};

use super::types::{EmailOptionsIn, PersonIn, SendOptionsIn};
use signet_core::DomainError;
use signet_core::fields::{is_disguising, is_email, line, opt_line, opt_text, text};
use signet_core::languages::LANGUAGES;
use signet_core::metadata::Metadata;

pub const MAX_PEOPLE: usize = 50;

#[derive(Clone, Debug)]
pub struct PersonRow {
    pub seat: String,
    pub name: String,
    pub email: String,
    pub action: PersonAction,
    pub order: i64,
    pub external_id: Option<String>,
    pub metadata: Metadata,
    pub locale: Option<String>,
    pub access_code: Option<AccessCode>,
    pub email_code: bool,
    /// Signed inside the caller's own app; never emailed.
    pub embedded: bool,
}

/// A person's access code: as given in a request, or as stored (salted keyed hash).
#[derive(Clone, Debug)]
pub enum AccessCode {
    Given(String),
    Hashed(String),
}

impl PersonRow {
    pub fn as_source_person(&self, i: usize) -> Person {
        Person {
            seat: self.seat.clone(),
            name: self.name.clone(),
            email: self.email.clone(),
            action: self.action,
            path: format!("people[{i}]"),
        }
    }

    pub fn to_in(&self) -> PersonIn {
        PersonIn {
            name: self.name.clone(),
            email: self.email.clone(),
            role: Some(self.seat.clone()),
            action: Some(self.action.as_str().to_string()),
            order: Some(self.order),
            external_id: self.external_id.clone(),
            metadata: Some(serde_json::to_value(&self.metadata.0).unwrap_or_default()),
            locale: self.locale.clone(),
            access_code: None,
            email_code: Some(self.email_code),
            kept_access_code: match &self.access_code {
                Some(AccessCode::Hashed(h)) => Some(h.clone()),
                _ => None,
            },
            kept_embedded: self.embedded,
        }
    }
}

/// Problems with the people, each with its path; the rows when there are none.
pub fn people(list: &[PersonIn]) -> Result<Vec<PersonRow>, Vec<Problem>> {
    let mut out = Vec::new();
    let mut problems = Vec::new();
    let mut bad = |path: String, message: String| {
        problems.push(Problem {
            severity: Severity::Problem,
            path,
            message,
        })
    };
    if list.len() > MAX_PEOPLE {
        bad(
            "people".into(),
            format!("has {} people; at most {MAX_PEOPLE}", list.len()),
        );
    }
    for (i, p) in list.iter().enumerate() {
        match person(i, p) {
            Ok(row) => out.push(row),
            Err((path, message)) => bad(path, message),
        }
    }
    if problems.is_empty() {
        Ok(out)
    } else {
        Err(problems)
    }
}

/// One person of a request, checked; the first problem found as (path, message).
fn person(i: usize, p: &PersonIn) -> Result<PersonRow, (String, String)> {
    let at = |k: &str| format!("people[{i}].{k}");
    let name = line(&at("name"), &p.name, 200).map_err(|e| (at("name"), reason(e)))?;
    let email = p.email.trim().to_string();
    if !is_email(&email) {
        return Err((
            at("email"),
            format!("'{}' is not an email address", p.email),
        ));
    }
    let seat = match &p.role {
        None => format!("signer_{}", i + 1),
        Some(r) => match signet_source::role_problem(r) {
            None => r.clone(),
            Some(problem) => return Err((at("role"), problem)),
        },
    };
    let action = match p.action.as_deref() {
        None => PersonAction::Sign,
        Some(a) => PersonAction::parse(a).ok_or_else(|| {
            (
                at("action"),
                format!("unknown action '{a}'; one of sign, approve, cc"),
            )
        })?,
    };
    let order = p.order.unwrap_or(1);
    if !(1..=100).contains(&order) {
        return Err((at("order"), "must be from 1 to 100".into()));
    }
    let external_id = opt_line(&at("externalId"), &p.external_id, 200)
        .map_err(|e| (at("externalId"), reason(e)))?;
    let metadata = Metadata::parse(&at("metadata"), p.metadata.as_ref().unwrap_or(&Value::Null))
        .map_err(|e| {
            let msg = e.to_string();
            let (path, m) = msg.split_once(": ").unwrap_or(("", &msg));
            (path.to_string(), m.to_string())
        })?;
    let locale = match p.locale.as_deref().map(str::trim) {
        None | Some("") => None,
        Some(l) if LANGUAGES.contains(&l) => Some(l.to_string()),
        Some(_) => {
            return Err((
                at("locale"),
                format!("must be one of {}", LANGUAGES.join(", ")),
            ));
        }
    };
    let access_code = match p.access_code.as_deref().map(str::trim) {
        None | Some("") => p.kept_access_code.clone().map(AccessCode::Hashed),
        Some(c) => {
            access_code(c).map_err(|why| (at("accessCode"), why.to_string()))?;
            Some(AccessCode::Given(c.to_string()))
        }
    };
    Ok(PersonRow {
        seat,
        name,
        email,
        action,
        order,
        external_id,
        metadata,
        locale,
        access_code,
        email_code: p.email_code.unwrap_or(false),
        embedded: p.kept_embedded,
    })
}

/// Marks the seats of `embedded` on `people`: each a seat of a person who signs (a copy is
/// only ever emailed) and not asked for an emailed code.
pub fn embedded(people: &mut [PersonRow], seats: Option<&Vec<String>>) -> Result<(), DomainError> {
    let Some(seats) = seats else {
        return Ok(());
    };
    if seats.len() > MAX_PEOPLE {
        return Err(DomainError::invalid(
            "embedded",
            format!("has at most {MAX_PEOPLE} seats"),
        ));
    }
    for p in people.iter_mut() {
        p.embedded = false;
    }
    for (i, seat) in seats.iter().enumerate() {
        let field = format!("embedded[{i}]");
        let Some(p) = people.iter_mut().find(|p| p.seat == seat.trim()) else {
            return Err(DomainError::invalid(
                &field,
                format!("no person takes seat '{seat}'"),
            ));
        };
        if p.action == PersonAction::Cc {
            return Err(DomainError::invalid(
                &field,
                format!("seat '{seat}' only receives the signed copy, by email"),
            ));
        }
        if p.email_code {
            return Err(DomainError::invalid(
                &field,
                format!(
                    "seat '{seat}' is asked for an emailed code, and an embedded seat is never emailed"
                ),
            ));
        }
        p.embedded = true;
    }
    Ok(())
}

/// `paper` (`letter`, the default, or `a4`) and `profile` (`typeset`, the default, or
/// `contract`) of a document or a template.
pub fn paper_and_profile(
    paper: Option<String>,
    profile: Option<String>,
) -> Result<(String, String), DomainError> {
    paper_and_profile_of(paper, profile, false)
}

/// As `paper_and_profile`; a document made from a template may also have the template's
/// `plain` profile (a page laid out by its writer: templates from HTML), which no caller asks
/// for by name.
pub fn paper_and_profile_of(
    paper: Option<String>,
    profile: Option<String>,
    from_template: bool,
) -> Result<(String, String), DomainError> {
    let paper = paper.unwrap_or_else(|| "letter".into());
    if !matches!(paper.as_str(), "letter" | "a4") {
        return Err(DomainError::invalid("paper", "must be letter or a4"));
    }
    let profile = profile.unwrap_or_else(|| "typeset".into());
    if !(matches!(profile.as_str(), "typeset" | "contract") || from_template && profile == "plain")
    {
        return Err(DomainError::invalid(
            "profile",
            "must be typeset or contract",
        ));
    }
    Ok((paper, profile))
}

/// What an access code may be: 4 to 64 printable characters (spaces inside allowed).
fn access_code(c: &str) -> Result<(), &'static str> {
    let n = c.chars().count();
    if !(4..=64).contains(&n) {
        return Err("must be 4 to 64 characters");
    }
    if c.chars().any(|ch| ch.is_control() || is_disguising(ch)) {
        return Err("must be printable characters");
    }
    Ok(())
}

fn reason(e: DomainError) -> String {
    let m = e.to_string();
    m.split_once(": ").map(|(_, r)| r.to_string()).unwrap_or(m)
}

/// Facts as `org.name`-style keys: nested objects are flattened with dots.
pub fn facts(v: Option<&Value>) -> Result<BTreeMap<String, String>, DomainError> {
    let mut out = BTreeMap::new();
    fn walk(
        prefix: &str,
        v: &Value,
        out: &mut BTreeMap<String, String>,
        depth: usize,
    ) -> Result<(), DomainError> {
        let field = if prefix.is_empty() {
            "facts".to_string()
        } else {
            format!("facts.{prefix}")
        };
        match v {
            Value::Object(o) if depth < 4 => {
                for (k, v) in o {
                    let key = if prefix.is_empty() {
                        k.clone()
                    } else {
                        format!("{prefix}.{k}")
                    };
                    walk(&key, v, out, depth + 1)?;
                }
                Ok(())
            }
            Value::String(s) if !prefix.is_empty() => {
                out.insert(prefix.to_string(), text(&field, s, 2000)?);
                Ok(())
            }
            Value::Number(n) if !prefix.is_empty() => {
                out.insert(prefix.to_string(), n.to_string());
                Ok(())
            }
            Value::Null if !prefix.is_empty() => Ok(()),
            _ => Err(DomainError::invalid(
                &field,
                "must be an object of strings (nested objects are joined with dots)",
            )),
        }
    }
    match v {
        None | Some(Value::Null) => {}
        Some(v) => walk("", v, &mut out, 0)?,
    }
    if out.len() > 200 {
        return Err(DomainError::invalid("facts", "has more than 200 values"));
    }
    Ok(out)
}

/// Answers to `custom.<key>` chips, keyed without the prefix.
pub fn variable_values(
    field: &str,
    v: Option<&Value>,
) -> Result<BTreeMap<String, String>, DomainError> {
    let mut out = BTreeMap::new();
    let obj = match v {
        None | Some(Value::Null) => return Ok(out),
        Some(Value::Object(o)) => o,
        Some(_) => {
            return Err(DomainError::invalid(
                field,
                "must be an object of answers by key",
            ));
        }
    };
    for (k, v) in obj {
        let key = k.strip_prefix("custom.").unwrap_or(k);
        let at = format!("{field}.{key}");
        if !signet_source::is_role_word(key) {
            return Err(DomainError::invalid(
                &at,
                "keys are 1 to 40 letters, digits, '_' or '-'",
            ));
        }
        let s = match v {
            Value::String(s) => s.clone(),
            Value::Number(n) => n.to_string(),
            Value::Bool(b) => b.to_string(),
            _ => return Err(DomainError::invalid(&at, "must be a string")),
        };
        if s.chars().count() > 5000 {
            return Err(DomainError::invalid(&at, "is longer than 5000 characters"));
        }
        if s.chars().any(is_disguising) {
            return Err(DomainError::invalid(
                &at,
                "must not hold bidirectional embedding, override or isolate characters \
                 (U+202A to U+202E, U+2066 to U+2069) or line and paragraph separators \
                 (U+2028, U+2029)",
            ));
        }
        out.insert(key.to_string(), s);
    }
    Ok(out)
}

pub fn send_options(s: Option<&SendOptionsIn>) -> Result<SendOptionsIn, DomainError> {
    let Some(s) = s else {
        return Ok(SendOptionsIn::default());
    };
    let mut out = s.clone();
    if let Some(d) = s.expiry_days
        && !(1..=365).contains(&d)
    {
        return Err(DomainError::invalid(
            "send.expiryDays",
            "must be from 1 to 365",
        ));
    }
    if let Some(days) = &s.reminder_days {
        if days.len() > 10 {
            return Err(DomainError::invalid(
                "send.reminderDays",
                "holds at most 10 days",
            ));
        }
        for (i, d) in days.iter().enumerate() {
            if !(1..=365).contains(d) {
                return Err(DomainError::invalid(
                    &format!("send.reminderDays[{i}]"),
                    "must be from 1 to 365",
                ));
            }
        }
        let mut sorted = days.clone();
        sorted.sort_unstable();
        sorted.dedup();
        out.reminder_days = Some(sorted);
    }
    if let Some(l) = &s.language
        && !LANGUAGES.contains(&l.as_str())
    {
        return Err(DomainError::invalid(
            "send.language",
            format!("must be one of {}", LANGUAGES.join(", ")),
        ));
    }
    if let Some(r) = &s.reply_to
        && !is_email(r.trim())
    {
        return Err(DomainError::invalid(
            "send.replyTo",
            format!("'{r}' is not an email address"),
        ));
    }
    out.sender_name = opt_line("send.senderName", &s.sender_name, 200)?;
    out.subject = opt_line("send.subject", &s.subject, 300)?;
    out.message = opt_text("send.message", &s.message, 5000)?;
    out.internal_note = opt_text("send.internalNote", &s.internal_note, 5000)?;
    Ok(out)
}

pub fn email_options(e: Option<&EmailOptionsIn>) -> Result<EmailOptionsIn, DomainError> {
    let Some(e) = e else {
        return Ok(EmailOptionsIn::default());
    };
    let mut out = e.clone();
    if let Some(r) = &e.reply_to
        && !is_email(r.trim())
    {
        return Err(DomainError::invalid(
            "email.replyTo",
            format!("'{r}' is not an email address"),
        ));
    }
    if let Some(l) = &e.locale
        && !LANGUAGES.contains(&l.as_str())
    {
        return Err(DomainError::invalid(
            "email.locale",
            format!("must be one of {}", LANGUAGES.join(", ")),
        ));
    }
    out.subject = opt_line("email.subject", &e.subject, 300)?;
    out.message = opt_text("email.message", &e.message, 5000)?;
    out.sender_name = opt_line("email.senderName", &e.sender_name, 200)?;
    Ok(out)
}
