//! `build`'s image styles on disk (issue 24): a rebuild in another style
//! leaves no empty directory behind.

use std::path::Path;
use std::process::Command;

use serde_json::Value;

/// A bank of one problem (a copy of the embedded `gcd`).
fn gcd_bank() -> tempfile::TempDir {
    let bank = tempfile::tempdir().unwrap();
    let dir = bank.path().join("gcd");
    std::fs::create_dir(&dir).unwrap();
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("problems/gcd");
    for f in ["flowchart.mmd", "solution.py", "problem.json", "problem.toml", "description.md", "tests.jsonl"] {
        std::fs::copy(src.join(f), dir.join(f)).unwrap();
    }
    bank
}

fn build(bank: &Path, dist: &Path, args: &[&str]) -> Value {
    let out = Command::new(env!("CARGO_BIN_EXE_flowbench"))
        .arg("build")
        .arg("--problems")
        .arg(bank)
        .arg("-o")
        .arg(dist)
        .args(args)
        .output()
        .expect("flowbench runs");
    assert!(out.status.success(), "build {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_str(&std::fs::read_to_string(dist.join("manifest.json")).unwrap()).unwrap()
}

/// The directories under `dir`, sorted.
fn dirs_under(dir: &Path) -> Vec<String> {
    let mut found: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .filter(|e| e.path().is_dir())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    found.sort();
    found
}

/// `build --theme dark` after a default build used to leave an empty
/// `images/default/` (its files pruned, the directory kept).
#[test]
fn a_themed_rebuild_leaves_no_empty_style_directory() {
    let bank = gcd_bank();
    let out = tempfile::tempdir().unwrap();
    let dist = out.path().join("dist");
    build(bank.path(), &dist, &[]);
    assert_eq!(dirs_under(&dist.join("images")), ["default"]);
    let manifest = build(bank.path(), &dist, &["--theme", "dark"]);
    assert_eq!(dirs_under(&dist.join("images")), ["dark"], "only the built style's directory");
    assert!(dist.join("images/dark/gcd.png").is_file());
    assert_eq!(manifest["styles"], serde_json::json!(["dark"]));
}
