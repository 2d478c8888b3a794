//! Field rules of the request types, declared on the types with `validator`'s derive
//! (`#[derive(Validate)]` and `#[validate(...)]` on each field) and checked by [`check`] where
//! a resolver starts, so REST and GraphQL refuse the same input with the same words.
//!
//! A failed rule becomes the one error shape, `<path>: <reason>`, naming the first failure in
//! the order the type declares its fields (nested types and list items in place: `send.subject`,
//! `eventTypes[2]`), so a request with two faults always hears about the same one. What a rule
//! cannot express stays in the resolver's own parsing: a rule across fields (`url` or `relay`),
//! one that needs the store (a seat of this template), and a value's normal form (trimmed, sorted).
//!
//! The rule functions below are the text rules of [`crate::fields`] in `validator`'s form, with
//! the same words; a rule's bound is its type parameter: `custom(function = line::<200>)`.

use std::borrow::Cow;

use serde::Serialize;
use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
pub use validator::{Validate, ValidationError, ValidationErrors, ValidationErrorsKind};

use crate::DomainError;
use crate::fields;
use crate::languages::LANGUAGES;

/// The request's first broken rule as an invalid-input error; `Ok` when every rule holds.
pub fn check<T: Validate + Serialize>(input: &T) -> Result<(), DomainError> {
    match first(input, "") {
        None => Ok(()),
        Some((path, why)) => Err(DomainError::invalid(&path, why)),
    }
}

/// The first broken rule of `input` as (path, reason), its paths under `prefix`
/// (`people[2]`): for a list of items whose problems are reported one per item.
pub fn first<T: Validate + Serialize>(input: &T, prefix: &str) -> Option<(String, String)> {
    // The order is only worked out for a request that breaks a rule: a good one costs the
    // rules alone.
    let errors = input.validate().err()?;
    let mut found = Vec::new();
    flatten(&errors, prefix, &mut found);
    let order = declared_order(input, prefix);
    found.into_iter().min_by(|(a, _), (b, _)| {
        let at = |p: &String| order.iter().position(|o| o == p).unwrap_or(usize::MAX);
        at(a).cmp(&at(b)).then_with(|| a.cmp(b))
    })
}

/// Every failure as (path, reason); `validator` names fields as Rust does, callers see them
/// in camelCase as the types are written on the wire.
fn flatten(errors: &ValidationErrors, prefix: &str, out: &mut Vec<(String, String)>) {
    for (name, kind) in errors.errors() {
        let path = join(prefix, &camel(name));
        match kind {
            ValidationErrorsKind::Field(list) => {
                for e in list {
                    let path = match e.params.get("at") {
                        Some(at) => format!("{path}[{at}]"),
                        None => path.clone(),
                    };
                    let why = e.message.clone().unwrap_or_else(|| e.code.clone());
                    out.push((path, why.into_owned()));
                }
            }
            ValidationErrorsKind::Struct(inner) => flatten(inner, &path, out),
            ValidationErrorsKind::List(items) => {
                for (i, inner) in items {
                    flatten(inner, &format!("{path}[{i}]"), out);
                }
            }
        }
    }
}

fn join(prefix: &str, name: &str) -> String {
    if prefix.is_empty() {
        name.to_string()
    } else {
        format!("{prefix}.{name}")
    }
}

fn camel(snake: &str) -> String {
    let mut out = String::with_capacity(snake.len());
    let mut upper = false;
    for c in snake.chars() {
        if c == '_' {
            upper = true;
        } else if upper {
            out.extend(c.to_uppercase());
            upper = false;
        } else {
            out.push(c);
        }
    }
    out
}

/// Every path of `input` in the order its type declares its fields: serde writes a struct's
/// fields in that order, and reading the written text back in order keeps it.
fn declared_order<T: Serialize>(input: &T, prefix: &str) -> Vec<String> {
    let mut out = Vec::new();
    if let Ok(text) = serde_json::to_string(input) {
        let mut reader = serde_json::Deserializer::from_str(&text);
        let _ = Paths {
            prefix: prefix.to_string(),
            out: &mut out,
        }
        .deserialize(&mut reader);
    }
    out
}

