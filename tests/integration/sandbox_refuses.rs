//! Fail closed: when any confinement step fails the judge refuses to run
//! candidates (naming the step), unless `--allow-weak-sandbox` is given, and
//! then every result line and the summary say so. The candidates'
//! environment is found from anywhere and never silently replaced.
//! Steps are made to fail with the test-only `FLOWBENCH_TEST_FAIL_STEP` hook
//! (docs/guide/judging.md, "Fail closed") or for real (a venv the sandbox user cannot read).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

use crate::common;

const PROBLEMS: &str =
    r#"{"task_id": "add", "entry_point": "add", "call_style": "function", "tests": [{"args": [1, 2], "expected": 3}]}"#;
const SAMPLES: &str = r#"{"task_id": "add", "completion": "def add(a, b):\n    return a + b\n"}"#;

fn setup(dir: &Path) -> (PathBuf, PathBuf, PathBuf) {
    let (p, s) = (dir.join("problems.jsonl"), dir.join("samples.jsonl"));
    std::fs::write(&p, format!("{PROBLEMS}\n")).expect("write problems");
    std::fs::write(&s, format!("{SAMPLES}\n")).expect("write samples");
    (p, s, dir.join("results.jsonl"))
}

fn judge(dir: &Path, env: &[(&str, &str)], extra: &[&str]) -> Output {
    let (p, s, o) = setup(dir);
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_flowbench"));
    cmd.args(["judge", "--prelude", "none", "-j", "1", "--problems"])
        .arg(&p)
        .arg("--samples")
        .arg(&s)
        .arg("-o")
        .arg(&o);
    cmd.args(extra).envs(env.iter().copied()).current_dir(dir);
    cmd.output().expect("flowbench runs")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A venv without packages (enough for `--prelude none`) at `dir`.
fn make_venv(dir: &Path) {
    let st = Command::new("python3").args(["-m", "venv", "--without-pip"]).arg(dir).status().expect("python3 -m venv");
    assert!(st.success(), "python3 -m venv failed");
}

#[test]
fn every_failed_step_is_refused_by_name() {
    let venv = tempfile::tempdir().expect("tempdir");
    make_venv(&venv.path().join("v"));
    let v = venv.path().join("v");
    for step in ["network", "mounts", "hide", "processes", "rlimits", "user", "capabilities"] {
        let dir = tempfile::tempdir().expect("tempdir");
        let out = judge(dir.path(), &[("FLOWBENCH_TEST_FAIL_STEP", step)], &["--venv", v.to_str().expect("utf-8")]);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{step}: {err}");
        assert!(
            err.contains("refusing to run untrusted code") && err.contains(&format!("forced failure of step {step}")),
            "{step}: {err}"
        );
        assert!(err.contains("--allow-weak-sandbox"), "{step}: the way out is named: {err}");
        assert!(!dir.path().join("results.jsonl").exists(), "{step}: nothing judged");
        assert!(Path::new("/proc/self/status").exists(), "{step}: the host's /proc is intact");
    }
}

#[test]
fn a_venv_the_sandbox_user_cannot_read_is_refused() {
    let venv = tempfile::tempdir().expect("tempdir");
    let v = venv.path().join("private");
    make_venv(&v);
    std::fs::set_permissions(&v, std::os::unix::fs::PermissionsExt::from_mode(0o700)).expect("chmod");
    let dir = tempfile::tempdir().expect("tempdir");
    let out = judge(dir.path(), &[], &["--venv", v.to_str().expect("utf-8")]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("environment: the sandbox user cannot read"), "{err}");
}

#[test]
fn weak_isolation_is_opt_in_and_recorded_everywhere() {
    let venv = tempfile::tempdir().expect("tempdir");
    let v = venv.path().join("v");
    make_venv(&v);
    let dir = tempfile::tempdir().expect("tempdir");
    let out = judge(
        dir.path(),
        &[("FLOWBENCH_TEST_FAIL_STEP", "network")],
        &["--venv", v.to_str().expect("utf-8"), "--allow-weak-sandbox"],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let line: Value =
        serde_json::from_str(std::fs::read_to_string(dir.path().join("results.jsonl")).expect("results").trim())
            .expect("json");
    assert_eq!(line["passed"], Value::Bool(true));
    assert!(line["sandbox"].as_str().is_some_and(|s| s.starts_with("weak: network")), "{line}");
    let summary: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("results.summary.json")).expect("summary"))
            .expect("json");
    assert_eq!(summary["weak_sandbox"], Value::from(1));
    let md = std::fs::read_to_string(dir.path().join("results.summary.md")).expect("md");
    assert!(md.contains("WEAK SANDBOX"), "{md}");
}

