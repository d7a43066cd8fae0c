//! References for imported problems that ship none (Code-Vision's
//! Algorithm and MATH subsets), chosen from released model samples by
//! differential validation, and the probable wrong tests found on the way.
//!
//! # How it works
//!
//! Per problem directory without a `solution.py` (one with a canonical
//! solution is recorded as such and left alone):
//!
//! 1. every sample of the problem, made standalone (`source`), runs on the
//!    original tests' inputs in the sandbox; a sample passing them all is a
//!    *candidate*;
//! 2. inputs are generated from the spec inferred from the original tests
//!    (`testgen`'s typical and edge candidates; large inputs are left out:
//!    they test speed, not behaviour, and would make agreement depend on
//!    the machine's load);
//! 3. the candidates (or, when there is none, the samples failing at most a
//!    few original tests) run on them, and `choose` picks the group of
//!    agreeing programs of different models;
//! 4. the chosen program becomes `solution.py`, the original tests every
//!    agreeing program fails leave `problem.json` (they are the benchmark's
//!    probable wrong tests), and `reference.json` records it all. Without a
//!    reference, a hand-written `<task>.py` from the hand references
//!    directory is used when there is one.
//!
//! A problem with a `reference.json` is done: a rerun reads it back, so an
//! interrupted run continues and a finished one costs nothing.

pub mod choose;
pub mod report;
pub mod source;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use flowbench_support::{FileError, chain};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use serde_json::Value as Json;

use flowbench_exec::{Job, Status};
use flowbench_judge::compare::CompareOptions;
use flowbench_judge::problem::{Category, Compare, Problem, TestCase, python_truthy};
use flowbench_judge::run::{Sandbox, SandboxFailure};
use flowbench_support::progress::Progress;
use flowbench_testgen::generate::{GenInput, Wanted, candidates, compare_options, same, validate_limits};
use flowbench_testgen::reference::{Run, run_within_budget, wrap};
use flowbench_testgen::spec::TestSpec;

use self::choose::{Decision, GroupOutput, MAX_WRONG_TESTS, Trial, choose, show, shown_value};
use super::ProblemDir;
use super::cache::sha256_hex;
use super::import::dir_name;
use super::spec::{ProblemJsonError, SpecFileError, load_spec, read_problem};
use super::summary::to_json;
use super::{PROBLEM, SOLUTION};

/// Generated inputs larger than this (as JSON) are left out: behaviour
/// shows on small inputs, and a domain inferred from "large number" tests
/// makes typical inputs of 100,000 elements whose runs and outputs cost
/// seconds each.
pub const MAX_INPUT_BYTES: usize = 2_000;

/// Most generated inputs run per sample (the smallest).
pub const MAX_INPUTS: usize = 120;

/// Seconds of calls one sample may spend on the originals: a slow sample
/// stops at its first timeout and at this budget (a test not run is a
/// test failed), so eight slow samples cannot cost minutes.
pub const ORIGINALS_BUDGET_S: f64 = 10.0;

/// The same on the generated inputs, with a per-call limit of its own:
/// small inputs show behaviour within a fraction of a second, and an input
/// not run contradicts nothing (see `choose`).
pub const GENERATED_BUDGET_S: f64 = 4.0;
pub const GENERATED_CALL_LIMIT: std::time::Duration = std::time::Duration::from_millis(500);

/// What records a problem's reference, beside `solution.py`.
pub const REFERENCE: &str = "reference.json";

/// Where a problem's reference came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// The benchmark's own solution.
    Canonical,
    /// Samples of different models that agree (see `choose`).
    Differential,
    /// Written by hand beside the specs.
    Hand,
    /// None: the problem is left out.
    LeftOut,
}

