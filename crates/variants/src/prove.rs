//! The proof a written variant must pass to be kept: its chart lint-clean,
//! its tests regenerated (floors met, total on the domain, mutation score
//! ≥ [`super::MIN_MUTATION_SCORE`]) and the original reference failing them.
//! A renamed variant's tests are the original's answered again by the
//! renamed reference ([`renamed_tests`]): the same program under other
//! names needs no new inputs, only proof that no answer changed; a renamed
//! whole program is called by no name, so the original passes its tests
//! and that proof is the whole of it.

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::{Value as Json, json};

use flowbench_support::{FileAction, FileError, chain};

use super::candidates::Candidate;
use super::error::VariantError;
use super::screen::{Original, Screened};
use super::{Kind, Options};

use flowbench_bank::{FLOWCHART, PROBLEM, ProblemDir, SOLUTION};
use flowbench_chart::mermaid::lint::{Checked, check};
use flowbench_judge::problem::TestCase;
use flowbench_judge::run::Sandbox;
use flowbench_testgen as testgen;
use flowbench_testgen::generate::{args_key, compare_options, same, validate_limits};
use flowbench_testgen::reference::{Run, run_all, wrap};
use flowbench_testgen::suite::{Policy, SuiteError, make_suite};
use flowbench_testgen::tests_file::{self, GeneratedTest, MutationSummary, TESTS};

/// What a kept variant's proof measured.
#[derive(Debug, Clone, PartialEq)]
pub struct Proof {
    pub tests: usize,
    /// The tests' mutation figures (a lower bound when `bound` says so).
    pub mutation: MutationSummary,
    pub differ_share: f64,
    pub first_difference: Json,
}

/// A variant's regenerated tests: header, tests, mutation figures.
type Regenerated = (tests_file::Header, Vec<GeneratedTest>, MutationSummary);

/// Why a written variant is discarded: its proof failed (the reason
/// recorded with it in the report).
#[derive(Debug, thiserror::Error)]
pub enum Unproven {
    #[error("reading the chart: {0}")]
    ChartUnreadable(std::io::Error),
    /// The first lint warning's message.
    #[error("the re-drawn chart has lint warnings: {0}")]
    LintWarnings(String),
    /// The parse error's message.
    #[error("the re-drawn chart does not parse: {0}")]
    ChartDoesNotParse(String),
    /// Test generation failed on the variant (not the machine), shown
    /// with its causes.
    #[error("{}", chain(.0))]
    Generation(testgen::Error),
    /// The first floor the regenerated tests miss.
    #[error("{0}")]
    Floor(String),
    /// Why the regenerated tests cannot tell programs apart.
    #[error("{0}")]
    Degenerate(String),
    #[error("{0}")]
    Suite(SuiteError),
    /// The test's arguments (as JSON) and the renamed program's run.
    #[error("renaming changed the answer on {}: {:?}", .0.0, .0.1)]
    RenamingChangedAnswer(Box<(String, Run)>),
    #[error("not total on the domain: {variant} generated inputs raise or time out (the original's: {original})")]
    NotTotal { variant: usize, original: usize },
    #[error("mutation score {score:.3} < {}", super::MIN_MUTATION_SCORE)]
    MutationScore { score: f64 },
    #[error("answers the same on every regenerated test")]
    SameAnswers,
    #[error("the original reference passes the variant's tests")]
    OriginalPasses,
    #[error("differs from the original on {:.0} % of the regenerated tests (< {:.0} %)", 100.0 * .share, 100.0 * .least)]
    TooClose { share: f64, least: f64 },
}

/// Drop reasons that say the program is not total on the spec's domain.
const NOT_TOTAL: [&str; 4] = ["raised", "timeout", "too_slow", "unencodable"];

