//! A person's fields as the page shows them, and the check of every value they send: the
//! type, the options, required, locked and autofilled fields, and drawn signatures' strokes.
//! Nothing from the page is stored unchecked.

use std::collections::BTreeMap;

use sea_orm::{ConnectionTrait, Value};
use serde::Serialize;
use serde_json::json;

use crate::store::{DocRow, PersonDbRow};
use signet_core::fields::{is_disguising, is_email};
use signet_core::{Ctx, DomainError};

/// Strokes in one drawn signature.
pub const MAX_STROKES: usize = 200;
/// Points in one drawn signature, over all its strokes.
pub const MAX_POINTS: usize = 20_000;
/// The largest drawing area, in the pad's pixels.
pub const MAX_PAD: f64 = 4_000.0;
/// Outlines in one traced signature.
pub const MAX_PATHS: usize = 1_000;
/// Characters of a typed signature.
pub const MAX_TYPED: usize = 100;
/// Characters of a text field.
pub const MAX_TEXT: usize = 1_000;

/// A field as stored.
#[derive(Clone, Debug)]
pub struct FieldRow {
    pub id: String,
    pub name: String,
    pub ty: String,
    pub required: bool,
    pub spec: serde_json::Value,
    pub page: i64,
    pub x: f64,
    pub y: f64,
    pub width: f64,
    pub height: f64,
    /// Its other places, when it is shown in several.
    pub areas: Vec<Area>,
}

/// Another place of a field, in points from its page's top-left corner.
#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct Area {
    pub page: i64,
    pub x: f64,
    pub y: f64,
    pub width: f64,
    pub height: f64,
}

/// A field as the page shows it.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FieldView {
    pub id: String,
    pub name: String,
    #[serde(rename = "type")]
    pub ty: String,
    pub required: bool,
    /// From 1; 0 until the document is rendered.
    pub page: i64,
    /// In points from the page's top-left corner.
    pub x: f64,
    pub y: f64,
    pub width: f64,
    pub height: f64,
    pub placeholder: Option<String>,
    pub tooltip: Option<String>,
    pub options: Vec<String>,
    /// What the field starts with: its default, or what it fills in itself.
    pub value: Option<String>,
    /// The person may change `value`.
    pub editable: bool,
    /// Its other places, each showing the same value: one field written in several places
    /// (initials on every page) is filled once.
    pub areas: Vec<Area>,
    /// A payment field's amount and where its payment stands.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub payment: Option<PaymentView>,
}

#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PaymentView {
    /// In the currency's minor unit; none while a formula still waits for a number.
    pub amount: Option<i64>,
    pub currency: String,
    /// Digits of the currency's minor unit (2 for usd, 0 for jpy), to show the amount.
    pub decimals: u8,
    pub description: Option<String>,
    /// `fixed`, `formula`, `price` or `link`.
    pub source: String,
    /// `due` (nothing started), `open` (a Checkout is open), `paid`, `partially_refunded`,
    /// `refunded`, `disputed`.
    pub status: String,
    pub receipt_url: Option<String>,
}

pub(crate) async fn rows(
    ctx: &Ctx,
    doc: &DocRow,
    person: &PersonDbRow,
) -> Result<Vec<FieldRow>, DomainError> {
    let rows = ctx
        .db
        .conn
        .query_all_raw(ctx.db.stmt(
            "SELECT id, name, field_type, required, spec, page, x, y, width, height, areas FROM fields \
             WHERE document_id = $1 AND seat = $2 ORDER BY position",
            [
                Value::from(doc.id.clone()),
                Value::from(person.seat.clone()),
            ],
        ))
        .await?;
    rows.iter()
        .map(|r| {
            Ok(FieldRow {
                id: r.try_get("", "id")?,
                name: r.try_get("", "name")?,
                ty: r.try_get("", "field_type")?,
                required: r.try_get("", "required")?,
                spec: serde_json::from_str(&r.try_get::<String>("", "spec")?).unwrap_or_default(),
                page: r.try_get::<i32>("", "page")? as i64,
                x: r.try_get("", "x")?,
                y: r.try_get("", "y")?,
                width: r.try_get("", "width")?,
                height: r.try_get("", "height")?,
                areas: areas_of(r.try_get::<Option<String>>("", "areas")?),
            })
        })
        .collect()
}