/// One problem's line of the report, and its `reference.json`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Entry {
    pub task_id: String,
    pub subset: Option<String>,
    pub difficulty: Option<String>,
    pub kind: Kind,
    /// Why the samples did not settle it (`no_candidate`, `one_model`,
    /// `disagree`, `no_inputs: …`): left out, or the hand reference's why.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    pub samples: usize,
    /// Models whose sample passes every original test.
    pub candidates: Vec<String>,
    /// Models of the agreeing group (the chosen one first).
    pub agreeing: Vec<String>,
    pub chosen: Option<String>,
    pub generated_inputs: usize,
    pub wrong_tests: Vec<WrongTest>,
    /// Where candidates differ (from the reference when there is one).
    pub differences: Vec<ShownDifference>,
    /// SHA-256 of the hand-written reference (kind `hand`): a rerun
    /// redoes the problem when the file changed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hand_sha256: Option<String>,
}

/// An original test every agreeing program fails.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WrongTest {
    /// 1-based, in `problem.json`'s order at import.
    pub original: usize,
    pub input: String,
    pub expected: String,
    pub references_return: String,
    /// Samples (of any model) that pass it.
    pub samples_passing: usize,
}

/// A `choose::Difference` with its input written out.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ShownDifference {
    /// `original test N` or `generated`.
    pub source: String,
    pub input: String,
    pub outputs: Vec<GroupOutput>,
}

