//! The problem bank: a directory of problems, each a flowchart, a reference
//! solution, native tests, metadata and a description (see
//! `problems/README.md`), and `build`, which turns the bank into the `dist/`
//! benchmark (records, images, Table 1, gallery).
//!
//! This phase sits after `mermaid`, `render` and `judge` in the pipeline and
//! only calls into them.
//!
//! # How it works
//!
//! The problem bank: `problem_dirs` lists problem directories in name order and `load` reads one into a
//! `BankProblem` (flowchart text, reference solution, native `Problem`); `meta` reads `[meta]` of `problem.toml`
//! and `description.md`; `native_tests` is the one place tests are taken from. `build::Builder` drives the earlier
//! phases per problem — `mermaid::lint::check` → `mermaid::fmt` → `render::pipeline::Renderer` (via
//! `styles::draw_all`, one layout per distinct geometry) → `judge::native` through any `judge::run::Sandbox`
//! (`validate`) — and returns a `Built` (report + `dist_record::DistRecord`, whose `test` code `check_code`
//! generates from the native tests); artefacts, then a cache entry with their hashes (`cache`), are written per
//! problem so builds resume. `dist::write_dist` writes the bank-level files (`<subset>.jsonl`, `table1`, `summary`,
//! `gallery`, `manifest.json`); `shard` splits a build across machines (`build --shard I/N`) and merges the shards
//! into that same `dist/`. It only calls down the pipeline. A chart whose drawn picture is ambiguous
//! (`layout::metrics::Defect`: an edge through a node, a label over a label or node, a label crossed by another
//! edge, measured in every style by `styles::draw_all`) fails its problem with the elements named (`build
//! --allow-ambiguous`: a warning).

pub mod apps_meta;
pub mod build;
pub mod cache;
pub mod check_code;
pub mod codevision_meta;
pub mod dist;
// The record format is its own crate (`crates/dist`), under its old name here.
pub use flowbench_dist as dist_record;
pub mod gallery;
pub mod import;
pub mod legacy_suite;
pub mod meta;
pub mod phase;
pub mod problem_check;
pub mod record;
pub mod references;
pub mod scaffold;
pub mod shard;
pub mod spec;
pub mod stdio;
pub mod styles;
pub mod summary;
pub mod table1;
pub mod unchanged;
pub mod validate;

pub use phase::build;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

pub use flowbench_problem::dir::{File, ProblemDir, ReadError};

use flowbench_judge::problem::{Problem, TestCase};

/// One problem directory, read but not yet checked.
#[derive(Debug, Clone)]
pub struct BankProblem {
    /// Directory name; also the output directory name.
    pub name: String,
    pub dir: PathBuf,
    pub flowchart: String,
    pub solution: String,
    pub problem: Problem,
    /// The share of mutants the generated tests kill, when `tests gen
    /// --score` recorded it in `tests.jsonl` (set by `spec::apply_generated`).
    pub mutation_score: Option<f64>,
    /// A lower bound of that share instead, when only the bound was proven
    /// (a variant's tests: `variants::prove`).
    pub mutation_score_at_least: Option<f64>,
    /// The reference's time on each test, seconds, as `tests gen` recorded
    /// it (parallel to `problem.tests`; empty for hand-written tests).
    pub reference_times: Vec<f64>,
    /// The generated suite's size, when `tests.jsonl` holds it: `problem`
    /// has only the tests it ships (`testgen::ship`).
    pub generated_tests: Option<usize>,
    /// A whole program's checker (`problem.json`'s `"call_style": "stdio"`);
    /// then `problem`'s tests take the standard input as their one argument
    /// and expect the printed text (see [`stdio`]).
    pub stdio: Option<stdio::StdioSettings>,
}

/// A problem directory whose `problem.json` cannot be read or decoded.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    #[error(transparent)]
    Read(#[from] ReadError),
    /// Not a problem, at 1-based `line`:`column` (serde's message after).
    #[error("{}:{line}:{column}: {error}", .path.display())]
    Json { path: PathBuf, line: usize, column: usize, error: serde_json::Error },
}

/// A problem bank whose directory cannot be listed.
#[derive(Debug, thiserror::Error)]
#[error("reading problem bank {}", .root.display())]
pub struct BankDirError {
    pub root: PathBuf,
    #[source]
    pub source: std::io::Error,
}

