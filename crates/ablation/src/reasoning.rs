//! What reasoning first buys: per model, each condition against its `+cot`
//! twin (HumanEval-V's V2C against V2C with chain-of-thought), paired
//! problem by problem.
//!
//! # How it works
//!
//! Each judged run is labelled with its model and condition
//! ([`super::signature::label`]). For every run whose condition ends in
//! `+cot`, the first run of the same model (and coder) under the condition
//! without it is its twin; the twin is the baseline of
//! [`super::compare::delta`], so Δ reads `+cot` − plain (bootstrap
//! interval, exact McNemar on the first samples).

use std::str::FromStr as _;

use serde::Serialize;

use super::compare::{Delta, Run, TaskScore, delta};
use super::prompts::Condition;
use super::signature::Label;

/// One model's condition against its reasoning-first twin.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ReasoningPair {
    pub model: String,
    /// The condition without `+cot`.
    pub condition: String,
    /// The runs compared (their `--run` names).
    pub plain_run: String,
    pub cot_run: String,
    /// pass@1 (%) of each on the paired problems.
    pub plain_pass_at_1: f64,
    pub cot_pass_at_1: f64,
    /// `+cot` − plain, percentage points, paired over problems.
    pub delta: Delta,
}

/// The condition a `+cot` condition reasons about, if `condition` is one.
fn plain_of(condition: &str) -> Option<String> {
    let parsed = Condition::from_str(condition).ok()?;
    parsed.reasons_first().then(|| parsed.base().to_string())
}

/// Every `+cot` run with a plain twin, in run order.
pub fn pairs(runs: &[Run], labels: &[Label]) -> Vec<ReasoningPair> {
    let labelled: Vec<(&Run, &Label)> = runs.iter().zip(labels).collect();
    labelled
        .iter()
        .filter_map(|(cot, l)| {
            let plain = plain_of(&l.condition)?;
            let (twin, _) =
                labelled.iter().find(|(_, o)| o.model == l.model && o.coder == l.coder && o.condition == plain)?;
            pair(&l.model, &plain, twin, cot)
        })
        .collect()
}

fn pair(model: &str, condition: &str, plain: &Run, cot: &Run) -> Option<ReasoningPair> {
    let pairs: Vec<(&TaskScore, &TaskScore)> =
        plain.scores.iter().filter_map(|(id, p)| cot.scores.get(id).map(|c| (p, c))).collect();
    let delta = delta(&pairs)?;
    let rate = |scores: Vec<&TaskScore>| {
        100.0 * scores.iter().map(|s| s.c as f64 / s.n as f64).sum::<f64>() / scores.len() as f64
    };
    Some(ReasoningPair {
        model: model.to_string(),
        condition: condition.to_string(),
        plain_run: plain.name.clone(),
        cot_run: cot.name.clone(),
        plain_pass_at_1: rate(pairs.iter().map(|p| p.0).collect()),
        cot_pass_at_1: rate(pairs.iter().map(|p| p.1).collect()),
        delta,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures::{label, run};

    #[test]
    fn each_cot_run_is_paired_with_the_same_models_plain_run() {
        let runs = [
            run("m1", &[("t1", true), ("t2", false), ("t3", false), ("t4", true)]),
            run("m1-cot", &[("t1", true), ("t2", true), ("t3", true), ("t4", false)]),
            run("m2-cot", &[("t1", true)]),
            run("m1-mermaid-cot", &[("t1", true)]),
        ];
        let labels = [
            label("m1", "flowchart@dark"),
            label("m1", "flowchart@dark+cot"),
            label("m2", "flowchart@dark+cot"),
            label("m1", "mermaid+cot"),
        ];
        let pairs = pairs(&runs, &labels);
        // m2 has no plain run, m1 no plain mermaid run: one pair.
        assert_eq!(pairs.len(), 1);
        let p = &pairs[0];
        assert_eq!(
            (p.plain_run.as_str(), p.cot_run.as_str(), p.condition.as_str()),
            ("m1", "m1-cot", "flowchart@dark")
        );
        // By hand: plain solves 2 of 4, cot 3 of 4; t2, t3 only with cot,
        // t4 only without: Δ = +25 points, McNemar on (1, 2) discordant.
        assert_eq!((p.plain_pass_at_1, p.cot_pass_at_1), (50.0, 75.0));
        assert_eq!((p.delta.delta, p.delta.tasks, p.delta.only_baseline, p.delta.only_condition), (25.0, 4, 1, 2));
        assert_eq!(p.delta.mcnemar_p, 1.0);
        assert!(p.delta.ci_low <= 25.0 && p.delta.ci_high >= 25.0);
    }
}
