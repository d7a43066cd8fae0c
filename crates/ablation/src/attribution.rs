//! Perception or reasoning: with a `transcribe` run (the model's Mermaid of
//! each image, scored on the graph by [`flowbench_transcription`]) and a code
//! run (`flowchart` or `flowchart-then-code`) of the same model and
//! rendering, say of each failed problem whether the model misread the
//! chart (*perception*) or read it right and coded it wrong (*reasoning*).
//!
//! # How it works
//!
//! Per problem, the transcriptions' mean relaxed triple F1 (an unparseable
//! transcription scores 0 and so reads wrong) decides *read right* against
//! a stated threshold ([`ReadRule::TripleF1`], default 0.9), or the
//! executable score does ([`ReadRule::Executes`]: `chart2py` of at least
//! half the transcriptions passes the tests); *coded right* is a pass rate
//! of at least one half in the code run. The 2 × 2 table of the two is
//! kept per subset × difficulty (and `all`); the shares split the code
//! failures into those on charts read right (reasoning) and read wrong
//! (perception). The correlation between triple F1 and pass rate is
//! Pearson's r and Spearman's ρ (ties take their mean rank) over problems.
//! Element error rates pool every transcription's counts.

use std::collections::BTreeMap;
use std::str::FromStr as _;

use serde::Serialize;

use super::compare::Run;
use super::prompts::Condition;
use super::signature::Label;
use flowbench_transcription::Score;

/// The default "read right" threshold on relaxed triple F1.
pub const DEFAULT_THRESHOLD: f64 = 0.9;

/// What "read right" means.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(tag = "by", rename_all = "snake_case")]
pub enum ReadRule {
    /// Mean relaxed triple F1 of the problem's transcriptions ≥ this.
    TripleF1 { threshold: f64 },
    /// `chart2py` of at least half the transcriptions passes the tests.
    Executes,
}

impl ReadRule {
    /// The rule as the report states it.
    pub fn describe(&self) -> String {
        match self {
            ReadRule::TripleF1 { threshold } => format!("mean relaxed triple F1 ≥ {threshold}"),
            ReadRule::Executes => "chart2py of at least half the transcriptions passes the tests".into(),
        }
    }
}

/// A scored `transcribe` run: per problem, each sample's score.
#[derive(Debug, Clone)]
pub struct ReadRun {
    pub name: String,
    pub label: Label,
    pub scores: BTreeMap<String, Vec<Score>>,
}

/// Read right / wrong × coded right / wrong, in problems.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct TwoByTwo {
    pub read_right_coded_right: usize,
    /// Reasoning failures.
    pub read_right_coded_wrong: usize,
    pub read_wrong_coded_right: usize,
    /// Perception failures.
    pub read_wrong_coded_wrong: usize,
}

impl TwoByTwo {
    fn add(&mut self, read_right: bool, coded_right: bool) {
        *match (read_right, coded_right) {
            (true, true) => &mut self.read_right_coded_right,
            (true, false) => &mut self.read_right_coded_wrong,
            (false, true) => &mut self.read_wrong_coded_right,
            (false, false) => &mut self.read_wrong_coded_wrong,
        } += 1;
    }

    pub fn code_failures(&self) -> usize {
        self.read_right_coded_wrong + self.read_wrong_coded_wrong
    }
}

/// One subset × difficulty cell.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Cell {
    pub problems: usize,
    pub table: TwoByTwo,
    /// Code failures on charts read right, as a share of all code
    /// failures; `None` when nothing failed.
    pub reasoning_share: Option<f64>,
    /// Code failures on charts read wrong, the same way.
    pub perception_share: Option<f64>,
}

impl Cell {
    fn of(table: TwoByTwo) -> Cell {
        let failures = table.code_failures();
        let share = |part: usize| (failures > 0).then(|| part as f64 / failures as f64);
        Cell {
            problems: table.read_right_coded_right + table.read_wrong_coded_right + failures,
            table,
            reasoning_share: share(table.read_right_coded_wrong),
            perception_share: share(table.read_wrong_coded_wrong),
        }
    }
}

