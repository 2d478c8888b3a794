//! Office files (Word, Excel and PowerPoint, in their open, OOXML and old binary kinds, and
//! RTF) turned into PDF by LibreOffice, then handled as any PDF template.
//!
//! **Checked first** (in this process, before LibreOffice sees a byte): a zip-based file is
//! read part by part with caps on the number of parts, each part's and the whole's unpacked
//! size and each large part's packing ratio, so a zip bomb stops at the cap; names that
//! climb out of the archive, encrypted parts and any XML part declaring a DTD are refused.
//! Macros (VBA projects, ActiveX, ribbon callbacks, Basic and script libraries) are removed,
//! and so are links that point outside the file: OOXML relationships to external targets and
//! ODF `xlink:href`s that are not parts of the package. The archive is written anew from what
//! is kept.
//!
//! **Converted** in a sandboxed child process, one per file: bubblewrap gives LibreOffice no
//! network, its own process, IPC and user namespaces, and a file system of `/usr`, the font
//! configuration and one fresh working folder (no home, no data folder, no keys). Its profile
//! is new each time and says: block untrusted referer links, never update links or fields,
//! never run macros. `prlimit` caps its address space, CPU time and file sizes; a deadline
//! kills the whole process tree (bubblewrap's `--die-with-parent` takes the namespace down).

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::pdf::PdfError;
use crate::process::{find_program, wait_for};

mod family;
mod xml;

use family::{Family, err, macro_part};

use xml::{PULLING_FIELDS, Rule, clean_xml, looks_like_xml, pulling_field};

/// Parts an office archive may have.
const MAX_PARTS: usize = 4_000;
/// One part unpacked.
const MAX_PART: u64 = 64 * 1024 * 1024;
/// All parts unpacked together.
const MAX_UNPACKED: u64 = 256 * 1024 * 1024;
/// Unpacked over packed, for a part over `RATIO_FROM` bytes unpacked. Office XML packs 5 to
/// 30 times; a bomb packs a thousand times and more.
const MAX_RATIO: u64 = 200;
const RATIO_FROM: u64 = 1024 * 1024;
/// How long LibreOffice may take over one file.
const TIMEOUT: Duration = Duration::from_secs(60);
/// LibreOffice's address space (it maps much it never touches).
const ADDRESS_SPACE: u64 = 4 * 1024 * 1024 * 1024;
/// CPU seconds, a backstop for the deadline.
const CPU_SECONDS: u64 = 90;
/// The largest file LibreOffice may write, its PDF included.
const MAX_WRITTEN: u64 = 128 * 1024 * 1024;
/// Its private /tmp, in memory.
const TMP_SIZE: u64 = 128 * 1024 * 1024;

/// An office file as LibreOffice will get it: checked, cleaned, with the extension of its
/// real kind.
#[derive(Debug)]
pub struct Cleaned {
    pub bytes: Vec<u8>,
    /// docx, docm, xlsx, xlsm, pptx, pptm, odt, ods, odp, doc, xls, ppt or rtf.
    pub ext: &'static str,
    /// What was removed, each said once with how many times.
    pub warnings: Vec<String>,
}

/// Checks and cleans an office file; the kind is read from its bytes.
pub fn clean(bytes: &[u8]) -> Result<Cleaned, PdfError> {
    if bytes.starts_with(b"PK\x03\x04") {
        return clean_zip(bytes);
    }
    if bytes.starts_with(&[0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]) {
        return old_office(bytes);
    }
    if bytes.starts_with(b"{\\rtf") {
        // RTF's fields are plain text: one that pulls in a file is refused (LibreOffice
        // follows INCLUDEPICTURE whatever its profile says).
        let text = String::from_utf8_lossy(bytes).to_ascii_uppercase();
        if let Some(field) = PULLING_FIELDS[..3].iter().find(|f| text.contains(*f)) {
            return Err(pulling_field("the RTF text", field));
        }
        if text.contains("\\OBJAUTLINK") {
            return Err(pulling_field("the RTF text", "a linked object"));
        }
        return Ok(Cleaned {
            bytes: bytes.to_vec(),
            ext: "rtf",
            warnings: Vec::new(),
        });
    }
    Err(err("is not a Word, Excel or PowerPoint file"))
}

