//! Mutant-guided tests: after `generate`, the mutants the suite leaves
//! alive meet a second random pool (its own seed, so scoring's equivalence
//! pool stays an independent judge, and three times its size), and the
//! cheapest pool input that kills each one joins the suite, validated like
//! every other test. A generated suite thus kills every mutant random
//! inputs can tell from the reference, not only those its
//! typical/edge/large inputs happen to reach.

use std::collections::{HashMap, HashSet};
use std::path::Path;

use flowbench_problem::problem::Category;
use flowbench_problem::sandbox::Sandbox;

use super::Error;
use super::generate::{Candidate, GenInput, Generated, Validated, args_key, validate};
use super::python::Mutant;
use super::reference::wrap;
use super::score::{
    EquivalencePool, Known, STRENGTHEN_SEED, ScoredTest, Survivors, cheapest_killers, mutants, random_pool, survivors,
};

/// The pool's size, in scoring pools: on the HumanEval yardstick one
/// scoring-sized pool left some mutants alive that a second or third (other
/// seeds) killed.
const POOL_SCALE: usize = 3;

/// What the mutant-guided step did.
#[derive(Debug, Clone)]
pub struct Strengthened {
    /// Tests added to the suite.
    pub added: usize,
    /// The reference's mutants (as `score::mutants` makes them).
    pub mutants: Vec<Mutant>,
    /// The mutants (indices) the final suite leaves alive: every other one
    /// is killed by a generated test or by an added one.
    pub alive: Vec<usize>,
    /// Each mutant's verdicts on the generated tests it ran, for scoring
    /// other suites that share inputs with them (the original tests).
    pub known: Vec<Known>,
}

/// Adds to `generated` a killing test for each surviving mutant that the
/// pool can kill.
pub fn strengthen(
    python: &Path,
    sandbox: &dyn Sandbox,
    input: &GenInput,
    generated: &mut Generated,
    pool: &EquivalencePool,
) -> Result<Strengthened, Error> {
    let mutants = input.phase("mutants", || mutants(python, input))?;
    let tests: Vec<ScoredTest> = generated.tests.iter().map(ScoredTest::from).collect();
    let found = input.phase("survivors", || survivors(python, sandbox, input, &mutants, &tests, pool))?;
    strengthen_survivors(python, sandbox, input, generated, mutants, found)
}

/// [`strengthen`] once the suite's survivors among `mutants` are known.
pub fn strengthen_survivors(
    python: &Path,
    sandbox: &dyn Sandbox,
    input: &GenInput,
    generated: &mut Generated,
    mutants: Vec<Mutant>,
    found: Survivors,
) -> Result<Strengthened, Error> {
    let Survivors { alive, known } = found;
    if alive.is_empty() {
        return Ok(Strengthened { added: 0, mutants, alive: Vec::new(), known });
    }
    let existing: HashSet<String> = generated.tests.iter().map(|t| args_key(&t.args)).collect();
    // Each candidate input, with the mutants it was picked to kill.
    let mut targets: HashMap<String, Vec<usize>> = HashMap::new();
    let mut unkillable = Vec::new();
    let mut candidates = Vec::new();
    let pool = input.phase("strengthen pool", || random_pool(python, sandbox, input, STRENGTHEN_SEED, POOL_SCALE))?;
    let sources: Vec<String> = alive.iter().map(|(_, source)| source.clone()).collect();
    let killers = input.phase("strengthen kills", || cheapest_killers(sandbox, input, &sources, &pool))?;
    let mut still = Vec::new();
    for ((m, _), killer) in alive.into_iter().zip(killers) {
        let Some(k) = killer else {
            still.push(m);
            continue;
        };
        let key = args_key(&pool[k].args);
        if existing.contains(&key) {
            // Already a test that did not kill it (a timing verdict):
            // counted alive, as scoring would find it.
            unkillable.push(m);
            continue;
        }
        if let Some(also) = targets.get_mut(&key) {
            also.push(m);
            continue;
        }
        targets.insert(key, vec![m]);
        let mutant = &mutants[m];
        candidates.push(Candidate {
            category: Category::Typical,
            args: pool[k].args.clone(),
            how: format!("random, kills mutant (line {}, {})", mutant.line, mutant.kind),
            expected: None,
            widened: pool[k].widened.clone(),
        });
    }
    let source = wrap(&input.solution, &input.entry_point, input.call_style, generated.has_valid);
    let Validated { kept, dropped, .. } = validate(sandbox, &source, &input.spec, candidates)?;
    for (reason, n) in dropped {
        *generated.header.dropped.entry(reason).or_default() += n;
    }
    for t in &kept {
        targets.remove(&args_key(&t.args));
    }
    // Alive: no killer found, a killer already among the tests, or a killer
    // that failed validation.
    let mut alive: Vec<usize> = still.into_iter().chain(unkillable).chain(targets.into_values().flatten()).collect();
    alive.sort_unstable();
    generated.header.typical += kept.len();
    let added = kept.len();
    generated.tests.extend(kept);
    Ok(Strengthened { added, mutants, alive, known })
}
