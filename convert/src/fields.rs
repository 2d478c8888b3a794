//! Text tags to fields, the same for every kind of template: each tag's `fieldTag`
//! attributes once all of a template's tags are known.

use std::collections::BTreeMap;

use serde_json::{Value, json};
use signet_source::tags::{self, Tag};

/// The seat of a tag that names none, when no tag names one.
pub const DEFAULT_ROLE: &str = "signer";
/// The most tags a template takes.
pub const MAX_TAGS: usize = 1_000;

/// One tag as written, before the fields are named.
#[derive(Clone, Debug)]
pub struct Written {
    pub tag: Tag,
    /// Where, for messages: "paragraph 12", "page 3".
    pub place: String,
    pub text: String,
}

/// Each tag's field attributes: the seat of a tag without a role is the first seat named; a
/// label without a name is `Field N`; a label used by several seats is named for each
/// (`Signature (tenant)`); the same label and seat twice is one field in two places, and
/// the two must agree.
pub fn field_attrs(written: &[Written]) -> Result<Vec<Value>, String> {
    let default_role = written
        .iter()
        .find_map(|w| w.tag.role.as_deref())
        .map(role_word)
        .unwrap_or_else(|| DEFAULT_ROLE.to_string());
    if written.len() > MAX_TAGS {
        return Err(format!(
            "has {} text tags; a template takes at most {MAX_TAGS}",
            written.len()
        ));
    }
    let roles: Vec<String> = written
        .iter()
        .map(|w| {
            w.tag
                .role
                .as_deref()
                .map(role_word)
                .unwrap_or_else(|| default_role.clone())
        })
        .collect();
    let mut seats_of: BTreeMap<String, Vec<&str>> = BTreeMap::new();
    for (w, r) in written.iter().zip(&roles) {
        let seats = seats_of.entry(w.tag.label.to_lowercase()).or_default();
        if !seats.contains(&r.as_str()) {
            seats.push(r);
        }
    }
    check_formulas(written)?;
    // The first place of each label and seat.
    let mut first: BTreeMap<(&str, &str), usize> = BTreeMap::new();
    let mut out: Vec<Value> = Vec::with_capacity(written.len());
    for (i, w) in written.iter().enumerate() {
        if !w.tag.label.is_empty()
            && let Some(&e) = first.get(&(roles[i].as_str(), w.tag.label.as_str()))
        {
            // The same label and seat again: one field shown in another place, so the two
            // must agree on everything but their place and size.
            let earlier = &written[e];
            tags::same_field(&earlier.tag, &w.tag)
                .map_err(|why| format!("the text tag {} in {}: {why}", short(&w.text), w.place))?;
            if w.tag.ty == signet_source::FieldType::Payment {
                return Err(format!(
                    "the text tag {} in {} repeats the payment '{}' (first in {}); a payment \
                     is shown in one place",
                    short(&w.text),
                    w.place,
                    w.tag.label,
                    earlier.place
                ));
            }
            let mut again: Value = out[e].clone();
            if let Some(o) = again.as_object_mut() {
                // Each place keeps its own size.
                for (key, v) in [("width", w.tag.width), ("height", w.tag.height)] {
                    match v {
                        Some(v) => o.insert(key.into(), json!(v)),
                        None => o.remove(key),
                    };
                }
            }
            out.push(again);
            continue;
        }
        first.insert((roles[i].as_str(), w.tag.label.as_str()), i);
        let role = roles[i].clone();
        let mut attrs = w.tag.attrs(&role);
        attrs["role"] = json!(role);
        let label = if w.tag.label.is_empty() {
            format!("Field {}", i + 1)
        } else if seats_of
            .get(&w.tag.label.to_lowercase())
            .is_some_and(|r| r.len() > 1)
        {
            format!("{} ({role})", w.tag.label)
        } else {
            w.tag.label.clone()
        };
        attrs["name"] = json!(label);
        out.push(attrs);
    }
    Ok(out)
}

