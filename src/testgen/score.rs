//! `tests score`: how many AST mutants of the reference a test suite kills.
//! Mutants that agree with the reference on a large random input set as
//! well as on the tests are set aside as likely equivalent; the score is
//! killed ÷ (mutants − equivalent).

use std::path::Path;
use std::time::Duration;

use rayon::prelude::*;
use serde::Serialize;
use serde_json::{Value as Json, json};

use crate::exec::Limits;
use crate::judge::compare::{CompareOptions, DEFAULT_FLOAT_TOLERANCE, values_equal};
use crate::judge::run::Sandbox;
use crate::judge::value::Value;

use super::generate::{GenInput, candidates, validate_limits};
use super::python::{Helper, call};
use super::reference::{Run, run_all, wrap};

/// Calls per job while looking for a kill: a mutant is usually killed by
/// its first job, so later (larger) tests are often never run.
const STEP: usize = 48;

/// One test to score: arguments and the reference's value.
#[derive(Debug, Clone)]
pub struct ScoredTest {
    pub args: Vec<Json>,
    pub expected: Json,
    /// Reference time, to run cheap tests first.
    pub time_s: f64,
}

/// What became of one mutant.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Fate {
    Killed,
    Survived,
    Equivalent,
}

/// One mutant and its fate.
#[derive(Debug, Clone, Serialize)]
pub struct MutantReport {
    pub kind: String,
    pub line: u64,
    pub diff: String,
    pub fate: Fate,
    /// Indices (into the scored tests) of the tests that kill it; complete
    /// only when scoring with `full` kill sets.
    #[serde(skip)]
    pub killers: Vec<usize>,
}

/// Per-problem figures, as `--json` prints them.
#[derive(Debug, Clone, Serialize)]
pub struct Score {
    pub problem: String,
    pub mutants: usize,
    pub equivalent: usize,
    pub killed: usize,
    pub score: f64,
    #[serde(skip)]
    pub reports: Vec<MutantReport>,
}

/// Scores `tests` against the mutants of `input`'s reference. `full` runs
/// every test on every mutant (needed for `--reduce`); otherwise a mutant
/// stops at its first killing job.
pub fn score(
    python: &Path,
    sandbox: &dyn Sandbox,
    input: &GenInput,
    name: &str,
    tests: &[ScoredTest],
    full: bool,
) -> anyhow::Result<Score> {
    score_mutants(python, sandbox, input, &mutants(python, input)?, name, tests, full)
}

/// The mutants of `input`'s reference (`kind`, `line`, `source`, `diff`
/// each); an unparseable solution is an error naming the file.
pub fn mutants(python: &Path, input: &GenInput) -> anyhow::Result<Vec<Json>> {
    let request = json!({
        "solution": input.solution,
        "file": input.dir.join("solution.py").display().to_string(),
        "skip": ["valid"],
    });
    let answer = call(python, Helper::Mutants, &request).map_err(|e| super::generate::name_spec(input, e))?;
    Ok(answer["mutants"].as_array().cloned().unwrap_or_default())
}

/// [`score`] with the mutants already made.
pub fn score_mutants(
    python: &Path,
    sandbox: &dyn Sandbox,
    input: &GenInput,
    mutants: &[Json],
    name: &str,
    tests: &[ScoredTest],
    full: bool,
) -> anyhow::Result<Score> {
    let pool = equivalence_pool(python, sandbox, input)?;
    let has_valid = candidates_has_valid(&input.solution);
    let opts = CompareOptions { float_tolerance: input.spec.float_tolerance.unwrap_or(DEFAULT_FLOAT_TOLERANCE), strict_types: false };
    let slowest = tests.iter().map(|t| t.time_s).chain(pool.iter().map(|t| t.time_s)).fold(0.0, f64::max);
    let limit = Duration::from_secs_f64((slowest * 10.0).clamp(0.25, validate_limits(&input.spec).wall.as_secs_f64()));
    let limits = Limits { wall: limit, cpu: limit };
    let mut order: Vec<usize> = (0..tests.len()).collect();
    order.sort_by(|a, b| tests[*a].time_s.total_cmp(&tests[*b].time_s));
    let reports: Vec<anyhow::Result<MutantReport>> = mutants
        .par_iter()
        .map(|m| {
            let source = wrap(m["source"].as_str().unwrap_or_default(), &input.entry_point, input.call_style, has_valid);
            let killers = kills(sandbox, &source, tests, &order, limits, &opts, full)?;
            let fate = if !killers.is_empty() {
                Fate::Killed
            } else {
                let pool_order: Vec<usize> = (0..pool.len()).collect();
                if kills(sandbox, &source, &pool, &pool_order, limits, &opts, false)?.is_empty() { Fate::Equivalent } else { Fate::Survived }
            };
            Ok(MutantReport {
                kind: m["kind"].as_str().unwrap_or_default().into(),
                line: m["line"].as_u64().unwrap_or(0),
                diff: m["diff"].as_str().unwrap_or_default().into(),
                fate,
                killers,
            })
        })
        .collect();
    let reports: Vec<MutantReport> = reports.into_iter().collect::<anyhow::Result<_>>()?;
    let killed = reports.iter().filter(|r| r.fate == Fate::Killed).count();
    let equivalent = reports.iter().filter(|r| r.fate == Fate::Equivalent).count();
    let live = reports.len() - equivalent;
    Ok(Score {
        problem: name.into(),
        mutants: reports.len(),
        equivalent,
        killed,
        score: if live == 0 { 1.0 } else { killed as f64 / live as f64 },
        reports,
    })
}