struct Paths<'a> {
    prefix: String,
    out: &'a mut Vec<String>,
}

impl<'de> DeserializeSeed<'de> for Paths<'_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Paths<'_> {
    type Value = ();
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        while let Some(key) = map.next_key::<Cow<'de, str>>()? {
            let path = join(&self.prefix, &key);
            self.out.push(path.clone());
            map.next_value_seed(Paths {
                prefix: path,
                out: self.out,
            })?;
        }
        Ok(())
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let mut i = 0;
        loop {
            let path = format!("{}[{i}]", self.prefix);
            self.out.push(path.clone());
            let seed = Paths {
                prefix: path,
                out: self.out,
            };
            if seq.next_element_seed(seed)?.is_none() {
                self.out.pop();
                return Ok(());
            }
            i += 1;
        }
    }
    fn visit_bool<E: de::Error>(self, _: bool) -> Result<(), E> {
        Ok(())
    }
    fn visit_i64<E: de::Error>(self, _: i64) -> Result<(), E> {
        Ok(())
    }
    fn visit_u64<E: de::Error>(self, _: u64) -> Result<(), E> {
        Ok(())
    }
    fn visit_f64<E: de::Error>(self, _: f64) -> Result<(), E> {
        Ok(())
    }
    fn visit_str<E: de::Error>(self, _: &str) -> Result<(), E> {
        Ok(())
    }
    fn visit_unit<E: de::Error>(self) -> Result<(), E> {
        Ok(())
    }
    fn visit_none<E: de::Error>(self) -> Result<(), E> {
        Ok(())
    }
}

fn broken(code: &'static str, why: impl Into<Cow<'static, str>>) -> ValidationError {
    ValidationError::new(code).with_message(why.into())
}

/// A text of 1 to `MAX` characters once trimmed, line breaks and tabs allowed
/// ([`fields::text`]).
pub fn text<const MAX: usize>(v: &str) -> Result<(), ValidationError> {
    fields::text_problem(v, MAX).map_or(Ok(()), |why| Err(broken("text", why)))
}

/// One line of 1 to `MAX` characters once trimmed ([`fields::line`]).
pub fn line<const MAX: usize>(v: &str) -> Result<(), ValidationError> {
    fields::line_problem(v, MAX).map_or(Ok(()), |why| Err(broken("line", why)))
}

/// As [`text`], where blank means left out.
pub fn blank_or_text<const MAX: usize>(v: &str) -> Result<(), ValidationError> {
    if v.trim().is_empty() {
        return Ok(());
    }
    text::<MAX>(v)
}

/// As [`line`], where blank means left out.
pub fn blank_or_line<const MAX: usize>(v: &str) -> Result<(), ValidationError> {
    if v.trim().is_empty() {
        return Ok(());
    }
    line::<MAX>(v)
}

/// An email address once trimmed ([`fields::is_email`]); the reason quotes it as given.
pub fn email(v: &str) -> Result<(), ValidationError> {
    if fields::is_email(v.trim()) {
        Ok(())
    } else {
        Err(broken("email", format!("'{v}' is not an email address")))
    }
}

/// A language code Signet speaks, exactly.
pub fn language(v: &str) -> Result<(), ValidationError> {
    if LANGUAGES.contains(&v) {
        Ok(())
    } else {
        Err(broken(
            "language",
            format!("must be one of {}", LANGUAGES.join(", ")),
        ))
    }
}

/// As [`language`] once trimmed, where blank means left out.
pub fn blank_or_language(v: &str) -> Result<(), ValidationError> {
    match v.trim() {
        "" => Ok(()),
        l => language(l),
    }
}

