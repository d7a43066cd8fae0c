//! Mutant-guided tests: after `generate`, the mutants the suite leaves
//! alive meet a second random pool (its own seed, so scoring's equivalence
//! pool stays an independent judge), and the cheapest pool input that kills
//! each one joins the suite, validated like every other test. A generated
//! suite thus kills every mutant random inputs can tell from the reference,
//! not only those its typical/edge/large inputs happen to reach.

use std::collections::HashSet;
use std::path::Path;

use rayon::prelude::*;

use crate::judge::problem::Category;
use crate::judge::run::Sandbox;

use super::generate::{Candidate, GenInput, Generated, validate};
use super::reference::wrap;
use super::score::{STRENGTHEN_SEED, ScoredTest, cheapest_killer, mutants, random_pool, survivors};

/// Pools tried at most.
const ROUNDS: u64 = 3;

/// Adds to `generated` a killing test for each surviving mutant that the
/// pool can kill; returns how many tests were added.
pub fn strengthen(python: &Path, sandbox: &dyn Sandbox, input: &GenInput, generated: &mut Generated) -> anyhow::Result<usize> {
    let mutants = mutants(python, input)?;
    let tests: Vec<ScoredTest> = generated
        .tests
        .iter()
        .map(|t| ScoredTest { args: t.args.clone(), expected: t.expected.clone(), time_s: t.reference_time_s })
        .collect();
    let alive = survivors(sandbox, input, &mutants, &tests)?;
    if alive.is_empty() {
        return Ok(0);
    }
    let mut seen: HashSet<String> = generated.tests.iter().map(|t| serde_json::to_string(&t.args).unwrap_or_default()).collect();
    let mut candidates = Vec::new();
    let mut alive = alive;
    // A mutant that one pool cannot tell apart may meet its input in the
    // next (another seed); few rounds, and only for the mutants still alive.
    for round in 0..ROUNDS {
        if alive.is_empty() {
            break;
        }
        let pool = random_pool(python, sandbox, input, STRENGTHEN_SEED.wrapping_add(round))?;
        let killers: Vec<Option<usize>> =
            alive.par_iter().map(|(_, source)| cheapest_killer(sandbox, input, source, &pool)).collect::<anyhow::Result<_>>()?;
        let mut still = Vec::new();
        for ((m, source), killer) in alive.into_iter().zip(killers) {
            let Some(k) = killer else {
                still.push((m, source));
                continue;
            };
            if !seen.insert(serde_json::to_string(&pool[k].args)?) {
                continue;
            }
            let mutant = &mutants[m];
            candidates.push(Candidate {
                category: Category::Typical,
                args: pool[k].args.clone(),
                how: format!(
                    "random, kills mutant (line {}, {})",
                    mutant["line"].as_u64().unwrap_or(0),
                    mutant["kind"].as_str().unwrap_or_default()
                ),
                expected: None,
            });
        }
        alive = still;
    }
    let source = wrap(&input.solution, &input.entry_point, input.call_style, generated.has_valid);
    let (kept, dropped) = validate(sandbox, &source, &input.spec, candidates)?;
    for (reason, n) in dropped {
        *generated.header.dropped.entry(reason).or_default() += n;
    }
    generated.header.typical += kept.len();
    let added = kept.len();
    generated.tests.extend(kept);
    Ok(added)
}
