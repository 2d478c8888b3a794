//! The certificate authority that seals, the same in every process of an installation.
//!
//! The embedded default keeps it in `ca_dir` (`<data_dir>/ca`), made on the first start.
//! With PostgreSQL, processes run on several machines and none may depend on a file another
//! lacks: the authority's files are stored in the database (`installation.ca_authority`),
//! encrypted with AES-256-GCM under a key derived from `secret_key`, which every process
//! already shares. The first process stores it; the others load it. An authority already in
//! `ca_dir` (an installation from before) is what is stored, so its documents stay sealed
//! under one root.

use anyhow::Context as _;
use base64::Engine as _;
use ring::aead::{AES_256_GCM, Aad, LessSafeKey, NONCE_LEN, Nonce, UnboundKey};
use signet_seal::{Authority, AuthorityFiles, NewAuthority};
use signet_storage::{Backend, Db};

use crate::Config;

/// The installation fact the encrypted authority is kept under.
const STORED: &str = "ca_authority";
/// The format of the stored value: `v1:` and base64 of nonce and sealed JSON.
const VERSION: &str = "v1:";

fn new_authority(config: &Config) -> NewAuthority {
    NewAuthority {
        organisation: String::new(),
        crl_url: config
            .public_url
            .as_ref()
            .map(|u| format!("{u}/ca/root.crl")),
    }
}

/// The authority of the embedded default: `ca_dir`, made on the first start; with the
/// operator's PKCS#12 key for live seals when one is set.
pub fn from_folder(config: &Config) -> anyhow::Result<Authority> {
    let dir = config.ca_dir();
    let authority = Authority::load_or_create(&dir, &new_authority(config))
        .with_context(|| format!("ca_dir (SIGNET_CA_DIR): {}", dir.display()))?;
    with_operator_key(authority, config)
}

/// The authority for a process on `db`: from the folder on SQLite, from the database on
/// PostgreSQL (see the module's comment).
pub async fn load(config: &Config, db: &Db, secret: &[u8]) -> anyhow::Result<Authority> {
    if db.backend == Backend::Sqlite {
        return from_folder(config);
    }
    let key = key(secret)?;
    let files = match signet_core::installation::recorded(db, STORED).await? {
        Some(stored) => open(&key, &stored)?,
        None => match first_files(config, db).await {
            Ok(files) => {
                let stored = seal(&key, &files)?;
                // Another process storing its own at the same moment: the first one stays,
                // and this process loads it.
                match signet_core::installation::agree(db, STORED, &stored).await? {
                    None => files,
                    Some(theirs) => open(&key, &theirs)?,
                }
            }
            // Refused here, but another process (with the folder) may have stored it since.
            Err(e) => match signet_core::installation::recorded(db, STORED).await? {
                Some(stored) => open(&key, &stored)?,
                None => return Err(e),
            },
        },
    };
    let authority = Authority::from_files(&files).context("the stored certificate authority")?;
    with_operator_key(authority, config)
}

/// What the first process stores: the authority in `ca_dir` when there is one (documents
/// may have been sealed under it), otherwise a new one. An installation whose documents were
/// sealed under an authority that is neither stored nor in `ca_dir` cannot go on without it.
async fn first_files(config: &Config, db: &Db) -> anyhow::Result<AuthorityFiles> {
    let dir = config.ca_dir();
    let recorded = signet_core::installation::recorded(db, "ca_root_sha256").await?;
    if dir.join("root.crt").exists() {
        let files = Authority::read_files(&dir)
            .with_context(|| format!("ca_dir (SIGNET_CA_DIR): {}", dir.display()))?;
        let authority = Authority::from_files(&files)?;
        // Stored, a wrong authority would stay: both roots are checked first.
        for (fact, what, der) in [
            ("ca_root_sha256", "root", authority.root_der()),
            (
                "ca_test_root_sha256",
                "test root",
                authority.test_root_der(),
            ),
        ] {
            let mine = crate::hex_sha256(der);
            if let Some(theirs) = signet_core::installation::recorded(db, fact)
                .await?
                .filter(|r| *r != mine)
            {
                anyhow::bail!(
                    "ca_dir (SIGNET_CA_DIR): the authority in {} ({what} SHA-256 {mine}) is not \
                     the one this database's documents are sealed under (SHA-256 {theirs}); \
                     name the first host's authority folder",
                    dir.display()
                );
            }
        }
        return Ok(files);
    }
    if let Some(root) = recorded {
        anyhow::bail!(
            "ca_dir (SIGNET_CA_DIR): this installation's documents are sealed under a root \
             certificate (SHA-256 {root}) that is not stored in the database yet: start one \
             process with that authority's folder as ca_dir once, and it is stored for all"
        );
    }
    Ok(Authority::generate(&new_authority(config))?)
}

