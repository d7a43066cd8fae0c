//! The cheap first look at a candidate: one sandbox job on the original's
//! own test inputs, before the costly test generation.

use std::collections::HashMap;
use std::path::Path;
use std::time::Duration;

use serde_json::Value as Json;

use crate::exec::Limits;
use crate::judge::problem::Category;
use crate::judge::run::Sandbox;
use crate::testgen::generate::{GenInput, args_key, compare_options, same, validate_limits};
use crate::testgen::reference::{Run, run_within_budget_batched, wrap};
use crate::testgen::tests_file::{self, GeneratedTest, Header, TESTS};

/// The problem a variant is made from, as read once.
#[derive(Debug, Clone)]
pub struct Original {
    /// Its directory name.
    pub name: String,
    pub input: GenInput,
    /// Its generated tests (`tests.jsonl`) and their header.
    pub tests: Vec<GeneratedTest>,
    pub header: Header,
    /// The original's answer to each of its generated tests, by input
    /// (`args_key`), when `tests.jsonl` is the build of this very solution,
    /// spec and original tests (its stamp): validated answers (run twice,
    /// equal) that a variant's tests sharing the input need not run again.
    /// Empty when the file is stale.
    pub recorded: HashMap<String, Run>,
}

impl Original {
    /// Reads a problem directory with generated tests; errors name the file.
    pub fn load(dir: &Path) -> anyhow::Result<Original> {
        let input = crate::bank::spec::gen_input(dir)?;
        let (header, tests) = tests_file::read(&dir.join(TESTS))?;
        let name = dir.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let fresh = header.stamp == tests_file::stamp(&input.solution, &input.spec_text, &input.originals_text);
        let recorded = if fresh {
            tests.iter().map(|t| (args_key(&t.args), Run::Value(t.expected.clone(), Duration::ZERO))).collect()
        } else {
            HashMap::new()
        };
        Ok(Original { name, input, tests, header, recorded })
    }
}

/// Why the screen rejects a candidate (a short, countable reason).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rejected {
    /// It raises, times out or answers no plain value on some input.
    NotTotal,
    /// The same answer on every input.
    Constant,
    /// It differs from the original on too few inputs.
    TooClose,
}

impl std::fmt::Display for Rejected {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Rejected::NotTotal => "not total on the original's test inputs",
            Rejected::Constant => "answers the same on every input",
            Rejected::TooClose => "differs from the original on too few inputs",
        })
    }
}

/// Most inputs the screen runs: enough to see a 20 % difference, cheap.
const SCREEN_INPUTS: usize = 200;
/// A candidate may take this many times the original's slowest time per
/// input (and all of them together this many times the original's total):
/// mutants that loop forever are common, and at the validation limit each
/// would cost seconds per input.
const SLOWER: f64 = 50.0;
/// Floors of those limits, seconds: below them the sandbox's own overhead
/// and the timer's resolution decide. The wall clock's floor is a loaded
/// machine's noise; the CPU floor is the kill search's (`testgen::kill`):
/// a mutated loop that never ends is the commonest reason a candidate is
/// not total, and each one burns its call's whole CPU limit.
const LEAST_CALL_S: f64 = 0.25;
const LEAST_CALL_CPU_S: f64 = 0.05;
const LEAST_BUDGET_S: f64 = 2.0;

/// Inputs of the screen's first job, run before the others: a candidate
/// that is not total usually fails on one of the first inputs (a loop that
/// never ends, an index out of range), and is then rejected for one job
/// and at most one timeout rather than a timeout in each of the screen's
/// parallel jobs. Counted in inputs, so where the screen stops is the same
/// on any machine.
const SCREEN_FIRST: usize = 16;

/// The per-call limit and the total budget of a screen run.
fn screen_limits(original: &Original, tests: &[&GeneratedTest]) -> (Limits, f64) {
    let slowest = tests.iter().map(|t| t.reference_time_s).fold(0.0, f64::max);
    let total: f64 = tests.iter().map(|t| t.reference_time_s).sum();
    let most = validate_limits(&original.input.spec);
    let limit = |floor: f64, most: std::time::Duration| {
        std::time::Duration::from_secs_f64((SLOWER * slowest).max(floor)).min(most)
    };
    let limits = Limits { wall: limit(LEAST_CALL_S, most.wall), cpu: limit(LEAST_CALL_CPU_S, most.cpu) };
    (limits, (SLOWER * total).max(LEAST_BUDGET_S))
}

/// The candidate's runs on `inputs`: the first [`SCREEN_FIRST`] in one job,
/// the rest only when each of those gave a value (else they are
/// [`Run::NotRun`]: the candidate is not total whatever they give). Each
/// part gets its share of the budget.
fn screen_runs(
    sandbox: &dyn Sandbox,
    program: &str,
    inputs: &[Vec<Json>],
    limits: Limits,
    budget_s: f64,
) -> anyhow::Result<Vec<Run>> {
    let first = SCREEN_FIRST.min(inputs.len());
    let share = |n: usize| budget_s * n as f64 / inputs.len().max(1) as f64;
    let mut runs = run_within_budget_batched(sandbox, program, &inputs[..first], limits, share(first))?;
    if runs.iter().all(|r| matches!(r, Run::Value(..))) {
        let rest = &inputs[first..];
        if !rest.is_empty() {
            runs.extend(run_within_budget_batched(sandbox, program, rest, limits, share(rest.len()))?);
        }
    } else {
        runs.resize(inputs.len(), Run::NotRun);
    }
    Ok(runs)
}

/// What a candidate that passed the screen answered, by input
/// (`args_key`): runs the proof need not repeat (`testgen::generate`'s
/// first validation run, the carried original tests).
pub type Screened = HashMap<String, Run>;

/// Runs `source` on the original's non-large test inputs: `Ok(Ok(runs))`
/// when it answers every one, not all alike, and differs from the original
/// on at least `min_differ` of them. `Err` only when the sandbox failed.
pub fn screen(
    sandbox: &dyn Sandbox,
    original: &Original,
    source: &str,
    min_differ: f64,
) -> anyhow::Result<Result<Screened, Rejected>> {
    let tests: Vec<&GeneratedTest> =
        original.tests.iter().filter(|t| t.category != Category::Large).take(SCREEN_INPUTS).collect();
    let inputs: Vec<Vec<Json>> = tests.iter().map(|t| t.args.clone()).collect();
    let input = &original.input;
    let program = wrap(source, &input.entry_point, input.call_style, false);
    let (limits, budget_s) = screen_limits(original, &tests);
    // Stops a chunk at its first timeout and the whole run at the budget:
    // what is not run is as good as a timeout here.
    let runs = screen_runs(sandbox, &program, &inputs, limits, budget_s)?;
    let opts = compare_options(&input.spec);
    let mut values = Vec::with_capacity(runs.len());
    for run in &runs {
        match run {
            Run::Value(v, _) => values.push(v.clone()),
            _ => return Ok(Err(Rejected::NotTotal)),
        }
    }
    if values.windows(2).all(|w| same(&w[0], &w[1], &opts)) {
        return Ok(Err(Rejected::Constant));
    }
    let differ = values.iter().zip(&tests).filter(|(v, t)| !same(v, &t.expected, &opts)).count();
    if values.is_empty() || (differ as f64) < min_differ * values.len() as f64 {
        return Ok(Err(Rejected::TooClose));
    }
    Ok(Ok(inputs.iter().map(|a| args_key(a)).zip(runs).collect()))
}
