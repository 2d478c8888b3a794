//! What a person would be told before a document is made from a source: the problems that block
//! it and the warnings worth a look, each with its path. `POST /documents/check` answers with
//! this report; every creator runs the same function and refuses on the first problem.

use std::collections::{BTreeMap, BTreeSet};

use crate::model::*;
use crate::walk;
use crate::{Problem, Severity};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PersonAction {
    /// Fills in their fields and signs (the default).
    Sign,
    /// Reads and approves; needs no signature field.
    Approve,
    /// Receives the finished copy; has no fields and is never waited for.
    Cc,
}

impl PersonAction {
    pub fn as_str(self) -> &'static str {
        match self {
            PersonAction::Sign => "sign",
            PersonAction::Approve => "approve",
            PersonAction::Cc => "cc",
        }
    }

    pub fn parse(s: &str) -> Option<PersonAction> {
        match s {
            "sign" | "signer" => Some(PersonAction::Sign),
            "approve" | "approver" => Some(PersonAction::Approve),
            "cc" | "copy" | "receive" => Some(PersonAction::Cc),
            _ => None,
        }
    }
}

/// A person as far as the source is concerned.
#[derive(Clone, Debug, PartialEq)]
pub struct Person {
    pub seat: String,
    pub name: String,
    pub email: String,
    pub action: PersonAction,
    /// Where the person sits in the request, for messages (`people[1]`).
    pub path: String,
}

#[derive(Clone, Debug, Default)]
pub struct CheckInput<'a> {
    /// `None` when the caller gave no people: roles are then not matched against anyone.
    pub people: Option<&'a [Person]>,
    /// Flattened facts (`org.name`, `sender.name`, ...), defaults already applied.
    pub facts: BTreeMap<String, String>,
    /// Answers to `custom.<key>` chips, keyed without the `custom.` prefix.
    pub variable_values: BTreeMap<String, String>,
    pub require_signature: bool,
    /// Checking a template: unanswered `custom.*` chips are its questions, not problems.
    pub for_template: bool,
    /// Where the source sits in the request.
    pub root: &'a str,
}

#[derive(Clone, Debug, Default)]
pub struct Report {
    pub problems: Vec<Problem>,
    pub warnings: Vec<Problem>,
    /// Seats the text asks for (roles of fields and signature blocks), in first-seen order.
    pub roles: Vec<String>,
    /// Every field a signer will see, signature blocks expanded.
    pub fields: Vec<Field>,
    /// The `custom.<key>` chips of the text, without the prefix: a template's questions.
    pub questions: Vec<String>,
}

impl Report {
    pub fn ok(&self) -> bool {
        self.problems.is_empty()
    }

    fn problem(&mut self, path: impl Into<String>, message: impl Into<String>) {
        push(
            &mut self.problems,
            Severity::Problem,
            path.into(),
            message.into(),
        );
    }

    fn warning(&mut self, path: impl Into<String>, message: impl Into<String>) {
        push(
            &mut self.warnings,
            Severity::Warning,
            path.into(),
            message.into(),
        );
    }
}

/// Adds a finding once: a signature block's two fields would otherwise tell the same thing
/// twice about the one block.
fn push(list: &mut Vec<Problem>, severity: Severity, path: String, message: String) {
    if !list.iter().any(|p| p.path == path && p.message == message) {
        list.push(Problem {
            severity,
            path,
            message,
        });
    }
}

/// Facts a chip may name besides `custom.*` and `<seat>.name` / `<seat>.email`.
pub const KNOWN_FACTS: &[&str] = &[
    "org.name",
    "org.address",
    "org.email",
    "org.phone",
    "sender.name",
    "sender.email",
    "sender.title",
    "document.title",
    "document.date",
];

/// Chips the service itself answers at send time.
const SERVICE_FACTS: &[&str] = &["document.title", "document.date"];

