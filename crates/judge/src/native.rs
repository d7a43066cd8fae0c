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
    Class, ErrorClass, Failure, TestFailure, Verdict, closing_verdict, describe_status, opening_verdict, truncate,
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
    /// Each test's purpose, for the failure's [`Class`]: whether it is a
    /// large test (there to measure time and size) and whether its input
    /// lies beyond the statement (`TestCase::widened`).
    pub large: Vec<bool>,
    pub widened: Vec<bool>,
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
            large: chosen.iter().map(|(_, t)| t.category == Category::Large).collect(),
            widened: chosen.iter().map(|(_, t)| t.widened.is_some()).collect(),
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
///
/// Tests whose input was widened beyond the statement
/// (`TestCase::widened`) form a last stage of their own, so that whether a
/// program passes everything within the statement is known before them
/// (its [`Class`]); a suite without such tests has the three stages alone.
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
            _ if t.widened.is_some() => 3,
            Category::Large => 2,
            _ if i < cut => 0,
            _ => 1,
        };
        let mut stages = Vec::new();
        for stage in 0..4 {
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

/// Judges the outcome of [`native_job`]; `Err`: the sandbox failed. The
/// verdict's [`Class`] is the stage's alone (`passed` when it passed), and
/// its `only_failure` the stage's one failed test when it failed one (a
/// test not run counts as failed); [`judge_stages`] combines the stages.
pub fn native_verdict(
    tests: &PreparedTests,
    outcome: &Outcome,
    opts: &CompareOptions,
    limit: Duration,
) -> Result<Verdict, SandboxFailure> {
    let total = tests.total;
    let (mut verdict, done) = opening_verdict(total, outcome, limit)?;
    if done {
        // Nothing ran (the program did not load): wrong, whatever the tests.
        verdict.class = Some(Class::Wrong);
        return Ok(verdict);
    }
    let mut passed = 0;
    let mut first: Option<TestFailure> = None;
    let mut class = Class::Passed;
    let mut failed_tests = Vec::new();
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
                // Not run because an earlier test ended the process: that
                // test's failure classes the sample, this one says nothing.
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
        failed_tests.push(number);
        if outcome.calls.get(i).is_some() {
            let large = tests.large.get(i).copied().unwrap_or(false);
            let widened = tests.widened.get(i).copied().unwrap_or(false);
            class = class.min(Class::of_failure(large, widened, failed.1));
        }
        if first.is_none() {
            first = Some((failed.0, failed.1, failure));
        }
    }
    let mut verdict = closing_verdict(verdict, passed, first);
    verdict.class = Some(class);
    verdict.only_failure = match failed_tests.as_slice() {
        [one] => Some(*one),
        _ => None,
    };
    Ok(verdict)
}

