//! Proving a problem's tests: the reference solution runs on every native
//! test in the sandbox, like any candidate, and must pass all of them (a
//! whole program as the judge runs one: `super::stdio::validate`).

use std::path::PathBuf;
use std::time::Duration;

use flowbench_judge::compare::{CompareOptions, DEFAULT_FLOAT_TOLERANCE};
use flowbench_judge::native::{PreparedTests, native_job, native_verdict};
use flowbench_judge::run::{Sandbox, SandboxFailure};
use flowbench_judge::verdict::Verdict;

use super::{BankProblem, PROBLEM, SOLUTION};

/// Why a problem's tests are not proven.
#[derive(Debug, thiserror::Error)]
pub enum ValidateError {
    /// The sandbox could not run the reference: nothing is said about it.
    #[error(transparent)]
    Sandbox(#[from] SandboxFailure),
    /// The tests do not decode (the judge's message).
    #[error("{}: {message}", .problem_json.display())]
    Tests { problem_json: PathBuf, message: String },
    /// A whole program's test that is not text.
    #[error("{}: {error}", .problem_json.display())]
    StdioTests { problem_json: PathBuf, error: super::stdio::NotText },
    #[error(transparent)]
    ReferenceFails(Box<ReferenceFails>),
}

/// The reference (`solution` or `program`) fails a test: which, why, its
/// input and both values, as shown.
#[derive(Debug, thiserror::Error)]
#[error(
    "{}: the reference {reference} fails test {test}: {message} (input {input}, expected {expected}, got {got})",
    .solution.display()
)]
pub struct ReferenceFails {
    pub solution: PathBuf,
    pub reference: &'static str,
    /// The test's number, `?` when unknown.
    pub test: String,
    pub message: String,
    pub input: String,
    pub expected: String,
    pub got: String,
}

impl ValidateError {
    /// [`ValidateError::Tests`] of `bank`'s `problem.json`.
    pub(super) fn tests(bank: &BankProblem, message: String) -> ValidateError {
        ValidateError::Tests { problem_json: bank.dir.join(PROBLEM), message }
    }
}

/// Runs the reference solution on every test and returns how many it
/// passed; a failing test is an error naming it, its input and both values.
/// A sandbox that could not run the job is [`ValidateError::Sandbox`].
pub fn validate(sandbox: &dyn Sandbox, bank: &BankProblem, time_limit: Duration) -> Result<usize, ValidateError> {
    if let Some(settings) = &bank.stdio {
        return super::stdio::validate(sandbox, bank, settings, time_limit);
    }
    let p = &bank.problem;
    let tests = PreparedTests::new(p).map_err(|invalid| ValidateError::tests(bank, invalid.to_string()))?;
    let limits = flowbench_exec::Limits { wall: time_limit, cpu: time_limit };
    let outcome = sandbox.run_job(&native_job(p, &tests, bank.solution.clone(), limits));
    let opts = CompareOptions {
        float_tolerance: p.float_tolerance.unwrap_or(DEFAULT_FLOAT_TOLERANCE),
        strict_types: false,
        mode: p.compare_mode,
    };
    let verdict = native_verdict(&tests, &outcome, &opts, time_limit)?;
    // Inputs and values come as Python reprs already.
    passed_or_first_failure(bank, verdict, "solution", |s| s)
}

/// How many tests the reference (`"solution"` or `"program"`) passed, or
/// an error naming the first it fails, its input and both values, each
/// shown by `show`.
pub(super) fn passed_or_first_failure(
    bank: &BankProblem,
    verdict: Verdict,
    reference: &'static str,
    show: fn(String) -> String,
) -> Result<usize, ValidateError> {
    if !verdict.passed {
        let f = verdict.first_failure.unwrap_or_default();
        return Err(ValidateError::ReferenceFails(Box::new(ReferenceFails {
            solution: bank.dir.join(SOLUTION),
            reference,
            test: f.test.map_or_else(|| "?".into(), |t| t.to_string()),
            message: f.message,
            input: show(f.input.unwrap_or_default()),
            expected: show(f.expected.unwrap_or_default()),
            got: show(f.got.unwrap_or_default()),
        })));
    }
    Ok(verdict.tests_passed.unwrap_or(0))
}
