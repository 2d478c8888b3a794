//! The secrets of the identity check (`identity.rs`): an access code's salted keyed hash, an
//! emailed code derived from the server's key and a nonce, and the pass that proves both were
//! given. Each comparison takes the same time whatever it compares.

use ring::rand::SecureRandom as _;

use signet_core::{Ctx, DomainError};

pub(super) fn random(n: usize) -> Result<Vec<u8>, DomainError> {
    let mut bytes = vec![0u8; n];
    ring::rand::SystemRandom::new()
        .fill(&mut bytes)
        .map_err(|_| DomainError::Internal("the system's random source failed".into()))?;
    Ok(bytes)
}

pub(super) fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

pub(super) fn unhex(s: &str) -> Option<Vec<u8>> {
    if !s.len().is_multiple_of(2) {
        return None;
    }
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(s.get(i..i + 2)?, 16).ok())
        .collect()
}

/// What is stored of an access code: a random salt and the keyed hash of salt and code.
pub fn hash_access_code(ctx: &Ctx, code: &str) -> Result<String, DomainError> {
    let salt = hex(&random(16)?);
    let tag = ring::hmac::sign(
        &ctx.key_hasher,
        format!("access-code:{salt}:{}", code.trim()).as_bytes(),
    );
    Ok(format!("{salt}:{}", hex(tag.as_ref())))
}

/// Whether `given` is the access code stored as `stored` (compared in constant time).
pub(super) fn access_code_is(ctx: &Ctx, stored: &str, given: &str) -> bool {
    let Some((salt, tag)) = stored.split_once(':') else {
        return false;
    };
    let Some(tag) = unhex(tag) else {
        return false;
    };
    ring::hmac::verify(
        &ctx.key_hasher,
        format!("access-code:{salt}:{}", given.trim()).as_bytes(),
        &tag,
    )
    .is_ok()
}

/// The emailed code a nonce stands for: 6 digits from the server's key, the person and the
/// nonce. Only the email job carries the nonce.
pub fn email_code_of(ctx: &Ctx, person_id: &str, nonce: &str) -> String {
    let tag = ring::hmac::sign(
        &ctx.key_hasher,
        format!("email-code:{person_id}:{nonce}").as_bytes(),
    );
    let mut n = [0u8; 8];
    n.copy_from_slice(&tag.as_ref()[..8]);
    format!("{:06}", u64::from_be_bytes(n) % 1_000_000)
}

pub(super) fn email_code_message(person_id: &str, code: &str) -> String {
    format!("email-code-hash:{person_id}:{}", code.trim())
}

/// What is stored of an emailed code.
pub fn email_code_hash(ctx: &Ctx, person_id: &str, code: &str) -> String {
    hex(ring::hmac::sign(
        &ctx.key_hasher,
        email_code_message(person_id, code).as_bytes(),
    )
    .as_ref())
}

pub(super) fn email_code_is(ctx: &Ctx, person_id: &str, stored: &str, given: &str) -> bool {
    let Some(tag) = unhex(stored) else {
        return false;
    };
    ring::hmac::verify(
        &ctx.key_hasher,
        email_code_message(person_id, given).as_bytes(),
        &tag,
    )
    .is_ok()
}

/// A pass: when it runs out and the keyed hash of person and time.
pub(super) fn pass_for(ctx: &Ctx, person_id: &str, until: i64) -> String {
    let tag = ring::hmac::sign(
        &ctx.key_hasher,
        format!("pass:{person_id}:{until}").as_bytes(),
    );
    format!("{until}.{}", hex(tag.as_ref()))
}

pub(super) fn pass_is_good(ctx: &Ctx, person_id: &str, pass: &str) -> bool {
    let Some((until, tag)) = pass.split_once('.') else {
        return false;
    };
    let (Ok(until), Some(tag)) = (until.parse::<i64>(), unhex(tag)) else {
        return false;
    };
    until > ctx.now()
        && ring::hmac::verify(
            &ctx.key_hasher,
            format!("pass:{person_id}:{until}").as_bytes(),
            &tag,
        )
        .is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_round_trips_and_refuses_odd_or_foreign_text() {
        assert_eq!(unhex(&hex(&[0, 1, 254, 255])), Some(vec![0, 1, 254, 255]));
        assert_eq!(unhex("abc"), None);
        assert_eq!(unhex("zz"), None);
    }
}
