//! The cheap first look at a candidate: one sandbox job on the original's
//! own test inputs, before the costly test generation.

use std::collections::HashMap;
use std::path::Path;
use std::time::Duration;

use serde_json::Value as Json;

use super::error::VariantError;
use flowbench_bank::ProblemDir;
use flowbench_exec::Limits;
use flowbench_judge::problem::Category;
use flowbench_judge::run::Sandbox;
use flowbench_testgen::generate::{GenInput, args_key, compare_options, same, validate_limits};
use flowbench_testgen::reference::{Cost, Run, run_within_budget_batched, wrap};
use flowbench_testgen::tests_file::{self, GeneratedTest, Header, TESTS};

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
    /// A whole program (stdin to stdout) rather than a function.
    pub fn is_program(&self) -> bool {
        self.input.entry_point == flowbench_testgen::reference::PROGRAM
    }

    /// Reads a problem directory with generated tests; errors name the file.
    pub fn load(dir: &Path) -> Result<Original, VariantError> {
        let input = flowbench_bank::spec::gen_input(&ProblemDir::read(dir))?;
        let (header, tests) = tests_file::read(&dir.join(TESTS))?;
        let name = dir.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let fresh = header.stamp == tests_file::stamp(&input.solution, &input.spec_text, &input.originals_text);
        let recorded = if fresh {
            tests
                .iter()
                .map(|t| (args_key(&t.args), Run::Value(t.expected.clone(), Cost::wall(Duration::ZERO))))
                .collect()
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

/// A later group of the screen's inputs takes none whose own limit is more
/// than this many times the group's first one's (see [`screen_groups`]).
const GROUP_SPREAD: f64 = 4.0;

/// The per-call limit for inputs whose slowest reference time is
/// `slowest`: [`SLOWER`] times it, at least the floors, at most the
/// validation limit `most`.
fn call_limits(slowest: f64, most: Limits) -> Limits {
    let limit = |floor: f64, most: Duration| Duration::from_secs_f64((SLOWER * slowest).max(floor)).min(most);
    Limits { wall: limit(LEAST_CALL_S, most.wall), cpu: limit(LEAST_CALL_CPU_S, most.cpu) }
}

/// The screen's total budget: [`SLOWER`] times the original's total time.
fn screen_budget(tests: &[&GeneratedTest]) -> f64 {
    (SLOWER * tests.iter().map(|t| t.reference_time_s).sum::<f64>()).max(LEAST_BUDGET_S)
}

/// The screen's inputs (indices into `tests`) in the groups it runs them
/// in, one job each, cheapest first: the [`SCREEN_FIRST`] cheapest, then
/// the rest, cut where an input's own limit would exceed [`GROUP_SPREAD`]
/// times its group's first input's. A group's per-call limit follows its
/// own slowest input, not the suite's: a candidate whose loop bound became
/// linear in a number (`d * d <= n` → `d + d <= n`) is stopped on a large
/// number after fifty times the original's time on that input, not after
/// the seconds the suite's slowest input allows.
fn screen_groups(tests: &[&GeneratedTest], most: Limits) -> Vec<(Vec<usize>, Limits)> {
    let time = |i: usize| tests[i].reference_time_s;
    let mut order: Vec<usize> = (0..tests.len()).collect();
    order.sort_by(|&a, &b| time(a).total_cmp(&time(b)).then(a.cmp(&b)));
    let first = SCREEN_FIRST.min(order.len());
    let mut groups: Vec<Vec<usize>> = vec![order[..first].to_vec()];
    let mut head: Option<Duration> = None;
    for &i in &order[first..] {
        let limit = call_limits(time(i), most).wall;
        match (head, groups.last_mut()) {
            (Some(h), Some(group)) if limit.as_secs_f64() <= h.as_secs_f64() * GROUP_SPREAD => group.push(i),
            _ => {
                groups.push(vec![i]);
                head = Some(limit);
            }
        }
    }
    groups
        .into_iter()
        .filter(|g| !g.is_empty())
        .map(|g| {
            let slowest = g.iter().map(|&i| time(i)).fold(0.0, f64::max);
            (g, call_limits(slowest, most))
        })
        .collect()
}

/// The candidate's runs on `inputs` (one per test of `tests`), group by
/// group ([`screen_groups`]), each only when every earlier one gave values
/// (else the rest are [`Run::NotRun`]: the candidate is not total whatever
/// they give). Each group gets its share of the budget, by its count.
fn screen_runs(
    sandbox: &dyn Sandbox,
    program: &str,
    inputs: &[Vec<Json>],
    tests: &[&GeneratedTest],
    most: Limits,
) -> Result<Vec<Run>, VariantError> {
    let budget_s = screen_budget(tests);
    let share = |n: usize| budget_s * n as f64 / inputs.len().max(1) as f64;
    let mut runs = vec![Run::NotRun; inputs.len()];
    for (group, limits) in screen_groups(tests, most) {
        let args: Vec<Vec<Json>> = group.iter().map(|&i| inputs[i].clone()).collect();
        let got = run_within_budget_batched(sandbox, program, &args, limits, share(group.len()))?;
        let total = got.iter().all(|r| matches!(r, Run::Value(..)));
        for (i, run) in group.into_iter().zip(got) {
            runs[i] = run;
        }
        if !total {
            break;
        }
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
) -> Result<Result<Screened, Rejected>, VariantError> {
    let tests: Vec<&GeneratedTest> =
        original.tests.iter().filter(|t| t.category != Category::Large).take(SCREEN_INPUTS).collect();
    let inputs: Vec<Vec<Json>> = tests.iter().map(|t| t.args.clone()).collect();
    let input = &original.input;
    let program = wrap(source, &input.entry_point, input.call_style, false);
    // Stops a chunk at its first timeout and the whole run at the budget:
    // what is not run is as good as a timeout here.
    let runs = screen_runs(sandbox, &program, &inputs, &tests, validate_limits(&input.spec))?;
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

#[cfg(test)]
mod tests {
    use super::*;

    fn test(reference_time_s: f64) -> GeneratedTest {
        GeneratedTest {
            category: Category::Typical,
            args: vec![],
            expected: Json::Null,
            reference_time_s,
            reference_ops: None,
            how: String::new(),
            widened: None,
            shipped: true,
        }
    }

    #[test]
    fn the_screen_runs_cheapest_first_each_group_under_its_own_limit() {
        let most = Limits { wall: Duration::from_secs(2), cpu: Duration::from_secs(2) };
        // 20 quick inputs (0.1 ms), then ones of 10 ms and 30 ms, listed
        // slowest first.
        let mut owned: Vec<GeneratedTest> = vec![test(0.03), test(0.01)];
        owned.extend((0..20).map(|_| test(0.0001)));
        let tests: Vec<&GeneratedTest> = owned.iter().collect();
        let groups = screen_groups(&tests, most);
        let flat: Vec<usize> = groups.iter().flat_map(|(g, _)| g.iter().copied()).collect();
        assert_eq!(flat.len(), tests.len(), "every input once");
        assert_eq!(groups[0].0, (2..18).collect::<Vec<_>>(), "the 16 cheapest first");
        assert_eq!(groups[0].1, call_limits(0.0001, most), "the floors");
        // The other quick inputs with the 10 ms one (its 0.5 s limit is
        // within 4 × the 0.25 s floor), then the 30 ms one (1.5 s is not).
        assert_eq!(groups[1].0, vec![18, 19, 20, 21, 1]);
        assert_eq!(groups[1].1.wall, Duration::from_secs_f64(0.5));
        assert_eq!(groups[2].0, vec![0]);
        assert_eq!(groups[2].1.wall, Duration::from_secs_f64(1.5));
        // A looping candidate meets 0.25 s on a quick input, not the 2 s
        // the slowest would allow.
        assert!(groups.iter().all(|(_, l)| l.wall <= most.wall));
    }
}
