//! `tests score`: how many AST mutants of the reference a test suite kills.
//! Mutants that agree with the reference on a large random input set as
//! well as on the tests are set aside as likely equivalent; the score is
//! killed ÷ (mutants − equivalent).

use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::sync::{Mutex, OnceLock, PoisonError};
use std::time::Duration;

use serde::Serialize;
use serde_json::Value as Json;

use flowbench_exec::Limits;
use flowbench_problem::problem::TestCase;
use flowbench_problem::sandbox::Sandbox;

use super::Error;
use super::generate::{GenInput, Wanted, args_key, candidates, compare_options, same, validate_limits};
use super::kill::kill_search;
use super::python::{Mutant, MutantsRequest};
use super::reference::{Cost, Run, run_all, run_within_budget, wrap};
use super::tests_file::{GeneratedTest, STRETCHED};

/// What running one mutant gave on test inputs (by their JSON text):
/// whether each killed it. The mutants are the reference's and the
/// reference is deterministic (validation checks it), so an input that
/// several suites share (the original tests are among the generated ones)
/// runs once per mutant.
pub type Known = HashMap<String, bool>;

/// One test to score: arguments and the reference's value.
#[derive(Debug, Clone)]
pub struct ScoredTest {
    pub args: Vec<Json>,
    pub expected: Json,
    /// The reference's measured time (0 when unknown): what the kill
    /// search sizes its steps and jobs by, as the cost of running the test
    /// (arguments, calls in C and all).
    pub time_s: f64,
    /// The reference's cost in seconds of the limit ([`Cost::seconds`]:
    /// its counted operations where they are known, the same on any load):
    /// a mutant's limit is ten times this.
    pub cost_s: f64,
    /// The reference's counted operations (none for a whole program, or
    /// a hand-written test before it runs): unlike the time, the same on
    /// any machine and load, so what is decided by them (the head of
    /// [`survivors`]) is too.
    pub ops: Option<u64>,
    /// Kept for the time limit alone (the stretched example, `main.py`'s
    /// `stretched_examples`): no mutant runs it. Its input is the largest
    /// by far (up to 3·10^5 elements) and a first-order mutant is no
    /// slower in kind than the reference, so every surviving mutant would
    /// run it to no kill.
    pub timing_only: bool,
    /// Why the input lies beyond the statement, when it was drawn from a
    /// widened domain (kept so a pool input that becomes a test keeps it).
    pub widened: Option<String>,
}

impl ScoredTest {
    /// A test whose reference answered `expected` at `cost`.
    fn answered(args: Vec<Json>, expected: Json, cost: Cost, widened: Option<String>) -> ScoredTest {
        let time_s = cost.wall.as_secs_f64();
        ScoredTest { args, expected, time_s, cost_s: cost.seconds(), ops: cost.ops, timing_only: false, widened }
    }
}

impl From<&GeneratedTest> for ScoredTest {
    fn from(t: &GeneratedTest) -> Self {
        // A file's time is read, not measured: a negative or absurd one
        // must not panic the conversion.
        let wall = Duration::try_from_secs_f64(t.reference_time_s.max(0.0)).unwrap_or(Duration::MAX);
        let cost = Cost { wall, ops: t.reference_ops };
        ScoredTest {
            args: t.args.clone(),
            expected: t.expected.clone(),
            time_s: t.reference_time_s,
            cost_s: cost.seconds(),
            ops: t.reference_ops,
            timing_only: t.how.ends_with(STRETCHED),
            widened: t.widened.clone(),
        }
    }
}

impl From<&TestCase> for ScoredTest {
    /// A hand-written test: its time is unknown (0) until scoring runs the
    /// reference on it.
    fn from(t: &TestCase) -> Self {
        ScoredTest {
            args: t.args.clone(),
            expected: t.expected.clone(),
            time_s: 0.0,
            cost_s: 0.0,
            ops: None,
            timing_only: false,
            widened: None,
        }
    }
}

