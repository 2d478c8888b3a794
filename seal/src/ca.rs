//! The private certificate authority of an installation: made once, on first start, in the
//! data folder, and loaded on every start after. A root, a sealing certificate for live
//! documents, one for test documents (its subject says TEST) and a time-stamping certificate,
//! all ECDSA P-256 and all issued by the root, so trusting the root (`signet admin ca export`)
//! is all a verifier needs. Private keys are written with mode 0600 and never logged.
//!
//! The folder is made under a temporary name, every file synced, and renamed into place, so
//! two processes starting at once cannot mix their keys (the loser of the rename loads the
//! winner's) and a crash during the first start leaves no half-made authority.
//!
//! Processes on several machines keep no folder: the same files ([`AuthorityFiles`]) are made
//! in memory ([`Authority::generate`]) and stored, encrypted, in the shared database by the
//! binary; every process loads them from there ([`Authority::from_files`]).

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use chrono::{DateTime, Datelike, Duration, Utc};
use rcgen::{
    BasicConstraints, CertificateParams, CrlDistributionPoint, CustomExtension, DistinguishedName,
    DnType, IsCa, Issuer, KeyIdMethod, KeyPair, KeyUsagePurpose, PKCS_ECDSA_P256_SHA256,
    SerialNumber,
};
use yasna::Tag;

use crate::SealError;
use crate::asn1::{self, CertInfo};
use crate::cms::Signer;
use crate::tsa::Tsa;

/// The files of a whole authority, in the order they are written; moved into place in the
/// reverse order, so `root.crt`, whose presence says the folder is complete, comes last.
const FILES: [&str; 6] = ["root", "seal", "tsa", "test-root", "seal-test", "tsa-test"];
/// The test chain's files, as an older authority (without one) gains them.
const TEST_FILES: [&str; 3] = ["test-root", "seal-test", "tsa-test"];

/// An authority's files by name (`root.crt`, `root.key`, `seal.crt`, ...), PEM text: what a
/// folder holds, or what the database stores for processes on several machines.
pub type AuthorityFiles = std::collections::BTreeMap<String, String>;

/// Who signs what. Live and test documents are sealed and time-stamped under two roots, so
/// a verifier that trusts the live root never accepts a test seal: any test key can have a
/// test document sealed, and nothing it makes may pass for a real one.
pub struct Authority {
    root: Signer,
    live: Signer,
    tsa: Tsa,
    root_key_id: Vec<u8>,
    test_root: Signer,
    test: Signer,
    test_tsa: Tsa,
    test_root_key_id: Vec<u8>,
    /// The CRLs served to anyone who asks (live, test), each signed at most once an hour.
    published: std::sync::Mutex<[Option<Published>; 2]>,
}

/// A CRL as served, and when it was signed.
type Published = (DateTime<Utc>, Vec<u8>);

impl std::fmt::Debug for Authority {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The signers print no key.
        f.debug_struct("Authority")
            .field("root", &self.root)
            .field("live", &self.live)
            .field("test", &self.test)
            .finish_non_exhaustive()
    }
}

/// What the operator may say about a new authority.
#[derive(Clone, Debug, Default)]
pub struct NewAuthority {
    /// Organisation in every subject (`O=`).
    pub organisation: String,
    /// Where the root's CRL is served (`<base>/ca/root.crl`), written into every certificate
    /// the root issues. The sealed files carry the CRL themselves; this is for verifiers that
    /// fetch.
    pub crl_url: Option<String>,
}

impl Authority {
    /// Loads the authority in `dir`, making it first if the folder does not exist.
    /// A folder made by an older version, without a test chain, gains one.
    pub fn load_or_create(dir: &Path, new: &NewAuthority) -> Result<Authority, SealError> {
        if !dir.join("root.crt").exists() {
            create(dir, new)?;
        } else if !dir.join("test-root.crt").exists() {
            add_test_chain(dir, new)?;
        }
        Authority::load(dir)
    }

    pub fn load(dir: &Path) -> Result<Authority, SealError> {
        Authority::from_files(&Authority::read_files(dir)?)
    }

    /// The files of the authority in `dir`.
    pub fn read_files(dir: &Path) -> Result<AuthorityFiles, SealError> {
        let mut files = AuthorityFiles::new();
        for name in FILES {
            for ext in ["crt", "key"] {
                let path = dir.join(format!("{name}.{ext}"));
                let pem = fs::read_to_string(&path)
                    .map_err(|e| SealError::Key(format!("{}: {e}", path.display())))?;
                files.insert(format!("{name}.{ext}"), pem);
            }
        }
        Ok(files)
    }