/// Each payment formula's names are number fields of the template (a select or radio whose
/// options are all numbers counts, and a payment of a fixed amount): what a payment will add up must be there to add.
fn check_formulas(written: &[Written]) -> Result<(), String> {
    use signet_source::FieldType;
    let numeric = |t: &Tag| match t.ty {
        FieldType::Number => true,
        FieldType::Select | FieldType::Radio => {
            t.options.iter().all(|o| o.trim().parse::<f64>().is_ok())
        }
        // Another payment's fixed amount (never another formula: no loops).
        FieldType::Payment => matches!(t.payment, Some(tags::PaymentAmount::Amount(_))),
        _ => false,
    };
    for w in written {
        let Some(tags::PaymentAmount::Formula(f)) = &w.tag.payment else {
            continue;
        };
        let expr = signet_source::formula::parse(f).map_err(|why| {
            format!(
                "the text tag {} in {}: the formula: {why}",
                short(&w.text),
                w.place
            )
        })?;
        for name in expr.names() {
            let found = written
                .iter()
                .find(|o| o.tag.label.eq_ignore_ascii_case(name));
            match found {
                Some(o) if numeric(&o.tag) => {}
                Some(o) => {
                    return Err(format!(
                        "the text tag {} in {}: its formula reads '{name}', which is a {} \
                         field; a formula reads number fields (type=number)",
                        short(&w.text),
                        w.place,
                        o.tag.ty.as_str()
                    ));
                }
                None => {
                    return Err(format!(
                        "the text tag {} in {}: its formula reads '{name}', which no tag of \
                         the template names; add {{{{{name};type=number}}}} where it is filled in",
                        short(&w.text),
                        w.place
                    ));
                }
            }
        }
    }
    Ok(())
}

/// A role as a role word: DocuSeal's `First Party` is the seat `First_Party`.
pub fn role_word(r: &str) -> String {
    let mut s: String = r
        .split_whitespace()
        .collect::<Vec<_>>()
        .join("_")
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '-')
        .take(40)
        .collect();
    if s.is_empty() {
        s = DEFAULT_ROLE.to_string();
    }
    s
}

/// A tag's text for a message: at most 80 characters.
pub fn short(t: &str) -> String {
    let mut s: String = t.chars().take(80).collect();
    if s.len() < t.len() {
        s.push('…');
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn written(text: &str) -> Vec<Written> {
        tags::find(text)
            .into_iter()
            .map(|f| Written {
                tag: f.tag.unwrap(),
                place: "page 1".into(),
                text: text[f.start..f.end].to_string(),
            })
            .collect()
    }

    #[test]
    fn a_payment_formula_reads_number_fields_of_the_template() {
        let ok = written(
            "{{Qty;type=number;role=client}} {{Plan;type=select;options=10,20;role=client}} \
             {{Total;type=payment;formula=Qty * plan + 5;currency=EUR;role=client}}",
        );
        assert_eq!(field_attrs(&ok).unwrap().len(), 3);
        let missing = written("{{Total;type=payment;formula=Qty * 2;role=client}}");
        let why = field_attrs(&missing).unwrap_err();
        assert!(
            why.contains("reads 'Qty', which no tag of the template names")
                && why.contains("{{Qty;type=number}}"),
            "{why}"
        );
        let text = written(
            "{{Qty;type=text;role=client}} {{Total;type=payment;formula=Qty * 2;role=client}}",
        );
        let why = field_attrs(&text).unwrap_err();
        assert!(why.contains("'Qty', which is a text field"), "{why}");
        // A formula that cannot be read is refused with the tag, before any name is looked at.
        let bad = tags::find("{{Total;type=payment;formula=Qty * (2;role=client}}");
        let why = bad[0].tag.clone().unwrap_err();
        assert!(
            why.contains("the formula 'Qty * (2': a '(' is not closed"),
            "{why}"
        );
    }
}
