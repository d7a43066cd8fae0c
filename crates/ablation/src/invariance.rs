//! Which problems survive every rendering: per model, the code runs under
//! the default rendering (`flowchart`) and under other styles
//! (`flowchart@STYLE`, e.g. `flowbench build --robustness`'s set) compared
//! problem by problem. Only the picture changes between these runs, never
//! the chart, so a problem solved under one rendering and failed under
//! another was lost (or won) by the rendering alone.
//!
//! # How it works
//!
//! Runs are grouped by model ([`super::signature::label`]); a model's first
//! run of each `flowchart` condition is its run for that rendering, the
//! plain `flowchart` run the baseline. "Solved" is the first sample's
//! verdict, the same one McNemar's test pairs, so a problem is render
//! sensitive exactly when it is one of a factor's discordant pairs. On the
//! problems every rendering's run has, each problem is solved under all,
//! some or none of the renderings; per style (a *factor*), the paired
//! difference against the baseline is [`super::compare::delta`] (bootstrap
//! interval, exact McNemar, sign-flip test) on the problems both runs have.
//! A model with style runs but no plain `flowchart` run is named in
//! [`Section::omitted`]. Without any style run the section is empty and the
//! reports leave it out.

use std::str::FromStr as _;

use serde::Serialize;

use super::compare::{Delta, Run, TaskScore, delta};
use super::prompts::Condition;
use super::signature::Label;

/// One rendering a model was run under.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Rendering {
    /// The condition: `flowchart` (the build's default style) or
    /// `flowchart@STYLE`.
    pub condition: String,
    /// The style id (`None`: the default rendering).
    pub style: Option<String>,
    /// The run (its `--run` name).
    pub run: String,
}

/// Under how many of a model's renderings a problem was solved.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Survival {
    All,
    Some,
    None,
}

/// One problem under each rendering.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ProblemSurvival {
    pub task_id: String,
    /// Solved (first sample) per rendering, in [`ModelInvariance::renderings`] order.
    pub solved: Vec<bool>,
    pub survival: Survival,
}

/// One style against the default rendering.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Factor {
    pub style: String,
    pub run: String,
    /// style − default, percentage points, paired over problems.
    pub delta: Delta,
}

/// One model's renderings compared.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ModelInvariance {
    pub model: String,
    /// The default rendering first, then the styles in run order.
    pub renderings: Vec<Rendering>,
    /// Problems every rendering's run has: the ones counted below.
    pub problems: usize,
    pub solved_under_all: usize,
    pub solved_under_some: usize,
    pub solved_under_none: usize,
    /// Per problem (task id order).
    pub per_problem: Vec<ProblemSurvival>,
    /// Per style, in rendering order.
    pub factors: Vec<Factor>,
    /// Solved under one rendering and failed under another (task id order).
    pub render_sensitive: Vec<String>,
}

/// Every model's comparison; empty without `flowchart@STYLE` runs.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Section {
    pub models: Vec<ModelInvariance>,
    /// One line per model with style runs but no default-rendering run.
    pub omitted: Vec<String>,
}

impl Section {
    /// Nothing to report: the reports leave the section out.
    pub fn is_empty(&self) -> bool {
        self.models.is_empty() && self.omitted.is_empty()
    }
}

/// The rendering a code condition shows: `Some(None)` for `flowchart`,
/// `Some(Some(style))` for `flowchart@STYLE`, `None` for every other
/// condition (Mermaid, text, transcriptions, two-step).
fn rendering_of(condition: &str) -> Option<Option<String>> {
    match Condition::from_str(condition).ok()? {
        Condition::Flowchart(style) => Some(style),
        _ => None,
    }
}

