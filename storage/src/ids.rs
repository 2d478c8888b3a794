//! Prefixed, sortable, random ids: `doc_01JD...`. The body is a ULID (48 bits of milliseconds,
//! 80 random bits, Crockford base32), so ids sort by creation time and keyset pagination on
//! the id lists newest first. Within one millisecond a process increments the random part, so
//! its ids stay strictly increasing.

use std::sync::Mutex;

use ring::rand::{SecureRandom, SystemRandom};

const CROCKFORD: &[u8; 32] = b"0123456789ABCDEFGHJKMNPQRSTVWXYZ";

static LAST: Mutex<(u64, u128)> = Mutex::new((0, 0));

pub fn new_id(prefix: &str) -> String {
    let ms = crate::clock::now_ms() as u64;
    let fresh = random80();
    let (ms, rand) = {
        let mut last = LAST.lock().unwrap_or_else(|p| p.into_inner());
        let next = if ms > last.0 {
            (ms, fresh)
        } else if last.1 + 1 < (1u128 << 80) {
            (last.0, last.1 + 1)
        } else {
            (last.0 + 1, fresh)
        };
        *last = next;
        next
    };
    let value: u128 = ((ms as u128) << 80) | rand;
    let mut out = String::with_capacity(prefix.len() + 27);
    out.push_str(prefix);
    out.push('_');
    for i in (0..26).rev() {
        out.push(CROCKFORD[((value >> (i * 5)) & 31) as usize] as char);
    }
    out
}

thread_local! {
    /// Bytes from the system's generator, taken 10 at a time: one system call per 51 ids
    /// instead of one per id.
    static POOL: std::cell::RefCell<([u8; 510], usize)> = const { std::cell::RefCell::new(([0; 510], 510)) };
}

/// 80 fresh random bits from the system's generator.
fn random80() -> u128 {
    POOL.with(|pool| {
        let (bytes, used) = &mut *pool.borrow_mut();
        if *used == bytes.len() {
            // The system RNG failing is not survivable; zeroes would break uniqueness.
            SystemRandom::new()
                .fill(bytes)
                .unwrap_or_else(|_| panic!("system random number generator failed"));
            *used = 0;
        }
        let out = bytes[*used..*used + 10]
            .iter()
            .fold(0u128, |acc, b| (acc << 8) | *b as u128);
        // Spent bytes are wiped, so nothing handed out stays in memory to be read back.
        bytes[*used..*used + 10].fill(0);
        *used += 10;
        out
    })
}

/// Lower-case hexadecimal of `bytes` (hashes, fingerprints), without an allocation per byte.
/// The SHA-256 of `bytes`, as lowercase hex.
pub fn sha256_hex(bytes: &[u8]) -> String {
    hex(ring::digest::digest(&ring::digest::SHA256, bytes).as_ref())
}

pub fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut out = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        out.push(DIGITS[(b >> 4) as usize] as char);
        out.push(DIGITS[(b & 15) as usize] as char);
    }
    out
}

/// True when `s` looks like an id with `prefix` (cheap check before a lookup).
pub fn has_shape(s: &str, prefix: &str) -> bool {
    s.strip_prefix(prefix)
        .and_then(|r| r.strip_prefix('_'))
        .is_some_and(|body| body.len() == 26 && body.bytes().all(|b| CROCKFORD.contains(&b)))
}

