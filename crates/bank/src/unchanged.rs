//! Whether `dist/` already is the build of these inputs, decided from bytes
//! alone: a digest of every file of every problem directory (and the
//! options) against the one the last complete build recorded, and every
//! artefact's bytes against the manifest's digests. No test, record or
//! chart is decoded, so a no-op rebuild costs reading and hashing files,
//! and grows with the number of problems, not with the size of their tests.
//!
//! Only a build in which every problem built is recorded: a failing
//! problem is built (and reported) again each time.

use std::path::{Path, PathBuf};

use sha2::{Digest as _, Sha256};

use super::build::BuildOptions;
use flowbench_support::FileError;

use super::cache::{CACHE_DIR, sha256_hex, write_if_changed};
use super::dist::Manifest;
use super::summary::Summary;

/// The record's file in `dist/.cache/` (not `<problem>.json`, so it is never
/// taken for a problem's cache entry).
pub const STAMP_FILE: &str = "bank.stamp";

/// The digest of everything a build reads: flowbench's version, the
/// artefact format, the options that decide artefacts, and each problem
/// directory's name and files (names and bytes, in name order).
pub fn inputs_digest(dirs: &[PathBuf], opts: &BuildOptions) -> std::io::Result<String> {
    digest_with_format(dirs, opts, super::build::ARTEFACT_FORMAT)
}

fn digest_with_format(dirs: &[PathBuf], opts: &BuildOptions, format: &str) -> std::io::Result<String> {
    let mut h = Sha256::new();
    let mut field = |bytes: &[u8]| {
        h.update((bytes.len() as u64).to_le_bytes());
        h.update(bytes);
    };
    field(env!("CARGO_PKG_VERSION").as_bytes());
    field(format.as_bytes());
    field(serde_json::to_string(&opts.styles).unwrap_or_default().as_bytes());
    field(&opts.time_limit.as_nanos().to_le_bytes());
    field(&[u8::from(opts.deny_warnings), u8::from(opts.allow_ambiguous)]);
    field(serde_json::to_string(&opts.left_out).unwrap_or_default().as_bytes());
    for dir in dirs {
        field(dir.to_string_lossy().as_bytes());
        let mut files: Vec<PathBuf> =
            std::fs::read_dir(dir)?.flatten().map(|e| e.path()).filter(|p| p.is_file()).collect();
        files.sort();
        for file in files {
            field(file.file_name().map(|n| n.as_encoded_bytes()).unwrap_or_default());
            field(&std::fs::read(&file)?);
        }
    }
    Ok(h.finalize().iter().map(|b| format!("{b:02x}")).collect())
}

/// What a no-op build reports: the manifest and each problem's diagnostics
/// (warnings), as the last build wrote them.
#[derive(Debug, Clone, PartialEq)]
pub struct UpToDate {
    pub manifest: Manifest,
    pub diagnostics: Vec<String>,
}

/// The last build of `out` when it recorded `digest` and every artefact
/// (and the manifest itself) is as it wrote them; `None` when anything
/// differs or cannot be read.
pub fn up_to_date(out: &Path, digest: &str) -> Option<UpToDate> {
    let recorded = std::fs::read_to_string(out.join(CACHE_DIR).join(STAMP_FILE)).ok()?;
    let (inputs, manifest_digest) = recorded.trim().split_once(' ')?;
    if inputs != digest {
        return None;
    }
    let manifest_bytes = std::fs::read(out.join("manifest.json")).ok()?;
    if sha256_hex(&manifest_bytes) != manifest_digest {
        return None;
    }
    let manifest: Manifest = serde_json::from_slice(&manifest_bytes).ok()?;
    let intact = manifest.artefacts.iter().all(|(f, h)| std::fs::read(out.join(f)).is_ok_and(|b| sha256_hex(&b) == *h));
    if !intact {
        return None;
    }
    // The reports' warnings, printed again as a full rebuild would print them.
    let diagnostics = match std::fs::read(out.join("summary.json")) {
        Ok(bytes) => {
            let summary: Summary = serde_json::from_slice(&bytes).ok()?;
            summary.reports.into_iter().flat_map(|r| r.diagnostics).collect()
        }
        Err(_) => Vec::new(),
    };
    Some(UpToDate { manifest, diagnostics })
}

