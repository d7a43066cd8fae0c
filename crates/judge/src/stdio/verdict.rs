//! A sample of a stdio problem: its sandbox job and its verdict.

use std::time::Duration;

use flowbench_exec::{Job, Limits, Outcome, RunOutcome, Status};
use flowbench_problem::sandbox::SandboxFailure;

use crate::run::{MachineFailure, Sandbox};
use crate::verdict::{
    Class, ErrorClass, Failure, TestFailure, Verdict, closing_verdict, describe_status, opening_verdict, truncate,
};

use super::checker::Checker;
use super::custom::{Answer, CheckerFailure, checker_answers, checker_job};
use super::problem::StdioSuite;

/// Label attached to every stdio verdict.
pub const STDIO_NOTE: &str = "stdio: outputs compared in the judge";

/// Longest rendering of an input, expected or printed text in a report.
const SHOWN: usize = 200;

/// The sandbox job for one sample: the program run once per test input.
pub fn stdio_job(suite: &StdioSuite, source: String, limits: Limits) -> Job {
    Job::Program { source, stdins: suite.stdins.clone(), limits }
}

/// The verdict on a compiled candidate that does not compile: no test
/// passed, the compiler's diagnostics shown.
pub fn compile_error_verdict(suite: &StdioSuite, diagnostics: &str, limit: Duration) -> Verdict {
    Verdict {
        passed: false,
        result: "failed: compile error".into(),
        error_class: Some(ErrorClass::CompileError),
        tests_passed: Some(0),
        tests_total: Some(suite.expected.len()),
        first_failure: Some(Failure { message: truncate(diagnostics.trim(), 4 * SHOWN), ..Failure::default() }),
        time_s: 0.0,
        time_limit_s: limit.as_secs_f64(),
        class: Some(Class::Wrong),
        only_failure: None,
    }
}

/// Judges the outcome of [`stdio_job`]: each completed run's output checked
/// (by the built-in checker here, or by the custom checker in a job of its
/// own through `sandbox`), per-test results, the first failure shown.
/// `Err` is a failure of the sandbox or of the problem's checker program.
pub fn stdio_verdict(
    suite: &StdioSuite,
    outcome: &Outcome,
    limit: Duration,
    sandbox: &dyn Sandbox,
) -> Result<Verdict, MachineFailure> {
    let (mut verdict, done) = opening_verdict(suite.expected.len(), outcome, limit)?;
    if done {
        verdict.class = Some(Class::Wrong);
        return Ok(verdict);
    }
    let accepted = accepted_outputs(suite, &outcome.runs, sandbox)?;
    let mut first: Option<TestFailure> = None;
    let mut passed = 0;
    let mut class = Class::Passed;
    let mut failed = Vec::new();
    for (i, &ok) in accepted.iter().enumerate() {
        let Some(failure) = test_failure(suite, i, outcome.runs.get(i), ok)? else {
            passed += 1;
            continue;
        };
        failed.push(i + 1);
        // A test not run after an earlier one's timeout says nothing.
        if outcome.runs.get(i).is_some() {
            class = class.min(Class::of_failure(suite.large.get(i).copied().unwrap_or(false), false, failure.1));
        }
        if first.is_none() {
            first = Some(failure);
        }
    }
    let mut verdict = closing_verdict(verdict, passed, first);
    verdict.class = Some(class);
    verdict.only_failure = match failed.as_slice() {
        [one] => Some(*one),
        _ => None,
    };
    Ok(verdict)
}

/// Per test, whether the run completed with an accepted output.
fn accepted_outputs(
    suite: &StdioSuite,
    runs: &[RunOutcome],
    sandbox: &dyn Sandbox,
) -> Result<Vec<bool>, CheckerFailure> {
    let completed = |i: usize| runs.get(i).is_some_and(|r| r.status == Status::Completed);
    let total = suite.expected.len();
    let Some(program) = suite.checker_program.as_deref().filter(|_| suite.checker == Checker::Custom) else {
        return Ok((0..total)
            .map(|i| completed(i) && suite.checker.accepts(&runs[i].stdout, &suite.expected[i]) == Some(true))
            .collect());
    };
    let to_check: Vec<usize> = (0..total).filter(|&i| completed(i)).collect();
    let mut accepted = vec![false; total];
    if to_check.is_empty() {
        return Ok(accepted);
    }
    let answers: Vec<Answer> = to_check
        .iter()
        .map(|&i| Answer { input: &suite.stdins[i], expected: &suite.expected[i], actual: &runs[i].stdout })
        .collect();
    let outcome = sandbox.run_trusted_job(&checker_job(program, &answers));
    for (&i, ok) in to_check.iter().zip(checker_answers(&outcome, to_check.len())?) {
        accepted[i] = ok;
    }
    Ok(accepted)
}

/// Why test `i` failed (result string, class, failure), `None` if it passed.
fn test_failure(
    suite: &StdioSuite,
    i: usize,
    run: Option<&RunOutcome>,
    accepted: bool,
) -> Result<Option<(String, ErrorClass, Failure)>, SandboxFailure> {
    let total = suite.expected.len();
    let mut failure = Failure {
        test: Some(i + 1),
        input: Some(truncate(&suite.stdins[i], SHOWN)),
        expected: Some(truncate(&suite.expected[i], SHOWN)),
        ..Failure::default()
    };
    let Some(run) = run else {
        failure.message = "not run: an earlier test timed out".into();
        return Ok(Some(("failed: not run".into(), ErrorClass::Crash, failure)));
    };
    if let Some((result, class, message)) = describe_status(&run.status)? {
        failure.message = message;
        failure.got = (!run.stdout.is_empty()).then(|| truncate(&run.stdout, SHOWN));
        return Ok(Some((result, class, failure)));
    }
    if accepted {
        return Ok(None);
    }
    failure.got = Some(truncate(&run.stdout, SHOWN));
    failure.message = "wrong answer".into();
    Ok(Some((format!("failed: wrong answer on test {}/{total}", i + 1), ErrorClass::WrongAnswer, failure)))
}
