//! The sealed file is judged by independent verifiers: pyHanko, poppler's pdfsig and qpdf.
//! With `CI=true` a missing verifier fails the test instead of skipping it.

use std::path::{Path, PathBuf};
use std::process::Command;

use chrono::Utc;

use crate::{Authority, NewAuthority, seal};

/// A one-page PDF with a classic cross-reference table, written by hand so this crate's tests
/// need no renderer.
pub(crate) fn tiny_pdf(text: &str) -> Vec<u8> {
    let content = format!("BT /F1 24 Tf 72 700 Td ({text}) Tj ET");
    let objects = [
        "<< /Type /Catalog /Pages 2 0 R >>".to_string(),
        "<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_string(),
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>".to_string(),
        format!("<< /Length {} >>\nstream\n{content}\nendstream", content.len()),
        "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>".to_string(),
    ];
    let mut out = b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n".to_vec();
    let mut offsets = Vec::new();
    for (i, o) in objects.iter().enumerate() {
        offsets.push(out.len());
        out.extend_from_slice(format!("{} 0 obj\n{o}\nendobj\n", i + 1).as_bytes());
    }
    let xref = out.len();
    out.extend_from_slice(
        format!("xref\n0 {}\n0000000000 65535 f \n", objects.len() + 1).as_bytes(),
    );
    for o in offsets {
        out.extend_from_slice(format!("{o:010} 00000 n \n").as_bytes());
    }
    out.extend_from_slice(
        format!(
            "trailer\n<< /Size {} /Root 1 0 R /ID [<0123456789ABCDEF0123456789ABCDEF> <0123456789ABCDEF0123456789ABCDEF>] >>\nstartxref\n{xref}\n%%EOF\n",
            objects.len() + 1
        )
        .as_bytes(),
    );
    out
}

/// The verifier on PATH; missing, the test fails unless `verifiers` was skipped by name.
pub(crate) fn tool(name: &str) -> Option<PathBuf> {
    signet_testkit::program(name, "verifiers", "scripts/test installs it")
}

fn run(cmd: &mut Command) -> (bool, String) {
    let out = cmd.output().expect("verifier runs");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.success(), text)
}

/// `pyhanko sign validate` of `file` with only `root` trusted: (succeeded, output).
fn pyhanko_validate(pyhanko: &Path, root: &Path, file: &Path) -> (bool, String) {
    run(Command::new(pyhanko)
        .args([
            "sign",
            "validate",
            "--pretty-print",
            "--trust-replace",
            "--trust",
        ])
        .arg(root)
        .arg(file))
}

struct Fixture {
    _dir: tempfile::TempDir,
    ca: PathBuf,
    root_pem: PathBuf,
    authority: Authority,
}

fn fixture() -> Fixture {
    let dir = tempfile::tempdir().expect("tempdir");
    let ca = dir.path().join("ca");
    let authority = Authority::load_or_create(
        &ca,
        &NewAuthority {
            organisation: "Signet Tests".into(),
            crl_url: None,
        },
    )
    .expect("authority");
    let root_pem = dir.path().join("root.pem");
    std::fs::write(&root_pem, authority.root_pem()).expect("root");
    Fixture {
        _dir: dir,
        ca,
        root_pem,
        authority,
    }
}

/// `tiny_pdf("Hello")` sealed at B-LTA with the live key.
fn sealed_hello(authority: &Authority) -> Vec<u8> {
    seal(
        &tiny_pdf("Hello"),
        authority,
        authority.tsa(),
        false,
        "Completed",
        Utc::now(),
    )
    .expect("seal")
}

fn write(dir: &Path, name: &str, bytes: &[u8]) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, bytes).expect("write");
    p
}

