//! The native format of a whole-program problem and its prepared form.

use serde::{Deserialize, Serialize};

use crate::compare::DEFAULT_FLOAT_TOLERANCE;
use crate::problem::{Category, Problem};
use flowbench_exec::Stdins;

use super::checker::{Checker, CheckerChoiceError};

/// A stdio problem that reads but cannot be judged.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum InvalidStdioProblem {
    #[error("a stdio problem needs at least one test")]
    NoTests,
    #[error("float_tolerance {0} is not a finite number ≥ 0")]
    FloatTolerance(f64),
    #[error(transparent)]
    Checker(#[from] CheckerChoiceError),
}

/// Marks a stdio problem in JSON (`"call_style": "stdio"`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum StdioStyle {
    #[default]
    Stdio,
}

/// A whole-program problem as one line of a problems JSONL file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StdioProblem {
    pub task_id: String,
    pub call_style: StdioStyle,
    pub tests: Vec<StdioTest>,
    /// `tokens` (default), `lines`, `exact`, `float`, or `custom` (implied
    /// by `checker_program`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub checker: Option<String>,
    /// Python program judging one answer, testlib's way: run as
    /// `checker input expected actual` (file names in `sys.argv`), exit 0 =
    /// accept, exit 1 or 2 = reject; anything else is a broken checker.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub checker_program: Option<String>,
    /// For `float`: numbers match when within this absolute *or* relative
    /// error (default 1e-6).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub float_tolerance: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_limit_s: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reference_time_s: Option<f64>,
    /// The statement, kept for prompts and reports.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub question: Option<String>,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub starter_code: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subset: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub difficulty: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
}

/// One test: the program's whole standard input and the output expected.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StdioTest {
    pub stdin: String,
    pub stdout: String,
    #[serde(default)]
    pub category: Category,
}

/// A stdio problem ready to judge: inputs encoded once for every sample,
/// expected outputs kept in the judge.
#[derive(Debug, Clone)]
pub struct StdioSuite {
    pub stdins: Stdins,
    pub expected: Vec<String>,
    pub checker: Checker,
    /// The custom checker's source, when `checker` is [`Checker::Custom`].
    pub checker_program: Option<String>,
    /// Whether each test is a large one (there to measure time and size),
    /// for the failure's class (`verdict::Class`).
    pub large: Vec<bool>,
}

impl StdioProblem {
    /// Checks the fields that serde cannot and splits the problem into the
    /// metadata every problem has and the prepared suite.
    pub fn prepare(self) -> Result<(Problem, StdioSuite), InvalidStdioProblem> {
        if self.tests.is_empty() {
            return Err(InvalidStdioProblem::NoTests);
        }
        let tolerance = match self.float_tolerance {
            None => DEFAULT_FLOAT_TOLERANCE,
            Some(t) if t.is_finite() && t >= 0.0 => t,
            Some(t) => return Err(InvalidStdioProblem::FloatTolerance(t)),
        };
        let checker = Checker::named(self.checker.as_deref(), self.checker_program.is_some(), tolerance)?;
        let suite = StdioSuite {
            large: self.tests.iter().map(|t| t.category == Category::Large).collect(),
            stdins: self.tests.iter().map(|t| t.stdin.clone()).collect(),
            expected: self.tests.into_iter().map(|t| t.stdout).collect(),
            checker,
            checker_program: self.checker_program,
        };
        let problem = Problem {
            task_id: self.task_id,
            // Whole programs have no entry point; reports show this name.
            entry_point: "__main__".into(),
            starter_code: self.starter_code,
            call_style: Default::default(),
            tests: Vec::new(),
            time_limit_s: self.time_limit_s,
            float_tolerance: self.float_tolerance,
            compare_mode: Default::default(),
            reference_time_s: self.reference_time_s,
            legacy: None,
            subset: self.subset,
            difficulty: self.difficulty,
        };
        Ok((problem, suite))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Why `text` is no stdio problem: `None` when it does not read.
    fn parse(text: &str) -> Result<(Problem, StdioSuite), Option<InvalidStdioProblem>> {
        serde_json::from_str::<StdioProblem>(text).map_err(|_| None)?.prepare().map_err(Some)
    }

    #[test]
    fn reads_tests_and_checker() {
        let (p, s) = parse(
            r#"{"task_id":"a","call_style":"stdio","checker":"float","float_tolerance":1e-3,
                "tests":[{"stdin":"1 2\n","stdout":"3\n","category":"edge"}]}"#,
        )
        .expect("valid");
        assert_eq!(
            (p.task_id.as_str(), &s.stdins[..], s.expected.as_slice()),
            ("a", &["1 2\n".to_string()][..], &["3\n".to_string()][..])
        );
        assert_eq!(s.checker, Checker::Float { tolerance: 1e-3 });
    }

    #[test]
    fn refuses_what_cannot_be_judged() {
        use CheckerChoiceError::*;
        let bad = [
            (r#"{"task_id":"a","call_style":"stdio","tests":[]}"#, Some(InvalidStdioProblem::NoTests)),
            (
                r#"{"task_id":"a","call_style":"stdio","checker":"fuzzy","tests":[{"stdin":"","stdout":""}]}"#,
                Some(Unknown("fuzzy".into()).into()),
            ),
            (
                r#"{"task_id":"a","call_style":"stdio","checker":"custom","tests":[{"stdin":"","stdout":""}]}"#,
                Some(CustomWithoutProgram.into()),
            ),
            (
                r#"{"task_id":"a","call_style":"stdio","checker":"lines","checker_program":"x","tests":[{"stdin":"","stdout":""}]}"#,
                Some(BuiltInAndProgram("lines".into()).into()),
            ),
            (r#"{"task_id":"a","call_style":"stdio","tests":[{"stdin":"","expected":""}]}"#, None),
            (
                r#"{"task_id":"a","call_style":"stdio","float_tolerance":-1,"tests":[{"stdin":"","stdout":""}]}"#,
                Some(InvalidStdioProblem::FloatTolerance(-1.0)),
            ),
        ];
        for (text, why) in bad {
            assert_eq!(parse(text).map(|_| ()), Err(why), "{text}");
        }
    }
}
