//! Summaries of a results file: pass@k (unbiased estimator), the test-case
//! average (MMCode's Table 7), pass@1 per model × subset × difficulty in the
//! layout of Code-Vision's Table 2, the error taxonomy (Figure 5), timing,
//! and agreement with verdicts recorded in the samples (when present).
//! Rendered as Markdown by [`super::summary_md`].

use std::collections::BTreeMap;

use serde::Serialize;
use serde_json::Value as Json;

use super::passk::mean_pass_at_k;
use super::records::Record;
use super::verdict::{Class, ErrorClass, Verdict};

/// Which failure classes ([`Class`]) the headline figures (pass@k, the
/// table, `passed`) count as passed: none (strict, the default), `slow`
/// (without slow), or `slow` and `widened` (within the statement). The
/// three are nested, as a `widened` sample may be slow too: `widened`
/// alone is refused.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counting {
    pub slow: bool,
    pub widened: bool,
}

/// A `--count` value that names no valid [`Counting`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CountingError {
    #[error("--count {0:?}: not a failure class that can count as passed (slow, widened; or strict for none)")]
    Unknown(String),
    #[error("--count widened: counts only together with slow (a widened sample may be slow too): use slow,widened")]
    WidenedWithoutSlow,
}

impl Counting {
    /// Reads `strict` (or nothing) or a comma-separated list of `slow`
    /// and `widened`.
    pub fn parse(text: &str) -> Result<Counting, CountingError> {
        let mut counting = Counting::default();
        for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            match part {
                "strict" | "none" => {}
                "slow" => counting.slow = true,
                "widened" => counting.widened = true,
                other => return Err(CountingError::Unknown(other.to_string())),
            }
        }
        if counting.widened && !counting.slow {
            return Err(CountingError::WidenedWithoutSlow);
        }
        Ok(counting)
    }

    /// The classes counted as passed, as the summary records them.
    pub fn labels(self) -> Vec<String> {
        let mut out = Vec::new();
        if self.slow {
            out.push(Class::Slow.label().to_string());
        }
        if self.widened {
            out.push(Class::Widened.label().to_string());
        }
        out
    }

    /// The headline's name for this counting.
    pub fn name(self) -> &'static str {
        match (self.slow, self.widened) {
            (false, _) => "strict",
            (true, false) => "without slow",
            (true, true) => "within the statement",
        }
    }

    /// Whether `verdict` counts as passed.
    pub fn counts(self, verdict: &Verdict) -> bool {
        verdict.passed
            || match verdict.class {
                Some(Class::Slow) => self.slow,
                Some(Class::Widened) => self.widened,
                _ => false,
            }
    }
}

/// pass@1 three ways (percent, the mean over tasks of each task's share of
/// samples counted passed): strict, without `slow`, and within the
/// statement (without `slow` and `widened`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct ThreeWays {
    pub strict: f64,
    pub without_slow: f64,
    pub within_statement: f64,
}

/// The three countings of [`ThreeWays`], in its order.
const THREE_WAYS: [Counting; 3] = [
    Counting { slow: false, widened: false },
    Counting { slow: true, widened: false },
    Counting { slow: true, widened: true },
];

/// One table cell: pass@1 over the tasks of a subset × difficulty.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Cell {
    /// Sum over tasks of c/n (the number of passed tasks when n = 1).
    pub passed: f64,
    pub tasks: usize,
    /// Percent.
    pub pass_at_1: f64,
}

/// Per-model figures.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ModelSummary {
    pub samples: usize,
    pub tasks: usize,
    /// `pass@k` → percent, for every requested k that all tasks support.
    pub pass_at_k: BTreeMap<String, f64>,
    /// Mean fraction of tests passed per sample (native samples only), percent.
    pub test_case_average: Option<f64>,
    /// subset → difficulty (or `all`) → cell.
    pub table: BTreeMap<String, BTreeMap<String, Cell>>,
    /// Mean of the subset `all` cells (Code-Vision's Avg.), percent.
    pub average: Option<f64>,
    /// Error class label → samples.
    pub errors: BTreeMap<String, usize>,
    /// Failure class label ([`Class`]) → samples, of the samples that have one.
    pub classes: BTreeMap<String, usize>,
    /// pass@1 three ways, when some sample has a class.
    pub pass_at_1_three_ways: Option<ThreeWays>,
}

/// A sample whose verdict differs from the one recorded in its input.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Disagreement {
    pub model: String,
    pub task_id: String,
    pub recorded: String,
    pub judged: String,
    pub time_s: f64,
}

/// Verdicts vs. the samples' recorded `passed`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Agreement {
    pub compared: usize,
    pub agree: usize,
    pub percent: f64,
    pub disagreements: Vec<Disagreement>,
}