#[test]
fn test_seals_chain_to_a_root_of_their_own() {
    let f = fixture();
    assert_ne!(f.authority.test_root_der(), f.authority.root_der());
    let sealed = seal(
        &tiny_pdf("Practice"),
        &f.authority,
        f.authority.tsa_for(true),
        true,
        "Test",
        Utc::now(),
    )
    .expect("seal");
    let dir = f._dir.path();
    let file = write(dir, "test.pdf", &sealed);
    let test_root = write(dir, "test-root.pem", f.authority.test_root_pem().as_bytes());
    if let Some(pyhanko) = tool("pyhanko") {
        let validate = |root: &Path| pyhanko_validate(&pyhanko, root, &file).1;
        let out = validate(&f.root_pem);
        assert!(
            !out.contains("judged VALID"),
            "the live root accepts no test seal: {out}"
        );
        let out = validate(&test_root);
        assert!(out.contains("The signature is judged VALID."), "{out}");
        assert!(out.contains("The TSA certificate is trusted."), "{out}");
    }
}

#[test]
fn an_authority_made_before_test_roots_gains_one() {
    let f = fixture();
    for name in ["test-root", "tsa-test"] {
        for ext in ["crt", "key"] {
            std::fs::remove_file(f.ca.join(format!("{name}.{ext}"))).expect("remove");
        }
    }
    assert!(Authority::load(&f.ca).is_err());
    let upgraded = Authority::load_or_create(&f.ca, &NewAuthority::default()).expect("upgraded");
    assert_eq!(
        upgraded.root_der(),
        f.authority.root_der(),
        "the live root stays"
    );
    assert_ne!(upgraded.test_root_der(), f.authority.test_root_der());
    assert_ne!(upgraded.test_root_der(), upgraded.root_der());
}

#[test]
fn a_first_start_cut_short_leaves_a_folder_the_next_start_completes() {
    let dir = tempfile::tempdir().expect("tempdir");
    // An empty folder (a mounted volume), and one an older version left half-filled by a
    // crash: a key and a certificate but no root certificate.
    for leftovers in [&[][..], &["seal.crt", "seal.key", "tsa.key"][..]] {
        let ca = dir.path().join(format!("ca{}", leftovers.len()));
        std::fs::create_dir(&ca).expect("folder");
        for name in leftovers {
            std::fs::write(ca.join(name), b"half-written").expect("leftover");
        }
        let made = Authority::load_or_create(&ca, &NewAuthority::default()).expect("made");
        let again = Authority::load(&ca).expect("loads after");
        assert_eq!(again.root_der(), made.root_der());
        let names: Vec<String> = std::fs::read_dir(dir.path())
            .expect("list")
            .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
            .collect();
        assert!(
            !names.iter().any(|n| n.contains(".tmp-")),
            "no temporary folder is left: {names:?}"
        );
    }
}

#[test]
fn the_authority_is_made_once_with_private_keys_only_for_us() {
    use std::os::unix::fs::PermissionsExt;
    let f = fixture();
    for name in ["root", "seal", "tsa", "test-root", "seal-test", "tsa-test"] {
        let mode = std::fs::metadata(f.ca.join(format!("{name}.key")))
            .expect("key")
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600, "{name}.key");
    }
    let again = Authority::load_or_create(&f.ca, &NewAuthority::default()).expect("load");
    assert_eq!(again.root_der(), f.authority.root_der());
    // The test sealing certificate says TEST and is not the live one.
    assert_ne!(
        f.authority.sealer(true).cert.der,
        f.authority.sealer(false).cert.der
    );
    let subject = String::from_utf8_lossy(&f.authority.sealer(true).cert.subject).to_string();
    assert!(subject.contains("(TEST)"), "{subject}");
}

#[test]
fn a_sealed_file_keeps_the_original_bytes_as_its_first_revision() {
    let f = fixture();
    let pdf = tiny_pdf("Hello");
    let sealed = seal(
        &pdf,
        &f.authority,
        f.authority.tsa(),
        false,
        "Completed",
        Utc::now(),
    )
    .expect("seal");
    assert_eq!(&sealed[..pdf.len()], &pdf[..]);
    let text = String::from_utf8_lossy(&sealed);
    assert!(text.contains("/SubFilter /ETSI.CAdES.detached"));
    assert!(text.contains("/SubFilter /ETSI.RFC3161"));
    assert!(text.contains("/Type /DSS"));
    assert_eq!(
        text.matches("%%EOF").count(),
        4,
        "original + B-T + B-LT + B-LTA"
    );
}

