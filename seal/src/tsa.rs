//! The built-in RFC 3161 time-stamp authority: tokens for our own signatures and document
//! time stamps, and answers to time-stamp requests from anyone (`POST /tsa`).

use chrono::{DateTime, Utc};

use crate::SealError;
use crate::asn1;
use crate::cms::{self, Content, Signer};

const SHA384: &[u64] = &[2, 16, 840, 1, 101, 3, 4, 2, 2];
const SHA512: &[u64] = &[2, 16, 840, 1, 101, 3, 4, 2, 3];

pub struct Tsa {
    pub(crate) signer: Signer,
}

/// What a client asked for, read from a TimeStampReq.
struct Request {
    alg: Vec<u64>,
    /// The AlgorithmIdentifier as sent, echoed in the token.
    alg_der: Vec<u8>,
    imprint: Vec<u8>,
    /// DER of the policy OID and of the nonce INTEGER, as sent.
    policy: Option<Vec<u8>>,
    nonce: Option<Vec<u8>>,
    cert_req: bool,
    extensions: bool,
}

impl Tsa {
    /// A time-stamp token (a ContentInfo) over a SHA-256 digest, with the TSA's certificate
    /// and chain embedded, as PAdES wants.
    pub fn token(&self, sha256: &[u8], now: DateTime<Utc>) -> Result<Vec<u8>, SealError> {
        let alg = yasna::construct_der(|w| asn1::write_alg(w, asn1::SHA256));
        self.token_for(&alg, sha256, None, true, now)
    }

    /// `alg` is the AlgorithmIdentifier's DER and `nonce` the INTEGER's DER.
    fn token_for(
        &self,
        alg: &[u8],
        imprint: &[u8],
        nonce: Option<&[u8]>,
        with_certificates: bool,
        now: DateTime<Utc>,
    ) -> Result<Vec<u8>, SealError> {
        let serial = asn1::random::<16>(true)?;
        let policy = asn1::oid_der(asn1::TSA_POLICY);
        let gen_time = asn1::generalized_time(now, true);
        let tst_info = yasna::construct_der(|w| {
            w.write_sequence(|w| {
                w.next().write_u8(1);
                w.next().write_der(&policy);
                w.next().write_sequence(|w| {
                    w.next().write_der(alg);
                    w.next().write_bytes(imprint);
                });
                w.next().write_bigint_bytes(&serial, true);
                w.next().write_der(&gen_time);
                // accuracy: the clock is the machine's, good to a second.
                w.next().write_sequence(|w| w.next().write_u8(1));
                if let Some(n) = nonce {
                    w.next().write_der(n);
                }
            })
        });
        let digest = ring::digest::digest(&ring::digest::SHA256, &tst_info);
        cms::signed_data(
            &self.signer,
            &Content {
                content_type: asn1::TST_INFO,
                encapsulated: Some(&tst_info),
                digest: digest.as_ref(),
                with_certificates,
            },
            |_| Ok(None),
        )
    }

    /// Answers a DER TimeStampReq with a DER TimeStampResp: granted with a token, or
    /// rejected with the failure bit RFC 3161 names.
    pub fn respond(&self, request: &[u8], now: DateTime<Utc>) -> Vec<u8> {
        let req = match parse_request(request) {
            Ok(r) => r,
            Err(_) => return rejection(5, "not a DER TimeStampReq"),
        };
        let want = match req.alg.as_slice() {
            a if a == asn1::SHA256 => 32,
            a if a == SHA384 => 48,
            a if a == SHA512 => 64,
            _ => return rejection(0, "the hash algorithm must be SHA-256, SHA-384 or SHA-512"),
        };
        if req.imprint.len() != want {
            return rejection(
                2,
                "the message imprint has the wrong length for its algorithm",
            );
        }
        if req
            .policy
            .as_ref()
            .is_some_and(|p| *p != asn1::oid_der(asn1::TSA_POLICY))
        {
            return rejection(15, "this authority issues tokens under its own policy only");
        }
        if req.extensions {
            return rejection(16, "this authority accepts no request extensions");
        }
        match self.token_for(
            &req.alg_der,
            &req.imprint,
            req.nonce.as_deref(),
            req.cert_req,
            now,
        ) {
            Ok(token) => yasna::construct_der(|w| {
                w.write_sequence(|w| {
                    w.next().write_sequence(|w| w.next().write_u8(0));
                    w.next().write_der(&token);
                })
            }),
            Err(_) => rejection(25, "the authority could not sign"),
        }
    }
}

