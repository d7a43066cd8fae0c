//! Conversion of legacy (assert-code) tests to native data tests.
//!
//! Legacy test code comes from the benchmark, not from model samples, so it
//! is trusted data: it is parsed with Python's own `ast` module by an embedded
//! helper (`convert.py`, run with `python3`), which evaluates literal and
//! closed constant expressions (`[9] * 100`, `10**9`, comprehensions over
//! constants) under an AST whitelist and returns tagged-JSON values. Rust
//! decides per problem: **all or nothing** — a problem gets native tests only
//! when every assert converted (or was a no-op such as `assert True`), so
//! native mode never judges on a subset of the original tests. The legacy
//! test is always kept so `--mode auto` can fall back.

pub mod apps;
mod category;
mod report;

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};

use serde::Deserialize;

pub use category::{LARGE_ELEMENTS, LARGE_INT, categorize};
pub use report::{Figures, SubsetFigures, write_report};

use crate::compare::CompareMode;
use crate::problem::{Compare, LegacyTest, Problem, TestCase};
use flowbench_exec::CallStyle;

/// The embedded converter script.
const CONVERTER: &str = include_str!("convert.py");

/// Why a file of legacy problems was not imported.
#[derive(Debug, thiserror::Error)]
pub enum ImportError {
    /// APPS-style records go through [`apps::read_apps`].
    #[error("{}: APPS records carry data tests, not test code: read them with `apps::read_apps`", input.display())]
    AppsRecords { input: PathBuf },
    #[error("cannot open {}", input.display())]
    Open {
        input: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{}:{line}: cannot read", input.display())]
    Read {
        input: PathBuf,
        line: usize,
        #[source]
        source: std::io::Error,
    },
    /// Line `line` is not a problem record (the parser's column).
    #[error("{}:{line}:{column}: {error}", input.display())]
    Record { input: PathBuf, line: usize, column: usize, error: serde_json::Error },
    #[error(transparent)]
    Converter(#[from] ConverterError),
}

/// Why the embedded converter gave no answers, by the step that failed.
#[derive(Debug, thiserror::Error)]
pub enum ConverterError {
    /// Writing the converter script to a temporary file.
    #[error("{0}")]
    Script(std::io::Error),
    #[error("cannot run {}", python.display())]
    Start {
        python: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("no stdin for the converter")]
    NoStdin,
    /// Waiting for the converter's output.
    #[error("{0}")]
    Wait(std::io::Error),
    #[error("converter input thread panicked")]
    FeederPanicked,
    /// Writing the problems to the converter's standard input.
    #[error("{0}")]
    Feed(std::io::Error),
    #[error("converter failed ({status}): {stderr}")]
    Failed { status: ExitStatus, stderr: String },
    /// Answer line `line` (1-based) does not read.
    #[error("converter output line {line}")]
    Answer {
        line: usize,
        #[source]
        source: serde_json::Error,
    },
    #[error("converter answered {answered} of {asked} problems")]
    Count { answered: usize, asked: usize },
    #[error("converter answered for {answered} instead of {asked}")]
    OtherTask { answered: String, asked: String },
}

/// Layout of the input JSONL.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// `../shared/codevision/problems.jsonl` (subset, call_style, starter_code…).
    Codevision,
    /// OpenAI human-eval style (`task_id`, `prompt`, `entry_point`, `test`):
    /// the judge runs `prompt + completion + test + check(entry_point)`.
    HumanEval,
    /// APPS, TACO and MMCode records (`input_output` data, no test code):
    /// read by [`apps::read_apps`], not by [`import_file`].
    Apps,
}

/// One input record; fields absent in one source are optional.
#[derive(Debug, Clone, Deserialize)]
struct Record {
    task_id: String,
    entry_point: String,
    test: String,
    #[serde(default)]
    prompt: Option<String>,
    #[serde(default)]
    starter_code: Option<String>,
    #[serde(default)]
    call_style: Option<CallStyle>,
    #[serde(default)]
    subset: Option<String>,
    #[serde(default)]
    difficulty: Option<String>,
}

/// Why an assert was dropped or not converted, with its line in the test.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct Note {
    pub line: u32,
    pub reason: String,
}

