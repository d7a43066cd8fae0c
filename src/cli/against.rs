//! Printing `check --against` results: rustc-style diagnostics on the chart
//! with the solution line in a note, or one JSON object per chart; and
//! finding the problem whose tests the chart runs on.

use std::path::{Path, PathBuf};

use anyhow::Context as _;

use crate::author::against::{Behave, add_behaviour};
use crate::author::behaviour::{Behaviour, InputCache};
use crate::author::execute::Execution;
use crate::author::review::mismatch_diagnostic;
use crate::author::{Program, Tests, check_against};
use crate::exec::LazyExecutor;
use crate::judge::problems_file::{LoadedProblem, load_problems, parse_problem};
use crate::mermaid::Flowchart;
use crate::mermaid::diagnostic::render_diagnostic;
use crate::testgen::spec::TestSpec;

/// The solution a chart is checked against: its file name, text and
/// reading, and the problem whose tests a chart in code runs on.
pub struct Solution {
    pub name: String,
    pub code: String,
    pub program: Program,
    pub problem: Option<LoadedProblem>,
    /// The problem's `problem.toml` (what its inputs may be), when the
    /// solution is in a problem directory.
    pub spec: Option<TestSpec>,
}

/// The `problem.toml` of the problem directory the solution belongs to
/// (`--tests DIR`, or the directory of `--tests problem.json`, else the
/// solution's own); `None` when there is none. An unreadable one is an
/// error naming its line and column.
pub fn problem_spec(solution: &Path, tests: Option<&Path>) -> anyhow::Result<Option<TestSpec>> {
    let dir = match tests {
        Some(p) if p.is_dir() => Some(p.to_path_buf()),
        Some(p) if p.extension().is_some_and(|e| e == "jsonl") => None,
        Some(p) => p.parent().map(Path::to_path_buf),
        None => solution.parent().map(Path::to_path_buf),
    };
    let Some(dir) = dir.map(|d| if d.as_os_str().is_empty() { PathBuf::from(".") } else { d }) else {
        return Ok(None);
    };
    Ok(crate::bank::spec::inputs_spec(&dir)?)
}

/// The problem named by `--tests` (a directory, a `problem.json`, or a
/// problems JSONL and `--task`), else the `problem.json` beside the
/// solution; `None` when there is none.
pub fn problem_tests(
    solution: &Path,
    tests: Option<&Path>,
    task: Option<&str>,
) -> anyhow::Result<Option<LoadedProblem>> {
    let path = match tests {
        Some(p) if p.is_dir() => p.join("problem.json"),
        Some(p) => p.to_path_buf(),
        None => match solution.parent().map(|d| d.join("problem.json")).filter(|p| p.is_file()) {
            Some(p) => p,
            None => return Ok(None),
        },
    };
    if path.extension().is_some_and(|e| e == "jsonl") {
        let (mut set, diags) = load_problems(&path)?;
        for d in &diags {
            eprintln!("warning: {d}");
        }
        let id = match task {
            Some(t) => t.to_owned(),
            None if set.order.len() == 1 => set.order[0].clone(),
            None => anyhow::bail!("{}: holds {} problems; name one with --task", path.display(), set.order.len()),
        };
        return set
            .by_id
            .remove(&id)
            .map(Some)
            .with_context(|| format!("{}: no problem with task_id {id:?}", path.display()));
    }
    let text = std::fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))?;
    parse_problem(&text).map(Some).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))
}

/// What one chart's check prints, held so that charts checked side by side
/// print in their own order, each whole.
#[derive(Debug, Default)]
pub struct Printed {
    pub stdout: String,
    pub stderr: String,
}

impl Printed {
    /// Prints what was held.
    pub fn flush(self) {
        print!("{}", self.stdout);
        eprint!("{}", self.stderr);
    }
}

