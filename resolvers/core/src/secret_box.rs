//! Secrets kept at rest (webhook signing secrets, stored answers that show one): sealed with
//! ChaCha20-Poly1305 under a key derived from the server secret, so a copy of the database
//! alone does not reveal them.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use ring::aead::{self, CHACHA20_POLY1305, LessSafeKey, Nonce, UnboundKey};
use ring::hmac;
use ring::rand::{SecureRandom, SystemRandom};

use crate::DomainError;

const SEALED_TAG: &str = "s1:";

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
