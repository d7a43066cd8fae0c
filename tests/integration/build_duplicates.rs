//! Two problems of a bank claiming one `task_id` (a copied directory whose
//! `problem.json` was not edited) fail the build with a diagnostic naming
//! both, instead of being built as if nothing were wrong.

use std::path::Path;
use std::process::Command;

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for entry in std::fs::read_dir(from).expect("read problem") {
        let entry = entry.expect("entry");
        std::fs::copy(entry.path(), to.join(entry.file_name())).expect("copy");
    }
}

#[test]
fn duplicate_task_ids_fail_the_build_naming_both_problems() {
    let dir = tempfile::tempdir().expect("tempdir");
    let problems = Path::new(env!("CARGO_MANIFEST_DIR")).join("problems");
    let bank = dir.path().join("bank");
    copy_dir(&problems.join("gcd"), &bank.join("gcd"));
    copy_dir(&problems.join("gcd"), &bank.join("gcd_copy"));
    copy_dir(&problems.join("count_vowels"), &bank.join("count_vowels"));
    let out = Command::new(env!("CARGO_BIN_EXE_flowbench"))
        .args(["build", "--problems", "bank", "-o", "dist"])
        .current_dir(dir.path())
        .output()
        .expect("flowbench runs");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "duplicate ids accepted: {err}");
    assert!(err.contains("duplicate task_id \"gcd\""), "{err}");
    assert!(
        err.contains("bank/gcd_copy/problem.json: duplicate task_id \"gcd\", also the task_id of bank/gcd;"),
        "{err}"
    );
    assert!(
        err.contains("bank/gcd/problem.json: duplicate task_id \"gcd\", also the task_id of bank/gcd_copy;"),
        "{err}"
    );
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("dist/manifest.json")).expect("manifest"))
            .expect("json");
    let failed: Vec<&str> =
        manifest["failed"].as_array().expect("failed list").iter().filter_map(|v| v.as_str()).collect();
    assert!(failed.contains(&"gcd") && failed.contains(&"gcd_copy"), "{failed:?}");
    // The problem with its own id is still built.
    let records: String = ["basic", "algorithm", "math"]
        .iter()
        .filter_map(|s| std::fs::read_to_string(dir.path().join(format!("dist/{s}.jsonl"))).ok())
        .collect();
    assert!(records.contains("\"task_id\":\"count_vowels\""), "count_vowels not built");
    assert!(!records.contains("\"task_id\":\"gcd"), "a claimant of a duplicate id was built");
}

/// Several banks build as one (originals beside their variants); one
/// directory name in two banks would name two problems' artefacts alike,
/// so it is refused naming both, before anything is built.
#[test]
fn two_banks_build_as_one_and_a_name_in_both_is_refused() {
    let dir = tempfile::tempdir().expect("tempdir");
    let problems = Path::new(env!("CARGO_MANIFEST_DIR")).join("problems");
    copy_dir(&problems.join("gcd"), &dir.path().join("a/gcd"));
    copy_dir(&problems.join("count_vowels"), &dir.path().join("b/count_vowels"));
    let build = |banks: &[&str], out: &str| {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_flowbench"));
        cmd.arg("build");
        for b in banks {
            cmd.args(["--problems", b]);
        }
        cmd.args(["-o", out]).current_dir(dir.path()).output().expect("flowbench runs")
    };
    let both = build(&["a", "b"], "dist");
    assert!(both.status.success(), "{}", String::from_utf8_lossy(&both.stderr));
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("dist/manifest.json")).expect("manifest"))
            .expect("json");
    assert_eq!(manifest["problems"], 2, "{manifest}");

    copy_dir(&problems.join("gcd"), &dir.path().join("b/gcd"));
    let clash = build(&["a", "b"], "dist2");
    let err = String::from_utf8_lossy(&clash.stderr);
    assert_eq!(clash.status.code(), Some(2), "{err}");
    assert!(err.contains("a/gcd and b/gcd: two problems named \"gcd\""), "{err}");
    assert_eq!(err.matches("two problems named").count(), 1, "printed once: {err}");
    assert!(!dir.path().join("dist2/manifest.json").exists());
}
