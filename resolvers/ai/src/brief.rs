//! The brief (the wizard's answers) and the prompt, read into what a job asks the model, and
//! the payment field a brief asks for. Nothing a caller writes becomes an instruction: the
//! instructions are fixed text (`instructions`), and the caller's words travel in one user
//! turn, inside a JSON object labelled as the request to draft from.

use std::collections::BTreeMap;

use serde_json::{Value, json};
use signet_core::DomainError;

use crate::types::{BriefIn, BriefPaymentIn};

pub const MAX_PROMPT: usize = 8_000;
pub const MAX_ANSWER: usize = 2_000;
pub const MAX_ANSWERS: usize = 20;
pub const MAX_PARTIES: usize = 10;

/// The kinds of document the wizard offers, each with the seats it is signed in when the
/// brief names none (the built-in plays' seats, for the kinds a play covers).
pub const TYPES: &[(&str, &[(&str, &str)])] = &[
    (
        "nda",
        &[
            ("disclosing", "Disclosing party"),
            ("receiving", "Receiving party"),
        ],
    ),
    (
        "services",
        &[("client", "Client"), ("provider", "Service provider")],
    ),
    (
        "contractor",
        &[("company", "Company"), ("contractor", "Contractor")],
    ),
    (
        "employment",
        &[("employer", "Employer"), ("employee", "Employee")],
    ),
    ("lease", &[("landlord", "Landlord"), ("tenant", "Tenant")]),
    ("sale", &[("seller", "Seller"), ("buyer", "Buyer")]),
    (
        "release",
        &[("organiser", "Organiser"), ("participant", "Participant")],
    ),
    ("other", &[]),
];

/// A brief read and checked: what the job asks and what its answer must keep to.
#[derive(Clone, Debug, Default, serde::Serialize, serde::Deserialize)]
pub struct Brief {
    pub doc_type: Option<String>,
    pub answers: BTreeMap<String, String>,
    pub final_words: Option<String>,
    /// Role and label of each seat: the brief's parties, else its type's seats; empty when
    /// the model may name them.
    pub seats: Vec<(String, String)>,
    pub payment: Option<Payment>,
}

#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Payment {
    pub amount: String,
    pub currency: String,
    pub payer_role: String,
    pub description: String,
    pub schedule_note: Option<String>,
}

fn text(field: &str, v: Option<&str>, max: usize) -> Result<Option<String>, DomainError> {
    let Some(s) = v.map(str::trim).filter(|s| !s.is_empty()) else {
        return Ok(None);
    };
    if s.chars().count() > max {
        return Err(DomainError::invalid(
            field,
            format!("must be at most {max} characters"),
        ));
    }
    if s.chars().any(|c| c.is_control() && c != '\n' && c != '\t') {
        return Err(DomainError::invalid(
            field,
            "must not contain control characters",
        ));
    }
    Ok(Some(s.to_string()))
}

/// The prompt, checked.
pub fn prompt(v: Option<&str>) -> Result<Option<String>, DomainError> {
    text("prompt", v, MAX_PROMPT)
}

/// Reads `brief.answers.parties`: role words, or objects with `role` and `label`.
fn parties(v: &Value) -> Result<Vec<(String, String)>, DomainError> {
    let Some(list) = v.as_array() else {
        return Err(DomainError::invalid(
            "brief.answers.parties",
            "must be a list of role words or of objects with role and label",
        ));
    };
    if list.len() > MAX_PARTIES {
        return Err(DomainError::invalid(
            "brief.answers.parties",
            format!("names at most {MAX_PARTIES} seats"),
        ));
    }
    let mut out: Vec<(String, String)> = Vec::new();
    for (i, p) in list.iter().enumerate() {
        let field = format!("brief.answers.parties[{i}]");
        let (role, label) = match p {
            Value::String(r) => (r.trim().to_string(), r.trim().to_string()),
            Value::Object(o) => {
                let role = o.get("role").and_then(Value::as_str).unwrap_or("").trim();
                let label = o.get("label").and_then(Value::as_str).unwrap_or(role);
                (
                    role.to_string(),
                    text(&field, Some(label), 100)?.unwrap_or(role.to_string()),
                )
            }
            _ => {
                return Err(DomainError::invalid(
                    &field,
                    "must be a role word or an object",
                ));
            }
        };
        if let Some(why) = signet_source::role_problem(&role) {
            return Err(DomainError::invalid(&format!("{field}.role"), why));
        }
        if out.iter().any(|(r, _)| *r == role) {
            return Err(DomainError::invalid(
                &field,
                format!("'{role}' is named twice"),
            ));
        }
        out.push((role, label));
    }
    Ok(out)
}

fn payment(p: &BriefPaymentIn, seats: &[(String, String)]) -> Result<Option<Payment>, DomainError> {
    if p.collect != Some(true) {
        return Ok(None);
    }
    let currency = p
        .currency
        .as_deref()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase();
    if signet_core::currencies::decimals(&currency).is_none() {
        return Err(DomainError::invalid(
            "brief.payment.currency",
            "must be one of the currencies GET /ai/wizard offers",
        ));
    }
    let amount = match p.amount.as_ref().map(|j| &j.0) {
        Some(Value::Number(n)) => n.to_string(),
        Some(Value::String(s)) => s.trim().to_string(),
        _ => String::new(),
    };
    if signet_core::currencies::minor_units(&amount, &currency).is_none() {
        return Err(DomainError::invalid(
            "brief.payment.amount",
            format!(
                "must be a positive amount in {currency} with at most its decimals, such as 49.99"
            ),
        ));
    }
    let payer = p.payer_role.as_deref().unwrap_or("").trim().to_string();
    if let Some(why) = signet_source::role_problem(&payer) {
        return Err(DomainError::invalid("brief.payment.payer_role", why));
    }
    if !seats.is_empty() && !seats.iter().any(|(r, _)| *r == payer) {
        let names: Vec<&str> = seats.iter().map(|(r, _)| r.as_str()).collect();
        return Err(DomainError::invalid(
            "brief.payment.payer_role",
            format!("'{payer}' is not one of the seats ({})", names.join(", ")),
        ));
    }
    let description = text("brief.payment.description", p.description.as_deref(), 200)?
        .unwrap_or_else(|| "Payment".into());
    Ok(Some(Payment {
        amount,
        currency,
        payer_role: payer,
        description,
        schedule_note: text(
            "brief.payment.schedule_note",
            p.schedule_note.as_deref(),
            500,
        )?,
    }))
}