/// The section, from the judged runs and their labels (index-aligned).
pub fn section(runs: &[Run], labels: &[Label]) -> Section {
    let mut by_model: Vec<(&str, Vec<(Rendering, &Run)>)> = Vec::new();
    for (run, label) in runs.iter().zip(labels) {
        let Some(style) = rendering_of(&label.condition) else { continue };
        let idx = match by_model.iter().position(|(m, _)| *m == label.model) {
            Some(i) => i,
            None => {
                by_model.push((&label.model, Vec::new()));
                by_model.len() - 1
            }
        };
        let renderings = &mut by_model[idx].1;
        // A model's first run of a rendering stands for it.
        if renderings.iter().all(|(r, _)| r.style != style) {
            let rendering = Rendering { condition: label.condition.clone(), style, run: run.name.clone() };
            renderings.push((rendering, run));
        }
    }
    let mut out = Section::default();
    for (model, mut renderings) in by_model {
        if renderings.iter().all(|(r, _)| r.style.is_none()) {
            continue; // the default rendering only: nothing to compare
        }
        let Some(base) = renderings.iter().position(|(r, _)| r.style.is_none()) else {
            out.omitted.push(no_baseline(model, &renderings));
            continue;
        };
        let baseline = renderings.remove(base);
        renderings.insert(0, baseline);
        out.models.push(compare_renderings(model, &renderings));
    }
    out
}

fn no_baseline(model: &str, renderings: &[(Rendering, &Run)]) -> String {
    let runs: Vec<&str> = renderings.iter().map(|(r, _)| r.run.as_str()).collect();
    format!(
        "model {model}: runs {} show styled renderings but no run shows the default one (condition `flowchart`) to compare them with",
        runs.join(", ")
    )
}

/// One model's comparison; `renderings[0]` is the default rendering.
fn compare_renderings(model: &str, renderings: &[(Rendering, &Run)]) -> ModelInvariance {
    let (_, base) = renderings[0];
    let per_problem: Vec<ProblemSurvival> = base
        .scores
        .keys()
        .filter_map(|id| {
            let solved: Option<Vec<bool>> =
                renderings.iter().map(|(_, run)| run.scores.get(id).map(|s| s.first_passed)).collect();
            solved.map(|solved| ProblemSurvival { task_id: id.clone(), survival: survival(&solved), solved })
        })
        .collect();
    let count = |s: Survival| per_problem.iter().filter(|p| p.survival == s).count();
    let factors = renderings[1..]
        .iter()
        .filter_map(|(r, run)| {
            let pairs: Vec<(&TaskScore, &TaskScore)> =
                base.scores.iter().filter_map(|(id, b)| run.scores.get(id).map(|s| (b, s))).collect();
            Some(Factor { style: r.style.clone()?, run: r.run.clone(), delta: delta(&pairs)? })
        })
        .collect();
    ModelInvariance {
        model: model.to_string(),
        renderings: renderings.iter().map(|(r, _)| r.clone()).collect(),
        problems: per_problem.len(),
        solved_under_all: count(Survival::All),
        solved_under_some: count(Survival::Some),
        solved_under_none: count(Survival::None),
        render_sensitive: per_problem
            .iter()
            .filter(|p| p.survival == Survival::Some)
            .map(|p| p.task_id.clone())
            .collect(),
        factors,
        per_problem,
    }
}