    /// A new authority's files, made in memory and written nowhere.
    pub fn generate(new: &NewAuthority) -> Result<AuthorityFiles, SealError> {
        let [root, seal, tsa] = chain(new, false)?;
        let [test_root, test_seal, test_tsa] = chain(new, true)?;
        let made = [root, seal, tsa, test_root, test_seal, test_tsa];
        let mut files = AuthorityFiles::new();
        for (name, (cert, key)) in FILES.iter().zip(made) {
            files.insert(format!("{name}.crt"), cert);
            files.insert(format!("{name}.key"), key);
        }
        Ok(files)
    }

    /// The authority of `files` (see [`AuthorityFiles`]).
    pub fn from_files(files: &AuthorityFiles) -> Result<Authority, SealError> {
        let read = |name: &str, ext: &str, label: &str| -> Result<Vec<u8>, SealError> {
            let file = format!("{name}.{ext}");
            let pem = files
                .get(&file)
                .ok_or_else(|| SealError::Key(format!("{file} is missing")))?;
            asn1::pem_to_der(pem, label)
        };
        let cert = |name: &str| read(name, "crt", "CERTIFICATE");
        let key = |name: &str| read(name, "key", "PRIVATE KEY");
        let root_der = cert("root")?;
        let chain = vec![root_der.clone()];
        let root = Signer::new(&root_der, &key("root")?, Vec::new())?;
        let root_key_id = key_id(root.public_key());
        let test_root_der = cert("test-root")?;
        let test_chain = vec![test_root_der.clone()];
        let test_root = Signer::new(&test_root_der, &key("test-root")?, Vec::new())?;
        let test_root_key_id = key_id(test_root.public_key());
        Ok(Authority {
            live: Signer::new(&cert("seal")?, &key("seal")?, chain.clone())?,
            tsa: Tsa {
                signer: Signer::new(&cert("tsa")?, &key("tsa")?, chain)?,
            },
            root,
            root_key_id,
            test: Signer::new(&cert("seal-test")?, &key("seal-test")?, test_chain.clone())?,
            test_tsa: Tsa {
                signer: Signer::new(&cert("tsa-test")?, &key("tsa-test")?, test_chain)?,
            },
            test_root,
            test_root_key_id,
            published: std::sync::Mutex::new([None, None]),
        })
    }

    pub fn root_der(&self) -> &[u8] {
        &self.root.cert.der
    }

    pub fn root_pem(&self) -> String {
        asn1::der_to_pem(&self.root.cert.der, "CERTIFICATE")
    }

    /// The root test seals chain to (`signet admin ca export --test`): trust it only to check
    /// test documents.
    pub fn test_root_pem(&self) -> String {
        asn1::der_to_pem(&self.test_root.cert.der, "CERTIFICATE")
    }

    pub fn test_root_der(&self) -> &[u8] {
        &self.test_root.cert.der
    }

    /// The sealing key for live or test documents.
    pub fn sealer(&self, test: bool) -> &Signer {
        if test { &self.test } else { &self.live }
    }

    /// The live time-stamp authority (`POST /tsa`).
    pub fn tsa(&self) -> &Tsa {
        &self.tsa
    }

    /// The time-stamp authority that stamps live or test seals.
    pub fn tsa_for(&self, test: bool) -> &Tsa {
        if test { &self.test_tsa } else { &self.tsa }
    }

    /// Seals live documents with an operator's key and certificate (from a PKCS#12 file, say)
    /// instead of the generated one; `chain` holds the certificates up to their root. Test
    /// documents keep the generated test certificate.
    pub fn with_live_key(
        mut self,
        cert_der: &[u8],
        pkcs8: &[u8],
        chain: Vec<Vec<u8>>,
    ) -> Result<Authority, SealError> {
        self.live = Signer::new(cert_der, pkcs8, chain)?;
        Ok(self)
    }