/// Old binary Office files (OLE compound files) are kept as they are: their macros cannot
/// be taken out without rewriting the file, so LibreOffice is told never to run any, and
/// the sandbox has nothing for them to reach.
fn old_office(bytes: &[u8]) -> Result<Cleaned, PdfError> {
    // Stream names in the compound file's directory are UTF-16LE.
    let has = |name: &str| {
        let wide: Vec<u8> = name.encode_utf16().flat_map(|u| u.to_le_bytes()).collect();
        bytes.windows(wide.len()).any(|w| w == wide.as_slice())
    };
    if has("EncryptedPackage") || has("EncryptionInfo") {
        return Err(err(
            "is protected by a password; save it without one (or as PDF) and send it again",
        ));
    }
    for field in &PULLING_FIELDS[..3] {
        let ascii = bytes
            .windows(field.len())
            .any(|w| w.eq_ignore_ascii_case(field.as_bytes()));
        if ascii || has(field) {
            return Err(pulling_field("the Word text", field));
        }
    }
    let ext = if has("WordDocument") {
        "doc"
    } else if has("Workbook") || has("Book") {
        "xls"
    } else if has("PowerPoint Document") {
        "ppt"
    } else {
        return Err(err(
            "is an Office file of the old format that is not a Word, Excel or PowerPoint file",
        ));
    };
    let mut warnings = Vec::new();
    if has("Macros") || has("_VBA_PROJECT") || has("VBA") {
        warnings.push(
            "the file has macros: they were not run (LibreOffice runs none here)".to_string(),
        );
    }
    Ok(Cleaned {
        bytes: bytes.to_vec(),
        ext,
        warnings,
    })
}

fn clean_zip(bytes: &[u8]) -> Result<Cleaned, PdfError> {
    let mut zip = zip::ZipArchive::new(std::io::Cursor::new(bytes))
        .map_err(|e| err(format!("is not a readable office file (its zip: {e})")))?;
    if zip.len() > MAX_PARTS {
        return Err(err(format!(
            "has {} parts inside; at most {MAX_PARTS} are taken",
            zip.len()
        )));
    }
    let names: Vec<String> = zip
        .file_names()
        .map(|n| n.map(|n| n.into_owned()))
        .collect::<Result<_, _>>()
        .map_err(|e| err(format!("is not a readable office file (its names: {e})")))?;
    let family = if names.iter().any(|n| n == "[Content_Types].xml") {
        Family::Ooxml
    } else if names.iter().any(|n| n == "mimetype") {
        Family::Odf
    } else {
        return Err(err(
            "is a zip file but not a Word, Excel or PowerPoint file",
        ));
    };
    let mut parts: Vec<(String, Vec<u8>)> = Vec::with_capacity(names.len());
    let mut total = 0u64;
    let mut removed = std::collections::BTreeMap::<&'static str, usize>::new();
    let mut seen = std::collections::BTreeSet::new();
    for i in 0..zip.len() {
        let mut part = zip
            .by_index(i)
            .map_err(|e| err(format!("cannot be read (its zip: {e})")))?;
        let name = part
            .name()
            .map_err(|e| err(format!("is not a readable office file (a name: {e})")))?
            .into_owned();
        if !seen.insert(name.to_ascii_lowercase()) {
            return Err(err(format!(
                "has two parts named {}",
                crate::fields::short(&name)
            )));
        }
        check_name(&name)?;
        if part.encrypted() {
            return Err(err(
                "is protected by a password; save it without one (or as PDF) and send it again",
            ));
        }
        if part.is_dir() {
            continue;
        }
        if let Some(what) = macro_part(family, &name) {
            *removed.entry(what).or_default() += 1;
            continue;
        }
        let mut data = unpacked(&mut part, &name)?;
        total += data.len() as u64;
        if total > MAX_UNPACKED {
            return Err(err(format!(
                "unpacks to more than {} MB: it looks like a zip bomb",
                MAX_UNPACKED >> 20
            )));
        }
        if looks_like_xml(&data) {
            let rule = match family {
                Family::Ooxml if name.ends_with(".rels") => Rule::Relationships,
                Family::Ooxml => Rule::OoxmlPart,
                // The manifest names parts by full path, never by link.
                Family::Odf if name == "META-INF/manifest.xml" => Rule::Manifest,
                Family::Odf => Rule::OdfPart,
            };
            let (kept, cut) = clean_xml(&data, rule, &name)?;
            if cut > 0 {
                *removed.entry("link to outside the file").or_default() += cut;
            }
            data = kept;
        }
        parts.push((name, data));
    }
    let ext = kind_of(family, &parts)?;
    let bytes = zipped(&parts)?;
    let warnings = removed
        .into_iter()
        .map(|(what, n)| {
            if n == 1 {
                format!("removed a {what}")
            } else {
                format!("removed {n} of: {what}")
            }
        })
        .collect();
    Ok(Cleaned {
        bytes,
        ext,
        warnings,
    })
}

