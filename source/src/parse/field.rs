//! A field's attributes, read and checked: its name, type and role, its flags and texts,
//! its choices, autofill and, for a payment field, its amount, currency and formula.

use serde_json::{Map, Value};

use super::{Parser, parse_amount, truncate};
use crate::model::*;

type Attrs = Map<String, Value>;

impl Parser {
    pub(super) fn field(&mut self, path: &str, attrs: Option<&Attrs>) -> Option<Field> {
        let Some(a) = attrs else {
            self.err(
                &format!("{path}.attrs"),
                "is required: a field needs name, type and role",
            );
            return None;
        };
        let before = self.problems.len();
        let name = match a.get("name") {
            Some(Value::String(n)) if !n.trim().is_empty() && n.chars().count() <= 100 => {
                n.trim().to_string()
            }
            _ => {
                self.err(&at(path, "name"), "must be a name of 1 to 100 characters");
                String::new()
            }
        };
        let ty = self.field_type(a, path);
        let role = self.role(path, Some(a));
        let required = self.flag(a, path, "required", true);
        let editable = self.flag(a, path, "editable", true);
        let locked = self.flag(a, path, "locked", false);
        let width = self.size(a, path, "width");
        let height = self.size(a, path, "height");
        let placeholder = self.text(a, path, "placeholder");
        let tooltip = self.text(a, path, "tooltip");
        let default = self.text(a, path, "default");
        let autofill = self.autofill(a, path);
        let options = self.options(a, path);
        let payment = (ty == Some(FieldType::Payment)).then(|| self.payment(a, path));
        if self.problems.len() > before {
            return None;
        }
        Some(Field {
            name,
            ty: ty?,
            role: role?,
            required,
            autofill,
            editable,
            placeholder,
            tooltip,
            locked,
            options,
            default,
            payment,
            width,
            height,
            path: path.to_string(),
        })
    }

    fn field_type(&mut self, a: &Attrs, path: &str) -> Option<FieldType> {
        match a.get("type").and_then(Value::as_str) {
            Some(t) => FieldType::parse(t).or_else(|| {
                let all: Vec<_> = FieldType::ALL.iter().map(|t| t.as_str()).collect();
                self.err(
                    &at(path, "type"),
                    format!(
                        "unknown field type '{}'; one of {}",
                        truncate(t),
                        all.join(", ")
                    ),
                );
                None
            }),
            None => {
                self.err(&at(path, "type"), "is required");
                None
            }
        }
    }

    /// A true-or-false attribute, `default` when left out.
    fn flag(&mut self, a: &Attrs, path: &str, k: &str, default: bool) -> bool {
        match a.get(k) {
            None | Some(Value::Null) => default,
            Some(Value::Bool(b)) => *b,
            Some(_) => {
                self.err(&at(path, k), "must be true or false");
                default
            }
        }
    }

    /// A text attribute of at most 500 characters (a default may be a number or a boolean).
    fn text(&mut self, a: &Attrs, path: &str, k: &str) -> Option<String> {
        match a.get(k) {
            None | Some(Value::Null) => None,
            Some(Value::String(s)) if s.chars().count() <= 500 => Some(s.clone()),
            Some(Value::Number(n)) if k == "default" => Some(n.to_string()),
            Some(Value::Bool(b)) if k == "default" => Some(b.to_string()),
            Some(_) => {
                self.err(&at(path, k), "must be a string of at most 500 characters");
                None
            }
        }
    }

    /// A size in points, from 1 to 2000.
    fn size(&mut self, a: &Attrs, path: &str, k: &str) -> Option<f64> {
        match a.get(k) {
            None | Some(Value::Null) => None,
            Some(v) => match v.as_f64() {
                Some(n) if (1.0..=2000.0).contains(&n) => Some(n),
                _ => {
                    self.err(&at(path, k), "must be a number of points from 1 to 2000");
                    None
                }
            },
        }
    }

    fn autofill(&mut self, a: &Attrs, path: &str) -> Option<Autofill> {
        match a.get("autofill") {
            None | Some(Value::Null) | Some(Value::Bool(false)) => None,
            Some(Value::String(s)) => Autofill::parse(s).or_else(|| {
                self.err(
                    &at(path, "autofill"),
                    format!(
                        "unknown autofill '{}'; one of name, email, date_signed",
                        truncate(s)
                    ),
                );
                None
            }),
            Some(_) => {
                self.err(&at(path, "autofill"), "must be name, email or date_signed");
                None
            }
        }
    }

    /// A choice field's options: strings of 1 to 200 characters.
    fn options(&mut self, a: &Attrs, path: &str) -> Vec<String> {
        match a.get("options") {
            None | Some(Value::Null) => vec![],
            Some(Value::Array(items)) => {
                let mut out = Vec::new();
                for (i, o) in items.iter().enumerate() {
                    match o {
                        Value::String(s) if !s.trim().is_empty() && s.chars().count() <= 200 => {
                            out.push(s.clone())
                        }
                        _ => self.err(
                            &format!("{path}.attrs.options[{i}]"),
                            "must be a string of 1 to 200 characters",
                        ),
                    }
                }
                out
            }
            Some(_) => {
                self.err(&at(path, "options"), "must be an array of strings");
                vec![]
            }
        }
    }

    /// A payment field's amount, currency (usd when left out), description, formula, price
    /// and link.
    fn payment(&mut self, a: &Attrs, path: &str) -> Box<Payment> {
        let currency = match a.get("currency") {
            None | Some(Value::Null) => "usd".to_string(),
            Some(Value::String(c))
                if c.len() == 3 && c.bytes().all(|b| b.is_ascii_alphabetic()) =>
            {
                let c = c.to_ascii_lowercase();
                if crate::currencies::decimals(&c).is_none() {
                    self.err(
                        &at(path, "currency"),
                        format!("'{c}' is not a currency payments take"),
                    );
                }
                c
            }
            Some(_) => {
                self.err(
                    &at(path, "currency"),
                    "must be a three-letter currency code such as usd",
                );
                "usd".to_string()
            }
        };
        let amount_minor = match a.get("amount") {
            None | Some(Value::Null) => None,
            Some(v) => {
                match parse_amount(v, &currency) {
                    Some(m) => Some(m),
                    None => {
                        let digits = crate::currencies::decimals(&currency).unwrap_or(2);
                        self.err(
                        &at(path, "amount"),
                        match digits {
                            0 => format!("must be a positive whole amount: {} has no cents", currency.to_uppercase()),
                            d => format!("must be a positive amount such as 49.99 with at most {d} decimals"),
                        },
                    );
                        None
                    }
                }
            }
        };
        let description = self.text(a, path, "description");
        let formula = self.text(a, path, "formula");
        if let Some(f) = &formula
            && let Err(why) = crate::formula::parse(f)
        {
            self.err(&at(path, "formula"), format!("'{f}': {why}"));
        }
        Box::new(Payment {
            amount_minor,
            currency,
            description,
            formula,
            price: self.text(a, path, "price"),
            link: self.text(a, path, "link"),
        })
    }
}

/// The path of attribute `k` of the node at `path`.
fn at(path: &str, k: &str) -> String {
    format!("{path}.attrs.{k}")
}
