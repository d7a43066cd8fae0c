//! Helpers shared by integration tests.
#![allow(dead_code)]

use std::path::PathBuf;

/// Path of a file under `../shared/` (or `$FLOWBENCH_SHARED`), or `None`
/// when it is absent — a user's fresh clone has no shared data. With
/// `FLOWBENCH_REQUIRE_SHARED=1` (set by `.ci/run`) a missing file panics so
/// CI cannot silently skip.
pub fn shared(rel: &str) -> Option<PathBuf> {
    let root = std::env::var_os("FLOWBENCH_SHARED")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../shared")));
    let path = root.join(rel);
    if path.exists() {
        return Some(path);
    }
    if std::env::var("FLOWBENCH_REQUIRE_SHARED").as_deref() == Ok("1") {
        panic!("required shared data missing: {} (FLOWBENCH_REQUIRE_SHARED=1)", path.display());
    }
    eprintln!("skipping: shared data {} not found", path.display());
    None
}

/// Environment that makes pip's package index unreachable (pip's own
/// variables), so provisioning the candidates' venv fails at `pip install`.
pub const UNREACHABLE_INDEX: &[(&str, &str)] = &[
    ("PIP_INDEX_URL", "http://127.0.0.1:9/simple"),
    ("PIP_EXTRA_INDEX_URL", ""),
    ("PIP_FIND_LINKS", ""),
    ("PIP_RETRIES", "0"),
    ("PIP_TIMEOUT", "5"),
];
