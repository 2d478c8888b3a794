//! Request values parsed once at the edge of the document resolvers: people, facts, answers,
//! options. Each error names the field; past here nothing is re-validated.

use std::collections::BTreeMap;

use serde_json::Value;
use signet_source::{Person, PersonAction, Problem, Severity};

use super::types::{EmailOptionsIn, PersonIn, SendOptionsIn};
use signet_core::DomainError;
use signet_core::fields::{is_disguising, text};
use signet_core::metadata::Metadata;
use signet_core::rules::{self};

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

/// One person of a request, checked by its rules (`PersonIn`); the first problem found as
/// (path, message).
fn person(i: usize, p: &PersonIn) -> Result<PersonRow, (String, String)> {
    let at = |k: &str| format!("people[{i}].{k}");
    if let Some(problem) = rules::first(p, &format!("people[{i}]")) {
        return Err(problem);
    }
    let metadata = Metadata::parse(&at("metadata"), p.metadata.as_ref().unwrap_or(&Value::Null))
        .map_err(|e| {
            let msg = e.to_string();
            let (path, m) = msg.split_once(": ").unwrap_or(("", &msg));
            (path.to_string(), m.to_string())
        })?;
    Ok(PersonRow {
        seat: p
            .role
            .clone()
            .unwrap_or_else(|| format!("signer_{}", i + 1)),
        name: p.name.trim().to_string(),
        email: p.email.trim().to_string(),
        action: p
            .action
            .as_deref()
            .and_then(PersonAction::parse)
            .unwrap_or(PersonAction::Sign),
        order: p.order.unwrap_or(1),
        external_id: trimmed(&p.external_id),
        metadata,
        locale: trimmed(&p.locale),
        access_code: match trimmed(&p.access_code) {
            None => p.kept_access_code.clone().map(AccessCode::Hashed),
            Some(c) => Some(AccessCode::Given(c)),
        },
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

/// Sending options in their normal form (reminder days sorted once each, blank texts left
/// out); their rules are checked with the request that carries them (`SendOptionsIn`).
pub fn send_options(s: Option<&SendOptionsIn>) -> SendOptionsIn {
    let Some(s) = s else {
        return SendOptionsIn::default();
    };
    let mut out = s.clone();
    if let Some(days) = &s.reminder_days {
        let mut sorted = days.clone();
        sorted.sort_unstable();
        sorted.dedup();
        out.reminder_days = Some(sorted);
    }
    out.sender_name = trimmed(&s.sender_name);
    out.subject = trimmed(&s.subject);
    out.message = trimmed(&s.message);
    out.internal_note = trimmed(&s.internal_note);
    out
}

/// Email wording in its normal form; its rules are checked with the request that carries it
/// (`EmailOptionsIn`).
pub fn email_options(e: Option<&EmailOptionsIn>) -> EmailOptionsIn {
    let Some(e) = e else {
        return EmailOptionsIn::default();
    };
    let mut out = e.clone();
    out.subject = trimmed(&e.subject);
    out.message = trimmed(&e.message);
    out.sender_name = trimmed(&e.sender_name);
    out
}

pub use signet_core::fields::trimmed;
