//! The built-in RFC 3161 time-stamp authority: tokens for our own signatures and document
//! time stamps, and answers to time-stamp requests from anyone (`POST /tsa`).

use chrono::{DateTime, Utc};
use ring::rand::{SecureRandom, SystemRandom};
use yasna::Tag;

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
    imprint: Vec<u8>,
    policy: Option<Vec<u64>>,
    nonce: Option<Vec<u8>>,
    cert_req: bool,
}

impl Tsa {
    /// A time-stamp token (a ContentInfo) over a SHA-256 digest, with the TSA's certificate
    /// and chain embedded, as PAdES wants.
    pub fn token(&self, sha256: &[u8], now: DateTime<Utc>) -> Result<Vec<u8>, SealError> {
        self.token_for(asn1::SHA256, sha256, None, true, now)
    }

    fn token_for(
        &self,
        alg: &[u64],
        imprint: &[u8],
        nonce: Option<&[u8]>,
        with_certificates: bool,
        now: DateTime<Utc>,
    ) -> Result<Vec<u8>, SealError> {
        let mut serial = [0u8; 16];
        SystemRandom::new()
            .fill(&mut serial)
            .map_err(|_| SealError::Key("no randomness for the serial".into()))?;
        serial[0] &= 0x7f;
        serial[0] |= 0x01;
        let policy = asn1::oid_der(asn1::TSA_POLICY);
        let gen_time = asn1::generalized_time(now, true);
        let tst_info = yasna::construct_der(|w| {
            w.write_sequence(|w| {
                w.next().write_u8(1);
                w.next().write_der(&policy);
                w.next().write_sequence(|w| {
                    asn1::write_alg(w.next(), alg);
                    w.next().write_bytes(imprint);
                });
                w.next().write_bigint_bytes(&serial, true);
                w.next().write_der(&gen_time);
                // accuracy: the clock is the machine's, good to a second.
                w.next().write_sequence(|w| w.next().write_u8(1));
                if let Some(n) = nonce {
                    w.next().write_bigint_bytes(n, true);
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
        if let Some(p) = &req.policy {
            let ours = asn1::oid_der(asn1::TSA_POLICY);
            let theirs = yasna::construct_der(|w| w.write_oid(&asn1::oid(p)));
            if ours != theirs {
                return rejection(15, "this authority issues tokens under its own policy only");
            }
        }
        match self.token_for(
            &req.alg,
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

fn parse_request(der: &[u8]) -> Result<Request, yasna::ASN1Error> {
    yasna::parse_der(der, |r| {
        r.read_sequence(|r| {
            let version = r.next().read_u8()?;
            if version != 1 {
                return Err(yasna::ASN1Error::new(yasna::ASN1ErrorKind::Invalid));
            }
            let (alg, imprint) = r.next().read_sequence(|r| {
                let alg = r.next().read_sequence(|r| {
                    let oid = r.next().read_oid()?;
                    r.read_optional(|r| r.read_null())?;
                    Ok(oid)
                })?;
                Ok((alg, r.next().read_bytes()?))
            })?;
            let policy = r.read_optional(|r| r.read_oid())?;
            let nonce = r.read_optional(|r| r.read_bigint_bytes())?.map(|(b, _)| b);
            let cert_req = r.read_default(false, |r| r.read_bool())?;
            r.read_optional(|r| r.read_tagged_implicit(Tag::context(0), |r| r.read_der()))?;
            Ok(Request {
                alg: alg.components().to_vec(),
                imprint,
                policy: policy.map(|p| p.components().to_vec()),
                nonce,
                cert_req,
            })
        })
    })
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