/// Each of a list of numbers from `MIN` to `MAX`; the failure names the item (`[i]`).
pub fn each_in<const MIN: i64, const MAX: i64>(list: &[i64]) -> Result<(), ValidationError> {
    match list.iter().position(|d| !(MIN..=MAX).contains(d)) {
        None => Ok(()),
        Some(i) => {
            let mut e = broken("range", format!("must be from {MIN} to {MAX}"));
            e.add_param(Cow::Borrowed("at"), &i);
            Err(e)
        }
    }
}

/// Marks a failure of a list's rule as the failure of its item `i` (`eventTypes[2]`).
pub fn at_item(mut e: ValidationError, i: usize) -> ValidationError {
    e.add_param(Cow::Borrowed("at"), &i);
    e
}

/// A failure with its reason, for a rule function of a resource crate.
pub fn fails(code: &'static str, why: impl Into<Cow<'static, str>>) -> ValidationError {
    broken(code, why)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Serialize, Validate)]
    #[serde(rename_all = "camelCase")]
    struct Inner {
        #[validate(custom(function = line::<5>))]
        short_name: String,
        #[validate(range(min = 1, max = 9, message = "must be from 1 to 9"))]
        #[serde(skip_serializing_if = "Option::is_none")]
        count: Option<i64>,
    }

    #[derive(Serialize, Validate)]
    #[serde(rename_all = "camelCase")]
    struct Outer {
        #[validate(custom(function = email))]
        reply_to: String,
        #[validate(nested)]
        items: Vec<Inner>,
        #[validate(custom(function = each_in::<1, 365>))]
        days: Vec<i64>,
        #[validate(custom(function = blank_or_text::<3>))]
        note: Option<String>,
    }

    fn inner(name: &str, count: Option<i64>) -> Inner {
        Inner {
            short_name: name.into(),
            count,
        }
    }

    fn outer(reply_to: &str, items: Vec<Inner>, days: Vec<i64>, note: &str) -> Outer {
        Outer {
            reply_to: reply_to.into(),
            items,
            days,
            note: Some(note.into()),
        }
    }

    #[test]
    fn a_good_request_passes() {
        let o = outer(
            "a@b.example",
            vec![inner("ok", Some(3))],
            vec![1, 365],
            "  ",
        );
        assert!(check(&o).is_ok());
    }

    #[test]
    fn the_first_failure_in_declared_order_is_named_whatever_the_map_order() {
        // Several faults at once: the first declared field that fails is reported, nested
        // items and list positions in place.
        let o = outer(
            "a@b.example",
            vec![inner("ok", None), inner("far too long", Some(0))],
            vec![4, 0],
            "long note",
        );
        for _ in 0..20 {
            let (path, why) = first(&o, "").expect("fails");
            assert_eq!(path, "items[1].shortName");
            assert_eq!(why, "is longer than 5 characters");
        }
        let o = outer("nobody", vec![inner("far too long", None)], vec![0], "x");
        assert_eq!(
            check(&o).expect_err("fails").to_string(),
            "replyTo: 'nobody' is not an email address"
        );
        let o = outer(
            "a@b.example",
            vec![inner("ok", Some(10))],
            vec![3, 7, 0],
            "x",
        );
        assert_eq!(first(&o, "").expect("fails").0, "items[0].count");
        let o = outer("a@b.example", vec![], vec![3, 7, 0], "long note");
        assert_eq!(
            first(&o, "").expect("fails"),
            ("days[2]".to_string(), "must be from 1 to 365".to_string())
        );
        let o = outer("a@b.example", vec![], vec![], "long note");
        assert_eq!(
            first(&o, "send").expect("fails"),
            (
                "send.note".to_string(),
                "is longer than 3 characters".to_string()
            )
        );
    }

    #[test]
    fn camel_case_names() {
        assert_eq!(camel("event_types"), "eventTypes");
        assert_eq!(camel("url"), "url");
        assert_eq!(camel("a_b_c"), "aBC");
    }
}