/// A field's other places as stored (`null` when it has one).
pub(crate) fn areas_of(stored: Option<String>) -> Vec<Area> {
    stored
        .and_then(|s| serde_json::from_str(&s).ok())
        .unwrap_or_default()
}

fn spec_str(spec: &serde_json::Value, key: &str) -> Option<String> {
    spec.get(key).and_then(|v| v.as_str()).map(str::to_string)
}

fn spec_bool(spec: &serde_json::Value, key: &str, or: bool) -> bool {
    spec.get(key).and_then(|v| v.as_bool()).unwrap_or(or)
}

/// Today in UTC, as dates are stored.
pub fn today() -> String {
    chrono::Utc::now().format("%Y-%m-%d").to_string()
}

/// What a field fills in itself (`autofill`), else its default.
fn preset(f: &FieldRow, person: &PersonDbRow, today: &str) -> Option<String> {
    match spec_str(&f.spec, "autofill").as_deref() {
        Some("name") => return Some(person.name.clone()),
        Some("email") => return Some(person.email.clone()),
        Some("date_signed") => return Some(today.to_string()),
        _ => {}
    }
    spec_str(&f.spec, "default")
}

/// A field the person cannot change: locked, or filled in by itself and not editable.
fn fixed(f: &FieldRow) -> bool {
    spec_bool(&f.spec, "locked", false)
        || (spec_str(&f.spec, "autofill").is_some() && !spec_bool(&f.spec, "editable", true))
}

pub async fn fields(
    ctx: &Ctx,
    doc: &DocRow,
    person: &PersonDbRow,
) -> Result<Vec<FieldView>, DomainError> {
    let today = today();
    Ok(rows(ctx, doc, person)
        .await?
        .into_iter()
        .map(|f| FieldView {
            value: preset(&f, person, &today),
            editable: !fixed(&f),
            placeholder: spec_str(&f.spec, "placeholder"),
            tooltip: spec_str(&f.spec, "tooltip"),
            options: f
                .spec
                .get("options")
                .and_then(|o| o.as_array())
                .map(|o| {
                    o.iter()
                        .filter_map(|v| v.as_str().map(str::to_string))
                        .collect()
                })
                .unwrap_or_default(),
            id: f.id,
            name: f.name,
            ty: f.ty,
            required: f.required,
            page: f.page,
            x: f.x,
            y: f.y,
            width: f.width,
            height: f.height,
            areas: f.areas,
            payment: None,
        })
        .collect())
}

/// Checks what the person sent for their fields (by field id) and answers each field's value
/// to store, in field order. Unknown ids, wrong types, missing required values, values for
/// fixed fields that differ from theirs, and bad signatures are refused with the field named.
pub fn check(
    fields: &[FieldRow],
    given: &BTreeMap<String, serde_json::Value>,
    person: &PersonDbRow,
    today: &str,
) -> Result<Vec<(String, Option<String>)>, DomainError> {
    if let Some(unknown) = given.keys().find(|k| !fields.iter().any(|f| &f.id == *k)) {
        return Err(DomainError::invalid(
            "values",
            format!("'{unknown}' is not one of your fields"),
        ));
    }
    let mut out = Vec::with_capacity(fields.len());
    for f in fields {
        let field = format!("values.{}", f.name);
        let sent = given.get(&f.id).filter(|v| !is_blank(v));
        if f.ty == "payment" {
            // Filled in by the payment itself (`signing::pay`), never by the page.
            if sent.is_some() {
                return Err(DomainError::invalid(
                    &field,
                    "is filled in when you pay, not sent",
                ));
            }
            out.push((f.id.clone(), None));
            continue;
        }
        let value = if fixed(f) {
            let own = preset(f, person, today);
            if let Some(v) = sent
                && as_text(v).as_deref() != own.as_deref()
            {
                return Err(DomainError::invalid(
                    &field,
                    "is filled in for you and cannot be changed",
                ));
            }
            own
        } else {
            match sent {
                Some(v) => Some(one(f, v).map_err(|why| DomainError::invalid(&field, why))?),
                None => None,
            }
        };
        let missing = match (&value, f.ty.as_str()) {
            (None, _) => true,
            (Some(v), "checkbox") => v != "true",
            _ => false,
        };
        if f.required && missing {
            return Err(DomainError::invalid(
                &field,
                if f.ty == "checkbox" {
                    "must be ticked"
                } else {
                    "is required"
                },
            ));
        }
        out.push((f.id.clone(), value));
    }
    Ok(out)
}

