//! PAdES, each level an incremental update (see `incremental`):
//!
//! 1. B-T: a signature field on page 1 and its `/Sig` dictionary (`ETSI.CAdES.detached`),
//!    whose CMS carries a signature time stamp as an unsigned attribute.
//! 2. B-LT: the DSS dictionary with every certificate and a fresh CRL of the root.
//! 3. B-LTA: a document time stamp (`/DocTimeStamp`, `ETSI.RFC3161`) over everything before.

use crate::asn1;
use crate::ca::Authority;
use crate::cms::{self, Content};
use crate::incremental::{Revisions, find, literal};
use crate::remote;
use crate::{SealError, TimeStamper};
use chrono::{DateTime, Utc};

/// Seals `pdf` at B-LTA with the live or test sealing key, time-stamped by `stamper` (the
/// authority's own TSA, or an external one).
pub fn seal(
    pdf: &[u8],
    authority: &Authority,
    stamper: &dyn TimeStamper,
    test: bool,
    reason: &str,
    now: DateTime<Utc>,
) -> Result<Vec<u8>, SealError> {
    let mut file = Revisions::open(pdf)?;
    let signer = authority.sealer(test);
    let mut token = Vec::new();
    let head = format!(
        "/Type /Sig /Filter /Adobe.PPKLite /SubFilter /ETSI.CAdES.detached /Name {} /Reason {} /M {}",
        literal(&String::from_utf8_lossy(&name_of(&signer.cert.subject))),
        literal(reason),
        literal(&pdf_date(now)),
    );
    file.signature("Signet seal", &head, |digest| {
        cms::signed_data(
            signer,
            &Content {
                content_type: asn1::DATA,
                encapsulated: None,
                digest,
                with_certificates: true,
            },
            |signature| {
                let imprint = ring::digest::digest(&ring::digest::SHA256, signature);
                token = stamper.stamp(imprint.as_ref())?;
                Ok(Some((asn1::SIGNATURE_TIME_STAMP, token.clone())))
            },
        )
    })?;
    // Our chain, and whatever chain an external authority put in its token.
    let mut certs = authority.certificates(test);
    for c in remote::token_certificates(&token) {
        if !certs.contains(&c) {
            certs.push(c);
        }
    }
    file.dss(&certs, &[authority.crl_for(test, now)?])?;
    file.signature(
        "Signet archive time stamp",
        "/Type /DocTimeStamp /Filter /Adobe.PPKLite /SubFilter /ETSI.RFC3161",
        |digest| stamper.stamp(digest),
    )?;
    Ok(file.out)
}

fn pdf_date(t: DateTime<Utc>) -> String {
    t.format("D:%Y%m%d%H%M%S+00'00'").to_string()
}

/// The common name in a DER Name, for the signature's /Name.
fn name_of(name_der: &[u8]) -> Vec<u8> {
    const CN: [u8; 5] = [0x06, 0x03, 0x55, 0x04, 0x03];
    let Some(at) = find(name_der, &CN) else {
        return b"Signet".to_vec();
    };
    let rest = &name_der[at + CN.len()..];
    match rest {
        [_tag, len, body @ ..] if (*len as usize) <= body.len() && *len < 0x80 => {
            body[..*len as usize].to_vec()
        }
        _ => b"Signet".to_vec(),
    }
}
