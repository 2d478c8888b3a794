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
        if !asn1::well_formed(response) {
            return Err(bad("the answer is not a well-formed TimeStampResp"));
        }
        let (status, text, token) = yasna::parse_ber(response, |r| {
            r.read_sequence(|r| {
                let (status, text) = r.next().read_sequence(|r| {
                    let status = r.next().read_i64()?;
                    // statusString: UTF8String as RFC 3161 says; anything else is left unread.
                    let text = r.read_optional(|r| {
                        let mut words = Vec::new();
                        r.read_sequence_of(|r| {
                            let raw = r.read_der()?;
                            if let Ok(w) = yasna::parse_der(&raw, |r| r.read_utf8string()) {
                                words.push(w);
                            }
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
        let signed = signed_data(&token)?;
        signed.verify()?;
        let (alg, imprint, nonce) = tst_info(&signed.content)?;
        if alg != asn1::SHA256 {
            return Err(bad("the token's imprint is not SHA-256"));
        }
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

/// What a token's SignedData holds, as far as checking it needs.
struct SignedToken {
    certs: Vec<Vec<u8>>,
    content_type: Vec<u64>,
    /// The encapsulated TSTInfo.
    content: Vec<u8>,
    /// The first SignerInfo, as DER.
    signer_info: Vec<u8>,
}

/// Reads a token's SignedData.
fn signed_data(token: &[u8]) -> Result<SignedToken, SealError> {
    if !asn1::well_formed(token) {
        return Err(bad("the token is not well-formed DER"));
    }
    let parsed = yasna::parse_ber(token, |r| {
        r.read_sequence(|r| {
            let outer = r.next().read_oid()?;
            if outer.components().as_slice() != asn1::SIGNED_DATA {
                return Err(yasna::ASN1Error::new(yasna::ASN1ErrorKind::Invalid));
            }
            r.next().read_tagged(Tag::context(0), |r| {
                r.read_sequence(|r| {
                    r.next().read_u8()?;
                    r.next().read_der()?;
                    let (content_type, content) = r.next().read_sequence(|r| {
                        let ty = r.next().read_oid()?;
                        let content = r.next().read_tagged(Tag::context(0), |r| r.read_bytes())?;
                        Ok((ty.components().to_vec(), content))
                    })?;
                    // certificates [0], crls [1], then the SET of signer infos: told apart by
                    // their tags.
                    let mut rest = Vec::new();
                    while let Some(e) = r.read_optional(|r| r.read_der())? {
                        rest.push(e);
                    }
                    let set_of = |raw: &[u8]| -> yasna::ASN1Result<Vec<Vec<u8>>> {
                        let mut as_set = raw.to_vec();
                        as_set[0] = 0x31;
                        let mut items = Vec::new();
                        yasna::parse_ber(&as_set, |r| {
                            r.read_set_of(|r| {
                                items.push(r.read_der()?);
                                Ok(())
                            })
                        })?;
                        Ok(items)
                    };
                    let mut certs = Vec::new();
                    let mut signer_infos = Vec::new();
                    for e in &rest {
                        match e.first() {
                            Some(0xa0) => certs = set_of(e)?,
                            Some(0x31) => signer_infos = set_of(e)?,
                            _ => {}
                        }
                    }
                    Ok(SignedToken {
                        certs,
                        content_type,
                        content,
                        signer_info: signer_infos.into_iter().next().unwrap_or_default(),
                    })
                })
            })
        })
    });
    parsed.map_err(|e| bad(format!("the token is not a CMS SignedData: {e}")))
}

impl SignedToken {
    /// Checks that the token is a TSTInfo signed by the certificate it names: the content
    /// type, the SHA-256 message digest of the TSTInfo in the signed attributes, and the
    /// signature over those attributes (ECDSA P-256 or RSA, with SHA-256).
    fn verify(&self) -> Result<(), SealError> {
        use ring::signature::{
            ECDSA_P256_SHA256_ASN1, RSA_PKCS1_2048_8192_SHA256, UnparsedPublicKey,
            VerificationAlgorithm,
        };
        if self.content_type != asn1::TST_INFO {
            return Err(bad("the token does not hold a TSTInfo"));
        }
        struct Info {
            issuer: Vec<u8>,
            serial: Vec<u8>,
            digest_alg: Vec<u64>,
            attrs: Vec<u8>,
            sig_alg: Vec<u64>,
            signature: Vec<u8>,
        }
        let info = yasna::parse_ber(&self.signer_info, |r| {
            r.read_sequence(|r| {
                r.next().read_u8()?;
                let (issuer, serial) = r.next().read_sequence(|r| {
                    let issuer = r.next().read_der()?;
                    Ok((issuer, r.next().read_bigint_bytes()?.0))
                })?;
                let digest_alg = read_alg(r.next())?;
                let attrs = r.next().read_der()?;
                let sig_alg = read_alg(r.next())?;
                let signature = r.next().read_bytes()?;
                while r.read_optional(|r| r.read_der())?.is_some() {}
                Ok(Info {
                    issuer,
                    serial,
                    digest_alg,
                    attrs,
                    sig_alg,
                    signature,
                })
            })
        })
        .map_err(|e| bad(format!("the token's signer cannot be read: {e}")))?;
        if info.digest_alg != asn1::SHA256 {
            return Err(bad("the token is not signed with SHA-256"));
        }
        // The signature covers the attributes as an explicit SET (RFC 5652 5.4).
        if info.attrs.first() != Some(&0xa0) {
            return Err(bad("the token has no signed attributes"));
        }
        let mut signed = info.attrs.clone();
        signed[0] = 0x31;
        let mut digest = None;
        yasna::parse_ber(&signed, |r| {
            r.read_set_of(|r| {
                r.read_sequence(|r| {
                    let oid = r.next().read_oid()?;
                    let mut values = Vec::new();
                    r.next().read_set_of(|r| {
                        values.push(r.read_der()?);
                        Ok(())
                    })?;
                    if oid.components().as_slice() == asn1::MESSAGE_DIGEST
                        && let Some(v) = values.first()
                    {
                        digest = yasna::parse_der(v, |r| r.read_bytes()).ok();
                    }
                    Ok(())
                })
            })
        })
        .map_err(|e| bad(format!("the token's signed attributes cannot be read: {e}")))?;
        let want = ring::digest::digest(&ring::digest::SHA256, &self.content);
        if digest.as_deref() != Some(want.as_ref()) {
            return Err(bad("the token's message digest does not match its TSTInfo"));
        }
        let cert = self
            .certs
            .iter()
            .filter_map(|c| asn1::CertInfo::parse(c).ok())
            .find(|c| c.issuer == info.issuer && strip(&c.serial) == strip(&info.serial))
            .ok_or_else(|| bad("the token does not carry its signer's certificate"))?;
        let alg: &'static dyn VerificationAlgorithm = match info.sig_alg.as_slice() {
            a if a == asn1::ECDSA_SHA256 => &ECDSA_P256_SHA256_ASN1,
            a if a == asn1::SHA256_WITH_RSA || a == asn1::RSA_ENCRYPTION => {
                &RSA_PKCS1_2048_8192_SHA256
            }
            _ => return Err(bad("the token's signature algorithm is not supported")),
        };
        UnparsedPublicKey::new(alg, &cert.public_key)
            .verify(&signed, &info.signature)
            .map_err(|_| bad("the token's signature does not verify"))
    }
}

/// The imprint's algorithm and digest, and the nonce, of a token's TSTInfo.
#[allow(clippy::type_complexity)]
fn tst_info(content: &[u8]) -> Result<(Vec<u64>, Vec<u8>, Option<Vec<u8>>), SealError> {
    if !asn1::well_formed(content) {
        return Err(bad("the token's TSTInfo is not well-formed DER"));
    }
    yasna::parse_ber(content, |r| {
        r.read_sequence(|r| {
            r.next().read_u8()?;
            // The policy may have arcs wider than 64 bits (2.25...): kept as DER.
            r.next().read_der()?;
            let (alg, imprint) = r.next().read_sequence(|r| {
                let alg = read_alg(r.next())?;
                Ok((alg, r.next().read_bytes()?))
            })?;
            r.next().read_der()?;
            r.next().read_der()?;
            r.read_optional(|r| r.read_sequence(skip_rest))?;
            r.read_optional(|r| r.read_bool())?;
            let nonce = r.read_optional(|r| r.read_bigint_bytes())?.map(|(b, _)| b);
            while r.read_optional(|r| r.read_der())?.is_some() {}
            Ok((alg, imprint, nonce))
        })
    })
    .map_err(|e| bad(format!("the token's TSTInfo cannot be read: {e}")))
}

/// An AlgorithmIdentifier's OID (parameters absent or NULL).
fn read_alg(r: BERReader<'_, '_>) -> yasna::ASN1Result<Vec<u64>> {
    r.read_sequence(|r| {
        let oid = r.next().read_oid()?;
        r.read_optional(|r| r.read_null())?;
        Ok(oid.components().to_vec())
    })
}

fn skip_rest(r: &mut yasna::BERReaderSeq<'_, '_>) -> yasna::ASN1Result<()> {
    while r.read_optional(|r: BERReader| r.read_der())?.is_some() {}
    Ok(())
}

/// The certificates a token carries, for the DSS.
pub fn token_certificates(token: &[u8]) -> Vec<Vec<u8>> {
    signed_data(token).map(|t| t.certs).unwrap_or_default()
}
