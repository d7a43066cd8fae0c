//! `draw` and `chart2py` over every solution we have: the bank's, the 164
//! HumanEval canonical solutions (prompt + canonical solution) and the 24
//! Code-Vision-style anchors. Every chart, at every detail, must parse, be
//! `fmt`-canonical, lint clean, and pass `build`'s validity gate on the drawn
//! curves (no edge through a node, no label over a label or node, no label
//! crossed by another edge); node counts are
//! printed per detail. Charts drawn at `--detail high` are read back with
//! `chart2py` and judged: HumanEval's own test code (legacy mode) and the
//! bank's problem.json tests (native mode) must all pass.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;

use flowbench::author::{Detail, chart_to_python, draw, read_program};
use flowbench::layout::drawn::Drawing;
use flowbench::layout::metrics::measure;
use flowbench::layout::{LayoutOptions, layout};
use flowbench::mermaid::{fmt::format, lint, parse};
use flowbench::render::style::Style;
use flowbench::text::Fonts;
use serde_json::Value;

/// Charts the router still draws ambiguously (an edge through a node),
/// left open in issue 14: printed, not failed. Any other chart failing
/// the gate fails the test.
const KNOWN_ROUTING_DEFECTS: &[&str] = &[];

/// (name, source, entry point).
fn bank() -> Vec<(String, String, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("problems");
    let mut out = Vec::new();
    let mut dirs: Vec<PathBuf> =
        std::fs::read_dir(&root).expect("problems/").flatten().map(|e| e.path()).filter(|p| p.is_dir()).collect();
    dirs.sort();
    for dir in dirs {
        let problem: Value =
            serde_json::from_str(&std::fs::read_to_string(dir.join("problem.json")).expect("problem.json"))
                .expect("json");
        let source = std::fs::read_to_string(dir.join("solution.py")).expect("solution.py");
        out.push((
            problem["task_id"].as_str().unwrap().to_owned(),
            source,
            // A whole program (stdio) has none: its module code is drawn.
            problem["entry_point"].as_str().unwrap_or_default().to_owned(),
        ));
    }
    out
}

fn humaneval(path: &Path) -> Vec<(String, String, String)> {
    std::fs::read_to_string(path)
        .expect("problems.jsonl")
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).expect("json"))
        .filter(|p| p["subset"] == "HumanEval-V")
        .map(|p| {
            let s = |k: &str| p[k].as_str().unwrap_or_default().to_owned();
            (s("task_id"), s("prompt") + &s("canonical_solution"), s("entry_point"))
        })
        .collect()
}

fn anchors(dir: &Path) -> Vec<(String, String, String)> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("anchors")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "py"))
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|p| {
            (p.file_stem().unwrap().to_string_lossy().into_owned(), std::fs::read_to_string(&p).unwrap(), String::new())
        })
        .collect()
}

/// Draws every solution at every detail, checks each chart, and returns the
/// `--detail high` programs read back by `chart2py`.
fn draw_all(set: &str, solutions: &[(String, String, String)]) -> Vec<(String, String)> {
    let fonts = Fonts::embedded();
    let opts = LayoutOptions::default();
    let mut bad = Vec::new();
    let mut programs = Vec::new();
    for detail in [Detail::Low, Detail::Medium, Detail::High] {
        let mut counts = Vec::new();
        for (name, source, entry) in solutions {
            let program = match read_program(source, Some(entry.as_str()).filter(|e| !e.is_empty())) {
                Ok(p) => p,
                Err(e) => {
                    bad.push(format!("{name}: {e}"));
                    continue;
                }
            };
            let text = format(&draw(&program, detail).chart);
            let chart = match parse(&text) {
                Ok(c) => c,
                Err(e) => {
                    bad.push(format!("{name} {detail:?}: does not parse: {e}"));
                    continue;
                }
            };
            counts.push(chart.nodes.len() as f64);
            if format(&chart) != text {
                bad.push(format!("{name} {detail:?}: not fmt-canonical"));
            }
            if let lint::Checked::Ok { warnings, .. } = lint::check(&text) {
                for w in warnings {
                    bad.push(format!("{name} {detail:?}: lint {}: {}", w.code, w.message));
                }
            }
            match layout(&chart, &opts, &fonts) {
                Ok(g) => {
                    // What `build`'s validity gate refuses, on the curves as drawn.
                    let drawing = Drawing::from_layout(&chart, &g, Style::default().curve);
                    let (_, defects) = measure(&drawing);
                    let described: Vec<String> = defects.iter().map(|d| d.describe(&drawing)).collect();
                    if !described.is_empty() {
                        let line = format!("{name} {detail:?}: ambiguous picture: {}", described.join("; "));
                        if KNOWN_ROUTING_DEFECTS.contains(&name.as_str()) {
                            println!("known routing defect (issue 14): {line}");
                        } else {
                            bad.push(line);
                        }
                    }
                }
                Err(e) => bad.push(format!("{name} {detail:?}: layout error {e}")),
            }
            if detail == Detail::High {
                match chart_to_python(&chart) {
                    Ok(p) => programs.push((name.clone(), p)),
                    Err(e) => bad.push(format!("{name}: chart2py: {}", e.message)),
                }
            }
        }
        let n = counts.len() as f64;
        let mean = counts.iter().sum::<f64>() / n.max(1.0);
        let sd = (counts.iter().map(|c| (c - mean).powi(2)).sum::<f64>() / n.max(1.0)).sqrt();
        let mut sorted = counts.clone();
        sorted.sort_by(f64::total_cmp);
        let pick = |q: f64| sorted.get(((n - 1.0) * q).round() as usize).copied().unwrap_or(0.0);
        let typical = counts.iter().filter(|&&c| (11.0..=19.0).contains(&c)).count();
        println!(
            "draw {set} --detail {detail:?}: {} charts, nodes mean {mean:.1} sd {sd:.1} min {} median {} max {}, {typical} in 11–19",
            counts.len(),
            pick(0.0),
            pick(0.5),
            pick(1.0)
        );
    }
    assert!(bad.is_empty(), "{set}: {} problems:\n{}", bad.len(), bad.join("\n"));
    programs
}