    /// Every certificate a verifier needs, for the DSS: the sealing chain and the
    /// time-stamping chain.
    pub fn certificates(&self, test: bool) -> Vec<Vec<u8>> {
        let sealer = self.sealer(test);
        let tsa = self.tsa_for(test);
        let mut all: Vec<Vec<u8>> = Vec::new();
        for c in std::iter::once(&sealer.cert.der)
            .chain(&sealer.chain)
            .chain(std::iter::once(&tsa.signer.cert.der))
            .chain(&tsa.signer.chain)
        {
            if !all.contains(c) {
                all.push(c.clone());
            }
        }
        all
    }

    /// The CRL served at `/ca/root.crl` (or `/ca/test-root.crl`): made again when an hour
    /// old, so that anonymous requests cannot make a root sign at will.
    pub fn published_crl(&self, test: bool, now: DateTime<Utc>) -> Result<Vec<u8>, SealError> {
        let mut cached = self
            .published
            .lock()
            .map_err(|_| SealError::Key("the CRL cache is poisoned".into()))?;
        let cached = &mut cached[usize::from(test)];
        if let Some((at, der)) = cached.as_ref()
            && now - *at < Duration::hours(1)
        {
            return Ok(der.clone());
        }
        let der = self.crl_for(test, now)?;
        *cached = Some((now, der.clone()));
        Ok(der)
    }

    /// A fresh CRL of the live or the test root.
    pub fn crl_for(&self, test: bool, now: DateTime<Utc>) -> Result<Vec<u8>, SealError> {
        if test {
            crl_by(&self.test_root, &self.test_root_key_id, now)
        } else {
            crl_by(&self.root, &self.root_key_id, now)
        }
    }

    /// A fresh CRL of the live root.
    pub fn crl(&self, now: DateTime<Utc>) -> Result<Vec<u8>, SealError> {
        self.crl_for(false, now)
    }
}

/// A fresh CRL signed by `root` (nothing is revoked), valid for a week from `now`.
fn crl_by(root: &Signer, root_key_id: &[u8], now: DateTime<Utc>) -> Result<Vec<u8>, SealError> {
    let number = now.timestamp_millis().to_be_bytes();
    let aki = yasna::construct_der(|w| {
        w.write_sequence(|w| {
            w.next()
                .write_tagged_implicit(Tag::context(0), |w| w.write_bytes(root_key_id))
        })
    });
    let crl_number = yasna::construct_der(|w| w.write_bigint_bytes(&number, true));
    let tbs = yasna::construct_der(|w| {
        w.write_sequence(|w| {
            w.next().write_u8(1);
            root.write_signature_alg(w.next());
            w.next().write_der(&root.cert.subject);
            w.next().write_der(&asn1::utc_time(now));
            w.next().write_der(&asn1::utc_time(now + Duration::days(7)));
            w.next().write_tagged(Tag::context(0), |w| {
                w.write_sequence(|w| {
                    for (arcs, value) in [
                        (asn1::AUTHORITY_KEY_ID, &aki),
                        (asn1::CRL_NUMBER, &crl_number),
                    ] {
                        w.next().write_sequence(|w| {
                            w.next().write_oid(&asn1::oid(arcs));
                            w.next().write_bytes(value);
                        });
                    }
                })
            });
        })
    });
    let sig = root.sign(&tbs)?;
    Ok(yasna::construct_der(|w| {
        w.write_sequence(|w| {
            w.next().write_der(&tbs);
            root.write_signature_alg(w.next());
            w.next().write_bitvec_bytes(&sig, sig.len() * 8);
        })
    }))
}

/// RFC 7093 method 1: the first 160 bits of the SHA-256 of the public key.
fn key_id(public_key: &[u8]) -> Vec<u8> {
    ring::digest::digest(&ring::digest::SHA256, public_key).as_ref()[..20].to_vec()
}

fn serial() -> Result<SerialNumber, SealError> {
    Ok(SerialNumber::from_slice(&asn1::random::<16>(true)?))
}

fn params(cn: &str, org: &str, years: i32, key: &KeyPair) -> Result<CertificateParams, SealError> {
    let now = Utc::now();
    let mut p = CertificateParams::default();
    let mut dn = DistinguishedName::new();
    dn.push(DnType::CommonName, cn);
    if !org.is_empty() {
        dn.push(DnType::OrganizationName, org);
    }
    p.distinguished_name = dn;
    // A day back, so a clock a little behind the verifier's does not see a future certificate.
    let start = now - Duration::days(1);
    p.not_before = rcgen::date_time_ymd(start.year(), start.month() as u8, start.day() as u8);
    p.not_after = rcgen::date_time_ymd(now.year() + years, now.month() as u8, 1);
    p.serial_number = Some(serial()?);
    p.key_identifier_method = KeyIdMethod::PreSpecified(key_id(key.public_key_raw()));
    Ok(p)
}