pub fn check(doc: &Doc, input: &CheckInput<'_>) -> Report {
    let root = input.root;
    let mut r = Report::default();
    let view = walk::signer_view(doc);
    r.fields = walk::fields(&view);
    r.roles = walk::roles(&view);

    // Fields written under sender-only headings never reach a signer.
    let all_fields = walk::fields(doc);
    let dropped: Vec<Field> = all_fields
        .into_iter()
        .filter(|f| !f.path.is_empty() && !r.fields.iter().any(|g| g.path == f.path))
        .collect();
    for f in dropped {
        // A signature block's two fields share its path: one warning for the block.
        if r.warnings.iter().any(|w| w.path == f.path) {
            continue;
        }
        r.warning(
            &f.path,
            format!(
                "field '{}' is in a sender-only section; signers never see it, so it is dropped",
                f.name
            ),
        );
    }
    if view.content.is_empty() && view.file.is_none() {
        r.problem(
            format!("{root}.content"),
            "the document has nothing a signer would see",
        );
    }

    check_fields(&mut r, root);
    check_people(&mut r, input);
    check_chips(&mut r, &view, input);
    r
}

fn check_fields(r: &mut Report, root: &str) {
    let fields = one_field_each(r, root);
    let mut payments = 0;
    for f in &fields {
        check_field(r, root, f, &mut payments);
    }
    check_formulas(r, root, &fields);
    r.fields = fields;
}

/// A payment's formula reads number fields of the document by name (ASCII case aside); a name
/// that is no number field is a problem, since the amount could never be worked out.
fn check_formulas(r: &mut Report, root: &str, fields: &[Field]) {
    for f in fields {
        let Some(formula) = f.payment.as_ref().and_then(|p| p.formula.as_deref()) else {
            continue;
        };
        let Ok(expr) = crate::formula::parse(formula) else {
            continue;
        };
        for name in expr.names() {
            let known = fields
                .iter()
                .any(|o| o.ty == FieldType::Number && o.name.eq_ignore_ascii_case(name));
            if !known {
                let at = if f.path.is_empty() {
                    format!("{root}.content")
                } else {
                    f.path.clone()
                };
                r.problem(
                    format!("{at}.attrs.formula"),
                    format!("the formula reads '{name}', which is no number field of the document"),
                );
            }
        }
    }
}

/// The report's field places made one field per name: a name written again is the same field
/// shown in another place when everything but its place and size agree, and a problem where
/// they do not.
fn one_field_each(r: &mut Report, root: &str) -> Vec<Field> {
    // Each name's first place and its index in `fields`.
    let mut names = BTreeMap::<String, (String, usize)>::new();
    let places = std::mem::take(&mut r.fields);
    // A name written again is the same field shown in another place when everything but its
    // place and size agree; the report keeps each field once.
    let mut fields: Vec<Field> = Vec::with_capacity(places.len());
    for f in places {
        let at = if f.path.is_empty() {
            format!("{root}.content")
        } else {
            f.path.clone()
        };
        // One rule for "the same name" everywhere (`walk::unique_fields`, the stored rows,
        // the renderer's grouping, formulas): equal but for ASCII case.
        let Some((first, i)) = names.get(&f.name.to_ascii_lowercase()) else {
            names.insert(f.name.to_ascii_lowercase(), (at, fields.len()));
            fields.push(f);
            continue;
        };
        match walk::differs(&fields[*i], &f) {
            None if f.ty == FieldType::Payment => r.problem(
                format!("{at}.attrs.name"),
                format!(
                    "payment field '{}' is written twice (first at {first}); a payment is \
                     shown in one place",
                    f.name
                ),
            ),
            None => {}
            Some(what) => r.problem(
                format!("{at}.attrs.name"),
                format!(
                    "field '{}' is written again with another {what} (first at {first}); the \
                     same name in several places is one field, so they must agree",
                    f.name
                ),
            ),
        }
    }
    fields
}

