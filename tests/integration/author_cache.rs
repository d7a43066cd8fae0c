//! The AST reader's per-user cache: `check --against` after `draw` reuses
//! draw's reading of the solution, a changed solution is read afresh, and
//! `FLOWBENCH_CACHE=off` writes nothing.

use std::path::Path;
use std::process::{Command, Output};

fn flowbench(args: &[&str], dir: &Path, cache: &Path, off: bool) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_flowbench"));
    cmd.args(args).current_dir(dir).env("XDG_CACHE_HOME", cache).env_remove("FLOWBENCH_CACHE");
    if off {
        cmd.env("FLOWBENCH_CACHE", "off");
    }
    cmd.output().expect("flowbench runs")
}

fn entries(cache: &Path) -> Vec<std::path::PathBuf> {
    match std::fs::read_dir(cache.join("flowbench/ast")) {
        Ok(dir) => dir.map(|e| e.unwrap().path()).collect(),
        Err(_) => Vec::new(),
    }
}

const FIRST_EVEN: &str =
    "def first_even(xs: list) -> int:\n    for x in xs:\n        if x % 2 == 0:\n            return x\n    return -1\n";
const COUNT: &str = "def count(n: int) -> int:\n    total = 0\n    while n > 0:\n        n -= 1\n        total += 1\n    return total\n";

#[test]
fn check_reuses_draws_reading_and_rereads_a_changed_solution() {
    let dir = tempfile::tempdir().unwrap();
    let cache = dir.path().join("cache");
    std::fs::write(dir.path().join("s.py"), FIRST_EVEN).unwrap();
    std::fs::write(dir.path().join("t.py"), COUNT).unwrap();
    assert!(flowbench(&["draw", "s.py", "-o", "s.mmd"], dir.path(), &cache, false).status.success());
    let s_entry = entries(&cache);
    assert_eq!(s_entry.len(), 1, "draw stores its reading");
    assert!(flowbench(&["check", "--against", "s.py", "s.mmd"], dir.path(), &cache, false).status.success());

    // Put t.py's reading under s.py's key: a check that reads the cache now
    // compares s.mmd with the wrong program and must flag it.
    assert!(flowbench(&["draw", "t.py", "-o", "t.mmd"], dir.path(), &cache, false).status.success());
    let t_entry: Vec<_> = entries(&cache).into_iter().filter(|p| !s_entry.contains(p)).collect();
    assert_eq!(t_entry.len(), 1);
    let saved = std::fs::read(&s_entry[0]).unwrap();
    std::fs::copy(&t_entry[0], &s_entry[0]).unwrap();
    let out = flowbench(&["check", "--against", "s.py", "s.mmd"], dir.path(), &cache, false);
    assert_eq!(
        out.status.code(),
        Some(1),
        "check did not use the cached reading: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    std::fs::write(&s_entry[0], saved).unwrap();

    // A changed solution has a new key: the stale reading is never used.
    std::fs::write(dir.path().join("s.py"), FIRST_EVEN.replace("return -1", "return 0")).unwrap();
    let out = flowbench(&["check", "--against", "s.py", "s.mmd"], dir.path(), &cache, false);
    assert_eq!(
        out.status.code(),
        Some(1),
        "a changed return must be flagged: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(entries(&cache).len(), 3);
}

#[test]
fn cache_off_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let cache = dir.path().join("cache");
    std::fs::write(dir.path().join("s.py"), FIRST_EVEN).unwrap();
    assert!(flowbench(&["draw", "s.py", "-o", "s.mmd"], dir.path(), &cache, true).status.success());
    assert!(flowbench(&["check", "--against", "s.py", "s.mmd"], dir.path(), &cache, true).status.success());
    assert!(entries(&cache).is_empty());
}
