//! A fresh machine: `flowbench build` creates the candidates' venv on first
//! use; when that fails it stops with one error and caches nothing, and
//! the run after the machine is fixed builds every problem. Needs the
//! Python package index (pip's cache makes the second install quick).

use std::path::Path;
use std::process::{Command, Output};

use crate::common;

/// A two-problem bank copied from the embedded one.
fn small_bank(root: &Path) -> std::path::PathBuf {
    let bank = root.join("bank");
    for name in ["gcd", "is_prime"] {
        let from = Path::new(env!("CARGO_MANIFEST_DIR")).join("problems").join(name);
        let to = bank.join(name);
        std::fs::create_dir_all(&to).expect("mkdir");
        for entry in std::fs::read_dir(&from).expect("problem dir") {
            let path = entry.expect("entry").path();
            std::fs::copy(&path, to.join(path.file_name().expect("name"))).expect("copy");
        }
    }
    bank
}

fn build(bank: &Path, out: &Path, venv: &Path, env: &[(&str, &str)]) -> (Output, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_flowbench"))
        .args(["build", "-j", "1", "--problems"])
        .arg(bank)
        .arg("-o")
        .arg(out)
        .env("FLOWBENCH_VENV", venv)
        .envs(env.iter().copied())
        .output()
        .expect("flowbench runs");
    let err = String::from_utf8_lossy(&output.stderr).into_owned();
    (output, err)
}

/// Problems' cache entries (`.cache/<problem>.json`; the bank's stamp aside).
fn cache_entries(out: &Path) -> usize {
    std::fs::read_dir(out.join(".cache"))
        .map_or(0, |d| d.flatten().filter(|e| e.path().extension().is_some_and(|x| x == "json")).count())
}

#[test]
#[ignore = "heavy: provisions a candidates' venv from the package index"]
fn build_provisions_the_venv_once_and_never_caches_a_machine_failure() {
    let root = tempfile::tempdir().expect("tempdir");
    let (bank, out, venv) = (small_bank(root.path()), root.path().join("dist"), root.path().join("venv"));

    // Provisioning made to fail: one error for the whole build, naming the
    // step and the retry command; nothing cached, no half environment.
    let (failed, err) = build(&bank, &out, &venv, common::UNREACHABLE_INDEX);
    assert_eq!(failed.status.code(), Some(2), "{err}");
    assert_eq!(err.matches("could not create the candidates' Python environment").count(), 1, "{err}");
    assert!(err.contains("`pip install` failed") && err.contains("`flowbench env`"), "{err}");
    assert!(err.contains("2 of 2 problems were not built"), "{err}");
    assert_eq!(cache_entries(&out), 0, "a machine failure is not a result");
    assert!(!out.join(".cache").join(flowbench::bank::unchanged::STAMP_FILE).exists());
    assert!(!venv.exists());

    // The machine fixed: the venv is made once and every problem builds.
    let (built, err) = build(&bank, &out, &venv, &[]);
    assert!(built.status.success(), "{err}");
    assert_eq!(err.matches("first use: creating the candidates' Python environment").count(), 1, "{err}");
    assert!(err.contains("built 2 of 2 problems (2 rebuilt, 0 up to date"), "{err}");
    assert_eq!(cache_entries(&out), 2);

    // And once only: the next build finds it (and its cache) ready.
    let (again, err) = build(&bank, &out, &venv, &[]);
    assert!(again.status.success(), "{err}");
    assert!(!err.contains("first use"), "{err}");
    assert!(err.contains("(0 rebuilt, 2 up to date"), "{err}");
}
