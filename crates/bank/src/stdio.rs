//! Whole-program (stdio) problems in the bank: a `problem.json` with
//! `"call_style": "stdio"` (tests `{stdin, stdout}`, a checker), built into
//! `dist/` records that `flowbench judge` runs as programs.
//!
//! # How it works
//!
//! [`read`] turns the problem into the bank's one shape, a
//! [`Problem`] whose tests take the standard input as their one argument
//! and expect the printed text (the shape `tests gen` writes into
//! `tests.jsonl`, so generated tests apply unchanged), and keeps what only a
//! program has — the checker — in [`StdioSettings`]. Everything that only
//! counts or lists tests (Table 1, summary, gallery) reads that shape as it
//! reads a function's. What runs tests goes back to the program form:
//! [`validate`] judges the reference through the judge's own stdio path
//! (`Job::Program`, each input a fresh confined process, the output
//! compared by the problem's checker), and [`stdio_tests`] writes the
//! record's tests as `{stdin, stdout, category}`.

use std::time::Duration;

use flowbench_exec::Limits;
use flowbench_judge::problem::{Problem, TestCase};
use flowbench_judge::run::{Sandbox, SandboxFailure};
use flowbench_judge::stdio::verdict::stdio_job;
use flowbench_judge::stdio::{StdioProblem, StdioTest, stdio_verdict};
use flowbench_testgen::reference::PROGRAM;

use super::validate::ValidateError;
use super::{BankProblem, PROBLEM};

/// What a whole-program problem has beyond its tests: how outputs are
/// compared (`problem.json`'s `checker`, `checker_program`).
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
pub struct StdioSettings {
    pub checker: Option<String>,
    pub checker_program: Option<String>,
}

/// Whether `problem.json`'s text is a whole-program problem.
pub fn is_stdio(value: &serde_json::Value) -> bool {
    value.get("call_style").and_then(|c| c.as_str()) == Some("stdio")
}

/// A stdio `problem.json` as the bank holds it: tests with the standard
/// input as their one argument and the output as `expected` (verbatim),
/// the entry point [`PROGRAM`].
pub fn read(stdio: StdioProblem) -> (Problem, StdioSettings) {
    let tests = stdio
        .tests
        .into_iter()
        .map(|t| TestCase {
            args: vec![t.stdin.into()],
            kwargs: Default::default(),
            expected: t.stdout.into(),
            category: t.category,
            compare: Default::default(),
            widened: None,
        })
        .collect();
    let problem = Problem {
        task_id: stdio.task_id,
        entry_point: PROGRAM.into(),
        starter_code: stdio.starter_code,
        call_style: Default::default(),
        tests,
        time_limit_s: stdio.time_limit_s,
        float_tolerance: stdio.float_tolerance,
        compare_mode: Default::default(),
        reference_time_s: stdio.reference_time_s,
        legacy: None,
        subset: stdio.subset,
        difficulty: stdio.difficulty,
    };
    (problem, StdioSettings { checker: stdio.checker, checker_program: stdio.checker_program })
}

/// The tests as a program's: `{stdin, stdout, category}`; a test whose
/// input or output is not text (only a hand-edited `tests.jsonl` could hold
/// one) is an error naming it.
/// A whole program's test that is not one text input and its text output.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("test {test}: a whole program's test is one standard input and its output, both text")]
pub struct NotText {
    /// 1-based.
    pub test: usize,
}

pub fn stdio_tests(tests: &[TestCase]) -> Result<Vec<StdioTest>, NotText> {
    tests
        .iter()
        .enumerate()
        .map(|(i, t)| match (t.args.as_slice(), t.expected.as_str()) {
            ([serde_json::Value::String(stdin)], Some(stdout)) => {
                Ok(StdioTest { stdin: stdin.clone(), stdout: stdout.to_string(), category: t.category })
            }
            _ => Err(NotText { test: i + 1 }),
        })
        .collect()
}

/// The problem as the judge reads a stdio problem.
pub fn to_stdio_problem(bank: &BankProblem, settings: &StdioSettings) -> Result<StdioProblem, ValidateError> {
    let p = &bank.problem;
    let tests = stdio_tests(super::native_tests(bank))
        .map_err(|error| ValidateError::StdioTests { problem_json: bank.dir.join(PROBLEM), error })?;
    Ok(StdioProblem {
        task_id: p.task_id.clone(),
        call_style: Default::default(),
        tests,
        checker: settings.checker.clone(),
        checker_program: settings.checker_program.clone(),
        float_tolerance: p.float_tolerance,
        time_limit_s: p.time_limit_s,
        reference_time_s: p.reference_time_s,
        question: None,
        starter_code: p.starter_code.clone(),
        subset: None,
        difficulty: None,
        url: None,
    })
}

/// Runs the reference program on every test as the judge runs a candidate
/// and returns how many it passed; a failing test is an error naming it,
/// its input and both outputs. A sandbox (or custom checker) that could not
/// run is a [`SandboxFailure`].
pub fn validate(
    sandbox: &dyn Sandbox,
    bank: &BankProblem,
    settings: &StdioSettings,
    time_limit: Duration,
) -> Result<usize, ValidateError> {
    let problem = to_stdio_problem(bank, settings)?;
    let (_, suite) = problem.prepare().map_err(|invalid| ValidateError::tests(bank, invalid.to_string()))?;
    let limits = Limits { wall: time_limit, cpu: time_limit };
    let outcome = sandbox.run_job(&stdio_job(&suite, bank.solution.clone(), limits));
    let verdict = stdio_verdict(&suite, &outcome, time_limit, sandbox).map_err(SandboxFailure::from)?;
    // Inputs and outputs are raw text: quoted, so newlines show.
    super::validate::passed_or_first_failure(bank, verdict, "program", |s| format!("{s:?}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tests_go_to_the_bank_shape_and_back() {
        let text = r#"{"task_id": "p", "call_style": "stdio", "checker": "lines",
            "tests": [{"stdin": "2\n", "stdout": " #\n##\n", "category": "edge"}]}"#;
        let (problem, settings) = read(serde_json::from_str(text).unwrap());
        assert_eq!(problem.entry_point, PROGRAM);
        assert_eq!(settings.checker.as_deref(), Some("lines"));
        let back = stdio_tests(&problem.tests).unwrap();
        assert_eq!((back[0].stdin.as_str(), back[0].stdout.as_str()), ("2\n", " #\n##\n"));
        let mut bad = problem.tests.clone();
        bad[0].expected = 3.into();
        assert_eq!(stdio_tests(&bad), Err(NotText { test: 1 }));
    }
}