/// A test as the helper emits it (before categorising).
#[derive(Debug, Clone, Deserialize)]
struct RawTest {
    args: Vec<serde_json::Value>,
    kwargs: serde_json::Map<String, serde_json::Value>,
    expected: serde_json::Value,
    #[serde(default)]
    cmp: Option<String>,
}

/// The helper's answer for one problem.
#[derive(Debug, Clone, Deserialize)]
struct Converted {
    task_id: String,
    asserts: usize,
    asserts_converted: usize,
    asserts_dropped: usize,
    tests: Vec<RawTest>,
    dropped: Vec<Note>,
    failures: Vec<Note>,
    float_tol: Option<f64>,
}

/// What happened to one problem; the input of the figures and the report.
#[derive(Debug, Clone, PartialEq)]
pub struct Outcome {
    pub task_id: String,
    pub subset: String,
    /// Assert statements in the legacy test.
    pub asserts: usize,
    /// Asserts with an exact native equivalent.
    pub asserts_converted: usize,
    /// Asserts that check nothing (`assert True, "..."`, a candidate compared
    /// with itself): left out of the native tests.
    pub asserts_dropped: usize,
    /// Native tests emitted (loops over constants expand to several).
    pub tests: usize,
    pub dropped: Vec<Note>,
    /// Non-empty exactly when the problem stays legacy-only.
    pub failures: Vec<Note>,
}

impl Outcome {
    /// Whether the problem got native tests.
    pub fn converted(&self) -> bool {
        self.failures.is_empty() && self.tests > 0
    }
}

/// Converts every problem of `input`; problems whose tests do not all convert
/// keep empty `tests` (and, like all problems, their `legacy` test).
pub fn import_file(input: &Path, source: Source, python: &Path) -> Result<(Vec<Problem>, Vec<Outcome>), ImportError> {
    let input_path = || input.to_path_buf();
    if source == Source::Apps {
        return Err(ImportError::AppsRecords { input: input_path() });
    }
    let file = std::fs::File::open(input).map_err(|source| ImportError::Open { input: input_path(), source })?;
    let mut records = Vec::new();
    for (i, line) in BufReader::new(file).lines().enumerate() {
        let line = line.map_err(|source| ImportError::Read { input: input_path(), line: i + 1, source })?;
        if line.trim().is_empty() {
            continue;
        }
        let record: Record = serde_json::from_str(&line).map_err(|error| ImportError::Record {
            input: input_path(),
            line: i + 1,
            column: error.column(),
            error,
        })?;
        records.push(record);
    }
    Ok(import_records(&records, source, python)?)
}

fn import_records(
    records: &[Record],
    source: Source,
    python: &Path,
) -> Result<(Vec<Problem>, Vec<Outcome>), ConverterError> {
    let converted = run_helper(records, python)?;
    let mut problems = Vec::with_capacity(records.len());
    let mut outcomes = Vec::with_capacity(records.len());
    for (record, conv) in records.iter().zip(converted) {
        if conv.task_id != record.task_id {
            return Err(ConverterError::OtherTask { answered: conv.task_id, asked: record.task_id.clone() });
        }
        let (problem, outcome) = build(record, source, conv);
        problems.push(problem);
        outcomes.push(outcome);
    }
    Ok((problems, outcomes))
}

/// Runs the embedded helper over all records at once (one interpreter start).
fn run_helper(records: &[Record], python: &Path) -> Result<Vec<Converted>, ConverterError> {
    let mut script = tempfile::Builder::new()
        .prefix("flowbench-import-")
        .suffix(".py")
        .tempfile()
        .map_err(ConverterError::Script)?;
    script.write_all(CONVERTER.as_bytes()).map_err(ConverterError::Script)?;
    let mut input = String::new();
    for r in records {
        let line = serde_json::json!({
            "task_id": r.task_id, "entry_point": r.entry_point, "test": r.test,
            "call_style": r.call_style.unwrap_or(CallStyle::Function),
        });
        input.push_str(&line.to_string());
        input.push('\n');
    }
    let mut child = Command::new(python)
        .arg(script.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|source| ConverterError::Start { python: python.to_path_buf(), source })?;
    let mut stdin = child.stdin.take().ok_or(ConverterError::NoStdin)?;
    // Feed stdin from a thread: the helper writes while we write.
    let feeder = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let output = child.wait_with_output().map_err(ConverterError::Wait)?;
    feeder.join().map_err(|_| ConverterError::FeederPanicked)?.map_err(ConverterError::Feed)?;
    if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr).trim().to_string();
        return Err(ConverterError::Failed { status: output.status, stderr });
    }
    let mut out = Vec::with_capacity(records.len());
    for (i, line) in String::from_utf8_lossy(&output.stdout).lines().enumerate() {
        let conv: Converted =
            serde_json::from_str(line).map_err(|source| ConverterError::Answer { line: i + 1, source })?;
        out.push(conv);
    }
    if out.len() != records.len() {
        return Err(ConverterError::Count { answered: out.len(), asked: records.len() });
    }
    Ok(out)
}

