//! Native mode: every test is data. The sandbox calls the entry point once
//! per test with freshly decoded arguments and returns the values it got
//! (exact-type-checked, encoded in the child); the comparison happens here,
//! where the candidate cannot reach it.

use std::time::Duration;

use flowbench_exec::{EncodedCalls, Job, Limits, Outcome, Status};
use flowbench_problem::sandbox::SandboxFailure;

use super::compare::{CompareOptions, values_equal};
use super::problem::{Category, Compare, Problem, TestCase, python_truthy};
use super::problems_file::MAX_LIMIT_S;
use super::value::{DecodeError, Value};
use super::verdict::{
    ErrorClass, Failure, TestFailure, Verdict, closing_verdict, describe_status, opening_verdict, truncate,
};

/// Label attached to every native verdict.
pub const NATIVE_NOTE: &str = "native: values compared in the judge";

/// Longest rendering of an input/expected/got value in a report.
const SHOWN: usize = 200;

/// A test whose values the judge cannot use; `number` is its 1-based
/// place in the problem's tests.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum InvalidTest {
    #[error("test {number}: expected: {error}")]
    Expected { number: usize, error: DecodeError },
    /// `truthy` and `is` compare with a boolean.
    #[error("test {number}: compare {compare:?} needs a boolean `expected`")]
    NotBooleanExpected { number: usize, compare: Compare },
    #[error("test {number}: argument: {error}")]
    Argument { number: usize, error: DecodeError },
    #[error("test {number}: argument {name}: {error}")]
    KeywordArgument { number: usize, name: String, error: DecodeError },
}

/// Per-test time limit policy.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TimePolicy {
    /// Used when a problem has neither `time_limit_s` nor a reference time.
    pub default: Duration,
    /// EvalPlus-style `max(floor, factor × reference time)`.
    pub floor: Duration,
    pub factor: f64,
}

impl TimePolicy {
    /// The per-test limit for a problem: its own `time_limit_s`, else the
    /// EvalPlus rule when the reference solution's runtime is known, else
    /// the default.
    pub fn limit_for(&self, problem: &Problem) -> Duration {
        if let Some(t) = problem.time_limit_s.filter(|t| t.is_finite() && *t > 0.0) {
            return Duration::from_secs_f64(t.min(MAX_LIMIT_S));
        }
        if let Some(r) = problem.reference_time_s.filter(|t| t.is_finite() && *t >= 0.0) {
            let scaled = (r * self.factor).clamp(0.0, MAX_LIMIT_S);
            return self.floor.max(Duration::try_from_secs_f64(scaled).unwrap_or(self.default));
        }
        self.default
    }
}

/// A problem's tests (or one stage of them) with their expected values
/// decoded once, not per sample.
#[derive(Debug, Clone)]
pub struct PreparedTests {
    /// Each test's arguments, encoded once for every sample's job.
    pub calls: EncodedCalls,
    pub expected: Vec<Value>,
    pub inputs: Vec<String>,
    pub compares: Vec<Compare>,
    /// Each test's 1-based number in the problem's whole suite.
    pub numbers: Vec<usize>,
    /// How many tests the whole suite has (a stage holds part of them).
    pub total: usize,
}

impl PreparedTests {
    /// Decodes every test's values; the error names the test (1-based).
    pub fn new(problem: &Problem) -> Result<PreparedTests, InvalidTest> {
        PreparedTests::select(problem, |_, _| true)
    }

    /// The tests `keep` selects, numbered as in the whole suite.
    fn select(problem: &Problem, keep: impl Fn(usize, &TestCase) -> bool) -> Result<PreparedTests, InvalidTest> {
        let chosen: Vec<(usize, &TestCase)> = problem.tests.iter().enumerate().filter(|&(i, t)| keep(i, t)).collect();
        let mut expected = Vec::with_capacity(chosen.len());
        let mut inputs = Vec::with_capacity(chosen.len());
        for &(i, t) in &chosen {
            let number = i + 1;
            let e = Value::decode(&t.expected).map_err(|error| InvalidTest::Expected { number, error })?;
            if t.compare != Compare::Eq && !matches!(e, Value::Bool(_)) {
                return Err(InvalidTest::NotBooleanExpected { number, compare: t.compare });
            }
            let mut parts = Vec::new();
            for a in &t.args {
                let a = Value::decode(a).map_err(|error| InvalidTest::Argument { number, error })?;
                parts.push(a.repr_truncated(SHOWN));
            }
            for (k, v) in &t.kwargs {
                let v = Value::decode(v).map_err(|error| InvalidTest::KeywordArgument {
                    number,
                    name: k.clone(),
                    error,
                })?;
                parts.push(format!("{k}={}", v.repr_truncated(SHOWN)));
            }
            expected.push(e);
            inputs.push(truncate(&format!("{}({})", problem.entry_point, parts.join(", ")), SHOWN));
        }
        let calls = EncodedCalls::encode(chosen.iter().map(|(_, t)| (t.args.as_slice(), &t.kwargs)));
        Ok(PreparedTests {
            calls,
            expected,
            inputs,
            compares: chosen.iter().map(|(_, t)| t.compare).collect(),
            numbers: chosen.iter().map(|(i, _)| i + 1).collect(),
            total: problem.tests.len(),
        })
    }
}

