//! From judged runs to the ablation table: pass@k per condition and
//! subset × difficulty, and paired deltas against the first condition.

use std::collections::BTreeMap;

use serde::Serialize;

use flowbench_judge::passk::mean_pass_at_k;
use flowbench_judge::records::Record;

use super::stats::{bootstrap_mean_ci, mcnemar_exact, sign_flip_test};

/// Seed of every resampling in a report (fixed: reports are reproducible).
pub const SEED: u64 = 0x666c_6f77_6265_6e63;
/// Bootstrap resamples per interval.
pub const BOOTSTRAP_RESAMPLES: usize = 10_000;
/// Sign-flip test: exact up to this many non-zero differences, else Monte Carlo.
pub const SIGN_FLIP_EXACT: usize = 20;
pub const SIGN_FLIP_RESAMPLES: usize = 20_000;

/// One problem's result under one condition.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TaskScore {
    pub subset: String,
    pub difficulty: Option<String>,
    /// Samples judged and samples passed.
    pub n: usize,
    pub c: usize,
    /// The first sample's verdict: what McNemar pairs (a single-sample run).
    pub first_passed: bool,
    /// The first sample's error class label, when it failed.
    pub first_error: Option<String>,
}

/// Task id → score, from one run's judged records (in input order).
pub fn task_scores(records: &[Record]) -> BTreeMap<String, TaskScore> {
    let mut out: BTreeMap<String, TaskScore> = BTreeMap::new();
    for r in records {
        let j = &r.judged;
        let score = out.entry(j.task_id.clone()).or_insert_with(|| TaskScore {
            subset: j.subset.clone().unwrap_or_else(|| flowbench_judge::summary::NO_SUBSET.to_string()),
            difficulty: j.difficulty.clone(),
            n: 0,
            c: 0,
            first_passed: j.verdict.passed,
            first_error: j.verdict.error_class.map(|e| e.label().to_string()),
        });
        score.n += 1;
        score.c += usize::from(j.verdict.passed);
    }
    out
}

/// A named condition and its scores.
#[derive(Debug, Clone)]
pub struct Run {
    pub name: String,
    pub scores: BTreeMap<String, TaskScore>,
}

/// pass@1 of one cell.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Cell {
    pub tasks: usize,
    /// Percent.
    pub pass_at_1: f64,
}

/// A condition's figures.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Condition {
    pub name: String,
    pub samples: usize,
    pub tasks: usize,
    /// `pass@k` → percent, for the k every task supports.
    pub pass_at_k: BTreeMap<String, f64>,
    /// subset → difficulty (or `all`) → cell; subset `all` is every problem.
    pub table: BTreeMap<String, BTreeMap<String, Cell>>,
    /// Error class label of failing first samples → problems.
    pub errors: BTreeMap<String, usize>,
}

/// A condition against the baseline on the problems both have.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Delta {
    /// Paired problems.
    pub tasks: usize,
    /// pass@1 difference, condition − baseline, percentage points.
    pub delta: f64,
    /// 95 % paired bootstrap interval of `delta`, percentage points.
    pub ci_low: f64,
    pub ci_high: f64,
    /// Exact McNemar p on the first samples.
    pub mcnemar_p: f64,
    /// Problems only the baseline / only this condition solved (first samples).
    pub only_baseline: usize,
    pub only_condition: usize,
    /// Sign-flip permutation p using every sample (equals McNemar at n = 1).
    pub paired_p: f64,
}

/// Every comparison of a report.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Ablation {
    /// Table columns: subset → its difficulties (plus `all`), display order.
    pub columns: Vec<(String, Vec<String>)>,
    pub conditions: Vec<Condition>,
    /// condition name (each after the first) → subset → difficulty → delta.
    pub deltas: BTreeMap<String, BTreeMap<String, BTreeMap<String, Delta>>>,
    /// The samples per problem used for the pass@k figures.
    pub ks: Vec<usize>,
    /// Per model, flowchart − signature (empty without `signature` runs;
    /// filled by [`super::signature::gaps`]).
    pub signature: Vec<super::signature::SignatureGap>,
    /// Per run, originals − their variants (empty without variants; filled
    /// by [`super::memorisation::gaps`]).
    pub memorisation: Vec<super::memorisation::MemorisationGap>,
    /// Per model, each condition against its `+cot` twin (filled by
    /// [`super::reasoning::pairs`]; left out of the JSON when empty).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub reasoning: Vec<super::reasoning::ReasoningPair>,
    /// Per cross-model two-step run, the coder on the reading against the
    /// coder on the true Mermaid (filled by [`super::coder::gaps`]).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub coders: Vec<super::coder::CoderGap>,
}