#[test]
fn pyhanko_pdfsig_and_qpdf_accept_the_seal_and_reject_a_changed_byte() {
    let f = fixture();
    let dir = f._dir.path();
    let sealed = sealed_hello(&f.authority);
    let good = write(dir, "sealed.pdf", &sealed);
    // One byte of the page's words changed: "Hello" becomes "Jello".
    let mut bad = sealed.clone();
    let at = bad.windows(5).position(|w| w == b"Hello").expect("text");
    bad[at] = b'J';
    let bad = write(dir, "changed.pdf", &bad);

    if let Some(qpdf) = tool("qpdf") {
        let (ok, out) = run(Command::new(&qpdf).arg("--check").arg(&good));
        assert!(
            ok && out.contains("No syntax or stream encoding errors"),
            "{out}"
        );
    }
    if let Some(pyhanko) = tool("pyhanko") {
        let validate = |file: &Path| pyhanko_validate(&pyhanko, &f.root_pem, file);
        let (ok, out) = validate(&good);
        assert!(ok, "{out}");
        assert!(out.contains("The signature is judged VALID."), "{out}");
        assert!(
            out.contains("The signer's certificate is trusted."),
            "{out}"
        );
        assert!(out.contains("The TSA certificate is trusted."), "{out}");
        let (ok, out) = validate(&bad);
        assert!(!ok && !out.contains("judged VALID"), "{out}");

        let (ok, out) = run(Command::new(&pyhanko)
            .args([
                "sign",
                "adesverify",
                "--no-revocation-check",
                "--trust-replace",
                "--trust",
            ])
            .arg(&f.root_pem)
            .arg(&good));
        assert!(ok, "{out}");
        assert!(
            out.contains(
                "INTACT:TRUSTED,TIMESTAMP_TOKEN<INTACT:TRUSTED>,EXTENDED_WITH_LTA_UPDATES"
            ),
            "{out}"
        );
    }
    if let (Some(pdfsig), Some(certutil)) = (tool("pdfsig"), tool("certutil")) {
        let nss = dir.join("nss");
        std::fs::create_dir_all(&nss).expect("nss");
        let db = format!("sql:{}", nss.display());
        let (ok, out) = run(Command::new(&certutil).args(["-N", "-d", &db, "--empty-password"]));
        assert!(ok, "{out}");
        let (ok, out) = run(Command::new(&certutil)
            .args(["-A", "-d", &db, "-n", "signet-root", "-t", "CT,C,C", "-i"])
            .arg(&f.root_pem));
        assert!(ok, "{out}");
        let (_, out) = run(Command::new(&pdfsig).arg("-nssdir").arg(&nss).arg(&good));
        assert!(out.contains("Signature is Valid"), "{out}");
        assert!(out.contains("Certificate is Trusted"), "{out}");
        assert!(!out.contains("Signature is Invalid"), "{out}");
        // pdfsig exits 0 even on a digest mismatch: read what it says.
        let (_, out) = run(Command::new(&pdfsig).arg("-nssdir").arg(&nss).arg(&bad));
        assert!(!out.contains("Signature is Valid"), "{out}");
    }
}

#[test]
fn the_time_stamp_authority_answers_requests_and_refuses_bad_ones() {
    let f = fixture();
    // A TimeStampReq: v1, SHA-256 imprint, nonce 42, certReq true.
    let digest = [7u8; 32];
    let req = yasna::construct_der(|w| {
        w.write_sequence(|w| {
            w.next().write_u8(1);
            w.next().write_sequence(|w| {
                crate::asn1::write_alg(w.next(), crate::asn1::SHA256);
                w.next().write_bytes(&digest);
            });
            w.next().write_u8(42);
            w.next().write_bool(true);
        })
    });
    let resp = f.authority.tsa().respond(&req, Utc::now());
    // PKIStatusInfo granted (0), then the token, which holds the imprint.
    assert_eq!(&resp[4..9], &[0x30, 0x03, 0x02, 0x01, 0x00]);
    assert!(resp.windows(32).any(|w| w == digest));
    let short = yasna::construct_der(|w| {
        w.write_sequence(|w| {
            w.next().write_u8(1);
            w.next().write_sequence(|w| {
                crate::asn1::write_alg(w.next(), crate::asn1::SHA256);
                w.next().write_bytes(&[1, 2, 3]);
            });
        })
    });
    let resp = f.authority.tsa().respond(&short, Utc::now());
    assert!(
        resp.windows(5).any(|w| w == [0x30, 0x03, 0x02, 0x01, 0x02])
            || resp[4..7] == [0x02, 0x01, 0x02]
    );
    // A request crafted to make the ASN.1 reader loop is refused at once.
    let crafted = [
        0x30, 0x80, 0x02, 0x01, 0x01, 0x30, 0x80, 0x30, 0x80, 0x04, 0x88, 0xff, 0xff, 0xff, 0xff,
        0xff, 0xff, 0xff, 0xf6,
    ];
    let refused = f.authority.tsa().respond(&crafted, Utc::now());
    assert!(refused.windows(3).any(|w| w == [0x02, 0x01, 0x02]));
    let garbage = f.authority.tsa().respond(b"not der", Utc::now());
    assert!(garbage.windows(3).any(|w| w == [0x02, 0x01, 0x02]));
}

