//! `flowbench check --against` as a user meets it: a chart written in code
//! runs on the problem's tests (`executed` evidence, or a counterexample),
//! a chart in prose throughout is `unverifiable`, and bad input (a solution
//! that does not parse, an ambiguous problems file) is a clear error.

use std::path::Path;
use std::process::{Command, Output};

use serde_json::Value;

const FAITHFUL: &str = r#"flowchart TD
    A([Start]) --> B[/"Input: s (string)"/]
    B --> C["vowels = 'aeiou'"]
    C --> D["count = 0"]
    D --> E{"Next ch in s?"}
    E -- True --> F["lower = ch.lower()"]
    F --> G{"Is lower in vowels?"}
    G -- True --> H["count += 1"]
    G -- False --> E
    H --> E
    E -- False --> I[/"Output: count"/]
    I --> J([End])
"#;

fn check(dir: &Path, chart: &str, extra: &[&str]) -> Output {
    let path = dir.join("chart.mmd");
    std::fs::write(&path, chart).expect("write chart");
    let solution = Path::new(env!("CARGO_MANIFEST_DIR")).join("problems/count_vowels/solution.py");
    Command::new(env!("CARGO_BIN_EXE_flowbench"))
        .arg("check")
        .arg(&path)
        .arg("--against")
        .arg(solution)
        .args(extra)
        .output()
        .expect("flowbench runs")
}

/// `flowbench ARGS` run in `dir` (where the test wrote its files).
fn flowbench_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_flowbench")).args(args).current_dir(dir).output().expect("flowbench runs")
}

fn report(out: &Output) -> Value {
    let text = String::from_utf8_lossy(&out.stdout);
    serde_json::from_str(text.lines().next().expect("a JSON line")).expect("JSON")
}

#[test]
fn a_chart_in_code_runs_on_the_tests_beside_the_solution() {
    let dir = tempfile::tempdir().expect("tempdir");
    let out = check(dir.path(), FAITHFUL, &["--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let r = report(&out);
    assert_eq!(r["evidence"], "executed", "{r}");
    assert_eq!(r["execution"]["outcome"], "passed", "{r}");
    assert!(r["execution"]["tests"].as_u64().unwrap_or(0) > 0, "{r}");
}

#[test]
fn a_wrong_step_is_a_counterexample_from_the_tests() {
    // Counts every letter the chart sees, vowel or not, as a step it adds
    // on both branches: structurally one box more, behaviourally wrong.
    let wrong = FAITHFUL.replace("G -- False --> E", "G -- False --> H");
    let dir = tempfile::tempdir().expect("tempdir");
    let out = check(dir.path(), &wrong, &["--json"]);
    assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stderr));
    let r = report(&out);
    assert_eq!(r["execution"]["outcome"], "failed", "{r}");
    let behaviour: Vec<&Value> =
        r["mismatches"].as_array().expect("list").iter().filter(|m| m["kind"] == "behaviour").collect();
    assert_eq!(behaviour.len(), 1, "{r}");
    let message = behaviour[0]["message"].as_str().expect("text");
    assert!(message.contains("on input count_vowels(") && message.contains("the chart computes"), "{message}");
    // Without JSON the same counterexample is a diagnostic.
    let out = check(dir.path(), &wrong, &[]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("[against-behaviour]"));
}

#[test]
fn a_chart_in_prose_throughout_is_unverifiable_not_a_crash() {
    let prose = "flowchart TD
    A([Start]) --> B[/Input: a piece of text/]
    B --> C[Look at every letter and keep a tally of the vowels]
    C --> D{Anything interesting left?}
    D -- Yes --> C
    D -- No --> E[/Output: the tally/]
    E --> F([End])
";
    let dir = tempfile::tempdir().expect("tempdir");
    let out = check(dir.path(), prose, &["--json"]);
    assert!(matches!(out.status.code(), Some(0 | 1)), "{}", String::from_utf8_lossy(&out.stderr));
    let r = report(&out);
    assert_eq!(r["evidence"], "unverifiable", "{r}");
    assert_eq!(r["execution"]["outcome"], "not code", "{r}");
}

#[test]
fn a_solution_that_does_not_parse_is_an_error_naming_the_file() {
    let dir = tempfile::tempdir().expect("tempdir");
    let solution = dir.path().join("broken.py");
    std::fs::write(&solution, "def f(x):\n    return (x +\n").expect("write");
    std::fs::write(dir.path().join("chart.mmd"), FAITHFUL).expect("write");
    let out = Command::new(env!("CARGO_BIN_EXE_flowbench"))
        .arg("check")
        .arg(dir.path().join("chart.mmd"))
        .arg("--against")
        .arg(&solution)
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("broken.py:2") && stderr.trim().lines().count() == 1, "printed once: {stderr}");
}

