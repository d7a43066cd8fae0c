//! The judge against Code-Vision's recorded data (`../shared/codevision`):
//! code extraction reproduces every recorded `completion`, the summary of
//! the recorded verdicts reproduces `scores.json`, and legacy mode agrees
//! with the recorded verdicts on ≥ 99.8 % of all samples.

use crate::common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use flowbench::judge::extract::codevision_extract;
use flowbench::judge::problems_file::load_problems;
use flowbench::judge::records::{Judged, Record};
use flowbench::judge::samples::{SampleOptions, load_samples};
use flowbench::judge::summary::summarize;
use flowbench::judge::verdict::Verdict;
use serde_json::Value;

fn sample_files(root: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for subset in ["HumanEval-V", "Algorithm", "MATH"] {
        let dir = root.join("samples").join(subset);
        let mut entries: Vec<PathBuf> =
            std::fs::read_dir(&dir).expect("samples dir").filter_map(|e| e.ok().map(|e| e.path())).collect();
        entries.sort();
        files.extend(entries.into_iter().filter(|p| p.extension().is_some_and(|e| e == "jsonl")));
    }
    files
}

#[test]
fn extraction_reproduces_recorded_completions() {
    let Some(root) = common::shared("codevision/samples") else { return };
    let root = root.parent().expect("codevision dir").to_path_buf();
    let mut total = 0;
    let mut wrong = Vec::new();
    for file in sample_files(&root) {
        for line in std::fs::read_to_string(&file).expect("samples").lines() {
            let v: Value = serde_json::from_str(line).expect("json");
            total += 1;
            let (Some(response), Some(completion)) = (v["response"].as_str(), v["completion"].as_str()) else {
                panic!("sample without response/completion in {}", file.display());
            };
            if codevision_extract(response) != completion {
                wrong.push(format!("{}: {}", file.display(), v["task_id"]));
            }
        }
    }
    eprintln!("extract_code: {}/{total} recorded completions reproduced", total - wrong.len());
    assert!(total > 3000);
    assert!(wrong.is_empty(), "{wrong:#?}");
}

#[test]
fn summary_of_recorded_verdicts_reproduces_scores_json() {
    let Some(scores_path) = common::shared("codevision/scores.json") else { return };
    let root = scores_path.parent().expect("codevision dir").to_path_buf();
    let (problems, diags) = load_problems(&root.join("problems.jsonl")).expect("problems");
    assert!(diags.is_empty(), "{diags:?}");
    let (samples, diags) = load_samples(&sample_files(&root), &problems, SampleOptions::default()).expect("samples");
    assert!(diags.is_empty(), "{diags:?}");
    let records: Vec<Record> = samples
        .iter()
        .map(|s| {
            let passed = s.fields["passed"] == Value::Bool(true);
            let verdict = Verdict {
                passed,
                result: s.fields["result"].as_str().unwrap_or("").to_string(),
                error_class: None,
                tests_passed: None,
                tests_total: None,
                first_failure: None,
                time_s: 0.0,
                time_limit_s: 3.0,
                class: None,
                only_failure: None,
            };
            let p = &problems.by_id[&s.task_id].problem;
            Record {
                judged: Judged::new(s, verdict, "legacy", "", p.subset.clone(), p.difficulty.clone()),
                fields: s.fields.clone(),
            }
        })
        .collect();
    let summary = summarize(&records, &[1]);
    let scores: Value = serde_json::from_str(&std::fs::read_to_string(&scores_path).expect("scores")).expect("json");
    let mut checked = 0;
    for (subset, models) in scores["scores"].as_object().expect("scores object") {
        for (model, cells) in models.as_object().expect("models") {
            let Some(m) = summary.models.get(model) else { continue }; // held-back models
            for (cell, want) in cells.as_object().expect("cells") {
                let Some(want_passed) = want.get("passed").and_then(Value::as_f64) else { continue };
                let key = if cell == "overall" { "all" } else { cell.as_str() };
                let got = &m.table[subset][key];
                assert_eq!(
                    (got.passed, got.tasks as f64),
                    (want_passed, want["total"].as_f64().expect("total")),
                    "{model} {subset} {cell}"
                );
                checked += 1;
            }
        }
    }
    eprintln!("scores.json: {checked} model × subset × difficulty cells reproduced");
    assert!(checked >= 25 * 2, "only {checked} cells compared");
}

/// The full legacy run (also the speed benchmark's workload: see
/// `scripts/bench-judge.sh` for timings on a quiet machine).
#[test]
#[ignore = "heavy: judges all 3,668 released Code-Vision samples in the sandbox"]
fn legacy_mode_agrees_with_recorded_verdicts() {
    let Some(problems) = common::shared("codevision/problems.jsonl") else { return };
    let root = problems.parent().expect("codevision dir").to_path_buf();
    let dir = tempfile::tempdir().expect("tempdir");
    let out = dir.path().join("legacy.jsonl");
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_flowbench"));
    // CPU-time limits: verdicts must not depend on how loaded the CI machine is.
    cmd.args(["judge", "--mode", "legacy", "--clock", "cpu", "-q", "--problems"])
        .arg(&problems)
        .arg("--samples")
        .args(sample_files(&root))
        .arg("-o")
        .arg(&out);
    let started = std::time::Instant::now();
    let run = cmd.output().expect("flowbench runs");
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let summary: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("legacy.summary.json")).expect("summary"))
            .expect("json");
    let agreement = &summary["agreement"];
    let (agree, compared) = (agreement["agree"].as_u64().unwrap_or(0), agreement["compared"].as_u64().unwrap_or(0));
    eprintln!(
        "legacy agreement: {agree}/{compared} in {:.1} s (test run, machine may be loaded)",
        started.elapsed().as_secs_f64()
    );
    let mut by_cause: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for d in agreement["disagreements"].as_array().into_iter().flatten() {
        let judged = d["judged"].as_str().unwrap_or("").to_string();
        by_cause
            .entry(judged)
            .or_default()
            .push(format!("{} / {} (recorded {})", d["model"], d["task_id"], d["recorded"]));
    }
    eprintln!("disagreements: {by_cause:#?}");
    assert!(compared >= 3000, "compared only {compared}");
    assert!(agree as f64 >= 0.998 * compared as f64, "agreement {agree}/{compared} below 99.8 %");
}