fn is_blank(v: &serde_json::Value) -> bool {
    v.is_null() || v.as_str().is_some_and(|s| s.trim().is_empty())
}

fn as_text(v: &serde_json::Value) -> Option<String> {
    match v {
        serde_json::Value::String(s) => Some(s.trim().to_string()),
        serde_json::Value::Bool(b) => Some(b.to_string()),
        serde_json::Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

/// A plain string of at most `max` characters, without control, bidirectional or separator
/// characters.
fn plain(v: &serde_json::Value, max: usize) -> Result<String, String> {
    let s = v.as_str().ok_or("must be a string")?.trim();
    if s.chars().count() > max {
        return Err(format!("is longer than {max} characters"));
    }
    if s.chars().any(|c| c.is_control() && c != '\n') || s.chars().any(is_disguising) {
        return Err(
            "must not hold control, bidirectional formatting or line separator characters".into(),
        );
    }
    Ok(s.to_string())
}

/// One value, checked against its field's type.
/// The value a field the person cannot change holds (`None` when they can change it).
pub(crate) fn fixed_value(
    f: &FieldRow,
    person: &PersonDbRow,
    today: &str,
) -> Option<Option<String>> {
    fixed(f).then(|| preset(f, person, today))
}

/// One value of the person's, checked as signing checks it.
pub(crate) fn one_value(f: &FieldRow, v: &serde_json::Value) -> Result<String, String> {
    one(f, v)
}

fn one(f: &FieldRow, v: &serde_json::Value) -> Result<String, String> {
    let options = || -> Vec<&str> {
        f.spec
            .get("options")
            .and_then(|o| o.as_array())
            .map(|o| o.iter().filter_map(|v| v.as_str()).collect())
            .unwrap_or_default()
    };
    match f.ty.as_str() {
        "signature" | "initials" => signature(v),
        "text" => plain(v, MAX_TEXT),
        "name" | "company" => plain(v, 200).map(|s| s.replace('\n', " ")),
        "date" => {
            let s = plain(v, 10)?;
            chrono::NaiveDate::parse_from_str(&s, "%Y-%m-%d")
                .map_err(|_| "must be a date written YYYY-MM-DD".to_string())?;
            Ok(s)
        }
        "checkbox" => match v {
            serde_json::Value::Bool(b) => Ok(b.to_string()),
            _ => Err("must be true or false".into()),
        },
        "radio" | "select" => {
            let s = plain(v, 200)?;
            if options().contains(&s.as_str()) {
                Ok(s)
            } else {
                Err(format!("must be one of: {}", options().join(", ")))
            }
        }
        "number" => {
            let s = match v {
                serde_json::Value::Number(n) => n.to_string(),
                _ => plain(v, 40)?,
            };
            match s.parse::<f64>() {
                Ok(n) if n.is_finite() && s.len() <= 40 => Ok(s),
                _ => Err("must be a number".into()),
            }
        }
        "email" => {
            let s = plain(v, 254)?;
            if is_email(&s) {
                Ok(s)
            } else {
                Err("must be an email address".into())
            }
        }
        "phone" => {
            let s = plain(v, 30)?;
            let digits = s.chars().filter(char::is_ascii_digit).count();
            if digits >= 3
                && s.chars()
                    .all(|c| c.is_ascii_digit() || " +-().".contains(c))
            {
                Ok(s)
            } else {
                Err("must be a phone number: digits, spaces and + - ( ) .".into())
            }
        }
        "payment" => Err("is filled in when you pay".into()),
        other => Err(format!("has a type this page does not know: {other}")),
    }
}

/// A signature or initials: `{"kind": "typed", "text": ...}`, stored as the text, or
/// `{"kind": "drawn", "width", "height", "strokes": [[[x, y, t], ...], ...]}` (pad pixels and
/// milliseconds from the first touch), stored as that JSON with rounded numbers.
fn signature(v: &serde_json::Value) -> Result<String, String> {
    let kind = v
        .get("kind")
        .and_then(|k| k.as_str())
        .ok_or(
            "must be a drawn, typed or traced signature: {\"kind\": \"drawn\" | \"typed\" | \"traced\", ...}",
        )?;
    match kind {
        "typed" => {
            let text = plain(v.get("text").unwrap_or(&json!(null)), MAX_TYPED)
                .map_err(|e| format!("text {e}"))?;
            if text.is_empty() {
                return Err("text must not be empty".into());
            }
            Ok(text.replace('\n', " "))
        }
        "drawn" => drawn(v).map(|d| d.to_string()),
        "traced" => traced(v).map(|d| d.to_string()),
        _ => Err("kind must be drawn, typed or traced".into()),
    }
}

fn pad_size(v: &serde_json::Value) -> Result<(f64, f64), String> {
    let size = |k: &str| -> Result<f64, String> {
        let n = v
            .get(k)
            .and_then(|n| n.as_f64())
            .ok_or(format!("{k} must be a number"))?;
        if (1.0..=MAX_PAD).contains(&n) {
            Ok(n)
        } else {
            Err(format!("{k} must be from 1 to {MAX_PAD}"))
        }
    };
    Ok((size("width")?, size("height")?))
}

/// An uploaded picture of a signature, traced into outlines on the page (the picture itself
/// never leaves the browser): `{"kind": "traced", "width", "height", "paths": [[[x, y], ...],
/// ...]}`, closed outlines filled even-odd, at most `MAX_PATHS` of them and `MAX_POINTS`
/// points in all.
fn traced(v: &serde_json::Value) -> Result<serde_json::Value, String> {
    let (w, h) = pad_size(v)?;
    let paths = v
        .get("paths")
        .and_then(|s| s.as_array())
        .ok_or("paths must be a list")?;
    if paths.is_empty() {
        return Err("paths must not be empty: the picture held no signature".into());
    }
    if paths.len() > MAX_PATHS {
        return Err(format!("holds more than {MAX_PATHS} outlines"));
    }
    let round = |n: f64| (n * 10.0).round() / 10.0;
    let mut points = 0;
    let mut out = Vec::with_capacity(paths.len());
    for path in paths {
        let pts = path
            .as_array()
            .ok_or("each outline must be a list of points")?;
        if pts.len() < 3 {
            return Err("an outline has fewer than 3 points".into());
        }
        points += pts.len();
        if points > MAX_POINTS {
            return Err(format!("holds more than {MAX_POINTS} points"));
        }
        let mut line = Vec::with_capacity(pts.len());
        for p in pts {
            let xy: Vec<f64> = p
                .as_array()
                .filter(|a| a.len() == 2)
                .map(|a| a.iter().filter_map(|n| n.as_f64()).collect())
                .filter(|a: &Vec<f64>| a.len() == 2)
                .ok_or("each point must be [x, y]")?;
            if !(0.0..=w).contains(&xy[0]) || !(0.0..=h).contains(&xy[1]) {
                return Err("a point lies outside the drawing area".into());
            }
            line.push(json!([round(xy[0]), round(xy[1])]));
        }
        out.push(serde_json::Value::Array(line));
    }
    Ok(json!({"kind": "traced", "width": round(w), "height": round(h), "paths": out}))
}

fn drawn(v: &serde_json::Value) -> Result<serde_json::Value, String> {
    let (w, h) = pad_size(v)?;
    let strokes = v
        .get("strokes")
        .and_then(|s| s.as_array())
        .ok_or("strokes must be a list")?;
    if strokes.is_empty() {
        return Err("strokes must not be empty: draw the signature first".into());
    }
    if strokes.len() > MAX_STROKES {
        return Err(format!("holds more than {MAX_STROKES} strokes"));
    }
    let round = |n: f64| (n * 10.0).round() / 10.0;
    let mut points = 0;
    let mut out = Vec::with_capacity(strokes.len());
    for stroke in strokes {
        let pts = stroke
            .as_array()
            .ok_or("each stroke must be a list of points")?;
        if pts.is_empty() {
            return Err("a stroke has no points".into());
        }
        points += pts.len();
        if points > MAX_POINTS {
            return Err(format!("holds more than {MAX_POINTS} points"));
        }
        let mut last_t = 0.0;
        let mut line = Vec::with_capacity(pts.len());
        for p in pts {
            let xyt: Vec<f64> = p
                .as_array()
                .filter(|a| a.len() == 3)
                .map(|a| a.iter().filter_map(|n| n.as_f64()).collect())
                .filter(|a: &Vec<f64>| a.len() == 3)
                .ok_or("each point must be [x, y, t]")?;
            let (x, y, t) = (xyt[0], xyt[1], xyt[2]);
            if !(0.0..=w).contains(&x) || !(0.0..=h).contains(&y) {
                return Err("a point lies outside the drawing area".into());
            }
            if !(0.0..=3_600_000.0).contains(&t) || t < last_t {
                return Err("point times must be milliseconds that never go back".into());
            }
            last_t = t;
            line.push(json!([round(x), round(y), t.round()]));
        }
        out.push(serde_json::Value::Array(line));
    }
    Ok(json!({"kind": "drawn", "width": round(w), "height": round(h), "strokes": out}))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn field(ty: &str, required: bool, spec: serde_json::Value) -> FieldRow {
        FieldRow {
            id: format!("fld_{ty}"),
            name: format!("the {ty}"),
            ty: ty.into(),
            required,
            spec,
            page: 1,
            x: 0.0,
            y: 0.0,
            width: 100.0,
            height: 20.0,
            areas: Vec::new(),
        }
    }

    fn person() -> PersonDbRow {
        PersonDbRow {
            id: "psn_1".into(),
            document_id: "doc_1".into(),
            position: 0,
            seat: "client".into(),
            name: "Ada Lovelace".into(),
            email: "ada@example.com".into(),
            external_id: None,
            metadata: Default::default(),
            action: signet_source::PersonAction::Sign,
            order: 1,
            status: crate::state::PersonStatus::Invited,
            invited_at: None,
            opened_at: None,
            completed_at: None,
            declined_at: None,
            last_reminded_at: None,
            reminders: 0,
            locale: None,
            access_code_hash: None,
            email_code: false,
            embedded: false,
        }
    }

    fn try_one(f: FieldRow, v: serde_json::Value) -> Result<Option<String>, String> {
        let given = BTreeMap::from([(f.id.clone(), v)]);
        check(&[f], &given, &person(), "2026-11-24")
            .map(|mut o| o.remove(0).1)
            .map_err(|e| e.to_string())
    }

    #[test]
    fn each_type_takes_its_own_values_only() {
        let radio = || field("radio", true, json!({"options": ["monthly", "yearly"]}));
        assert_eq!(
            try_one(radio(), json!("yearly")).unwrap().unwrap(),
            "yearly"
        );
        assert!(
            try_one(radio(), json!("weekly"))
                .unwrap_err()
                .contains("one of")
        );
        let date = || field("date", true, json!({}));
        assert!(try_one(date(), json!("2026-02-30")).is_err());
        assert_eq!(
            try_one(date(), json!("2026-02-28")).unwrap().unwrap(),
            "2026-02-28"
        );
        assert!(try_one(field("number", true, json!({})), json!("12a")).is_err());
        assert!(try_one(field("number", true, json!({})), json!(12.5)).is_ok());
        assert!(try_one(field("email", true, json!({})), json!("not an address")).is_err());
        assert!(try_one(field("phone", true, json!({})), json!("+44 20 7946 0958")).is_ok());
        assert!(try_one(field("phone", true, json!({})), json!("call me")).is_err());
        assert!(try_one(field("text", true, json!({})), json!("a\u{202e}b")).is_err());
        assert!(try_one(field("text", true, json!({})), json!("x".repeat(1001))).is_err());
        assert!(
            try_one(field("checkbox", true, json!({})), json!(false))
                .unwrap_err()
                .contains("ticked")
        );
        assert!(try_one(field("checkbox", false, json!({})), json!("yes")).is_err());
        assert!(
            try_one(field("text", true, json!({})), json!("  "))
                .unwrap_err()
                .contains("required")
        );
        assert_eq!(
            try_one(field("text", false, json!({})), json!(null)).unwrap(),
            None
        );
        assert!(try_one(field("payment", true, json!({})), json!("1")).is_err());
    }

    #[test]
    fn fixed_fields_keep_their_own_value() {
        let locked = || field("text", true, json!({"locked": true, "default": "Net 30"}));
        assert_eq!(try_one(locked(), json!(null)).unwrap().unwrap(), "Net 30");
        assert!(
            try_one(locked(), json!("Net 60"))
                .unwrap_err()
                .contains("cannot be changed")
        );
        let signed = || {
            field(
                "date",
                true,
                json!({"autofill": "date_signed", "editable": false}),
            )
        };
        assert_eq!(
            try_one(signed(), json!(null)).unwrap().unwrap(),
            "2026-11-24"
        );
        assert!(try_one(signed(), json!("2020-01-01")).is_err());
        let name = field("name", true, json!({"autofill": "name"}));
        assert_eq!(
            try_one(name, json!("Ada King")).unwrap().unwrap(),
            "Ada King"
        );
        let unknown = BTreeMap::from([("fld_other".to_string(), json!("x"))]);
        assert!(check(&[], &unknown, &person(), "2026-11-24").is_err());
    }

    #[test]
    fn traced_signatures_are_bounded_and_stored_as_outlines() {
        let f = || field("signature", true, json!({}));
        let ok = json!({"kind": "traced", "width": 600, "height": 200,
            "paths": [[[10, 10], [50.04, 10], [50, 40]], [[100, 100], [120, 100], [110, 130]]]});
        let back: serde_json::Value =
            serde_json::from_str(&try_one(f(), ok).unwrap().unwrap()).unwrap();
        assert_eq!(back["kind"], "traced");
        assert_eq!(back["paths"][0][1], json!([50.0, 10.0]));
        for (bad, why) in [
            (
                json!({"kind": "traced", "width": 600, "height": 200, "paths": []}),
                "empty",
            ),
            (
                json!({"kind": "traced", "width": 600, "height": 200, "paths": [[[1, 1], [2, 2]]]}),
                "fewer than 3",
            ),
            (
                json!({"kind": "traced", "width": 600, "height": 200, "paths": [[[1, 1], [2, 2], [700, 2]]]}),
                "outside",
            ),
            (
                json!({"kind": "traced", "width": 600, "height": 200, "paths": [[[1, 1, 0], [2, 2, 0], [3, 3, 0]]]}),
                "[x, y]",
            ),
        ] {
            let e = try_one(f(), bad).unwrap_err();
            assert!(e.contains(why), "{e}");
        }
        let many: Vec<serde_json::Value> = (0..MAX_PATHS + 1)
            .map(|_| json!([[1, 1], [2, 1], [2, 2]]))
            .collect();
        let e = try_one(
            f(),
            json!({"kind": "traced", "width": 600, "height": 200, "paths": many}),
        )
        .unwrap_err();
        assert!(e.contains("outlines"), "{e}");
        let pts: Vec<serde_json::Value> =
            (0..MAX_POINTS + 1).map(|i| json!([1, (i % 200)])).collect();
        let e = try_one(
            f(),
            json!({"kind": "traced", "width": 600, "height": 200, "paths": [pts]}),
        )
        .unwrap_err();
        assert!(e.contains("points"), "{e}");
    }

    #[test]
    fn drawn_signatures_are_bounded_and_stored_as_strokes() {
        let sig = || field("signature", true, json!({}));
        let ok = json!({"kind": "drawn", "width": 600, "height": 200,
            "strokes": [[[10, 10, 0], [20.04, 30, 16], [40, 35, 33]], [[50, 50, 400]]]});
        let stored = try_one(sig(), ok).unwrap().unwrap();
        let back: serde_json::Value = serde_json::from_str(&stored).unwrap();
        assert_eq!(back["strokes"][0][1], json!([20.0, 30.0, 16.0]));
        assert_eq!(back["kind"], "drawn");
        let outside =
            json!({"kind": "drawn", "width": 600, "height": 200, "strokes": [[[700, 10, 0]]]});
        assert!(try_one(sig(), outside).unwrap_err().contains("outside"));
        let back_in_time = json!({"kind": "drawn", "width": 600, "height": 200, "strokes": [[[1, 1, 50], [2, 2, 10]]]});
        assert!(try_one(sig(), back_in_time).is_err());
        let many: Vec<serde_json::Value> =
            (0..MAX_STROKES + 1).map(|_| json!([[1, 1, 0]])).collect();
        let too_many = json!({"kind": "drawn", "width": 600, "height": 200, "strokes": many});
        assert!(try_one(sig(), too_many).unwrap_err().contains("strokes"));
        let pts: Vec<serde_json::Value> = (0..MAX_POINTS + 1).map(|i| json!([1, 1, i])).collect();
        let too_long = json!({"kind": "drawn", "width": 600, "height": 200, "strokes": [pts]});
        assert!(try_one(sig(), too_long).unwrap_err().contains("points"));
        assert_eq!(
            try_one(sig(), json!({"kind": "typed", "text": "Ada Lovelace"}))
                .unwrap()
                .unwrap(),
            "Ada Lovelace"
        );
        assert!(try_one(sig(), json!("Ada")).is_err());
        assert!(try_one(sig(), json!({"kind": "typed", "text": ""})).is_err());
    }
}
