//! Endpoint secrets: made, kept encrypted at rest, and used to sign.
//!
//! A secret is `whsec_` + base64url (no padding) of 24 random bytes. The signing key is those
//! 24 bytes, which is what a Standard Webhooks library derives from `whsec_` + the same text
//! with `-`→`+` and `_`→`/`. In the database a secret is sealed with ChaCha20-Poly1305 under a
//! key derived from the server secret, so a copy of the database alone cannot forge events.

use base64::Engine;
use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
use ring::aead::{self, CHACHA20_POLY1305, LessSafeKey, Nonce, UnboundKey};
use ring::hmac;
use ring::rand::{SecureRandom, SystemRandom};

use crate::DomainError;

pub const PREFIX: &str = "whsec_";
const SEALED_TAG: &str = "s1:";

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

/// True when `s` is what `SecretBox::seal` makes.
pub fn is_sealed(s: &str) -> bool {
    s.starts_with(SEALED_TAG)
}

/// Seals and opens secrets for storage.
pub struct SecretBox {
    key: LessSafeKey,
}

impl SecretBox {
    /// The sealing key is HMAC-SHA256(server secret, a fixed label): stable across restarts
    /// and processes that share `SIGNET_SECRET_KEY`, and unrelated to the API key hash.
    pub fn new(server_secret: &[u8]) -> SecretBox {
        let derive = hmac::Key::new(hmac::HMAC_SHA256, server_secret);
        let tag = hmac::sign(&derive, b"signet webhook endpoint secrets v1");
        let unbound = UnboundKey::new(&CHACHA20_POLY1305, tag.as_ref())
            .unwrap_or_else(|_| panic!("a 32-byte key is a valid ChaCha20-Poly1305 key"));
        SecretBox {
            key: LessSafeKey::new(unbound),
        }
    }

    pub fn seal(&self, secret: &str) -> String {
        let mut nonce = [0u8; 12];
        SystemRandom::new()
            .fill(&mut nonce)
            .unwrap_or_else(|_| panic!("system random number generator failed"));
        let mut data = secret.as_bytes().to_vec();
        // Sealing in memory cannot fail for inputs this small.
        let _ = self.key.seal_in_place_append_tag(
            Nonce::assume_unique_for_key(nonce),
            aead::Aad::empty(),
            &mut data,
        );
        let mut out = nonce.to_vec();
        out.extend(data);
        format!("{SEALED_TAG}{}", URL_SAFE_NO_PAD.encode(out))
    }

    pub fn open(&self, sealed: &str) -> Result<String, DomainError> {
        let bad = || {
            DomainError::Internal(
                "a webhook secret cannot be opened: was SIGNET_SECRET_KEY changed?".into(),
            )
        };
        let raw = sealed
            .strip_prefix(SEALED_TAG)
            .and_then(|s| URL_SAFE_NO_PAD.decode(s).ok())
            .filter(|r| r.len() > 12)
            .ok_or_else(bad)?;
        let (nonce, rest) = raw.split_at(12);
        let nonce = Nonce::try_assume_unique_for_key(nonce).map_err(|_| bad())?;
        let mut data = rest.to_vec();
        let plain = self
            .key
            .open_in_place(nonce, aead::Aad::empty(), &mut data)
            .map_err(|_| bad())?;
        String::from_utf8(plain.to_vec()).map_err(|_| bad())
    }
}

impl std::fmt::Debug for SecretBox {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SecretBox(..)")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_have_the_documented_shape_and_survive_sealing() {
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