/// Proves the variant in `dir`, writing its `tests.jsonl`. `Ok(Err(reason))`
/// discards it; `Err` is a failure of the machine (the sandbox, a helper,
/// the files).
pub fn prove(
    sandbox: &dyn Sandbox,
    original: &Original,
    dir: &Path,
    kind: Kind,
    candidate: &Candidate,
    screened: &Screened,
    opts: &Options,
) -> Result<Result<Proof, Unproven>, VariantError> {
    if let Err(reason) = lint_clean(dir) {
        return Ok(Err(reason));
    }
    flowbench_support::timings::time("variant carry", || carry_original_tests(sandbox, original, dir, screened))?;
    let renamed = match kind {
        Kind::Rename => flowbench_support::timings::time("variant renamed", || {
            renamed_tests(sandbox, original, dir, &candidate.names)
        })?,
        _ => None,
    };
    let generated = match renamed {
        Some(Ok(g)) => g,
        Some(Err(reason)) => return Ok(Err(reason)),
        None => match regenerate(sandbox, dir, screened, opts)? {
            Ok(g) => g,
            Err(reason) => return Ok(Err(reason)),
        },
    };
    if let Some(reason) = not_total(original, &generated.0) {
        return Ok(Err(reason));
    }
    let (_, tests, mutation) = &generated;
    if mutation.score < super::MIN_MUTATION_SCORE {
        return Ok(Err(Unproven::MutationScore { score: mutation.score }));
    }
    if tests.windows(2).all(|w| w[0].expected == w[1].expected) {
        return Ok(Err(Unproven::SameAnswers));
    }
    if kind == Kind::Rename && original.is_program() {
        // A renamed whole program reads and prints as the original does (no
        // name of it is called from outside), so nothing tells them apart:
        // its proof is that renaming changed no answer (`renamed_tests`).
        return Ok(Ok(Proof {
            tests: tests.len(),
            mutation: *mutation,
            differ_share: 0.0,
            first_difference: Json::Null,
        }));
    }
    let entry = flowbench_bank::spec::gen_input(&ProblemDir::read(dir))?.entry_point;
    let (differ, first) =
        flowbench_support::timings::time("variant original", || original_on(sandbox, original, &entry, &generated))?;
    let share = differ as f64 / tests.len().max(1) as f64;
    let Some(first_difference) = first else {
        return Ok(Err(Unproven::OriginalPasses));
    };
    if share < opts.min_differ {
        return Ok(Err(Unproven::TooClose { share, least: opts.min_differ }));
    }
    Ok(Ok(Proof { tests: tests.len(), mutation: *mutation, differ_share: share, first_difference }))
}

/// The original's hand-written tests, answered by the variant (run in the
/// sandbox), become the variant's: their inputs (often the large ones the
/// floors count) are the problem's, only the expected values were the
/// original's. An input the variant does not answer is left out (the
/// totality check sees it in the generated tests). Inputs the screen ran
/// keep the screen's answer (the same program on the same input).
fn carry_original_tests(
    sandbox: &dyn Sandbox,
    original: &Original,
    dir: &Path,
    screened: &Screened,
) -> Result<(), VariantError> {
    let originals: Vec<&TestCase> = original.input.originals.iter().filter(|t| t.kwargs.is_empty()).collect();
    if originals.is_empty() {
        return Ok(());
    }
    let path = dir.join(PROBLEM);
    let mut problem: Json = serde_json::from_str(&std::fs::read_to_string(&path)?)?;
    let entry = problem["entry_point"].as_str().unwrap_or(&original.input.entry_point).to_string();
    let solution = std::fs::read_to_string(dir.join(SOLUTION))?;
    let program = wrap(&solution, &entry, original.input.call_style, false);
    let inputs: Vec<Vec<Json>> = originals.iter().map(|t| t.args.clone()).collect();
    let runs = reusing(screened, &inputs, |missing| {
        run_all(sandbox, &program, missing, validate_limits(&original.input.spec)).map_err(VariantError::from)
    })?;
    let tests: Vec<TestCase> = originals
        .into_iter()
        .zip(runs)
        .filter_map(|(t, run)| match run {
            Run::Value(v, _) => Some(TestCase { expected: v, ..t.clone() }),
            _ => None,
        })
        .collect();
    // A whole program's problem.json holds `{stdin, stdout}` tests.
    problem["tests"] = match original.is_program() {
        true => serde_json::to_value(
            flowbench_bank::stdio::stdio_tests(&tests)
                .map_err(|error| VariantError::StdioTests { path: path.clone(), error })?,
        )?,
        false => serde_json::to_value(tests)?,
    };
    flowbench_support::outfile::write_atomic(&path, (serde_json::to_string_pretty(&problem)? + "\n").as_bytes())
        .map_err(|source| FileError::new(FileAction::Write, &path, source).into())
}