/// File names inside a problem directory.
pub const FLOWCHART: &str = File::Flowchart.name();
pub const SOLUTION: &str = File::Solution.name();
pub const PROBLEM: &str = File::Problem.name();

/// Problem directories under `root` in name order (so builds are
/// deterministic). A directory without `flowchart.mmd` is not a problem.
pub fn problem_dirs(root: &Path) -> Result<Vec<PathBuf>, BankDirError> {
    let unreadable = |source| BankDirError { root: root.to_path_buf(), source };
    let mut dirs = Vec::new();
    for entry in std::fs::read_dir(root).map_err(unreadable)? {
        let path = entry.map_err(unreadable)?.path();
        if path.join(FLOWCHART).is_file() {
            dirs.push(path);
        }
    }
    dirs.sort();
    Ok(dirs)
}

/// Problems whose `problem.json` claims a `task_id` another problem of the
/// bank claims too, each with its diagnostic. That is usually a copied
/// directory whose `problem.json` was not edited; which problem the id then
/// means is ambiguous, so every claimant fails rather than one silently
/// shadowing the other. Unreadable files are left to the build to report.
pub fn duplicate_task_ids(dirs: &[PathBuf]) -> BTreeMap<PathBuf, String> {
    let mut claims: BTreeMap<String, Vec<&PathBuf>> = BTreeMap::new();
    for dir in dirs {
        let Ok(text) = std::fs::read_to_string(dir.join(PROBLEM)) else { continue };
        let Ok(value) = serde_json::from_str::<serde_json::Value>(&text) else { continue };
        if let Some(id) = value.get("task_id").and_then(|v| v.as_str()) {
            claims.entry(id.to_string()).or_default().push(dir);
        }
    }
    let mut out = BTreeMap::new();
    for (id, claimants) in claims.iter().filter(|(_, c)| c.len() > 1) {
        for dir in claimants {
            let others: Vec<String> = claimants.iter().filter(|d| d != &dir).map(|d| d.display().to_string()).collect();
            out.insert(
                (*dir).clone(),
                format!(
                    "error: {}: duplicate task_id {id:?}, also the task_id of {}; give each problem its own (its directory name)",
                    dir.join(PROBLEM).display(),
                    others.join(", ")
                ),
            );
        }
    }
    out
}

/// The problem read from its directory's files (read once, by
/// [`ProblemDir::read`]); errors name the file (and, for JSON, the line and
/// column).
pub fn load(dir: &ProblemDir) -> Result<BankProblem, LoadError> {
    let problem_text = dir.required(File::Problem)?;
    let at = |error: serde_json::Error| LoadError::Json {
        path: dir.file(File::Problem),
        line: error.line(),
        column: error.column(),
        error,
    };
    let value: serde_json::Value = serde_json::from_str(problem_text).map_err(at)?;
    let (problem, program) = if stdio::is_stdio(&value) {
        let (problem, settings) = stdio::read(serde_json::from_str(problem_text).map_err(at)?);
        (problem, Some(settings))
    } else {
        // From the text, not the parsed value, so big integers stay exact.
        (serde_json::from_str::<Problem>(problem_text).map_err(at)?, None)
    };
    Ok(BankProblem {
        name: dir.name(),
        dir: dir.path().to_path_buf(),
        flowchart: dir.required(File::Flowchart)?.to_string(),
        solution: dir.required(File::Solution)?.to_string(),
        problem,
        mutation_score: None,
        mutation_score_at_least: None,
        reference_times: Vec::new(),
        generated_tests: None,
        stdio: program,
    })
}

/// Whether the reference solution parses, read by test generation's own
/// helper: a syntax error is reported once, as `tests gen` reports it
/// (`…/solution.py:5:26: the solution does not parse: expected ':'`), before
/// it can surface as a stale `tests.jsonl` or a failing test.
pub fn solution_parses(bank: &BankProblem) -> Result<(), flowbench_testgen::python::HelperError> {
    let helper = Path::new(flowbench_testgen::python::HELPER_PYTHON);
    flowbench_testgen::python::check_parses(helper, &bank.dir.join(SOLUTION), &bank.solution)
}

/// The native tests of a problem: the one place the build takes them from
/// (`problem.json`'s tests, replaced by `tests.jsonl`'s generated ones when
/// the problem has a spec: see [`spec::apply_generated`]).
pub fn native_tests(bank: &BankProblem) -> &[TestCase] {
    &bank.problem.tests
}
