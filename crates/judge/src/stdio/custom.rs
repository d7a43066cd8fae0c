//! Custom checkers (`checker_program`): a problem's own program decides
//! whether an output is right, testlib's way (`checker input expected
//! actual`, exit 0 = accept).
//!
//! The checker is problem material, not the candidate's, but it is still
//! code: it runs in the sandbox as a [`Job::Program`] of its own, after the
//! candidate's process is gone. What it sees of the candidate is the text
//! the candidate printed, handed over as data (one JSON document on its
//! standard input, which a fixed preamble writes to the three files named
//! in `sys.argv`), so the candidate can sway it only through that text.
//! The checker's job carries expected outputs, so it runs on workers no
//! candidate is forked from afterwards
//! ([`crate::run::Sandbox::run_trusted_job`]).

use std::time::Duration;

use serde_json::json;

use flowbench_exec::{Job, Limits, Outcome, Status};
use flowbench_problem::sandbox::SandboxFailure;

/// Limits of one checker run: generous, the checker is trusted to be fast;
/// a checker that meets them is broken, which is no verdict on a candidate.
pub const CHECKER_LIMIT: Duration = Duration::from_secs(10);

/// Writes the three testlib files into the run's own directory, points
/// `sys.argv` and `sys.stdin` at them and runs the checker as `__main__`.
const PREAMBLE: &str = r#"import json as _json, sys as _sys
_doc = _json.loads(_sys.stdin.read())
for _name in ("input", "expected", "actual"):
    with open(_name + ".txt", "w", encoding="utf-8", newline="") as _f:
        _f.write(_doc[_name])
_sys.argv = ["checker", "input.txt", "expected.txt", "actual.txt"]
_sys.stdin = open("input.txt", encoding="utf-8")
exec(compile(_doc["program"], "<checker>", "exec"), {"__name__": "__main__"})
"#;

/// Why a problem's checker program gave no answer: never a verdict on
/// the candidate.
#[derive(Debug, thiserror::Error)]
pub enum CheckerFailure {
    /// The sandbox could not run the checker's job.
    #[error(transparent)]
    Sandbox(#[from] SandboxFailure),
    /// The job reported fewer (or more) runs than answers it was given.
    #[error("checker program: {reported} of {expected} runs reported")]
    MissingRuns { reported: usize, expected: usize },
    /// The checker crashed, timed out or exited with a code other than 0,
    /// 1 or 2 on answer `answer` (1-based).
    #[error("checker program failed on answer {answer}: {status:?}; stderr: {stderr}")]
    Failed { answer: usize, status: Status, stderr: String },
}

/// One answer to check: the test's input, its expected output and what
/// the candidate printed.
pub struct Answer<'a> {
    pub input: &'a str,
    pub expected: &'a str,
    pub actual: &'a str,
}

/// The sandbox job running `program` once per answer.
pub fn checker_job(program: &str, answers: &[Answer<'_>]) -> Job {
    let stdins = answers
        .iter()
        .map(|a| json!({"program": program, "input": a.input, "expected": a.expected, "actual": a.actual}).to_string())
        .collect();
    Job::Program { source: PREAMBLE.to_string(), stdins, limits: Limits { wall: CHECKER_LIMIT, cpu: CHECKER_LIMIT } }
}

/// Accept or reject per answer, from the checker job's outcome; `Err` when
/// the checker itself failed (crashed, timed out, exited with a code other
/// than 0, 1 or 2) or the sandbox did: never a verdict on the candidate.
pub fn checker_answers(outcome: &Outcome, expected_runs: usize) -> Result<Vec<bool>, CheckerFailure> {
    if let Status::SandboxError { detail } = &outcome.status {
        return Err(SandboxFailure(detail.clone()).into());
    }
    if outcome.runs.len() != expected_runs {
        return Err(CheckerFailure::MissingRuns { reported: outcome.runs.len(), expected: expected_runs });
    }
    outcome
        .runs
        .iter()
        .enumerate()
        .map(|(i, run)| match &run.status {
            Status::Completed => Ok(true),
            Status::Raised { class, message } if class == "SystemExit" && (message == "1" || message == "2") => {
                Ok(false)
            }
            Status::SandboxError { detail } => Err(SandboxFailure(detail.clone()).into()),
            other => Err(CheckerFailure::Failed {
                answer: i + 1,
                status: other.clone(),
                stderr: run.stderr.trim().to_string(),
            }),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use flowbench_exec::RunOutcome;

    fn outcome(statuses: Vec<Status>) -> Outcome {
        Outcome {
            status: Status::Completed,
            calls: Vec::new(),
            runs: statuses
                .into_iter()
                .map(|status| RunOutcome { status, stdout: String::new(), stderr: String::new(), wall: Duration::ZERO })
                .collect(),
            stdout: String::new(),
            stderr: String::new(),
            wall: Duration::ZERO,
        }
    }

    fn exit(code: &str) -> Status {
        Status::Raised { class: "SystemExit".into(), message: code.into() }
    }

    #[test]
    fn exit_codes_read_the_testlib_way() {
        let o = outcome(vec![Status::Completed, exit("1"), exit("2")]);
        assert_eq!(checker_answers(&o, 3).expect("answers"), vec![true, false, false]);
        for broken in [exit("3"), Status::TimedOut, Status::Raised { class: "ValueError".into(), message: "x".into() }]
        {
            let failed = checker_answers(&outcome(vec![broken.clone()]), 1);
            assert!(
                matches!(&failed, Err(CheckerFailure::Failed { answer: 1, status, .. }) if *status == broken),
                "{failed:?}"
            );
        }
        let missing = checker_answers(&outcome(vec![Status::Completed]), 2);
        assert!(
            matches!(missing, Err(CheckerFailure::MissingRuns { reported: 1, expected: 2 })),
            "a missing run is no accept"
        );
        let mut down = outcome(vec![]);
        down.status = Status::SandboxError { detail: "gone".into() };
        let failed = checker_answers(&down, 1).expect_err("no answers");
        assert_eq!(failed.to_string(), "sandbox: gone");
        assert!(matches!(failed, CheckerFailure::Sandbox(SandboxFailure(d)) if d == "gone"));
    }

    #[test]
    fn the_answer_travels_as_data() {
        let answers = [Answer { input: "1\n", expected: "2\n", actual: "\"}, \"program\": \"x" }];
        let Job::Program { source, stdins, .. } = checker_job("import sys", &answers) else { panic!("a program") };
        assert_eq!(source, PREAMBLE);
        let doc: serde_json::Value = serde_json::from_str(&stdins[0]).expect("json");
        assert_eq!(
            (doc["program"].as_str(), doc["actual"].as_str()),
            (Some("import sys"), Some("\"}, \"program\": \"x"))
        );
    }
}