/// One problem's reading and coding.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ProblemAttribution {
    pub task_id: String,
    pub subset: String,
    pub difficulty: Option<String>,
    /// Mean relaxed triple F1 of its transcriptions.
    pub triple_f1: f64,
    /// Share of its transcriptions whose `chart2py` passes the tests
    /// (`None`: not run).
    pub executes: Option<f64>,
    pub read_right: bool,
    /// Code samples passed / judged.
    pub pass_rate: f64,
    pub coded_right: bool,
    /// `reasoning` (read right, coded wrong), `perception` (read wrong,
    /// coded wrong) or `None` (coded right).
    pub failure: Option<&'static str>,
    /// Why the first transcription did not parse, if it did not.
    pub unread: Option<String>,
}

/// Correlation between triple F1 and pass rate over problems; `None` when
/// either is constant or there are fewer than three problems.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Correlation {
    pub problems: usize,
    pub pearson: Option<f64>,
    pub spearman: Option<f64>,
}

/// Misreadings per chart element, pooled over every transcription.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct ElementErrors {
    pub edges_total: usize,
    /// Source edges with no transcribed edge between the matched ends.
    pub edges_missed: usize,
    pub branches_total: usize,
    /// Yes/No edges not kept (swapped, or leading elsewhere, or missing).
    pub branches_wrong: usize,
    pub back_edges_total: usize,
    pub back_edges_missed: usize,
    /// Subgraphs (helpers) not recovered as one subgraph of the same nodes.
    pub subgraphs_total: usize,
    pub subgraphs_missed: usize,
}

impl ElementErrors {
    fn add(&mut self, s: &Score) {
        let c = &s.counts;
        self.edges_total += c.edges_source;
        self.edges_missed += c.edges_source - c.edges_matched.min(c.edges_source);
        self.branches_total += c.branches_total;
        self.branches_wrong += c.branches_total - c.branches_correct.min(c.branches_total);
        self.back_edges_total += c.back_edges_total;
        self.back_edges_missed += c.back_edges_total - c.back_edges_found.min(c.back_edges_total);
        self.subgraphs_total += c.subgraphs_total;
        self.subgraphs_missed += c.subgraphs_total - c.subgraphs_recovered.min(c.subgraphs_total);
    }

    /// (element, missed, total) rows for the reports.
    pub fn rows(&self) -> [(&'static str, usize, usize); 4] {
        [
            ("edges missed", self.edges_missed, self.edges_total),
            ("branches swapped or lost", self.branches_wrong, self.branches_total),
            ("back edges missed", self.back_edges_missed, self.back_edges_total),
            ("helpers/subgraphs missed", self.subgraphs_missed, self.subgraphs_total),
        ]
    }
}

/// One model's transcribe run against one of its code runs.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Attribution {
    pub model: String,
    pub transcribe_run: String,
    pub code_run: String,
    pub code_condition: String,
    pub read_right: ReadRule,
    /// The rule as stated in the report.
    pub read_right_means: String,
    pub coded_right_means: &'static str,
    /// subset → difficulty (or `all`) → cell; subset `all` is every problem.
    pub table: BTreeMap<String, BTreeMap<String, Cell>>,
    pub correlation: Correlation,
    pub errors: ElementErrors,
    pub problems: Vec<ProblemAttribution>,
}

/// Every attribution of a report, and why a model has none.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Section {
    pub pairs: Vec<Attribution>,
    /// One line per code run left without a transcribe run.
    pub omitted: Vec<String>,
}

/// The image rendering a condition shows (`Some(None)`: the build's
/// default style), or `None` for conditions without an image.
fn rendering(condition: &str) -> Option<Option<String>> {
    match Condition::from_str(condition).ok()? {
        Condition::Flowchart(s) | Condition::FlowchartThenCode(s) | Condition::Transcribe(s) => Some(s),
        _ => None,
    }
}

fn is_transcribe(condition: &str) -> bool {
    Condition::from_str(condition).is_ok_and(|c| c.is_transcription())
}