/// A suite to score.
#[derive(Debug, Clone, Copy)]
pub enum Suite<'a> {
    /// Its tests (a tests.jsonl's or a problem.json's).
    Tests(&'a [ScoredTest]),
    /// A suite already run on every mutant, by the mutants (indices) it
    /// leaves alive: what `tests gen` knows after its mutant-guided step,
    /// so no mutant runs the suite again.
    Alive(&'a [usize]),
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
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MutantReport {
    pub kind: String,
    pub line: u64,
    pub diff: String,
    pub fate: Fate,
}

/// Per-problem figures, as `--json` prints them: the first-order mutants'
/// at the top level, the other sets' (`differential`) beside them when
/// they were scored.
#[derive(Debug, Clone, Serialize)]
pub struct Score {
    pub problem: String,
    pub mutants: usize,
    pub equivalent: usize,
    pub killed: usize,
    pub score: f64,
    #[serde(skip)]
    pub reports: Vec<MutantReport>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub higher_order: Option<SetScore>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub alternative: Option<SetScore>,
}

/// One set of mutants' figures: killed ÷ (mutants − equivalent).
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct SetScore {
    pub mutants: usize,
    pub equivalent: usize,
    pub killed: usize,
    pub score: f64,
    #[serde(skip)]
    pub reports: Vec<MutantReport>,
}

impl SetScore {
    pub fn of(reports: Vec<MutantReport>) -> SetScore {
        let killed = reports.iter().filter(|r| r.fate == Fate::Killed).count();
        let equivalent = reports.iter().filter(|r| r.fate == Fate::Equivalent).count();
        let live = reports.len() - equivalent;
        SetScore {
            mutants: reports.len(),
            equivalent,
            killed,
            score: if live == 0 { 1.0 } else { killed as f64 / live as f64 },
            reports,
        }
    }
}

/// The mutants of `input`'s reference (`kind`, `line`, `source`, `diff`
/// each); an unparseable solution is an error naming the file.
pub fn mutants(python: &Path, input: &GenInput) -> Result<Vec<Mutant>, Error> {
    super::python::mutants(python, mutants_request(input)).map_err(|e| Error::from_helper(&input.dir, e))
}

/// The request for `input`'s mutants: everything but `valid()`, and a
/// whole program's code at module level too (where most of it is).
pub fn mutants_request(input: &GenInput) -> MutantsRequest<'_> {
    MutantsRequest {
        solution: &input.solution,
        file: input.dir.join("solution.py").display().to_string(),
        skip: vec!["valid"],
        whole_program: input.entry_point == super::reference::PROGRAM,
    }
}

/// Scores several suites against the same mutants, one [`Score`] per suite
/// in order. Each suite's figures are exactly those it gets scored alone;
/// the shared work (mutants, the equivalence pool and each survivor's run on
/// it) is done once. The pool is built only when some mutant survives a suite.
/// `known` (empty, or one per mutant) holds verdicts already found, such as
/// `tests gen`'s on its own tests; it gains the ones found here. `pool`
/// keeps equivalence verdicts already found for the same problem.
#[allow(clippy::too_many_arguments)]
pub fn score_suites(
    python: &Path,
    sandbox: &dyn Sandbox,
    input: &GenInput,
    mutants: &[Mutant],
    name: &str,
    suites: &[Suite],
    known: &mut [Known],
    pool: &EquivalencePool,
) -> Result<Vec<Score>, Error> {
    let has_valid = candidates_has_valid(&input.solution);
    let sources: Vec<String> = mutants.iter().map(|m| mutant_source(input, has_valid, m)).collect();
    // The suites of tests run together (one job serves every suite still
    // alive for a mutant).
    let timed: Vec<Vec<ScoredTest>> = suites
        .iter()
        .filter_map(|s| match s {
            Suite::Tests(tests) => Some(with_reference_times(sandbox, input, has_valid, tests)),
            Suite::Alive(_) => None,
        })
        .collect::<Result<_, Error>>()?;
    let run: Vec<&[ScoredTest]> = timed.iter().map(Vec::as_slice).collect();
    let found = if run.is_empty() {
        Vec::new()
    } else {
        input.phase("score kills", || kill_lists(sandbox, input, &sources, &run, known))?
    };
    let mut ran = by_suite(found, run.len()).into_iter();
    // killed[suite][mutant]: whether some test of the suite kills it.
    let killed: Vec<Vec<bool>> = suites
        .iter()
        .map(|suite| match suite {
            Suite::Tests(_) => ran.next().unwrap_or_default().iter().map(|k| !k.is_empty()).collect(),
            Suite::Alive(alive) => (0..mutants.len()).map(|m| !alive.contains(&m)).collect(),
        })
        .collect();
    // Survivors of any suite meet the equivalence pool, built only for them
    // (and outside the parallel loop above: building it runs jobs itself).
    let survivors: Vec<usize> = (0..mutants.len()).filter(|&m| killed.iter().any(|k| !k[m])).collect();
    let equivalent = equivalence(python, sandbox, input, pool, &sources, &survivors)?;
    Ok(killed
        .into_iter()
        .map(|per_mutant| {
            let reports = mutants
                .iter()
                .zip(per_mutant)
                .zip(&equivalent)
                .map(|((m, killed), &eq)| report(m, fate(killed, eq)))
                .collect();
            tally(name, reports)
        })
        .collect())
}

/// `found[mutant][suite]` as `[suite][mutant]`.
fn by_suite(found: Vec<Vec<Vec<usize>>>, suites: usize) -> Vec<Vec<Vec<usize>>> {
    let mut out: Vec<Vec<Vec<usize>>> = vec![Vec::with_capacity(found.len()); suites];
    for per_suite in found {
        for (suite, killers) in out.iter_mut().zip(per_suite) {
            suite.push(killers);
        }
    }
    out
}

/// What running a suite on every mutant leaves.
pub struct Survivors {
    /// The mutants (indices) the suite does not kill, with each one's
    /// wrapped source.
    pub alive: Vec<(usize, String)>,
    /// Every mutant's verdicts on the tests it ran.
    pub known: Vec<Known>,
}

/// Counted reference operations of the tests every mutant runs before the
/// equivalence pool judges the survivors ([`survivors`]): two seconds of
/// reference time at [`super::reference::OPS_PER_SECOND`]. On the HumanEval
/// yardstick (cheapest test first) the latest first kill came after one
/// second of the reference's wall time (10.4 M operations), while the
/// survivors that ran every test to the end, nearly all of them judged
/// equivalent, spent 150 s of its time doing so.
const HEAD_OPS: u64 = 10_000_000;

/// The mutants that `tests` leaves alive. Every mutant runs the head of
/// the suite: its cheapest tests (in [`cheapest_first`] order) up to
/// [`HEAD_OPS`] counted operations, and every original test among them (a
/// mutant the author's own examples kill is killed by the suite that holds
/// them, whichever suite is scored). The head's survivors meet the
/// equivalence pool; those it cannot tell from the reference are set aside
/// as likely equivalent and run no further test, and only the others run
/// the rest of the suite. A set-aside mutant counts as alive (the
/// mutant-guided step still looks for a killer in its own pool), so a
/// score counts it equivalent only if no pool kills it: were a later test
/// to kill it, the score is a lower bound, and exact whenever it is 1.
/// Nothing is set aside when the pool holds fewer inputs than the head, and
/// where the operations are not counted (a whole program) there is no
/// head: every mutant then runs the whole suite.
pub fn survivors(
    python: &Path,
    sandbox: &dyn Sandbox,
    input: &GenInput,
    mutants: &[Mutant],
    tests: &[ScoredTest],
    pool: &EquivalencePool,
) -> Result<Survivors, Error> {
    let has_valid = candidates_has_valid(&input.solution);
    let sources: Vec<String> = mutants.iter().map(|m| mutant_source(input, has_valid, m)).collect();
    let mut known = vec![Known::new(); sources.len()];
    let every: Vec<usize> = (0..sources.len()).collect();
    let mut killed = vec![false; sources.len()];
    let mut rest = every.clone();
    if let Some(head) = head_of(tests, &input.originals) {
        for (&m, k) in every.iter().zip(run_on(sandbox, input, &sources, &every, &head, &mut known)?) {
            killed[m] = k;
        }
        rest.retain(|&m| !killed[m]);
        // A pool smaller than the head tells too little: where the
        // reference is slow it holds a handful of inputs, or none.
        let head_survivors = rest.len();
        if !rest.is_empty() && pool.len(python, sandbox, input)? >= head.len() {
            let mut set_aside = vec![false; sources.len()];
            pool.judge(python, sandbox, input, &sources, &rest, &mut set_aside)?;
            rest.retain(|&m| !set_aside[m]);
        }
        if flowbench_support::timings::enabled() {
            eprintln!(
                "survivors {}: {} mutants, the head's {} of {} tests leave {head_survivors}, {} run the rest",
                input.dir.display(),
                sources.len(),
                head.len(),
                tests.len(),
                rest.len()
            );
        }
    }
    for (&m, k) in rest.iter().zip(run_on(sandbox, input, &sources, &rest, tests, &mut known)?) {
        killed[m] = k;
    }
    let alive = sources.into_iter().enumerate().filter(|&(m, _)| !killed[m]).collect();
    Ok(Survivors { alive, known })
}

/// The head of `tests` ([`survivors`]): the cheapest ones up to
/// [`HEAD_OPS`] and the `originals` among the others; none when that is
/// every test a mutant runs, or when some test's operations are not
/// counted.
fn head_of(tests: &[ScoredTest], originals: &[TestCase]) -> Option<Vec<ScoredTest>> {
    let order = cheapest_first(tests);
    if order.iter().any(|&i| tests[i].ops.is_none()) {
        return None;
    }
    let original: HashSet<String> = originals.iter().map(|t| args_key(&t.args)).collect();
    let mut spent = 0u64;
    let head: Vec<ScoredTest> = order
        .iter()
        .filter(|&&i| {
            spent = spent.saturating_add(tests[i].ops.unwrap_or(0));
            spent <= HEAD_OPS || original.contains(&args_key(&tests[i].args))
        })
        .map(|&i| tests[i].clone())
        .collect();
    (head.len() < order.len()).then_some(head)
}

/// What a kill search stopped once a score was proven leaves.
pub struct Bounded {
    /// Whether the score reached the one wanted.
    pub met: bool,
    /// Mutants killed when the search stopped.
    pub killed: usize,
    /// Mutants set aside as likely equivalent: not killed by the tests run
    /// on them, nor by the equivalence pool.
    pub equivalent: usize,
    /// When `met` is false, the mutants the whole suite leaves alive and
    /// every verdict, as [`survivors`] gives them; when `met`, the verdicts
    /// found (each killed mutant's first killer among them).
    pub survivors: Survivors,
}

impl Bounded {
    /// killed ÷ (mutants − equivalent): at most the exact score.
    pub fn score(&self, mutants: usize) -> f64 {
        let live = mutants - self.equivalent;
        if live == 0 { 1.0 } else { self.killed as f64 / live as f64 }
    }
}

/// Tests in the first prefix [`score_at_least`] runs; each next one is
/// twice as long. Most variants' suites prove the bound here: every
/// mutant runs the whole prefix in one step (its kill is only read after
/// the job), so a shorter first prefix is fewer calls for all of them. On
/// the bank's variants, 16 ran 21 % fewer kill calls than 32.
const FIRST_PREFIX: usize = 16;

/// The equivalence pool is judged after the first prefix of at least this
/// many tests: the survivors of a shorter one are mostly mutants the next
/// tests kill, which the pool would run for nothing.
const POOL_AFTER: usize = 32;

/// Proves that `tests` reach a mutation score of at least `wanted`
/// without running every mutant on every test: the tests run cheapest
/// first, in prefixes of the cost order (16, 32, 64, … tests, then all),
/// each prefix on every mutant still in play, and the search stops as soon
/// as killed ÷ (mutants − set aside) ≥ `wanted`. After the prefix of
/// [`POOL_AFTER`] tests, the survivors meet the equivalence pool (as
/// scoring's, [`equivalence`]), only as many as the bound needs
/// ([`set_aside_enough`]): those it cannot kill are set aside and run no
/// further test. That is sound: the exact score is killed ÷ (mutants −
/// equivalent), and a mutant set aside is, under the whole suite, either
/// killed (adding one to both sides of a fraction ≤ 1, raising it) or
/// equivalent (counted in neither); a mutant not yet killed, or not
/// judged, is counted alive. So the survivors never run the large tests
/// unless their kill could decide the bound. Prefixes are counted in
/// tests, not time, so where the search stops is the same on any machine.
/// When even the whole suite leaves the bound short, the set-aside mutants
/// run the rest too and `survivors` is [`survivors`]'s.
pub fn score_at_least(
    python: &Path,
    sandbox: &dyn Sandbox,
    input: &GenInput,
    mutants: &[Mutant],
    tests: &[ScoredTest],
    wanted: f64,
    pool: &EquivalencePool,
) -> Result<Bounded, Error> {
    let has_valid = candidates_has_valid(&input.solution);
    let sources: Vec<String> = mutants.iter().map(|m| mutant_source(input, has_valid, m)).collect();
    let mut known = vec![Known::new(); sources.len()];
    let order = cheapest_first(tests);
    let part = |n: usize| -> Vec<ScoredTest> { order[..n].iter().map(|&i| tests[i].clone()).collect() };
    let mut killed = vec![false; sources.len()];
    let mut set_aside = vec![false; sources.len()];
    let mut pool_judged = false;
    let mut prefix = FIRST_PREFIX.min(order.len());
    loop {
        let active: Vec<usize> = (0..sources.len()).filter(|&m| !killed[m] && !set_aside[m]).collect();
        let verdicts =
            input.phase("bound kills", || run_on(sandbox, input, &sources, &active, &part(prefix), &mut known))?;
        for (&m, k) in active.iter().zip(verdicts) {
            killed[m] = k;
        }
        if flowbench_support::timings::enabled() {
            let count = |v: &[bool]| v.iter().filter(|&&b| b).count();
            eprintln!(
                "bound {} prefix {prefix}/{}: {} mutants, {} killed, {} set aside",
                input.dir.display(),
                order.len(),
                sources.len(),
                count(&killed),
                count(&set_aside)
            );
        }
        if let Some(proven) = proven(&killed, &set_aside, wanted) {
            return Ok(Bounded { met: true, survivors: Survivors { alive: Vec::new(), known }, ..proven });
        }
        if !pool_judged && prefix >= POOL_AFTER && prefix < order.len() {
            pool_judged = true;
            set_aside = set_aside_enough(python, sandbox, input, pool, &sources, &killed, wanted)?;
            if let Some(proven) = proven(&killed, &set_aside, wanted) {
                return Ok(Bounded { met: true, survivors: Survivors { alive: Vec::new(), known }, ..proven });
            }
        }
        if prefix == order.len() {
            // Short of the bound: the exact score needs every survivor's
            // verdict on the whole suite.
            let rest: Vec<usize> = (0..sources.len()).filter(|&m| set_aside[m]).collect();
            for (&m, k) in rest.iter().zip(run_on(sandbox, input, &sources, &rest, tests, &mut known)?) {
                killed[m] = k;
            }
            let alive = sources.into_iter().enumerate().filter(|&(m, _)| !killed[m]).collect();
            return Ok(Bounded { met: false, killed: 0, equivalent: 0, survivors: Survivors { alive, known } });
        }
        prefix = (prefix * 2).min(order.len());
    }
}

/// The survivors (not `killed`) the equivalence pool cannot kill, judged
/// only as far as the bound needs: a few at a time, each time as many as
/// must still be set aside for killed ÷ (mutants − set aside) to reach
/// `wanted`. A survivor left unjudged counts as alive, so the bound holds;
/// and an equivalent mutant runs the whole pool (most of the search's
/// cost), so the last ones, which the bound can spare, are never run.
/// When the pool kills some of a batch, the next batch makes up for them;
/// with every survivor judged the result is [`equivalence`]'s.
fn set_aside_enough(
    python: &Path,
    sandbox: &dyn Sandbox,
    input: &GenInput,
    pool: &EquivalencePool,
    sources: &[String],
    killed: &[bool],
    wanted: f64,
) -> Result<Vec<bool>, Error> {
    let survivors: Vec<usize> = (0..sources.len()).filter(|&m| !killed[m]).collect();
    let mut set_aside = vec![false; sources.len()];
    let mut judged = 0;
    while judged < survivors.len() {
        let needed = fewest_more(killed, &set_aside, wanted);
        if needed == 0 {
            break;
        }
        let batch = &survivors[judged..(judged + needed).min(survivors.len())];
        judged += batch.len();
        pool.judge(python, sandbox, input, sources, batch, &mut set_aside)?;
    }
    Ok(set_aside)
}

/// How many more mutants must be set aside (beyond `set_aside`, none of
/// them `killed`) for the figures to prove a score of at least `wanted`.
fn fewest_more(killed: &[bool], set_aside: &[bool], wanted: f64) -> usize {
    let mut more = set_aside.to_vec();
    let mut spare = (0..killed.len()).filter(|&m| !killed[m] && !set_aside[m]);
    let mut count = 0;
    while proven(killed, &more, wanted).is_none() {
        match spare.next() {
            Some(m) => more[m] = true,
            None => break,
        }
        count += 1;
    }
    count
}

/// The figures so far when they prove a score of at least `wanted`
/// (`survivors` left empty for the caller).
fn proven(killed: &[bool], set_aside: &[bool], wanted: f64) -> Option<Bounded> {
    let count = |v: &[bool]| v.iter().filter(|&&b| b).count();
    let empty = Survivors { alive: Vec::new(), known: Vec::new() };
    let b = Bounded { met: true, killed: count(killed), equivalent: count(set_aside), survivors: empty };
    (b.score(killed.len()) >= wanted).then_some(b)
}

/// Runs `tests` on the mutants `which` (indices into `sources`), with and
/// into their `known` verdicts: whether each is killed.
fn run_on(
    sandbox: &dyn Sandbox,
    input: &GenInput,
    sources: &[String],
    which: &[usize],
    tests: &[ScoredTest],
    known: &mut [Known],
) -> Result<Vec<bool>, Error> {
    if which.is_empty() {
        return Ok(Vec::new());
    }
    let subset: Vec<String> = which.iter().map(|&m| sources[m].clone()).collect();
    let mut their: Vec<Known> = which.iter().map(|&m| std::mem::take(&mut known[m])).collect();
    let found = kill_lists(sandbox, input, &subset, &[tests], &mut their);
    for (&m, k) in which.iter().zip(their) {
        known[m] = k;
    }
    Ok(found?.into_iter().map(|k| !k[0].is_empty()).collect())
}

/// Each mutant's (`sources`) killers in each suite, as indices into that
/// suite; one job serves every suite still alive for a mutant. Verdicts in
/// `known` (empty, or one per mutant) are not run again, and the new ones
/// join it.
fn kill_lists(
    sandbox: &dyn Sandbox,
    input: &GenInput,
    sources: &[String],
    suites: &[&[ScoredTest]],
    known: &mut [Known],
) -> Result<Vec<Vec<Vec<usize>>>, Error> {
    let (opts, cap) = (compare_options(&input.spec), validate_limits(&input.spec).wall);
    // The suites' union, each test tagged with its suite and its index there.
    let union: Vec<ScoredTest> = suites.iter().flat_map(|tests| tests.iter().cloned()).collect();
    let (suite_of, index_in): (Vec<usize>, Vec<usize>) =
        suites.iter().enumerate().flat_map(|(s, tests)| (0..tests.len()).map(move |i| (s, i))).unzip();
    let order = cheapest_first(&union);
    let keys: Vec<String> =
        if known.is_empty() { Vec::new() } else { union.iter().map(|t| args_key(&t.args)).collect() };
    let prior: Vec<Vec<(usize, bool)>> = known
        .iter()
        .map(|k| keys.iter().enumerate().filter_map(|(i, key)| k.get(key).map(|&kills| (i, kills))).collect())
        .collect();
    let found = kill_search(sandbox, sources, &union, &suite_of, &order, cap, &opts, &prior)?;
    for (k, f) in known.iter_mut().zip(&found) {
        k.extend(f.verdicts.iter().map(|&(i, kills)| (keys[i].clone(), kills)));
    }
    Ok(found
        .into_iter()
        .map(|f| f.killers.into_iter().map(|k| k.iter().map(|&i| index_in[i]).collect()).collect())
        .collect())
}

/// The random pool that judges equivalence, and each mutant's verdict on
/// it, kept for every step of one problem that asks: the survivors of a
/// suite's head, the bound's set-aside and the exact score then judge the
/// same mutant on the same pool once. Built on first use (a suite every
/// mutant dies on never needs it). Verdicts are kept by the mutant's
/// source, so mutants made again for a reduced suite find theirs.
#[derive(Default)]
pub struct EquivalencePool {
    pool: OnceLock<Vec<ScoredTest>>,
    /// Wrapped mutant source → whether the pool kills it.
    killed: Mutex<HashMap<String, bool>>,
}

impl EquivalencePool {
    /// The pool's inputs, built the first time.
    fn inputs(&self, python: &Path, sandbox: &dyn Sandbox, input: &GenInput) -> Result<&[ScoredTest], Error> {
        if let Some(pool) = self.pool.get() {
            return Ok(pool);
        }
        let built = input.phase("equivalence pool", || random_pool(python, sandbox, input, EQUIVALENCE_SEED, 1))?;
        Ok(self.pool.get_or_init(|| built))
    }

    /// How many inputs the pool holds (building it if need be).
    fn len(&self, python: &Path, sandbox: &dyn Sandbox, input: &GenInput) -> Result<usize, Error> {
        Ok(self.inputs(python, sandbox, input)?.len())
    }

    /// Marks in `unkilled` each of the mutants `which` (indices into
    /// `sources`, wrapped) that no pool input kills; a mutant judged before
    /// is not run again.
    fn judge(
        &self,
        python: &Path,
        sandbox: &dyn Sandbox,
        input: &GenInput,
        sources: &[String],
        which: &[usize],
        unkilled: &mut [bool],
    ) -> Result<(), Error> {
        // A verdict is a plain fact: one kept before a panic elsewhere is still true.
        let verdicts = || self.killed.lock().unwrap_or_else(PoisonError::into_inner);
        let verdict = |m: usize| verdicts().get(&sources[m]).copied();
        let new: Vec<usize> = which.iter().copied().filter(|&m| verdict(m).is_none()).collect();
        if !new.is_empty() {
            let pool = self.inputs(python, sandbox, input)?;
            let chosen: Vec<String> = new.iter().map(|&m| sources[m].clone()).collect();
            let found = input.phase("equivalence kills", || kill_lists(sandbox, input, &chosen, &[pool], &mut []))?;
            let mut killed = verdicts();
            for (source, killers) in chosen.into_iter().zip(found) {
                killed.insert(source, !killers[0].is_empty());
            }
        }
        for &m in which {
            unkilled[m] = verdict(m) == Some(false);
        }
        Ok(())
    }
}

/// Which of the mutants (`sources`, all of them) agree with the reference
/// on the equivalence pool; only those named in `survivors` are judged (the
/// pool is built only when there is one), the others are `false`.
fn equivalence(
    python: &Path,
    sandbox: &dyn Sandbox,
    input: &GenInput,
    pool: &EquivalencePool,
    sources: &[String],
    survivors: &[usize],
) -> Result<Vec<bool>, Error> {
    let mut equivalent = vec![false; sources.len()];
    pool.judge(python, sandbox, input, sources, survivors, &mut equivalent)?;
    Ok(equivalent)
}

/// A mutant's source wrapped like the reference's, ready to run.
fn mutant_source(input: &GenInput, has_valid: bool, mutant: &Mutant) -> String {
    wrap(&mutant.source, &input.entry_point, input.call_style, has_valid)
}

fn fate(killed: bool, equivalent: bool) -> Fate {
    match (killed, equivalent) {
        (true, _) => Fate::Killed,
        (false, true) => Fate::Equivalent,
        (false, false) => Fate::Survived,
    }
}

fn report(mutant: &Mutant, fate: Fate) -> MutantReport {
    MutantReport { kind: mutant.kind.clone(), line: mutant.line, diff: mutant.diff.clone(), fate }
}

/// For each mutant (`sources`, wrapped), the cheapest input of `pool` that
/// kills it, if any.
pub fn cheapest_killers(
    sandbox: &dyn Sandbox,
    input: &GenInput,
    sources: &[String],
    pool: &[ScoredTest],
) -> Result<Vec<Option<usize>>, Error> {
    let found = kill_lists(sandbox, input, sources, &[pool], &mut [])?;
    Ok(found
        .into_iter()
        // The pool is in cost order and the search ran in that order, so
        // its first killer is found whatever the machine's load.
        .map(|k| k[0].iter().copied().min())
        .collect())
}

/// The figures of `reports` (first-order mutants) for problem `name`.
pub fn tally(name: &str, reports: Vec<MutantReport>) -> Score {
    let set = SetScore::of(reports);
    Score {
        problem: name.into(),
        mutants: set.mutants,
        equivalent: set.equivalent,
        killed: set.killed,
        score: set.score,
        reports: set.reports,
        higher_order: None,
        alternative: None,
    }
}

/// `tests` with the reference's time filled in where it is unknown (0, as
/// for a problem.json's tests), so each job's limit fits its tests. Such a
/// test is kept only if the reference answers it with its expected value:
/// one outside the domain (`valid()` rejects it), or one the reference
/// fails or answers otherwise, would "kill" every mutant, the reference
/// included, and say nothing of the suite's strength.
fn with_reference_times(
    sandbox: &dyn Sandbox,
    input: &GenInput,
    has_valid: bool,
    tests: &[ScoredTest],
) -> Result<Vec<ScoredTest>, Error> {
    let unknown: Vec<usize> = (0..tests.len()).filter(|&i| tests[i].time_s <= 0.0).collect();
    if unknown.is_empty() {
        return Ok(tests.to_vec());
    }
    let source = wrap(&input.solution, &input.entry_point, input.call_style, has_valid);
    let inputs: Vec<Vec<Json>> = unknown.iter().map(|&i| tests[i].args.clone()).collect();
    let opts = compare_options(&input.spec);
    let mut timed: Vec<Option<ScoredTest>> = tests.iter().cloned().map(Some).collect();
    for (&i, run) in unknown.iter().zip(run_all(sandbox, &source, &inputs, validate_limits(&input.spec))?) {
        timed[i] = match run {
            Run::Value(v, cost) if same(&v, &tests[i].expected, &opts) => timed[i].take().map(|t| ScoredTest {
                time_s: cost.wall.as_secs_f64().max(1e-6),
                cost_s: cost.seconds(),
                ops: cost.ops,
                ..t
            }),
            _ => None,
        };
    }
    Ok(timed.into_iter().flatten().collect())
}

fn candidates_has_valid(solution: &str) -> bool {
    solution.lines().any(|l| l.starts_with("def valid("))
}

/// Test indices, cheapest first: most mutants die on a cheap test, and
/// each job's time limit follows its own tests (below). The cost is the
/// input's encoded size, not the reference's measured time, so the order,
/// and with it the killers a search finds, is the same on a loaded machine.
/// Timing-only tests (the stretched example) are left out: no mutant runs
/// them ([`ScoredTest::timing_only`]).
fn cheapest_first(tests: &[ScoredTest]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..tests.len()).filter(|&i| !tests[i].timing_only).collect();
    order.sort_by_cached_key(|&i| (args_key(&tests[i].args).len(), i));
    order
}

