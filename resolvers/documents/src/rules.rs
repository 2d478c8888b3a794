//! The field rules of the document request types that are the documents' own (`types.rs`
//! names them on each field, beside the text rules of `signet_core::rules`).

use signet_core::fields::is_disguising;
use signet_core::rules::{ValidationError, fails};
use signet_source::PersonAction;

/// A person's role word (their seat), as the source's roles are written.
pub fn role(r: &str) -> Result<(), ValidationError> {
    signet_source::role_problem(r).map_or(Ok(()), |why| Err(fails("role", why)))
}

/// A person's action: `sign`, `approve` or `cc`.
pub fn action(a: &str) -> Result<(), ValidationError> {
    match PersonAction::parse(a) {
        Some(_) => Ok(()),
        None => Err(fails(
            "action",
            format!("unknown action '{a}'; one of sign, approve, cc"),
        )),
    }
}

/// What an access code may be: 4 to 64 printable characters once trimmed (spaces inside
/// allowed); blank means none.
pub fn access_code(c: &str) -> Result<(), ValidationError> {
    let c = c.trim();
    if c.is_empty() {
        return Ok(());
    }
    let n = c.chars().count();
    if !(4..=64).contains(&n) {
        return Err(fails("access_code", "must be 4 to 64 characters"));
    }
    if c.chars().any(|ch| ch.is_control() || is_disguising(ch)) {
        return Err(fails("access_code", "must be printable characters"));
    }
    Ok(())
}
