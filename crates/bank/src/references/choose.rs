//! The reference chooser: from the candidates' runs on the same inputs,
//! the group of agreeing programs that may stand as the reference, or why
//! none may. Pure: no sandbox, no files (the runs are made by `mod.rs`).
//!
//! # How it works
//!
//! Every inspected sample has run on the *check inputs*: the original
//! tests' inputs, then the generated ones. Samples are grouped by
//! behaviour: a sample joins the first group (in the order given) with
//! every member of which it agrees on every check input. Two runs
//! disagree only when both returned a value and the values differ under
//! the problem's comparison: the generated inputs come from a domain
//! inferred from a few examples, so some lie outside the problem's (a
//! zero divisor), where a correct program may raise, loop or return
//! anything. The simplest member of the chosen group is the one that
//! raised on the fewest check inputs, then the shortest.
//!
//! Stage 1 looks at the *strict* candidates (they pass every original
//! test). A group is validated when it holds samples of at least
//! [`MIN_MODELS`] different models; the validated group with the most
//! models is the reference, and a tie is no reference (the evidence
//! disagrees). Only when no sample passes every original test does the
//! pool widen to samples that fail at most [`MAX_WRONG_TESTS`] of them
//! (stage 2): a group of at least [`MIN_MODELS_AGAINST_TESTS`] models
//! validated there is accepted, and the original tests
//! every member fails are the probable *wrong tests* of the benchmark.
//! Samples that fail original tests never outvote one that passes them.

use serde_json::Value as Json;

use flowbench_judge::compare::CompareOptions;
use flowbench_testgen::generate::same;
use flowbench_testgen::reference::Run;

/// Different models a group needs to be evidence.
pub const MIN_MODELS: usize = 2;

/// Most original tests a sample may fail and still be evidence in stage 2.
pub const MAX_WRONG_TESTS: usize = 2;

/// Different models a stage-2 group needs: overturning a recorded
/// expected value takes more evidence than confirming it. On the full
/// run, two models (gpt-4o and gemini-1.5-pro) failed the same two
/// LeetCode examples of `maximum-elegance-of-a-k-length-subsequence` with
/// the same wrong values, which two-model agreement took for wrong tests.
pub const MIN_MODELS_AGAINST_TESTS: usize = 3;

/// Inputs listed per disagreement (the report stays readable).
pub const MAX_DIFFERENCES: usize = 5;

/// One sample's runs.
#[derive(Debug, Clone)]
pub struct Trial {
    pub model: String,
    /// The standalone program run (what `solution.py` would be).
    pub source: String,
    /// Indices of the original tests it fails.
    pub failed: Vec<usize>,
    /// Runs on the check inputs, originals first; empty for a sample that
    /// was not run on them (it failed too many original tests).
    pub runs: Vec<Run>,
}

/// Where two groups' first members differ on one check input.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Difference {
    /// Index into the check inputs.
    pub input: usize,
    /// One entry per group: its models and what its first member gave.
    pub outputs: Vec<GroupOutput>,
}

#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct GroupOutput {
    pub models: Vec<String>,
    pub output: String,
}

/// Why no reference was chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Reason {
    /// No sample passes the original tests (nor all but a few).
    NoCandidate,
    /// The candidates that agree all come from one model.
    OneModel,
    /// Candidates disagree and no group has more models than every other
    /// (two lone candidates of different models included).
    Disagree,
}

/// The chooser's answer.
#[derive(Debug, Clone, PartialEq)]
pub enum Decision {
    Accepted {
        /// Index of the chosen trial (the simplest of the group).
        chosen: usize,
        /// Every trial of the group, in the given order.
        agreeing: Vec<usize>,
        /// Original tests every member fails (stage 2 only).
        wrong_tests: Vec<usize>,
        /// Where the other groups of the pool differ from it.
        differences: Vec<Difference>,
    },
    LeftOut {
        reason: Reason,
        differences: Vec<Difference>,
    },
}

/// Chooses among `trials` (sorted as the report should list them).
/// `size` gives each trial's size for "the simplest".
pub fn choose(trials: &[Trial], opts: &CompareOptions, size: impl Fn(&Trial) -> usize) -> Decision {
    let strict: Vec<usize> = (0..trials.len()).filter(|&i| trials[i].failed.is_empty()).collect();
    let wide: Vec<usize> = (0..trials.len())
        .filter(|&i| trials[i].failed.len() <= MAX_WRONG_TESTS && !trials[i].runs.is_empty())
        .collect();
    // Samples failing original tests are evidence only when none passes
    // them all: otherwise they would outvote the programs that pass.
    let pool = if strict.is_empty() { wide } else { strict.clone() };
    if pool.is_empty() {
        return Decision::LeftOut { reason: Reason::NoCandidate, differences: Vec::new() };
    }
    let groups = group(trials, &pool, opts);
    let min_models = if strict.is_empty() { MIN_MODELS_AGAINST_TESTS } else { MIN_MODELS };
    match pick(trials, &groups, min_models) {
        Ok(winner) => accept(trials, &groups, winner, opts, &size),
        Err(reason) => Decision::LeftOut { reason, differences: differences(trials, &groups, opts) },
    }
}

