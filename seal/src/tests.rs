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

/// The verifier on PATH; under `CI=true` its absence fails the test.
pub(crate) fn tool(name: &str) -> Option<PathBuf> {
    let found = std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|d| d.join(name))
            .find(|p| p.is_file())
    });
    if found.is_none() {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "{name} is not installed; .ci/run installs it"
        );
        eprintln!("skipping: {name} is not installed");
    }
    found
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

fn write(dir: &Path, name: &str, bytes: &[u8]) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, bytes).expect("write");
    p
}

#[test]
fn the_authority_is_made_once_with_private_keys_only_for_us() {
    use std::os::unix::fs::PermissionsExt;
    let f = fixture();
    for name in ["root", "seal", "seal-test", "tsa"] {
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
    let sealed = seal(&pdf, &f.authority, false, "Completed", Utc::now()).expect("seal");
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
    let sealed = seal(
        &tiny_pdf("Hello"),
        &f.authority,
        false,
        "Completed",
        Utc::now(),
    )
    .expect("seal");
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
        let validate = |file: &Path| {
            run(Command::new(&pyhanko)
                .args([
                    "sign",
                    "validate",
                    "--pretty-print",
                    "--trust-replace",
                    "--trust",
                ])
                .arg(&f.root_pem)
                .arg(file))
        };
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
    let garbage = f.authority.tsa().respond(b"not der", Utc::now());
    assert!(garbage.windows(3).any(|w| w == [0x02, 0x01, 0x02]));
}