#[test]
fn an_external_answer_is_taken_only_for_our_digest_and_nonce() {
    let f = fixture();
    let tsa = f.authority.tsa();
    let digest = [9u8; 32];
    let pending = crate::remote::request(&digest).expect("request");
    let answer = tsa.respond(&pending.body, Utc::now());
    let token = pending.token(&answer).expect("our token");
    // The token carries the authority's certificate and the root, for the DSS.
    assert_eq!(crate::remote::token_certificates(&token).len(), 2);

    // An answer to another request (another nonce) is refused, and so is another digest.
    let other = crate::remote::request(&digest).expect("request");
    let err = pending
        .token(&tsa.respond(&other.body, Utc::now()))
        .expect_err("another nonce");
    assert!(err.to_string().contains("nonce"), "{err}");
    let elsewhere = crate::remote::request(&[1u8; 32]).expect("request");
    let err = pending
        .token(&tsa.respond(&elsewhere.body, Utc::now()))
        .expect_err("another digest");
    assert!(err.to_string().contains("another digest"), "{err}");
    // A token whose TSTInfo or signature was changed on the way is refused.
    let mut changed = answer.clone();
    let at = changed
        .windows(32)
        .position(|w| w == digest)
        .expect("imprint");
    changed[at] ^= 1;
    let err = pending.token(&changed).expect_err("changed TSTInfo");
    assert!(err.to_string().contains("message digest"), "{err}");
    let mut forged = answer.clone();
    let last = forged.len() - 1;
    forged[last] ^= 1;
    let err = pending.token(&forged).expect_err("changed signature");
    assert!(err.to_string().contains("does not verify"), "{err}");
    // A refusal says why.
    let err = pending
        .token(&tsa.respond(b"junk", Utc::now()))
        .expect_err("refused");
    assert!(err.to_string().contains("status 2"), "{err}");
    assert!(pending.token(b"not der").is_err());
}

#[test]
fn the_time_stamp_authority_honours_its_policy_and_refuses_extensions() {
    let f = fixture();
    let tsa = f.authority.tsa();
    let imprint = |w: yasna::DERWriter| {
        w.write_sequence(|w| {
            crate::asn1::write_alg(w.next(), crate::asn1::SHA256);
            w.next().write_bytes(&[5u8; 32]);
        })
    };
    let status = |resp: &[u8]| {
        yasna::parse_der(resp, |r| {
            r.read_sequence(|r| {
                let st = r.next().read_sequence(|r| {
                    let st = r.next().read_i64()?;
                    while r.read_optional(|r| r.read_der())?.is_some() {}
                    Ok(st)
                })?;
                r.read_optional(|r| r.read_der())?;
                Ok(st)
            })
        })
        .expect("a TimeStampResp")
    };
    // Our own policy (a 2.25 arc wider than 64 bits) and an explicit certReq FALSE.
    let ours = yasna::construct_der(|w| {
        w.write_sequence(|w| {
            w.next().write_u8(1);
            imprint(w.next());
            w.next()
                .write_der(&crate::asn1::oid_der(crate::asn1::TSA_POLICY));
            w.next().write_bool(false);
        })
    });
    let resp = tsa.respond(&ours, Utc::now());
    assert_eq!(status(&resp), 0, "granted");
    // certReq false: no certificates in the token (no certificate of ours in it).
    assert!(
        !resp
            .windows(20)
            .any(|w| f.authority.root_der().windows(20).next() == Some(w)),
        "no certificates without certReq"
    );
    let other_policy = yasna::construct_der(|w| {
        w.write_sequence(|w| {
            w.next().write_u8(1);
            imprint(w.next());
            w.next().write_oid(&crate::asn1::oid(&[1, 2, 3, 4]));
        })
    });
    assert_eq!(status(&tsa.respond(&other_policy, Utc::now())), 2);
    let with_extensions = yasna::construct_der(|w| {
        w.write_sequence(|w| {
            w.next().write_u8(1);
            imprint(w.next());
            w.next()
                .write_tagged_implicit(yasna::Tag::context(0), |w| w.write_sequence(|_| {}));
        })
    });
    let refused = tsa.respond(&with_extensions, Utc::now());
    assert_eq!(status(&refused), 2);
    assert!(String::from_utf8_lossy(&refused).contains("extensions"));
}

