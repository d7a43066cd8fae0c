//! An on-disk cache of answers keyed by a hash of the request, so that a
//! re-run (another output file, a changed report) costs no API calls.
//!
//! One file per answer, `DIR/ab/abcdef….json`, written atomically: a killed
//! run never leaves a truncated entry behind.

use std::io::Write as _;
use std::path::{Path, PathBuf};

use serde_json::Value as Json;
use sha2::{Digest as _, Sha256};

/// An answer that could not be stored (only a future re-request is lost).
#[derive(Debug, thiserror::Error)]
#[error("writing cache entry {}", path.display())]
pub struct CacheError {
    pub path: PathBuf,
    #[source]
    pub source: std::io::Error,
}

/// The cache directory.
#[derive(Debug, Clone)]
pub struct Cache {
    dir: PathBuf,
}

impl Cache {
    /// A cache in `dir` (created on first write).
    pub fn new(dir: &Path) -> Cache {
        Cache { dir: dir.to_path_buf() }
    }

    /// The key of a request: SHA-256 of the endpoint, the request id and
    /// the body as serialised. The id is part of the key so that several
    /// samples of one prompt (`-n`) are distinct answers, not one.
    pub fn key(endpoint: &str, id: &str, body: &Json) -> String {
        let mut h = Sha256::new();
        for part in [endpoint.as_bytes(), b"\0", id.as_bytes(), b"\0", body.to_string().as_bytes()] {
            h.update(part);
        }
        h.finalize().iter().map(|b| format!("{b:02x}")).collect()
    }

    fn path(&self, key: &str) -> PathBuf {
        self.dir.join(&key[..2.min(key.len())]).join(format!("{key}.json"))
    }

    /// The cached answer, if any; an unreadable entry counts as a miss.
    pub fn get(&self, key: &str) -> Option<Json> {
        let text = std::fs::read_to_string(self.path(key)).ok()?;
        serde_json::from_str(&text).ok()
    }

    /// Stores an answer atomically.
    pub fn put(&self, key: &str, answer: &Json) -> Result<(), CacheError> {
        let path = self.path(key);
        let dir = path.parent().unwrap_or(&self.dir);
        let failed = |source| CacheError { path: path.clone(), source };
        std::fs::create_dir_all(dir).map_err(failed)?;
        let mut tmp = tempfile::NamedTempFile::new_in(dir).map_err(failed)?;
        tmp.write_all(answer.to_string().as_bytes()).map_err(failed)?;
        tmp.persist(&path).map_err(|e| failed(e.error))?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn round_trips_and_keys_differ_by_id_and_body() {
        let dir = tempfile::tempdir().expect("tempdir");
        let cache = Cache::new(dir.path());
        let body = json!({"model": "m", "messages": []});
        let k1 = Cache::key("http://x", "a#0", &body);
        assert_ne!(k1, Cache::key("http://x", "a#1", &body));
        assert_ne!(k1, Cache::key("http://x", "a#0", &json!({"model": "n"})));
        assert_eq!(cache.get(&k1), None);
        cache.put(&k1, &json!({"ok": 1})).expect("put");
        assert_eq!(cache.get(&k1), Some(json!({"ok": 1})));
    }
}
