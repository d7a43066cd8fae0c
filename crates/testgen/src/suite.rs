//! One problem's test suite, made in one pipeline: generate → (strengthen)
//! → mark what ships → (reduce) → score → refuse a degenerate suite. What
//! `tests gen` writes and what `variants` proves a variant with are both
//! made here; they differ only in their [`Policy`].
//!
//! Writing the suite is the caller's step ([`Suite::write`]): `tests gen`
//! records its sandbox's isolation first, a variant's proof writes only
//! what it keeps.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use flowbench_problem::problem::Category;
use flowbench_problem::sandbox::Sandbox;

use super::Error;
use super::generate::{GenInput, Generated, constant_suite, generate_reusing};
use super::python::Mutant;
use super::reference::Run;
use super::score::{
    EquivalencePool, Known, Score, ScoredTest, Suite as Scored, Survivors, mutants, score_at_least, score_suites,
};
use super::ship::{self, Kills};
use super::strengthen::{Strengthened, strengthen, strengthen_survivors};
use super::tests_file::{self, Bound, MutationSummary, TestsFileError};

/// How far a suite is made.
#[derive(Debug, Clone, Copy)]
pub enum Policy<'a> {
    /// `tests gen`: the mutant-guided step unless `strengthen` is false,
    /// the shipped tests marked, optionally only they kept, and optionally
    /// the exact mutation score (beside the original tests' with
    /// `score_originals`).
    Full { strengthen: bool, reduce: bool, score: bool, score_originals: bool },
    /// A variant's proof: scored only until `floor` is proven (a lower
    /// bound), exactly when the bound falls short, and strengthened only
    /// when even the exact score is below `floor`. `reuse` holds runs of
    /// the reference already made (by their `args_key`).
    Floor { floor: f64, reuse: &'a HashMap<String, Run> },
}

/// Why no suite was made. The steps' own failures (the sandbox, a helper,
/// the spec) are [`Error`]s, carried in [`SuiteError::Failed`].
#[derive(Debug, thiserror::Error)]
pub enum SuiteError {
    /// Floors not met, each with its reason.
    #[error("{}\n(no tests written)", .0.join("\n"))]
    Floors(Vec<String>),
    /// Reducing picks the shipped tests from the mutant-guided step's kills.
    #[error("--reduce picks the tests to keep from the mutant-guided step's kills; drop --no-strengthen")]
    ReduceWithoutKills,
    /// The suite cannot tell programs apart (e.g. one expected value).
    #[error("{} ({}): {why}\n(no tests written)", .dir.display(), .dir.join("solution.py").display())]
    Degenerate { dir: PathBuf, why: String },
    /// Scoring returned no figures for the suite.
    #[error("{}: not scored", .0.display())]
    NotScored(PathBuf),
    /// A step failed (the sandbox, a helper, the spec).
    #[error(transparent)]
    Failed(#[from] Error),
}

/// A made suite and what making it did (for the caller's summary line).
#[derive(Debug)]
pub struct Suite {
    /// The input the later steps used (its spec narrowed when generation
    /// narrowed it).
    pub input: GenInput,
    /// Header and tests, as `tests.jsonl` stores them.
    pub generated: Generated,
    /// Tests the mutant-guided step added.
    pub added: Option<usize>,
    /// Tests marked shipped, when fewer than all.
    pub shipped: Option<usize>,
    /// `(before, after)` when the suite was reduced to its shipped tests.
    pub reduced: Option<(usize, usize)>,
}

impl Suite {
    /// The mutation figures recorded in the header.
    pub fn mutation(&self) -> Option<MutationSummary> {
        self.generated.header.mutation
    }

