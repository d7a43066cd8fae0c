//! The authoring commands end to end: `draw`, `check --against` and
//! `chart2py` on files, including bad input (clear errors, exit 2, no panic).

use std::process::{Command, Output};

fn flowbench(args: &[&str], dir: &std::path::Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_flowbench")).args(args).current_dir(dir).output().expect("flowbench runs")
}

const SOLUTION: &str =
    "def first_even(xs: list) -> int:\n    for x in xs:\n        if x % 2 == 0:\n            return x\n    return -1\n";

#[test]
fn draw_check_and_chart2py_round_trip() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("s.py"), SOLUTION).unwrap();
    let out = flowbench(&["draw", "s.py", "--detail", "high", "-o", "c.mmd"], dir.path());
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let chart = std::fs::read_to_string(dir.path().join("c.mmd")).unwrap();
    assert!(chart.contains("More x in xs?") && chart.contains("Input: xs (list)"), "{chart}");
    let out = flowbench(&["check", "--deny", "--against", "s.py", "--json", "c.mmd"], dir.path());
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["similarity"], 1.0);
    assert_eq!(report["faithful"], true);
    let out = flowbench(&["chart2py", "c.mmd"], dir.path());
    assert!(out.status.success());
    let program = String::from_utf8(out.stdout).unwrap();
    assert_eq!(
        program,
        "def first_even(xs):\n    for x in xs:\n        if x % 2 == 0:\n            return x\n    return -1\n"
    );
}

#[test]
fn wrong_chart_is_flagged_with_chart_and_code_positions() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("s.py"), SOLUTION).unwrap();
    assert!(flowbench(&["draw", "s.py", "-o", "c.mmd"], dir.path()).status.success());
    let chart = std::fs::read_to_string(dir.path().join("c.mmd")).unwrap();
    std::fs::write(dir.path().join("c.mmd"), chart.replace("Return -1", "Return 0")).unwrap();
    let out = flowbench(&["check", "--against", "s.py", "--json", "c.mmd"], dir.path());
    assert_eq!(out.status.code(), Some(1));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let kinds: Vec<&str> =
        report["mismatches"].as_array().unwrap().iter().map(|m| m["kind"].as_str().unwrap()).collect();
    // Behaviour decides, with a counterexample placed at the wrong Output;
    // the structure's mismatch says where code and chart part, on both sides.
    assert_eq!(kinds, ["behaviour", "outputs"], "{report}");
    let counterexample = report["behaviour"]["counterexample"].as_str().unwrap_or_default();
    assert!(counterexample.contains("the code returns -1, the chart computes 0"), "{report}");
    assert!(report["mismatches"][0]["chart_line"].as_u64().is_some(), "{report}");
    assert_eq!(report["mismatches"][1]["code_line"], 5);
    assert!(report["mismatches"][1]["chart_line"].as_u64().is_some());
    assert!(report["similarity"].as_f64().unwrap() < 1.0);
    let out = flowbench(&["check", "--against", "s.py", "c.mmd"], dir.path());
    let text = String::from_utf8_lossy(&out.stderr);
    assert!(text.contains("against-outputs") && text.contains("s.py:5"), "{text}");
}

#[test]
fn mismatches_are_counted_and_their_notes_quote_the_code_whole() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("s.py"), SOLUTION).unwrap();
    assert!(flowbench(&["draw", "s.py", "-o", "c.mmd"], dir.path()).status.success());
    let chart = std::fs::read_to_string(dir.path().join("c.mmd")).unwrap();
    std::fs::write(dir.path().join("wrong.mmd"), chart.replace("Return -1", "Return 0")).unwrap();
    let out = flowbench(&["check", "--against", "s.py", "wrong.mmd", "c.mmd"], dir.path());
    let text = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert_eq!(text.matches("[against-").count(), 2, "{text}");
    let summary = text.lines().last().unwrap_or_default();
    let expected = "checked 2 file(s): 0 error(s), 0 warning(s), 2 mismatch(es) with s.py in 1 chart(s)";
    assert_eq!(summary, expected, "{text}");
    assert!(text.contains("Note: in the code at s.py:5: `return -1`"), "the whole line of code: {text}");
}

#[test]
fn bad_inputs_give_clear_errors() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("bad.py"), "def f(:\n").unwrap();
    let out = flowbench(&["draw", "bad.py"], dir.path());
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("bad.py:1: syntax error"));
    std::fs::write(dir.path().join("s.py"), SOLUTION).unwrap();
    let out = flowbench(&["draw", "s.py", "--entry", "nope"], dir.path());
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no function named nope"));
    std::fs::write(dir.path().join("y.mmd"), "flowchart TD\n  A --> B\n").unwrap();
    let out = flowbench(&["chart2py", "y.mmd"], dir.path());
    assert_eq!(out.status.code(), Some(2));
    // Without a Start the flow begins at its first node; `B` is no code.
    assert!(String::from_utf8_lossy(&out.stderr).contains("node B: `B` is not code"));
}

#[test]
fn the_inputs_precondition_valid_is_neither_entry_nor_helper() {
    let dir = tempfile::tempdir().unwrap();
    let source = format!(
        "{SOLUTION}\n\ndef valid(xs):\n    def small(x):\n        return abs(x) < 10\n    return all(small(x) for x in xs)\n"
    );
    std::fs::write(dir.path().join("s.py"), source).unwrap();
    let out = flowbench(&["draw", "s.py", "-o", "c.mmd"], dir.path());
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let chart = std::fs::read_to_string(dir.path().join("c.mmd")).unwrap();
    assert!(chart.contains("first_even") && !chart.contains("valid") && !chart.contains("small"), "{chart}");
    let out = flowbench(&["check", "--against", "s.py", "--json", "c.mmd"], dir.path());
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stdout));
    let out = flowbench(&["draw", "s.py", "--entry", "valid"], dir.path());
    assert!(String::from_utf8_lossy(&out.stdout).contains("Start: valid"), "{}", String::from_utf8_lossy(&out.stdout));
}