/// An id of one kind of thing, typed so that a document's id cannot be passed where a
/// person's is meant. It is the prefixed text (`doc_01JD...`) and reads as `&str` anywhere a
/// text is taken; it is written and read as that text (JSON, SQL).
#[macro_export]
macro_rules! typed_id {
    ($(#[$doc:meta])* $name:ident, $prefix:literal) => {
        $(#[$doc])*
        #[derive(
            Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash,
            serde::Serialize, serde::Deserialize,
        )]
        #[serde(transparent)]
        pub struct $name(String);

        impl $name {
            /// Its prefix, before the `_`.
            pub const PREFIX: &'static str = $prefix;

            /// A new id of this kind.
            pub fn new() -> $name {
                $name($crate::ids::new_id($prefix))
            }

            pub fn as_str(&self) -> &str {
                &self.0
            }

            pub fn into_string(self) -> String {
                self.0
            }
        }

        /// An id as stored or as a caller named it.
        impl From<String> for $name {
            fn from(s: String) -> $name {
                $name(s)
            }
        }

        impl From<&str> for $name {
            fn from(s: &str) -> $name {
                $name(s.to_string())
            }
        }

        impl From<$name> for String {
            fn from(id: $name) -> String {
                id.0
            }
        }

        impl From<$name> for $crate::sea_orm::Value {
            fn from(id: $name) -> $crate::sea_orm::Value {
                id.0.into()
            }
        }

        impl From<&$name> for $crate::sea_orm::Value {
            fn from(id: &$name) -> $crate::sea_orm::Value {
                id.0.clone().into()
            }
        }

        impl std::ops::Deref for $name {
            type Target = str;
            fn deref(&self) -> &str {
                &self.0
            }
        }

        impl AsRef<str> for $name {
            fn as_ref(&self) -> &str {
                &self.0
            }
        }

        impl std::borrow::Borrow<str> for $name {
            fn borrow(&self) -> &str {
                &self.0
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(&self.0)
            }
        }

        impl PartialEq<str> for $name {
            fn eq(&self, other: &str) -> bool {
                self.0 == other
            }
        }

        impl PartialEq<&str> for $name {
            fn eq(&self, other: &&str) -> bool {
                self.0 == *other
            }
        }

        impl PartialEq<String> for $name {
            fn eq(&self, other: &String) -> bool {
                &self.0 == other
            }
        }

        impl PartialEq<$name> for str {
            fn eq(&self, other: &$name) -> bool {
                self == other.0
            }
        }

        impl PartialEq<$name> for &str {
            fn eq(&self, other: &$name) -> bool {
                *self == other.0
            }
        }

        impl PartialEq<$name> for String {
            fn eq(&self, other: &$name) -> bool {
                *self == other.0
            }
        }
    };
}

typed_id!(
    /// A document's id: `doc_...`.
    DocumentId,
    "doc"
);
typed_id!(
    /// A person's id (one seat of one document): `per_...`.
    PersonId,
    "per"
);
typed_id!(
    /// A workspace's id: `wsp_...`.
    WorkspaceId,
    "wsp"
);
typed_id!(
    /// A webhook endpoint's id: `wh_...`.
    EndpointId,
    "wh"
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_typed_id_is_its_prefixed_text_and_only_its_own_kind() {
        let d = DocumentId::new();
        assert!(d.starts_with("doc_"), "{d}");
        assert_eq!(d.len(), "doc_".len() + 26);
        assert!(PersonId::new().starts_with("per_"));
        // Written and read as the text itself.
        let json = serde_json::to_string(&d).expect("serialises");
        assert_eq!(json, format!("\"{d}\""));
        let back: DocumentId = serde_json::from_str(&json).expect("reads back");
        assert_eq!(back, d);
        let text: String = d.clone().into();
        assert!(back == d.as_str() && text == back);
        assert_eq!(
            sea_orm::Value::from(&d),
            sea_orm::Value::from(d.as_str().to_string())
        );
    }

    #[test]
    fn hex_is_two_lower_case_digits_a_byte() {
        assert_eq!(hex(&[0x00, 0x0f, 0xa5, 0xff]), "000fa5ff");
        assert_eq!(hex(&[]), "");
    }

    #[test]
    fn ids_are_prefixed_and_strictly_increasing() {
        let ids: Vec<String> = (0..2000).map(|_| new_id("doc")).collect();
        assert!(ids.iter().all(|id| has_shape(id, "doc")));
        assert!(
            ids.windows(2).all(|w| w[0] < w[1]),
            "ids must sort in creation order"
        );
    }
}
