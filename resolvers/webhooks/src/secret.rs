//! Endpoint secrets: made, kept encrypted at rest, and used to sign.
//!
//! A secret is `whsec_` + base64url (no padding) of 24 random bytes. The signing key is those
//! 24 bytes, which is what a Standard Webhooks library derives from `whsec_` + the same text
//! with `-`→`+` and `_`→`/`. In the database a secret is sealed by `signet_core::secret_box`, so a copy of the
//! database alone cannot forge events.

use base64::Engine;
use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
use ring::hmac;
use ring::rand::{SecureRandom, SystemRandom};

use signet_core::DomainError;

pub const PREFIX: &str = "whsec_";

/// A fresh endpoint secret, as shown to the caller.
pub fn generate() -> String {
    let mut bytes = [0u8; 24];
    SystemRandom::new()
        .fill(&mut bytes)
        .unwrap_or_else(|_| panic!("system random number generator failed"));
    format!("{PREFIX}{}", URL_SAFE_NO_PAD.encode(bytes))
}

/// `v1,<base64 HMAC-SHA256 of id.timestamp.body>` under one secret.
pub fn sign(
    secret: &str,
    msg_id: &str,
    timestamp: i64,
    body: &[u8],
) -> Result<String, DomainError> {
    let raw = secret
        .strip_prefix(PREFIX)
        .and_then(|s| URL_SAFE_NO_PAD.decode(s).ok())
        .ok_or_else(|| DomainError::Internal("stored webhook secret is malformed".into()))?;
    let key = hmac::Key::new(hmac::HMAC_SHA256, &raw);
    let mut ctx = hmac::Context::with_key(&key);
    ctx.update(msg_id.as_bytes());
    ctx.update(b".");
    ctx.update(timestamp.to_string().as_bytes());
    ctx.update(b".");
    ctx.update(body);
    Ok(format!("v1,{}", STANDARD.encode(ctx.sign().as_ref())))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_have_the_documented_shape_and_survive_sealing() {
        use signet_core::secret_box::SecretBox;
        let s = generate();
        assert!(s.starts_with("whsec_") && s.len() == 6 + 32, "{s}");
        let b = SecretBox::new(b"server secret");
        let sealed = b.seal(&s);
        assert!(!sealed.contains(&s[6..]));
        assert_eq!(b.open(&sealed).unwrap(), s);
        assert!(SecretBox::new(b"another").open(&sealed).is_err());
    }

    #[test]
    fn signature_matches_the_standard_webhooks_construction() {
        // The Standard Webhooks specification's published example.
        let sig = sign(
            // whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw in standard base64 is this in base64url.
            "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
            "msg_p5jXN8AQM9LWM0D4loKWxJek",
            1614265330,
            br#"{"test": 2432232314}"#,
        )
        .unwrap();
        assert_eq!(sig, "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=");
    }
}