fn build(record: &Record, source: Source, conv: Converted) -> (Problem, Outcome) {
    // Loops report the same failure once per iteration: keep the first.
    let mut failures: Vec<Note> = Vec::new();
    for note in conv.failures {
        if !failures.contains(&note) {
            failures.push(note);
        }
    }
    let mut tests = Vec::with_capacity(conv.tests.len());
    // `set(f(x)) == …` and `sorted(f(x)) == …` say the result's order does
    // not count: for the whole problem, so that generated tests, mutant
    // kills and the judge agree with the original tests.
    let mut compare_mode = CompareMode::Plain;
    for raw in conv.tests {
        let compare = match raw.cmp.as_deref() {
            None | Some("eq") | Some("approx") => Compare::Eq,
            Some("set") => {
                compare_mode = compare_mode.loosest(CompareMode::Set);
                Compare::Eq
            }
            Some("sorted") => {
                compare_mode = compare_mode.loosest(CompareMode::Sorted);
                Compare::Eq
            }
            Some("truthy") | Some("falsy") => Compare::Truthy,
            Some("is") => Compare::Is,
            Some(other) => {
                failures.push(Note { line: 0, reason: format!("unknown comparison {other}") });
                continue;
            }
        };
        let category = categorize(&raw.args, &raw.kwargs);
        tests.push(TestCase {
            args: raw.args,
            kwargs: raw.kwargs,
            expected: raw.expected,
            category,
            compare,
            widened: None,
        });
    }
    if conv.asserts == 0 || tests.is_empty() && failures.is_empty() {
        failures.push(Note { line: 0, reason: "no assert checks the entry point".into() });
    }
    let keep = failures.is_empty();
    let outcome = Outcome {
        task_id: record.task_id.clone(),
        subset: record.subset.clone().unwrap_or_else(|| "(no subset)".into()),
        asserts: conv.asserts,
        asserts_converted: conv.asserts_converted,
        asserts_dropped: conv.asserts_dropped,
        tests: if keep { tests.len() } else { 0 },
        dropped: conv.dropped,
        failures,
    };
    let (call_style, prompt, check_entry_point) = match source {
        Source::HumanEval => (CallStyle::Function, record.prompt.clone(), true),
        Source::Codevision | Source::Apps => {
            let style = record.call_style.unwrap_or(CallStyle::Function);
            // Code-Vision runs prompt + completion + check() only for HumanEval-V.
            let humaneval = record.subset.as_deref() == Some("HumanEval-V");
            (style, record.prompt.clone().filter(|_| humaneval), humaneval)
        }
    };
    let problem = Problem {
        task_id: record.task_id.clone(),
        entry_point: record.entry_point.clone(),
        starter_code: record.starter_code.clone().or_else(|| record.prompt.clone()).unwrap_or_default(),
        call_style,
        tests: if keep { tests } else { Vec::new() },
        time_limit_s: None,
        float_tolerance: if keep { conv.float_tol } else { None },
        compare_mode: if keep { compare_mode } else { Default::default() },
        reference_time_s: None,
        legacy: Some(LegacyTest { test: record.test.clone(), prompt, check_entry_point }),
        subset: record.subset.clone(),
        difficulty: record.difficulty.clone(),
    };
    (problem, outcome)
}

#[cfg(test)]
mod tests;