fn survival(solved: &[bool]) -> Survival {
    match (solved.iter().all(|s| *s), solved.iter().any(|s| *s)) {
        (true, _) => Survival::All,
        (false, true) => Survival::Some,
        (false, false) => Survival::None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures::{label, run};
    use crate::stats::mcnemar_exact;

    /// The fixture, one sample per problem (✓ solved, ✗ failed):
    ///
    /// | model m | p1 | p2 | p3 | p4 | p5 | p6 |
    /// |---|---|---|---|---|---|---|
    /// | `flowchart` (default) | ✓ | ✓ | ✓ | ✗ | ✗ | ✓ |
    /// | `flowchart@hand`      | ✓ | ✗ | ✓ | ✗ | ✓ | ✓ |
    /// | `flowchart@scan`      | ✓ | ✗ | ✗ | ✗ | ✗ | ✓ |
    ///
    /// Worked by hand:
    /// - all: p1, p6 (2); none: p4 (1); some: p2, p3, p5 (3) — the
    ///   render-sensitive list.
    /// - hand − default: differences 0, −1, 0, 0, +1, 0 → mean 0 pp;
    ///   discordant b = 1 (p2, only default), c = 1 (p5, only hand); exact
    ///   McNemar p = 2·P(X ≤ 1 | Bin(2, ½)) = 2·¾ = 1.5, capped at 1.
    /// - scan − default: differences 0, −1, −1, 0, 0, 0 → mean −2/6 =
    ///   −33.3 pp; b = 2 (p2, p3), c = 0; p = 2·P(X = 0 | Bin(2, ½)) =
    ///   2·¼ = 0.5. Every resampled mean is a mean of zeros and minus ones,
    ///   so the bootstrap interval lies in [−100, 0] pp.
    ///
    /// Model `plain` has no style run (no section); model `styled` has
    /// only a style run (omitted, with the reason); the `mermaid` run of m
    /// shows no image and is not a rendering; m's second `flowchart@hand`
    /// run is ignored (the first stands for the rendering).
    #[test]
    fn survival_counts_factors_and_sensitive_problems_match_the_hand_computation() {
        let ids = ["p1", "p2", "p3", "p4", "p5", "p6"];
        let flags = |s: &str| -> Vec<(&str, bool)> { ids.iter().copied().zip(s.chars().map(|c| c == '1')).collect() };
        let runs = [
            run("m", &flags("111001")),
            run("m-mermaid", &flags("000000")),
            run("m-hand", &flags("101011")),
            run("m-scan", &flags("100001")),
            run("m-hand-again", &flags("000000")),
            run("plain", &flags("111111")),
            run("styled", &flags("111111")),
        ];
        let labels = [
            label("m", "flowchart"),
            label("m", "mermaid"),
            label("m", "flowchart@hand"),
            label("m", "flowchart@scan"),
            label("m", "flowchart@hand"),
            label("plain", "flowchart"),
            label("styled", "flowchart@scan"),
        ];
        let s = section(&runs, &labels);
        assert_eq!(s.models.len(), 1, "only m has a default and a styled run");
        assert_eq!(s.omitted.len(), 1);
        assert!(s.omitted[0].contains("model styled") && s.omitted[0].contains("`flowchart`"), "{}", s.omitted[0]);
        let m = &s.models[0];
        let runs_shown: Vec<&str> = m.renderings.iter().map(|r| r.run.as_str()).collect();
        assert_eq!(runs_shown, ["m", "m-hand", "m-scan"]);
        assert_eq!(m.renderings[1].style.as_deref(), Some("hand"));
        assert_eq!((m.problems, m.solved_under_all, m.solved_under_some, m.solved_under_none), (6, 2, 3, 1));
        assert_eq!(m.render_sensitive, ["p2", "p3", "p5"]);
        assert_eq!(m.per_problem[4].solved, [false, true, false], "p5: only under hand");

        let hand = &m.factors[0];
        assert_eq!((hand.style.as_str(), hand.run.as_str()), ("hand", "m-hand"));
        let d = &hand.delta;
        assert_eq!((d.tasks, d.delta, d.only_baseline, d.only_condition, d.mcnemar_p), (6, 0.0, 1, 1, 1.0));
        assert!(d.ci_low < 0.0 && d.ci_high > 0.0, "{d:?}");

        let scan = &m.factors[1].delta;
        assert!((scan.delta - (-100.0 / 3.0)).abs() < 1e-9, "{}", scan.delta);
        assert_eq!((scan.only_baseline, scan.only_condition), (2, 0));
        assert!((scan.mcnemar_p - 0.5).abs() < 1e-12 && mcnemar_exact(2, 0) == scan.mcnemar_p);
        assert!(
            -100.0 <= scan.ci_low && scan.ci_low <= scan.delta && scan.delta <= scan.ci_high && scan.ci_high <= 0.0
        );
    }

    #[test]
    fn without_style_runs_there_is_no_section() {
        let runs = [run("a", &[("p1", true)]), run("b", &[("p1", false)])];
        let labels = [label("a", "flowchart"), label("b", "mermaid")];
        assert!(section(&runs, &labels).is_empty());
    }
}
