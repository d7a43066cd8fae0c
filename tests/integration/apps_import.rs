//! `flowbench tests import --from apps` and `flowbench import apps` on
//! APPS-format records in both `input_output` encodings
//! (`tests/fixtures/apps/`, see its README), and the judge running what
//! they wrote: the records' own solutions pass, wrong ones fail, whole
//! programs and call-based (`fn_name`) records alike.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::{Value, json};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/apps").join(name)
}

fn flowbench(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_flowbench")).args(args).output().expect("flowbench runs")
}

fn s(p: &Path) -> &str {
    p.to_str().expect("utf-8 path")
}

/// The solutions of each record of a fixture file that reads, by id.
fn records(name: &str) -> BTreeMap<String, Vec<String>> {
    let text = std::fs::read_to_string(fixture(name)).expect("fixture");
    text.lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter_map(|r| {
            let sols = match &r["solutions"] {
                Value::String(t) => serde_json::from_str::<Value>(t).ok()?,
                v => v.clone(),
            };
            let id = match &r["problem_id"] {
                Value::String(s) => s.clone(),
                v => v.to_string(),
            };
            let sols: Vec<String> = sols.as_array()?.iter().filter_map(|x| x.as_str().map(String::from)).collect();
            Some((id, sols)).filter(|(_, s)| !s.is_empty())
        })
        .collect()
}

/// Imports `name` to native problems, judges every solution of every record
/// and one wrong program per record; returns the results by (task, model).
fn import_and_judge(dir: &Path, name: &str, bad_line: usize) -> BTreeMap<(String, String), Value> {
    let native = dir.join("native.jsonl");
    let run = flowbench(&["tests", "import", "--from", "apps", s(&fixture(name)), "-o", s(&native)]);
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(1), "a skipped record is an error exit: {stderr}");
    assert!(stderr.contains(&format!("{name}:{bad_line}: ")), "the bad record is named by line: {stderr}");
    assert!(stderr.contains("wrote 5 problems"), "{stderr}");
    let written = std::fs::read_to_string(&native).expect("native problems");
    let styles: Vec<String> = written
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).expect("json")["call_style"].as_str().unwrap_or("").to_string())
        .collect();
    assert_eq!(styles, ["stdio", "stdio", "stdio", "solution_method", "function"]);
    let mut samples = String::new();
    for (id, sols) in records(name) {
        for (k, code) in sols.iter().enumerate() {
            samples.push_str(&format!(
                "{}\n",
                json!({"task_id": id, "model": format!("solution{k}"), "completion": code})
            ));
        }
        let wrong = if id.ends_with("4004") {
            "class Solution:\n    def twoSum(self, nums, target):\n        return [0, 0]\n"
        } else if id.ends_with("4005") {
            "def digits_sum(n):\n    return n % 10\n"
        } else {
            "print(1)\n"
        };
        samples.push_str(&format!("{}\n", json!({"task_id": id, "model": "wrong", "completion": wrong})));
    }
    let samples_path = dir.join("samples.jsonl");
    std::fs::write(&samples_path, samples).expect("write samples");
    let out = dir.join("results.jsonl");
    let run = flowbench(&[
        "judge",
        "--problems",
        s(&native),
        "--samples",
        s(&samples_path),
        "--prelude",
        "none",
        "-q",
        "-o",
        s(&out),
    ]);
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    std::fs::read_to_string(&out)
        .expect("results")
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).expect("result"))
        .map(|v| ((v["task_id"].as_str().unwrap_or("").into(), v["model"].as_str().unwrap_or("").into()), v))
        .collect()
}

fn check_verdicts(results: &BTreeMap<(String, String), Value>) {
    assert_eq!(results.len(), 11, "6 solutions and 5 wrong programs: {results:?}");
    for ((task, model), r) in results {
        let passed = r["passed"] == Value::Bool(true);
        assert_eq!(passed, model != "wrong", "{task}/{model}: {}", r["result"]);
        let mode = if task.ends_with("4004") || task.ends_with("4005") { "native" } else { "stdio" };
        assert_eq!(r["mode"], mode, "{task}");
    }
}

#[test]
fn apps_records_with_input_output_as_text() {
    let dir = tempfile::tempdir().expect("tempdir");
    check_verdicts(&import_and_judge(dir.path(), "apps_strings.jsonl", 3));
}

#[test]
fn mmcode_records_with_input_output_as_objects() {
    let dir = tempfile::tempdir().expect("tempdir");
    check_verdicts(&import_and_judge(dir.path(), "mmcode_objects.jsonl", 6));
}

#[test]
fn import_apps_writes_problem_directories() {
    let dir = tempfile::tempdir().expect("tempdir");
    let out = dir.path().join("bank");
    let run = flowbench(&["import", "apps", s(&fixture("apps_strings.jsonl")), "-o", s(&out)]);
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("apps_strings.jsonl:3: 4999: `input_output` does not parse as JSON"), "{stderr}");
    assert!(stderr.contains("imported 5 problems") && stderr.contains("(3 stdio, 2 call-based)"), "{stderr}");
    for id in ["4001", "4002", "4003", "4004", "4005"] {
        let problem = std::fs::read_to_string(out.join(id).join("problem.json")).expect("problem.json");
        let loaded = flowbench::judge::problems_file::parse_problem(&problem).expect("the judge reads it");
        assert_eq!(loaded.stdio.is_some(), !matches!(id, "4004" | "4005"), "{id}");
        assert!(out.join(id).join("solution.py").is_file() && out.join(id).join("description.md").is_file());
    }
    let spec = std::fs::read_to_string(out.join("4005/problem.toml")).expect("spec of a call-based record");
    assert!(spec.starts_with("entry_point = \"digits_sum\""), "{spec}");
    assert!(!out.join("4999").exists());
}