/// A run of every input: `known`'s where it has the input, `run`'s on the
/// others (in their order).
fn reusing(
    known: &Screened,
    inputs: &[Vec<Json>],
    run: impl FnOnce(&[Vec<Json>]) -> Result<Vec<Run>, VariantError>,
) -> Result<Vec<Run>, VariantError> {
    let mut runs: Vec<Option<Run>> = inputs.iter().map(|a| known.get(&args_key(a)).cloned()).collect();
    let missing: Vec<usize> = (0..inputs.len()).filter(|&i| runs[i].is_none()).collect();
    if !missing.is_empty() {
        let args: Vec<Vec<Json>> = missing.iter().map(|&i| inputs[i].clone()).collect();
        for (&i, r) in missing.iter().zip(run(&args)?) {
            runs[i] = Some(r);
        }
    }
    Ok(runs.into_iter().map(|r| r.unwrap_or(Run::NotRun)).collect())
}

/// The re-drawn chart parses with no lint warning.
fn lint_clean(dir: &Path) -> Result<(), Unproven> {
    let text = std::fs::read_to_string(dir.join(FLOWCHART)).map_err(Unproven::ChartUnreadable)?;
    match check(&text) {
        Checked::Ok { warnings, .. } if warnings.is_empty() => Ok(()),
        Checked::Ok { mut warnings, .. } => Err(Unproven::LintWarnings(warnings.swap_remove(0).message)),
        Checked::Err(d) => Err(Unproven::ChartDoesNotParse(d.message)),
    }
}

/// `tests gen` on the variant, scored only as far as the proof needs
/// (`testgen::suite`'s [`Policy::Floor`] at [`super::MIN_MUTATION_SCORE`]),
/// written when made. `Ok(Err)` when the variant's tests cannot meet the
/// floors.
fn regenerate(
    sandbox: &dyn Sandbox,
    dir: &Path,
    screened: &Screened,
    opts: &Options,
) -> Result<Result<Regenerated, Unproven>, VariantError> {
    let input = flowbench_bank::spec::gen_input(&ProblemDir::read(dir))?;
    let policy = Policy::Floor { floor: super::MIN_MUTATION_SCORE, reuse: screened };
    let suite = match make_suite(&opts.helper_python, sandbox, input, policy) {
        Ok(suite) => suite,
        // The machine failed, not the variant.
        Err(SuiteError::Failed(testgen::Error::Sandbox(failure))) => return Err(failure.into()),
        Err(SuiteError::Failed(e)) => return Ok(Err(Unproven::Generation(e))),
        Err(SuiteError::Floors(reasons)) => {
            return Ok(Err(Unproven::Floor(reasons.into_iter().next().unwrap_or_default())));
        }
        Err(SuiteError::Degenerate { why, .. }) => return Ok(Err(Unproven::Degenerate(why))),
        Err(other) => return Ok(Err(Unproven::Suite(other))),
    };
    suite.write(dir)?;
    let mutation = suite.mutation().unwrap_or_default();
    Ok(Ok((suite.generated.header, suite.generated.tests, mutation)))
}