/// Pairs every image code run with the transcribe run of the same model and
/// rendering and attributes its failures; a code run without one is named
/// in `omitted`.
pub fn attribute(read_runs: &[ReadRun], code_runs: &[(&Run, &Label)], rule: ReadRule) -> Section {
    let mut section = Section::default();
    for (run, label) in code_runs {
        let Some(style) = rendering(&label.condition).filter(|_| !is_transcribe(&label.condition)) else { continue };
        let read = read_runs
            .iter()
            .find(|r| r.label.model == label.model && rendering(&r.label.condition).as_ref() == Some(&style));
        match read {
            Some(read) => section.pairs.push(pair(read, run, label, rule)),
            None => section.omitted.push(format!(
                "run {} (model {}, {}): no transcribe run of this model and rendering, so no attribution",
                run.name, label.model, label.condition
            )),
        }
    }
    section
}

/// One transcribe run against one code run, on the problems both have.
pub fn pair(read: &ReadRun, code: &Run, label: &Label, rule: ReadRule) -> Attribution {
    let mut problems = Vec::new();
    let mut errors = ElementErrors::default();
    for (id, score) in &code.scores {
        let Some(samples) = read.scores.get(id).filter(|s| !s.is_empty()) else { continue };
        samples.iter().for_each(|s| errors.add(s));
        problems.push(problem(id, samples, score, rule));
    }
    Attribution {
        model: label.model.clone(),
        transcribe_run: read.name.clone(),
        code_run: code.name.clone(),
        code_condition: label.condition.clone(),
        read_right: rule,
        read_right_means: rule.describe(),
        coded_right_means: "pass rate ≥ 0.5 in the code run",
        table: table(&problems),
        correlation: correlation(&problems),
        errors,
        problems,
    }
}

fn problem(id: &str, samples: &[Score], code: &super::compare::TaskScore, rule: ReadRule) -> ProblemAttribution {
    let n = samples.len() as f64;
    let triple_f1 = samples.iter().map(|s| s.triple_f1_relaxed).sum::<f64>() / n;
    let ran = samples.iter().any(|s| s.executes.is_some());
    let executes = ran.then(|| samples.iter().filter(|s| s.executes == Some(true)).count() as f64 / n);
    let read_right = match rule {
        ReadRule::TripleF1 { threshold } => triple_f1 >= threshold,
        ReadRule::Executes => executes.is_some_and(|e| e >= 0.5),
    };
    let pass_rate = if code.n == 0 { 0.0 } else { code.c as f64 / code.n as f64 };
    let coded_right = pass_rate >= 0.5;
    ProblemAttribution {
        task_id: id.to_string(),
        subset: code.subset.clone(),
        difficulty: code.difficulty.clone(),
        triple_f1,
        executes,
        read_right,
        pass_rate,
        coded_right,
        failure: match (coded_right, read_right) {
            (true, _) => None,
            (false, true) => Some("reasoning"),
            (false, false) => Some("perception"),
        },
        unread: samples[0].reason.clone().filter(|_| !samples[0].parsed),
    }
}

const ALL: &str = "all";

fn table(problems: &[ProblemAttribution]) -> BTreeMap<String, BTreeMap<String, Cell>> {
    let mut tables: BTreeMap<String, BTreeMap<String, TwoByTwo>> = BTreeMap::new();
    for p in problems {
        let difficulty = p.difficulty.clone().unwrap_or_else(|| ALL.to_string());
        let mut keys = vec![(p.subset.as_str(), difficulty.as_str()), (p.subset.as_str(), ALL), (ALL, ALL)];
        keys.dedup(); // a subset without difficulties has only its `all` cell
        for (subset, d) in keys {
            tables
                .entry(subset.to_string())
                .or_default()
                .entry(d.to_string())
                .or_default()
                .add(p.read_right, p.coded_right);
        }
    }
    tables.into_iter().map(|(s, ds)| (s, ds.into_iter().map(|(d, t)| (d, Cell::of(t))).collect())).collect()
}