/// Reads a brief. `kind` is the brief's own `kind`, returned for the caller to reconcile
/// with `mode`.
pub fn read(b: &BriefIn) -> Result<(Brief, Option<String>), DomainError> {
    let doc_type = text("brief.type", b.doc_type.as_deref(), 100)?;
    let kind = match b.kind.as_deref().map(str::trim) {
        None | Some("") => None,
        Some(k @ ("document" | "template")) => Some(k.to_string()),
        Some(_) => {
            return Err(DomainError::invalid(
                "brief.kind",
                "must be document or template",
            ));
        }
    };
    let mut answers = BTreeMap::new();
    let mut seats = vec![];
    if let Some(a) = &b.answers {
        let Some(obj) = a.as_object() else {
            return Err(DomainError::invalid("brief.answers", "must be an object"));
        };
        if obj.len() > MAX_ANSWERS {
            return Err(DomainError::invalid(
                "brief.answers",
                format!("has at most {MAX_ANSWERS} answers"),
            ));
        }
        for (k, v) in obj {
            let field = format!("brief.answers.{k}");
            if k == "parties" {
                seats = parties(v)?;
                continue;
            }
            if k.is_empty()
                || k.len() > 40
                || !k.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'_')
            {
                return Err(DomainError::invalid(
                    "brief.answers",
                    "keys are 1 to 40 letters, digits or '_'",
                ));
            }
            let s = match v {
                Value::String(s) => text(&field, Some(s), MAX_ANSWER)?,
                Value::Number(n) => Some(n.to_string()),
                Value::Bool(x) => Some(x.to_string()),
                Value::Null => None,
                _ => {
                    return Err(DomainError::invalid(
                        &field,
                        "must be a string, number or true/false",
                    ));
                }
            };
            if let Some(s) = s {
                answers.insert(k.clone(), s);
            }
        }
    }
    if seats.is_empty()
        && let Some(t) = &doc_type
        && let Some((_, s)) = TYPES.iter().find(|(n, _)| *n == t.as_str())
    {
        seats = s
            .iter()
            .map(|(r, l)| (r.to_string(), l.to_string()))
            .collect();
    }
    let payment = match &b.payment {
        Some(p) => payment(p, &seats)?,
        None => None,
    };
    Ok((
        Brief {
            doc_type,
            answers,
            final_words: text("brief.final", b.final_words.as_deref(), MAX_ANSWER)?,
            seats,
            payment,
        },
        kind,
    ))
}

impl Brief {
    /// A title for a draft whose model gave none: the kind of document, in English.
    pub fn title(&self) -> String {
        let t = match self.doc_type.as_deref() {
            Some("nda") => "Non-disclosure agreement",
            Some("services") => "Services agreement",
            Some("contractor") => "Independent contractor agreement",
            Some("employment") => "Offer letter",
            Some("lease") => "Lease agreement",
            Some("sale") => "Sales agreement",
            Some("release") => "Release",
            _ => "Agreement",
        };
        t.to_string()
    }

    pub fn is_empty(&self) -> bool {
        self.doc_type.is_none()
            && self.answers.is_empty()
            && self.final_words.is_none()
            && self.seats.is_empty()
            && self.payment.is_none()
    }

    /// The brief as the model reads it: data, under names that say what each is.
    pub fn as_data(&self) -> Value {
        json!({
            "document_type": self.doc_type,
            "answers": self.answers,
            "seats": self.seats.iter().map(|(r, l)| json!({"role": r, "label": l})).collect::<Vec<_>>(),
            "payment": self.payment.as_ref().map(|p| json!({
                "payer_role": p.payer_role,
                "description": p.description,
                "schedule_note": p.schedule_note,
                "note": "Signet adds the payment field itself; do not write one",
            })),
            "final_instructions_from_the_person": self.final_words,
        })
    }

    /// The payment paragraph Signet adds to the draft: the payer's payment field with the
    /// brief's amount, currency and description, and the schedule note as words.
    pub fn payment_blocks(&self) -> Vec<Value> {
        let Some(p) = &self.payment else {
            return vec![];
        };
        let mut content = vec![
            json!({"type": "text", "text": format!("{}: ", p.description)}),
            json!({"type": "fieldTag", "attrs": {
                "name": "Payment",
                "type": "payment",
                "role": p.payer_role,
                "required": true,
                "amount": p.amount,
                "currency": p.currency,
                "description": p.description,
            }}),
        ];
        if let Some(n) = &p.schedule_note {
            content.push(json!({"type": "text", "text": format!(" {n}")}));
        }
        vec![
            json!({"type": "heading", "attrs": {"level": 2}, "content": [{"type": "text", "text": "Payment"}]}),
            json!({"type": "paragraph", "content": content}),
        ]
    }
}
