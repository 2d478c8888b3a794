//! CMS SignedData (RFC 5652) as CAdES and RFC 3161 need it: a detached or encapsulated
//! content, signed attributes with content type, message digest and signing-certificate-v2,
//! never a signingTime (PAdES takes the time from the signature time stamp), and optional
//! unsigned attributes made from the signature value (the signature time stamp).

use ring::rand::SystemRandom;
use ring::signature::{ECDSA_P256_SHA256_ASN1_SIGNING, EcdsaKeyPair, KeyPair};
use yasna::Tag;

use crate::SealError;
use crate::asn1::{self, CertInfo};

/// A key and its certificate, with the rest of its chain to embed beside it.
pub struct Signer {
    pub cert: CertInfo,
    /// Certificates other than `cert` that verifiers need to build the chain (the root).
    pub chain: Vec<Vec<u8>>,
    key: EcdsaKeyPair,
    rng: SystemRandom,
}

impl std::fmt::Debug for Signer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Never the key.
        f.debug_struct("Signer")
            .field("serial", &self.cert.serial)
            .finish_non_exhaustive()
    }
}

impl Signer {
    pub fn new(cert_der: &[u8], pkcs8: &[u8], chain: Vec<Vec<u8>>) -> Result<Signer, SealError> {
        let rng = SystemRandom::new();
        let key = EcdsaKeyPair::from_pkcs8(&ECDSA_P256_SHA256_ASN1_SIGNING, pkcs8, &rng)
            .map_err(|e| SealError::Key(format!("not a P-256 PKCS#8 key: {e}")))?;
        Ok(Signer {
            cert: CertInfo::parse(cert_der)?,
            chain,
            key,
            rng,
        })
    }

    /// ECDSA P-256 over SHA-256 of `msg`, DER-encoded (Ecdsa-Sig-Value).
    pub fn sign(&self, msg: &[u8]) -> Result<Vec<u8>, SealError> {
        self.key
            .sign(&self.rng, msg)
            .map(|s| s.as_ref().to_vec())
            .map_err(|_| SealError::Key("ECDSA signing failed".into()))
    }

    pub fn public_key(&self) -> &[u8] {
        self.key.public_key().as_ref()
    }
}

fn attribute(arcs: &[u64], value_der: &[u8]) -> Vec<u8> {
    yasna::construct_der(|w| {
        w.write_sequence(|w| {
            w.next().write_oid(&asn1::oid(arcs));
            w.next().write_set(|w| w.next().write_der(value_der));
        })
    })
}

/// DER's SET OF: the members sorted by their encodings.
fn set_of(tag: u8, mut members: Vec<Vec<u8>>) -> Vec<u8> {
    members.sort();
    asn1::tlv(tag, &members.concat())
}

/// What a SignedData is made of.
pub struct Content<'a> {
    /// `asn1::DATA` for PAdES (detached), `asn1::TST_INFO` for a time-stamp token.
    pub content_type: &'a [u64],
    /// Encapsulated content (the TSTInfo); `None` for detached signatures.
    pub encapsulated: Option<&'a [u8]>,
    /// SHA-256 of the content (of the PDF byte ranges, or of the encapsulated content).
    pub digest: &'a [u8],
    /// Embed the certificates (RFC 3161 leaves it to the request's certReq).
    pub with_certificates: bool,
}

/// Builds a ContentInfo holding SignedData. `unsigned` is given the signature value and may
/// answer one unsigned attribute (type, DER value).
pub fn signed_data(
    signer: &Signer,
    content: &Content<'_>,
    unsigned: impl FnOnce(&[u8]) -> Result<Option<(&'static [u64], Vec<u8>)>, SealError>,
) -> Result<Vec<u8>, SealError> {
    let content_type = yasna::construct_der(|w| w.write_oid(&asn1::oid(content.content_type)));
    let digest = yasna::construct_der(|w| w.write_bytes(content.digest));
    let signing_cert = yasna::construct_der(|w| signer.cert.write_signing_certificate_v2(w));
    let signed_attrs = vec![
        attribute(asn1::CONTENT_TYPE, &content_type),
        attribute(asn1::MESSAGE_DIGEST, &digest),
        attribute(asn1::SIGNING_CERTIFICATE_V2, &signing_cert),
    ];
    // The signature covers the attributes as an explicit SET; they are stored as [0] IMPLICIT.
    let to_sign = set_of(0x31, signed_attrs.clone());
    let signature = signer.sign(&to_sign)?;
    let unsigned_attr = unsigned(&signature)?.map(|(arcs, v)| attribute(arcs, &v));

    let signer_info = yasna::construct_der(|w| {
        w.write_sequence(|w| {
            w.next().write_u8(1);
            signer.cert.write_issuer_serial(w.next());
            asn1::write_alg(w.next(), asn1::SHA256);
            w.next().write_der(&set_of(0xa0, signed_attrs));
            asn1::write_alg(w.next(), asn1::ECDSA_SHA256);
            w.next().write_bytes(&signature);
            if let Some(a) = &unsigned_attr {
                w.next().write_der(&set_of(0xa1, vec![a.clone()]));
            }
        })
    });
    let mut certs = vec![signer.cert.der.clone()];
    certs.extend(signer.chain.iter().cloned());
    // Version 3 whenever the content is not id-data (RFC 5652 5.1).
    let version = if content.content_type == asn1::DATA {
        1
    } else {
        3
    };
    let signed = yasna::construct_der(|w| {
        w.write_sequence(|w| {
            w.next().write_u8(version);
            w.next()
                .write_set(|w| asn1::write_alg(w.next(), asn1::SHA256));
            w.next().write_sequence(|w| {
                w.next().write_oid(&asn1::oid(content.content_type));
                if let Some(e) = content.encapsulated {
                    w.next().write_tagged(Tag::context(0), |w| w.write_bytes(e));
                }
            });
            if content.with_certificates {
                w.next().write_der(&set_of(0xa0, certs));
            }
            w.next().write_set(|w| w.next().write_der(&signer_info));
        })
    });
    Ok(yasna::construct_der(|w| {
        w.write_sequence(|w| {
            w.next().write_oid(&asn1::oid(asn1::SIGNED_DATA));
            w.next()
                .write_tagged(Tag::context(0), |w| w.write_der(&signed));
        })
    }))
}