/// A part's name must stay inside the archive.
fn check_name(name: &str) -> Result<(), PdfError> {
    if name.starts_with('/')
        || name.contains('\\')
        || name.contains('\0')
        || name.split('/').any(|s| s == "..")
    {
        return Err(err(format!(
            "has a part whose name leaves the archive: {}",
            crate::fields::short(name)
        )));
    }
    Ok(())
}

/// A part unpacked, within the size of one part and the ratio of a zip bomb.
fn unpacked(
    part: &mut zip::read::ZipFile<'_, std::io::Cursor<&[u8]>>,
    name: &str,
) -> Result<Vec<u8>, PdfError> {
    let packed = part.compressed_size();
    let mut data = Vec::new();
    part.take(MAX_PART + 1)
        .read_to_end(&mut data)
        .map_err(|e| {
            err(format!(
                "cannot be read (part {}: {e})",
                crate::fields::short(name)
            ))
        })?;
    let size = data.len() as u64;
    if size > MAX_PART {
        return Err(err(format!(
            "has a part larger than {} MB unpacked ({}): it looks like a zip bomb",
            MAX_PART >> 20,
            crate::fields::short(name)
        )));
    }
    if size > RATIO_FROM && size > packed.saturating_mul(MAX_RATIO) {
        return Err(err(format!(
            "has a part that unpacks to more than {MAX_RATIO} times its packed size ({}): \
             it looks like a zip bomb",
            crate::fields::short(name)
        )));
    }
    Ok(data)
}

/// The cleaned parts zipped again, in their order.
fn zipped(parts: &[(String, Vec<u8>)]) -> Result<Vec<u8>, PdfError> {
    let mut out = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    for (name, data) in parts {
        // ODF wants its `mimetype` first and stored; it was first, and stays so.
        let method = if name == "mimetype" {
            zip::CompressionMethod::Stored
        } else {
            zip::CompressionMethod::Deflated
        };
        let options = zip::write::SimpleFileOptions::default()
            .compression_method(method)
            .large_file(data.len() as u64 > u32::MAX as u64);
        out.start_file(name.as_str(), options)
            .and_then(|_| out.write_all(data).map_err(Into::into))
            .map_err(|e| err(format!("could not be written anew: {e}")))?;
    }
    Ok(out
        .finish()
        .map_err(|e| err(format!("could not be written anew: {e}")))?
        .into_inner())
}

/// The extension of the file's real kind, from its main part.
fn kind_of(family: Family, parts: &[(String, Vec<u8>)]) -> Result<&'static str, PdfError> {
    let part = |n: &str| parts.iter().find(|(name, _)| name == n).map(|(_, d)| d);
    match family {
        Family::Ooxml => {
            let types = part("[Content_Types].xml")
                .map(|d| String::from_utf8_lossy(d).to_ascii_lowercase())
                .unwrap_or_default();
            let macros = types.contains("macroenabled");
            let has = |n: &str| parts.iter().any(|(name, _)| name == n);
            Ok(
                if has("word/document.xml") || types.contains("wordprocessingml") {
                    if macros { "docm" } else { "docx" }
                } else if has("xl/workbook.xml") || types.contains("spreadsheetml") {
                    if macros { "xlsm" } else { "xlsx" }
                } else if has("ppt/presentation.xml") || types.contains("presentationml") {
                    if macros { "pptm" } else { "pptx" }
                } else {
                    return Err(err(
                        "is an Office Open XML file that is not a document, workbook or presentation",
                    ));
                },
            )
        }
        Family::Odf => {
            let mime = part("mimetype")
                .map(|d| String::from_utf8_lossy(d).trim().to_string())
                .unwrap_or_default();
            match mime.as_str() {
                "application/vnd.oasis.opendocument.text" => Ok("odt"),
                "application/vnd.oasis.opendocument.spreadsheet" => Ok("ods"),
                "application/vnd.oasis.opendocument.presentation" => Ok("odp"),
                other => Err(err(format!(
                    "is an OpenDocument file of a kind not taken ({}): send a text, spreadsheet \
                     or presentation",
                    crate::fields::short(other)
                ))),
            }
        }
    }
}

