//! A per-user cache of the AST reader's answers, so drawing a solution and
//! then checking charts against it (often many times while a chart is being
//! edited) starts `python3` once, not on every command: the interpreter's
//! start-up is most of the time of `check --against`.
//!
//! An answer is keyed by the reader script, the `python3` it ran under (path,
//! size and modification time: a new interpreter may read code differently),
//! the entry name and the solution text. Entries live under
//! `$XDG_CACHE_HOME/flowbench/ast` (else `~/.cache/flowbench/ast`);
//! `FLOWBENCH_CACHE=off` disables the cache. Every failure to read or write
//! the cache only costs the time it would have saved.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use sha2::{Digest, Sha256};

/// The cache directory, or `None` when disabled or there is no home.
fn dir() -> Option<&'static Path> {
    static DIR: OnceLock<Option<PathBuf>> = OnceLock::new();
    DIR.get_or_init(|| flowbench_support::user_cache::dir("ast")).as_deref()
}

/// What identifies the interpreter: the first `python3` on `PATH`, resolved,
/// with its size and modification time.
fn interpreter() -> &'static str {
    static ID: OnceLock<String> = OnceLock::new();
    ID.get_or_init(|| {
        let path = std::env::var_os("PATH").unwrap_or_default();
        std::env::split_paths(&path)
            .map(|d| d.join("python3"))
            .find(|p| p.is_file())
            .and_then(|p| std::fs::canonicalize(p).ok())
            .and_then(|p| {
                let meta = std::fs::metadata(&p).ok()?;
                let mtime = meta.modified().ok()?.duration_since(std::time::UNIX_EPOCH).ok()?;
                Some(format!("{} {} {}", p.display(), meta.len(), mtime.as_nanos()))
            })
            .unwrap_or_default()
    })
}

/// The cache key of reading `source` for `entry` with `script`.
pub fn key(script: &str, entry: &str, source: &str) -> String {
    let mut hash = Sha256::new();
    for part in [script, interpreter(), entry, source] {
        hash.update((part.len() as u64).to_le_bytes());
        hash.update(part.as_bytes());
    }
    hash.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

/// The answer stored under `key`, if any.
pub fn get(key: &str) -> Option<Vec<u8>> {
    std::fs::read(dir()?.join(key)).ok()
}

/// Stores `answer` under `key` (atomically: a concurrent reader sees the
/// whole answer or none).
pub fn put(key: &str, answer: &[u8]) {
    let Some(dir) = dir() else { return };
    if std::fs::create_dir_all(dir).is_err() {
        return;
    }
    if let Ok(mut tmp) = tempfile::NamedTempFile::new_in(dir) {
        use std::io::Write as _;
        if tmp.write_all(answer).is_ok() {
            let _ = tmp.persist(dir.join(key));
        }
    }
}