/// One field's own rules: options, defaults, a lock, autofill and a payment (`payments` counts
/// the payments seen so far).
fn check_field(r: &mut Report, root: &str, f: &Field, payments: &mut usize) {
    let at = if f.path.is_empty() {
        format!("{root}.content")
    } else {
        f.path.clone()
    };
    if f.ty.has_options() {
        if f.options.len() < 2 {
            r.problem(
                format!("{at}.attrs.options"),
                format!("a {} field needs at least 2 options", f.ty.as_str()),
            );
        }
        if let Some(d) = &f.default
            && !f.options.contains(d)
        {
            r.problem(
                format!("{at}.attrs.default"),
                format!("'{d}' is not one of the field's options"),
            );
        }
    } else if !f.options.is_empty() {
        r.warning(
            format!("{at}.attrs.options"),
            format!("a {} field has no options; they are ignored", f.ty.as_str()),
        );
    }
    if f.ty == FieldType::Checkbox
        && let Some(d) = &f.default
        && d != "true"
        && d != "false"
    {
        r.problem(
            format!("{at}.attrs.default"),
            "a checkbox default must be true or false",
        );
    }
    if f.locked && f.default.is_none() && f.autofill.is_none() {
        r.problem(
            format!("{at}.attrs.locked"),
            "a locked field shows its default, but it has none",
        );
    }
    if matches!(
        f.ty,
        FieldType::Signature | FieldType::Initials | FieldType::Payment
    ) && f.default.is_some()
    {
        r.problem(
            format!("{at}.attrs.default"),
            format!("a {} field cannot have a default", f.ty.as_str()),
        );
    }
    if let Some(a) = f.autofill {
        let fits = match a {
            Autofill::Name => matches!(f.ty, FieldType::Name | FieldType::Text),
            Autofill::Email => matches!(f.ty, FieldType::Email | FieldType::Text),
            Autofill::DateSigned => matches!(f.ty, FieldType::Date | FieldType::Text),
        };
        if !fits {
            r.problem(
                format!("{at}.attrs.autofill"),
                format!("{} cannot fill a {} field", a.as_str(), f.ty.as_str()),
            );
        }
    }
    if let Some(p) = &f.payment {
        *payments += 1;
        let given = [
            p.amount_minor.is_some(),
            p.formula.is_some(),
            p.price.is_some(),
            p.link.is_some(),
        ]
        .into_iter()
        .filter(|g| *g)
        .count();
        if given != 1 {
            r.problem(
                format!("{at}.attrs.amount"),
                format!(
                    "payment field '{}' needs exactly one of amount, formula, price and link",
                    f.name
                ),
            );
        }
        if let Some(link) = &p.link
            && !(link.starts_with("https://")
                && link.len() <= 500
                && !link.contains(char::is_whitespace))
        {
            r.problem(
                format!("{at}.attrs.link"),
                "must be the https:// address of a payment link of the workspace's processor",
            );
        }
        if let Some(price) = &p.price
            && !(price.starts_with("price_")
                && price.len() <= 100
                && price[6..].bytes().all(|b| b.is_ascii_alphanumeric()))
        {
            r.problem(
                format!("{at}.attrs.price"),
                "must be a price id of the processor, such as price_1Mo…",
            );
        }
        if *payments > 1 {
            r.problem(
                at.clone(),
                "a document can collect one payment; this is the second",
            );
        }
    }
}