/// LibreOffice and the sandbox it runs in, as found on this machine.
#[derive(Clone, Debug)]
pub struct Office {
    soffice: PathBuf,
    bwrap: PathBuf,
    prlimit: PathBuf,
}

/// What a machine lacks to convert office files, said to the sender.
const MISSING: &str = "templates from Word, Excel and PowerPoint files are converted by \
LibreOffice in a bubblewrap sandbox, and this installation has";

impl Office {
    /// Finds `soffice`, `bwrap` and `prlimit`; the error names what is missing.
    pub fn find() -> Result<Office, String> {
        let soffice = find_program(&["soffice", "libreoffice"]).or_else(|| {
            let p = PathBuf::from("/usr/lib/libreoffice/program/soffice");
            p.exists().then_some(p)
        });
        let bwrap = find_program(&["bwrap"]);
        let prlimit = find_program(&["prlimit"]);
        let mut missing = Vec::new();
        if soffice.is_none() {
            missing.push(
                "no LibreOffice (Debian: libreoffice-writer-nogui, -calc-nogui, -impress-nogui)",
            );
        }
        if bwrap.is_none() {
            missing.push("no bubblewrap (Debian: bubblewrap)");
        }
        if prlimit.is_none() {
            missing.push("no prlimit (Debian: util-linux)");
        }
        match (soffice, bwrap, prlimit) {
            (Some(soffice), Some(bwrap), Some(prlimit)) => Ok(Office {
                soffice,
                bwrap,
                prlimit,
            }),
            _ => Err(format!(
                "{MISSING} {}: save the file as PDF and send the PDF",
                missing.join(" and ")
            )),
        }
    }

    /// Converts a cleaned file to PDF in a fresh sandbox, within `TIMEOUT`.
    pub fn to_pdf(&self, file: &Cleaned) -> Result<Vec<u8>, PdfError> {
        let work = tempfile::Builder::new()
            .prefix("signet-office-")
            .tempdir()
            .map_err(|e| err(format!("could not be converted (a working folder: {e})")))?;
        // `w` is what the sandbox sees (its file read-only); the log stays outside it.
        let root = work.path();
        let w = root.join("w");
        let setup = || -> std::io::Result<()> {
            std::fs::create_dir_all(w.join("in"))?;
            std::fs::create_dir_all(w.join("out"))?;
            std::fs::create_dir_all(w.join("profile/user"))?;
            std::fs::write(w.join("profile/user/registrymodifications.xcu"), PROFILE)?;
            std::fs::write(w.join("in").join(format!("file.{}", file.ext)), &file.bytes)?;
            std::fs::write(root.join("log"), b"")
        };
        setup().map_err(|e| err(format!("could not be converted (a working folder: {e})")))?;
        let log = std::fs::OpenOptions::new()
            .append(true)
            .open(root.join("log"))
            .map_err(|e| err(format!("could not be converted (its log: {e})")))?;
        let log2 = log
            .try_clone()
            .map_err(|e| err(format!("could not be converted (its log: {e})")))?;
        let mut cmd = self.command(&w, file.ext);
        cmd.stdin(Stdio::null())
            .stdout(Stdio::from(log))
            .stderr(Stdio::from(log2));
        let started = Instant::now();
        let mut child = cmd.spawn().map_err(|e| {
            err(format!(
                "could not be converted (starting LibreOffice: {e})"
            ))
        })?;
        // bubblewrap is what is killed at the deadline, and with it (--die-with-parent) its
        // namespace and everything in it.
        let status = wait_for(&mut child, started, TIMEOUT).map_err(|e| match e {
            None => err(format!(
                "took LibreOffice more than {} s to convert; it was stopped",
                TIMEOUT.as_secs()
            )),
            Some(e) => err(format!("could not be converted (waiting: {e})")),
        })?;
        // What the sandbox left is read without following links: it could have planted a
        // link to a host file where its PDF should be.
        let pdf = w.join("out/file.pdf");
        let plain = std::fs::symlink_metadata(&pdf).ok().filter(|m| {
            use std::os::unix::fs::MetadataExt;
            m.file_type().is_file() && m.nlink() == 1 && m.len() > 0 && m.len() <= MAX_WRITTEN
        });
        if !status.success() || plain.is_none() {
            let said = std::fs::read(root.join("log")).unwrap_or_default();
            let said =
                String::from_utf8_lossy(&said[said.len().saturating_sub(600)..]).into_owned();
            tracing::warn!(code = ?status.code(), said = %said, "LibreOffice did not convert a file");
            return Err(err(
                "could not be opened by LibreOffice: it may be damaged, or not the kind its \
                 bytes say; save it again (or as PDF) and send it again",
            ));
        }
        std::fs::read(&pdf).map_err(|e| err(format!("could not be converted (reading: {e})")))
    }

