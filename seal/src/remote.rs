//! Time stamps from an external RFC 3161 authority: the request we send and the checks on its
//! answer (granted, and the token's imprint and nonce are the ones we asked about). The HTTP
//! call belongs to the caller, which has the client and the timeouts; this crate does no I/O.

use yasna::{BERReader, Tag};

use crate::SealError;
use crate::asn1;

/// A time-stamp request on its way.
pub struct Pending {
    /// The DER `TimeStampReq` to POST as `application/timestamp-query`.
    pub body: Vec<u8>,
    sha256: Vec<u8>,
    nonce: Vec<u8>,
}

/// A request for a token over a SHA-256 digest, with a fresh nonce and the certificates asked
/// for (PAdES wants them in the token).
pub fn request(sha256: &[u8]) -> Result<Pending, SealError> {
    let nonce = asn1::random::<8>(true)?;
    let body = yasna::construct_der(|w| {
        w.write_sequence(|w| {
            w.next().write_u8(1);
            w.next().write_sequence(|w| {
                asn1::write_alg(w.next(), asn1::SHA256);
                w.next().write_bytes(sha256);
            });
            w.next().write_bigint_bytes(&nonce, true);
            w.next().write_bool(true);
        })
    });
    Ok(Pending {
        body,
        sha256: sha256.to_vec(),
        nonce: nonce.to_vec(),
    })
}

fn bad(m: impl std::fmt::Display) -> SealError {
    SealError::TimeStamp(m.to_string())
}

impl Pending {
    /// The token in a `TimeStampResp`, once it is checked to answer this request.
    pub fn token(&self, response: &[u8]) -> Result<Vec<u8>, SealError> {
        let (status, text, token) = yasna::parse_ber(response, |r| {
            r.read_sequence(|r| {
                let (status, text) = r.next().read_sequence(|r| {
                    let status = r.next().read_i64()?;
                    let text = r.read_optional(|r| {
                        let mut words = Vec::new();
                        r.read_sequence_of(|r| {
                            words.push(r.read_utf8string()?);
                            Ok(())
                        })?;
                        Ok(words.join(" "))
                    })?;
                    r.read_optional(|r| r.read_bitvec_bytes())?;
                    Ok((status, text))
                })?;
                let token = r.read_optional(|r| r.read_der())?;
                Ok((status, text, token))
            })
        })
        .map_err(|e| bad(format!("the answer is not a TimeStampResp: {e}")))?;
        // 0 granted, 1 granted with modifications; anything else is a refusal.
        let token = match (status, token) {
            (0 | 1, Some(t)) => t,
            _ => {
                return Err(bad(format!(
                    "the authority refused (status {status}{})",
                    text.map(|t| format!(": {t}")).unwrap_or_default()
                )));
            }
        };
        let (imprint, nonce) = tst_info(&token)?;
        if imprint != self.sha256 {
            return Err(bad("the token is for another digest"));
        }
        if strip(&nonce.unwrap_or_default()) != strip(&self.nonce) {
            return Err(bad("the token does not carry our nonce"));
        }
        Ok(token)
    }
}

fn strip(b: &[u8]) -> &[u8] {
    let zeros = b.iter().take_while(|x| **x == 0).count();
    &b[zeros..]
}

/// Reads a token's SignedData: the certificates it carries and its encapsulated content.
fn signed_data(token: &[u8]) -> Result<(Vec<Vec<u8>>, Vec<u8>), SealError> {
    yasna::parse_ber(token, |r| {
        r.read_sequence(|r| {
            r.next().read_oid()?;
            r.next().read_tagged(Tag::context(0), |r| {
                r.read_sequence(|r| {
                    r.next().read_u8()?;
                    r.next().read_der()?;
                    let content = r.next().read_sequence(|r| {
                        r.next().read_oid()?;
                        r.next().read_tagged(Tag::context(0), |r| r.read_bytes())
                    })?;
                    let mut certs = Vec::new();
                    r.read_optional(|r| {
                        r.read_tagged_implicit(Tag::context(0), |r| {
                            r.read_set_of(|r| {
                                certs.push(r.read_der()?);
                                Ok(())
                            })
                        })
                    })?;
                    while r.read_optional(|r| r.read_der())?.is_some() {}
                    Ok((certs, content))
                })
            })
        })
    })
    .map_err(|e| bad(format!("the token is not a CMS SignedData: {e}")))
}

/// The imprint and nonce of a token's TSTInfo.
fn tst_info(token: &[u8]) -> Result<(Vec<u8>, Option<Vec<u8>>), SealError> {
    let (_, content) = signed_data(token)?;
    yasna::parse_ber(&content, |r| {
        r.read_sequence(|r| {
            r.next().read_u8()?;
            // The policy may have arcs wider than 64 bits (2.25...): kept as DER.
            r.next().read_der()?;
            let imprint = r.next().read_sequence(|r| {
                r.next().read_der()?;
                r.next().read_bytes()
            })?;
            r.next().read_der()?;
            r.next().read_der()?;
            r.read_optional(|r| r.read_sequence(skip_rest))?;
            r.read_optional(|r| r.read_bool())?;
            let nonce = r.read_optional(|r| r.read_bigint_bytes())?.map(|(b, _)| b);
            while r.read_optional(|r| r.read_der())?.is_some() {}
            Ok((imprint, nonce))
        })
    })
    .map_err(|e| bad(format!("the token's TSTInfo cannot be read: {e}")))
}

fn skip_rest(r: &mut yasna::BERReaderSeq<'_, '_>) -> yasna::ASN1Result<()> {
    while r.read_optional(|r: BERReader| r.read_der())?.is_some() {}
    Ok(())
}

/// The certificates a token carries, for the DSS.
pub fn token_certificates(token: &[u8]) -> Vec<Vec<u8>> {
    signed_data(token).map(|(c, _)| c).unwrap_or_default()
}