/// A problem's tests in the stages the judge runs them, each only for a
/// program that passed every earlier one: the first few small tests, then
/// the other small ones, then the large ones. A wrong program almost
/// always fails early, and running it on the rest would cost up to the
/// time limit on each test for a verdict already known (EvalPlus's judge
/// stops at the first failure for the same reason); the comparison happens
/// here, outside the sandbox, so it can only stop between jobs. A program
/// that fails a stage keeps the later stages' tests as not passed.
#[derive(Debug, Clone)]
pub struct NativeSuite {
    /// The non-empty stages, in order.
    pub stages: Vec<PreparedTests>,
}

/// How many small tests the first stage holds: enough that a wrong
/// program is nearly always caught there (Code-Vision's own tests come
/// first), few enough that a slow wrong one stops soon.
const FIRST_STAGE: usize = 10;

impl NativeSuite {
    /// Splits `problem`'s tests into their stages; the error names a test.
    pub fn new(problem: &Problem) -> Result<NativeSuite, InvalidTest> {
        // The position of the first small test past the first stage.
        let cut = (problem.tests.iter().enumerate())
            .filter(|(_, t)| t.category != Category::Large)
            .nth(FIRST_STAGE)
            .map_or(usize::MAX, |(i, _)| i);
        let stage_of = |i: usize, t: &TestCase| match t.category {
            Category::Large => 2,
            _ if i < cut => 0,
            _ => 1,
        };
        let mut stages = Vec::new();
        for stage in 0..3 {
            let tests = PreparedTests::select(problem, |i, t| stage_of(i, t) == stage)?;
            if !tests.numbers.is_empty() {
                stages.push(tests);
            }
        }
        Ok(NativeSuite { stages })
    }

    /// How many tests the whole suite has.
    pub fn total(&self) -> usize {
        self.stages.first().map_or(0, |s| s.total)
    }
}

/// The sandbox job for one native sample: `source` is the full code to
/// define (prelude, prompt and completion already joined).
pub fn native_job(problem: &Problem, tests: &PreparedTests, source: String, limits: Limits) -> Job {
    Job::Calls {
        source,
        entry_point: problem.entry_point.clone(),
        call_style: problem.call_style,
        calls: tests.calls.clone(),
        limits,
    }
}