/// Reference cost (seconds, summed cheapest first; counted operations at
/// [`super::reference::OPS_PER_SECOND`], so the pool ends at the same input
/// on any load) of the pool inputs a survivor runs: the whole pool on a
/// typical problem, its cheap part where the reference is slow (every
/// survivor runs it, an equivalent one to the end). Measured on the HumanEval yardstick with ten times this budget:
/// no pool input that killed a mutant came after the first 0.05 s of its
/// pool, while equivalent mutants spent 150 s running pools to the end.
pub const POOL_BUDGET_S: f64 = 0.1;

/// The first inputs of `pool` (in cost order) whose reference costs
/// ([`ScoredTest::cost_s`], counted: the same pool on any load) sum to at
/// most `budget_s` (at least one).
fn affordable(mut pool: Vec<ScoredTest>, budget_s: f64) -> Vec<ScoredTest> {
    let mut spent = 0.0;
    let n = pool
        .iter()
        .take_while(|t| {
            spent += t.cost_s;
            spent <= budget_s
        })
        .count()
        .max(1);
    pool.truncate(n);
    pool
}

/// Seed offsets of the two random pools: the one that judges equivalence
/// in scoring and the one `tests gen` draws mutant-killing tests from, so a
/// score is never judged by the inputs its tests were picked from.
pub const EQUIVALENCE_SEED: u64 = 0x9e37_79b9;
pub const STRENGTHEN_SEED: u64 = 0x5851_f42d;

