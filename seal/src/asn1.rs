//! The few ASN.1 pieces CMS, RFC 3161 and CRLs need, written and read with yasna. Names and
//! certificates travel as their raw DER so that what we sign is byte for byte what verifiers
//! hash.

use chrono::{DateTime, Utc};
use yasna::models::ObjectIdentifier;
use yasna::{DERWriter, Tag};

use crate::SealError;

pub const SHA256: &[u64] = &[2, 16, 840, 1, 101, 3, 4, 2, 1];
pub const ECDSA_SHA256: &[u64] = &[1, 2, 840, 10045, 4, 3, 2];
pub const SHA256_WITH_RSA: &[u64] = &[1, 2, 840, 113549, 1, 1, 11];
pub const RSA_ENCRYPTION: &[u64] = &[1, 2, 840, 113549, 1, 1, 1];
pub const DATA: &[u64] = &[1, 2, 840, 113549, 1, 7, 1];
pub const SIGNED_DATA: &[u64] = &[1, 2, 840, 113549, 1, 7, 2];
pub const CONTENT_TYPE: &[u64] = &[1, 2, 840, 113549, 1, 9, 3];
pub const MESSAGE_DIGEST: &[u64] = &[1, 2, 840, 113549, 1, 9, 4];
pub const SIGNING_CERTIFICATE_V2: &[u64] = &[1, 2, 840, 113549, 1, 9, 16, 2, 47];
pub const SIGNATURE_TIME_STAMP: &[u64] = &[1, 2, 840, 113549, 1, 9, 16, 2, 14];
pub const TST_INFO: &[u64] = &[1, 2, 840, 113549, 1, 9, 16, 1, 4];
pub const AUTHORITY_KEY_ID: &[u64] = &[2, 5, 29, 35];
pub const CRL_NUMBER: &[u64] = &[2, 5, 29, 20];
pub const EXT_KEY_USAGE: &[u64] = &[2, 5, 29, 37];
pub const KP_TIME_STAMPING: &[u64] = &[1, 3, 6, 1, 5, 5, 7, 3, 8];
/// Our time-stamp policy: an OID under the UUID arc 2.25 (ITU-T X.667), which needs no
/// registration. 2.25.<the decimal value of a random UUID>.
pub const TSA_POLICY: &str = "2.25.183951302871604412437127302930152370781";

/// `N` random bytes; `positive` makes them a positive INTEGER of exactly `N` bytes (serials,
/// nonces).
pub fn random<const N: usize>(positive: bool) -> Result<[u8; N], SealError> {
    use ring::rand::SecureRandom;
    let mut b = [0u8; N];
    ring::rand::SystemRandom::new()
        .fill(&mut b)
        .map_err(|_| SealError::Key("the system has no randomness to give".into()))?;
    if positive && N > 0 {
        b[0] &= 0x7f;
        b[0] |= 0x01;
    }
    Ok(b)
}

pub fn oid(arcs: &[u64]) -> ObjectIdentifier {
    ObjectIdentifier::from_slice(arcs)
}

/// The DER of an OID given in dotted form, for arcs larger than 64 bits (the 2.25 arc).
pub fn oid_der(dotted: &str) -> Vec<u8> {
    let arcs: Vec<u128> = dotted.split('.').filter_map(|a| a.parse().ok()).collect();
    let mut body = Vec::new();
    let first = arcs.first().copied().unwrap_or(0) * 40 + arcs.get(1).copied().unwrap_or(0);
    for arc in std::iter::once(first).chain(arcs.iter().skip(2).copied()) {
        let mut chunk = vec![(arc & 0x7f) as u8];
        let mut rest = arc >> 7;
        while rest > 0 {
            chunk.push(((rest & 0x7f) as u8) | 0x80);
            rest >>= 7;
        }
        chunk.reverse();
        body.extend(chunk);
    }
    tlv(0x06, &body)
}