fn difficulty_rank(d: &str) -> (u8, &str) {
    (
        match d {
            "easy" => 0,
            "medium" => 1,
            "hard" => 2,
            "all" => 4,
            _ => 3,
        },
        d,
    )
}

/// Column order: subsets in the order of `order` (the bench's task order),
/// difficulties easy → hard then `all`; a final `all` subset.
fn columns(runs: &[Run], order: &[String]) -> Vec<(String, Vec<String>)> {
    let mut cols: Vec<(String, Vec<String>)> = Vec::new();
    let known = order.iter().filter_map(|id| runs.iter().find_map(|r| r.scores.get(id)));
    let rest = runs.iter().flat_map(|r| r.scores.values());
    for s in known.chain(rest) {
        let idx = match cols.iter().position(|(name, _)| *name == s.subset) {
            Some(i) => i,
            None => {
                cols.push((s.subset.clone(), vec!["all".to_string()]));
                cols.len() - 1
            }
        };
        if let Some(d) = &s.difficulty
            && !cols[idx].1.contains(d)
        {
            cols[idx].1.push(d.clone());
        }
    }
    for (_, diffs) in &mut cols {
        diffs.sort_by(|a, b| difficulty_rank(a).cmp(&difficulty_rank(b)));
    }
    if cols.len() > 1 {
        cols.push(("all".to_string(), vec!["all".to_string()]));
    }
    cols
}

fn in_cell(score: &TaskScore, subset: &str, difficulty: &str) -> bool {
    (subset == "all" || score.subset == subset)
        && (difficulty == "all" || score.difficulty.as_deref() == Some(difficulty))
}

/// Builds the ablation: the first run is the baseline. `order` is the
/// bench's task order (for column order only); `ks` the pass@k values.
pub fn compare_runs(runs: &[Run], order: &[String], ks: &[usize]) -> Ablation {
    let cols = columns(runs, order);
    let conditions = runs.iter().map(|r| condition(r, &cols, ks)).collect();
    let mut deltas = BTreeMap::new();
    if let Some((base, others)) = runs.split_first() {
        for run in others {
            let mut table: BTreeMap<String, BTreeMap<String, Delta>> = BTreeMap::new();
            for (subset, diffs) in &cols {
                for d in diffs {
                    let pairs: Vec<(&TaskScore, &TaskScore)> = base
                        .scores
                        .iter()
                        .filter(|(_, s)| in_cell(s, subset, d))
                        .filter_map(|(id, s)| run.scores.get(id).map(|o| (s, o)))
                        .collect();
                    if let Some(delta) = delta(&pairs) {
                        table.entry(subset.clone()).or_default().insert(d.clone(), delta);
                    }
                }
            }
            deltas.insert(run.name.clone(), table);
        }
    }
    Ablation {
        columns: cols,
        conditions,
        deltas,
        ks: ks.to_vec(),
        signature: Vec::new(),
        memorisation: Vec::new(),
        reasoning: Vec::new(),
        coders: Vec::new(),
    }
}

