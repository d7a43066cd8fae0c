//! Differential strength: a suite scored not only by the first-order
//! mutants it kills (one typo each, which a suite can kill to the last and
//! still miss half of the mistakes real models make) but by two more sets
//! of plausible wrong programs:
//!
//! - **higher-order** mutants: two first-order mutants at disjoint sites
//!   applied together, a seeded sample (the spec's `seed`) of at most
//!   60 pairs a problem;
//! - **alternative-algorithm** mutants: operators that imitate a whole
//!   wrong approach (a loop bound off by one with the comparison changed to
//!   match, an empty-input guard lost, integer division through floats,
//!   sorting without its key, neighbours compared the wrong way round, an
//!   accumulator started at 0; `wrong_programs.py` documents each).
//!
//! These sets are for scoring only: `tests gen` picks and strengthens tests
//! with the first-order mutants alone (`score::mutants`), so its output
//! does not depend on them.
//!
//! # How it works
//!
//! `wrong_programs.py` makes both sets (a program that compiles to the
//! bytecode of the reference, of a first-order mutant or of an earlier one
//! of its set is left out). [`score_differential`] appends them to the
//! first-order mutants and scores the whole list in one `score_suites` run,
//! so each set is judged by exactly the first-order rule: a mutant is
//! killed when a test of the suite tells it from the reference, and is
//! *likely equivalent*, not counted, when it survives the suite and also
//! agrees with the reference on every input of the separate random pool
//! (`score::random_pool`, the equivalence seed). The reports are then split
//! back into the three sets' figures.

use std::path::Path;

use serde::Serialize;

use flowbench_problem::sandbox::Sandbox;

use super::Error;
use super::generate::GenInput;
use super::python::{Mutant, WrongPrograms, WrongProgramsRequest};
use super::score::{EquivalencePool, Score, SetScore, Suite, score_suites};

/// Higher-order mutants sampled per problem: enough for a score to two
/// decimals on a typical problem, few enough that scoring stays within twice
/// its first-order time.
pub const HIGHER_ORDER_CAP: usize = 60;

/// The higher-order and alternative-algorithm mutants of `input`'s
/// reference; an unparseable solution is an error naming the file.
pub fn wrong_programs(python: &Path, input: &GenInput) -> Result<WrongPrograms, Error> {
    let request = WrongProgramsRequest {
        mutants: super::score::mutants_request(input),
        seed: input.spec.seed,
        cap: HIGHER_ORDER_CAP,
    };
    super::python::wrong_programs(python, request).map_err(|e| Error::from_helper(&input.dir, e))
}

/// Scores `suites` against the first-order mutants (`first_order`, as
/// `score::mutants` made them) and the wrong programs: one [`Score`] per
/// suite, its first-order figures exactly those `score_suites` gives alone
/// (each mutant is judged on its own), with `higher_order` and
/// `alternative` filled in.
pub fn score_differential(
    python: &Path,
    sandbox: &dyn Sandbox,
    input: &GenInput,
    name: &str,
    first_order: &[Mutant],
    suites: &[Suite],
) -> Result<Vec<Score>, Error> {
    let wrong = wrong_programs(python, input)?;
    let all: Vec<Mutant> = first_order.iter().chain(&wrong.higher_order).chain(&wrong.alternative).cloned().collect();
    let scores = score_suites(python, sandbox, input, &all, name, suites, &mut [], &EquivalencePool::default())?;
    Ok(scores.into_iter().map(|s| split(s, first_order.len(), wrong.higher_order.len())).collect())
}

/// A score over the concatenated sets, split back into the first `first`
/// reports (first-order), the next `higher` and the rest.
fn split(score: Score, first: usize, higher: usize) -> Score {
    let mut reports = score.reports;
    let mut rest = reports.split_off(first.min(reports.len()));
    let alternative = rest.split_off(higher.min(rest.len()));
    Score {
        higher_order: Some(SetScore::of(rest)),
        alternative: Some(SetScore::of(alternative)),
        ..super::score::tally(&score.problem, reports)
    }
}

/// One set's figures summed over problems.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct Totals {
    pub mutants: usize,
    pub equivalent: usize,
    pub killed: usize,
    /// Killed ÷ non-equivalent over all problems (pooled, not a mean of
    /// per-problem scores, so a problem with many mutants weighs more).
    pub score: f64,
}

impl Totals {
    fn add(&mut self, mutants: usize, equivalent: usize, killed: usize) {
        self.mutants += mutants;
        self.equivalent += equivalent;
        self.killed += killed;
        let live = self.mutants - self.equivalent;
        self.score = if live == 0 { 1.0 } else { self.killed as f64 / live as f64 };
    }
}

/// Figures over every problem scored with one suite: `tests score`'s
/// closing line.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Overall {
    pub problems: usize,
    pub first_order: Totals,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub higher_order: Option<Totals>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub alternative: Option<Totals>,
}

impl Overall {
    /// Counts one problem's score in.
    pub fn add(&mut self, s: &Score) {
        self.problems += 1;
        self.first_order.add(s.mutants, s.equivalent, s.killed);
        for (total, set) in [(&mut self.higher_order, &s.higher_order), (&mut self.alternative, &s.alternative)] {
            if let Some(set) = set {
                total.get_or_insert_with(Totals::default).add(set.mutants, set.equivalent, set.killed);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::score::{Fate, MutantReport, tally};

    fn report(fate: Fate) -> MutantReport {
        MutantReport { kind: String::new(), line: 1, diff: String::new(), fate }
    }

    #[test]
    fn a_score_splits_into_its_three_sets() {
        use Fate::*;
        let all = [Killed, Survived, Killed, Equivalent, Survived, Killed, Killed].map(report).to_vec();
        let s = split(tally("p", all), 2, 3);
        assert_eq!((s.mutants, s.killed, s.equivalent), (2, 1, 0));
        let h = s.higher_order.as_ref().unwrap();
        assert_eq!((h.mutants, h.killed, h.equivalent, h.score), (3, 1, 1, 0.5));
        let a = s.alternative.as_ref().unwrap();
        assert_eq!((a.mutants, a.killed, a.score), (2, 2, 1.0));
    }

    #[test]
    fn overall_pools_killed_over_live_mutants() {
        use Fate::*;
        let mut overall = Overall::default();
        overall.add(&split(tally("a", [Killed, Killed, Survived].map(report).to_vec()), 1, 1));
        overall.add(&split(tally("b", [Killed, Equivalent, Killed, Killed].map(report).to_vec()), 2, 2));
        assert_eq!(overall.problems, 2);
        assert_eq!(overall.first_order, Totals { mutants: 3, equivalent: 1, killed: 2, score: 1.0 });
        assert_eq!(overall.higher_order, Some(Totals { mutants: 3, equivalent: 0, killed: 3, score: 1.0 }));
        assert_eq!(overall.alternative, Some(Totals { mutants: 1, equivalent: 0, killed: 0, score: 0.0 }));
    }
}
