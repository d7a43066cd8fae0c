//! Proving a problem's tests: the reference solution runs on every native
//! test in the sandbox, like any candidate, and must pass all of them (a
//! whole program as the judge runs one: `super::stdio::validate`).

use std::time::Duration;

use crate::judge::compare::{CompareOptions, DEFAULT_FLOAT_TOLERANCE};
use crate::judge::native::{PreparedTests, native_job, native_verdict};
use crate::judge::run::Sandbox;
use crate::judge::verdict::Verdict;

use super::{BankProblem, PROBLEM, SOLUTION};

/// Runs the reference solution on every test and returns how many it
/// passed; a failing test is an error naming it, its input and both values.
/// A sandbox that could not run the job is a
/// [`SandboxFailure`](crate::judge::run::SandboxFailure) error.
pub fn validate(sandbox: &dyn Sandbox, bank: &BankProblem, time_limit: Duration) -> anyhow::Result<usize> {
    if let Some(settings) = &bank.stdio {
        return super::stdio::validate(sandbox, bank, settings, time_limit);
    }
    let p = &bank.problem;
    let tests = PreparedTests::new(p).map_err(|e| anyhow::anyhow!("{}: {e}", bank.dir.join(PROBLEM).display()))?;
    let limits = crate::exec::Limits { wall: time_limit, cpu: time_limit };
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
    reference: &str,
    show: fn(String) -> String,
) -> anyhow::Result<usize> {
    if !verdict.passed {
        let f = verdict.first_failure.unwrap_or_default();
        anyhow::bail!(
            "{}: the reference {reference} fails test {}: {} (input {}, expected {}, got {})",
            bank.dir.join(SOLUTION).display(),
            f.test.map_or_else(|| "?".into(), |t| t.to_string()),
            f.message,
            show(f.input.unwrap_or_default()),
            show(f.expected.unwrap_or_default()),
            show(f.got.unwrap_or_default()),
        );
    }
    Ok(verdict.tests_passed.unwrap_or(0))
}