fn condition(run: &Run, cols: &[(String, Vec<String>)], ks: &[usize]) -> Condition {
    let all: Vec<(usize, usize)> = run.scores.values().map(|s| (s.n, s.c)).collect();
    let pass_at_k =
        ks.iter().filter_map(|&k| mean_pass_at_k(&all, k).map(|p| (format!("pass@{k}"), 100.0 * p))).collect();
    let mut table: BTreeMap<String, BTreeMap<String, Cell>> = BTreeMap::new();
    for (subset, diffs) in cols {
        for d in diffs {
            let cell: Vec<(usize, usize)> =
                run.scores.values().filter(|s| in_cell(s, subset, d)).map(|s| (s.n, s.c)).collect();
            if let Some(p) = mean_pass_at_k(&cell, 1) {
                table
                    .entry(subset.clone())
                    .or_default()
                    .insert(d.clone(), Cell { tasks: cell.len(), pass_at_1: 100.0 * p });
            }
        }
    }
    let mut errors = BTreeMap::new();
    for s in run.scores.values() {
        if let Some(e) = &s.first_error {
            *errors.entry(e.clone()).or_insert(0) += 1;
        }
    }
    Condition {
        name: run.name.clone(),
        samples: run.scores.values().map(|s| s.n).sum(),
        tasks: run.scores.len(),
        pass_at_k,
        table,
        errors,
    }
}

/// The paired comparison of (baseline, condition) scores.
pub fn delta(pairs: &[(&TaskScore, &TaskScore)]) -> Option<Delta> {
    if pairs.is_empty() {
        return None;
    }
    let diffs: Vec<f64> = pairs.iter().map(|(a, b)| b.c as f64 / b.n as f64 - a.c as f64 / a.n as f64).collect();
    let only_baseline = pairs.iter().filter(|(a, b)| a.first_passed && !b.first_passed).count();
    let only_condition = pairs.iter().filter(|(a, b)| !a.first_passed && b.first_passed).count();
    let mean = diffs.iter().sum::<f64>() / diffs.len() as f64;
    let (lo, hi) = bootstrap_mean_ci(&diffs, BOOTSTRAP_RESAMPLES, 0.95, SEED)?;
    Some(Delta {
        tasks: pairs.len(),
        delta: 100.0 * mean,
        ci_low: 100.0 * lo,
        ci_high: 100.0 * hi,
        mcnemar_p: mcnemar_exact(only_baseline as u64, only_condition as u64),
        only_baseline,
        only_condition,
        paired_p: sign_flip_test(&diffs, SIGN_FLIP_RESAMPLES, SIGN_FLIP_EXACT, SEED),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn score(subset: &str, diff: &str, n: usize, c: usize, first: bool) -> TaskScore {
        TaskScore {
            subset: subset.into(),
            difficulty: Some(diff.into()),
            n,
            c,
            first_passed: first,
            first_error: (!first).then(|| "wrong answer".into()),
        }
    }

    fn run(name: &str, scores: &[(&str, TaskScore)]) -> Run {
        Run { name: name.into(), scores: scores.iter().map(|(id, s)| (id.to_string(), s.clone())).collect() }
    }

    #[test]
    fn table_and_paired_delta() {
        let a = run(
            "flowchart",
            &[
                ("t1", score("A", "easy", 1, 1, true)),
                ("t2", score("A", "hard", 1, 0, false)),
                ("t3", score("B", "easy", 1, 1, true)),
            ],
        );
        let b = run(
            "mermaid",
            &[
                ("t1", score("A", "easy", 1, 1, true)),
                ("t2", score("A", "hard", 1, 1, true)),
                ("t3", score("B", "easy", 1, 0, false)),
            ],
        );
        let order = vec!["t3".to_string(), "t1".into(), "t2".into()];
        let ab = compare_runs(&[a, b], &order, &[1]);
        let names: Vec<&str> = ab.columns.iter().map(|(s, _)| s.as_str()).collect();
        assert_eq!(names, vec!["B", "A", "all"]);
        assert_eq!(ab.columns[1].1, vec!["easy", "hard", "all"]);
        assert_eq!(ab.conditions[0].table["A"]["all"].pass_at_1, 50.0);
        assert!((ab.conditions[0].table["all"]["all"].pass_at_1 - 200.0 / 3.0).abs() < 1e-9);
        let d = &ab.deltas["mermaid"]["all"]["all"];
        assert_eq!((d.tasks, d.only_baseline, d.only_condition, d.delta), (3, 1, 1, 0.0));
        assert_eq!((d.mcnemar_p, d.paired_p), (1.0, 1.0));
        assert!(d.ci_low < 0.0 && d.ci_high > 0.0);
        assert_eq!(ab.deltas["mermaid"]["A"]["all"].delta, 50.0);
    }
}