#[test]
fn an_operators_rsa_pkcs12_key_seals_live_documents() {
    operators_pkcs12_key_seals_live_documents(&["-newkey", "rsa:2048"], "sha256_rsa");
}

#[test]
fn an_operators_ecdsa_p256_pkcs12_key_seals_live_documents() {
    operators_pkcs12_key_seals_live_documents(
        &["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256"],
        "sha256_ecdsa",
    );
}

/// An operator's chain made by OpenSSL with keys from `newkey` (as `openssl req` takes
/// them), packed as PKCS#12 with a password, seals live documents; pyHanko (naming
/// `mechanism`) and poppler's pdfsig, each trusting only the operator's root, judge the seal.
fn operators_pkcs12_key_seals_live_documents(newkey: &[&str], mechanism: &str) {
    let Some(openssl) = tool("openssl") else {
        return;
    };
    let f = fixture();
    let dir = f._dir.path();
    let ssl = |args: &[&str]| {
        let (ok, out) = run(Command::new(&openssl).current_dir(dir).args(args));
        assert!(ok, "openssl {args:?}: {out}");
    };
    std::fs::write(
        dir.join("leaf.ext"),
        "basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature,nonRepudiation\n",
    )
    .expect("ext");
    let with_key = |args: &[&str]| -> Vec<String> {
        let mut all: Vec<String> = vec!["req".into()];
        all.extend(newkey.iter().map(|s| s.to_string()));
        all.extend(args.iter().map(|s| s.to_string()));
        all
    };
    let root = with_key(&[
        "-x509",
        "-nodes",
        "-keyout",
        "op-ca.key",
        "-out",
        "op-ca.pem",
        "-days",
        "30",
        "-subj",
        "/CN=Operator Root",
        "-addext",
        "basicConstraints=critical,CA:TRUE",
        "-addext",
        "keyUsage=critical,keyCertSign,cRLSign",
    ]);
    ssl(&root.iter().map(String::as_str).collect::<Vec<_>>());
    let leaf = with_key(&[
        "-nodes",
        "-keyout",
        "op.key",
        "-out",
        "op.csr",
        "-subj",
        "/O=Operator/CN=Operator Document Seal",
    ]);
    ssl(&leaf.iter().map(String::as_str).collect::<Vec<_>>());
    ssl(&[
        "x509",
        "-req",
        "-in",
        "op.csr",
        "-CA",
        "op-ca.pem",
        "-CAkey",
        "op-ca.key",
        "-CAcreateserial",
        "-out",
        "op.pem",
        "-days",
        "30",
        "-extfile",
        "leaf.ext",
    ]);
    ssl(&[
        "pkcs12",
        "-export",
        "-inkey",
        "op.key",
        "-in",
        "op.pem",
        "-certfile",
        "op-ca.pem",
        "-out",
        "op.p12",
        "-passout",
        "pass:s3cret",
    ]);
    let p12 = std::fs::read(dir.join("op.p12")).expect("p12");

    let wrong = Authority::load(&f.ca)
        .expect("load")
        .with_pkcs12(&p12, "guess")
        .expect_err("wrong password");
    assert!(wrong.to_string().contains("cannot be opened"), "{wrong}");
    let authority = Authority::load(&f.ca)
        .expect("load")
        .with_pkcs12(&p12, "s3cret")
        .expect("the operator's key");
    let subject = String::from_utf8_lossy(&authority.sealer(false).cert.subject).to_string();
    assert!(subject.contains("Operator Document Seal"), "{subject}");
    // Test documents keep the generated test certificate.
    let test_subject = String::from_utf8_lossy(&authority.sealer(true).cert.subject).to_string();
    assert!(test_subject.contains("(TEST)"), "{test_subject}");

    let sealed = sealed_hello(&authority);
    let file = write(dir, "operator.pdf", &sealed);
    if let Some(pyhanko) = tool("pyhanko") {
        let (ok, out) = run(Command::new(&pyhanko)
            .args(["sign", "validate", "--pretty-print", "--trust-replace"])
            .arg("--trust")
            .arg(dir.join("op-ca.pem"))
            .arg("--trust")
            .arg(&f.root_pem)
            .arg(&file));
        assert!(
            ok && out.contains("The signature is judged VALID."),
            "{out}"
        );
        assert!(out.contains(mechanism), "{out}");
    }
    if let Some(out) = pdfsig_trusting(dir, &[&dir.join("op-ca.pem"), &f.root_pem], &file) {
        assert!(out.contains("Signature is Valid"), "{out}");
        assert!(out.contains("Certificate is Trusted"), "{out}");
        assert!(out.contains("Operator Document Seal"), "{out}");
    }
}

