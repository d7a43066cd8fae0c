//! Helpers shared by integration tests.
#![allow(dead_code)]

use std::io::Write as _;
use std::path::{Path, PathBuf};

/// Path of a file under `../shared/` beside the workspace (or
/// `$FLOWBENCH_SHARED`), or `None`
/// when it is absent — a user's fresh clone has no shared data. With
/// `FLOWBENCH_REQUIRE_SHARED=1` (set by `.ci/run`) a missing file panics so
/// CI cannot silently skip.
pub fn shared(rel: &str) -> Option<PathBuf> {
    let root =
        std::env::var_os("FLOWBENCH_SHARED").map(PathBuf::from).unwrap_or_else(|| workspace_root().join("../shared"));
    let path = root.join(rel);
    if path.exists() {
        return Some(path);
    }
    if std::env::var("FLOWBENCH_REQUIRE_SHARED").as_deref() == Ok("1") {
        panic!("required shared data missing: {} (FLOWBENCH_REQUIRE_SHARED=1)", path.display());
    }
    // Once per missing file and test binary, however often tests ask.
    static REPORTED: std::sync::Mutex<Vec<PathBuf>> = std::sync::Mutex::new(Vec::new());
    let mut reported = REPORTED.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    if !reported.contains(&path) {
        // Straight to stderr, past the test harness's capture (which only
        // takes `eprintln!`): a skip must be seen in `cargo test`'s output.
        let _ = writeln!(std::io::stderr(), "skipping: shared data {} not found", path.display());
        reported.push(path);
    }
    None
}

/// The workspace's root (the directory holding `Cargo.lock`): these helpers
/// serve the tests of the root package and of the crates under `crates/`.
fn workspace_root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .find(|dir| dir.join("Cargo.lock").exists())
        .expect("the workspace root holds Cargo.lock")
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