/// A root and its two leaves (a sealing and a time-stamping certificate), as PEM pairs in
/// that order. The test chain's names say TEST, and its leaves name the test root's CRL.
fn chain(new: &NewAuthority, test: bool) -> Result<[(String, String); 3], SealError> {
    let err = |e: rcgen::Error| SealError::Certificate(e.to_string());
    let new_key = || KeyPair::generate_for(&PKCS_ECDSA_P256_SHA256).map_err(err);
    let org = new.organisation.as_str();
    let (mark, crl_url) = if test {
        (
            " (TEST)",
            new.crl_url
                .as_ref()
                .map(|u| u.replace("/root.crl", "/test-root.crl")),
        )
    } else {
        ("", new.crl_url.clone())
    };

    let root_key = new_key()?;
    let mut root = params(&format!("Signet Root CA{mark}"), org, 25, &root_key)?;
    root.is_ca = IsCa::Ca(BasicConstraints::Constrained(0));
    root.key_usages = vec![KeyUsagePurpose::KeyCertSign, KeyUsagePurpose::CrlSign];
    let root_cert = root.self_signed(&root_key).map_err(err)?;
    let issuer = Issuer::new(root, &root_key);

    let leaf = |cn: &str, tsa: bool| -> Result<(String, String), SealError> {
        let key = new_key()?;
        let mut p = params(cn, org, 10, &key)?;
        p.use_authority_key_identifier_extension = true;
        p.key_usages = vec![
            KeyUsagePurpose::DigitalSignature,
            KeyUsagePurpose::ContentCommitment,
        ];
        if let Some(url) = &crl_url {
            p.crl_distribution_points = vec![CrlDistributionPoint {
                uris: vec![url.clone()],
            }];
        }
        if tsa {
            // RFC 3161 2.3: exactly id-kp-timeStamping, and critical (rcgen writes EKU as
            // non-critical, so it is written here).
            let eku = yasna::construct_der(|w| {
                w.write_sequence(|w| w.next().write_oid(&asn1::oid(asn1::KP_TIME_STAMPING)))
            });
            let mut ext = CustomExtension::from_oid_content(asn1::EXT_KEY_USAGE, eku);
            ext.set_criticality(true);
            p.custom_extensions = vec![ext];
            p.key_usages = vec![KeyUsagePurpose::DigitalSignature];
        }
        let cert = p.signed_by(&key, &issuer).map_err(err)?;
        Ok((cert.pem(), key.serialize_pem()))
    };
    let suffix = if org.is_empty() {
        String::new()
    } else {
        format!(" for {org}")
    };
    Ok([
        (root_cert.pem(), root_key.serialize_pem()),
        leaf(&format!("Signet Document Seal{mark}{suffix}"), false)?,
        leaf(&format!("Signet Time Stamping{mark}{suffix}"), true)?,
    ])
}

fn create(dir: &Path, new: &NewAuthority) -> Result<(), SealError> {
    let [root, seal, tsa] = chain(new, false)?;
    let [test_root, test_seal, test_tsa] = chain(new, true)?;
    let made = [root, seal, tsa, test_root, test_seal, test_tsa];

    if let Some(parent) = dir.parent() {
        fs::create_dir_all(parent).map_err(|e| io(parent, e))?;
    }
    if dir.is_dir() {
        return fill(dir, &made);
    }
    // Every file is written and synced under a temporary folder beside it, which is then
    // renamed into place: a crash leaves either no authority or a whole one.
    let tmp = tmp_dir(dir)?;
    if let Err(e) = write_all(&tmp, &made) {
        let _ = fs::remove_dir_all(&tmp);
        return Err(e);
    }
    let placed = match fs::rename(&tmp, dir) {
        Ok(()) => Ok(()),
        // Another process made it first: use theirs.
        Err(_) if dir.join("root.crt").exists() => Ok(()),
        Err(_) if dir.is_dir() => {
            let _ = fs::remove_dir_all(&tmp);
            return fill(dir, &made);
        }
        Err(e) => Err(io(dir, e)),
    };
    let _ = fs::remove_dir_all(&tmp);
    placed?;
    sync_dir(dir)?;
    match dir.parent().filter(|p| !p.as_os_str().is_empty()) {
        Some(parent) => sync_dir(parent),
        None => Ok(()),
    }
}