/// Per-call limit of the pools: an input the reference needs longer for is
/// left out (equivalence is judged, and tests picked, on cheap inputs), so
/// the pool is the same whichever suite is scored.
const POOL_CALL_LIMIT: Duration = Duration::from_millis(100);

/// A random input set (seed offset `seed` from the tests') with the
/// reference's values, to tell equivalent mutants from weak tests and to
/// draw mutant-killing tests from (`scale` times the usual ~300 random
/// inputs): the cheapest inputs, whose reference times sum to at most
/// [`POOL_BUDGET_S`]. Candidates run smallest first (by their encoded size)
/// and only until the budget is spent, so a slow reference is not run on
/// the hundreds of inputs the budget would leave out.
pub fn random_pool(
    python: &Path,
    sandbox: &dyn Sandbox,
    input: &GenInput,
    seed: u64,
    scale: usize,
) -> Result<Vec<ScoredTest>, Error> {
    let cands = input.phase("pool candidates", || {
        candidates(python, sandbox, input, Wanted::Pool { scale }, input.spec.seed.wrapping_add(seed))
    })?;
    let source = wrap(&input.solution, &input.entry_point, input.call_style, cands.has_valid);
    let mut drawn: Vec<(Vec<Json>, Option<String>)> = cands.list.into_iter().map(|c| (c.args, c.widened)).collect();
    // Shortest encoding first, then in text order: numbers of one length
    // run in increasing order, lists by length.
    drawn.sort_by_cached_key(|(args, _)| serde_json::to_string(args).map(|s| (s.len(), s)).unwrap_or_default());
    let (inputs, widened): (Vec<Vec<Json>>, Vec<Option<String>>) = drawn.into_iter().unzip();
    let limits = Limits { wall: POOL_CALL_LIMIT, cpu: POOL_CALL_LIMIT };
    let runs = run_within_budget(sandbox, &source, &inputs, limits, POOL_BUDGET_S)?;
    let pool = (inputs.into_iter().zip(widened))
        .zip(runs)
        .filter_map(|((args, widened), run)| match run {
            Run::Value(expected, cost) => Some(ScoredTest::answered(args, expected, cost, widened)),
            _ => None,
        })
        .collect();
    Ok(affordable(pool, POOL_BUDGET_S))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn counted(n: i64, ops: Option<u64>) -> ScoredTest {
        ScoredTest {
            args: vec![json!(n)],
            expected: Json::Null,
            time_s: 0.1,
            cost_s: 0.1,
            ops,
            timing_only: false,
            widened: None,
        }
    }

    /// The head is the cheapest tests (shortest input first) up to the
    /// operations' budget, plus every original test beyond it; a suite
    /// that fits, or whose operations are not counted, has none.
    #[test]
    fn the_head_is_the_cheap_tests_and_the_originals() {
        let big = Some(HEAD_OPS / 3);
        let tests: Vec<ScoredTest> = [1000, 1, 22, 333, 4444].iter().map(|&n| counted(n, big)).collect();
        let original: TestCase = serde_json::from_value(json!({"args": [4444], "expected": null})).expect("a test");
        let head = head_of(&tests, &[original]).expect("a head");
        let heads: Vec<&Json> = head.iter().map(|t| &t.args[0]).collect();
        assert_eq!(heads, [&json!(1), &json!(22), &json!(333), &json!(4444)]);
        assert!(head_of(&tests[..3], &[]).is_none(), "three tests fit the budget");
        let mut uncounted = tests.clone();
        uncounted[0].ops = None;
        assert!(head_of(&uncounted, &[]).is_none());
    }

    /// A tests.jsonl's time is read from a file: a negative or absurd one
    /// gives a cost, not a panic.
    #[test]
    fn a_files_odd_reference_time_gives_a_cost_not_a_panic() {
        let test = |reference_time_s: f64, reference_ops| GeneratedTest {
            category: flowbench_problem::problem::Category::Typical,
            args: vec![],
            expected: Json::Null,
            reference_time_s,
            reference_ops,
            how: String::new(),
            widened: None,
            shipped: true,
        };
        assert!(ScoredTest::from(&test(1e300, None)).cost_s > 1e9);
        assert_eq!(ScoredTest::from(&test(-1.0, None)).cost_s, 0.0);
        assert_eq!(ScoredTest::from(&test(0.001, Some(50_000))).cost_s, 0.01, "the count, when it is more");
    }

    /// The stretched example is kept for the time limit alone: no kill
    /// search runs it on a mutant.
    #[test]
    fn no_mutant_runs_the_stretched_example() {
        let test = |how: &str, n: usize| {
            ScoredTest::from(&GeneratedTest {
                category: flowbench_problem::problem::Category::Large,
                args: vec![json!(vec![1; n])],
                expected: Json::Null,
                reference_time_s: 0.0,
                reference_ops: None,
                how: how.into(),
                widened: None,
                shipped: true,
            })
        };
        let tests = [
            test("large: original test 1 repeated 75000 times (stretched)", 5),
            test("large: size 100000", 3),
            test("large: original test 1 repeated 625 times", 1),
        ];
        assert_eq!(cheapest_first(&tests), [2, 1]);
    }

    #[test]
    fn a_mutant_is_judged_on_the_pool_once() {
        use std::sync::atomic::{AtomicUsize, Ordering};
        /// Mutant `k`'s answer to `[k, x]` is `x`, or `x + 1` when its
        /// source says `wrong`; counts the calls.
        struct Mutants(AtomicUsize);
        impl Sandbox for Mutants {
            fn run_job(&self, job: &flowbench_exec::Job) -> flowbench_exec::Outcome {
                let flowbench_exec::Job::Calls { source, calls, .. } = job else { panic!("only calls") };
                let list = source.split("__fb_mutants__ = ").nth(1).and_then(|s| s.split("\n__fb_job_cap__").next());
                let mutants: Vec<String> = serde_json::from_str(list.expect("the dispatcher's list")).expect("json");
                let calls = calls
                    .texts()
                    .iter()
                    .map(|text| {
                        self.0.fetch_add(1, Ordering::SeqCst);
                        let args = &serde_json::from_str::<Json>(text).expect("a call")["args"];
                        let (k, x) = (args[0].as_u64().expect("k") as usize, args[1].as_i64().expect("x"));
                        let answer = if mutants[k].contains("wrong") { x + 1 } else { x };
                        flowbench_exec::CallOutcome {
                            status: flowbench_exec::Status::Completed,
                            value: Some(json!(["ok", answer])),
                            unencodable: None,
                            wall: Duration::from_micros(5),
                        }
                    })
                    .collect();
                flowbench_exec::Outcome {
                    status: flowbench_exec::Status::Completed,
                    calls,
                    runs: vec![],
                    stdout: String::new(),
                    stderr: String::new(),
                    wall: Duration::from_millis(1),
                }
            }
        }
        let pool = EquivalencePool {
            pool: OnceLock::from([1, 2].map(|n| ScoredTest { expected: json!(n), ..counted(n, Some(1)) }).to_vec()),
            ..Default::default()
        };
        let input = GenInput {
            dir: Default::default(),
            solution: String::new(),
            spec: Default::default(),
            spec_text: String::new(),
            originals_text: String::new(),
            originals: Vec::new(),
            entry_point: "f".into(),
            call_style: flowbench_exec::CallStyle::Function,
            constraints: String::new(),
        };
        let sandbox = Mutants(AtomicUsize::new(0));
        let sources = ["same".to_string(), "wrong".to_string()];
        let mut unkilled = [false; 2];
        let python = Path::new("python3");
        pool.judge(python, &sandbox, &input, &sources, &[0, 1], &mut unkilled).expect("judged");
        assert_eq!(unkilled, [true, false]);
        let calls = sandbox.0.load(Ordering::SeqCst);
        assert!(calls >= 3, "{calls} calls");
        // Judged again (the exact score after the survivors' step): no call.
        let mut again = [false; 2];
        pool.judge(python, &sandbox, &input, &sources, &[1, 0], &mut again).expect("judged");
        assert_eq!(again, [true, false]);
        assert_eq!(sandbox.0.load(Ordering::SeqCst), calls);
    }

    #[test]
    fn the_bound_judges_only_the_survivors_it_needs() {
        // 78 of 132 killed: 0.9 needs killed ÷ (132 − set aside) ≥ 0.9,
        // so 46 of the 54 survivors set aside; 8 may stay unjudged.
        let killed: Vec<bool> = (0..132).map(|m| m < 78).collect();
        let none = vec![false; 132];
        assert_eq!(fewest_more(&killed, &none, 0.9), 46);
        // 40 set aside already: 6 more.
        let some: Vec<bool> = (0..132).map(|m| (78..118).contains(&m)).collect();
        assert_eq!(fewest_more(&killed, &some, 0.9), 6);
        // Proven already.
        let all_killed = vec![true; 10];
        assert_eq!(fewest_more(&all_killed, &[false; 10], 0.9), 0);
        // Nothing killed: every survivor set aside is the only proof.
        assert_eq!(fewest_more(&[false; 5], &[false; 5], 0.9), 5);
    }
}