    /// Writes `tests.jsonl` into `dir`.
    pub fn write(&self, dir: &Path) -> Result<(), TestsFileError> {
        tests_file::write(&dir.join(tests_file::TESTS), &self.generated.header, &self.generated.tests)
    }
}

/// Makes the suite of `input` under `policy` (see the module docs).
pub fn make_suite(
    python: &Path,
    sandbox: &dyn Sandbox,
    mut input: GenInput,
    policy: Policy,
) -> Result<Suite, SuiteError> {
    let none = HashMap::new();
    let reuse = match policy {
        Policy::Floor { reuse, .. } => reuse,
        Policy::Full { .. } => &none,
    };
    let mut generated = timed(policy, "generate", || generate_reusing(python, sandbox, &input, reuse))?;
    if let Some(spec) = generated.narrowed.take() {
        input.spec = spec;
    }
    if !generated.floor_errors.is_empty() {
        return Err(SuiteError::Floors(std::mem::take(&mut generated.floor_errors)));
    }
    let mut suite = Suite { input, generated, added: None, shipped: None, reduced: None };
    // One problem's steps judge equivalence on one pool (its spec settled above).
    let pool = EquivalencePool::default();
    match policy {
        Policy::Full { strengthen, reduce, score, score_originals } => {
            let strengthened =
                if strengthen { Some(strengthen_and_mark(python, sandbox, &mut suite, &pool)?) } else { None };
            if reduce {
                reduce_to_shipped(&mut suite, strengthened.is_some())?;
            }
            if score || score_originals {
                score_exactly(python, sandbox, &mut suite, strengthened, score_originals, &pool)?;
            }
        }
        Policy::Floor { floor, .. } => {
            let mutation = prove_floor(python, sandbox, &mut suite, floor, &pool)?;
            suite.generated.header.mutation = Some(mutation);
        }
    }
    if let Some(why) = constant_suite(&suite.generated.tests) {
        return Err(SuiteError::Degenerate { dir: suite.input.dir.clone(), why });
    }
    Ok(suite)
}

/// Runs a step, timed as `variant <step>` under `FLOWBENCH_TIMINGS` when
/// proving a variant (as the variants' timings have always named it; the
/// floor's own steps below are only ever a variant's).
fn timed<T>(policy: Policy, step: &str, f: impl FnOnce() -> T) -> T {
    match policy {
        Policy::Floor { .. } => flowbench_support::timings::time(&format!("variant {step}"), f),
        Policy::Full { .. } => f(),
    }
}

/// The mutant-guided step, then the shipped tests marked by its kills.
fn strengthen_and_mark(
    python: &Path,
    sandbox: &dyn Sandbox,
    suite: &mut Suite,
    pool: &EquivalencePool,
) -> Result<Strengthened, Error> {
    let before = suite.generated.tests.len();
    let st = strengthen(python, sandbox, &suite.input, &mut suite.generated, pool)?;
    suite.added = Some(st.added);
    suite.shipped = mark(suite, &st.known, before);
    Ok(st)
}

/// Marks the shipped tests: every mutant's first killer among the tests
/// before `generated_tests`, the added ones, edges, the largest, the floors.
fn mark(suite: &mut Suite, known: &[Known], generated_tests: usize) -> Option<usize> {
    let kills = Kills { known, added_from: generated_tests };
    ship::mark(&mut suite.generated, &kills, &suite.input.spec.floors)
}

/// Keeps only the shipped tests, the header's counts with them.
fn reduce_to_shipped(suite: &mut Suite, marked: bool) -> Result<(), SuiteError> {
    if !marked {
        return Err(SuiteError::ReduceWithoutKills);
    }
    let generated = &mut suite.generated;
    let before = generated.tests.len();
    generated.tests.retain(|t| t.shipped);
    let count = |c: Category| generated.tests.iter().filter(|t| t.category == c).count();
    let (typical, edge, large) = (count(Category::Typical), count(Category::Edge), count(Category::Large));
    let h = &mut generated.header;
    h.shipped = None;
    h.typical = typical;
    h.edge = edge;
    h.large = large;
    suite.reduced = Some((before, generated.tests.len()));
    Ok(())
}

/// The suite's exact mutation score, and the original tests' beside it
/// when asked, into the header.
fn score_exactly(
    python: &Path,
    sandbox: &dyn Sandbox,
    suite: &mut Suite,
    mut strengthened: Option<Strengthened>,
    score_originals: bool,
    pool: &EquivalencePool,
) -> Result<(), SuiteError> {
    let input = &suite.input;
    // After the mutant-guided step the kills are known; a reduced suite
    // is scored afresh.
    let tests: Vec<ScoredTest> = suite.generated.tests.iter().map(ScoredTest::from).collect();
    let made;
    // The verdicts the mutant-guided step found on the generated tests
    // spare rerunning the original tests among them.
    let (scored, mutants, known) = match (&mut strengthened, suite.reduced.is_some()) {
        (Some(Strengthened { alive, mutants, known, .. }), false) => {
            (Scored::Alive(alive), mutants.as_slice(), known.as_mut_slice())
        }
        _ => {
            made = mutants(python, input)?;
            (Scored::Tests(&tests), made.as_slice(), &mut [][..])
        }
    };
    // No original test the native judge can run (HumanEval checks written
    // as code): nothing to compare, and no equivalence runs for an empty
    // suite's survivors.
    let originals: Vec<ScoredTest> =
        if score_originals { input.originals.iter().map(ScoredTest::from).collect() } else { Vec::new() };
    let mut suites = vec![scored];
    if !originals.is_empty() {
        suites.push(Scored::Tests(&originals));
    }
    let name = input.dir.file_name().map_or_else(|| input.dir.display().to_string(), |n| n.to_string_lossy().into());
    let mut scores =
        score_suites(python, sandbox, input, mutants, &name, &suites, known, pool)?.into_iter().map(|s| exact(&s));
    let score = scores.next().ok_or_else(|| SuiteError::NotScored(input.dir.clone()))?;
    suite.generated.header.mutation = Some(score);
    suite.generated.header.originals_mutation = scores.next();
    Ok(())
}

/// Scored only as far as `floor` needs: run on the mutants cheapest test
/// first until the floor is proven (a lower bound, recorded as such); when
/// the suite falls short of that bound, its exact score (equivalent mutants
/// set aside), and only if that is still below the floor the mutant-guided
/// step and the exact score again. The shipped tests are marked either way.
fn prove_floor(
    python: &Path,
    sandbox: &dyn Sandbox,
    suite: &mut Suite,
    floor: f64,
    pool: &EquivalencePool,
) -> Result<MutationSummary, SuiteError> {
    let mutants = suite.input.phase("mutants", || mutants(python, &suite.input))?;
    let tests: Vec<ScoredTest> = suite.generated.tests.iter().map(ScoredTest::from).collect();
    let bounded = flowbench_support::timings::time("variant bound", || {
        score_at_least(python, sandbox, &suite.input, &mutants, &tests, floor, pool)
    })?;
    if !bounded.met {
        return flowbench_support::timings::time("variant exact", || {
            exact_score(python, sandbox, suite, mutants, bounded.survivors, floor, pool)
        });
    }
    let generated_tests = suite.generated.tests.len();
    mark(suite, &bounded.survivors.known, generated_tests);
    Ok(MutationSummary {
        mutants: mutants.len(),
        equivalent: bounded.equivalent,
        killed: bounded.killed,
        score: bounded.score(mutants.len()),
        bound: Bound::Lower,
    })
}

/// The exact score of the suite on `mutants`, whose survivors are `found`:
/// equivalence judged first, and the suite strengthened only when the
/// score is below `floor`.
fn exact_score(
    python: &Path,
    sandbox: &dyn Sandbox,
    suite: &mut Suite,
    mutants: Vec<Mutant>,
    found: Survivors,
    floor: f64,
    pool: &EquivalencePool,
) -> Result<MutationSummary, SuiteError> {
    let generated_tests = suite.generated.tests.len();
    let alive: Vec<usize> = found.alive.iter().map(|(m, _)| *m).collect();
    let mut known = found.known.clone();
    let unstrengthened = score_alive(python, sandbox, &suite.input, &mutants, &alive, &mut known, pool)?;
    if unstrengthened.score >= floor {
        mark(suite, &known, generated_tests);
        return Ok(unstrengthened);
    }
    let st = flowbench_support::timings::time("variant strengthen", || {
        strengthen_survivors(python, sandbox, &suite.input, &mut suite.generated, mutants, found)
    })?;
    mark(suite, &st.known, generated_tests);
    let mut known = st.known;
    score_alive(python, sandbox, &suite.input, &st.mutants, &st.alive, &mut known, pool)
}

/// The exact figures of a suite that leaves `alive` of `mutants` alive.
fn score_alive(
    python: &Path,
    sandbox: &dyn Sandbox,
    input: &GenInput,
    mutants: &[Mutant],
    alive: &[usize],
    known: &mut [Known],
    pool: &EquivalencePool,
) -> Result<MutationSummary, SuiteError> {
    let scores = flowbench_support::timings::time("variant score", || {
        score_suites(python, sandbox, input, mutants, &input.entry_point, &[Scored::Alive(alive)], known, pool)
    })?;
    let s = scores.first().ok_or_else(|| SuiteError::NotScored(input.dir.clone()))?;
    Ok(exact(s))
}

/// A score's figures as the header records them.
fn exact(s: &Score) -> MutationSummary {
    MutationSummary {
        mutants: s.mutants,
        equivalent: s.equivalent,
        killed: s.killed,
        score: s.score,
        bound: Bound::Exact,
    }
}