fn with_operator_key(authority: Authority, config: &Config) -> anyhow::Result<Authority> {
    let Some(file) = &config.seal_pkcs12 else {
        return Ok(authority);
    };
    use secrecy::ExposeSecret;
    let data = std::fs::read(file).with_context(|| {
        format!(
            "seal_pkcs12 (SIGNET_SEAL_PKCS12): cannot read {}",
            file.display()
        )
    })?;
    let password = config
        .seal_pkcs12_password
        .as_ref()
        .map(|p| p.expose_secret())
        .unwrap_or_default();
    authority.with_pkcs12(&data, password).with_context(|| {
        format!(
            "seal_pkcs12 (SIGNET_SEAL_PKCS12) with seal_pkcs12_password \
             (SIGNET_SEAL_PKCS12_PASSWORD): {}",
            file.display()
        )
    })
}

/// The key that encrypts the stored authority: HKDF-SHA256 of `secret_key`, for this use only.
fn key(secret: &[u8]) -> anyhow::Result<LessSafeKey> {
    struct Len;
    impl ring::hkdf::KeyType for Len {
        fn len(&self) -> usize {
            32
        }
    }
    let prk =
        ring::hkdf::Salt::new(ring::hkdf::HKDF_SHA256, b"signet installation").extract(secret);
    let mut bytes = [0u8; 32];
    let failed = |_| anyhow::anyhow!("deriving the certificate authority's key failed");
    prk.expand(&[b"certificate authority v1"], Len)
        .and_then(|okm| okm.fill(&mut bytes))
        .map_err(failed)?;
    Ok(LessSafeKey::new(
        UnboundKey::new(&AES_256_GCM, &bytes).map_err(failed)?,
    ))
}

fn seal(key: &LessSafeKey, files: &AuthorityFiles) -> anyhow::Result<String> {
    let mut nonce = [0u8; NONCE_LEN];
    ring::rand::SecureRandom::fill(&ring::rand::SystemRandom::new(), &mut nonce)
        .map_err(|_| anyhow::anyhow!("random generator failed"))?;
    let mut data = serde_json::to_vec(files)?;
    key.seal_in_place_append_tag(
        Nonce::assume_unique_for_key(nonce),
        Aad::from(STORED),
        &mut data,
    )
    .map_err(|_| anyhow::anyhow!("encrypting the certificate authority failed"))?;
    let mut out = nonce.to_vec();
    out.extend(data);
    Ok(format!(
        "{VERSION}{}",
        base64::engine::general_purpose::STANDARD.encode(out)
    ))
}

fn open(key: &LessSafeKey, stored: &str) -> anyhow::Result<AuthorityFiles> {
    let unreadable = || {
        anyhow::anyhow!(
            "secret_key (SIGNET_SECRET_KEY): the certificate authority stored in the database \
             cannot be opened with this secret_key; every process must share the secret_key \
             of the process that first started on this database"
        )
    };
    let bytes = stored
        .strip_prefix(VERSION)
        .and_then(|b| base64::engine::general_purpose::STANDARD.decode(b).ok())
        .filter(|b| b.len() > NONCE_LEN)
        .ok_or_else(|| anyhow::anyhow!("the stored certificate authority is not readable"))?;
    let (nonce, sealed) = bytes.split_at(NONCE_LEN);
    let nonce = Nonce::try_assume_unique_for_key(nonce).map_err(|_| unreadable())?;
    let mut sealed = sealed.to_vec();
    let plain = key
        .open_in_place(nonce, Aad::from(STORED), &mut sealed)
        .map_err(|_| unreadable())?;
    Ok(serde_json::from_slice(plain)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stored_authority_opens_only_with_its_secret() {
        let mut files = AuthorityFiles::new();
        files.insert("root.crt".into(), "-----BEGIN CERTIFICATE-----".into());
        let secret = b"an installation secret of 32 bytes!!";
        let stored = seal(&key(secret).unwrap(), &files).unwrap();
        assert!(stored.starts_with("v1:"));
        assert_eq!(open(&key(secret).unwrap(), &stored).unwrap(), files);
        // Two seals of the same files differ (a fresh nonce each).
        assert_ne!(seal(&key(secret).unwrap(), &files).unwrap(), stored);
        let wrong = open(
            &key(b"another secret of thirty-two bytes").unwrap(),
            &stored,
        )
        .unwrap_err();
        assert!(wrong.to_string().contains("secret_key"), "{wrong}");
        let mut tampered = stored.clone().into_bytes();
        let at = tampered.len() - 5;
        tampered[at] = if tampered[at] == b'A' { b'B' } else { b'A' };
        let tampered = String::from_utf8(tampered).unwrap();
        assert!(open(&key(secret).unwrap(), &tampered).is_err());
        assert!(open(&key(secret).unwrap(), "v0:abc").is_err());
    }
}