/// Judges the outcome of [`native_job`]; `Err`: the sandbox failed.
pub fn native_verdict(
    tests: &PreparedTests,
    outcome: &Outcome,
    opts: &CompareOptions,
    limit: Duration,
) -> Result<Verdict, SandboxFailure> {
    let total = tests.total;
    let (verdict, done) = opening_verdict(total, outcome, limit)?;
    if done {
        return Ok(verdict);
    }
    let mut passed = 0;
    let mut first: Option<TestFailure> = None;
    for (i, expected) in tests.expected.iter().enumerate() {
        let number = tests.numbers.get(i).copied().unwrap_or(i + 1);
        let mut failure = Failure {
            test: Some(number),
            input: tests.inputs.get(i).cloned(),
            expected: Some(expected.repr_truncated(SHOWN)),
            ..Failure::default()
        };
        let failed: (String, ErrorClass) = match outcome.calls.get(i) {
            None => {
                failure.message = "not run: the process ended before this test".into();
                ("failed: not run".into(), ErrorClass::Crash)
            }
            Some(call) => match (&call.status, &call.value) {
                (Status::Completed, Some(json)) => match Value::decode(json) {
                    Ok(got)
                        if check(tests.compares.get(i).copied().unwrap_or_default(), json, &got, expected, opts) =>
                    {
                        passed += 1;
                        continue;
                    }
                    Ok(got) => {
                        failure.got = Some(got.repr_truncated(SHOWN));
                        failure.message = "wrong answer".into();
                        (format!("failed: wrong answer on test {number}/{total}"), ErrorClass::WrongAnswer)
                    }
                    Err(e) => {
                        failure.message = format!("garbled result: {e}");
                        (format!("failed: garbled result on test {number}/{total}"), ErrorClass::WrongAnswer)
                    }
                },
                (Status::Completed, None) => {
                    let what = call.unencodable.as_deref().unwrap_or("unknown type");
                    failure.got = Some(format!("<{}>", truncate(what, SHOWN)));
                    failure.message = format!("the returned value is not a plain Python value ({what})");
                    (format!("failed: unencodable result on test {number}/{total}"), ErrorClass::WrongAnswer)
                }
                (status, _) => {
                    let (result, class, message) = describe_status(status)?.unwrap_or_default_failure();
                    failure.message = message;
                    (result, class)
                }
            },
        };
        if first.is_none() {
            first = Some((failed.0, failed.1, failure));
        }
    }
    Ok(closing_verdict(verdict, passed, first))
}

/// Applies a test's comparator: `eq` is [`values_equal`]; `truthy` compares
/// Python truthiness with the boolean expected; `is` needs a real `bool`.
fn check(compare: Compare, json: &serde_json::Value, got: &Value, expected: &Value, opts: &CompareOptions) -> bool {
    match compare {
        Compare::Eq => values_equal(got, expected, opts),
        Compare::Truthy => matches!(expected, Value::Bool(e) if python_truthy(json) == Some(*e)),
        Compare::Is => matches!((got, expected), (Value::Bool(g), Value::Bool(e)) if g == e),
    }
}

trait OrDefaultFailure {
    fn unwrap_or_default_failure(self) -> (String, ErrorClass, String);
}

