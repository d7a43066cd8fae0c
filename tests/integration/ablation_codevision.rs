//! `flowbench ablation` fed the released Code-Vision samples of two models
//! as two conditions: with their recorded verdicts the report reproduces
//! the published pass@1 cells (scores.json) and adds paired statistics that
//! match an independent count of the discordant problems.

use crate::common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

const MODELS: [(&str, &str); 2] = [("gpt-4o", "gpt-4o"), ("gemini-pro", "gemini-1.5-pro-latest")];

fn files(root: &Path, model: &str) -> String {
    ["HumanEval-V", "Algorithm", "MATH"]
        .iter()
        .map(|s| root.join("samples").join(s).join(format!("{model}.jsonl")).display().to_string())
        .collect::<Vec<_>>()
        .join(",")
}

fn recorded(root: &Path, model: &str) -> BTreeMap<String, bool> {
    let mut out = BTreeMap::new();
    for f in files(root, model).split(',') {
        for line in std::fs::read_to_string(PathBuf::from(f)).expect("samples").lines() {
            let v: Value = serde_json::from_str(line).expect("json");
            out.insert(v["task_id"].as_str().expect("id").to_string(), v["passed"] == Value::Bool(true));
        }
    }
    out
}

/// Two-sided exact binomial test, written independently of the library.
fn binomial_two_sided(b: u64, c: u64) -> f64 {
    let n = b + c;
    let k = b.min(c);
    let mut tail = 0.0;
    let mut choose = 1.0f64;
    for i in 0..=k {
        if i > 0 {
            choose = choose * (n - i + 1) as f64 / i as f64;
        }
        tail += choose / 2f64.powi(n as i32);
    }
    (2.0 * tail).min(1.0)
}

#[test]
fn recorded_verdicts_reproduce_scores_json_with_paired_statistics() {
    let Some(scores_path) = common::shared("codevision/scores.json") else { return };
    let root = scores_path.parent().expect("dir").to_path_buf();
    let out = tempfile::tempdir().expect("tempdir");
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_flowbench"));
    cmd.args(["ablation", "--recorded", "-q", "--bench"]).arg(root.join("problems.jsonl")).arg("-o").arg(out.path());
    for (name, model) in MODELS {
        cmd.arg("--run").arg(format!("{name}={}", files(&root, model)));
    }
    let run = cmd.output().expect("flowbench runs");
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let report: Value =
        serde_json::from_str(&std::fs::read_to_string(out.path().join("ablation.json")).expect("json")).expect("json");
    let scores: Value = serde_json::from_str(&std::fs::read_to_string(&scores_path).expect("scores")).expect("json");
    let mut checked = 0;
    for (i, (_, model)) in MODELS.iter().enumerate() {
        let table = &report["ablation"]["conditions"][i]["table"];
        for (subset, cells) in scores["scores"].as_object().expect("object") {
            for (cell, want) in cells[*model].as_object().expect("model cells") {
                let Some(passed) = want.get("passed").and_then(Value::as_f64) else { continue };
                let key = if cell == "overall" { "all" } else { cell.as_str() };
                let got = &table[subset][key];
                let total = want["total"].as_f64().expect("total");
                assert_eq!(got["tasks"].as_f64(), Some(total), "{model} {subset} {cell}");
                assert!(
                    (got["pass_at_1"].as_f64().expect("pass@1") - 100.0 * passed / total).abs() < 1e-9,
                    "{model} {subset} {cell}"
                );
                checked += 1;
            }
        }
    }
    assert!(checked >= 18, "only {checked} cells");
    // Paired statistics per subset against an independent count.
    let (base, other) = (recorded(&root, MODELS[0].1), recorded(&root, MODELS[1].1));
    let problems = std::fs::read_to_string(root.join("problems.jsonl")).expect("problems");
    let mut subset_of = BTreeMap::new();
    for line in problems.lines() {
        let v: Value = serde_json::from_str(line).expect("json");
        subset_of
            .insert(v["task_id"].as_str().expect("id").to_string(), v["subset"].as_str().expect("subset").to_string());
    }
    for subset in ["HumanEval-V", "Algorithm", "MATH", "all"] {
        let ids: Vec<&String> = base.keys().filter(|id| subset == "all" || subset_of[*id] == subset).collect();
        let only_base = ids.iter().filter(|id| base[**id] && !other[**id]).count() as u64;
        let only_other = ids.iter().filter(|id| !base[**id] && other[**id]).count() as u64;
        let d = &report["ablation"]["deltas"]["gemini-pro"][subset]["all"];
        assert_eq!(
            (d["only_baseline"].as_u64(), d["only_condition"].as_u64()),
            (Some(only_base), Some(only_other)),
            "{subset}"
        );
        let p = binomial_two_sided(only_base, only_other);
        assert!((d["mcnemar_p"].as_f64().expect("p") - p).abs() < 1e-12, "{subset}");
        let delta = 100.0 * (only_other as f64 - only_base as f64) / ids.len() as f64;
        assert!((d["delta"].as_f64().expect("delta") - delta).abs() < 1e-9);
        let (lo, hi) = (d["ci_low"].as_f64().expect("lo"), d["ci_high"].as_f64().expect("hi"));
        assert!(lo <= delta && delta <= hi, "{subset}: {delta} outside [{lo}, {hi}]");
    }
    let md = std::fs::read_to_string(out.path().join("ablation.md")).expect("md");
    assert!(md.contains("| gpt-4o | 93.9 | 91.1 | 89.3 | 79.3 | 87.9 | 100.0 | 97.5 | 77.5 | 92.0 |"), "{md}");
    let html = std::fs::read_to_string(out.path().join("ablation.html")).expect("html");
    assert_eq!(html.matches("<svg").count(), 2);
    let csv = std::fs::read_to_string(out.path().join("ablation.csv")).expect("csv");
    assert_eq!(csv.lines().count(), 1 + 2 * 10);
    // Same inputs, same bytes.
    let again = tempfile::tempdir().expect("tempdir");
    let mut cmd2 = Command::new(env!("CARGO_BIN_EXE_flowbench"));
    cmd2.args(["ablation", "--recorded", "-q", "--bench"]).arg(root.join("problems.jsonl")).arg("-o").arg(again.path());
    for (name, model) in MODELS {
        cmd2.arg("--run").arg(format!("{name}={}", files(&root, model)));
    }
    assert!(cmd2.output().expect("runs").status.success());
    for f in ["ablation.md", "ablation.json", "ablation.csv", "ablation.html"] {
        assert_eq!(
            std::fs::read(out.path().join(f)).expect("a"),
            std::fs::read(again.path().join(f)).expect("b"),
            "{f} differs"
        );
    }
}
