//! An operator's sealing key from a PKCS#12 file (`.p12`, `.pfx`) and its password. The file
//! may hold the chain up to the root; the key's own certificate is found by its public key,
//! whatever order or names the file uses.

use p12_keystore::Pkcs12Archive;

use crate::SealError;
use crate::ca::Authority;
use crate::cms::Signer;

impl Authority {
    /// Seals live documents with the key and certificate in a PKCS#12 file instead of the
    /// generated ones (see `with_live_key`).
    pub fn with_pkcs12(self, data: &[u8], password: &str) -> Result<Authority, SealError> {
        let archive = Pkcs12Archive::from_pkcs12(data, password).map_err(|e| {
            SealError::Key(format!(
                "the PKCS#12 file cannot be opened (wrong password, or not PKCS#12): {e}"
            ))
        })?;
        let [bag] = archive.keys.as_slice() else {
            return Err(SealError::Key(format!(
                "the PKCS#12 file must hold exactly one private key; it holds {}",
                archive.keys.len()
            )));
        };
        let pkcs8 = bag.key.as_der();
        let certs: Vec<Vec<u8>> = archive
            .certs
            .iter()
            .map(|c| c.cert.as_der().to_vec())
            .collect();
        let leaf = certs
            .iter()
            .position(|c| Signer::new(c, pkcs8, Vec::new()).is_ok())
            .ok_or_else(|| {
                SealError::Key(
                    "the PKCS#12 file holds no certificate for its key (or the key is neither \
                     ECDSA P-256 nor RSA)"
                        .into(),
                )
            })?;
        let chain = certs
            .iter()
            .enumerate()
            .filter(|(i, _)| *i != leaf)
            .map(|(_, c)| c.clone())
            .collect();
        self.with_live_key(&certs[leaf], pkcs8, chain)
    }
}