/// Records a complete build of inputs `digest` whose manifest is written;
/// removes the record when some problem failed (so the next build runs).
pub fn record(out: &Path, digest: &str, manifest: &Manifest) -> Result<(), FileError> {
    let path = out.join(CACHE_DIR).join(STAMP_FILE);
    if !manifest.failed.is_empty() {
        return super::dist::remove_if_present(&path);
    }
    let manifest_path = out.join("manifest.json");
    let manifest_bytes = std::fs::read(&manifest_path).map_err(FileError::reading(&manifest_path))?;
    write_if_changed(&path, format!("{digest} {}\n", sha256_hex(&manifest_bytes)).as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    fn options() -> BuildOptions {
        BuildOptions {
            out: PathBuf::new(),
            deny_warnings: true,
            force: false,
            time_limit: std::time::Duration::from_secs(10),
            styles: Vec::new(),
            allow_ambiguous: false,
            weak_sandbox: None,
            left_out: Vec::new(),
        }
    }

    fn manifest(artefacts: &[(&str, &[u8])], failed: &[&str]) -> Manifest {
        Manifest {
            flowbench_version: "0".into(),
            options: super::super::dist::ManifestOptions {
                deny_warnings: true,
                time_limit_s: 10.0,
                styles: Vec::new(),
                weak_sandbox: None,
            },
            styles: Vec::new(),
            subsets: BTreeMap::new(),
            problems: 1,
            built: 1,
            failed: failed.iter().map(|s| s.to_string()).collect(),
            left_out: Vec::new(),
            table1: Vec::new(),
            artefacts: artefacts.iter().map(|(f, b)| (f.to_string(), sha256_hex(b))).collect(),
            style_parameters: BTreeMap::new(),
        }
    }

    /// A bank of one problem and a `dist/` holding one artefact and its manifest.
    fn setup() -> (tempfile::TempDir, Vec<PathBuf>, PathBuf, Manifest) {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("bank/gcd");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("problem.json"), "{}").unwrap();
        std::fs::write(dir.join("tests.jsonl"), "{}\n").unwrap();
        let out = tmp.path().join("dist");
        std::fs::create_dir_all(out.join(CACHE_DIR)).unwrap();
        std::fs::write(out.join("a.png"), b"png").unwrap();
        let m = manifest(&[("a.png", b"png")], &[]);
        std::fs::write(out.join("manifest.json"), serde_json::to_string(&m).unwrap()).unwrap();
        (tmp, vec![dir], out, m)
    }

    #[test]
    fn a_recorded_build_is_up_to_date_until_an_input_or_artefact_changes() {
        let (_tmp, dirs, out, m) = setup();
        let digest = digest_with_format(&dirs, &options(), "f").unwrap();
        assert!(up_to_date(&out, &digest).is_none(), "nothing recorded yet");
        record(&out, &digest, &m).unwrap();
        assert_eq!(up_to_date(&out, &digest).map(|u| u.manifest), Some(m.clone()));

        // Any byte of any input file, a new file, or an option changes the digest.
        std::fs::write(dirs[0].join("tests.jsonl"), "{} \n").unwrap();
        assert_ne!(digest_with_format(&dirs, &options(), "f").unwrap(), digest);
        std::fs::write(dirs[0].join("tests.jsonl"), "{}\n").unwrap();
        assert_eq!(digest_with_format(&dirs, &options(), "f").unwrap(), digest);
        std::fs::write(dirs[0].join("description.md"), "").unwrap();
        assert_ne!(digest_with_format(&dirs, &options(), "f").unwrap(), digest);
        std::fs::remove_file(dirs[0].join("description.md")).unwrap();
        assert_ne!(
            digest_with_format(&dirs, &BuildOptions { deny_warnings: false, ..options() }, "f").unwrap(),
            digest
        );
        assert_ne!(digest_with_format(&dirs, &options(), "g").unwrap(), digest);

        // A damaged artefact or manifest means a build.
        std::fs::write(out.join("a.png"), b"damaged").unwrap();
        assert!(up_to_date(&out, &digest).is_none());
        std::fs::write(out.join("a.png"), b"png").unwrap();
        assert!(up_to_date(&out, &digest).is_some());
        std::fs::write(out.join("manifest.json"), b"{}").unwrap();
        assert!(up_to_date(&out, &digest).is_none());
    }

    #[test]
    fn a_build_with_a_failed_problem_is_not_recorded() {
        let (_tmp, dirs, out, m) = setup();
        let digest = digest_with_format(&dirs, &options(), "f").unwrap();
        record(&out, &digest, &m).unwrap();
        let failed = manifest(&[("a.png", b"png")], &["gcd"]);
        std::fs::write(out.join("manifest.json"), serde_json::to_string(&failed).unwrap()).unwrap();
        record(&out, &digest, &failed).unwrap();
        assert!(up_to_date(&out, &digest).is_none());
        assert!(!out.join(CACHE_DIR).join(STAMP_FILE).exists());
    }
}