/// Why a problem's reference could not be chosen (or the samples not
/// read): each names its file, or the step that failed.
#[derive(Debug, thiserror::Error)]
pub enum ReferenceError {
    #[error(transparent)]
    File(#[from] FileError),
    /// A samples line that is not JSON, at 1-based `line`:`column`.
    #[error("{}:{line}:{column}: {error}", .path.display())]
    SampleJson { path: PathBuf, line: usize, column: usize, error: serde_json::Error },
    #[error("{}:{line}: a sample needs `task_id` and `completion`", .path.display())]
    SampleFields { path: PathBuf, line: usize },
    #[error(transparent)]
    Problem(#[from] ProblemJsonError),
    /// A `reference.json` that does not decode, at 1-based `line`.
    #[error("{}:{line}: {error}", .path.display())]
    Recorded { path: PathBuf, line: usize, error: serde_json::Error },
    #[error(transparent)]
    Spec(#[from] SpecFileError),
    #[error("{task_id}: no original tests")]
    NoOriginalTests { task_id: String },
    #[error(transparent)]
    Sandbox(#[from] SandboxFailure),
    /// Inputs could not be generated from the inferred spec.
    #[error(transparent)]
    Generation(#[from] flowbench_testgen::Error),
    #[error(transparent)]
    Encode(#[from] serde_json::Error),
}

/// What `choose_references` needs besides the directories.
pub struct Context<'a> {
    /// `samples/<subset>/<model>.jsonl` of every subset, by task id.
    pub samples: &'a BTreeMap<String, Vec<(String, String)>>,
    /// Hand-written references, `<task dir name>.py`.
    pub hand: Option<&'a Path>,
    /// Python for the input generator (it parses, never runs, code).
    pub helper_python: &'a Path,
    pub sandbox: &'a dyn Sandbox,
}

/// The samples under `dir` (`<subset>/<model>.jsonl`, every subset): per
/// task id, `(model, completion)` in model-name order.
pub fn load_samples(dir: &Path) -> Result<BTreeMap<String, Vec<(String, String)>>, ReferenceError> {
    let mut files = Vec::new();
    for subset in std::fs::read_dir(dir).map_err(FileError::reading(dir))? {
        let subset = subset.map_err(FileError::reading(dir))?.path();
        if subset.is_dir() {
            for f in std::fs::read_dir(&subset).map_err(FileError::reading(&subset))? {
                let f = f.map_err(FileError::reading(&subset))?.path();
                if f.extension().is_some_and(|e| e == "jsonl") {
                    files.push(f);
                }
            }
        }
    }
    files.sort_by_key(|f| (f.file_stem().map(|s| s.to_os_string()), f.clone()));
    let mut by_task: BTreeMap<String, Vec<(String, String)>> = BTreeMap::new();
    for f in files {
        let model = f.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
        let text = std::fs::read_to_string(&f).map_err(FileError::reading(&f))?;
        for (i, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
            let v: Json = serde_json::from_str(line).map_err(|error| ReferenceError::SampleJson {
                path: f.clone(),
                line: i + 1,
                column: error.column(),
                error,
            })?;
            let field = |k: &str| v.get(k).and_then(Json::as_str).map(str::to_string);
            let (Some(task), Some(code)) = (field("task_id"), field("completion")) else {
                return Err(ReferenceError::SampleFields { path: f, line: i + 1 });
            };
            by_task.entry(task).or_default().push((model.clone(), code));
        }
    }
    Ok(by_task)
}

/// Chooses (or reads back) the reference of every directory, in their
/// order; a problem whose work failed (the sandbox, an unreadable file)
/// is an `Err` in its place, the others are written.
pub fn choose_references(
    dirs: &[PathBuf],
    ctx: &Context<'_>,
    progress: &dyn Progress,
) -> Vec<Result<Entry, ReferenceError>> {
    progress.add_total(dirs.len() as u64);
    dirs.par_iter()
        .map(|dir| {
            progress.working_on(&dir.file_name().unwrap_or_default().to_string_lossy());
            let entry = reference_for(dir, ctx);
            progress.advance();
            entry
        })
        .collect()
}

/// One problem: read back, canonical, or chosen now and written.
fn reference_for(dir: &Path, ctx: &Context<'_>) -> Result<Entry, ReferenceError> {
    let recorded = dir.join(REFERENCE);
    let problem_path = dir.join(PROBLEM);
    let text = std::fs::read_to_string(&problem_path).map_err(FileError::reading(&problem_path))?;
    let mut problem = read_problem(&problem_path, &text)?;
    let hand = hand_reference(&problem, ctx)?;
    if recorded.is_file() {
        let text = std::fs::read_to_string(&recorded).map_err(FileError::reading(&recorded))?;
        let entry: Entry = serde_json::from_str(&text).map_err(|error| ReferenceError::Recorded {
            path: recorded.clone(),
            line: error.line(),
            error,
        })?;
        // A chosen reference whose solution.py is gone (removed by hand,
        // or a copy without it) is chosen again rather than read back.
        let lost = matches!(entry.kind, Kind::Differential | Kind::Hand) && !dir.join(SOLUTION).is_file();
        if !lost && !hand_changed(&entry, hand.as_ref()) {
            // A new import wrote the original tests back.
            drop_wrong_tests(dir, &mut problem, &entry.wrong_tests)?;
            return Ok(entry);
        }
        // Chosen again below, from the samples and then the hand reference.
        // (solution.py may be gone already, e.g. removed by hand.)
        let solution = dir.join(SOLUTION);
        if entry.kind == Kind::Hand && solution.is_file() {
            std::fs::remove_file(&solution).map_err(FileError::removing(&solution))?;
        }
    }
    let samples = ctx.samples.get(&problem.task_id).map(Vec::as_slice).unwrap_or_default();
    let mut entry = Entry {
        task_id: problem.task_id.clone(),
        subset: problem.subset.clone(),
        difficulty: problem.difficulty.clone(),
        kind: Kind::Canonical,
        reason: None,
        samples: samples.len(),
        candidates: Vec::new(),
        agreeing: Vec::new(),
        chosen: None,
        generated_inputs: 0,
        wrong_tests: Vec::new(),
        differences: Vec::new(),
        hand_sha256: None,
    };
    let mut chosen = None;
    if !dir.join(SOLUTION).is_file() {
        let spec = load_spec(&ProblemDir::read(dir))?.map(|(s, _)| s.tests).unwrap_or_default();
        chosen = validate_samples(dir, &problem, &spec, samples, hand.as_ref(), ctx, &mut entry)?;
        drop_wrong_tests(dir, &mut problem, &entry.wrong_tests)?;
    }
    // The record first, then the solution it names: a run stopped between
    // the two leaves a chosen reference without its solution.py, which the
    // next run chooses again. The other order left a solution.py with no
    // record, which the next run took for a canonical solution.
    flowbench_support::outfile::write_atomic(&recorded, to_json(&entry).as_bytes())
        .map_err(FileError::writing(&recorded))?;
    if let Some(source) = chosen {
        let solution = dir.join(SOLUTION);
        flowbench_support::outfile::write_atomic(&solution, source.as_bytes())
            .map_err(FileError::writing(&solution))?;
    }
    Ok(entry)
}

/// A hand-written reference: where it is and its text.
struct HandReference {
    path: PathBuf,
    code: String,
}

/// The hand-written `<task>.py` for `problem`, when the hand references
/// directory has one.
fn hand_reference(problem: &Problem, ctx: &Context<'_>) -> Result<Option<HandReference>, ReferenceError> {
    let Some(path) = ctx.hand.map(|h| h.join(format!("{}.py", dir_name(&problem.task_id)))).filter(|f| f.is_file())
    else {
        return Ok(None);
    };
    let code = std::fs::read_to_string(&path).map_err(FileError::reading(&path))?;
    Ok(Some(HandReference { path, code }))
}

/// Whether a recorded choice is out of date because of the hand
/// references: one was added for a problem left out, or the one used was
/// edited or removed. Without this a rerun would read back "left out" and
/// never use a reference written after the first run.
fn hand_changed(entry: &Entry, hand: Option<&HandReference>) -> bool {
    match (entry.kind, hand) {
        (Kind::LeftOut, Some(_)) => true,
        (Kind::Hand, Some(h)) => entry.hand_sha256.as_deref() != Some(sha256_hex(h.code.as_bytes()).as_str()),
        (Kind::Hand, None) => true,
        _ => false,
    }
}

/// Steps 1–4 of the module docs for one problem without a solution: the
/// source of the reference chosen, if any (the caller writes it after the
/// record).
fn validate_samples(
    dir: &Path,
    problem: &Problem,
    spec: &TestSpec,
    samples: &[(String, String)],
    hand: Option<&HandReference>,
    ctx: &Context<'_>,
    entry: &mut Entry,
) -> Result<Option<String>, ReferenceError> {
    let timed = |phase: &str| format!("{} {phase}", dir.display());
    let mut trials = flowbench_support::timings::time(&timed("originals"), || {
        samples
            .iter()
            .map(|(model, code)| on_originals(problem, spec, model, code, ctx.sandbox))
            .collect::<Result<Vec<Trial>, ReferenceError>>()
    })?;
    entry.candidates = trials.iter().filter(|t| t.failed.is_empty()).map(|t| t.model.clone()).collect();
    let pool = pool(&trials, !problem.tests.is_empty());
    let generated = match pool.first() {
        None => Ok(Vec::new()),
        Some(&first) => flowbench_support::timings::time(&timed("inputs"), || {
            generated_inputs(dir, problem, spec, &trials[first].source, ctx)
        }),
    };
    let generated = match generated {
        Ok(g) => g,
        // The samples cannot be compared (e.g. a hand spec names the hand
        // reference's parameters, not the candidate's): a hand reference
        // settles the problem as it does when the candidates disagree.
        Err(e) => {
            entry.reason = Some(format!("no_inputs: {}", chain(&e)));
            return settle_by_hand(problem, spec, &trials, hand, ctx, entry);
        }
    };
    entry.generated_inputs = generated.len();
    let generated_limits = flowbench_exec::Limits { wall: GENERATED_CALL_LIMIT, cpu: GENERATED_CALL_LIMIT };
    flowbench_support::timings::time(&timed("generated"), || -> Result<(), SandboxFailure> {
        for (i, t) in trials.iter_mut().enumerate() {
            if pool.contains(&i) {
                let source = wrap(&t.source, &problem.entry_point, problem.call_style, false);
                t.runs.extend(run_within_budget(
                    ctx.sandbox,
                    &source,
                    &generated,
                    generated_limits,
                    GENERATED_BUDGET_S,
                )?);
            } else {
                t.runs.clear();
            }
        }
        Ok(())
    })?;
    let opts = options(problem, spec);
    let check_inputs: Vec<Vec<Json>> =
        problem.tests.iter().map(|t| t.args.clone()).chain(generated.iter().cloned()).collect();
    let shown = |d: choose::Difference| ShownDifference {
        source: if d.input < problem.tests.len() {
            format!("original test {}", d.input + 1)
        } else {
            "generated".into()
        },
        input: show_args(&check_inputs[d.input]),
        outputs: d.outputs,
    };
    match choose(&trials, &opts, |t| source::normalised_len(&t.source)) {
        Decision::Accepted { chosen, agreeing, wrong_tests, differences } => {
            entry.kind = Kind::Differential;
            entry.chosen = Some(trials[chosen].model.clone());
            entry.agreeing = std::iter::once(chosen)
                .chain(agreeing.into_iter().filter(|&i| i != chosen))
                .map(|i| trials[i].model.clone())
                .collect();
            entry.differences = differences.into_iter().map(shown).collect();
            entry.wrong_tests = wrong(problem, &trials, &trials[chosen], &wrong_tests);
            Ok(Some(trials[chosen].source.clone()))
        }
        Decision::LeftOut { reason, differences } => {
            entry.differences = differences.into_iter().map(shown).collect();
            entry.reason = Some(serde_json::to_value(reason)?.as_str().unwrap_or_default().to_string());
            settle_by_hand(problem, spec, &trials, hand, ctx, entry)
        }
    }
}

/// A problem the samples do not settle (`entry.reason` says why): its
/// hand-written reference when there is one (the reason kept: why one was
/// needed), else left out. The source chosen, if any.
fn settle_by_hand(
    problem: &Problem,
    spec: &TestSpec,
    trials: &[Trial],
    hand: Option<&HandReference>,
    ctx: &Context<'_>,
    entry: &mut Entry,
) -> Result<Option<String>, ReferenceError> {
    let Some(hand) = hand else {
        entry.kind = Kind::LeftOut;
        return Ok(None);
    };
    let t = on_originals(problem, spec, "hand", &hand.code, ctx.sandbox)?;
    entry.kind = Kind::Hand;
    entry.chosen = Some(hand.path.display().to_string());
    entry.hand_sha256 = Some(sha256_hex(hand.code.as_bytes()));
    entry.wrong_tests = wrong(problem, trials, &t, &t.failed);
    Ok(Some(t.source))
}

/// The samples whose behaviour counts: the candidates, or when there is
/// none (and the original tests ran one by one) those failing at most
/// `MAX_WRONG_TESTS` of them.
fn pool(trials: &[Trial], native: bool) -> Vec<usize> {
    let strict: Vec<usize> = (0..trials.len()).filter(|&i| trials[i].failed.is_empty()).collect();
    if !strict.is_empty() || !native {
        return strict;
    }
    (0..trials.len()).filter(|&i| trials[i].failed.len() <= MAX_WRONG_TESTS).collect()
}

/// A sample run on the original tests: the runs (when they are data
/// tests) and which it fails. A problem whose tests stay code runs them
/// as the original judge did (all or nothing: a failure is test 0).
fn on_originals(
    problem: &Problem,
    spec: &TestSpec,
    model: &str,
    code: &str,
    sandbox: &dyn Sandbox,
) -> Result<Trial, ReferenceError> {
    let source = source::standalone(code, &problem.entry_point);
    let limits = validate_limits(spec);
    if problem.tests.is_empty() {
        let Some(legacy) = &problem.legacy else {
            return Err(ReferenceError::NoOriginalTests { task_id: problem.task_id.clone() });
        };
        let program = flowbench_judge::legacy::assemble_program(legacy, &problem.entry_point, &source);
        let outcome = sandbox.run_job(&Job::Script {
            source: program,
            limits: flowbench_exec::Limits { wall: limits.wall * 5, cpu: limits.cpu * 5 },
        });
        let failed = match outcome.status {
            Status::Completed => Vec::new(),
            Status::SandboxError { detail } => return Err(SandboxFailure(detail).into()),
            _ => vec![0],
        };
        return Ok(Trial { model: model.into(), source, failed, runs: Vec::new() });
    }
    let args: Vec<Vec<Json>> = problem.tests.iter().map(|t| t.args.clone()).collect();
    let source_wrapped = wrap(&source, &problem.entry_point, problem.call_style, false);
    let runs = run_within_budget(sandbox, &source_wrapped, &args, limits, ORIGINALS_BUDGET_S)?;
    let opts = options(problem, spec);
    let failed = problem
        .tests
        .iter()
        .zip(&runs)
        .enumerate()
        .filter(|(_, (t, r))| !passes(t, r, &opts))
        .map(|(i, _)| i)
        .collect();
    Ok(Trial { model: model.into(), source, failed, runs })
}

/// Whether a run passes an original test, by the test's own comparison.
fn passes(test: &TestCase, run: &Run, opts: &CompareOptions) -> bool {
    let Run::Value(got, _) = run else { return false };
    match test.compare {
        Compare::Eq => same(got, &test.expected, opts),
        Compare::Truthy => python_truthy(got).is_some() && python_truthy(got) == test.expected.as_bool(),
        Compare::Is => got.is_boolean() && got == &test.expected,
    }
}

fn options(problem: &Problem, spec: &TestSpec) -> CompareOptions {
    let mut opts = compare_options(spec);
    if let Some(t) = problem.float_tolerance.filter(|t| t.is_finite() && *t >= 0.0) {
        opts.float_tolerance = t;
    }
    opts.mode = opts.mode.loosest(problem.compare_mode);
    opts
}

/// Typical and edge inputs from the spec inferred from the original tests
/// (the helper reads the signature from `solution`, a candidate).
fn generated_inputs(
    dir: &Path,
    problem: &Problem,
    spec: &TestSpec,
    solution: &str,
    ctx: &Context<'_>,
) -> Result<Vec<Vec<Json>>, ReferenceError> {
    let input = GenInput {
        dir: dir.to_path_buf(),
        solution: solution.to_string(),
        spec: spec.clone(),
        spec_text: String::new(),
        originals_text: String::new(),
        originals: problem.tests.clone(),
        entry_point: problem.entry_point.clone(),
        call_style: problem.call_style,
        constraints: crate::spec::statement_constraints(&ProblemDir::read(dir), spec.infer_domain),
    };
    let found = candidates(ctx.helper_python, ctx.sandbox, &input, Wanted::Tests, spec.seed)?;
    let mut seen = std::collections::BTreeSet::new();
    let mut inputs: Vec<(usize, Vec<Json>)> = found
        .list
        .into_iter()
        .filter(|c| c.expected.is_none() && c.category != Category::Large)
        .filter_map(|c| {
            let key = flowbench_testgen::generate::args_key(&c.args);
            (key.len() <= MAX_INPUT_BYTES && seen.insert(key.clone())).then_some((key.len(), c.args))
        })
        .collect();
    // Smallest first, as the budgeted runs expect (stable: ties keep the
    // generator's order).
    inputs.sort_by_key(|(size, _)| *size);
    inputs.truncate(MAX_INPUTS);
    Ok(inputs.into_iter().map(|(_, a)| a).collect())
}

/// The wrong tests' evidence: input, recorded expected value, what the
/// reference returns, how many samples pass the test anyway.
fn wrong(problem: &Problem, trials: &[Trial], reference: &Trial, tests: &[usize]) -> Vec<WrongTest> {
    tests
        .iter()
        .filter_map(|&i| {
            let t = problem.tests.get(i)?;
            Some(WrongTest {
                original: i + 1,
                input: show_args(&t.args),
                expected: shown_value(&t.expected),
                references_return: reference
                    .runs
                    .get(i)
                    .map(show)
                    .unwrap_or_else(|| "(the test program failed)".into()),
                samples_passing: trials.iter().filter(|s| !s.failed.contains(&i)).count(),
            })
        })
        .collect()
}

/// `problem.json` without the wrong tests (the build proves every original
/// test on the reference). Tests are matched by input and expected value
/// as the report shows them, so running it again removes nothing more.
fn drop_wrong_tests(dir: &Path, problem: &mut Problem, wrong: &[WrongTest]) -> Result<(), ReferenceError> {
    let before = problem.tests.len();
    problem.tests.retain(|t| {
        let (input, expected) = (show_args(&t.args), shown_value(&t.expected));
        !wrong.iter().any(|w| w.input == input && w.expected == expected)
    });
    if problem.tests.len() < before {
        let path = dir.join(PROBLEM);
        std::fs::write(&path, to_json(problem)).map_err(FileError::writing(&path))?;
    }
    Ok(())
}

fn show_args(args: &[Json]) -> String {
    args.iter().map(shown_value).collect::<Vec<_>>().join(", ")
}