fn check_people(r: &mut Report, input: &CheckInput<'_>) {
    let root = input.root;
    let Some(people) = input.people else {
        if input.require_signature {
            for role in r.roles.clone() {
                if !r
                    .fields
                    .iter()
                    .any(|f| f.role == role && f.ty == FieldType::Signature)
                {
                    r.problem(
                        format!("{root}.content"),
                        format!("role '{role}' has no signature field"),
                    );
                }
            }
            if r.roles.is_empty() {
                r.problem(
                    format!("{root}.content"),
                    "the document has no signature field",
                );
            }
        }
        return;
    };
    if people.is_empty() && !input.for_template {
        r.problem("people", "at least one person is needed");
    } else if !input.for_template && people.iter().all(|p| p.action == PersonAction::Cc) {
        r.problem(
            "people",
            "nobody signs or approves: at least one person needs the action sign or approve",
        );
    }
    let mut seats = BTreeSet::new();
    for p in people {
        if !seats.insert(p.seat.as_str()) {
            r.problem(
                format!("{}.role", p.path),
                format!("seat '{}' is taken by two people", p.seat),
            );
        }
    }
    let fields = r.fields.clone();
    for f in &fields {
        if !seats.contains(f.role.as_str()) {
            let at = if f.path.is_empty() {
                format!("{root}.content")
            } else {
                format!("{}.attrs.role", f.path)
            };
            let known: Vec<_> = seats.iter().copied().collect();
            r.problem(
                at,
                format!(
                    "unknown role '{}'; the people are {}",
                    f.role,
                    if known.is_empty() {
                        "none".to_string()
                    } else {
                        known.join(", ")
                    }
                ),
            );
        }
    }
    for p in people {
        let mine: Vec<_> = fields.iter().filter(|f| f.role == p.seat).collect();
        match p.action {
            PersonAction::Cc => {
                if !mine.is_empty() {
                    r.problem(
                        format!("{}.action", p.path),
                        format!(
                            "'{}' only receives a copy but the text gives them {} field(s)",
                            p.seat,
                            mine.len()
                        ),
                    );
                }
            }
            PersonAction::Sign => {
                if mine.is_empty() {
                    r.problem(
                        p.path.clone(),
                        format!("person '{}' ({}) has no field to fill in", p.seat, p.name),
                    );
                } else if input.require_signature
                    && !mine.iter().any(|f| f.ty == FieldType::Signature)
                {
                    r.problem(
                        p.path.clone(),
                        format!("person '{}' ({}) has no signature field", p.seat, p.name),
                    );
                }
            }
            PersonAction::Approve => {}
        }
    }
    if input.require_signature && !fields.iter().any(|f| f.ty == FieldType::Signature) {
        r.problem(
            format!("{root}.content"),
            "the document has no signature field",
        );
    }
}

fn check_chips(r: &mut Report, view: &Doc, input: &CheckInput<'_>) {
    let root = input.root;
    let seats: BTreeSet<&str> = input
        .people
        .map(|p| p.iter().map(|p| p.seat.as_str()).collect())
        .unwrap_or_default();
    let mut used_values = BTreeSet::new();
    for name in walk::chips(view) {
        let at = chip_path(view, root, &name);
        if let Some(key) = name.strip_prefix("custom.") {
            if key.is_empty() || !crate::is_role_word(key) {
                r.problem(
                    at,
                    format!("'{name}' is not a question name: use custom.<key> with letters, digits, '_' or '-'"),
                );
                continue;
            }
            r.questions.push(key.to_string());
            used_values.insert(key.to_string());
            if !input.for_template && !input.variable_values.contains_key(key) {
                r.problem(
                    at,
                    format!("'{name}' has no answer; give it in variableValues.{key}"),
                );
            }
            continue;
        }
        if KNOWN_FACTS.contains(&name.as_str()) {
            if !SERVICE_FACTS.contains(&name.as_str())
                && !input.facts.contains_key(&name)
                && !input.for_template
            {
                r.problem(at, format!("'{name}' has no value; give it in facts"));
            }
            continue;
        }
        if let Some((seat, what)) = name.rsplit_once('.')
            && (what == "name" || what == "email")
            && (crate::is_role_word(seat))
        {
            if input.people.is_some() && !seats.contains(seat) {
                r.problem(
                    at,
                    format!("'{name}' names seat '{seat}', which nobody takes"),
                );
            }
            continue;
        }
        r.problem(
            at,
            format!(
                "unknown chip '{name}'; chips are {}, <seat>.name, <seat>.email and custom.<key>",
                KNOWN_FACTS.join(", ")
            ),
        );
    }
    for key in input.variable_values.keys() {
        if !used_values.contains(key) {
            r.warning(
                format!("variableValues.{key}"),
                format!("no custom.{key} chip in the text uses this answer"),
            );
        }
    }
}

/// The path of the first chip named `name`.
fn chip_path(view: &Doc, root: &str, name: &str) -> String {
    let mut found = None;
    walk::each_inline(view, &mut |i| {
        if let Inline::Chip { name: n, path, .. } = i
            && n == name
            && found.is_none()
        {
            found = Some(format!("{path}.attrs.name"));
        }
    });
    found.unwrap_or_else(|| format!("{root}.content"))
}