/// Everything the summary reports.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Summary {
    /// The failure classes the headline figures (`passed`, pass@k, the
    /// table) count as passed ([`Counting`]): empty for strict.
    pub counted_as_passed: Vec<String>,
    /// The headline's counting by name (`strict`, `without slow`, `within
    /// the statement`).
    pub headline: String,
    pub samples: usize,
    /// Samples counted passed under [`Summary::counted_as_passed`].
    pub passed: usize,
    /// Mode → samples (`legacy` verdicts are not tamper-proof).
    pub modes: BTreeMap<String, usize>,
    /// Table columns: subset → its difficulties in display order.
    pub columns: Vec<(String, Vec<String>)>,
    pub models: BTreeMap<String, ModelSummary>,
    /// Error class label → samples, all models.
    pub errors: BTreeMap<String, usize>,
    /// Failure class label → samples, all models (samples with a class).
    pub classes: BTreeMap<String, usize>,
    pub timed_out: usize,
    /// Passed, but used at least half of the time limit (timing-sensitive).
    pub near_limit: Vec<String>,
    pub total_time_s: f64,
    pub agreement: Option<Agreement>,
    /// Samples judged with weaker isolation (`--allow-weak-sandbox`).
    #[serde(default)]
    pub weak_sandbox: usize,
}

/// Label of samples whose problem has no subset.
pub const NO_SUBSET: &str = "all problems";

fn difficulty_rank(d: &str) -> (u8, String) {
    let rank = match d {
        "easy" => 0,
        "medium" => 1,
        "hard" => 2,
        _ => 3,
    };
    (rank, d.to_string())
}

/// Summarizes records (already sorted in input order), strictly; `ks` are
/// the requested pass@k values.
pub fn summarize(records: &[Record], ks: &[usize]) -> Summary {
    summarize_counting(records, ks, Counting::default())
}

/// [`summarize`], the headline figures counting as passed what `counting`
/// says.
pub fn summarize_counting(records: &[Record], ks: &[usize], counting: Counting) -> Summary {
    let mut columns: Vec<(String, Vec<String>)> = Vec::new();
    let mut modes = BTreeMap::new();
    let mut errors = BTreeMap::new();
    let mut classes: BTreeMap<String, usize> = BTreeMap::new();
    // model → task → samples counted passed under each of THREE_WAYS.
    let mut three: BTreeMap<&str, BTreeMap<&str, (usize, [usize; 3])>> = BTreeMap::new();
    // model → task → (subset, difficulty, n, c)
    let mut per_task: BTreeMap<&str, TaskCounts> = BTreeMap::new();
    let mut per_model_samples: BTreeMap<&str, SampleStats> = BTreeMap::new();
    let mut near_limit = Vec::new();
    let mut timed_out = 0;
    let mut total_time_s = 0.0;
    let mut compared = 0;
    let mut disagreements = Vec::new();
    for r in records {
        let j = &r.judged;
        let subset = j.subset.clone().unwrap_or_else(|| NO_SUBSET.to_string());
        match columns.iter_mut().find(|(s, _)| *s == subset) {
            Some((_, diffs)) => {
                if let Some(d) = &j.difficulty
                    && !diffs.contains(d)
                {
                    diffs.push(d.clone());
                    diffs.sort_by_key(|d| difficulty_rank(d));
                }
            }
            None => columns.push((subset.clone(), j.difficulty.iter().cloned().collect())),
        }
        *modes.entry(j.mode.clone()).or_insert(0) += 1;
        let entry =
            per_task.entry(&j.model).or_default().entry(&j.task_id).or_insert((subset, j.difficulty.clone(), 0, 0));
        entry.2 += 1;
        entry.3 += usize::from(counting.counts(&j.verdict));
        let ways = three.entry(&j.model).or_default().entry(&j.task_id).or_default();
        ways.0 += 1;
        for (c, way) in ways.1.iter_mut().zip(THREE_WAYS) {
            *c += usize::from(way.counts(&j.verdict));
        }
        let m = per_model_samples.entry(&j.model).or_default();
        m.0 += 1;
        if let (Some(p), Some(t)) = (j.verdict.tests_passed, j.verdict.tests_total)
            && t > 0
        {
            m.1.push(p as f64 / t as f64);
        }
        if let Some(class) = j.verdict.error_class {
            *m.2.entry(class.label().to_string()).or_insert(0) += 1;
            *errors.entry(class.label().to_string()).or_insert(0) += 1;
        }
        if let Some(class) = j.verdict.class {
            *m.3.entry(class.label().to_string()).or_insert(0) += 1;
            *classes.entry(class.label().to_string()).or_insert(0) += 1;
        }
        timed_out += usize::from(j.verdict.error_class == Some(ErrorClass::Timeout));
        if j.verdict.passed && j.verdict.time_s >= j.verdict.time_limit_s / 2.0 {
            near_limit.push(format!("{} ({:.2} s of {:.1} s)", j.sample_key, j.verdict.time_s, j.verdict.time_limit_s));
        }
        total_time_s += j.verdict.time_s;
        if let Some(Json::Bool(recorded)) = r.fields.get("recorded_passed") {
            compared += 1;
            if *recorded != j.verdict.passed {
                let recorded_result = r.fields.get("recorded_result").and_then(Json::as_str).unwrap_or(if *recorded {
                    "passed"
                } else {
                    "failed"
                });
                disagreements.push(Disagreement {
                    model: j.model.clone(),
                    task_id: j.task_id.clone(),
                    recorded: recorded_result.to_string(),
                    judged: j.verdict.result.clone(),
                    time_s: j.verdict.time_s,
                });
            }
        }
    }
    let models = per_task
        .iter()
        .map(|(model, tasks)| {
            let (samples, fractions, errs, model_classes) = per_model_samples.remove(model).unwrap_or_default();
            let mut summary = model_summary(tasks, samples, &fractions, errs, ks);
            summary.pass_at_1_three_ways =
                (!model_classes.is_empty()).then(|| three_ways(three.get(model).map(|t| t.values())));
            summary.classes = model_classes;
            (model.to_string(), summary)
        })
        .collect();
    let agreement = (compared > 0).then(|| Agreement {
        compared,
        agree: compared - disagreements.len(),
        percent: 100.0 * (compared - disagreements.len()) as f64 / compared as f64,
        disagreements,
    });
    Summary {
        counted_as_passed: counting.labels(),
        headline: counting.name().to_string(),
        samples: records.len(),
        passed: records.iter().filter(|r| counting.counts(&r.judged.verdict)).count(),
        modes,
        columns,
        models,
        errors,
        classes,
        timed_out,
        near_limit,
        total_time_s,
        agreement,
        weak_sandbox: records.iter().filter(|r| r.judged.sandbox.is_some()).count(),
    }
}