/// Runs `stages` in order through `run` (one sandbox job each) and
/// combines their verdicts: the first failing stage's result and failure,
/// the tests passed and the time summed, the strongest [`Class`] of any
/// stage, and `only_failure` when the suite's one failure is known to be
/// alone. A stage runs only while what it could add is unknown: after a
/// `wrong` failure the rest would change nothing, except for a program
/// that failed a single test so far, which runs on to learn whether it
/// passes every other test (the crowd's evidence on a disputed test);
/// after a `slow` one the later stages decide between `slow`, `widened`
/// and `wrong`.
pub fn judge_stages<E>(
    stages: &[PreparedTests],
    mut run: impl FnMut(&PreparedTests) -> Result<Verdict, E>,
) -> Result<Option<Verdict>, E> {
    let mut combined: Option<Verdict> = None;
    let mut failures = 0;
    let mut only = None;
    for stage in stages {
        let v = run(stage)?;
        let stage_failures = stage.numbers.len() - v.tests_passed.unwrap_or(0).min(stage.numbers.len());
        failures += stage_failures;
        if stage_failures == 1 {
            only = only.or(v.only_failure);
        }
        combined = Some(match combined.take() {
            None => v,
            Some(mut c) => {
                c.tests_passed = Some(c.tests_passed.unwrap_or(0) + v.tests_passed.unwrap_or(0));
                c.time_s += v.time_s;
                c.class = c.class.zip(v.class).map(|(a, b)| a.min(b));
                if c.passed && !v.passed {
                    c.passed = false;
                    c.result = v.result;
                    c.error_class = v.error_class;
                    c.first_failure = v.first_failure;
                }
                c
            }
        });
        let class = combined.as_ref().and_then(|c| c.class);
        if class == Some(Class::Wrong) && failures > 1 {
            break;
        }
    }
    if let Some(c) = &mut combined {
        c.only_failure = (failures == 1).then_some(only).flatten();
    }
    Ok(combined)
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
            widened: None,
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
            widened: None,
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

    /// Test 1 typical, 2 large (the stretched example), 3 typical but widened
    /// beyond the statement, 4 typical; each sample's answer per test
    /// number, judged through the stages as `judge_native` runs them.
    fn classed(answers: &[(usize, Status, Option<serde_json::Value>)]) -> Verdict {
        let t = |a: i64, category: Category, widened: bool| TestCase {
            args: vec![json!(a)],
            kwargs: Default::default(),
            expected: json!(a),
            category,
            compare: Default::default(),
            widened: widened.then(|| "s holds characters no example shows ('ñ')".to_string()),
        };
        let mut p = problem();
        p.tests = vec![
            t(1, Category::Typical, false),
            t(2, Category::Large, false),
            t(3, Category::Typical, true),
            t(4, Category::Edge, false),
        ];
        let suite = NativeSuite::new(&p).expect("valid tests");
        let numbers: Vec<Vec<usize>> = suite.stages.iter().map(|s| s.numbers.clone()).collect();
        assert_eq!(numbers, vec![vec![1, 4], vec![2], vec![3]], "the widened test runs last");
        let mut stages_run = 0;
        let verdict = judge_stages(&suite.stages, |stage| {
            stages_run += 1;
            let mut calls = Vec::new();
            for &n in &stage.numbers {
                let (status, value) = match answers.iter().find(|a| a.0 == n) {
                    Some((_, status, value)) => (status.clone(), value.clone()),
                    None => (Status::Completed, Some(json!(n))),
                };
                // The sandbox stops a job at its first timeout.
                let stop = status == Status::TimedOut;
                calls.push(call(status, value));
                if stop {
                    break;
                }
            }
            native_verdict(stage, &outcome(calls), &CompareOptions::default(), Duration::from_secs(1))
        });
        let mut v = verdict.expect("no sandbox failure").expect("a stage");
        v.time_s = stages_run as f64;
        v
    }

    #[test]
    fn failure_classes_follow_the_purpose_of_the_tests_failed() {
        let wrong = |n| (n, Status::Completed, Some(json!(-1)));
        let timeout = |n| (n, Status::TimedOut, None);
        let recursion = |n| (n, Status::Raised { class: "RecursionError".into(), message: "depth".into() }, None);
        let class = |answers: &[(usize, Status, Option<serde_json::Value>)]| classed(answers).class;
        assert_eq!(class(&[]), Some(Class::Passed));
        assert_eq!(class(&[timeout(2)]), Some(Class::Slow), "fails only the stretched test, by time");
        assert_eq!(class(&[recursion(2)]), Some(Class::Slow), "by recursion depth");
        assert_eq!(class(&[wrong(2)]), Some(Class::Wrong), "a wrong answer on a large test");
        assert_eq!(class(&[wrong(3)]), Some(Class::Widened), "fails only the widened input");
        assert_eq!(class(&[timeout(3)]), Some(Class::Widened));
        assert_eq!(class(&[timeout(2), wrong(3)]), Some(Class::Widened), "slow and widened: not within 'without slow'");
        assert_eq!(class(&[wrong(4)]), Some(Class::Wrong));
        assert_eq!(class(&[timeout(1)]), Some(Class::Wrong), "a timeout on a small test");
        assert_eq!(class(&[wrong(4), wrong(3)]), Some(Class::Wrong));
        let raised = Status::Raised { class: "IndexError".into(), message: "x".into() };
        assert_eq!(class(&[(4, raised, None)]), Some(Class::Wrong));
    }

    #[test]
    fn a_single_failure_runs_on_to_learn_it_is_alone() {
        let wrong = |n| (n, Status::Completed, Some(json!(-1)));
        let v = classed(&[wrong(4)]);
        assert_eq!((v.only_failure, v.time_s, v.tests_passed), (Some(4), 3.0, Some(3)), "every stage ran");
        assert_eq!(v.first_failure.and_then(|f| f.test), Some(4));
        let v = classed(&[wrong(4), wrong(1)]);
        assert_eq!((v.only_failure, v.time_s), (None, 1.0), "two failures: wrong, stop");
        let v = classed(&[wrong(4), wrong(2)]);
        assert_eq!((v.only_failure, v.time_s, v.class), (None, 2.0, Some(Class::Wrong)));
        let v = classed(&[wrong(3)]);
        assert_eq!((v.only_failure, v.passed), (Some(3), false));
        assert_eq!(classed(&[]).only_failure, None);
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