fn accept(
    trials: &[Trial],
    groups: &[Vec<usize>],
    winner: usize,
    opts: &CompareOptions,
    size: &impl Fn(&Trial) -> usize,
) -> Decision {
    let agreeing = groups[winner].clone();
    let chosen = agreeing
        .iter()
        .copied()
        .min_by_key(|&i| (failures(&trials[i]), size(&trials[i]), trials[i].model.clone()))
        .unwrap_or(agreeing[0]);
    let wrong_tests = trials[chosen]
        .failed
        .iter()
        .copied()
        .filter(|t| agreeing.iter().all(|&i| trials[i].failed.contains(t)))
        .collect();
    // The winner first, so each difference shows the reference's output first.
    let mut ordered = vec![groups[winner].clone()];
    ordered.extend(groups.iter().enumerate().filter(|(g, _)| *g != winner).map(|(_, m)| m.clone()));
    Decision::Accepted { chosen, agreeing, wrong_tests, differences: differences(trials, &ordered, opts) }
}

/// The pool's trials grouped by behaviour (see the module docs).
fn group(trials: &[Trial], pool: &[usize], opts: &CompareOptions) -> Vec<Vec<usize>> {
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for &i in pool {
        match groups.iter_mut().find(|g| g.iter().all(|&j| agree_all(&trials[j], &trials[i], opts))) {
            Some(g) => g.push(i),
            None => groups.push(vec![i]),
        }
    }
    groups
}

fn agree_all(a: &Trial, b: &Trial, opts: &CompareOptions) -> bool {
    a.runs.len() == b.runs.len() && a.runs.iter().zip(&b.runs).all(|(x, y)| agree(x, y, opts))
}

/// Whether two runs on one input do not contradict each other.
pub fn agree(a: &Run, b: &Run, opts: &CompareOptions) -> bool {
    match (a, b) {
        (Run::Value(x, _), Run::Value(y, _)) => same(x, y, opts),
        _ => true,
    }
}

/// Check inputs on which a trial raised or returned no plain value (a
/// timeout or an input not run depends on the machine's load, so it does
/// not count: the choice stays the same from run to run).
fn failures(t: &Trial) -> usize {
    t.runs.iter().filter(|r| matches!(r, Run::Raised(_) | Run::Invalid | Run::Unencodable(_))).count()
}

/// The validated group with the most models, or why there is none.
fn pick(trials: &[Trial], groups: &[Vec<usize>], min_models: usize) -> Result<usize, Reason> {
    let models = |g: &Vec<usize>| {
        let mut m: Vec<&str> = g.iter().map(|&i| trials[i].model.as_str()).collect();
        m.sort_unstable();
        m.dedup();
        m.len()
    };
    let counts: Vec<usize> = groups.iter().map(models).collect();
    let best = counts.iter().copied().max().unwrap_or(0);
    if best < min_models {
        return Err(if groups.len() > 1 { Reason::Disagree } else { Reason::OneModel });
    }
    let mut at_best = counts.iter().enumerate().filter(|(_, c)| **c == best);
    match (at_best.next(), at_best.next()) {
        (Some((g, _)), None) => Ok(g),
        _ => Err(Reason::Disagree),
    }
}

/// The first check inputs where the groups' first members do not all
/// agree, each with every group's output.
fn differences(trials: &[Trial], groups: &[Vec<usize>], opts: &CompareOptions) -> Vec<Difference> {
    if groups.len() < 2 {
        return Vec::new();
    }
    let heads: Vec<&Trial> = groups.iter().map(|g| &trials[g[0]]).collect();
    let inputs = heads.iter().map(|t| t.runs.len()).min().unwrap_or(0);
    (0..inputs)
        .filter(|&k| heads.windows(2).any(|w| !agree(&w[0].runs[k], &w[1].runs[k], opts)))
        .take(MAX_DIFFERENCES)
        .map(|k| Difference {
            input: k,
            outputs: groups
                .iter()
                .map(|g| GroupOutput {
                    models: g.iter().map(|&i| trials[i].model.clone()).collect(),
                    output: show(&trials[g[0]].runs[k]),
                })
                .collect(),
        })
        .collect()
}

/// A run as the report shows it (long values cut).
pub fn show(run: &Run) -> String {
    let text = match run {
        Run::Value(v, _) => shown_value(v),
        Run::Invalid => "rejected by valid()".into(),
        Run::Raised(why) => format!("raised {}", why.lines().next().unwrap_or_default()),
        Run::TimedOut => "timed out".into(),
        Run::Unencodable(why) => format!("not a plain value ({why})"),
        Run::NotRun => "not run".into(),
    };
    cut(&text, 200)
}

/// A tagged value in Python's notation (JSON when it does not decode).
pub fn shown_value(v: &Json) -> String {
    flowbench_judge::value::Value::decode(v).map_or_else(|_| v.to_string(), |x| x.repr_truncated(200))
}

fn cut(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((i, _)) => format!("{}…", &text[..i]),
        None => text.to_string(),
    }
}

#[cfg(test)]
mod tests;