/// Whether `b` is exactly one BER element whose every length fits inside its parent, at most
/// 64 levels deep. Untrusted input (time-stamp requests, external authorities' answers) is
/// checked with this before yasna reads it: yasna 0.6 adds lengths to its position without
/// checking for overflow, and a crafted length can make it loop.
pub fn well_formed(b: &[u8]) -> bool {
    fn element(b: &[u8], depth: usize) -> Option<usize> {
        if depth > 64 {
            return None;
        }
        let tag = *b.first()?;
        let mut i = 1;
        if tag & 0x1f == 0x1f {
            loop {
                let t = *b.get(i)?;
                i += 1;
                if t & 0x80 == 0 {
                    break;
                }
                if i > 5 {
                    return None;
                }
            }
        }
        let constructed = tag & 0x20 != 0;
        let first = *b.get(i)?;
        i += 1;
        if first == 0x80 {
            // Indefinite length: children up to an end-of-contents marker.
            if !constructed {
                return None;
            }
            loop {
                if b.get(i..i + 2)? == [0, 0] {
                    return Some(i + 2);
                }
                i = i.checked_add(element(b.get(i..)?, depth + 1)?)?;
            }
        }
        let len = if first < 0x80 {
            first as usize
        } else {
            let n = (first & 0x7f) as usize;
            if n > 4 {
                return None;
            }
            let mut v = 0usize;
            for _ in 0..n {
                v = (v << 8) | *b.get(i)? as usize;
                i += 1;
            }
            v
        };
        let end = i.checked_add(len)?;
        if end > b.len() {
            return None;
        }
        if constructed {
            let mut j = i;
            while j < end {
                j = j.checked_add(element(&b[j..end], depth + 1)?)?;
            }
        }
        Some(end)
    }
    element(b, 0) == Some(b.len())
}

/// A tag-length-value with a one-byte tag.
pub fn tlv(tag: u8, body: &[u8]) -> Vec<u8> {
    let mut out = vec![tag];
    let n = body.len();
    if n < 0x80 {
        out.push(n as u8);
    } else {
        let bytes: Vec<u8> = n
            .to_be_bytes()
            .into_iter()
            .skip_while(|b| *b == 0)
            .collect();
        out.push(0x80 | bytes.len() as u8);
        out.extend(bytes);
    }
    out.extend_from_slice(body);
    out
}

/// AlgorithmIdentifier with absent parameters (RFC 5754 for SHA-2, RFC 5758 for ECDSA).
pub fn write_alg(w: DERWriter, arcs: &[u64]) {
    w.write_sequence(|w| w.next().write_oid(&oid(arcs)));
}

/// GeneralizedTime in UTC with milliseconds, as RFC 3161 allows for genTime.
pub fn generalized_time(t: DateTime<Utc>, fraction: bool) -> Vec<u8> {
    let s = if fraction {
        let mut s = t.format("%Y%m%d%H%M%S%.3f").to_string();
        while s.ends_with('0') {
            s.pop();
        }
        if s.ends_with('.') {
            s.pop();
        }
        s
    } else {
        t.format("%Y%m%d%H%M%S").to_string()
    };
    tlv(0x18, format!("{s}Z").as_bytes())
}

/// A certificate or CRL time as RFC 5280 asks: UTCTime before 2050, GeneralizedTime after.
pub fn utc_time(t: DateTime<Utc>) -> Vec<u8> {
    use chrono::Datelike;
    if t.year() < 2050 {
        tlv(0x17, t.format("%y%m%d%H%M%SZ").to_string().as_bytes())
    } else {
        generalized_time(t, false)
    }
}

/// What CMS needs of a certificate: its issuer and subject names (raw DER) and its serial.
#[derive(Clone, Debug)]
pub struct CertInfo {
    pub der: Vec<u8>,
    pub issuer: Vec<u8>,
    pub subject: Vec<u8>,
    pub serial: Vec<u8>,
    /// The subjectPublicKey bits: an EC point, or an RSAPublicKey.
    pub public_key: Vec<u8>,
}

impl CertInfo {
    pub fn parse(der: &[u8]) -> Result<CertInfo, SealError> {
        if !well_formed(der) {
            return Err(SealError::Certificate(
                "not a well-formed DER element".into(),
            ));
        }
        let (issuer, subject, serial, public_key) = yasna::parse_der(der, |r| {
            r.read_sequence(|r| {
                let tbs = r.next().read_sequence(|r| {
                    r.read_optional(|r| r.read_tagged(Tag::context(0), |r| r.read_i64()))?;
                    let (serial, _) = r.next().read_bigint_bytes()?;
                    r.next().read_der()?;
                    let issuer = r.next().read_der()?;
                    r.next().read_der()?;
                    let subject = r.next().read_der()?;
                    let public_key = r.next().read_sequence(|r| {
                        r.next().read_der()?;
                        Ok(r.next().read_bitvec_bytes()?.0)
                    })?;
                    while r.read_optional(|r| r.read_der())?.is_some() {}
                    Ok((issuer, subject, serial, public_key))
                })?;
                r.next().read_der()?;
                r.next().read_der()?;
                Ok(tbs)
            })
        })
        .map_err(|e| SealError::Certificate(format!("not an X.509 certificate: {e}")))?;
        Ok(CertInfo {
            der: der.to_vec(),
            issuer,
            subject,
            serial,
            public_key,
        })
    }