impl OrDefaultFailure for Option<(String, ErrorClass, String)> {
    /// `Completed` was handled by the caller; keep a failure anyway so no
    /// path can turn into a pass by accident.
    fn unwrap_or_default_failure(self) -> (String, ErrorClass, String) {
        self.unwrap_or_else(|| ("failed: no result".into(), ErrorClass::Crash, "no result".into()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problem::TestCase;
    use flowbench_exec::{CallOutcome, CallStyle};
    use serde_json::json;

    fn problem() -> Problem {
        let t = |a: i64, e: serde_json::Value| TestCase {
            args: vec![json!(a)],
            kwargs: Default::default(),
            expected: e,
            category: Default::default(),
            compare: Default::default(),
        };
        Problem {
            task_id: "t".into(),
            entry_point: "f".into(),
            starter_code: String::new(),
            call_style: CallStyle::Function,
            tests: vec![t(1, json!(2)), t(2, json!({"__tuple__": [3, 4]}))],
            time_limit_s: None,
            float_tolerance: None,
            compare_mode: Default::default(),
            reference_time_s: None,
            legacy: None,
            subset: None,
            difficulty: None,
        }
    }

    fn call(status: Status, value: Option<serde_json::Value>) -> CallOutcome {
        CallOutcome { status, value, unencodable: None, wall: Duration::from_millis(1) }
    }

    fn outcome(calls: Vec<CallOutcome>) -> Outcome {
        Outcome {
            status: Status::Completed,
            calls,
            runs: Vec::new(),
            stdout: String::new(),
            stderr: String::new(),
            wall: Duration::from_millis(5),
        }
    }

    fn judge(o: &Outcome) -> Verdict {
        let p = problem();
        let t = PreparedTests::new(&p).expect("valid tests");
        native_verdict(&t, o, &CompareOptions::default(), Duration::from_secs(1)).expect("verdict")
    }

    #[test]
    fn stages_hold_the_first_small_tests_then_the_other_small_ones_then_the_large() {
        let mut p = problem();
        let t = |a: i64, category: Category| TestCase {
            args: vec![json!(a)],
            kwargs: Default::default(),
            expected: json!(a),
            category,
            compare: Default::default(),
        };
        p.tests = (0..13).map(|i| t(i, if i == 1 { Category::Large } else { Category::Edge })).collect();
        let suite = NativeSuite::new(&p).expect("valid tests");
        let numbers: Vec<Vec<usize>> = suite.stages.iter().map(|s| s.numbers.clone()).collect();
        assert_eq!(numbers, vec![vec![1, 3, 4, 5, 6, 7, 8, 9, 10, 11], vec![12, 13], vec![2]]);
        assert!(suite.stages.iter().all(|s| s.total == 13 && s.calls.len() == s.numbers.len()));
        p.tests.truncate(2);
        let numbers: Vec<Vec<usize>> = NativeSuite::new(&p).unwrap().stages.iter().map(|s| s.numbers.clone()).collect();
        assert_eq!(numbers, vec![vec![1], vec![2]], "no empty stage");
    }

    #[test]
    fn all_pass_with_list_for_tuple() {
        let v = judge(&outcome(vec![
            call(Status::Completed, Some(json!(2.0))),
            call(Status::Completed, Some(json!([3, 4]))),
        ]));
        assert!(v.passed, "{v:?}");
        assert_eq!((v.tests_passed, v.tests_total, v.result.as_str()), (Some(2), Some(2), "passed"));
    }

    #[test]
    fn wrong_answer_reports_first_failure() {
        let v = judge(&outcome(vec![
            call(Status::Completed, Some(json!(3))),
            call(Status::Completed, Some(json!([3, 4]))),
        ]));
        assert!(!v.passed);
        assert_eq!(v.result, "failed: wrong answer on test 1/2");
        let f = v.first_failure.expect("failure");
        assert_eq!((f.input.as_deref(), f.expected.as_deref(), f.got.as_deref()), (Some("f(1)"), Some("2"), Some("3")));
        assert_eq!(v.tests_passed, Some(1));
    }

    #[test]
    fn unencodable_missing_and_exceptions_fail() {
        let v = judge(&outcome(vec![call(Status::Completed, None)]));
        assert_eq!((v.passed, v.error_class, v.tests_passed), (false, Some(ErrorClass::WrongAnswer), Some(0)));
        let raised = Status::Raised { class: "IndexError".into(), message: "list index out of range".into() };
        let v = judge(&outcome(vec![call(Status::Completed, Some(json!(2))), call(raised, None)]));
        assert_eq!(
            (v.result.as_str(), v.error_class),
            ("failed: list index out of range", Some(ErrorClass::IndexError))
        );
        let v = judge(&outcome(vec![call(Status::TimedOut, None)]));
        assert_eq!(v.result, "timed out");
        let mut o = outcome(vec![]);
        o.status = Status::Raised { class: "SyntaxError".into(), message: "invalid syntax".into() };
        assert_eq!(judge(&o).error_class, Some(ErrorClass::SyntaxError));
    }

    #[test]
    fn truthy_and_is_comparators() {
        let mut p = problem();
        p.tests.truncate(1);
        p.tests[0].expected = json!(true);
        p.tests[0].compare = Compare::Truthy;
        let t = PreparedTests::new(&p).expect("valid tests");
        let run = |v: serde_json::Value, t: &PreparedTests| {
            native_verdict(
                t,
                &outcome(vec![call(Status::Completed, Some(v))]),
                &CompareOptions::default(),
                Duration::from_secs(1),
            )
            .expect("verdict")
            .passed
        };
        assert!(run(json!([0]), &t));
        assert!(!run(json!({"__tuple__": []}), &t));
        p.tests[0].compare = Compare::Is;
        let t = PreparedTests::new(&p).expect("valid tests");
        assert!(run(json!(true), &t));
        assert!(!run(json!(1), &t));
        p.tests[0].expected = json!(1);
        assert_eq!(
            PreparedTests::new(&p).map(|_| ()),
            Err(InvalidTest::NotBooleanExpected { number: 1, compare: Compare::Is })
        );
    }

    #[test]
    fn time_policy() {
        let policy = TimePolicy { default: Duration::from_secs(3), floor: Duration::from_secs(1), factor: 4.0 };
        let mut p = problem();
        assert_eq!(policy.limit_for(&p), Duration::from_secs(3));
        p.reference_time_s = Some(0.01);
        assert_eq!(policy.limit_for(&p), Duration::from_secs(1));
        p.reference_time_s = Some(0.5);
        assert_eq!(policy.limit_for(&p), Duration::from_secs(2));
        p.time_limit_s = Some(0.25);
        assert_eq!(policy.limit_for(&p), Duration::from_millis(250));
    }
}
