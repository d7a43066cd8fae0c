//! `problem.toml`: the human-edited description of a bank problem. The
//! test-generation part is [`TestSpec`]; `[meta]` (title, subset, …) is
//! accepted and kept for the bank's own use.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

pub use flowbench_testgen::spec::TestSpec;

use flowbench_problem::dir::{File, ProblemDir, ReadError};

use flowbench_exec::CallStyle;
use flowbench_judge::problem::{Problem, TestCase};
use flowbench_judge::stdio::StdioProblem;
use flowbench_testgen::generate::GenInput;
use flowbench_testgen::reference::PROGRAM;
use flowbench_testgen::spec::SpecError;
use flowbench_testgen::tests_file::{TESTS, TestsFileError, read, refresh_command, stamp};

/// File name of the spec inside a problem directory.
pub const SPEC: &str = File::Spec.name();

/// The whole `problem.toml`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ProblemSpec {
    #[serde(flatten)]
    pub tests: TestSpec,
    /// Descriptive metadata; not used by test generation.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<toml::Table>,
}

/// A `problem.toml` that cannot be read or does not parse.
#[derive(Debug, thiserror::Error)]
pub enum SpecFileError {
    #[error(transparent)]
    Read(#[from] ReadError),
    /// Not the spec, at 1-based (line, column) when TOML says where.
    #[error("{}{}: {message}", .path.display(), .at.map(|(l, c)| format!(":{l}:{c}")).unwrap_or_default())]
    Toml { path: PathBuf, at: Option<(usize, usize)>, message: String },
}

/// The problem's `problem.toml`: `Ok(None)` when there is none, an error
/// naming the file, line and column when it does not parse.
pub fn load_spec(dir: &ProblemDir) -> Result<Option<(ProblemSpec, String)>, SpecFileError> {
    let Some(text) = dir.optional(File::Spec)? else { return Ok(None) };
    let text = text.to_string();
    let spec: ProblemSpec = toml::from_str(&text).map_err(|e| SpecFileError::Toml {
        path: dir.file(File::Spec),
        at: e.span().map(|s| line_col(&text, s.start)),
        message: e.message().to_string(),
    })?;
    Ok(Some((spec, text)))
}

/// What the `problem.toml` in `dir` says about the problem's inputs
/// (`None` without one): what `check --against` and `author` make their
/// inputs within.
pub fn inputs_spec(dir: &Path) -> Result<Option<TestSpec>, SpecFileError> {
    Ok(load_spec(&ProblemDir::read(dir))?.map(|(spec, _)| spec.tests))
}

/// Why `tests gen`/`tests score` cannot read a problem directory: each
/// names the file (or the directory, for what is missing).
#[derive(Debug, thiserror::Error)]
pub enum SpecInputError {
    #[error(transparent)]
    Read(#[from] ReadError),
    #[error(transparent)]
    Spec(#[from] SpecFileError),
    #[error("{}: no {}; write one (see problems/README.md) to generate tests", .dir.display(), SPEC)]
    NoSpec { dir: PathBuf },
    #[error(transparent)]
    Problem(#[from] ProblemJsonError),
    /// A whole program's `[stdin] format` (missing or wrong).
    #[error(transparent)]
    StdinFormat(#[from] SpecError),
    #[error("{}: no entry point: set `entry_point` in {}", .dir.display(), SPEC)]
    NoEntryPoint { dir: PathBuf },
}

/// Everything `tests gen`/`tests score` read from a problem directory:
/// `solution.py`, `problem.toml` and, when present, `problem.json` (entry
/// point, call style and the hand-written tests, which become seeds and
/// original tests). Errors name the file.
pub fn gen_input(dir: &ProblemDir) -> Result<GenInput, SpecInputError> {
    let solution = dir.required(File::Solution)?.to_string();
    let Some((spec, spec_text)) = load_spec(dir)? else {
        return Err(SpecInputError::NoSpec { dir: dir.path().to_path_buf() });
    };
    let (problem, originals_text) = match dir.optional(File::Problem)? {
        Some(text) => (Some(read_problem(&dir.file(File::Problem), text)?), text.to_string()),
        None => (None, String::new()),
    };
    let program = problem.as_ref().is_some_and(|p| p.entry_point == PROGRAM) || spec.tests.stdin.is_some();
    let has_format = spec.tests.stdin.as_ref().is_some_and(|s| s.format.is_some());
    if program && (has_format || dir.optional(File::Generator)?.is_none()) {
        flowbench_testgen::stdin_format::from_spec(&dir.file(File::Spec), &spec.tests, &spec_text)?;
    }
    let entry_point = match program {
        true => PROGRAM.to_string(),
        false => spec
            .tests
            .entry_point
            .clone()
            .or_else(|| problem.as_ref().map(|p| p.entry_point.clone()))
            .ok_or_else(|| SpecInputError::NoEntryPoint { dir: dir.path().to_path_buf() })?,
    };
    let call_style = spec.tests.call_style.or(problem.as_ref().map(|p| p.call_style)).unwrap_or(CallStyle::Function);
    let mut spec = spec.tests;
    let infer = spec.infer_domain;
    let constraints = statement_constraints(dir, infer);
    // The original tests' compare mode holds for the generated ones too.
    if let Some(p) = &problem {
        spec.compare_mode = spec.compare_mode.loosest(p.compare_mode);
    }
    Ok(GenInput {
        dir: dir.path().to_path_buf(),
        solution,
        spec,
        spec_text,
        originals_text: with_statement(&constraints, with_generator(dir, originals_text)),
        originals: problem.map(|p| p.tests).unwrap_or_default(),
        entry_point,
        call_style,
        constraints,
    })
}

/// The "Constraints:" section of the problem's statement (`description.md`,
/// as imported LeetCode-style problems carry it), read only when the
/// domain is inferred: the statement then bounds it (`constraints.py`).
/// Empty when there is none.
pub fn statement_constraints(dir: &ProblemDir, infer_domain: bool) -> String {
    if !infer_domain {
        return String::new();
    }
    let text = dir.optional(File::Description).ok().flatten().unwrap_or_default();
    let mut lines = text.lines();
    if !lines.by_ref().any(|l| l.trim().trim_end_matches(':').eq_ignore_ascii_case("constraints")) {
        return String::new();
    }
    let section: Vec<&str> = lines.collect();
    format!("Constraints:\n{}", section.join("\n"))
}

/// What the stamp covers of the statement: its Constraints section when
/// tests read it (editing it makes `tests.jsonl` stale).
fn with_statement(constraints: &str, originals: String) -> String {
    match constraints {
        "" => originals,
        c => format!("{originals}\n\u{0}constraints\n{c}"),
    }
}

/// What the tests' stamp covers besides the solution and the spec: the
/// original tests' file and, when there is one, the `gen.py` that makes a
/// whole program's inputs (editing it makes `tests.jsonl` stale).
fn with_generator(dir: &ProblemDir, originals: String) -> String {
    match dir.optional(File::Generator).ok().flatten() {
        Some(script) => format!("{originals}\n\u{0}gen.py\n{script}"),
        None => originals,
    }
}

/// A `problem.json` test generation cannot read.
#[derive(Debug, thiserror::Error)]
pub enum ProblemJsonError {
    /// Not JSON, at 1-based `line`:`column` (serde's message after).
    #[error("{}:{line}:{column}: {error}", .path.display())]
    Syntax { path: PathBuf, line: usize, column: usize, error: serde_json::Error },
    /// JSON, but not a problem.
    #[error("{}: {error}", .path.display())]
    Shape { path: PathBuf, error: serde_json::Error },
}

/// `problem.json` as test generation reads it. A whole-program problem
/// (`"call_style": "stdio"`) becomes a problem of one argument, the
/// standard input, expecting the output as the program wrapper returns it
/// (`reference::wrap_program`: trailing whitespace dropped), with
/// [`PROGRAM`] as its entry point.
pub fn read_problem(path: &Path, text: &str) -> Result<Problem, ProblemJsonError> {
    let at = |error: serde_json::Error| ProblemJsonError::Syntax {
        path: path.to_path_buf(),
        line: error.line(),
        column: error.column(),
        error,
    };
    let value: serde_json::Value = serde_json::from_str(text).map_err(at)?;
    let shape = |error| ProblemJsonError::Shape { path: path.to_path_buf(), error };
    if value.get("call_style").and_then(|c| c.as_str()) != Some("stdio") {
        return serde_json::from_value(value).map_err(shape);
    }
    let stdio: StdioProblem = serde_json::from_value(value).map_err(shape)?;
    // The bank's shape (`bank::stdio::read`), outputs as the wrapper returns them.
    let (mut problem, _) = super::stdio::read(stdio);
    for t in &mut problem.tests {
        if let Some(stdout) = t.expected.as_str() {
            t.expected = program_output(stdout).into();
        }
    }
    Ok(problem)
}

/// An output as the program wrapper returns it: each line's trailing
/// whitespace and the trailing blank lines dropped, one final newline.
pub fn program_output(stdout: &str) -> String {
    let mut lines: Vec<&str> = stdout.split('\n').map(str::trim_end).collect();
    while lines.last().is_some_and(|l| l.is_empty()) {
        lines.pop();
    }
    if lines.is_empty() { String::new() } else { lines.join("\n") + "\n" }
}

/// A problem's generated tests that cannot be used; the stale and missing
/// ones name the command that refreshes them.
#[derive(Debug, thiserror::Error)]
pub enum GeneratedTestsError {
    #[error(transparent)]
    Spec(#[from] SpecFileError),
    #[error("{}: missing; generate it with `{refresh}`", .tests.display())]
    Missing { tests: PathBuf, refresh: String },
    #[error(transparent)]
    TestsFile(#[from] TestsFileError),
    #[error(
        "{}: stale (solution.py, {} or problem.json changed since it was generated); refresh it with `{refresh}`",
        .tests.display(),
        SPEC
    )]
    Stale { tests: PathBuf, refresh: String },
}

/// When the problem has a test-generation spec in `problem.toml`, or a
/// `tests.jsonl`, its tests are the generated ones: `tests.jsonl` must exist
/// and carry the stamp of the current solution, spec and original tests,
/// else the error names the command that refreshes it. A `problem.toml`
/// with only `[meta]` and no `tests.jsonl` keeps the hand-written tests.
/// Returns whether generated tests were applied.
pub fn apply_generated(bank: &mut super::BankProblem, dir: &ProblemDir) -> Result<bool, GeneratedTestsError> {
    let Some((spec, spec_text)) = load_spec(dir)? else { return Ok(false) };
    let tests_path = bank.dir.join(TESTS);
    let refresh = refresh_command(&bank.dir);
    if !tests_path.is_file() && !has_test_spec(&spec_text) {
        // Only `[meta]`, nothing generated yet: the hand-written tests stand.
        return Ok(false);
    }
    if !tests_path.is_file() {
        return Err(GeneratedTestsError::Missing { tests: tests_path, refresh });
    }
    let (header, tests) = read(&tests_path)?;
    let originals = with_statement(
        &statement_constraints(dir, spec.tests.infer_domain),
        with_generator(dir, dir.optional(File::Problem).ok().flatten().unwrap_or_default().to_string()),
    );
    if header.stamp != stamp(&bank.solution, &spec_text, &originals) {
        return Err(GeneratedTestsError::Stale { tests: tests_path, refresh });
    }
    // The benchmark gets the shipped suite; the rest is for scoring.
    bank.generated_tests = Some(tests.len());
    let tests: Vec<_> = tests.into_iter().filter(|t| t.shipped).collect();
    let p = &mut bank.problem;
    p.tests = tests
        .iter()
        .map(|t| TestCase {
            args: t.args.clone(),
            kwargs: Default::default(),
            expected: t.expected.clone(),
            category: t.category,
            compare: Default::default(),
            widened: t.widened.clone(),
        })
        .collect();
    p.reference_time_s = tests.iter().map(|t| t.reference_time_s).reduce(f64::max);
    bank.reference_times = tests.iter().map(|t| t.reference_time_s).collect();
    if spec.tests.float_tolerance.is_some() {
        p.float_tolerance = spec.tests.float_tolerance;
    }
    p.compare_mode = p.compare_mode.loosest(spec.tests.compare_mode);
    let valid = |s: &f64| (0.0..=1.0).contains(s);
    bank.mutation_score = header.mutation.and_then(|m| m.exact_score()).filter(valid);
    // A variant's proof may stop once the score is shown ≥ its floor.
    bank.mutation_score_at_least = header.mutation.filter(|m| m.exact_score().is_none()).map(|m| m.score).filter(valid);
    Ok(true)
}

/// Whether `problem.toml` says anything to test generation (a key or
/// table besides `[meta]`).
fn has_test_spec(spec_text: &str) -> bool {
    spec_text.parse::<toml::Table>().map_or(true, |t| t.keys().any(|k| k != "meta"))
}

fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, col)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn meta_is_accepted_and_errors_have_positions() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join(SPEC), "seed = 3\n[meta]\ntitle = \"x\"\n[params.a]\nmin = 0\n").unwrap();
        let (spec, _) = load_spec(&ProblemDir::read(dir.path())).unwrap().unwrap();
        assert_eq!(spec.tests.seed, 3);
        assert!(spec.meta.is_some());
        std::fs::write(dir.path().join(SPEC), "seed = \"x\"\n").unwrap();
        let err = load_spec(&ProblemDir::read(dir.path())).unwrap_err().to_string();
        assert!(err.contains("problem.toml:1:"), "{err}");
        assert!(load_spec(&ProblemDir::read(&dir.path().join("none"))).unwrap().is_none());
    }
}