fn correlation(problems: &[ProblemAttribution]) -> Correlation {
    let x: Vec<f64> = problems.iter().map(|p| p.triple_f1).collect();
    let y: Vec<f64> = problems.iter().map(|p| p.pass_rate).collect();
    Correlation { problems: x.len(), pearson: pearson(&x, &y), spearman: pearson(&ranks(&x), &ranks(&y)) }
}

/// Pearson's r; `None` with fewer than three points or a constant series.
pub fn pearson(x: &[f64], y: &[f64]) -> Option<f64> {
    let n = x.len();
    if n < 3 || y.len() != n {
        return None;
    }
    let (mx, my) = (x.iter().sum::<f64>() / n as f64, y.iter().sum::<f64>() / n as f64);
    let (mut sxy, mut sxx, mut syy) = (0.0, 0.0, 0.0);
    for (a, b) in x.iter().zip(y) {
        sxy += (a - mx) * (b - my);
        sxx += (a - mx) * (a - mx);
        syy += (b - my) * (b - my);
    }
    (sxx > 0.0 && syy > 0.0).then(|| sxy / (sxx * syy).sqrt())
}

/// 1-based ranks, ties sharing their mean rank (Spearman's convention).
pub fn ranks(v: &[f64]) -> Vec<f64> {
    let mut order: Vec<usize> = (0..v.len()).collect();
    order.sort_by(|&a, &b| v[a].total_cmp(&v[b]));
    let mut out = vec![0.0; v.len()];
    let mut i = 0;
    while i < order.len() {
        let mut j = i;
        while j + 1 < order.len() && v[order[j + 1]] == v[order[i]] {
            j += 1;
        }
        let mean = (i + j) as f64 / 2.0 + 1.0;
        for &k in &order[i..=j] {
            out[k] = mean;
        }
        i = j + 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compare::TaskScore;
    use flowbench_transcription::Counts;

    fn score(f1: f64, edges: (usize, usize), branches: (usize, usize), executes: Option<bool>) -> Score {
        let counts = Counts {
            edges_source: edges.1,
            edges_matched: edges.0,
            branches_total: branches.1,
            branches_correct: branches.0,
            back_edges_total: 1,
            back_edges_found: usize::from(f1 >= 0.9),
            ..Counts::default()
        };
        Score { triple_f1_relaxed: f1, executes, ..Score::from_counts(counts, true, None, 0) }
    }

    fn task(subset: &str, difficulty: &str, n: usize, c: usize) -> TaskScore {
        TaskScore {
            subset: subset.into(),
            difficulty: Some(difficulty.into()),
            n,
            c,
            first_passed: c > 0,
            first_error: None,
        }
    }

    /// Five problems worked by hand:
    ///
    /// | task | F1 | pass rate | read (0.9) | coded | failure |
    /// |---|---|---|---|---|---|
    /// | a | 1.0 | 1.0 | right | right | — |
    /// | b | 0.95 | 0.0 | right | wrong | reasoning |
    /// | c | 0.5 | 0.0 | wrong | wrong | perception |
    /// | d | 0.0 (unparsed) | 0.0 | wrong | wrong | perception |
    /// | e | 0.6 | 0.5 | wrong | right | — |
    ///
    /// Failures 3: reasoning 1/3, perception 2/3. Pearson of
    /// x = (1, .95, .5, 0, .6), y = (1, 0, 0, 0, .5): mean x = .61, mean
    /// y = .3; Σdxdy = .39·.7 + .34·(−.3) + (−.11)(−.3) + (−.61)(−.3) +
    /// (−.01)(.2) = .273 − .102 + .033 + .183 − .002 = .385; Σdx² = .1521 +
    /// .1156 + .0121 + .3721 + .0001 = .652; Σdy² = .49 + 3·.09 + .04 = .8;
    /// r = .385/√(.5216) ≈ .5331. Spearman: ranks x = (5, 4, 2, 1, 3),
    /// y = (5, 2, 2, 2, 4); means 3, 3; Σdxdy = 2·2 + 1·(−1) + (−1)(−1) +
    /// (−2)(−1) + 0·1 = 6; Σdx² = 10; Σdy² = 4 + 1 + 1 + 1 + 1 = 8;
    /// ρ = 6/√80 ≈ .6708.
    #[test]
    fn figures_match_a_hand_computation() {
        let unparsed = Score::from_counts(
            Counts { edges_source: 4, branches_total: 2, back_edges_total: 1, ..Counts::default() },
            false,
            Some("empty reply".into()),
            0,
        );
        let read = ReadRun {
            name: "t".into(),
            label: Label { model: "m".into(), condition: "transcribe".into(), coder: None },
            scores: [
                ("a", score(1.0, (4, 4), (2, 2), Some(true))),
                ("b", score(0.95, (4, 4), (2, 2), Some(true))),
                ("c", score(0.5, (2, 4), (0, 2), Some(false))),
                ("d", unparsed),
                ("e", score(0.6, (3, 4), (1, 2), None)),
            ]
            .into_iter()
            .map(|(id, s)| (id.to_string(), vec![s]))
            .collect(),
        };
        let code = Run {
            name: "c".into(),
            scores: [
                ("a", task("A", "easy", 2, 2)),
                ("b", task("A", "easy", 2, 0)),
                ("c", task("A", "hard", 1, 0)),
                ("d", task("B", "easy", 1, 0)),
                ("e", task("B", "easy", 2, 1)),
            ]
            .into_iter()
            .map(|(id, s)| (id.to_string(), s))
            .collect(),
        };
        let code_label = Label { model: "m".into(), condition: "flowchart".into(), coder: None };
        let other = Label { model: "other".into(), condition: "flowchart-then-code".into(), coder: None };
        let section = attribute(
            std::slice::from_ref(&read),
            &[(&code, &code_label), (&code, &other)],
            ReadRule::TripleF1 { threshold: DEFAULT_THRESHOLD },
        );
        assert_eq!(section.omitted.len(), 1, "the other model has no transcribe run");
        assert!(section.omitted[0].contains("model other"));
        let a = &section.pairs[0];
        let all = &a.table["all"]["all"];
        assert_eq!(
            all.table,
            TwoByTwo {
                read_right_coded_right: 1,
                read_right_coded_wrong: 1,
                read_wrong_coded_right: 1,
                read_wrong_coded_wrong: 2
            }
        );
        assert_eq!((all.reasoning_share, all.perception_share), (Some(1.0 / 3.0), Some(2.0 / 3.0)));
        assert_eq!(a.table["A"]["easy"].table.read_right_coded_wrong, 1);
        assert_eq!(a.table["A"]["hard"].perception_share, Some(1.0));
        assert_eq!(a.table["B"]["all"].problems, 2);
        assert_eq!(a.table["B"]["easy"].reasoning_share, Some(0.0));
        assert!((a.correlation.pearson.expect("r") - 0.385 / 0.5216f64.sqrt()).abs() < 1e-12);
        assert!((a.correlation.spearman.expect("rho") - 6.0 / 80f64.sqrt()).abs() < 1e-12);
        let failures: Vec<Option<&str>> = a.problems.iter().map(|p| p.failure).collect();
        assert_eq!(failures, [None, Some("reasoning"), Some("perception"), Some("perception"), None]);
        assert_eq!(a.problems[3].unread.as_deref(), Some("empty reply"));
        assert_eq!(
            a.errors.rows(),
            [
                ("edges missed", 7, 20),
                ("branches swapped or lost", 5, 10),
                ("back edges missed", 3, 5),
                ("helpers/subgraphs missed", 0, 0)
            ]
        );
        // The executable score as the rule: e was not run, so it reads wrong.
        let by_execution = pair(&read, &code, &code_label, ReadRule::Executes);
        assert_eq!(by_execution.table["all"]["all"].table.read_right_coded_wrong, 1);
        assert!(!by_execution.problems[4].read_right);
    }

    #[test]
    fn ranks_share_ties() {
        assert_eq!(ranks(&[3.0, 1.0, 3.0, 2.0]), vec![3.5, 1.0, 3.5, 2.0]);
        assert_eq!(pearson(&[1.0, 1.0, 1.0], &[1.0, 2.0, 3.0]), None);
    }
}