/// Judges `programs` with `flowbench judge`; returns (passed, total, failures).
fn judge(problems: &Path, programs: &[(String, String)], mode: &str) -> (usize, usize, Vec<String>) {
    let dir = tempfile::tempdir().expect("tempdir");
    let samples = dir.path().join("chart2py.jsonl");
    let lines: Vec<String> =
        programs.iter().map(|(t, p)| serde_json::json!({"task_id": t, "completion": p}).to_string()).collect();
    std::fs::write(&samples, lines.join("\n") + "\n").unwrap();
    let out = dir.path().join("results.jsonl");
    let run = Command::new(env!("CARGO_BIN_EXE_flowbench"))
        .args(["judge", "--mode", mode, "--clock", "cpu", "-q", "--problems"])
        .arg(problems)
        .arg("--samples")
        .arg(&samples)
        .arg("-o")
        .arg(&out)
        .output()
        .expect("flowbench runs");
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let results: Vec<Value> =
        std::fs::read_to_string(&out).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let failed =
        results.iter().filter(|r| r["passed"] != true).map(|r| format!("{}: {}", r["task_id"], r["result"])).collect();
    (results.iter().filter(|r| r["passed"] == true).count(), results.len(), failed)
}

#[test]
fn bank_solutions_draw_cleanly_and_round_trip() {
    let solutions = bank();
    let programs = draw_all("bank", &solutions);
    let dir = tempfile::tempdir().expect("tempdir");
    let problems = dir.path().join("bank.jsonl");
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("problems");
    let lines: Vec<String> = solutions
        .iter()
        .map(|(name, _, _)| {
            let v: Value =
                serde_json::from_str(&std::fs::read_to_string(root.join(name).join("problem.json")).unwrap()).unwrap();
            v.to_string()
        })
        .collect();
    std::fs::write(&problems, lines.join("\n") + "\n").unwrap();
    let (passed, total, failed) = judge(&problems, &programs, "native");
    println!("round trip bank: {passed}/{total} chart2py programs pass all tests");
    assert_eq!((passed, total), (solutions.len(), solutions.len()), "{failed:#?}");
}

#[test]
#[ignore = "heavy: draws and reads back all 164 HumanEval solutions"]
fn humaneval_solutions_draw_cleanly_and_round_trip() {
    let Some(path) = common::shared("codevision/problems.jsonl") else { return };
    let solutions = humaneval(&path);
    assert_eq!(solutions.len(), 164);
    let programs = draw_all("humaneval", &solutions);
    let (passed, total, failed) = judge(&path, &programs, "legacy");
    println!("round trip humaneval: {passed}/{total} chart2py programs pass HumanEval's tests");
    assert_eq!((passed, total), (164, 164), "{failed:#?}");
}

#[test]
fn codevision_style_anchors_draw_cleanly() {
    let Some(dir) = common::shared("anchors/codevision-style") else { return };
    let programs = draw_all("anchors", &anchors(&dir));
    assert_eq!(programs.len(), 24);
}