/// Reads a TimeStampReq (BER accepted). The fields after the imprint are told apart by their
/// tags and kept as DER, so a 2.25 policy (arcs wider than 64 bits) and the nonce go back
/// exactly as they came.
fn parse_request(der: &[u8]) -> Result<Request, yasna::ASN1Error> {
    let invalid = || yasna::ASN1Error::new(yasna::ASN1ErrorKind::Invalid);
    if !asn1::well_formed(der) {
        return Err(invalid());
    }
    let (alg_der, imprint, rest) = yasna::parse_ber(der, |r| {
        r.read_sequence(|r| {
            if r.next().read_u8()? != 1 {
                return Err(invalid());
            }
            let (alg_der, imprint) = r
                .next()
                .read_sequence(|r| Ok((r.next().read_der()?, r.next().read_bytes()?)))?;
            let mut rest = Vec::new();
            while let Some(field) = r.read_optional(|r| r.read_der())? {
                rest.push(field);
            }
            Ok((alg_der, imprint, rest))
        })
    })?;
    let (alg, null) = yasna::parse_ber(&alg_der, |r| {
        r.read_sequence(|r| {
            let oid = r.next().read_oid()?;
            let null = r.read_optional(|r| r.read_null())?.is_some();
            Ok((oid.components().to_vec(), null))
        })
    })?;
    // Echoed in the token as DER, with the NULL parameters only if the request had them.
    let alg_der = yasna::construct_der(|w| {
        w.write_sequence(|w| {
            w.next().write_oid(&asn1::oid(&alg));
            if null {
                w.next().write_null();
            }
        })
    });
    let mut req = Request {
        alg,
        alg_der,
        imprint,
        policy: None,
        nonce: None,
        cert_req: false,
        extensions: false,
    };
    for field in rest {
        match field.first() {
            Some(0x06) => req.policy = Some(field),
            Some(0x02) => {
                // Re-encoded as DER; RFC 3161 nonces are large random numbers, not kilobytes.
                let (n, positive) = yasna::parse_ber(&field, |r| r.read_bigint_bytes())?;
                if n.is_empty() || n.len() > 32 {
                    return Err(invalid());
                }
                req.nonce = Some(yasna::construct_der(|w| w.write_bigint_bytes(&n, positive)));
            }
            Some(0x01) => req.cert_req = yasna::parse_ber(&field, |r| r.read_bool())?,
            Some(0xa0) => req.extensions = true,
            _ => return Err(invalid()),
        }
    }
    Ok(req)
}

/// A rejection (status 2) with one PKIFailureInfo bit set.
fn rejection(bit: usize, text: &str) -> Vec<u8> {
    let mut bits = vec![0u8; bit / 8 + 1];
    bits[bit / 8] |= 0x80 >> (bit % 8);
    yasna::construct_der(|w| {
        w.write_sequence(|w| {
            w.next().write_sequence(|w| {
                w.next().write_u8(2);
                w.next()
                    .write_sequence(|w| w.next().write_utf8_string(text));
                w.next().write_bitvec_bytes(&bits, bit + 1);
            });
        })
    })
}

/// Where time stamps come from: the built-in authority, or an external one.
pub trait TimeStamper {
    /// An RFC 3161 token (a CMS ContentInfo) over a SHA-256 digest.
    fn stamp(&self, sha256: &[u8]) -> Result<Vec<u8>, SealError>;
}

impl TimeStamper for Tsa {
    fn stamp(&self, sha256: &[u8]) -> Result<Vec<u8>, SealError> {
        self.token(sha256, chrono::Utc::now())
    }
}

impl<T: TimeStamper + ?Sized> TimeStamper for &T {
    fn stamp(&self, sha256: &[u8]) -> Result<Vec<u8>, SealError> {
        (**self).stamp(sha256)
    }
}
