//! The per-problem build cache (`dist/.cache/<task>.json`) and content
//! hashes: a problem is up to date when its input stamp matches and every
//! artefact it wrote still has the hash recorded for it.

use std::path::{Path, PathBuf};

use flowbench_support::FileError;
use serde::{Deserialize, Serialize};
use sha2::{Digest as _, Sha256};

use super::build::Built;

/// Directory of cache entries inside the output root.
pub const CACHE_DIR: &str = ".cache";

/// A build output (artefact, cache entry, bank-level file, shard record)
/// that could not be written, or a stale one that could not be removed.
#[derive(Debug, thiserror::Error)]
pub enum WriteError {
    #[error(transparent)]
    File(#[from] FileError),
    /// A record or entry that does not encode (the encoder's message).
    #[error(transparent)]
    Encode(#[from] serde_json::Error),
    /// A style whose parameters do not resolve, for the manifest.
    #[error("style `{style}`: {error}")]
    Style { style: String, error: Box<super::styles::StyleError> },
}

/// What a build remembers about one problem.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct CacheEntry {
    pub stamp: String,
    pub built: Built,
}

fn entry_path(out: &Path, name: &str) -> PathBuf {
    out.join(CACHE_DIR).join(format!("{name}.json"))
}

/// Lowercase hex SHA-256.
pub fn sha256_hex(bytes: &[u8]) -> String {
    let digest = Sha256::digest(bytes);
    let mut s = String::with_capacity(64);
    for b in digest.iter() {
        s.push_str(&format!("{b:02x}"));
    }
    s
}

/// `(path, sha256)` of each `out`-relative file; unreadable files hash to "".
pub fn hash_outputs(out: &Path, files: &[String]) -> Vec<(String, String)> {
    files.iter().map(|f| (f.clone(), std::fs::read(out.join(f)).map(|b| sha256_hex(&b)).unwrap_or_default())).collect()
}

/// The cached build when its stamp matches and every artefact is intact.
pub fn up_to_date(out: &Path, name: &str, stamp: &str) -> Option<Built> {
    let entry: CacheEntry = serde_json::from_slice(&std::fs::read(entry_path(out, name)).ok()?).ok()?;
    if entry.stamp != stamp {
        return None;
    }
    let intact = entry.built.hashes.iter().all(|(f, h)| std::fs::read(out.join(f)).is_ok_and(|b| sha256_hex(&b) == *h));
    intact.then_some(Built { rebuilt: false, ..entry.built })
}

/// Writes the cache entry (after the artefacts it describes).
pub fn store(out: &Path, entry: &CacheEntry) -> Result<(), WriteError> {
    let path = entry_path(out, &entry.built.report.name);
    Ok(write_if_changed(&path, serde_json::to_string(entry)?.as_bytes())?)
}

/// Writes `bytes` unless the file already holds exactly them (so a no-op
/// build touches nothing), creating parent directories; the write goes
/// through a temporary file and a rename, so a killed build never leaves a
/// half-written artefact under its final name.
pub fn write_if_changed(path: &Path, bytes: &[u8]) -> Result<(), FileError> {
    if std::fs::read(path).is_ok_and(|old| old == bytes) {
        return Ok(());
    }
    flowbench_support::outfile::write_atomic(path, bytes).map_err(FileError::writing(path))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sha256_of_abc() {
        assert_eq!(sha256_hex(b"abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    }

    #[test]
    fn write_if_changed_keeps_an_identical_file() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("a/b.txt");
        write_if_changed(&p, b"x").unwrap();
        let before = std::fs::metadata(&p).unwrap().modified().unwrap();
        std::thread::sleep(std::time::Duration::from_millis(20));
        write_if_changed(&p, b"x").unwrap();
        assert_eq!(std::fs::metadata(&p).unwrap().modified().unwrap(), before);
        write_if_changed(&p, b"y").unwrap();
        assert_eq!(std::fs::read(&p).unwrap(), b"y");
    }
}