/// poppler's pdfsig on `file`, with an NSS database that trusts only `roots`; `None` when
/// pdfsig or certutil is not here.
pub(crate) fn pdfsig_trusting(dir: &Path, roots: &[&Path], file: &Path) -> Option<String> {
    let (pdfsig, certutil) = (tool("pdfsig")?, tool("certutil")?);
    let nss = dir.join(format!("nss-{}", roots.len()));
    std::fs::create_dir_all(&nss).expect("nss folder");
    let db = format!("sql:{}", nss.display());
    let (ok, out) = run(Command::new(&certutil).args(["-N", "-d", &db, "--empty-password"]));
    assert!(ok, "{out}");
    for (i, root) in roots.iter().enumerate() {
        let (ok, out) = run(Command::new(&certutil)
            .args([
                "-A",
                "-d",
                &db,
                "-n",
                &format!("root-{i}"),
                "-t",
                "CT,C,C",
                "-i",
            ])
            .arg(root));
        assert!(ok, "{out}");
    }
    let (_, out) = run(Command::new(&pdfsig).arg("-nssdir").arg(&nss).arg(file));
    Some(out)
}

#[test]
fn layers_are_laid_over_pages_and_appended_after_them() {
    let dir = tempfile::tempdir().expect("tempdir");
    let base = tiny_pdf("Base");
    let over = crate::stamp(&base, &tiny_pdf("Over"), 1).expect("overlay");
    assert_eq!(&over[..base.len()], &base[..], "an incremental update");
    let both = crate::stamp(&over, &tiny_pdf("After"), 0).expect("append");
    let file = write(dir.path(), "stamped.pdf", &both);
    assert!(
        crate::stamp(&base, &tiny_pdf("x"), 2).is_err(),
        "more overlays than pages"
    );
    if let Some(qpdf) = tool("qpdf") {
        let (ok, out) = run(Command::new(&qpdf).arg("--check").arg(&file));
        assert!(ok, "{out}");
    }
    if let Some(pdftotext) = tool("pdftotext") {
        let (ok, text) = run(Command::new(&pdftotext).arg(&file).arg("-"));
        assert!(ok, "{text}");
        let pages: Vec<&str> = text
            .split('\u{c}')
            .filter(|p| !p.trim().is_empty())
            .collect();
        assert_eq!(pages.len(), 2, "{text:?}");
        assert!(
            pages[0].contains("Base") && pages[0].contains("Over"),
            "{text:?}"
        );
        assert!(
            pages[1].contains("After") && !pages[1].contains("Base"),
            "{text:?}"
        );
    }
}