fn candidates_has_valid(solution: &str) -> bool {
    solution.lines().any(|l| l.starts_with("def valid("))
}

/// Indices of the tests whose result under `source` differs from the
/// expected one (any exception, timeout or invalid result counts).
fn kills(
    sandbox: &dyn Sandbox,
    source: &str,
    tests: &[ScoredTest],
    order: &[usize],
    limits: Limits,
    opts: &CompareOptions,
    full: bool,
) -> anyhow::Result<Vec<usize>> {
    let mut killers = Vec::new();
    for step in order.chunks(STEP) {
        let inputs: Vec<Vec<Json>> = step.iter().map(|i| tests[*i].args.clone()).collect();
        for (i, run) in step.iter().zip(run_all(sandbox, source, &inputs, limits, false)?) {
            let same = match &run {
                Run::NotRun => continue,
                Run::Value(v, _) => v == &tests[*i].expected
                    || matches!((Value::decode(v), Value::decode(&tests[*i].expected)), (Ok(a), Ok(b)) if values_equal(&a, &b, opts)),
                _ => false,
            };
            if !same {
                killers.push(*i);
            }
        }
        if !full && !killers.is_empty() {
            break;
        }
    }
    killers.sort_unstable();
    Ok(killers)
}

/// A large random input set (different seed from the tests) with the
/// reference's values, to tell equivalent mutants from weak tests.
fn equivalence_pool(python: &Path, sandbox: &dyn Sandbox, input: &GenInput) -> anyhow::Result<Vec<ScoredTest>> {
    let cands = candidates(python, input, "pool", input.spec.seed.wrapping_add(0x9e37_79b9))?;
    let source = wrap(&input.solution, &input.entry_point, input.call_style, cands.has_valid);
    let inputs: Vec<Vec<Json>> = cands.list.iter().map(|c| c.args.clone()).collect();
    let runs = run_all(sandbox, &source, &inputs, validate_limits(&input.spec), true)?;
    Ok(inputs
        .into_iter()
        .zip(runs)
        .filter_map(|(args, run)| match run {
            Run::Value(expected, t) => Some(ScoredTest { args, expected, time_s: t.as_secs_f64() }),
            _ => None,
        })
        .collect())
}

/// `--reduce`: a small subset of the tests (indices, in their order) that
/// kills every mutant the full suite kills and still meets the floors:
/// greedy set cover, then the earliest tests of any category below its floor.
pub fn reduce(reports: &[MutantReport], categories: &[crate::judge::problem::Category], floors: &super::spec::Floors) -> Vec<usize> {
    use crate::judge::problem::Category;
    let mut uncovered: Vec<&Vec<usize>> = reports.iter().filter(|r| !r.killers.is_empty()).map(|r| &r.killers).collect();
    let mut chosen = std::collections::BTreeSet::new();
    while !uncovered.is_empty() {
        let mut count = vec![0usize; categories.len()];
        for ks in &uncovered {
            for &k in *ks {
                count[k] += 1;
            }
        }
        let Some(best) = (0..count.len()).max_by_key(|&i| (count[i], std::cmp::Reverse(i))) else { break };
        if count[best] == 0 {
            break;
        }
        chosen.insert(best);
        uncovered.retain(|ks| !ks.contains(&best));
    }
    for (cat, floor) in [(Category::Typical, floors.typical), (Category::Edge, floors.edge), (Category::Large, floors.large)] {
        let mut have = chosen.iter().filter(|&&i| categories[i] == cat).count();
        for (i, c) in categories.iter().enumerate() {
            if have >= floor {
                break;
            }
            if *c == cat && chosen.insert(i) {
                have += 1;
            }
        }
    }
    chosen.into_iter().collect()
}