    fn command(&self, root: &Path, ext: &str) -> Command {
        let mut cmd = Command::new(&self.prlimit);
        cmd.arg(format!("--as={ADDRESS_SPACE}"))
            .arg(format!("--cpu={CPU_SECONDS}"))
            .arg(format!("--fsize={MAX_WRITTEN}"))
            .arg("--core=0")
            .arg("--")
            .arg(&self.bwrap)
            .args(["--unshare-all", "--die-with-parent", "--new-session"])
            .args(["--ro-bind", "/usr", "/usr"])
            .args(["--symlink", "usr/lib", "/lib"])
            .args(["--symlink", "usr/lib64", "/lib64"])
            .args(["--symlink", "usr/bin", "/bin"])
            .args(["--symlink", "usr/sbin", "/sbin"])
            .args(["--ro-bind-try", "/etc/fonts", "/etc/fonts"])
            .args(["--ro-bind-try", "/etc/libreoffice", "/etc/libreoffice"])
            .args(["--ro-bind-try", "/etc/ld.so.cache", "/etc/ld.so.cache"])
            .args(["--proc", "/proc", "--dev", "/dev"])
            .args(["--size", &TMP_SIZE.to_string(), "--tmpfs", "/tmp"])
            .arg("--bind")
            .arg(root)
            .arg("/w")
            .arg("--ro-bind")
            .arg(root.join("in"))
            .arg("/w/in")
            .args(["--chdir", "/w", "--clearenv"])
            .args(["--setenv", "PATH", "/usr/bin", "--setenv", "HOME", "/w"])
            .args(["--setenv", "LANG", "C.UTF-8", "--setenv", "TMPDIR", "/tmp"])
            .arg("--")
            .arg(&self.soffice)
            .args([
                "--headless",
                "--invisible",
                "--norestore",
                "--nologo",
                "--nodefault",
                "--nolockcheck",
                "--nofirststartwizard",
                "-env:UserInstallation=file:///w/profile",
                "--convert-to",
                "pdf",
                "--outdir",
                "/w/out",
            ])
            .arg(format!("/w/in/file.{ext}"));
        cmd
    }
}

/// The fresh profile's settings: no macros, no link or field updates from outside, no
/// untrusted referer links (LibreOffice's switch that stops an external image link from
/// being fetched or a local file from being embedded).
const PROFILE: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<oor:items xmlns:oor="http://openoffice.org/2001/registry" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
<item oor:path="/org.openoffice.Office.Common/Security/Scripting"><prop oor:name="BlockUntrustedRefererLinks" oor:op="fuse"><value>true</value></prop></item>
<item oor:path="/org.openoffice.Office.Common/Security/Scripting"><prop oor:name="MacroSecurityLevel" oor:op="fuse"><value>3</value></prop></item>
<item oor:path="/org.openoffice.Office.Common/Security/Scripting"><prop oor:name="DisableMacrosExecution" oor:op="fuse"><value>true</value></prop></item>
<item oor:path="/org.openoffice.Office.Writer/Content/Update"><prop oor:name="Link" oor:op="fuse"><value>0</value></prop></item>
<item oor:path="/org.openoffice.Office.Writer/Content/Update"><prop oor:name="Field" oor:op="fuse"><value>false</value></prop></item>
<item oor:path="/org.openoffice.Office.Calc/Content/Update"><prop oor:name="Link" oor:op="fuse"><value>1</value></prop></item>
<item oor:path="/org.openoffice.Office.Common/Misc"><prop oor:name="UseLocking" oor:op="fuse"><value>false</value></prop></item>
</oor:items>
"#;