/// Fills a folder that already exists (a mounted volume, which cannot be replaced, or one an
/// older version left half-filled): under a lock, the files are written and synced in a
/// temporary folder inside it (the same file system) and moved in one by one, the root
/// certificate last, since a folder holding `root.crt` is taken as complete.
fn fill(dir: &Path, made: &[(String, String)]) -> Result<(), SealError> {
    fill_with(dir, &FILES, made, "root.crt")
}

/// Adds a test chain to an authority made before live and test had roots of their own: the
/// test root, sealing and time-stamping certificates are made and moved in (replacing the
/// old test sealing certificate, which the live root issued), `test-root.crt` last. Test
/// documents sealed before stay chained to the live root.
fn add_test_chain(dir: &Path, new: &NewAuthority) -> Result<(), SealError> {
    let made = chain(new, true)?;
    fill_with(dir, &TEST_FILES, &made, "test-root.crt")
}

/// Writes `made` (one PEM pair for each of `names`) into the existing folder `dir` under a
/// lock, unless `done` is there already.
fn fill_with(
    dir: &Path,
    names: &[&str],
    made: &[(String, String)],
    done: &str,
) -> Result<(), SealError> {
    let lock_path = dir.join(".lock");
    let lock = fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&lock_path)
        .map_err(|e| io(&lock_path, e))?;
    lock.lock().map_err(|e| io(&lock_path, e))?;
    if dir.join(done).exists() {
        // Another process filled it while this one waited.
        return Ok(());
    }
    let tmp = tmp_dir(&dir.join("authority"))?;
    let moved = write_names(&tmp, names, made).and_then(|()| move_in(&tmp, dir, names));
    let _ = fs::remove_dir_all(&tmp);
    moved?;
    sync_dir(dir)
}

fn move_in(from: &Path, dir: &Path, names: &[&str]) -> Result<(), SealError> {
    for name in names.iter().rev() {
        for ext in ["key", "crt"] {
            let file = format!("{name}.{ext}");
            fs::rename(from.join(&file), dir.join(&file)).map_err(|e| io(&dir.join(&file), e))?;
        }
    }
    Ok(())
}

fn sync_dir(dir: &Path) -> Result<(), SealError> {
    fs::File::open(dir)
        .and_then(|d| d.sync_all())
        .map_err(|e| io(dir, e))
}

fn write_all(dir: &Path, made: &[(String, String)]) -> Result<(), SealError> {
    write_names(dir, &FILES, made)
}

fn write_names(dir: &Path, names: &[&str], made: &[(String, String)]) -> Result<(), SealError> {
    for (name, (cert, key)) in names.iter().zip(made.iter()) {
        write_file(&dir.join(format!("{name}.crt")), cert.as_bytes(), 0o644)?;
        write_file(&dir.join(format!("{name}.key")), key.as_bytes(), 0o600)?;
    }
    Ok(())
}

/// A new folder beside `dir`, private to this user, under a random name.
fn tmp_dir(dir: &Path) -> Result<PathBuf, SealError> {
    use std::os::unix::fs::DirBuilderExt;
    let hex: String = asn1::random::<8>(false)?
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    let mut name = dir.file_name().unwrap_or_default().to_os_string();
    name.push(format!(".tmp-{hex}"));
    let tmp = dir.with_file_name(name);
    fs::DirBuilder::new()
        .mode(0o700)
        .create(&tmp)
        .map_err(|e| io(&tmp, e))?;
    Ok(tmp)
}

fn io(path: &Path, e: std::io::Error) -> SealError {
    SealError::Key(format!("{}: {e}", path.display()))
}

fn write_file(path: &Path, bytes: &[u8], mode: u32) -> Result<(), SealError> {
    use std::os::unix::fs::OpenOptionsExt;
    let mut f = fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(mode)
        .open(path)
        .map_err(|e| io(path, e))?;
    f.write_all(bytes).map_err(|e| io(path, e))?;
    f.sync_all().map_err(|e| io(path, e))
}

impl CertInfo {
    /// The certificate as PEM, for `ca export` and tests.
    pub fn pem(&self) -> String {
        asn1::der_to_pem(&self.der, "CERTIFICATE")
    }
}