/// Compares (and runs, when the solution has a problem) into `out`;
/// returns the number of mismatches (0: faithful). `Err`: the sandbox
/// failed; the comparison of facts was still written.
#[allow(clippy::too_many_arguments)]
pub fn report(
    out: &mut Printed,
    name: &str,
    source: &str,
    chart: &Flowchart,
    solution: &Solution,
    sandbox: &LazyExecutor,
    cache: &InputCache,
    json: bool,
) -> Result<usize, String> {
    let settings = crate::author::execute::judge_settings();
    let tests = solution.problem.as_ref().map(|problem| Tests { problem, settings: &settings, sandbox });
    let mut result = check_against(&solution.program, chart);
    let behave = Behave { source: &solution.code, sandbox, cache, spec: solution.spec.as_ref() };
    let failure =
        add_behaviour(&mut result, &solution.program, chart, tests.as_ref(), &behave).err().map(|e| e.to_string());
    let Solution { name: solution, code, .. } = solution;
    if json {
        out.stdout.push_str(&format!("{}\n", as_json(name, chart, solution, &result)));
    } else {
        for m in &result.mismatches {
            out.stderr.push_str(&render_diagnostic(name, source, &mismatch_diagnostic(m, chart, solution, code)));
        }
        for m in result.notes.iter().chain(&result.unchecked) {
            let mut d = mismatch_diagnostic(m, chart, solution, code);
            d.severity = crate::mermaid::diagnostic::Severity::Warning;
            out.stderr.push_str(&render_diagnostic(name, source, &d));
        }
        let mut evidence = match &result.execution {
            Some(Execution::Passed { tests: Some(n) }) => format!("; ran on {n} tests: passed"),
            Some(Execution::Passed { tests: None }) => "; ran on the tests: passed".to_owned(),
            Some(Execution::NotCode(why)) => format!("; not run (not code: {why})"),
            _ => String::new(),
        };
        evidence.push_str(&match &result.behaviour {
            Some(Behaviour::Agreed(a)) => {
                format!("; ran beside the code on {} made inputs ({}): all agreed", a.inputs, a.origin)
            }
            Some(Behaviour::Differs(_, a)) => {
                format!("; {} of {} made inputs agreed ({})", a.agreed, a.inputs, a.origin)
            }
            Some(Behaviour::NotCode(why)) if result.execution.is_none() => format!("; not run ({why})"),
            Some(Behaviour::NoInputs(why)) => format!("; no inputs made ({why})"),
            _ => String::new(),
        });
        if !result.unchecked.is_empty() {
            evidence.push_str(&format!("; {} difference(s) unchecked: the chart did not run", result.unchecked.len()));
        }
        let evidence_word = serde_json::to_value(result.evidence).ok();
        let word = evidence_word.as_ref().and_then(|v| v.as_str()).unwrap_or("");
        out.stderr.push_str(&format!(
            "{name}: similarity to {solution}: {:.3}; evidence {word}{evidence}\n",
            result.similarity
        ));
    }
    match failure {
        Some(e) => Err(e),
        None => Ok(result.mismatches.len()),
    }
}

/// The `--json` line of one comparison.
fn as_json(
    name: &str,
    chart: &Flowchart,
    solution: &str,
    result: &crate::author::against::Report,
) -> serde_json::Value {
    let located = |m: &crate::author::Mismatch| {
        let span = m.node.map(|i| chart.nodes[i].span);
        serde_json::json!({
            "kind": m.kind,
            "message": m.message,
            "chart_line": span.map(|s| s.line),
            "chart_col": span.map(|s| s.col),
            "element": m.node.map(|i| chart.nodes[i].id.clone()),
            "code_line": m.code_line,
        })
    };
    let notes: Vec<serde_json::Value> = result.notes.iter().map(located).collect();
    let behaviour = match &result.behaviour {
        None => serde_json::Value::Null,
        Some(Behaviour::Agreed(a)) => {
            serde_json::json!({"outcome": "agreed", "inputs": a.inputs, "agreed": a.agreed, "origin": a.origin})
        }
        Some(Behaviour::Differs(d, a)) => serde_json::json!({
            "outcome": "differs", "inputs": a.inputs, "agreed": a.agreed, "origin": a.origin,
            "counterexample": d.to_string(), "call": d.call, "code": d.code, "chart": d.chart,
        }),
        Some(Behaviour::NotCode(why)) => serde_json::json!({"outcome": "not code", "reason": why}),
        Some(Behaviour::NoInputs(why)) => serde_json::json!({"outcome": "no inputs", "reason": why}),
    };
    let mismatches: Vec<serde_json::Value> = result.mismatches.iter().map(located).collect();
    let execution = match &result.execution {
        None => serde_json::Value::Null,
        Some(Execution::Passed { tests }) => serde_json::json!({"outcome": "passed", "tests": tests}),
        Some(Execution::Failed(c)) => serde_json::json!({
            "outcome": "failed", "result": c.result, "input": c.input, "expected": c.expected,
            "got": c.got, "message": c.message,
        }),
        Some(Execution::NotCode(why)) => serde_json::json!({"outcome": "not code", "reason": why}),
    };
    serde_json::json!({
        "chart": name,
        "solution": solution,
        "faithful": result.mismatches.is_empty(),
        "similarity": (result.similarity * 1000.0).round() / 1000.0,
        "evidence": result.evidence,
        "execution": execution,
        "behaviour": behaviour,
        "mismatches": mismatches,
        "notes": notes,
        "unchecked": result.unchecked.iter().map(located).collect::<Vec<_>>(),
        "unverifiable": result.unverifiable.iter().map(|u| serde_json::json!({
            "text": u.text,
            "chart_line": chart.nodes[u.node].span.line,
        })).collect::<Vec<_>>(),
    })
}
