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

#[cfg(test)]
mod tests {
    use super::*;

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