#[test]
fn a_venv_under_tmp_is_visible_in_the_sandbox_from_any_cwd() {
    // The sandbox puts a private tmpfs over /tmp; the venv must still be mounted in.
    let venv = tempfile::tempdir_in("/tmp").expect("tempdir");
    let v = venv.path().join("v");
    make_venv(&v);
    let dir = tempfile::tempdir().expect("tempdir");
    let out = judge(dir.path(), &[("FLOWBENCH_VENV", v.to_str().expect("utf-8"))], &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    let line: Value =
        serde_json::from_str(std::fs::read_to_string(dir.path().join("results.jsonl")).expect("results").trim())
            .expect("json");
    assert_eq!(line["passed"], Value::Bool(true), "{line}");
    assert!(line.get("sandbox").is_none(), "fully confined: {line}");
}

#[test]
fn an_environment_that_cannot_be_provisioned_is_one_error_naming_flowbench_env() {
    let dir = tempfile::tempdir().expect("tempdir");
    let venv = dir.path().join("no-venv-yet");
    let mut env = common::UNREACHABLE_INDEX.to_vec();
    env.push(("FLOWBENCH_VENV", venv.to_str().expect("utf-8")));
    let out = judge(dir.path(), &env, &[]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert_eq!(err.matches("could not create the candidates' Python environment").count(), 1, "{err}");
    assert!(err.contains("`pip install` failed") && err.contains("`flowbench env`"), "{err}");
    assert!(err.contains(venv.to_str().expect("utf-8")), "{err}");
    assert!(!venv.exists() && !venv.with_extension("partial").exists(), "no half-made environment is left");
    assert!(!dir.path().join("results.jsonl").exists());
}

#[test]
fn a_missing_interpreter_named_with_python_is_not_provisioned() {
    let dir = tempfile::tempdir().expect("tempdir");
    let python = dir.path().join("elsewhere/bin/python");
    let out = judge(dir.path(), &[], &["--python", python.to_str().expect("utf-8")]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("no candidates' Python environment"), "{err}");
    assert!(!dir.path().join("elsewhere").exists(), "a --python of the user's own is never created");
}

/// `build` and `tests gen` take the same sandbox policy as `judge`: a failed
/// confinement step refuses the run unless `--allow-weak-sandbox`, and then
/// the weakness is recorded in what they write (the manifest, the
/// `tests.jsonl` header).
#[test]
fn build_and_tests_gen_refuse_weak_isolation_unless_allowed_and_then_record_it() {
    let root = tempfile::tempdir().expect("tempdir");
    let problem = root.path().join("bank/gcd");
    std::fs::create_dir_all(&problem).expect("mkdir");
    let from = Path::new(env!("CARGO_MANIFEST_DIR")).join("problems/gcd");
    for entry in std::fs::read_dir(&from).expect("problem dir") {
        let path = entry.expect("entry").path();
        std::fs::copy(&path, problem.join(path.file_name().expect("name"))).expect("copy");
    }
    let run = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_flowbench"))
            .args(args)
            .env("FLOWBENCH_TEST_FAIL_STEP", "network")
            .output()
            .expect("flowbench runs")
    };
    let bank = root.path().join("bank");
    let out = root.path().join("dist");
    let (bank_arg, out_arg) = (bank.to_str().expect("utf-8"), out.to_str().expect("utf-8"));

    let refused = run(&["build", "--problems", bank_arg, "-o", out_arg]);
    assert_eq!(refused.status.code(), Some(2), "{}", stderr(&refused));
    assert_eq!(stderr(&refused).matches("refusing to run untrusted code").count(), 1, "{}", stderr(&refused));
    let built = run(&["build", "--problems", bank_arg, "-o", out_arg, "--allow-weak-sandbox"]);
    assert!(built.status.success(), "{}", stderr(&built));
    let manifest: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("manifest.json")).expect("manifest")).expect("json");
    let weak = manifest["options"]["weak_sandbox"].as_str().unwrap_or_default();
    assert!(weak.starts_with("weak: network"), "{manifest}");

    let dir = problem.to_str().expect("utf-8");
    std::fs::remove_file(problem.join("tests.jsonl")).expect("generated afresh");
    let refused = run(&["tests", "gen", dir]);
    assert_eq!(refused.status.code(), Some(2), "{}", stderr(&refused));
    assert!(stderr(&refused).contains("refusing to run untrusted code"), "{}", stderr(&refused));
    let generated = run(&["tests", "gen", dir, "--allow-weak-sandbox"]);
    assert!(generated.status.success(), "{}", stderr(&generated));
    let tests = std::fs::read_to_string(problem.join("tests.jsonl")).expect("tests.jsonl");
    let header: Value = serde_json::from_str(tests.lines().next().expect("header")).expect("json");
    assert!(header["weak_sandbox"].as_str().is_some_and(|s| s.starts_with("weak: network")), "{header}");
}