/// A renamed variant's tests: the original's generated tests, each answered
/// again by the renamed reference in the sandbox. Renaming is consistent
/// (entry point, parameters, locals, spec, starter), so regenerating would
/// draw the same inputs; and the renamed program's mutants are the
/// original's renamed, so the original's measured mutation score holds
/// (carried in the header). What is left to prove is that renaming changed
/// no answer: a test answered differently discards the variant. `None`
/// when the original's score was never measured: the variant is then
/// regenerated like any other.
fn renamed_tests(
    sandbox: &dyn Sandbox,
    original: &Original,
    dir: &Path,
    names: &BTreeMap<String, String>,
) -> Result<Option<Result<Regenerated, Unproven>>, VariantError> {
    let Some(mutation) = original.header.mutation else { return Ok(None) };
    let input = flowbench_bank::spec::gen_input(&ProblemDir::read(dir))?;
    let program = wrap(&input.solution, &input.entry_point, input.call_style, false);
    let inputs: Vec<Vec<Json>> = original.tests.iter().map(|t| t.args.clone()).collect();
    let runs = run_all(sandbox, &program, &inputs, validate_limits(&input.spec))?;
    let opts = compare_options(&input.spec);
    let mut tests = Vec::with_capacity(runs.len());
    for (t, run) in original.tests.iter().zip(runs) {
        match run {
            Run::Value(v, time) if same(&v, &t.expected, &opts) => tests.push(GeneratedTest {
                expected: v,
                reference_time_s: time.wall.as_secs_f64(),
                reference_ops: time.ops,
                ..t.clone()
            }),
            run => {
                let args = serde_json::to_string(&t.args).unwrap_or_default();
                return Ok(Some(Err(Unproven::RenamingChangedAnswer(Box::new((args, run))))));
            }
        }
    }
    let header = tests_file::Header {
        stamp: tests_file::stamp(&input.solution, &input.spec_text, &input.originals_text),
        mutation: Some(mutation),
        // Keyed by parameter: under their new names.
        domains: original.header.domains.iter().map(|(p, d)| (names.get(p).unwrap_or(p).clone(), d.clone())).collect(),
        ..original.header.clone()
    };
    tests_file::write(&dir.join(TESTS), &header, &tests)?;
    Ok(Some(Ok((header, tests, mutation))))
}

/// More inputs dropped for raising or timing out than the original had:
/// the change made the program partial on the domain.
fn not_total(original: &Original, header: &tests_file::Header) -> Option<Unproven> {
    let count =
        |h: &tests_file::Header| NOT_TOTAL.iter().map(|r| h.dropped.get(*r).copied().unwrap_or(0)).sum::<usize>();
    let (variant, original) = (count(header), count(&original.header));
    (variant > original).then_some(Unproven::NotTotal { variant, original })
}

/// Runs the original reference, called by the variant's entry point (a
/// renamed variant's harness calls `f`, which the famous answer does not
/// define), on every regenerated test: how many it answers differently and
/// the first such.
fn original_on(
    sandbox: &dyn Sandbox,
    original: &Original,
    entry: &str,
    generated: &Regenerated,
) -> Result<(usize, Option<Json>), VariantError> {
    let input = &original.input;
    let tests = &generated.1;
    let runs = original_runs(sandbox, original, entry, tests)?;
    let opts = compare_options(&input.spec);
    let mut differ = 0;
    let mut first = None;
    for (t, run) in tests.iter().zip(runs) {
        let answered = match &run {
            Run::Value(v, _) if same(v, &t.expected, &opts) => continue,
            Run::Value(v, _) => v.clone(),
            other => Json::String(format!("{other:?}")),
        };
        differ += 1;
        first.get_or_insert_with(|| json!({"args": t.args, "variant": t.expected, "original": answered}));
    }
    Ok((differ, first))
}

/// The original's run on each test: its recorded answer where its own
/// tests have the input and the harness calls the original's entry point
/// (a renamed variant's calls a name the original does not define, so its
/// runs are real), the sandbox's run for the rest.
fn original_runs(
    sandbox: &dyn Sandbox,
    original: &Original,
    entry: &str,
    tests: &[GeneratedTest],
) -> Result<Vec<Run>, VariantError> {
    let input = &original.input;
    let none = Screened::new();
    let recorded = if entry == input.entry_point { &original.recorded } else { &none };
    let program = wrap(&input.solution, entry, input.call_style, false);
    let inputs: Vec<Vec<Json>> = tests.iter().map(|t| t.args.clone()).collect();
    reusing(recorded, &inputs, |missing| {
        run_all(sandbox, &program, missing, validate_limits(&input.spec)).map_err(VariantError::from)
    })
}