/// Per model: task id → (subset, difficulty, samples n, passed c).
type TaskCounts<'a> = BTreeMap<&'a str, (String, Option<String>, usize, usize)>;
/// Per model: samples, per-sample test fractions, error class counts,
/// failure class counts.
type SampleStats = (usize, Vec<f64>, BTreeMap<String, usize>, BTreeMap<String, usize>);

/// pass@1 three ways over one model's tasks: (samples, counted passed under
/// each of [`THREE_WAYS`]) per task.
fn three_ways<'a>(tasks: Option<impl Iterator<Item = &'a (usize, [usize; 3])>>) -> ThreeWays {
    let mut sums = [0.0; 3];
    let mut n = 0usize;
    for (samples, counted) in tasks.into_iter().flatten() {
        n += 1;
        for (sum, c) in sums.iter_mut().zip(counted) {
            *sum += *c as f64 / (*samples).max(1) as f64;
        }
    }
    let pct = |s: f64| if n == 0 { 0.0 } else { 100.0 * s / n as f64 };
    ThreeWays { strict: pct(sums[0]), without_slow: pct(sums[1]), within_statement: pct(sums[2]) }
}

fn model_summary(
    tasks: &TaskCounts,
    samples: usize,
    fractions: &[f64],
    errors: BTreeMap<String, usize>,
    ks: &[usize],
) -> ModelSummary {
    let all: Vec<(usize, usize)> = tasks.values().map(|t| (t.2, t.3)).collect();
    let pass_at_k =
        ks.iter().filter_map(|&k| mean_pass_at_k(&all, k).map(|p| (format!("pass@{k}"), 100.0 * p))).collect();
    let mut sums: BTreeMap<String, BTreeMap<String, (f64, usize)>> = BTreeMap::new();
    for (subset, difficulty, n, c) in tasks.values() {
        let rate = *c as f64 / *n as f64;
        let cells = sums.entry(subset.clone()).or_default();
        for key in std::iter::once("all".to_string()).chain(difficulty.clone()) {
            let cell = cells.entry(key).or_insert((0.0, 0));
            cell.0 += rate;
            cell.1 += 1;
        }
    }
    let table: BTreeMap<String, BTreeMap<String, Cell>> = sums
        .into_iter()
        .map(|(subset, cells)| {
            let cells = cells
                .into_iter()
                .map(|(k, (passed, n))| (k, Cell { passed, tasks: n, pass_at_1: 100.0 * passed / n as f64 }))
                .collect();
            (subset, cells)
        })
        .collect();
    let overalls: Vec<f64> = table.values().filter_map(|c| c.get("all").map(|c| c.pass_at_1)).collect();
    ModelSummary {
        samples,
        tasks: tasks.len(),
        pass_at_k,
        test_case_average: (!fractions.is_empty())
            .then(|| 100.0 * fractions.iter().sum::<f64>() / fractions.len() as f64),
        table,
        average: (!overalls.is_empty()).then(|| overalls.iter().sum::<f64>() / overalls.len() as f64),
        errors,
        classes: BTreeMap::new(),
        pass_at_1_three_ways: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::records::Judged;
    use crate::verdict::Verdict;
    use serde_json::json;

    fn record(model: &str, task: &str, subset: &str, diff: Option<&str>, passed: bool, recorded: bool) -> Record {
        let judged = Judged {
            task_id: task.into(),
            model: model.into(),
            subset: Some(subset.into()),
            difficulty: diff.map(str::to_string),
            mode: "legacy".into(),
            judge: String::new(),
            verdict: Verdict::plain(passed, 0.1),
            sample_key: format!("{model}/{task}"),
            sample_index: 0,
            sandbox: None,
        };
        let mut fields = serde_json::Map::new();
        fields.insert("recorded_passed".into(), json!(recorded));
        Record { judged, fields }
    }

    #[test]
    fn table_and_agreement() {
        let records = vec![
            record("a", "h1", "HumanEval-V", None, true, true),
            record("a", "h2", "HumanEval-V", None, false, false),
            record("a", "m1", "MATH", Some("hard"), true, true),
            record("a", "m2", "MATH", Some("easy"), false, true),
        ];
        let s = summarize(&records, &[1, 5]);
        assert_eq!(
            s.columns,
            vec![
                ("HumanEval-V".to_string(), vec![]),
                ("MATH".to_string(), vec!["easy".to_string(), "hard".to_string()])
            ]
        );
        let a = &s.models["a"];
        assert_eq!(a.table["HumanEval-V"]["all"].pass_at_1, 50.0);
        assert_eq!(a.table["MATH"]["hard"].pass_at_1, 100.0);
        assert_eq!(a.table["MATH"]["easy"].pass_at_1, 0.0);
        assert_eq!(a.average, Some(50.0));
        assert_eq!(a.pass_at_k.get("pass@1"), Some(&50.0));
        assert!(!a.pass_at_k.contains_key("pass@5"));
        let agreement = s.agreement.expect("recorded verdicts");
        assert_eq!((agreement.compared, agreement.agree), (4, 3));
        assert_eq!(agreement.disagreements[0].task_id, "m2");
        assert_eq!(s.errors["wrong answer"], 2);
    }

    #[test]
    fn pass_at_1_three_ways_and_the_headline_counting() {
        let classed = |model: &str, task: &str, class: Class| {
            let mut r = record(model, task, "HumanEval-V", None, class == Class::Passed, true);
            r.judged.verdict.class = Some(class);
            r
        };
        let records = vec![
            classed("a", "h1", Class::Passed),
            classed("a", "h2", Class::Slow),
            classed("a", "h3", Class::Widened),
            classed("a", "h4", Class::Wrong),
        ];
        let s = summarize(&records, &[1]);
        let a = &s.models["a"];
        let w = a.pass_at_1_three_ways.expect("classed samples");
        assert_eq!((w.strict, w.without_slow, w.within_statement), (25.0, 50.0, 75.0));
        assert_eq!((s.headline.as_str(), s.passed, a.pass_at_k["pass@1"]), ("strict", 1, 25.0));
        assert_eq!(a.classes["slow"], 1);
        let within = Counting::parse("slow,widened").expect("valid");
        let s = summarize_counting(&records, &[1], within);
        assert_eq!(
            (s.headline.as_str(), s.passed, s.models["a"].pass_at_k["pass@1"]),
            ("within the statement", 3, 75.0)
        );
        assert_eq!(s.counted_as_passed, vec!["slow", "widened"]);
        assert_eq!(Counting::parse("widened"), Err(CountingError::WidenedWithoutSlow));
        assert!(matches!(Counting::parse("fast"), Err(CountingError::Unknown(w)) if w == "fast"));
        assert_eq!(Counting::parse("strict"), Ok(Counting::default()));
        // Legacy verdicts have no class: no three-way figures.
        let legacy = summarize(&[record("b", "h1", "HumanEval-V", None, true, true)], &[1]);
        assert_eq!(legacy.models["b"].pass_at_1_three_ways, None);
    }
}