    /// IssuerAndSerialNumber (CMS SignerIdentifier).
    pub fn write_issuer_serial(&self, w: DERWriter) {
        w.write_sequence(|w| {
            w.next().write_der(&self.issuer);
            w.next().write_bigint_bytes(&self.serial, true);
        });
    }

    /// The signing-certificate-v2 attribute value (RFC 5035): the SHA-256 of this
    /// certificate and its issuer and serial, so no other certificate can be swapped in.
    pub fn write_signing_certificate_v2(&self, w: DERWriter) {
        let hash = ring::digest::digest(&ring::digest::SHA256, &self.der);
        w.write_sequence(|w| {
            w.next().write_sequence(|w| {
                w.next().write_sequence(|w| {
                    // hashAlgorithm is left out: its DEFAULT is SHA-256.
                    w.next().write_bytes(hash.as_ref());
                    w.next().write_sequence(|w| {
                        w.next().write_sequence(|w| {
                            w.next()
                                .write_tagged(Tag::context(4), |w| w.write_der(&self.issuer));
                        });
                        w.next().write_bigint_bytes(&self.serial, true);
                    });
                });
            });
        });
    }
}

pub fn pem_to_der(pem: &str, label: &str) -> Result<Vec<u8>, SealError> {
    use base64::Engine;
    let begin = format!("-----BEGIN {label}-----");
    let end = format!("-----END {label}-----");
    let start = pem
        .find(&begin)
        .ok_or_else(|| SealError::Certificate(format!("no {label} in PEM")))?;
    let stop = pem[start..]
        .find(&end)
        .ok_or_else(|| SealError::Certificate(format!("unterminated {label} in PEM")))?;
    let body: String = pem[start + begin.len()..start + stop]
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect();
    base64::engine::general_purpose::STANDARD
        .decode(body)
        .map_err(|e| SealError::Certificate(format!("{label}: {e}")))
}

pub fn der_to_pem(der: &[u8], label: &str) -> String {
    use base64::Engine;
    let b64 = base64::engine::general_purpose::STANDARD.encode(der);
    let mut out = format!("-----BEGIN {label}-----\n");
    for line in b64.as_bytes().chunks(64) {
        out.push_str(&String::from_utf8_lossy(line));
        out.push('\n');
    }
    out.push_str(&format!("-----END {label}-----\n"));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn oid_der_matches_yasna_for_small_arcs() {
        let ours = oid_der("1.2.840.113549.1.9.16.2.47");
        let theirs = yasna::construct_der(|w| w.write_oid(&oid(SIGNING_CERTIFICATE_V2)));
        assert_eq!(ours, theirs);
        // The 128-bit arc parses back as an OID.
        let policy = oid_der(TSA_POLICY);
        assert_eq!(policy[0], 0x06);
        assert_eq!(policy[1] as usize, policy.len() - 2);
    }

    #[test]
    fn lengths_that_overflow_or_overrun_are_refused_before_parsing() {
        // A crafted request that makes yasna 0.6 loop: the length wraps its position.
        let crafted = [
            0x30, 0x80, 0x02, 0x01, 0x01, 0x30, 0x80, 0x30, 0x80, 0x04, 0x88, 0xff, 0xff, 0xff,
            0xff, 0xff, 0xff, 0xff, 0xf6,
        ];
        assert!(!well_formed(&crafted));
        assert!(!well_formed(&[0x04, 0x05, 1, 2]), "overruns its parent");
        assert!(!well_formed(&[0x04, 0x80, 0, 0]), "indefinite primitive");
        assert!(!well_formed(&[0x30, 0x00, 0x00]), "trailing bytes");
        assert!(
            well_formed(&[0x30, 0x80, 0x02, 0x01, 0x01, 0x00, 0x00]),
            "BER indefinite"
        );
        let der = yasna::construct_der(|w| {
            w.write_sequence(|w| {
                w.next().write_bytes(&[7u8; 300]);
                w.next().write_u8(1);
            })
        });
        assert!(well_formed(&der));
        let mut deep = vec![0x04, 0x00];
        for _ in 0..70 {
            deep = tlv(0x30, &deep);
        }
        assert!(!well_formed(&deep), "too deep");
    }

    #[test]
    fn long_lengths_use_the_long_form() {
        let v = tlv(0x04, &[0u8; 300]);
        assert_eq!(&v[..4], &[0x04, 0x82, 0x01, 0x2c]);
    }
}