#[test]
fn a_problems_file_of_several_problems_needs_a_task() {
    let dir = tempfile::tempdir().expect("tempdir");
    let file = dir.path().join("problems.jsonl");
    let line = |id: &str| {
        format!(
            r#"{{"task_id": "{id}", "entry_point": "count_vowels", "call_style": "function", "tests": [{{"args": ["ab"], "expected": 1}}]}}"#
        )
    };
    std::fs::write(&file, format!("{}\n{}\n", line("a"), line("b"))).expect("write");
    let out = check(dir.path(), FAITHFUL, &["--tests", file.to_str().expect("utf-8")]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--task"));
    let out = check(dir.path(), FAITHFUL, &["--tests", file.to_str().expect("utf-8"), "--task", "b", "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(report(&out)["execution"]["tests"], 1);
}

/// Every chart of the embedded bank is faithful to its solution by
/// `check --beside` (its `flowchart.mmd` against the `solution.py` beside
/// it), and most of them decide by running: the bank's charts are written
/// in pseudo-code (`len nums - 1`, `a mod b`, `Set i = 0 and j = …`) that
/// the reader must take as code. Prints how many ran.
#[test]
#[ignore = "heavy: every bank chart run beside its solution in the sandbox"]
fn every_bank_chart_passes_check_beside_and_most_run() {
    let bank = Path::new(env!("CARGO_MANIFEST_DIR")).join("problems");
    let out = Command::new(env!("CARGO_BIN_EXE_flowbench"))
        .args(["check", "--beside"])
        .arg(&bank)
        .output()
        .expect("flowbench runs");
    let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert_eq!(out.status.code(), Some(0), "{stdout}\n{stderr}");
    let charts = std::fs::read_dir(&bank)
        .expect("problems")
        .filter(|e| e.as_ref().is_ok_and(|e| e.path().join("flowchart.mmd").is_file()))
        .count();
    let ran = stdout.lines().chain(stderr.lines()).filter(|l| l.contains("all agreed")).count();
    println!("bank charts by check --beside: {ran}/{charts} ran beside their solution and agreed, none unfaithful");
    assert!(
        stderr.contains(&format!("checked {charts} chart(s)"))
            || stdout.contains(&format!("checked {charts} chart(s)")),
        "{stderr}"
    );
    assert!(ran * 10 >= charts * 6, "only {ran}/{charts} bank charts ran: {stdout}\n{stderr}");
}

/// A helper without a value drawn ending in `Return to caller` (an LLM's
/// habit): the chart runs beside the code on made inputs and agrees, where
/// the words once read as a value the code does not return.
#[test]
fn a_helper_ending_in_return_to_caller_runs_and_agrees() {
    let dir = tempfile::tempdir().expect("tempdir");
    let solution = "def fill(grid, r, c):\n    if r < 0 or r >= len(grid) or c < 0 or c >= len(grid[0]) or grid[r][c] != 1:\n        return\n    grid[r][c] = 0\n    fill(grid, r + 1, c)\n    fill(grid, r - 1, c)\n    fill(grid, r, c + 1)\n    fill(grid, r, c - 1)\n\n\ndef count_islands(grid):\n    count = 0\n    for r in range(len(grid)):\n        for c in range(len(grid[0])):\n            if grid[r][c] == 1:\n                count += 1\n                fill(grid, r, c)\n    return count\n";
    let chart = r#"flowchart TD
    A([Start]) --> B[/Input: grid/]
    B --> C[count = 0]
    C --> D{"More r in range(len(grid))?"}
    D -->|Yes| E{"More c in range(len(grid[0]))?"}
    E -->|Yes| F{"grid[r][c] == 1?"}
    F -->|Yes| G[count = count + 1]
    G --> H["fill(grid, r, c)"]
    H --> E
    F -->|No| E
    E -->|No| D
    D -->|No| I[/Return count/]
    I --> Z([End])
    subgraph helper [fill]
        S(["Start: fill(grid, r, c)"]) --> T{"r < 0 or r >= len(grid) or c < 0 or c >= len(grid[0]) or grid[r][c] != 1?"}
        T -->|Yes| U[/Return to caller/]
        T -->|No| V["grid[r][c] = 0"]
        V --> W["fill(grid, r + 1, c)<br>fill(grid, r - 1, c)<br>fill(grid, r, c + 1)<br>fill(grid, r, c - 1)"]
        W --> X[/Return to caller/]
    end
"#;
    std::fs::write(dir.path().join("solution.py"), solution).expect("write solution");
    std::fs::write(dir.path().join("chart.mmd"), chart).expect("write chart");
    let out = flowbench_in(dir.path(), &["check", "--json", "--against", "solution.py", "chart.mmd"]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let r = report(&out);
    assert_eq!(r["evidence"], "executed", "{r}");
    assert_eq!((r["faithful"].as_bool(), r["mismatches"].as_array().map(Vec::len)), (Some(true), Some(0)), "{r}");
}

/// A problem's `problem.toml` bounds the inputs a chart runs on: outside
/// them (a negative width) the code's `range` answers `[]` where the
/// chart's loop never ends, which would be a false alarm about an input
/// the problem excludes.
#[test]
fn the_made_inputs_keep_to_the_problems_spec() {
    let dir = tempfile::tempdir().expect("tempdir");
    let solution = "def chunks(text, width):\n    return [text[i:i + width] for i in range(0, len(text), width)]\n";
    let chart = r#"flowchart TD
    A([Start]) --> B[/Input: text, width/]
    B --> C[Create an empty list out]
    C --> D[i = 0]
    D --> E{i < len text?}
    E -->|Yes| F["append text[i:i + width] to out"]
    F --> G[i = i + width]
    G --> E
    E -->|No| H[/Return out/]
    H --> Z([End])
"#;
    std::fs::write(dir.path().join("solution.py"), solution).expect("write solution");
    std::fs::write(dir.path().join("chart.mmd"), chart).expect("write chart");
    std::fs::write(dir.path().join("problem.toml"), "[params.width]\nmin = 1\nmax = 6\n").expect("write spec");
    let out = flowbench_in(dir.path(), &["check", "--json", "--against", "solution.py", "chart.mmd"]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let r = report(&out);
    assert_eq!(r["behaviour"]["outcome"], "agreed", "{r}");
    assert!(r["behaviour"]["origin"].as_str().is_some_and(|o| o.contains("problem.toml")), "{r}");
    // A spec that does not parse is an error naming it, not a guess.
    std::fs::write(dir.path().join("problem.toml"), "[params.width\nmin = 1\n").expect("write spec");
    let out = flowbench_in(dir.path(), &["check", "--against", "solution.py", "chart.mmd"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("problem.toml:1:"), "{err}");
}
