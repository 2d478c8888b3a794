//! CMS SignedData (RFC 5652) as CAdES and RFC 3161 need it: a detached or encapsulated
//! content, signed attributes with content type, message digest and signing-certificate-v2,
//! never a signingTime (PAdES takes the time from the signature time stamp), and optional
//! unsigned attributes made from the signature value (the signature time stamp).

use ring::rand::SystemRandom;
use ring::signature::{
    ECDSA_P256_SHA256_ASN1_SIGNING, EcdsaKeyPair, KeyPair, RSA_PKCS1_SHA256, RsaKeyPair,
};
use yasna::{DERWriter, Tag};

use crate::SealError;
use crate::asn1::{self, CertInfo};

enum Key {
    /// Ours: every key the built-in authority makes.
    Ecdsa(EcdsaKeyPair),
    /// An operator's, from a PKCS#12 file: most document-signing certificates are RSA.
    Rsa(RsaKeyPair),
}

/// A key and its certificate, with the rest of its chain to embed beside it.
pub struct Signer {
    pub cert: CertInfo,
    /// Certificates other than `cert` that verifiers need to build the chain (the root).
    pub chain: Vec<Vec<u8>>,
    key: Key,
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
    /// `pkcs8` is a P-256 ECDSA or an RSA private key; `cert_der` must be its certificate.
    pub fn new(cert_der: &[u8], pkcs8: &[u8], chain: Vec<Vec<u8>>) -> Result<Signer, SealError> {
        let rng = SystemRandom::new();
        let key = match EcdsaKeyPair::from_pkcs8(&ECDSA_P256_SHA256_ASN1_SIGNING, pkcs8, &rng) {
            Ok(k) => Key::Ecdsa(k),
            Err(_) => Key::Rsa(RsaKeyPair::from_pkcs8(pkcs8).map_err(|e| {
                SealError::Key(format!(
                    "the key is neither ECDSA P-256 nor RSA of 2048 bits or more (PKCS#8): {e}"
                ))
            })?),
        };
        let signer = Signer {
            cert: CertInfo::parse(cert_der)?,
            chain,
            key,
            rng,
        };
        if signer.cert.public_key != signer.public_key() {
            return Err(SealError::Key(
                "the certificate does not belong to the key".into(),
            ));
        }
        Ok(signer)
    }

    /// A signature over SHA-256 of `msg`: ECDSA (DER Ecdsa-Sig-Value) or RSA PKCS#1 v1.5.
    pub fn sign(&self, msg: &[u8]) -> Result<Vec<u8>, SealError> {
        let failed = || SealError::Key("signing failed".into());
        match &self.key {
            Key::Ecdsa(k) => k
                .sign(&self.rng, msg)
                .map(|s| s.as_ref().to_vec())
                .map_err(|_| failed()),
            Key::Rsa(k) => {
                let mut sig = vec![0u8; k.public().modulus_len()];
                k.sign(&RSA_PKCS1_SHA256, &self.rng, msg, &mut sig)
                    .map_err(|_| failed())?;
                Ok(sig)
            }
        }
    }

    /// The public key as the certificate's SubjectPublicKeyInfo holds it.
    pub fn public_key(&self) -> &[u8] {
        match &self.key {
            Key::Ecdsa(k) => k.public_key().as_ref(),
            Key::Rsa(k) => k.public().as_ref(),
        }
    }

    /// The AlgorithmIdentifier of `sign` (RFC 5758 for ECDSA, RFC 4055 for RSA, which keeps
    /// the NULL parameters).
    pub fn write_signature_alg(&self, w: DERWriter) {
        match &self.key {
            Key::Ecdsa(_) => asn1::write_alg(w, asn1::ECDSA_SHA256),
            Key::Rsa(_) => w.write_sequence(|w| {
                w.next().write_oid(&asn1::oid(asn1::SHA256_WITH_RSA));
                w.next().write_null();
            }),
        }
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
            signer.write_signature_alg(w.next());
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
